"""collective: the peak bound by hand for each operation and topology, and the expected time against published runs.

Bounds are computed here from the test platform's figures (NVLink-like 450 GB/s
each way inside a domain of 8, 50 GB/s per GPU across). Expected times are
computed from the published runs' own numbers with nccl-tests' definitions:
time = factor x size / busbw, factor 2(n-1)/n for all-reduce.
"""

import json

import pytest

from conftest import TEST_SPECS
from specdb.collective import estimate, leave_one_out, message_bytes
from specdb.errors import UsageError
from specdb.resources import bundled_specs
from specdb.store import open_fresh

SEED_GRADIENTS = 16e9  # 8e9 parameters x 2 bytes (BF16)
UP, OUT = 450e9, 50e9  # the test platform, per direction
GIB8, MIB = 8 * 2**30, 2**20


def all_reduce_seconds(gpus, size, busbw):
    """nccl-tests: busbw = algbw x 2(n-1)/n and algbw = size / time."""
    return 2 * (gpus - 1) / gpus * size / busbw


@pytest.fixture(scope="module")
def connection(tmp_path_factory):
    """The test data, built once: these tests only read it."""
    return open_fresh(tmp_path_factory.mktemp("test-data") / "specdb.sqlite", TEST_SPECS)


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    return open_fresh(tmp_path_factory.mktemp("bundled") / "specdb.sqlite", bundled_specs())


def test_params_and_dtype_give_the_gradient_size():
    assert message_bytes(params=8e9, dtype="bf16") == SEED_GRADIENTS
    assert message_bytes(size="16GB") == SEED_GRADIENTS
    assert message_bytes(size="1 GiB") == 2**30


@pytest.mark.parametrize("size", ["16 Gb/s", "16 GBs", "lots"])
def test_a_size_must_be_a_data_size(size):
    with pytest.raises(UsageError):
        message_bytes(size=size)


def test_the_seed_example_is_the_as_quoted_bound(connection):
    # The seed: 32 GB over NVLink quoted as 900 GB/s takes about 36 ms; at 50 GB/s, 640 ms.
    on_nvlink = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, tier="scale-up", basis="as-quoted", algorithm="ring")
    on_network = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, tier="scale-out", basis="as-quoted", algorithm="ring")
    assert on_nvlink.bytes_per_accelerator == 32e9
    assert round(on_nvlink.bound_seconds * 1e3) == 36
    assert on_network.bound_seconds == pytest.approx(0.640)


def test_the_seed_example_on_one_basis(connection):
    # NVLink moves 450 GB/s each way, and a ring sends and receives at once: about 71 ms.
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, tier="scale-up", algorithm="ring")
    assert round(result.bound_seconds * 1e3) == 71
    assert result.phases[0].bandwidth == UP and result.phases[0].bandwidth_counted == "per-direction"


def test_without_a_measured_run_the_expectation_is_the_bound_and_says_so(connection):
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=8)
    assert result.seconds == result.bound_seconds == pytest.approx(2 * 7 / 8 * SEED_GRADIENTS / UP)
    assert result.expected[0].efficiency_source == "no measured run: the peak bound"
    # A saturated ring's bus bandwidth is the link's one-way bandwidth: that is what busbw is for.
    assert result.busbw == pytest.approx(UP)
    assert result.algbw == pytest.approx(SEED_GRADIENTS / result.seconds)


def test_eight_gpus_send_two_n_minus_one_over_n(connection):
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=8, algorithm="ring")
    assert result.bound_by == "scale-up"
    assert result.bytes_per_accelerator == 2 * 7 / 8 * SEED_GRADIENTS
    assert result.phases[0].steps == 14


def test_beyond_the_domain_every_phase_has_its_tier_and_the_phases_are_pipelined(connection):
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64, algorithm="ring")
    inside, across, back = result.phases
    assert (inside.tier, across.tier, back.tier) == ("scale-up", "scale-out", "scale-up")
    assert inside.bytes_per_accelerator == back.bytes_per_accelerator == 7 / 8 * SEED_GRADIENTS
    # Each GPU all-reduces its 1/8 shard with its 7 rail peers in the other domains.
    assert across.bytes_per_accelerator == 2 * 7 / 8 * SEED_GRADIENTS / 8
    # Pipelined: NVLink carries both inside phases (62.2 ms), the network 70 ms; the network sets the time.
    assert result.bound_seconds == pytest.approx(max(2 * 14e9 / UP, 3.5e9 / OUT)) == pytest.approx(0.070)
    assert result.bound_by == "scale-out"


