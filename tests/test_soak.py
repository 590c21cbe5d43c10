"""Soak runs, only with SPECDB_SOAK=1 (minutes, not seconds): a generated tree of hundreds of records, broken in a few
places at random, and rounds of builds and reads of one database from several processes at once.

The property tests (test_properties.py, test_extremes.py) run with eight times their examples under the same switch.
"""

import json
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, TEST_SPECS
from specdb.db.builder import build
from specdb.load.dataset import load_specs
from specdb.errors import InvalidSpecs
from specdb.db.store import connect_readonly
from specdb.analysis.tiers import ratio_rows

pytestmark = pytest.mark.soak

PLATFORMS = 300
# The test data holds 16 figures; each generated accelerator adds 4 and each system 3.
FIGURES = 16 + PLATFORMS * (4 + 3)


def _gpu(index: int) -> str:
    return f"gen-gpu-{index:04d}"


def _system(index: int) -> str:
    # Ids count down while release dates count up: the id order is the reverse of the generation order.
    return f"gen-system-{PLATFORMS - index:04d}"


def _released(index: int) -> str:
    return f"{2000 + index // 12}-{index % 12 + 1:02d}"


def _generate(specs: Path) -> None:
    """The test data, and PLATFORMS more platforms: platform i's accelerator has (i + 1) TB/s of memory bandwidth."""
    shutil.copytree(TEST_SPECS, specs)
    gpu = (specs / "accelerator" / "test-gpu.yaml").read_text()
    system = (specs / "system" / "test-system.yaml").read_text()
    for index in range(PLATFORMS):
        (specs / "accelerator" / f"{_gpu(index)}.yaml").write_text(
            gpu.replace("id: test-gpu", f"id: {_gpu(index)}").replace("aliases: [TEST GPU 80GB HBM3, Test GPU SXM]", "aliases: []")
            .replace("value: 3.35 TB/s", f"value: {index + 1} TB/s")
        )
        (specs / "system" / f"{_system(index)}.yaml").write_text(
            system.replace("id: test-system", f"id: {_system(index)}").replace("released: 2022-09", f"released: {_released(index)}")
            .replace("accelerator: test-gpu", f"accelerator: {_gpu(index)}")
        )


def test_a_generated_tree_builds_and_reads_in_generation_order(tmp_path):
    specs, db = tmp_path / "specs", tmp_path / "specdb.sqlite"
    _generate(specs)
    build(specs, db)
    connection = connect_readonly(db)
    assert connection.execute("SELECT COUNT(*) FROM figure").fetchone()[0] == FIGURES
    rows = ratio_rows(connection)
    # test-system (2022-09) ties with platform 272 (2022-09) and follows it by id ("gen-..." < "test-...").
    order = [_system(index) for index in range(273)] + ["test-system"] + [_system(index) for index in range(273, PLATFORMS)]
    assert [row["platform"] for row in rows] == order
    generated = {row["platform"]: row for row in rows if row["platform"] != "test-system"}
    for index in range(PLATFORMS):
        row = generated[_system(index)]
        # (i + 1) TB/s of memory, 900 GB/s both ways (450 each way) of scale-up, 400 Gb/s (50 GB/s) out.
        assert (row["memory_gbps"], row["scale_up_gbps"], row["scale_out_gbps"]) == ((index + 1) * 1000, 450, 50)
        assert row["memory_to_scale_up"] == round((index + 1) * 1000 / 450, 2)
        assert (row["scale_up_to_scale_out"], row["memory_to_scale_out"]) == (9, (index + 1) * 20)
        assert row["bf16_flop_per_network_byte"] == 19780  # 989 TFLOP/s / 50 GB/s
        assert row["year"] == 2000 + index // 12


@pytest.mark.parametrize("seed", range(3))
def test_a_generated_tree_broken_at_random_names_exactly_the_broken_files(tmp_path, seed):
    specs, db = tmp_path / "specs", tmp_path / "specdb.sqlite"
    _generate(specs)
    build(specs, db)
    before = db.read_bytes()
    chance = random.Random(seed)
    files = sorted(chance.sample([f"accelerator/{_gpu(i)}.yaml" for i in range(PLATFORMS)] + [f"system/{_system(i)}.yaml" for i in range(PLATFORMS)], 5))
    for relpath in files:
        path = specs / relpath
        path.write_text(path.read_text().replace("status: shipping", "status: rumoured", 1))
    problems = load_specs(specs).problems
    assert sorted({Path(problem.path).relative_to(specs).as_posix() for problem in problems}) == files
    assert all("'rumoured' is not one of" in problem.message for problem in problems)
    with pytest.raises(InvalidSpecs) as raised:
        build(specs, db)
    assert raised.value.problems == problems
    assert db.read_bytes() == before


BUILD = f"import sys; sys.path.insert(0, {str(REPO)!r}); from pathlib import Path; from specdb.db.builder import build; build(Path(sys.argv[1]), Path(sys.argv[2]))"


def test_rounds_of_concurrent_builds_and_reads_never_fail_nor_mix_two_versions(tmp_path):
    first, second, db = tmp_path / "first", tmp_path / "second", tmp_path / "specdb.sqlite"
    shutil.copytree(TEST_SPECS, first)
    shutil.copytree(TEST_SPECS, second)
    gpu = second / "accelerator" / "test-gpu.yaml"
    gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 6.7 TB/s"))
    hashes = {}
    for specs in (first, second):
        hashes[specs] = build(specs, db).content_hash
    # Memory over scale-up, 450 GB/s each way: 3,350 / 450 = 7.44 and 6,700 / 450 = 14.89.
    ratios = {7.44, 14.89}
    for round_ in range(6):
        builders = [subprocess.Popen([sys.executable, "-c", BUILD, str(specs), str(db)], stderr=subprocess.PIPE) for specs in (first, second, first)]
        readers = [
            subprocess.Popen([sys.executable, "-m", "specdb", "query", "ratios", "-f", "json", "--specs", str(specs), "--db", str(db)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
            for specs in (second, first)
        ]
        for process in builders:
            _, errors = process.communicate(timeout=300)
            assert process.returncode == 0, (round_, errors)
        for process in readers:
            output, errors = process.communicate(timeout=300)
            assert process.returncode == 0, (round_, errors)
            assert json.loads(output)[0]["memory_to_scale_up"] in ratios
        connection = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()[0] in hashes.values()
        assert connection.execute("SELECT COUNT(*) FROM figure").fetchone()[0] == 16
        connection.close()
    assert not list(db.parent.glob(f".{db.name}.*"))
