"""`specdb export peaks`: a peak table keyed by the names runtimes print, and a reader that needs nothing but Python."""

import json
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from specdb.cli import app


@pytest.fixture(scope="module")
def exported(tmp_path_factory, bundled_db):
    folder = tmp_path_factory.mktemp("peaks") / "peaks"
    result = CliRunner().invoke(app, ["export", "peaks", str(folder), "--db", str(bundled_db)])
    assert result.exit_code == 0, result.output
    return folder


def _run(folder, code):
    """Run code beside the exported files in a Python that sees neither specdb nor site-packages."""
    script = "import sys; sys.path.insert(0, '.')\n" + textwrap.dedent(code)
    done = subprocess.run([sys.executable, "-S", "-E", "-c", script], cwd=folder, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_reader_gives_the_dense_peak_by_the_name_the_runtime_prints(exported):
    # 989 TFLOPS dense BF16 for the H100 SXM (NVIDIA's benchmarking README), whatever form the name takes.
    out = _run(exported, """
        import specdb_peaks
        for name in ("NVIDIA H100 80GB HBM3", "nvidia_h100_80gb_hbm3", "nvidia-h100-sxm"):
            print(specdb_peaks.peak(name, "bf16"))
        print(specdb_peaks.peak("0x233510DE", "bf16") == specdb_peaks.peak("NVIDIA H200", "bf16"))
        print("specdb" in sys.modules)
    """)
    assert out.split() == ["989000000000000.0"] * 3 + ["True", "False"]


def test_the_reader_refuses_what_the_data_does_not_say(exported):
    out = _run(exported, """
        import specdb_peaks
        for name, dtype, sparse in (("gfx942", "bf16", False), ("NVIDIA H100 NVL", "bf16", False),
                                    ("NVIDIA H100 80GB HBM3", "bf16", True), ("NVIDIA H100 80GB HBM3", "fp4", False)):
            try:
                print(specdb_peaks.peak(name, dtype, sparse))
            except KeyError as refused:
                print("refused", refused)
    """)
    assert out.count("refused") == 4 and "amd-mi300x, amd-mi325x" in out


def test_the_export_carries_the_licence_and_attribution(exported):
    manifest = json.loads((exported / "specdb-export.json").read_text())
    table = json.loads((exported / "peaks.json").read_text())
    assert manifest["format"] == "peaks" and manifest["files"] == ["peaks.json", "specdb_peaks.py"]
    assert table["data_license"] == manifest["data_license"] and table["attribution"] == manifest["attribution"]
    assert manifest["attribution"] in (exported / "specdb_peaks.py").read_text()
