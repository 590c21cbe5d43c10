"""`specdb peak` and `specdb.peak`: the dense peak unless the sparse one is asked for, with its source, and no made-up number."""

import json

import pytest
from typer.testing import CliRunner

import specdb
from specdb.cli import app
from specdb.errors import AmbiguousName, NotFound


@pytest.fixture(scope="module")
def connection(bundled_db):
    return specdb.connect(db=bundled_db)


def test_the_h100_dense_bf16_peak_is_989_tflops_with_its_source(bundled_db):
    # NVIDIA's benchmarking README: "989" dense BF16 TFLOPS for H100 ("based on non-sparse specifications").
    result = CliRunner().invoke(app, ["peak", "NVIDIA H100 80GB HBM3", "--dtype", "bf16", "--format", "json", "--db", str(bundled_db)])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["value"] == 989e12 and found["sparsity"] == "dense" and found["record_id"] == "nvidia-h100-sxm"
    assert "nvidia-dgxc-benchmarking-readme" in [source["source_id"] for source in found["sources"]]
    assert all(source["url"] for source in found["sources"]) and found["reviewed"]


def test_the_api_takes_the_name_the_runtime_prints(connection):
    # JAX's device_kind on a v5p TPU VM is "TPU v5"; Google gives the v5p 459 TFLOPS BF16.
    assert specdb.peak("TPU v5", "bf16", connection=connection)["value"] == 459e12


def test_a_sparse_peak_the_data_does_not_hold_is_not_derived_from_the_dense_one(connection):
    # The H100 record holds its dense BF16 peak only; 2 x 989 must not appear as the sparse peak.
    with pytest.raises(NotFound, match="no sparse bf16 peak in the data"):
        specdb.peak("nvidia-h100-sxm", "bf16", sparse=True, connection=connection)


def test_a_format_the_part_has_no_peak_for_says_so_and_names_what_the_data_holds(bundled_db):
    # Hopper has no FP4 tensor cores; the record holds no fp4 peak.
    result = CliRunner().invoke(app, ["peak", "nvidia-h100-sxm", "--dtype", "fp4", "--db", str(bundled_db)])
    assert result.exit_code == 2
    assert "no dense fp4 peak in the data" in result.stderr and "dense bf16" in result.stderr and not result.stdout


def test_a_platform_points_to_its_accelerator(connection):
    with pytest.raises(NotFound, match="its accelerator is nvidia-h100-sxm"):
        specdb.peak("HGX H100", "bf16", connection=connection)


def test_a_part_the_data_lacks_gives_no_neighbours_peak(connection):
    for name in ("NVIDIA H100 NVL", "NVIDIA H800", "AMD Instinct MI350X"):
        with pytest.raises(NotFound):
            specdb.peak(name, "bf16", connection=connection)
    with pytest.raises(AmbiguousName):
        specdb.peak("H100", "bf16", connection=connection)