def test_a_partly_filled_domain_is_not_slower_than_a_full_one(connection):
    twelve = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=12)
    sixteen = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=16)
    assert twelve.bound.domains == [8, 4] and sixteen.bound.domains == [8, 8]
    # Both: NVLink carries 2 x 7/8 x 16 GB (62.2 ms); the network half the buffer per domain, S/8 per NIC (40 ms).
    assert twelve.bound_seconds == sixteen.bound_seconds == pytest.approx(2 * 14e9 / UP)
    assert twelve.seconds <= sixteen.seconds


def test_12_gpus_on_hgx_h100_take_no_longer_than_16(bundled):
    twelve = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=12)
    sixteen = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=16)
    assert twelve.seconds <= sixteen.seconds and twelve.bound_seconds <= sixteen.bound_seconds


def test_1024_gpus_on_gb200_nvl72_take_no_longer_than_1008(bundled):
    full = estimate(bundled, "all-reduce", platform="gb200-nvl72", size_bytes=SEED_GRADIENTS, accelerators=1008)
    partial = estimate(bundled, "all-reduce", platform="gb200-nvl72", size_bytes=SEED_GRADIENTS, accelerators=1024)
    assert partial.bound.domains == [72] * 14 + [16]
    assert partial.seconds <= full.seconds
    assert partial.bound_seconds <= full.bound_seconds


@pytest.mark.parametrize("operation", ["all-gather", "reduce-scatter"])
def test_all_gather_and_reduce_scatter_at_scale_are_below_all_reduce(connection, operation):
    result = estimate(connection, operation, platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    all_reduce = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    # Inside: 7/8 x 16 GB at 450 GB/s (31.1 ms); across: 7/8 of the domain's 1/8 share per NIC at 50 GB/s (35 ms).
    assert result.bound_seconds == pytest.approx(max(14e9 / UP, 7 / 8 * SEED_GRADIENTS / 8 / OUT)) == pytest.approx(0.035)
    assert result.seconds < all_reduce.seconds


def test_all_to_all_across_domains_sends_the_remote_share_through_each_nic(connection):
    result = estimate(connection, "all-to-all", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    inside, across = result.phases
    assert inside.bytes_per_accelerator == pytest.approx(7 / 64 * SEED_GRADIENTS)
    assert across.bytes_per_accelerator == pytest.approx(56 / 64 * SEED_GRADIENTS)
    assert result.bound_seconds == pytest.approx(56 / 64 * SEED_GRADIENTS / OUT)


def test_tree_across_domains_has_logarithmic_steps(connection):
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64, algorithm="tree")
    across = result.phases[1]
    # 64 GPUs in 8 domains of 8: a binary tree over 8 domain leaders is 3 levels deep, 3 steps up to reduce and 3 down to broadcast.
    assert across.algorithm == "tree" and across.steps == 6
    assert across.bytes_per_accelerator == 2 * SEED_GRADIENTS / 8


def test_small_messages_are_latency_bound_and_pick_the_tree(connection):
    # 1 MB, 2 us a step: ring 14 steps + 1.75 MB / 450 GB/s = 31.9 us; tree 6 steps + 2 MB / 450 GB/s = 16.4 us.
    small = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8, latency=2e-6)
    assert small.bound.algorithm == "tree"
    assert small.considered["ring"] == pytest.approx(14 * 2e-6 + 1.75e6 / UP)
    assert small.seconds == pytest.approx(6 * 2e-6 + 2e6 / UP)
    large = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=8, latency=2e-6)
    assert large.bound.algorithm == "ring"


