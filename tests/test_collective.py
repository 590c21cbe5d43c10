"""collective: the seed's worked example on both bases, the hierarchical case, and the parameters people give."""

import json
import math

import pytest

from specdb.collective import estimate, message_bytes
from specdb.errors import UsageError
from specdb.store import open_fresh

SEED_GRADIENTS = 16e9  # 8e9 parameters x 2 bytes (BF16)


@pytest.fixture
def connection(specs, db):
    return open_fresh(db, specs)


def test_params_and_dtype_give_the_gradient_size():
    assert message_bytes(params=8e9, dtype="bf16") == SEED_GRADIENTS
    assert message_bytes(size="16GB") == SEED_GRADIENTS
    assert message_bytes(size="1 GiB") == 2**30


@pytest.mark.parametrize("size", ["16 Gb/s", "16 GBs", "lots"])
def test_a_size_must_be_a_data_size(size):
    with pytest.raises(UsageError):
        message_bytes(size=size)


def test_the_seed_example_as_quoted(connection):
    # The seed: 32 GB over NVLink quoted as 900 GB/s takes about 36 ms; at 50 GB/s, 640 ms.
    on_nvlink = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, tier="scale-up", basis="as-quoted")
    on_network = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, tier="scale-out", basis="as-quoted")
    assert on_nvlink.bytes_per_accelerator == 32e9
    assert round(on_nvlink.seconds * 1e3) == 36
    assert on_network.seconds == pytest.approx(0.640)


def test_the_seed_example_on_one_basis(connection):
    # NVLink moves 450 GB/s each way, and a ring sends and receives at once: about 71 ms.
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, tier="scale-up")
    assert round(result.seconds * 1e3) == 71
    assert result.phases[0].bandwidth == 450e9 and result.phases[0].bandwidth_counted == "per-direction"


def test_eight_gpus_send_two_n_minus_one_over_n(connection):
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=8)
    assert result.bound_by == "scale-up"
    assert result.bytes_per_accelerator == 2 * 7 / 8 * SEED_GRADIENTS
    assert result.phases[0].steps == 14


def test_auto_goes_hierarchical_beyond_the_domain(connection):
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    inside, across, back = result.phases
    assert (inside.tier, across.tier, back.tier) == ("scale-up", "scale-out", "scale-up")
    assert inside.bytes_per_accelerator == back.bytes_per_accelerator == 7 / 8 * SEED_GRADIENTS
    assert across.bytes_per_accelerator == 2 * 7 / 8 * SEED_GRADIENTS / 8
    assert across.seconds == pytest.approx(3.5e9 / 50e9)
    assert result.bound_by == "scale-out"
    assert result.seconds == pytest.approx(2 * 14e9 / 450e9 + 3.5e9 / 50e9)


def test_latency_comes_from_the_data_or_the_option_and_is_always_named(connection, specs, db):
    assumed = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8)
    assert assumed.phases[0].latency == 0 and "assumed 0" in assumed.phases[0].latency_source
    given = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8, latency=2e-6)
    assert given.seconds == pytest.approx(14 * 2e-6 + 2 * 7 / 8 * 1e6 / 450e9)
    link = specs / "link" / "test-link.yaml"
    link.write_text(link.read_text() + "  latency: {value: 500 ns, status: spec, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}\n")
    from_data = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8)
    assert from_data.phases[0].latency == pytest.approx(5e-7) and from_data.phases[0].latency_source == "test-link.latency"


def test_tree_all_reduce_has_logarithmic_latency_steps(connection):
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8, algorithm="tree", latency=1e-6)
    assert result.phases[0].steps == 2 * math.ceil(math.log2(8))


@pytest.mark.parametrize("operation, sent", [("all-gather", 7 / 8), ("reduce-scatter", 7 / 8), ("all-to-all", 7 / 8), ("point-to-point", 1)])
def test_other_collectives(connection, operation, sent):
    result = estimate(connection, operation, platform="test-system", size_bytes=8e9, accelerators=8)
    assert result.bytes_per_accelerator == sent * 8e9


def test_refusals_are_usage_errors(cli):
    too_many = cli("collective", "all-reduce", "--size", "1GB", "--gpus", "16", "--tier", "scale-up", "--platform", "test-system")
    assert too_many.exit_code == 2 and "do not fit in test-system's scale-up domain of 8" in too_many.stderr
    tree = cli("collective", "all-gather", "--size", "1GB", "--gpus", "8", "--algorithm", "tree", "--platform", "test-system")
    assert tree.exit_code == 2 and "tree applies to all-reduce only" in tree.stderr
    both = cli("collective", "all-reduce", "--size", "1GB", "--params", "1e9", "--platform", "test-system")
    assert both.exit_code == 2


def test_the_cli_prints_the_basis_and_gives_json(cli):
    table = cli("collective", "all-reduce", "--params", "8e9", "--dtype", "bf16", "--platform", "Test System 8-GPU", "--basis", "as-quoted")
    assert table.exit_code == 0
    assert "35.6 ms, bound by scale-up; basis: as-quoted" in table.stdout
    assert "900 GB/s bidirectional" in table.stdout
    data = json.loads(cli("collective", "all-reduce", "--size", "16GB", "--gpus", "64", "--platform", "test-system", "-f", "json").stdout)
    assert data["basis"] == "per-direction" and data["bound_by"] == "scale-out" and len(data["phases"]) == 3
