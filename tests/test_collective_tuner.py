"""The automatic choice of algorithm is NCCL's tuner's: the least time in NCCL's own cost model, with the constants of
the NCCL version asked for, and a tree's measured rate is borrowed only within its GPU generation.

Every expected value is NCCL's model written out (src/graph/tuning.cc, Simple protocol, microseconds): the ring
8.4 + (steps inside) x 3.4 + (steps across) x 14, times 1.4 across nodes; the tree 8.4 + 2 x ((GPUs a node - 1) x 4.0
+ floor(log2 nodes) x 14); each plus the peak transfer time, the tree's divided by 0.92 and no faster than half its
channels' cap.
"""

from __future__ import annotations

import pytest

from specdb.collective.estimate import estimate, nccl_library
from specdb.db.access import open_fresh
from specdb.errors import UsageError
from specdb.resources import bundled_specs

GIB8 = 8 * 2**30


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    return open_fresh(tmp_path_factory.mktemp("bundled") / "specdb.sqlite", bundled_specs())


def test_nccl_2_28_lowered_blackwells_tree_cap_and_with_it_the_choice(bundled):
    # 1,440 GB200s in 20 NVL72 racks, 8 GiB, no SHARP; a rack crosses the network through 16 NICs of 50 GB/s.
    # Ring: (8.4 + 2,840 x 3.4 + 38 x 14) x 1.4 = 14,275 us, and 2 x 1439/1440 x 8 GiB / 800 GB/s = 21.460 ms: 35.735 ms.
    # Tree: 8.4 + 2 x (71 x 4.0 + 4 x 14) = 688.4 us, and 2 x 8 GiB / 800 GB/s / 0.92 = 23.342 ms: 24.031 ms; through
    # NCCL 2.27 Blackwell's cap beyond 2 nodes is 72 GB/s a channel (8 GiB / (0.5 x 16 x 72 GB/s) = 14.9 ms, not binding).
    # From NCCL 2.28 it is 24 GB/s: 8 GiB / (0.5 x 16 x 24 GB/s) = 44.739 ms + 688.4 us = 45.428 ms, and the ring wins.
    def run(library):
        return estimate(bundled, "all-reduce", platform="nvidia-gb200-nvl72", size_bytes=GIB8, accelerators=1440, domains=20,
                        in_network=False, library=library)

    before = run("NCCL 2.26.2")
    assert before.bound.algorithm == "tree"
    assert before.tuner_predicted["ring"] == pytest.approx(35.735e-3, rel=1e-4)
    assert before.tuner_predicted["tree"] == pytest.approx(24.031e-3, rel=1e-4)
    assert before.assumptions[0].startswith("algorithm: tree, NCCL's tuner's choice: the least time in its own model (NCCL 2.26, Blackwell, ")
    after = run(None)
    assert after.bound.algorithm == "ring"
    assert after.tuner_predicted["tree"] == pytest.approx(45.428e-3, rel=1e-4)
    assert "(NCCL 2.28 and later, Blackwell, Simple protocol): ring 35.7 ms, tree 45.4 ms" in after.assumptions[0]


def test_at_1984_gpus_nccl_takes_the_tree_for_half_a_gibibyte(bundled):
    # 248 HGX H200 nodes of 8, 512 MiB. Ring: (8.4 + 3,472 x 3.4 + 494 x 14) x 1.4 = 26,221 us + 2 x 1983/1984 x 512 MiB /
    # 400 GB/s = 2.683 ms: 28.90 ms. Tree: 8.4 + 2 x (7 x 4.0 + 7 x 14) = 260.4 us + 2 x 512 MiB / 400 GB/s / 0.92 = 2.918 ms:
    # 3.178 ms (Hopper's cap, 16 x 36 GB/s, allows 1.864 ms; log2(512 MiB / 64) = 23 takes no correction).
    result = estimate(bundled, "all-reduce", platform="nvidia-hgx-h200", size_bytes=2**29, accelerators=1984, domains=248)
    assert result.bound.algorithm == "tree"
    assert result.tuner_predicted["ring"] == pytest.approx(28.904e-3, rel=1e-4)
    assert result.tuner_predicted["tree"] == pytest.approx(3.178e-3, rel=1e-4)


def test_a_tree_borrows_its_rate_only_within_its_gpu_generation(bundled):
    # The measured trees are HGX B200 runs (NVLink 5): a GB200 rack (NVLink 5) borrows them, an H200 node (NVLink 4) takes
    # its ring's rate on the network (the InfiniBand NDR rings, B200's among them) times NCCL's tree factor instead.
    def across(platform, gpus):
        found = estimate(bundled, "all-reduce", platform=platform, size_bytes=GIB8, accelerators=gpus, algorithm="tree")
        return found.expected[1].efficiency_source

    assert across("nvidia-gb200-nvl72", 144).startswith("borrowed from platforms of the same GPU generation (on nvlink-5): together-b200")
    hopper = across("nvidia-hgx-h200", 64)
    assert "_tree_" not in hopper and hopper.endswith("the ring's x 0.92 (NCCL's tree bandwidth factor, src/graph/tuning.cc), no tree run measured")


@pytest.mark.parametrize("text", ["2.26.2", "2.28"])
def test_an_nccl_version_names_the_library(text):
    assert nccl_library(text) == f"NCCL {text}"


@pytest.mark.parametrize("text", ["", "latest", "2", "v2.26.2", "2.26.2.1"])
def test_what_is_not_an_nccl_version_is_a_usage_error(text):
    with pytest.raises(UsageError, match=f"--nccl-version '{text}' is not a version \\(try 2.26.2\\)"):
        nccl_library(text)


def test_the_command_takes_the_nccl_version(cli):
    refused = cli("collective", "all-reduce", "--size", "1GB", "--gpus", "64", "--platform", "test-system", "--nccl-version", "latest")
    assert refused.exit_code == 2 and "--nccl-version 'latest' is not a version" in refused.stderr
    table = cli("collective", "all-reduce", "--size", "1GB", "--gpus", "64", "--platform", "test-system", "--nccl-version", "2.26.2")
    assert table.exit_code == 0 and "NCCL's tuner's choice: the least time in its own model (NCCL 2.26, " in table.stdout
