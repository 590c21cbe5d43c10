"""collective: the peak bound by hand for each operation and topology, and the expected time against published runs.

Bounds are computed here from the test platform's figures (NVLink-like 450 GB/s
each way inside a domain of 8, 50 GB/s per GPU across). Expected times are
computed from the published runs' own numbers with nccl-tests' definitions:
time = factor x size / busbw, factor 2(n-1)/n for all-reduce.
"""

import json

import pytest

from conftest import TEST_SPECS
from specdb.collective.estimate import describe, estimate, footer, message_bytes, parse_latency
from specdb.collective.validation import held_out, leave_one_out, leave_platform_out
from specdb.collective.bound import Domains
from specdb.errors import UsageError
from specdb.resources import bundled_specs
from specdb.db.access import open_fresh

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
    inside, across = result.phases
    assert (inside.tier, across.tier) == ("scale-up", "scale-out")
    # The reduce-scatter and the all-gather inside share NVLink: one phase, 7/8 x 16 GB each. The ring is one flat ring
    # of 64 (NCCL's ring latency model): 2 x 63 = 126 steps, 2 x 7 = 14 of them across domains, 126 - 14 = 112 inside.
    assert inside.bytes_per_accelerator == 2 * 7 / 8 * SEED_GRADIENTS and inside.steps == 112 and across.steps == 14
    # The flat ring's 8 channels leave each domain through its 8 NICs: each NIC carries 1/8 of what a ring member
    # sends, 2 x 63/64 of the buffer: 2 x 63/64 x 16 GB / 8 = 3.9375 GB.
    assert across.bytes_per_accelerator == 2 * 63 / 64 * SEED_GRADIENTS / 8
    # Pipelined: NVLink carries 28 GB (62.2 ms), the network 3.9375 GB (78.75 ms); the network sets the time.
    assert result.bound_seconds == pytest.approx(max(2 * 14e9 / UP, 3.9375e9 / OUT)) == pytest.approx(0.07875)
    assert result.bound_by == result.peak_bound_by == "scale-out"


def test_a_partly_filled_domain_is_not_slower_than_a_full_one(connection):
    twelve = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=12)
    sixteen = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=16)
    assert twelve.bound.domains == [Domains(8, 1), Domains(4, 1)] and sixteen.bound.domains == [Domains(8, 2)]
    # Both: NVLink carries 2 x 7/8 x 16 GB (62.2 ms); the network half the buffer per domain, S/8 per NIC (40 ms).
    assert twelve.bound_seconds == sixteen.bound_seconds == pytest.approx(2 * 14e9 / UP)
    assert twelve.seconds <= sixteen.seconds


def test_12_gpus_on_hgx_h100_take_no_longer_than_16(bundled):
    twelve = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=12)
    sixteen = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=16)
    assert twelve.seconds <= sixteen.seconds and twelve.bound_seconds <= sixteen.bound_seconds


def test_1024_gpus_on_gb200_nvl72_send_no_longer_than_1008(bundled):
    full = estimate(bundled, "all-reduce", platform="gb200-nvl72", size_bytes=SEED_GRADIENTS, accelerators=1008, algorithm="ring")
    partial = estimate(bundled, "all-reduce", platform="gb200-nvl72", size_bytes=SEED_GRADIENTS, accelerators=1024, algorithm="ring")
    assert partial.bound.domains == [Domains(72, 14), Domains(16, 1)]
    # The 16 GPUs of the 15th rack reach the network through their trays' NICs, so NVLink's 2 x 71/72 x 16 GB sets both
    # transfers; the longer flat ring only adds latency steps: 2 x (1024 - 15) = 2018 inside and 2 x 14 = 28 across,
    # against 2 x (1008 - 14) = 1988 and 2 x 13 = 26.
    transfer = [max(e.transfer_seconds for e in result.expected) for result in (full, partial)]
    assert transfer[0] == transfer[1] == pytest.approx(2 * 71 / 72 * SEED_GRADIENTS / (900e9 * full.expected[0].efficiency))
    inside, across = partial.expected
    assert (inside.phase.steps, across.phase.steps, full.expected[0].phase.steps, full.expected[1].phase.steps) == (2018, 28, 1988, 26)
    assert partial.seconds - full.seconds == pytest.approx(30 * inside.latency + 2 * across.latency)


@pytest.mark.parametrize("operation", ["all-gather", "reduce-scatter"])
def test_all_gather_and_reduce_scatter_at_scale_are_below_all_reduce(connection, operation):
    result = estimate(connection, operation, platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    all_reduce = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    # Inside: 7/8 x 16 GB at 450 GB/s (31.1 ms); across: the flat ring's 63/64 of the buffer over 8 NICs, 1.96875 GB
    # per NIC at 50 GB/s (39.375 ms).
    assert result.bound_seconds == pytest.approx(max(14e9 / UP, 63 / 64 * SEED_GRADIENTS / 8 / OUT)) == pytest.approx(0.039375)
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


def test_inside_one_node_nccl_runs_the_ring_even_where_the_tree_is_expected_faster(connection):
    # 8 GPUs in one domain, 1 MB. NCCL's tuner (Simple protocol, microseconds): the ring 8.4 base + 14 steps x 3.4 = 56.0
    # and 1.75 MB / 450 GB/s = 3.889: 59.889; its tree inside a node is a chain, 8.4 + 2 x 7 x 4.0 = 64.4, and
    # 2 MB / 450 GB/s / 0.92 / 0.5 (treeCorrectionFactor at log2(1 MB / 64) = 13) = 9.662: 74.062. NCCL runs the ring,
    # though the estimate's binary tree (6 steps x 2 us + 2 MB / 450 GB/s = 16.4 us) would be faster than its ring (31.9 us).
    small = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8, latency=2e-6)
    assert small.bound.algorithm == "ring"
    assert small.tuner_predicted["ring"] == pytest.approx(59.889e-6, rel=1e-4)
    assert small.tuner_predicted["tree"] == pytest.approx(74.062e-6, rel=1e-4)
    assert small.considered["tree"] == pytest.approx(6 * 2e-6 + 2e6 / UP)
    assert small.seconds == small.considered["ring"] == pytest.approx(14 * 2e-6 + 1.75e6 / UP)
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
    # MI300X: seven xGMI links, one to each peer, 64 GB/s each way; NVSwitch gives a pair the whole 450 GB/s,
    # plus one step of NCCL's modelled NVLink latency, 0.6 us.
    mesh = estimate(bundled, "point-to-point", platform="mi300x-platform", size_bytes=1e9, accelerators=2)
    assert mesh.bound_seconds == pytest.approx(1e9 / 64e9)
    assert mesh.phases[0].name == "point-to-point over the one link a pair of accelerators shares"
    switched = estimate(bundled, "point-to-point", platform="hgx-h100", size_bytes=1e9, accelerators=2)
    assert switched.bound_seconds == pytest.approx(1e9 / 450e9 + 0.6e-6)


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
    # A flat ring of 16: each of the 8 NICs carries 2 x 15/16 of the buffer / 8, at 47 GB/s.
    assert across.transfer_seconds == pytest.approx(2 * 15 / 16 * SEED_GRADIENTS / 8 / 47e9)


def test_nvlink_sharp_is_chosen_inside_an_h100_node_and_across_with_infiniband_sharp(bundled):
    inside = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=8)
    assert inside.bound.algorithm == "nvls" and set(inside.considered) == {"ring", "tree", "nvls"}
    # NVLS bound: each GPU sends the buffer once at 450 GB/s, plus 2 steps of NCCL's modelled 0.6 us.
    assert inside.bound_seconds == pytest.approx(SEED_GRADIENTS / UP + 2 * 0.6e-6)
    # NDR's Quantum-2 switches can reduce in the network, but HGX H100's record does not say its reference design enables
    # InfiniBand SHARP: across nodes the automatic choice keeps to the ring and tree, and --algorithm nvls assumes SHARP.
    across = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=16)
    assert set(across.considered) == {"ring", "tree"}
    asked = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=16, algorithm="nvls")
    assert asked.phases[1].algorithm == "collnet" and "infiniband-ndr.streaming_aggregation_trees" in asked.phases[1].name
    assert asked.assumptions[1] == (
        "in-network reduction: assumed: NVLink SHARP in the scale-up switches (nvidia-hgx-h100.in_network_reduction_domain) and InfiniBand "
        "SHARP in the scale-out switches (infiniband-ndr.streaming_aggregation_trees); the platform's record does not say its reference "
        "design enables InfiniBand SHARP, so only --algorithm assumes it; --no-in-network leaves it out")


def test_a_platform_without_runs_borrows_from_its_link_and_says_so(bundled):
    # HGX B300 has no ring run of its own. It is on NVLink 5 like GB200 NVL72, whose 4-GPU ring ran at 679.61 GB/s busbw,
    # and HGX B200, whose 8-GPU rings ran at 698.39 and 679.0 GB/s on Together's two clusters: the median efficiency, 679.61 / 900.
    result = estimate(bundled, "all-reduce", platform="hgx-b300", size_bytes=GIB8, accelerators=8, algorithm="ring")
    assert result.expected[0].efficiency == pytest.approx(679.61 / 900)
    assert result.expected[0].efficiency_source == ("borrowed from platforms on nvlink-5: nvidia-gb200-nvl72.measured_all_reduce_busbw_4gpu_ring_8gib, "
                                                    "together-b200-dgxc-nccl-tests.measured_all_reduce_busbw_8gpu_ring_16gib, "
                                                    "together-b200-nccl-tests.measured_all_reduce_busbw_8gpu_ring_32gib")


def test_leave_one_out_predicts_every_published_run_from_the_others(bundled):
    rows = leave_one_out(bundled)
    # 15 runs before Together's B200 sweeps, then 15 calibration runs of one sweep (ring on 1 to 32 nodes, tree on 2 to 32,
    # CollNet on 2, 4, 16 and 32) and 16 of the other (ring on 1 to 32 nodes, tree and CollNet on 2 to 32); their runs on
    # 512 and 368 GPUs are held out.
    assert len(rows) == 46
    for row in rows:
        assert row["run"] not in row["calibrated_on"]
        assert 0.5 < row["estimate_over_measured"] < 2.0, row


def test_refusals_are_usage_errors(cli):
    too_many = cli("collective", "all-reduce", "--size", "1GB", "--gpus", "16", "--tier", "scale-up", "--platform", "test-system")
    assert too_many.exit_code == 2 and "do not fit in test-system's scale-up domain of 8" in too_many.stderr
    tree = cli("collective", "all-gather", "--size", "1GB", "--gpus", "8", "--algorithm", "tree", "--platform", "test-system")
    assert tree.exit_code == 2 and "tree applies to all-reduce only" in tree.stderr
    nvls = cli("collective", "all-reduce", "--size", "1GB", "--gpus", "8", "--algorithm", "nvls", "--platform", "test-system")
    assert nvls.exit_code == 2 and "test-system has no in_network_reduction_domain figure" in nvls.stderr
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
    assert "efficiency of all-reduce (ring): 100% of one direction, no measured run: the peak bound" in table.stdout
    # On the as-quoted basis the same expectation is half of the bidirectional 900 GB/s shown beside it.
    assert "900 GB/s bidirectional  50.0%" in table.stdout
    assert "900 GB/s bidirectional" in table.stdout
    data = json.loads(cli("collective", "all-reduce", "--size", "16GB", "--gpus", "64", "--platform", "test-system", "-f", "json").stdout)
    assert data["basis"] == "per-direction" and data["bound_by"] == "scale-out" and len(data["phases"]) == 2
    # The network: 2 x 63/64 x 16 GB / 8 NICs = 3.9375 GB per NIC at 50 GB/s = 78.75 ms.
    assert data["seconds"] == data["bound_seconds"] == pytest.approx(0.07875)
    # algbw = 16 GB / 78.75 ms; busbw = algbw x 2 x 63/64 = 400 GB/s, the node's 8 NICs at 50 GB/s.
    assert data["algbw_gbps"] == pytest.approx(16 / 0.07875, abs=1e-3)
    assert data["busbw_gbps"] == pytest.approx(400, abs=1e-3)
    assert {"efficiency", "efficiency_source", "expected_latency_source", "bandwidth_source", "tier", "algorithm"} <= set(data["phases"][0])


