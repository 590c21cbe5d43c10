"""compare: records of one kind side by side, each figure in its display unit, bandwidths on one basis, ratios to the first.

One database of the test data and a second PCIe link (twice the lane rate) and a second GPU (scale-up quoted one way),
built once for the module. Expected values are worked out in the comments from the spec files.
"""

import shutil

import pytest

from conftest import TEST_SPECS
from specdb.analysis.compare import compare, flatten
from specdb.errors import NotFound, UsageError
from specdb.db.access import open_fresh


@pytest.fixture(scope="module")
def connection(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compare")
    specs = folder / "specs"
    shutil.copytree(TEST_SPECS, specs)
    pcie = (specs / "link" / "test-pcie.yaml").read_text()
    (specs / "link" / "test-pcie-6.yaml").write_text(
        pcie.replace("id: test-pcie", "id: test-pcie-6").replace("value: 32 GT/s", "value: 64 GT/s")
        .replace("value: 63 GB/s", "value: 126 GB/s").replace("value: 128 GB/s", "value: 256 GB/s")
    )
    gpu = (specs / "accelerator" / "test-gpu.yaml").read_text()
    (specs / "accelerator" / "test-gpu-2.yaml").write_text(
        gpu.replace("id: test-gpu", "id: test-gpu-2").replace("aliases: [TEST GPU 80GB HBM3, Test GPU SXM]", "aliases: []")
        .replace("value: 900 GB/s\n    direction: bidirectional", "value: 450 GB/s\n    direction: per-direction")
    )
    return open_fresh(folder / "specdb.sqlite", specs)


def _by_figure(rows):
    return {row["figure"]: row for row in rows}


def test_each_figure_in_its_display_unit_with_ratios_to_the_first(connection):
    rows = compare(connection, ["test-pcie", "test-pcie-6"])
    assert [row["figure"] for row in rows] == ["encoding_efficiency", "lane_rate", "lanes", "x16_bidirectional_bandwidth", "x16_per_direction_bandwidth"]
    shown = _by_figure(rows)
    # 98.4615 % is stored as 0.984615 and shown in %; 32 and 64 GT/s; 16 lanes, a count without a unit.
    assert shown["encoding_efficiency"] == {
        "figure": "encoding_efficiency", "unit": "%", "counted": None,
        "values": {"test-pcie": 98.4615, "test-pcie-6": 98.4615}, "ratio_to_first": {"test-pcie-6": 1},
    }
    assert (shown["lane_rate"]["unit"], shown["lane_rate"]["values"], shown["lane_rate"]["ratio_to_first"]) == ("GT/s", {"test-pcie": 32, "test-pcie-6": 64}, {"test-pcie-6": 2})
    assert (shown["lanes"]["unit"], shown["lanes"]["values"]) == ("", {"test-pcie": 16, "test-pcie-6": 16})
    # Per direction: 128 and 256 GB/s both ways are 64 and 128 each way.
    both_ways = shown["x16_bidirectional_bandwidth"]
    assert (both_ways["unit"], both_ways["counted"], both_ways["values"]) == ("GB/s", "per-direction", {"test-pcie": 64, "test-pcie-6": 128})
    assert shown["x16_per_direction_bandwidth"]["values"] == {"test-pcie": 63, "test-pcie-6": 126}


def test_as_quoted_keeps_the_vendors_figures_and_says_how_each_is_counted(connection):
    shown = _by_figure(compare(connection, ["test-pcie", "test-pcie-6"], "as-quoted"))
    both_ways = shown["x16_bidirectional_bandwidth"]
    assert (both_ways["counted"], both_ways["values"], both_ways["ratio_to_first"]) == ("bidirectional", {"test-pcie": 128, "test-pcie-6": 256}, {"test-pcie-6": 2})


def test_two_records_counting_one_figure_differently_are_marked_mixed_as_quoted_only(connection):
    # test-gpu quotes 900 GB/s both ways, test-gpu-2 450 GB/s one way: the same link, so 1 per direction, 0.5 as quoted.
    one_way = _by_figure(compare(connection, ["test-gpu", "test-gpu-2"]))["scale_up_bandwidth"]
    assert (one_way["counted"], one_way["values"], one_way["ratio_to_first"]) == ("per-direction", {"test-gpu": 450, "test-gpu-2": 450}, {"test-gpu-2": 1})
    quoted = _by_figure(compare(connection, ["test-gpu", "test-gpu-2"], "as-quoted"))["scale_up_bandwidth"]
    assert (quoted["counted"], quoted["values"], quoted["ratio_to_first"]) == ("bidirectional/per-direction (mixed)", {"test-gpu": 900, "test-gpu-2": 450}, {"test-gpu-2": 0.5})


def test_sizes_and_compute_in_gb_and_tflops_and_records_named_by_alias(connection):
    shown = _by_figure(compare(connection, ["Test GPU SXM", "test-gpu-2"]))
    # 80 GiB = 80 x 2**30 B = 85.8993 GB
    assert (shown["memory_capacity"]["unit"], shown["memory_capacity"]["values"]["test-gpu"]) == ("GB", 85.8993)
    assert (shown["dense_bf16_flops"]["unit"], shown["dense_bf16_flops"]["values"]["test-gpu"], shown["dense_bf16_flops"]["counted"]) == ("TFLOP/s", 989, None)


def test_three_records_give_two_ratios_each_to_the_first(connection):
    shown = _by_figure(compare(connection, ["test-pcie-6", "test-pcie", "test-link"]))
    # 32 / 64 GT/s = 0.5; test-link has no lane rate.
    assert shown["lane_rate"]["ratio_to_first"] == {"test-pcie": 0.5, "test-link": None}
    assert shown["lane_rate"]["values"] == {"test-pcie-6": 64, "test-pcie": 32, "test-link": None}


def test_flatten_gives_one_column_per_record_and_per_ratio(connection):
    [flat] = [row for row in flatten(compare(connection, ["test-pcie", "test-pcie-6", "test-link"])) if row["figure"] == "lane_rate"]
    assert flat == {"figure": "lane_rate", "unit": "GT/s", "counted": None, "test-pcie": 32, "test-pcie-6": 64, "test-link": None,
                    "test-pcie-6 / test-pcie": 2, "test-link / test-pcie": None}


@pytest.mark.parametrize("names, basis, message", [
    (["test-gpu"], "per-direction", "compare needs two or more records"),
    ([], "per-direction", "compare needs two or more records"),
    (["test-gpu", "test-gpu-2"], "both-ways", "basis must be one of per-direction, as-quoted"),
    (["test-gpu", "test-pcie", "test-fabric"], "per-direction", "compare records of one kind; got test-gpu (accelerator), test-pcie (link), test-fabric (fabric)"),
])
def test_refusals_are_usage_errors_that_say_why(connection, names, basis, message):
    with pytest.raises(UsageError) as raised:
        compare(connection, names, basis)
    assert str(raised.value) == message


def test_an_unknown_record_is_not_found(connection):
    with pytest.raises(NotFound):
        compare(connection, ["test-gpu", "test-gpu-9"])