def test_latency_comes_from_the_data_or_the_option_and_is_always_named(connection, specs, db):
    # Changes a copy of the test data, built into its own database.
    assumed = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8, algorithm="ring")
    assert assumed.phases[0].latency == 0 and "assumed 0" in assumed.phases[0].latency_source
    given = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8, latency=2e-6, algorithm="ring")
    assert given.seconds == pytest.approx(14 * 2e-6 + 2 * 7 / 8 * 1e6 / UP)
    link = specs / "link" / "test-link.yaml"
    link.write_text(link.read_text() + "  latency: {value: 500 ns, status: spec, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}\n")
    from_data = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8, algorithm="ring")
    assert from_data.phases[0].latency == pytest.approx(5e-7) and from_data.phases[0].latency_source == "test-link.latency"


@pytest.mark.parametrize("operation, sent", [("all-gather", 7 / 8), ("reduce-scatter", 7 / 8), ("all-to-all", 7 / 8), ("point-to-point", 1)])
def test_other_collectives_inside_the_domain(connection, operation, sent):
    result = estimate(connection, operation, platform="test-system", size_bytes=8e9, accelerators=8)
    assert result.bytes_per_accelerator == sent * 8e9


def test_point_to_point_on_a_full_mesh_uses_the_one_link_a_pair_shares(bundled):
    # MI300X: seven xGMI links, one to each peer, 64 GB/s each way; NVSwitch gives a pair the whole 450 GB/s.
    mesh = estimate(bundled, "point-to-point", platform="mi300x-platform", size_bytes=1e9, accelerators=2)
    assert mesh.bound_seconds == pytest.approx(1e9 / 64e9)
    switched = estimate(bundled, "point-to-point", platform="hgx-h100", size_bytes=1e9, accelerators=2)
    assert switched.bound_seconds == pytest.approx(1e9 / 450e9)


# The published runs in the data, as their sources print them: platform, GPUs, bytes, algorithm, busbw.
PUBLISHED_RUNS = [
    ("hgx-h100", 8, GIB8, "nvls", 478.87e9),   # Azure ND H100 v5, NCCL 2.18.5
    ("hgx-h100", 8, MIB, "nvls", 43.70e9),
    ("hgx-h200", 8, GIB8, "nvls", 479.98e9),   # Azure ND H200 v5, NCCL 2.20.5
    ("hgx-h200", 8, MIB, "nvls", 52.96e9),
    ("hgx-a100", 8, GIB8, "ring", 231.58e9),   # Azure ND A100 v4, NCCL 2.18.5
    ("hgx-a100", 8, MIB, "ring", 36.22e9),
    ("gb200-nvl72", 4, GIB8, "ring", 679.61e9),  # Azure ND GB200 v6, NCCL 2.25.1
    ("gb200-nvl72", 4, MIB, "ring", 80.48e9),
    ("mi300x-platform", 8, GIB8, "ring", 316.82e9),  # Azure ND MI300X v5, RCCL 2.22.3
    ("mi300x-platform", 8, MIB, "ring", 22.41e9),
]


@pytest.mark.parametrize("platform, gpus, size, algorithm, busbw", PUBLISHED_RUNS)
def test_the_expected_time_of_each_published_run_is_its_measured_time(bundled, platform, gpus, size, algorithm, busbw):
    result = estimate(bundled, "all-reduce", platform=platform, size_bytes=size, accelerators=gpus, algorithm=algorithm)
    # Small runs set the latency exactly; at 8 GiB the small run's latency (tens of microseconds) adds under 0.2 %.
    assert result.seconds == pytest.approx(all_reduce_seconds(gpus, size, busbw), rel=2e-3)
    assert result.expected[0].efficiency_source.startswith("measured on this platform")


def test_the_ring_peak_on_h100_is_the_maintainers_370_gbps(bundled):
    # Large-N limit: 2 x 16 GB at 450 GB/s x 370/450 = 86.5 ms; the bound is 71 ms, 36 ms as quoted.
    result = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, tier="scale-up", algorithm="ring")
    assert result.seconds == pytest.approx(2 * SEED_GRADIENTS / 370e9, rel=1e-3)
    assert result.bound_seconds == pytest.approx(2 * SEED_GRADIENTS / 450e9)


def test_across_nodes_the_nic_efficiency_is_the_maintainers_47_of_50_gbps(bundled):
    result = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=16, algorithm="ring")
    across = result.expected[1]
    assert across.efficiency == pytest.approx(47 / 50)
    assert across.transfer_seconds == pytest.approx(SEED_GRADIENTS / 8 / 47e9)