# Latency and in-network reduction, added to a copy of the test data: the link 1 us a step, the network 3 us, and a fabric
# whose switches reduce (SHARP). Every expectation below is the alpha-beta cost written out: steps x alpha + bytes / bandwidth.
ALPHA_UP, ALPHA_OUT = 1e-6, 3e-6
FIGURE = "status: spec, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]"


@pytest.fixture(scope="module")
def network(tmp_path_factory):
    import shutil

    specs = tmp_path_factory.mktemp("network") / "specs"
    shutil.copytree(TEST_SPECS, specs)
    link, fabric = specs / "link" / "test-link.yaml", specs / "fabric" / "test-fabric.yaml"
    link.write_text(link.read_text() + f"  latency: {{value: 1 us, {FIGURE}}}\n")
    fabric.write_text(fabric.read_text() + f"  latency: {{value: 3 us, {FIGURE}}}\n  streaming_aggregation_trees: {{value: 63, {FIGURE}}}\n")
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text() + f"  network_reduction_nodes: {{value: 1024, {FIGURE}}}\n")
    return open_fresh(specs.parent / "specdb.sqlite", specs)


def test_a_1_mb_all_reduce_across_8_domains_takes_the_tree(network):
    # 64 GPUs in 8 domains of 8, 1 MB, no SHARP. NCCL's tuner, in microseconds: the flat ring 8.4 + 112 steps inside x 3.4
    # + 14 across x 14 = 585.2, times 1.4 (its "plateau effect" across nodes) = 819.28, and 2 x 63/64 x 1 MB / 8 NICs /
    # 50 GB/s = 4.922: 824.20; the tree 8.4 + 2 x (7 x 4.0 + log2(8) x 14) = 148.4, and 2 x 1 MB / 8 / 50 GB/s / 0.92 / 0.5
    # = 10.870: 159.27. The tree's expected time: 14 steps x 1 us inside, 6 x 3 us across, and 5 us on the network: 37 us.
    result = estimate(network, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=64, in_network=False)
    assert result.tuner_predicted["ring"] == pytest.approx(824.20e-6, rel=1e-4)
    assert result.tuner_predicted["tree"] == pytest.approx(159.27e-6, rel=1e-4)
    assert result.bound.algorithm == "tree" and result.seconds == pytest.approx(37e-6)
    assert result.considered["ring"] == pytest.approx(2 * 63 / 64 * 1e6 / 8 / OUT + 112 * ALPHA_UP + 14 * ALPHA_OUT)
    assert result.phases[0].latency_source == "test-link.latency"


@pytest.mark.parametrize("size, algorithm", [(1.2e9, "tree"), (1.4e9, "ring"), (SEED_GRADIENTS, "ring")])
def test_ring_and_tree_cross_over_where_nccls_model_says(network, size, algorithm):
    # 64 GPUs in 8 domains, no SHARP, sizes of 512 MiB and more (no tree correction): the ring 819.28 us + 2 x 63/64 x S /
    # 400 GB/s against the tree 148.4 us + 2 S / 400 GB/s / 0.92. Equal where 670.88 us = S x (2 / 0.92 - 2 x 63/64) /
    # 400 GB/s, S = 1.308 GB.
    found = estimate(network, "all-reduce", platform="test-system", size_bytes=size, accelerators=64, in_network=False)
    assert found.bound.algorithm == algorithm


def test_latency_precedence_is_the_data_then_the_option_then_zero(network, connection):
    # The data's figure wins over --latency on both tiers; without a figure, --latency; without either, 0.
    given = estimate(network, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=16, algorithm="ring", latency=5e-6)
    inside, across = given.phases
    assert (inside.latency, inside.latency_source) == (ALPHA_UP, "test-link.latency")
    assert (across.latency, across.latency_source) == (ALPHA_OUT, "test-fabric.latency")
    option = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=16, algorithm="ring", latency=5e-6)
    assert [(phase.latency, phase.latency_source) for phase in option.phases] == [(5e-6, "--latency")] * 2
    neither = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=16, algorithm="ring")
    assert [phase.latency for phase in neither.phases] == [0, 0]
    assert [phase.latency_source for phase in neither.phases] == [
        "assumed 0: no latency figure for test-link in the data", "assumed 0: no latency figure for test-fabric in the data"]


def test_infiniband_sharp_sends_each_nics_share_once_across_domains(network):
    # 64 GPUs, 8 domains of 8, 16 GB. Inside: reduce-scatter and all-gather of 7/8 x 16 GB at 450 GB/s, 7 steps each.
    # Across, the switches reduce: each NIC sends its 16/8 = 2 GB once and receives the sum once, 2 steps, at 50 GB/s.
    result = estimate(network, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64, algorithm="collnet")
    inside, across = result.phases
    assert (across.algorithm, across.bytes_per_accelerator, across.steps) == ("collnet", 2e9, 2)
    assert inside.bytes_per_accelerator == 28e9 and inside.steps == 14
    assert [(phase.name, phase.algorithm, phase.tier, phase.accelerators) for phase in result.phases] == [
        ("reduce-scatter and all-gather inside the domain (8 domains of 8)", "ring", "scale-up", 8),
        ("all-reduce of 1/8 across 8 domains, reduced in the network switches (test-fabric.streaming_aggregation_trees)", "collnet", "scale-out", 8),
    ]
    # Pipelined: NVLink carries 28 GB (62.2 ms), the network 2 GB (40 ms); latencies 14 x 1 us + 2 x 3 us.
    assert result.bound_seconds == pytest.approx(28e9 / UP + 14 * ALPHA_UP + 2 * ALPHA_OUT)
    # The flat ring sends 2 x 63/64 x 16 GB / 8 = 3.9375 GB per NIC (78.75 ms), so NCCL's tuner, and auto, take CollNet.
    auto = estimate(network, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    assert auto.bound.algorithm == "collnet" and set(auto.considered) == {"ring", "tree", "collnet"}
    # The ring's latency: a flat ring of 64 has 2 x 63 = 126 steps, 14 across the network and 112 inside the domains.
    assert auto.considered["ring"] == pytest.approx(3.9375e9 / OUT + 112 * ALPHA_UP + 14 * ALPHA_OUT)
    # No collnet run is measured: the network phase's efficiency is the ring's, and says so.
    assert auto.expected[1].efficiency_source == "no measured run: the peak bound"


def test_without_sharp_in_the_data_there_is_no_in_network_reduction_across_domains(connection):
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    assert set(result.considered) == {"ring", "tree"}
    with pytest.raises(UsageError, match="test-fabric has no in-network reduction \\(SHARP\\) in the data"):
        estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64, algorithm="collnet")


@pytest.mark.parametrize("operation, gpus, tier, message", [
    ("all-reduce", 8, "auto", "collnet reduces in the network switches across scale-up domains; use --gpus beyond one domain, or another algorithm"),
    ("all-reduce", 16, "scale-out", "--algorithm collnet reduces in the switches of a hierarchical all-reduce, not over a flat network ring; use --tier auto"),
    ("all-gather", 64, "auto", "--algorithm collnet applies to all-reduce only"),
])
def test_collnet_refusals(network, operation, gpus, tier, message):
    with pytest.raises(UsageError) as refused:
        estimate(network, operation, platform="test-system", size_bytes=1e9, accelerators=gpus, tier=tier, algorithm="collnet")
    assert str(refused.value).startswith(message)


def test_nvls_with_sharp_across_h100_nodes_splits_the_nvls_bytes(bundled):
    # 16 H100s: NVLink SHARP inside (each GPU sends its 16 GB once: half reducing, half broadcasting), SHARP across.
    result = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=16, algorithm="nvls")
    inside, across = result.phases
    assert (inside.algorithm, inside.bytes_per_accelerator, inside.steps) == ("nvls", 16e9, 2)
    assert (across.algorithm, across.bytes_per_accelerator) == ("collnet", 2e9)
    # Bound: the network's 2 GB at 50 GB/s (40 ms) over NVLink's 16 GB at 450 GB/s (35.6 ms); 0.6 + 0.6 + 2 x 2.7 us.
    assert result.bound_seconds == pytest.approx(2e9 / 50e9 + 2 * 0.6e-6 + 2 * 2.7e-6)


def test_infiniband_sharp_is_offered_only_where_the_platform_says_its_reference_design_enables_it(bundled, specs, db):
    # HDR's switches can reduce, but no bundled platform's record says its reference design enables SHARP.
    for platform in ("hgx-a100", "mi300x-platform", "hgx-h200"):
        assert set(estimate(bundled, "all-reduce", platform=platform, size_bytes=SEED_GRADIENTS, accelerators=16).considered) <= {"ring", "tree"}
    # The record's network_reduction_nodes figure offers it to the automatic choice, and the assumption line names it.
    fabric = specs / "fabric" / "test-fabric.yaml"
    fabric.write_text(fabric.read_text() + f"  streaming_aggregation_trees: {{value: 63, {FIGURE}}}\n")
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text() + f"  network_reduction_nodes: {{value: 1024, {FIGURE}}}\n")
    offered = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    assert offered.bound.algorithm == "collnet" and set(offered.considered) == {"ring", "tree", "collnet"}
    assert offered.assumptions[1] == ("in-network reduction: assumed: InfiniBand SHARP in the scale-out switches (test-fabric.streaming_aggregation_trees, "
                                      "enabled in the reference design: test-system.network_reduction_nodes); --no-in-network leaves it out")


@pytest.mark.parametrize("platform, link", [("tpu-v6e-pod", "google-tpu-ici-v6e"), ("tpu-v5p-pod-slice", "google-tpu-ici-v5p")])
def test_point_to_point_on_a_torus_uses_the_one_link_neighbours_share(bundled, platform, link):
    # v6e: 800 GB/s both ways over 4 neighbours (2D torus); v5p: 1200 GB/s over 6 (3D torus). Either way 100 GB/s each way.
    result = estimate(bundled, "point-to-point", platform=platform, size_bytes=1e9, accelerators=2)
    assert result.phases[0].name == "point-to-point over the one link two neighbours on the torus share"
    assert result.phases[0].bandwidth == pytest.approx(100e9)
    assert result.phases[0].bandwidth_source.startswith(f"{link}.per_accelerator_bandwidth / ")
    assert result.bound_seconds == pytest.approx(1e9 / 100e9)


