"""The bundled dataset: valid, every figure sourced and counted, derived figures consistent, every alias resolvable."""

import math

import pytest

from specdb.load.dataset import load_specs
from specdb.resources import bundled_specs
from specdb.db.access import open_fresh


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    return open_fresh(tmp_path_factory.mktemp("bundled") / "specdb.sqlite", bundled_specs())


def test_the_bundled_specs_validate():
    dataset = load_specs(bundled_specs())
    assert dataset.problems == []


def test_every_figure_has_a_source_a_review_date_and_a_status(bundled):
    unsourced = bundled.execute(
        "SELECT record_id, name FROM figure f WHERE NOT EXISTS (SELECT 1 FROM citation c WHERE c.figure_id = f.id AND c.claim_id IS NULL)"
    ).fetchall()
    assert unsourced == []
    assert bundled.execute("SELECT COUNT(*) FROM figure WHERE reviewed IS NULL OR as_of IS NULL OR status IS NULL").fetchone()[0] == 0


def test_every_source_can_be_found(bundled):
    assert bundled.execute("SELECT id FROM source WHERE url IS NULL AND citation IS NULL").fetchall() == []


def test_every_bandwidth_says_how_it_is_counted(bundled):
    rows = bundled.execute("SELECT record_id, name, direction, scope FROM figure WHERE dimension = 'bandwidth'").fetchall()
    assert rows
    assert [tuple(row) for row in rows if row["direction"] not in ("total", "per-direction", "bidirectional") or row["scope"] is None] == []


def test_flops_figures_say_precision_and_sparsity_and_the_canonical_one_is_dense(bundled):
    rows = bundled.execute("SELECT record_id, name, precision, sparsity FROM figure WHERE dimension = 'compute'").fetchall()
    assert all(row["precision"] and row["sparsity"] for row in rows)
    assert {row["sparsity"] for row in rows if row["name"] == "dense_bf16_flops"} == {"dense"}
    assert {row["precision"] for row in rows if row["name"] == "dense_bf16_flops"} == {"bf16"}


def test_derived_figures_multiply_out_within_rounding(bundled):
    derived = bundled.execute("SELECT record_id, name, value, derived_product, derived_factor FROM figure WHERE derived_product IS NOT NULL").fetchall()
    assert len(derived) >= 10
    for row in derived:
        product = row["derived_factor"]
        for reference in row["derived_product"].split():
            record, _, name = reference.rpartition(".")
            part = bundled.execute("SELECT value FROM figure WHERE record_id = ? AND name = ?", (record or row["record_id"], name)).fetchone()
            product *= part[0]
        assert math.isclose(product, row["value"], rel_tol=0.02), (row["record_id"], row["name"], product, row["value"])


def test_every_accelerator_has_the_tier_figures(bundled):
    # No scale-up figure in any source read: PCIe cards with no scale-up link, and TPU v4, Inferentia2 and Gaudi 2, whose
    # vendor pages give none. No capacity for the L40S: the only figure read is a usable total.
    without_scale_up = {"nvidia-a100-pcie-80gb", "nvidia-l4", "nvidia-l40s", "google-tpu-v4", "aws-inferentia2", "intel-gaudi-2"}
    without_capacity = {"nvidia-l40s"}
    for (record_id,) in bundled.execute("SELECT id FROM record WHERE kind = 'accelerator'"):
        names = {row[0] for row in bundled.execute("SELECT name FROM figure WHERE record_id = ?", (record_id,))}
        required = {"memory_capacity", "memory_bandwidth", "scale_up_bandwidth"}
        if record_id in without_capacity:
            required.discard("memory_capacity")
        if record_id in without_scale_up:
            required.discard("scale_up_bandwidth")
            assert "scale_up_bandwidth" not in names, f"{record_id} has a scale-up figure now: take it off the list"
        assert required <= names, record_id


def test_every_platform_has_three_tiers_but_the_declared_gaps(bundled):
    from specdb.analysis.tiers import ratio_rows

    rows = ratio_rows(bundled)
    # 8 platforms of 2020-2025, then HGX B300, TPU v6e pod, MI355X platform, Helios, Trn3 Gen1 and Gen2, Vera Rubin NVL72,
    # and one cloud shape, Azure ND H100 v5
    assert len(rows) == 16
    assert [row["platform"] for row in rows if None in (row["memory_gbps"], row["scale_up_gbps"])] == []
    # No source read gives these platforms' network bandwidth per accelerator; their notes say so.
    assert {row["platform"] for row in rows if row["scale_out_gbps"] is None} == {"google-tpu-v6e-pod", "amd-mi355x-platform"}


def test_measured_figures_sit_beside_the_spec_figures_with_their_method(bundled):
    measured = bundled.execute("SELECT record_id, name, method FROM figure WHERE status = 'measured'").fetchall()
    # the seven bandwidths of the H200 measurement and the memory total its driver reported
    assert sum(1 for row in measured if row["record_id"] == "nvidia-h200-sxm") == 8
    assert all(row["method"] for row in measured)
    spec = bundled.execute("SELECT value_text FROM figure WHERE record_id = 'nvidia-h200-sxm' AND name = 'memory_bandwidth'").fetchone()
    assert spec[0] == "4.8 TB/s"


def _aliases():
    """Every alias written in the bundled specs, read straight from the files."""
    dataset = load_specs(bundled_specs())
    return sorted((alias, record_id) for record_id, loaded in dataset.records.items() for alias in getattr(loaded.model, "aliases", ()))


@pytest.mark.parametrize("alias, record_id", _aliases())
def test_every_alias_resolves_with_show(cli, alias, record_id, tmp_path):
    result = cli("show", alias, "--specs", str(bundled_specs()), "--db", str(tmp_path.parent / "alias-shared.sqlite"), "-f", "json", data=False)
    assert result.exit_code == 0, result.stderr
    assert f'"id": "{record_id}"' in result.stdout