def test_nvlink_sharp_is_chosen_inside_an_h100_node_and_not_across(bundled):
    inside = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=8)
    assert inside.bound.algorithm == "nvls" and set(inside.considered) == {"ring", "tree", "nvls"}
    # NVLS bound: each GPU sends the buffer once at 450 GB/s.
    assert inside.bound_seconds == pytest.approx(SEED_GRADIENTS / UP)
    across = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=16)
    assert across.bound.algorithm == "ring"


def test_a_platform_without_runs_borrows_from_its_link_and_says_so(bundled):
    # HGX B200 is on NVLink 5 like GB200 NVL72, whose 4-GPU ring ran at 679.61 GB/s busbw: the same efficiency.
    result = estimate(bundled, "all-reduce", platform="hgx-b200", size_bytes=GIB8, accelerators=8, algorithm="ring")
    assert result.expected[0].efficiency == pytest.approx(679.61 / 900)
    assert "borrowed from platforms on nvlink-5: nvidia-gb200-nvl72" in result.expected[0].efficiency_source
    assert result.busbw == pytest.approx(679.61e9, rel=2e-3)


def test_leave_one_out_predicts_every_published_run_from_the_others(bundled):
    rows = leave_one_out(bundled)
    assert len(rows) == 12
    for row in rows:
        assert row["run"] not in row["calibrated_on"]
        assert 0.5 < row["estimate_over_measured"] < 2.0, row


def test_refusals_are_usage_errors(cli):
    too_many = cli("collective", "all-reduce", "--size", "1GB", "--gpus", "16", "--tier", "scale-up", "--platform", "test-system")
    assert too_many.exit_code == 2 and "do not fit in test-system's scale-up domain of 8" in too_many.stderr
    tree = cli("collective", "all-gather", "--size", "1GB", "--gpus", "8", "--algorithm", "tree", "--platform", "test-system")
    assert tree.exit_code == 2 and "tree applies to all-reduce only" in tree.stderr
    nvls = cli("collective", "all-reduce", "--size", "1GB", "--gpus", "8", "--algorithm", "nvls", "--platform", "test-system")
    assert nvls.exit_code == 2 and "no NVLink SHARP (nvls) run is measured on test-system" in nvls.stderr
    both = cli("collective", "all-reduce", "--size", "1GB", "--params", "1e9", "--platform", "test-system")
    assert both.exit_code == 2 and "not both" in both.stderr
    neither = cli("collective", "all-reduce", "--platform", "test-system")
    assert neither.exit_code == 2 and "missing the message size" in neither.stderr and "not both" not in neither.stderr


def test_the_cli_says_which_figure_is_the_bound_and_which_the_expectation(cli):
    table = cli("collective", "all-reduce", "--params", "8e9", "--dtype", "bf16", "--platform", "Test System 8-GPU", "--basis", "as-quoted", "--algorithm", "ring")
    assert table.exit_code == 0
    assert "peak bound 35.6 ms  (the links' peak figures only; basis: as-quoted)" in table.stdout
    # The expectation does not depend on how the links are counted: 2 x 16 GB at 450 GB/s each way.
    assert "expected   71.1 ms" in table.stdout
    assert "efficiency no measured run: the peak bound" in table.stdout
    assert "900 GB/s bidirectional" in table.stdout
    data = json.loads(cli("collective", "all-reduce", "--size", "16GB", "--gpus", "64", "--platform", "test-system", "-f", "json").stdout)
    assert data["basis"] == "per-direction" and data["bound_by"] == "scale-out" and len(data["phases"]) == 3
    assert data["seconds"] == data["bound_seconds"] == pytest.approx(0.070)
    # algbw = 16 GB / 70 ms; busbw = algbw x 2 x 63/64.
    assert data["algbw_gbps"] == pytest.approx(16 / 0.070, abs=1e-3)
    assert data["busbw_gbps"] == pytest.approx(16 / 0.070 * 2 * 63 / 64, abs=1e-3)
    assert {"efficiency", "efficiency_source", "expected_latency_source", "bandwidth_source", "tier", "algorithm"} <= set(data["phases"][0])