def test_all_gather_takes_its_own_measured_efficiency_and_otherwise_names_the_operation_it_borrows(bundled):
    # The NCCL maintainer's 370 GB/s for non-all-reduce operations on 8 H100s: 370 / 450 of NVLink 4.
    h100 = estimate(bundled, "all-gather", platform="hgx-h100", size_bytes=GIB8, accelerators=8)
    assert h100.expected[0].efficiency == pytest.approx(370 / 450)
    assert h100.expected[0].efficiency_source == "measured on this platform: nvidia-hgx-h100.measured_all_gather_busbw_8gpu_ring"
    # A100: only all-reduce was measured, 231.58 GB/s busbw of NVLink 3's 300 GB/s each way.
    a100 = estimate(bundled, "all-gather", platform="hgx-a100", size_bytes=GIB8, accelerators=8)
    assert a100.expected[0].efficiency == pytest.approx(231.58 / 300)
    assert a100.expected[0].efficiency_source == (
        "measured on this platform, all-reduce runs (no all-gather run): nvidia-hgx-a100.measured_all_reduce_busbw_8gpu_ring_8gib")


@pytest.mark.parametrize("gpus, steps", [(2, 2), (5, 6), (8, 6), (9, 8)])
def test_a_tree_all_reduce_sends_twice_the_buffer_in_2_log2_n_steps(connection, gpus, steps):
    # Up the tree the buffer once, down once: 2S per GPU, whatever N; steps 2 x ceil(log2 N).
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=1e9, tier="scale-out", accelerators=gpus, algorithm="tree")
    assert result.bytes_per_accelerator == 2e9 and result.phases[0].steps == steps


def test_12_gpus_on_8_gpu_domains_are_a_domain_of_8_and_one_of_4(network):
    # Inside the larger domain: 7/8 x 16 GB; across 2 domains: the flat ring of 12 leaves each domain through 8 NICs
    # (the partly filled one through its node's, PXN), 2 x 11/12 x 16 GB / 8 = 3.667 GB per NIC. The flat ring of 12
    # has 2 x 11 = 22 steps: 2 across, 20 inside. 3.667 GB at 50 GB/s is 73.3 ms, longer than NVLink's 28 GB at
    # 450 GB/s (62.2 ms): the network sets the time.
    result = estimate(network, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=12, algorithm="ring")
    inside, across = result.phases
    assert result.bound.domains == [Domains(8, 1), Domains(4, 1)] and inside.accelerators == 8 and across.accelerators == 2
    assert [phase.name for phase in result.phases] == [
        "reduce-scatter and all-gather inside the domain (2 domains (8, 4))", "all-reduce of 1/8 across 2 domains (ring)"]
    assert (inside.bytes_per_accelerator, inside.steps) == (28e9, 20)
    assert across.bytes_per_accelerator == pytest.approx(2 * 11 / 12 * 16e9 / 8) and across.steps == 2
    assert result.bound_seconds == pytest.approx(2 * 11 / 12 * 16e9 / 8 / OUT + 20 * ALPHA_UP + 2 * ALPHA_OUT)


def test_the_json_document_of_a_hierarchical_all_reduce(connection):
    # 64 GPUs, 16 GB, no measured run: the expectation is the bound. The flat ring across 8 domains: 2 x 63/64 x 16 GB / 8
    # = 3.9375 GB per NIC at 50 GB/s = 78.75 ms; the tree across sends 2 x 2 GB = 4 GB = 80 ms; inside 2 x 14 GB at
    # 450 GB/s = 62.2 ms. NCCL's tuner adds its latencies (the ring's 0.81928 ms, the tree's 0.1484) and divides the
    # tree's rate by 0.92: ring 79.56928 ms, tree 80 / 0.92 + 0.1484 = 87.104922 ms.
    document = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64).as_dict()
    phases = document.pop("phases")
    assert document == {
        "operation": "all-reduce", "algorithm": "ring", "algorithms_considered_ms": {"ring": 78.75, "tree": 80.0},
        "nccl_tuner_predicted_ms": {"ring": 79.56928, "tree": 87.104922},
        "platform": "test-system", "basis": "per-direction", "size_bytes": 16e9, "accelerators": 64, "domains": [{"accelerators": 8, "count": 8}],
        "seconds": pytest.approx(0.07875), "bound_seconds": pytest.approx(0.07875),
        # algbw = 16 GB / 78.75 ms = 203.175 GB/s; busbw = algbw x 2 x 63/64 = 400 GB/s (8 NICs at 50 GB/s).
        "algbw_gbps": 203.175, "busbw_gbps": 400.0, "bytes_per_accelerator": 28e9 + 3.9375e9, "bound_by": "scale-out", "peak_bound_by": "scale-out",
        "assumptions": [
            ("algorithm: ring, NCCL's tuner's choice: the least time in its own model (NCCL 2.28 and later, no NVIDIA generation: no tree cap, "
             "Simple protocol): ring 79.6 ms, tree 87.1 ms"),
            "in-network reduction: none: test-system has no reduction in its switches in the data",
            # One flat ring of 64: 2 x 63 = 126 steps, 2 x 7 = 14 across the network, 112 inside.
            ("across domains: the ring's latency steps are one flat ring's of 64, as NCCL counts them: 126, of which 14 cross the network "
             "and 112 stay inside the domains; each domain reaches the network through 8 NICs, one per accelerator"),
            "efficiency of reduce-scatter and all-gather inside the domain (8 domains of 8): 100% of one direction, no measured run: the peak bound",
            "latency of reduce-scatter and all-gather inside the domain (8 domains of 8): no small-message run: assumed 0: no latency figure for test-link in the data",
            "efficiency of all-reduce of 1/8 across 8 domains (ring): 100% of one direction, no measured run: the peak bound",
            "latency of all-reduce of 1/8 across 8 domains (ring): no small-message run: assumed 0: no latency figure for test-fabric in the data",
        ],
        "runs_not_used": [],
    }
    nothing = "assumed 0: no latency figure for test-fabric in the data"
    assert phases[1] == {
        "name": "all-reduce of 1/8 across 8 domains (ring)", "tier": "scale-out", "algorithm": "ring", "accelerators": 8,
        "bytes_per_accelerator": 3.9375e9, "steps": 14, "bandwidth": 50e9, "bandwidth_counted": "per-direction",
        "bandwidth_source": "test-system.scale_out_bandwidth", "per_direction_bandwidth": 50e9, "latency": 0.0, "latency_source": nothing,
        "bound_seconds": pytest.approx(0.07875), "efficiency": 1.0, "per_direction_efficiency": 1.0, "efficiency_source": "no measured run: the peak bound",
        "expected_latency": 0.0, "expected_latency_source": f"no small-message run: {nothing}", "seconds": pytest.approx(0.07875),
    }


def test_the_table_rows_and_source_lines_of_a_hierarchical_all_reduce(connection):
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64, algorithm="ring")
    inside, across, total = describe(result)
    assert inside == {"phase": "reduce-scatter and all-gather inside the domain (8 domains of 8)", "tier": "scale-up", "gpus": 8, "sent_per_gpu": "28 GB",
                      "peak_bandwidth": "450 GB/s per-direction", "efficiency": "100.0%", "peak_latency": "112 x 0 s", "latency": "112 x 0 s",
                      "bound_ms": 62.222, "expected_ms": 62.222}
    assert (across["sent_per_gpu"], across["peak_bandwidth"], across["latency"], across["bound_ms"]) == ("3.938 GB", "50 GB/s per-direction", "14 x 0 s", 78.75)
    assert total == {"phase": "total (phases pipelined)", "tier": "bound by scale-out", "gpus": 64, "sent_per_gpu": "", "peak_bandwidth": "",
                     "efficiency": "", "peak_latency": "", "latency": "", "bound_ms": 78.75, "expected_ms": 78.75}
    assert footer(result)[5:] == ["efficiency of all-reduce of 1/8 across 8 domains (ring): 100% of one direction, no measured run: the peak bound",
                                  "latency of all-reduce of 1/8 across 8 domains (ring): no small-message run: assumed 0: no latency figure for test-fabric in the data"]


def test_one_phase_has_no_total_row_and_the_large_n_limit_says_so(network):
    [row] = describe(estimate(network, "all-gather", platform="test-system", size_bytes=SEED_GRADIENTS))
    # Large-N limit: the whole 16 GB at 450 GB/s; a ring's steps grow with the count, so its latency is left out and says so.
    assert row == {"phase": "all-gather (ring)", "tier": "scale-up", "gpus": "large-N limit", "sent_per_gpu": "16 GB",
                   "peak_bandwidth": "450 GB/s per-direction", "efficiency": "100.0%", "peak_latency": "left out", "latency": "left out",
                   "bound_ms": 35.556, "expected_ms": 35.556}


def test_without_a_gpu_count_ring_and_tree_latency_is_left_out_and_no_latency_source_is_named(bundled):
    """hgx-h100 has measured small-message runs; without --gpus none of them is named as a latency source of a ring or tree."""
    for algorithm in ("ring", "tree"):
        result = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=2**20, algorithm=algorithm)
        line = footer(result)[-1]
        assert line == "latency of all-reduce (" + algorithm + "): left out: the large-N limit has no GPU count to count steps by; give --gpus to include it"
        [phase] = result.as_dict()["phases"]
        assert phase["expected_latency"] == 0 and phase["expected_latency_source"].startswith("left out")
        with_count = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=2**20, algorithm=algorithm, accelerators=8)
        assert "left out" not in footer(with_count)[-1] and with_count.expected[0].latency_seconds > 0


def test_the_footer_says_latency_is_left_out_without_a_gpu_count(tmp_path):
    from typer.testing import CliRunner

    from specdb.cli import app

    result = CliRunner().invoke(app, ["collective", "all-reduce", "--size", "1MiB", "--platform", "hgx-h100", "--algorithm", "ring",
                                      "--db", str(tmp_path / "specdb.sqlite")])
    assert result.exit_code == 0, result.output
    assert "(peak figures scaled by efficiencies measured in published runs; latency left out, give --gpus to include it)" in result.stdout


@pytest.mark.parametrize("text, seconds", [("2us", 2e-6), ("500 ns", 5e-7), ("1 ms", 1e-3)])
def test_the_latency_option_takes_a_time(text, seconds):
    assert parse_latency(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text, message", [
    ("2 GB", "--latency '2 GB' is not a time (try 2us or 500ns)"),
    ("soon", "--latency 'soon' is not a number followed by a unit"),
])
def test_the_latency_option_refuses_anything_else(text, message):
    with pytest.raises(UsageError) as refused:
        parse_latency(text)
    assert str(refused.value) == message


def test_nvls_with_sharp_names_its_phases_and_their_gpus(bundled):
    result = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=24, algorithm="nvls")
    assert [(phase.name, phase.accelerators) for phase in result.phases] == [
        ("reduce-scatter and all-gather inside the domain through the NVSwitch (3 domains of 8)", 8),
        ("all-reduce of 1/8 across 3 domains, reduced in the network switches (infiniband-ndr.streaming_aggregation_trees)", 3),
    ]


def test_a_run_the_model_cannot_place_is_named_not_fatal(specs, db):
    # A collnet run across two nodes of the test system, whose fabric has no in-network reduction in the data.
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text() + (
        "  measured_all_reduce_busbw_16gpu_collnet:\n"
        "    {value: 40 GB/s, direction: per-direction, scope: per-accelerator, status: measured, as_of: 2023-01, reviewed: 2026-07-15,\n"
        "     method: nccl-tests, collective: {operation: all-reduce, accelerators: 16, algorithm: collnet, library: NCCL}, sources: [{ref: test-datasheet}]}\n"))
    result = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=8, algorithm="ring")
    assert result.seconds == result.bound_seconds
    [unused] = result.unused_runs
    assert unused.startswith("test-system.measured_all_reduce_busbw_16gpu_collnet: test-fabric has no in-network reduction (SHARP)")
    assert footer(result)[-1] == f"measured run not used: {unused}"
    assert result.as_dict()["runs_not_used"] == [unused]


@pytest.mark.parametrize("algorithm, why", [("nvls", " (NCCL runs NVLS across nodes only with SHARP)"), ("collnet", "")])
def test_in_network_reduction_across_domains_without_sharp_is_refused_with_the_reason(connection, algorithm, why):
    from specdb.collective.bound import Topology, bound
    from specdb.analysis.tiers import platforms

    [platform] = platforms(connection, platform="test-system")
    with pytest.raises(UsageError) as refused:
        bound(Topology.read(connection, platform), "all-reduce", size_bytes=1e9, accelerators=16, tier="auto", algorithm=algorithm, basis="per-direction")
    assert str(refused.value) == (f"test-fabric has no in-network reduction (SHARP) in the data, so {algorithm} cannot span "
                                  f"test-system's domains{why}; choose ring or tree")


def test_the_borrowed_operations_are_listed(bundled):
    # TPU v6e has no run of any operation; point-to-point borrows every measured ring run's efficiency, naming the operations.
    result = estimate(bundled, "point-to-point", platform="tpu-v6e-pod", size_bytes=1e9, accelerators=2)
    assert result.expected[0].efficiency_source.startswith(
        "borrowed from other vendors' platforms, all-gather, all-reduce, reduce-scatter runs (no point-to-point run): ")


def test_beyond_a_domain_without_a_network_figure_is_a_usage_error(bundled):
    # A v6e pod is one 256-chip torus; the data has no per-chip data-centre network figure to go beyond it.
    with pytest.raises(UsageError) as refused:
        estimate(bundled, "all-reduce", platform="tpu-v6e-pod", size_bytes=1e9, accelerators=512)
    assert str(refused.value) == "google-tpu-v6e-pod has no scale-out bandwidth in the data"


def shape(result):
    return [(p.name, p.tier, p.algorithm, p.accelerators, p.bytes_per_accelerator, p.steps) for p in result.phases]


def test_point_to_point_across_domains_goes_through_one_nic(network):
    # Two GPUs in different domains: the whole message through one 50 GB/s NIC, one network latency step.
    result = estimate(network, "point-to-point", platform="test-system", size_bytes=1e9, accelerators=16)
    assert shape(result) == [("point-to-point across domains, one NIC", "scale-out", "ring", 2, 1e9, 1)]
    assert result.bound_seconds == pytest.approx(1e9 / OUT + ALPHA_OUT)


def test_all_to_all_across_domains_posts_every_message_at_once(network):
    # 64 GPUs: 7 of the 63 peers share the domain (7/64 of 16 GB over NVLink), 56 are remote (56/64 through the NIC);
    # every message is posted at once, one latency step on each tier.
    result = estimate(network, "all-to-all", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    assert shape(result) == [
        ("all-to-all inside the domain (8 domains of 8)", "scale-up", "ring", 8, 7 / 64 * SEED_GRADIENTS, 1),
        ("all-to-all to the other domains, through each accelerator's NIC", "scale-out", "ring", 64, 56 / 64 * SEED_GRADIENTS, 1),
    ]
    assert result.bound_seconds == pytest.approx(14e9 / OUT + ALPHA_UP + ALPHA_OUT)


@pytest.mark.parametrize("operation", ["all-gather", "reduce-scatter"])
def test_all_gather_gathers_across_first_and_reduce_scatter_reduces_inside_first(network, operation):
    # 64 GPUs, 16 GB: across, one flat ring of 64 over each domain's 8 NICs, 63/64 x 16 GB / 8 = 1.96875 GB per NIC in
    # 7 steps; inside, 7/8 x 16 GB. The flat ring's 63 steps: 7 across the network, 63 - 7 = 56 inside the domains.
    result = estimate(network, operation, platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    across = (f"{operation} of 1/8 across 8 domains", "scale-out", "ring", 8, 1.96875e9, 7)
    inside = (f"{operation} inside the domain (8 domains of 8)", "scale-up", "ring", 8, 14e9, 56)
    assert shape(result) == ([across, inside] if operation == "all-gather" else [inside, across])
    assert result.bound_seconds == pytest.approx(1.96875e9 / OUT + 56 * ALPHA_UP + 7 * ALPHA_OUT)


def test_a_run_of_256_mib_or_more_gives_an_efficiency_and_a_smaller_one_a_latency():
    from specdb.collective.calibration import PEAK_SIZE, Run, is_bandwidth_run

    def run(size):
        return Run(1, "r", "p", "f", "all-gather", 8, size, "ring", "NCCL", 100e9, "per-accelerator", None)

    assert is_bandwidth_run(run(256 * MIB)) and is_bandwidth_run(run(None)) and not is_bandwidth_run(run(256 * MIB - 1))
    # A peak without a size is compared at 8 GiB; all-gather's busbw is algbw x (n-1)/n, so time = 7/8 x size / busbw.
    assert PEAK_SIZE == GIB8
    assert run(None).measured_seconds == pytest.approx(7 / 8 * GIB8 / 100e9)
    assert run(None).label == "r.f"


RUN = ("    {{value: {busbw}, direction: per-direction, scope: per-accelerator, status: measured, as_of: 2023-01, reviewed: 2026-07-15,"
       " method: nccl-tests, collective: {{operation: all-reduce, accelerators: {gpus}, size: {size}, algorithm: ring, library: NCCL{spread}}},"
       " sources: [{{ref: test-datasheet}}]}}\n")


def test_a_run_over_three_nodes_is_spread_as_evenly_as_they_allow(specs, db):
    # 16 GPUs on 3 nodes: 6, 5 and 5. Across: the flat ring of 16 leaves the largest domain through its 6 NICs, 2 x 15/16 x S/6
    # per NIC at 50 GB/s; the run took 2 x 15/16 x S / busbw, so the network's efficiency is busbw / (6 x 50 GB/s).
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text() + "  measured_all_reduce_busbw_16gpu_ring_3nodes:\n" + RUN.format(busbw="240 GB/s", gpus=16, size="8 GiB", spread=", domains: 3"))
    result = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=GIB8, accelerators=16, algorithm="ring")
    assert result.expected[1].efficiency == pytest.approx(240e9 / (6 * OUT)) == pytest.approx(0.8)
    assert result.expected[1].efficiency_source == "measured on this platform: test-system.measured_all_reduce_busbw_16gpu_ring_3nodes"


def test_a_small_run_faster_than_the_links_explains_no_latency(specs, db):
    # 1 MiB on 8 GPUs at a busbw of 500 GB/s, above the link's 450: the bandwidth alone is slower, so the latency is 0, not negative.
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text() + "  measured_all_reduce_busbw_8gpu_ring_1mib:\n" + RUN.format(busbw="500 GB/s", gpus=8, size="1 MiB", spread=""))
    result = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=MIB, accelerators=8, algorithm="ring")
    assert result.expected[0].latency == 0
    assert result.expected[0].latency_source == "measured on this platform: test-system.measured_all_reduce_busbw_8gpu_ring_1mib"


def test_a_small_run_leaves_the_latency_its_bandwidth_does_not_explain(specs, db):
    # 1 MiB on 8 GPUs at 36 GB/s busbw: 2 x 7/8 x 1 MiB / 36 GB/s = 50.97 us measured; at the link's 450 GB/s the bytes take
    # 4.08 us, so each of the 14 ring steps holds (50.97 - 4.08) / 14 = 3.35 us.
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text() + "  measured_all_reduce_busbw_8gpu_ring_1mib:\n" + RUN.format(busbw="36 GB/s", gpus=8, size="1 MiB", spread=""))
    result = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=MIB, accelerators=8, algorithm="ring")
    measured, transfer = 1.75 * MIB / 36e9, 1.75 * MIB / UP
    assert result.expected[0].latency == pytest.approx((measured - transfer) / 14)
    assert result.seconds == pytest.approx(measured)


@pytest.mark.parametrize("dtype, size", [("fp64", 8e9), ("fp32", 4e9), ("tf32", 4e9), ("bf16", 2e9), ("fp16", 2e9), ("fp8", 1e9), ("int8", 1e9), ("fp4", 0.5e9)])
def test_a_billion_parameters_weigh_their_dtypes_bytes(dtype, size):
    assert message_bytes(params=1e9, dtype=dtype) == size


@pytest.mark.parametrize("arguments, message", [
    ({}, "missing the message size: give --size (e.g. 16GB) or --params (with --dtype)"),
    ({"size": "1GB", "params": 1e9}, "give --size or --params (with --dtype), not both"),
    ({"params": 1e9, "dtype": "int4"}, "dtype must be one of fp64, fp32, tf32, bf16, fp16, fp8, int8, fp4"),
    ({"params": float("nan")}, "--params must be a finite number greater than zero, not nan"),
    ({"params": 0.0}, "--params must be a finite number greater than zero, not 0"),
    ({"params": 1e30}, "--params gives a message of 2e+30 bytes, outside the plausible range of a size (1 B to 1 ZB)"),
    ({"params": 0.25}, "--params gives a message of 0.5 bytes, outside the plausible range of a size (1 B to 1 ZB)"),
])
def test_a_message_size_that_cannot_be_is_refused_with_the_reason(arguments, message):
    with pytest.raises(UsageError) as refused:
        message_bytes(**arguments)
    assert str(refused.value) == message


@pytest.mark.parametrize("params, dtype", [(0.5, "bf16"), (5e20, "bf16"), (2, "fp4")])
def test_the_plausible_size_range_includes_its_ends(params, dtype):
    # 1 B and 1 ZB (1e21 B) are the two ends of a plausible size.
    assert 1 <= message_bytes(params=params, dtype=dtype) <= 1e21


@pytest.mark.parametrize("arguments, message", [
    ({"operation": "broadcast"}, "operation must be one of all-reduce, all-gather, reduce-scatter, all-to-all, point-to-point"),
    ({"algorithm": "nccl"}, "algorithm must be one of auto, ring, tree, nvls, collnet"),
    ({"tier": "rack"}, "tier must be one of auto, scale-up, scale-out"),
    ({"basis": "both"}, "basis must be one of per-direction, as-quoted"),
    ({"accelerators": 1}, "--gpus must be from 2 to 100,000,000"),
    ({"accelerators": 100_000_001}, "--gpus must be from 2 to 100,000,000"),
    ({"accelerators": 10**30}, "--gpus must be from 2 to 100,000,000"),
])
def test_estimate_refuses_what_it_does_not_know(connection, arguments, message):
    chosen = {"operation": "all-reduce", **arguments}
    with pytest.raises(UsageError) as refused:
        estimate(connection, chosen.pop("operation"), platform="test-system", size_bytes=1e9, **chosen)
    assert str(refused.value) == message


@pytest.mark.parametrize("operation, gpus, factor", [
    ("all-reduce", None, 2), ("all-reduce", 8, 2 * 7 / 8), ("all-gather", None, 1), ("all-gather", 8, 7 / 8),
    ("reduce-scatter", 8, 7 / 8), ("all-to-all", 4, 3 / 4), ("point-to-point", 2, 1),
])
def test_bus_bandwidth_factors_are_nccl_tests(operation, gpus, factor):
    from specdb.collective.bound import bus_factor

    # nccl-tests: 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 otherwise; n -> infinity without a count.
    assert bus_factor(operation, gpus) == pytest.approx(factor)


def test_the_hierarchical_ring_all_reduce_phase_by_phase(network):
    # 64 GPUs, 16 GB: inside 7/8 x 16 GB each way, one phase on NVLink; across, the flat ring's 8 channels over each
    # domain's 8 NICs, 2 x 63/64 x 16 GB / 8 = 3.9375 GB per NIC in 14 steps. The flat ring's other 2 x 63 - 14 = 112
    # steps are inside the domains.
    result = estimate(network, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64, algorithm="ring")
    assert shape(result) == [
        ("reduce-scatter and all-gather inside the domain (8 domains of 8)", "scale-up", "ring", 8, 28e9, 112),
        ("all-reduce of 1/8 across 8 domains (ring)", "scale-out", "ring", 8, 3.9375e9, 14),
    ]


def test_a_tree_across_two_domains_is_one_level_deep(network):
    # 16 GPUs in 2 domains: the tree over 2 domain leaders has ceil(log2 2) = 1 level, one step up and one down. Each domain
    # is the root of one of the two trees and the leaf of the other: half the buffer up and down in each, one buffer per
    # domain each way, S/8 per NIC.
    result = estimate(network, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=16, algorithm="tree")
    assert (result.phases[1].algorithm, result.phases[1].steps, result.phases[1].bytes_per_accelerator) == ("tree", 2, SEED_GRADIENTS / 8)


def test_flat_tree_and_all_to_all_steps(network):
    # Large-N limit: no count, so no latency steps, and the tree sends 2S; all-to-all posts all 7 messages at once, one step.
    limit = estimate(network, "all-reduce", platform="test-system", size_bytes=1e9, algorithm="tree")
    assert (limit.phases[0].steps, limit.bytes_per_accelerator) == (0, 2e9)
    all_to_all = estimate(network, "all-to-all", platform="test-system", size_bytes=1e9, accelerators=8)
    assert all_to_all.bound_seconds == pytest.approx(7 / 8 * 1e9 / UP + ALPHA_UP)


def test_a_platform_without_a_domain_size_must_be_given_a_tier(specs, db):
    system = specs / "system" / "test-system.yaml"
    system.write_text("\n".join(line for line in system.read_text().splitlines() if not line.startswith("  scale_up_domain:")) + "\n")
    connection = open_fresh(db, specs)
    with pytest.raises(UsageError) as refused:
        estimate(connection, "all-reduce", platform="test-system", size_bytes=1e9, accelerators=8)
    assert str(refused.value) == "test-system has no scale_up_domain figure; choose --tier"
    # With the tier given, the link's figures are read as ever; no domain, so no pair of one shared link.
    chosen = estimate(connection, "point-to-point", platform="test-system", size_bytes=1e9, accelerators=2, tier="scale-up")
    assert chosen.phases[0].name == "point-to-point (ring)" and chosen.bound_seconds == pytest.approx(1e9 / UP)


MESH_LINK = """schema: 2
id: test-link
kind: link
name: Test Mesh Link
vendor: Test Vendor
figures:
  links_per_accelerator: {value: "7", status: shipping, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}
"""
PER_LINK = "  per_link_bandwidth: {value: 25 GB/s, direction: per-direction, scope: per-link, status: shipping, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}\n"


@pytest.mark.parametrize("per_link, bandwidth, name, source", [
    (PER_LINK, 25e9, "point-to-point over the one link a pair of accelerators shares", "test-link.per_link_bandwidth"),
    # A mesh whose per-link figure is missing: the pair is not narrowed, it gets the accelerator's whole scale-up figure.
    ("", UP, "point-to-point (ring)", "test-gpu.scale_up_bandwidth"),
])
def test_a_mesh_of_seven_links_on_eight_gpus_gives_a_pair_one_link(specs, db, per_link, bandwidth, name, source):
    (specs / "link" / "test-link.yaml").write_text(MESH_LINK + per_link)
    result = estimate(open_fresh(db, specs), "point-to-point", platform="test-system", size_bytes=1e9, accelerators=2)
    [phase] = result.phases
    assert (phase.name, phase.bandwidth, phase.bandwidth_counted, phase.bandwidth_source) == (name, bandwidth, "per-direction", source)


def test_eight_gpus_over_two_nodes_are_hierarchical(specs, db):
    # A run of 8 GPUs on 2 nodes of 4: across, the flat ring of 8 over each node's 4 NICs, 2 x 7/8 x S/4 per NIC at 50 GB/s,
    # is the slowest phase; measured 2 x 7/8 x S / busbw, so the network's efficiency is busbw / (4 x 50 GB/s).
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text() + "  measured_all_reduce_busbw_8gpu_ring_2nodes:\n" + RUN.format(busbw="160 GB/s", gpus=8, size="8 GiB", spread=", domains: 2"))
    result = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=GIB8, accelerators=16, algorithm="ring")
    assert result.expected[1].efficiency == pytest.approx(160e9 / (4 * OUT)) == pytest.approx(0.8)
    assert result.expected[1].efficiency_source == "measured on this platform: test-system.measured_all_reduce_busbw_8gpu_ring_2nodes"


def test_given_domains_decide_the_placement(connection):
    from specdb.collective.bound import Topology, bound
    from specdb.analysis.tiers import platforms

    [platform] = platforms(connection, platform="test-system")
    topology = Topology.read(connection, platform)
    def placed(domains):
        return [phase.tier for phase in bound(topology, "all-reduce", size_bytes=1e9, accelerators=8, tier="auto", algorithm="ring", basis="per-direction", domains=domains).phases]
    # One domain given is the flat ring inside it; two or three domains are hierarchical.
    assert placed([Domains(8, 1)]) == ["scale-up"]
    assert placed([Domains(4, 2)]) == placed([Domains(3, 2), Domains(2, 1)]) == ["scale-up", "scale-out"]


def test_a_full_domain_fits_the_scale_up_tier(connection):
    # 8 GPUs on a domain of 8 may be asked for on the scale-up tier; 9 may not.
    assert estimate(connection, "all-reduce", platform="test-system", size_bytes=1e9, accelerators=8, tier="scale-up").phases[0].tier == "scale-up"
    with pytest.raises(UsageError):
        estimate(connection, "all-reduce", platform="test-system", size_bytes=1e9, accelerators=9, tier="scale-up")


def test_nvls_on_the_flat_network_tier_is_refused(bundled):
    with pytest.raises(UsageError) as refused:
        estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=1e9, accelerators=16, tier="scale-out", algorithm="nvls")
    assert str(refused.value) == "--algorithm nvls reduces in the switches of a hierarchical all-reduce, not over a flat network ring; use --tier auto"


def test_collnet_beyond_a_pod_without_a_network_names_the_missing_fabric(bundled):
    with pytest.raises(UsageError) as refused:
        estimate(bundled, "all-reduce", platform="tpu-v6e-pod", size_bytes=1e9, accelerators=512, algorithm="collnet")
    assert str(refused.value) == ("its scale-out fabric has no in-network reduction (SHARP) in the data, so collnet cannot span "
                                  "google-tpu-v6e-pod's domains; choose ring or tree")


PORT_RUN = ("    {value: 45 GB/s, direction: per-direction, scope: per-port, status: measured, as_of: 2023-01, reviewed: 2026-07-15,"
            " method: nccl-tests, collective: {operation: all-reduce, accelerators: 16, algorithm: ring, library: NCCL}, sources: [{ref: test-datasheet}]}\n")


def test_leave_one_out_predicts_each_run_from_the_others_by_hand(specs, db):
    # Two 8 GiB rings at 360 and 400 GB/s busbw: each left out takes the other's efficiency, so its estimate over its
    # measured time is its own busbw over the other's (0.9 and 1.111). The per-NIC 45 GB/s, left out, has no other network
    # run: the peak bound, 45 / 50 = 0.9. A run on a cluster that names no platform is not predicted, and does not stop the rest.
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text()
                      + "  measured_all_reduce_busbw_8gpu_ring_a:\n" + RUN.format(busbw="360 GB/s", gpus=8, size="8 GiB", spread="")
                      + "  measured_all_reduce_busbw_8gpu_ring_b:\n" + RUN.format(busbw="400 GB/s", gpus=8, size="8 GiB", spread="")
                      + "  measured_all_reduce_busbw_per_nic_16gpu_ring:\n" + PORT_RUN)
    (specs / "cluster").mkdir()
    (specs / "cluster" / "a-cluster.yaml").write_text(
        "schema: 2\nid: a-cluster\nkind: cluster\nname: A cluster\nvendor: Test Vendor\nfigures:\n"
        "  measured_all_reduce_busbw_8gpu_ring:\n" + RUN.format(busbw="300 GB/s", gpus=8, size="8 GiB", spread=""))
    rows = leave_one_out(open_fresh(db, specs))
    a, b = "test-system.measured_all_reduce_busbw_8gpu_ring_a", "test-system.measured_all_reduce_busbw_8gpu_ring_b"
    assert rows == [
        {"run": a, "gpus": 8, "domains": 1, "size": "8.59 GB", "algorithm": "ring", "estimate_over_measured": 0.9, "bound_over_measured": 0.8,
         "calibrated_on": f"measured on this platform: {b}"},
        {"run": b, "gpus": 8, "domains": 1, "size": "8.59 GB", "algorithm": "ring", "estimate_over_measured": 1.111, "bound_over_measured": 0.889,
         "calibrated_on": f"measured on this platform: {a}"},
        # The bound of a per-NIC figure is its share of the port: 45 of 50 GB/s.
        {"run": "test-system.measured_all_reduce_busbw_per_nic_16gpu_ring", "gpus": 16, "domains": 2, "size": "peak", "algorithm": "ring",
         "estimate_over_measured": 0.9, "bound_over_measured": 0.9, "calibrated_on": "no measured run: the peak bound"},
    ]


def test_a_small_run_left_out_is_judged_on_its_latency_source(specs, db):
    # The 1 MiB run left out: no other small run, so the latency is the data's (none: 0) and the estimate is the bytes alone at
    # the 8 GiB run's efficiency, 1.75 MiB / 380 GB/s against 1.75 MiB / 38 GB/s measured: 0.1.
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text()
                      + "  measured_all_reduce_busbw_8gpu_ring_8gib:\n" + RUN.format(busbw="380 GB/s", gpus=8, size="8 GiB", spread="")
                      + "  measured_all_reduce_busbw_8gpu_ring_1mib:\n" + RUN.format(busbw="38 GB/s", gpus=8, size="1 MiB", spread=""))
    [small] = [row for row in leave_one_out(open_fresh(db, specs)) if row["run"].endswith("1mib")]
    assert small == {"run": "test-system.measured_all_reduce_busbw_8gpu_ring_1mib", "gpus": 8, "domains": 1, "size": "1.049 MB", "algorithm": "ring",
                     "estimate_over_measured": 0.1, "bound_over_measured": round(1.75 * MIB / 450e9 / (1.75 * MIB / 38e9), 3),
                     "calibrated_on": "no small-message run: assumed 0: no latency figure for test-link in the data"}


def test_a_per_port_run_without_a_port_figure_is_named_not_used(specs, db):
    system = specs / "system" / "test-system.yaml"
    text = system.read_text().replace(", scale_out: test-fabric}", "}")
    system.write_text(text + "  measured_all_reduce_busbw_per_nic_16gpu_ring:\n" + PORT_RUN)
    result = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=1e9, accelerators=8)
    assert result.unused_runs == ["test-system.measured_all_reduce_busbw_per_nic_16gpu_ring: a per-port bus bandwidth is a share of the "
                                  "scale-out port, and test-system's fabric (none in the data) has no port_bandwidth figure"]


def test_a_table_row_counts_latency_in_both_times(network):
    # 8 GPUs, 1 MB, ring: 1.75 MB / 450 GB/s = 3.889 us plus 14 steps of 1 us = 17.9 us, 0.018 ms.
    [row] = describe(estimate(network, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8, algorithm="ring"))
    assert (row["latency"], row["bound_ms"], row["expected_ms"]) == ("14 x 1 us", 0.018, 0.018)


def test_the_json_document_keeps_microseconds(network):
    # 8 GPUs, 1 MB: ring 14 x 1 us + 1.75 MB / 450 GB/s, NCCL's choice inside a node; tree 6 x 1 us + 2 MB / 450 GB/s.
    ring, tree = 14e-6 + 1.75e6 / UP, 6e-6 + 2e6 / UP
    document = estimate(network, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=8).as_dict()
    assert document["algorithms_considered_ms"] == {"ring": round(ring * 1e3, 6), "tree": round(tree * 1e3, 6)}
    assert document["algbw_gbps"] == round(1e6 / ring / 1e9, 3) and document["busbw_gbps"] == round(1e6 / ring * 1.75 / 1e9, 3)
    [phase] = document["phases"]
    assert phase["bound_seconds"] == pytest.approx(ring) and phase["seconds"] == pytest.approx(ring)


def test_table_rows_of_a_hierarchical_small_message_keep_three_decimals(network):
    # 16 GPUs, 1 MB, ring. Inside, both ways: 2 x 7/8 MB at 450 GB/s (3.889 us) + 28 x 1 us (the flat ring of 16 has
    # 2 x 15 = 30 steps, 2 across the network); across: 2 x 15/16 x 1/8 MB at 50 GB/s (4.6875 us) + 2 x 3 us. Pipelined:
    # the network's 4.6875 us over NVLink's 3.889 us, plus every latency (28 + 6 us): 38.6875 us.
    rows = describe(estimate(network, "all-reduce", platform="test-system", size_bytes=1e6, accelerators=16, algorithm="ring"))
    assert [row["expected_ms"] for row in rows] == [round((1.75e6 / UP + 28e-6) * 1e3, 3), round((0.234375e6 / OUT + 6e-6) * 1e3, 3),
                                                    round((0.234375e6 / OUT + 34e-6) * 1e3, 3)]
    assert rows[-1]["bound_ms"] == 0.039
    # Two phases are a total too: all-to-all across domains.
    assert describe(estimate(network, "all-to-all", platform="test-system", size_bytes=1e6, accelerators=16))[-1]["phase"] == "total (phases pipelined)"


REDUCING_SWITCHES = ("  in_network_reduction_domain:\n"
                     "    {value: 8, status: shipping, as_of: 2023-01, reviewed: 2026-07-15, sources: [{ref: test-datasheet}]}\n")


def test_nvlink_sharp_is_offered_by_the_topology_not_by_a_measured_run(specs, db):
    # test-system-b says its switches reduce and has no NVLS run; test-system ran NVLS but its record does not say so.
    text = (specs / "system" / "test-system.yaml").read_text()
    (specs / "system" / "test-system-b.yaml").write_text(
        text.replace("id: test-system\n", "id: test-system-b\n").replace("name: Test System 8-GPU", "name: Test System B") + REDUCING_SWITCHES)
    nvls = RUN.format(busbw="480 GB/s", gpus=8, size="8 GiB", spread="").replace("algorithm: ring", "algorithm: nvls")
    (specs / "system" / "test-system.yaml").write_text(text + "  measured_all_reduce_busbw_8gpu_nvls_8gib:\n" + nvls)
    connection = open_fresh(db, specs)
    offered = estimate(connection, "all-reduce", platform="test-system-b", size_bytes=GIB8, accelerators=8)
    assert set(offered.considered) == {"ring", "tree", "nvls"}
    assert set(estimate(connection, "all-reduce", platform="test-system", size_bytes=GIB8, accelerators=8).considered) == {"ring", "tree"}
    # test-system-b's NVLS efficiency is borrowed from test-system's run, stated: 480 GB/s busbw of 8 GPUs is 2 x 7/8 x S / t,
    # so t = 1.75 S / 480 GB/s while the bound sends S at 450 GB/s: 480 / (1.75 x 450) = 61 %.
    nvls_only = estimate(connection, "all-reduce", platform="test-system-b", size_bytes=GIB8, accelerators=8, algorithm="nvls")
    assert nvls_only.expected[0].efficiency == pytest.approx(480 / (1.75 * 450))
    assert nvls_only.expected[0].efficiency_source == "borrowed from platforms on test-link: test-system.measured_all_reduce_busbw_8gpu_nvls_8gib"
    assert nvls_only.assumptions[:2] == [
        "algorithm: nvls, as asked with --algorithm nvls",
        "in-network reduction: assumed: NVLink SHARP in the scale-up switches (test-system-b.in_network_reduction_domain); --no-in-network leaves it out"]
    assert nvls_only.assumptions[2] == ("efficiency of all-reduce (nvls): 61% of one direction, borrowed from platforms on test-link: "
                                        "test-system.measured_all_reduce_busbw_8gpu_nvls_8gib")


def test_a_size_that_is_not_a_size_says_so(connection):
    with pytest.raises(UsageError) as refused:
        message_bytes(size="16 Gb/s")
    assert str(refused.value) == "--size '16 Gb/s' is not a data size (try 16GB or 512MiB)"


def test_a_small_point_to_point_run_gives_its_one_step_of_latency(specs, db):
    # 1 MiB between 2 GPUs at 20 GB/s: 52.43 us measured, 2.33 us of it the bytes at 450 GB/s; the one step holds the rest.
    system = specs / "system" / "test-system.yaml"
    run = RUN.format(busbw="20 GB/s", gpus=2, size="1 MiB", spread="").replace("operation: all-reduce", "operation: point-to-point")
    system.write_text(system.read_text() + "  measured_point_to_point_busbw_2gpu_ring_1mib:\n" + run)
    result = estimate(open_fresh(db, specs), "point-to-point", platform="test-system", size_bytes=MIB, accelerators=2)
    assert result.expected[0].latency == pytest.approx(MIB / 20e9 - MIB / UP)


def test_a_small_run_across_nodes_gives_no_latency_per_step(specs, db):
    # Latency per step is read only from a run on one tier; a 16-GPU 1 MiB run spans two.
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text() + "  measured_all_reduce_busbw_16gpu_ring_1mib:\n" + RUN.format(busbw="20 GB/s", gpus=16, size="1 MiB", spread=""))
    result = estimate(open_fresh(db, specs), "all-reduce", platform="test-system", size_bytes=MIB, accelerators=8, algorithm="ring")
    assert result.expected[0].latency_source == "no small-message run: assumed 0: no latency figure for test-link in the data"


def test_a_small_run_is_read_with_its_own_operations_efficiency(specs, db):
    # All-reduce ran at 360 GB/s busbw (80 % of 450), all-gather at 270 (60 %). A 1 MiB all-gather at 10 GB/s busbw took
    # 7/8 MiB / 10 GB/s; at 60 % of 450 GB/s its bytes take 7/8 MiB / 270 GB/s; each of its 7 steps holds a seventh of the rest.
    system = specs / "system" / "test-system.yaml"
    gather = RUN.replace("operation: all-reduce", "operation: all-gather")
    system.write_text(system.read_text()
                      + "  measured_all_reduce_busbw_8gpu_ring_8gib:\n" + RUN.format(busbw="360 GB/s", gpus=8, size="8 GiB", spread="")
                      + "  measured_all_gather_busbw_8gpu_ring_8gib:\n" + gather.format(busbw="270 GB/s", gpus=8, size="8 GiB", spread="")
                      + "  measured_all_gather_busbw_8gpu_ring_1mib:\n" + gather.format(busbw="10 GB/s", gpus=8, size="1 MiB", spread=""))
    result = estimate(open_fresh(db, specs), "all-gather", platform="test-system", size_bytes=MIB, accelerators=8)
    assert result.expected[0].efficiency == pytest.approx(0.6)
    assert result.expected[0].latency == pytest.approx((7 / 8 * MIB / 10e9 - 7 / 8 * MIB / 270e9) / 7)


def test_the_tree_and_collnet_take_the_rings_values_and_say_so(bundled):
    # No tree run on HGX A100: its ring's 8 GiB efficiency (231.58 of NVLink 3's 300 GB/s) times NCCL's own tree factor,
    # 0.92 (src/graph/tuning.cc: busBw*.92 for the tree), and its 1 MiB latency, both named.
    tree = estimate(bundled, "all-reduce", platform="hgx-a100", size_bytes=MIB, accelerators=8, algorithm="tree")
    assert tree.expected[0].efficiency == pytest.approx(231.58 / 300 * 0.92)
    assert tree.expected[0].efficiency_source == ("measured on this platform: nvidia-hgx-a100.measured_all_reduce_busbw_8gpu_ring_8gib; "
                                                  "the ring's x 0.92 (NCCL's tree bandwidth factor, src/graph/tuning.cc), no tree run measured")
    assert tree.expected[0].latency_source.endswith("nvidia-hgx-a100.measured_all_reduce_busbw_8gpu_ring_1mib; the ring's, no tree run measured")
    # No collnet run on 16 H100s, but Together's B200 CollNet runs on the same InfiniBand NDR: across, each NIC sends
    # S/8 once at 50 GB/s, measured in 2(n-1)/n x S / busbw, an efficiency of busbw / (400 GB/s x 2(n-1)/n). One cluster:
    # 597.97 / 750 = 0.797 (16 GPUs), 605.90 / 775 = 0.782 (32), 588.83 / 793.75 = 0.742 (128), 565.06 / 796.875 = 0.709 (256);
    # the other: 533.0 / 750 = 0.711, 543.8 / 775 = 0.702, 547.9 / 787.5 = 0.696, 546.7 / 793.75 = 0.689, 544.3 / 796.875 = 0.683.
    # The median of the nine is 0.709.
    collnet = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=SEED_GRADIENTS, accelerators=16, algorithm="collnet")
    assert collnet.expected[1].efficiency == pytest.approx(565.06 / 796.875)
    assert collnet.expected[1].efficiency_source.startswith("borrowed from platforms on infiniband-ndr: together-b200-dgxc-nccl-tests.")


def test_a_hundred_million_gpus_are_counted_not_listed(connection):
    """100,000,000 GPUs on 8-GPU domains: 12,500,000 full domains; the ring across them sends 2 x (12,499,999 / 12,500,000) x S/8 per NIC.

    16 GB: across, 2 x 0.99999992 x 2 GB = 3.99999968 GB at 50 GB/s = 80 ms; inside, 2 x 7/8 x 16 GB at 450 GB/s = 62.2 ms.
    """
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=100_000_000, algorithm="ring")
    assert result.bound.domains == [Domains(8, 12_500_000)]
    across = result.bound.phases[1]
    assert across.accelerators == 12_500_000 and across.steps == 2 * 12_499_999
    assert across.bytes_per_accelerator == pytest.approx(2 * 12_499_999 / 12_500_000 * 2e9)
    assert result.as_dict()["domains"] == [{"accelerators": 8, "count": 12_500_000}]


def test_gpus_spread_over_a_runs_domains_as_evenly_as_they_go():
    from specdb.collective.bound import even_domains, fill_domains

    assert even_domains(12, 5) == [Domains(3, 2), Domains(2, 3)]
    assert even_domains(16, 2) == [Domains(8, 2)]
    assert fill_domains(1024, 72) == [Domains(72, 14), Domains(16, 1)]
    assert fill_domains(10**8 + 7, 8) == [Domains(8, 12_500_000), Domains(7, 1)]


def test_collective_without_gpus_is_placed_in_the_scale_up_domain(cli):
    unplaced = json.loads(cli("collective", "all-reduce", "--size", "1GB", "--platform", "test-system", "-f", "json").stdout)
    inside = json.loads(cli("collective", "all-reduce", "--size", "1GB", "--platform", "test-system", "--tier", "scale-up", "-f", "json").stdout)
    assert unplaced == inside


@pytest.mark.parametrize("basis", ["per-direction", "as-quoted"])
@pytest.mark.parametrize("platform, gpus, size", [("hgx-h100", 64, GIB8), ("hgx-h100", 8, 16e9), ("gb200-nvl72", 1440, GIB8), ("hgx-a100", 16, MIB)])
def test_every_column_means_the_same_on_both_bases_and_adds_up_to_the_times(bundled, basis, platform, gpus, size):
    result = estimate(bundled, "all-reduce", platform=platform, size_bytes=size, accelerators=gpus, basis=basis)
    document = result.as_dict()
    for phase, row in zip(document["phases"], describe(result)):
        # The bound: the bytes at the peak bandwidth shown, plus its steps at the peak latency.
        assert phase["bound_seconds"] == pytest.approx(phase["bytes_per_accelerator"] / phase["bandwidth"] + phase["steps"] * phase["latency"])
        # The expectation: the same bandwidth times the efficiency shown, plus the expected latency per step.
        assert phase["seconds"] == pytest.approx(
            phase["bytes_per_accelerator"] / (phase["bandwidth"] * phase["efficiency"]) + phase["steps"] * phase["expected_latency"])
        # The efficiency shown is a share of the bandwidth shown; the calibrated one is a share of one direction.
        assert phase["efficiency"] * phase["bandwidth"] == pytest.approx(phase["per_direction_efficiency"] * phase["per_direction_bandwidth"])
        assert row["efficiency"] == f"{phase['efficiency']:.1%}"
        assert row["bound_ms"] == round(phase["bound_seconds"] * 1e3, 3) and row["expected_ms"] == round(phase["seconds"] * 1e3, 3)
    # Pipelined: the slowest phase's transfer plus every phase's latency.
    transfers = [phase["seconds"] - phase["steps"] * phase["expected_latency"] for phase in document["phases"]]
    assert document["seconds"] == pytest.approx(max(transfers) + sum(phase["steps"] * phase["expected_latency"] for phase in document["phases"]))
    # bound_by is the tier of the phase expected to take longest; peak_bound_by that of the longest peak bound.
    assert document["bound_by"] == max(document["phases"], key=lambda phase: phase["seconds"])["tier"]
    assert document["peak_bound_by"] == max(document["phases"], key=lambda phase: phase["bound_seconds"])["tier"]


def test_the_expected_time_does_not_depend_on_the_basis(bundled):
    quoted = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=16e9, accelerators=8, algorithm="ring", basis="as-quoted")
    one_way = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=16e9, accelerators=8, algorithm="ring")
    assert quoted.seconds == pytest.approx(one_way.seconds)
    # 370 GB/s of NVLink 4's 450 each way is 82 %; of the 900 GB/s both ways shown as quoted, 41 %.
    assert describe(quoted)[0]["efficiency"] == "41.1%" and describe(one_way)[0]["efficiency"] == "82.2%"


def test_the_total_names_the_tier_of_the_longest_phase_and_the_peak_bounds_own(bundled):
    # 64 H100s, 8 GiB, NVLS with SHARP as asked. The peak bound: NVLink's 8.59 GB at 450 GB/s (19.1 ms) under the network's
    # 1.07 GB at 50 GB/s (21.5 ms). Expected: NVLink SHARP at 61 % (31.4 ms) over the network at 94 % (22.9 ms).
    result = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=GIB8, accelerators=64, algorithm="nvls")
    inside, across = result.expected
    assert inside.phase.transfer_seconds == pytest.approx(GIB8 / 450e9) and across.phase.transfer_seconds == pytest.approx(GIB8 / 8 / 50e9)
    assert inside.seconds > across.seconds and inside.phase.transfer_seconds < across.phase.transfer_seconds
    assert (result.bound_by, result.peak_bound_by) == ("scale-up", "scale-out")
    assert describe(result)[-1]["tier"] == "bound by scale-up (peak bound: scale-out)"


H100_OFFERS = ("nvidia-hgx-h100 offers NVLink SHARP in the scale-up switches (nvidia-hgx-h100.in_network_reduction_domain)); infiniband-ndr's "
               "switches can reduce (infiniband-ndr.streaming_aggregation_trees), but nvidia-hgx-h100's record does not say its reference design "
               "enables InfiniBand SHARP, so it is not assumed (--algorithm collnet assumes it)")


def test_the_assumption_lines_of_64_h100s_with_and_without_in_network_reduction(bundled):
    # Across nodes without InfiniBand SHARP: the ring inside (RS and AG, 2 x 7/8 x 8 GiB at the maintainer's 370 GB/s) and
    # across (the flat ring of 64 over 8 NICs, 2 x 63/64 x 8 GiB / 8 per NIC at 47 GB/s). NCCL's tuner: the ring's peak
    # 2 x 63/64 x 8 GiB / 400 GB/s = 42.278 ms + 0.819 ms of latency = 43.1 ms; the tree's 2 x 8 GiB / 400 GB/s / 0.92 =
    # 46.684 ms (Hopper's cap beyond 2 nodes, 16 x 36 GB/s, does not bind) + 0.148 ms = 46.8 ms: the ring.
    ring = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=GIB8, accelerators=64)
    inside, across = "reduce-scatter and all-gather inside the domain (8 domains of 8)", "all-reduce of 1/8 across 8 domains (ring)"
    assert ring.assumptions == [
        "algorithm: ring, NCCL's tuner's choice: the least time in its own model (NCCL 2.28 and later, Hopper, Simple protocol): ring 43.1 ms, tree 46.8 ms",
        f"in-network reduction: none in the chosen algorithm ({H100_OFFERS}",
        # One flat ring of 64: 2 x 63 = 126 steps, 2 x 7 = 14 of them across the network.
        ("across domains: the ring's latency steps are one flat ring's of 64, as NCCL counts them: 126, of which 14 cross the network and 112 stay "
         "inside the domains; each domain reaches the network through 8 NICs, one per accelerator"),
        f"efficiency of {inside}: 82% of one direction, measured on this platform: nvidia-hgx-h100.measured_all_reduce_busbw_8gpu_ring",
        (f"latency of {inside}: borrowed from NVIDIA platforms: nvidia-gb200-nvl72.measured_all_reduce_busbw_4gpu_ring_1mib, "
         "nvidia-hgx-a100.measured_all_reduce_busbw_8gpu_ring_1mib"),
        f"efficiency of {across}: 94% of one direction, measured on this platform: nvidia-hgx-h100.measured_all_reduce_busbw_per_nic_16gpu_ring",
        f"latency of {across}: no small-message run: infiniband-ndr.latency",
    ]
    latencies = sum(e.latency_seconds for e in ring.expected)
    assert ring.seconds == pytest.approx(max(2 * 7 / 8 * GIB8 / 370e9, 2 * 63 / 64 * GIB8 / 8 / 47e9) + latencies)
    none = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=GIB8, accelerators=8, in_network=False)
    assert set(none.considered) == {"ring", "tree"} and none.bound.algorithm == "ring"
    assert none.assumptions[1] == (
        "in-network reduction: none: --no-in-network leaves out NVLink SHARP in the scale-up switches (nvidia-hgx-h100.in_network_reduction_domain) "
        "and InfiniBand SHARP in the scale-out switches (infiniband-ndr.streaming_aggregation_trees)")
    sharp = estimate(bundled, "all-reduce", platform="hgx-h100", size_bytes=GIB8, accelerators=8)
    assert sharp.bound.algorithm == "nvls" and sharp.seconds < none.seconds
    assert sharp.assumptions[1] == ("in-network reduction: assumed: NVLink SHARP in the scale-up switches (nvidia-hgx-h100.in_network_reduction_domain); "
                                    "--no-in-network leaves it out")


@pytest.mark.parametrize("platform, operation, gpus, line", [
    # MI300X's xGMI mesh has no switch to reduce in; its InfiniBand switches could, but its record does not say they do.
    ("mi300x-platform", "all-reduce", 8, ("in-network reduction: none: amd-mi300x-platform has no reduction in its switches in the data; "
                                          "infiniband-ndr's switches can reduce (infiniband-ndr.streaming_aggregation_trees), but amd-mi300x-platform's "
                                          "record does not say its reference design enables InfiniBand SHARP, so it is not assumed (--algorithm collnet assumes it)")),
    ("hgx-h100", "all-gather", 8, f"in-network reduction: none: only an all-reduce reduces in the switches here ({H100_OFFERS}"),
])
def test_the_in_network_line_says_why_there_is_none(bundled, platform, operation, gpus, line):
    result = estimate(bundled, operation, platform=platform, size_bytes=GIB8, accelerators=gpus)
    assert result.assumptions[1] == line
    if operation == "all-gather":
        assert result.assumptions[0] == "algorithm: ring, NCCL runs all-gather as a ring"


@pytest.mark.parametrize("operation", ["all-to-all", "point-to-point"])
def test_an_operation_without_a_choice_of_algorithm_says_so(bundled, operation):
    result = estimate(bundled, operation, platform="hgx-h100", size_bytes=GIB8, accelerators=8)
    assert result.assumptions[0] == f"algorithm: ring, {operation} sends to each peer directly: there is no algorithm to choose"


def test_nvls_is_considered_on_gb200_nvl72_with_a_borrowed_efficiency_it_states(bundled):
    # No NVLS run is measured on GB200 NVL72; its record says the NVLink switches reduce, so NVLS is offered, and its
    # efficiency is that of the NVLS run on GB300 NVL72, on the same NVLink 5: 930.60 GB/s busbw of 64 GPUs is
    # 2 x 63/64 x S / t, while the bound sends S at 900 GB/s: 930.60 / (2 x 63/64 x 900) = 52.5 %.
    result = estimate(bundled, "all-reduce", platform="gb200-nvl72", size_bytes=GIB8, accelerators=72)
    assert set(result.considered) == {"ring", "tree", "nvls"}
    nvls = estimate(bundled, "all-reduce", platform="gb200-nvl72", size_bytes=GIB8, accelerators=72, algorithm="nvls")
    assert nvls.expected[0].efficiency == pytest.approx(930.60 / (2 * 63 / 64 * 900))
    assert nvls.assumptions[2] == ("efficiency of all-reduce (nvls): 53% of one direction, borrowed from platforms on nvlink-5: "
                                   "oci-gb300-nvl72-nccl-tests.measured_all_reduce_busbw_64gpu_nvls_16gib")


def test_no_in_network_refuses_an_algorithm_that_needs_it(cli):
    refused = cli("collective", "all-reduce", "--size", "1GB", "--gpus", "64", "--algorithm", "collnet", "--no-in-network", "--platform", "test-system")
    assert refused.exit_code == 2 and "--algorithm collnet reduces in the switches, which --no-in-network leaves out" in refused.stderr
    table = cli("collective", "all-reduce", "--size", "1GB", "--gpus", "64", "--no-in-network", "--platform", "test-system")
    assert table.exit_code == 0 and "in-network reduction: none: test-system has no reduction in its switches in the data" in table.stdout
    # NCCL's tuner on 64 GPUs in 8 domains, 1 GB: the ring 819.28 us + 2 x 63/64 x 1 GB / 400 GB/s = 5.741 ms; the tree
    # 148.4 us + 2 x 1 GB / 400 GB/s / 0.92 = 5.583 ms (no correction at 1 GB): the tree.
    document = json.loads(cli("collective", "all-reduce", "--size", "1GB", "--gpus", "64", "--platform", "test-system", "-f", "json").stdout)
    assert document["assumptions"][0] == ("algorithm: tree, NCCL's tuner's choice: the least time in its own model (NCCL 2.28 and later, "
                                          "no NVIDIA generation: no tree cap, Simple protocol): ring 5.74 ms, tree 5.58 ms")


def test_a_run_where_the_library_chose_checks_the_estimate_and_calibrates_nothing(specs, db):
    # An 8 GiB ring at 360 GB/s busbw calibrates the ring (360 / 450 = 80 %); a run where NCCL chose, at 400 GB/s, is held out:
    # the estimate's own choice (the ring, at 1.75 S / 360 GB/s) over its measured 1.75 S / 400 GB/s is 400 / 360.
    system = specs / "system" / "test-system.yaml"
    chose = RUN.format(busbw="400 GB/s", gpus=8, size="8 GiB", spread="").replace("algorithm: ring", "algorithm: default")
    system.write_text(system.read_text() + "  measured_all_reduce_busbw_8gpu_ring_8gib:\n" + RUN.format(busbw="360 GB/s", gpus=8, size="8 GiB", spread="")
                      + "  measured_all_reduce_busbw_8gpu_default_8gib:\n" + chose)
    connection = open_fresh(db, specs)
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=GIB8, accelerators=8, algorithm="ring")
    assert result.expected[0].efficiency == pytest.approx(0.8)
    assert result.expected[0].efficiency_source == "measured on this platform: test-system.measured_all_reduce_busbw_8gpu_ring_8gib"
    [row] = held_out(connection)
    assert (row["run"], row["algorithm"], row["estimate_over_measured"]) == ("test-system.measured_all_reduce_busbw_8gpu_default_8gib", "ring", round(400 / 360, 3))
    assert [row["run"] for row in leave_one_out(connection)] == ["test-system.measured_all_reduce_busbw_8gpu_ring_8gib"]


def test_leaving_the_platform_out_borrows_from_the_platforms_on_its_link(specs, db):
    # test-system (a ring at 360 GB/s and one at 380) and test-system-b (a ring at 400), all on test-link. Left out alone, the
    # 360 run takes its own platform's other run (380); with its whole platform left out, test-system-b's 400: 360 / 400 = 0.9.
    text = (specs / "system" / "test-system.yaml").read_text()
    (specs / "system" / "test-system.yaml").write_text(text + "  measured_all_reduce_busbw_8gpu_ring_a:\n" + RUN.format(busbw="360 GB/s", gpus=8, size="8 GiB", spread="")
                                                      + "  measured_all_reduce_busbw_8gpu_ring_b:\n" + RUN.format(busbw="380 GB/s", gpus=8, size="8 GiB", spread=""))
    (specs / "system" / "test-system-b.yaml").write_text(
        text.replace("id: test-system\n", "id: test-system-b\n").replace("name: Test System 8-GPU", "name: Test System B")
        + "  measured_all_reduce_busbw_8gpu_ring:\n" + RUN.format(busbw="400 GB/s", gpus=8, size="8 GiB", spread=""))
    connection = open_fresh(db, specs)
    one = {row["run"]: row for row in leave_one_out(connection)}["test-system.measured_all_reduce_busbw_8gpu_ring_a"]
    assert one["estimate_over_measured"] == round(360 / 380, 3) and one["calibrated_on"].startswith("measured on this platform")
    platform = {row["run"]: row for row in leave_platform_out(connection)}["test-system.measured_all_reduce_busbw_8gpu_ring_a"]
    assert platform["estimate_over_measured"] == 0.9
    assert platform["calibrated_on"] == "borrowed from platforms on test-link: test-system-b.measured_all_reduce_busbw_8gpu_ring"


def test_an_nvl72_domain_reaches_the_network_through_16_channels_nics(bundled):
    # 1,440 GB200s, 20 NVL72 domains, 16 GB, ring. NCCL runs 16 channels on NVSwitch systems, each leaving a domain through
    # one NIC, so each NIC carries 1/16 of what a member of the flat ring sends, not 1/72: 2 x 1439/1440 x 16 GB / 16 =
    # 1.99861 GB, at 400 Gb/s = 50 GB/s: 39.97 ms.
    result = estimate(bundled, "all-reduce", platform="gb200-nvl72", size_bytes=SEED_GRADIENTS, accelerators=1440, algorithm="ring")
    inside, across = result.phases
    assert across.name == "all-reduce of 1/16 across 20 domains (ring)"
    assert across.bytes_per_accelerator == pytest.approx(2 * 1439 / 1440 * 16e9 / 16)
    assert across.transfer_seconds == pytest.approx(2 * 1439 / 1440 * 16e9 / 16 / 50e9)
    # One flat ring of 1,440: 2 x 1,439 = 2,878 steps, 2 x 19 = 38 across the network, 2,878 - 38 = 2,840 inside.
    assert (inside.steps, across.steps) == (2840, 38)
    assert ("across domains: the ring's latency steps are one flat ring's of 1440, as NCCL counts them: 2878, of which 38 cross the network and "
            "2840 stay inside the domains; each domain reaches the network through 16 of its 72 NICs (NCCL runs 16 channels on NVSwitch "
            "systems, each leaving a domain through one NIC)") in result.assumptions


def test_the_tree_across_domains_states_its_steps_and_nics(connection):
    # 64 GPUs in 8 domains of 8: a chain of 7 steps each way inside, a double binary tree over 8 domains: 2 x log2 8 = 6.
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64, algorithm="tree")
    inside, across = result.phases
    assert (inside.steps, across.steps) == (14, 6)
    assert "across domains: the tree's latency steps are NCCL's: a chain of 2 x 7 inside each domain and a double binary tree of 6 across 8 domains; " \
           "each domain reaches the network through 8 NICs, one per accelerator" in result.assumptions


def test_inside_one_domain_or_with_switches_reducing_there_is_no_across_domains_line(connection, network):
    inside = estimate(connection, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=8, algorithm="ring")
    collnet = estimate(network, "all-reduce", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64, algorithm="collnet")
    all_to_all = estimate(connection, "all-to-all", platform="test-system", size_bytes=SEED_GRADIENTS, accelerators=64)
    for result in (inside, collnet, all_to_all):
        assert not any(line.startswith("across domains:") for line in result.assumptions)


def test_a_run_on_more_than_256_gpus_checks_the_estimate_at_scale_and_calibrates_nothing(specs, db):
    # A ring over 2 nodes at 360 GB/s busbw: the flat ring of 16 sends 2 x 15/16 x S / 8 through each of a node's 8 NICs,
    # so the network's efficiency is 360 / (8 x 50 GB/s) = 90 %. A ring of 512 GPUs over 64 nodes at 300 GB/s is held out:
    # had it calibrated, the efficiency would be the median of 90 % and 75 %. Its estimate, 2 x 511/512 x S / 8 at
    # 0.9 x 50 GB/s (a busbw of 360 GB/s), over its measured 2 x 511/512 x S / 300 GB/s, is 300 / 360.
    system = specs / "system" / "test-system.yaml"
    system.write_text(system.read_text()
                      + "  measured_all_reduce_busbw_16gpu_ring_2nodes:\n" + RUN.format(busbw="360 GB/s", gpus=16, size="8 GiB", spread=", domains: 2")
                      + "  measured_all_reduce_busbw_512gpu_ring_64nodes:\n" + RUN.format(busbw="300 GB/s", gpus=512, size="8 GiB", spread=", domains: 64"))
    connection = open_fresh(db, specs)
    result = estimate(connection, "all-reduce", platform="test-system", size_bytes=GIB8, accelerators=512, algorithm="ring")
    assert result.expected[1].efficiency == pytest.approx(0.9)
    assert result.expected[1].efficiency_source == "measured on this platform: test-system.measured_all_reduce_busbw_16gpu_ring_2nodes"
    [row] = held_out(connection)
    assert (row["run"], row["algorithm"], row["estimate_over_measured"]) == ("test-system.measured_all_reduce_busbw_512gpu_ring_64nodes", "ring", round(300 / 360, 3))
    assert [row["run"] for row in leave_one_out(connection)] == ["test-system.measured_all_reduce_busbw_16gpu_ring_2nodes"]


def test_the_published_1440_gpu_run_is_held_out_and_checks_the_estimate_at_scale(bundled):
    # CoreWeave's 20 GB200 NVL72 racks, 8 GiB in place at 382.11 GB/s busbw: 2 x 1439/1440 x 8 GiB / 382.11 GB/s = 44.93 ms,
    # with NCCL 2.26.2, whose tuner takes the tree there (test_nccl_2_28_lowered_blackwells_tree_cap_and_with_it_the_choice).
    # The peak bound of the tree: each of a rack's 16 NICs carries 2 x 8 GiB / 16 at 50 GB/s, 21.47 ms (longer than NVLink's
    # 2 x 71/72 x 8 GiB / 900 GB/s = 18.82 ms), plus 2 x 71 steps at 0.6 us inside and 2 x ceil(log2 20) = 10 at 2.7 us
    # across: 21.59 ms, 0.480 of the measured time.
    run = "coreweave-gb200-nvl72-nccl-tests.measured_all_reduce_busbw_1440gpu_20racks_default_8gib"
    rows = {row["run"]: row for row in held_out(bundled)}
    assert (rows[run]["gpus"], rows[run]["domains"], rows[run]["algorithm"]) == (1440, 20, "tree")
    assert rows[run]["bound_over_measured"] == pytest.approx(0.480, abs=0.001)
    assert run not in {row["run"] for row in leave_one_out(bundled)}
