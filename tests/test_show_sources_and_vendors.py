"""`show` takes the source ids it prints, and `list` filters by vendor."""

import json

import pytest


def test_show_a_source_id_gives_the_source_and_every_figure_citing_it(cli):
    result = cli("show", "TEST-DATASHEET", "-f", "json")
    assert result.exit_code == 0, result.stderr
    source = json.loads(result.stdout)
    assert (source["id"], source["publisher"], source["url"]) == ("test-datasheet", "Test Vendor", "https://example.com/datasheet")
    cited = {(row["record_id"], row["figure"]) for row in source["cited_by"]}
    # The test data: the GPU's memory bandwidth (with its quote) and the fabric's, link's and PCIe's own figures cite it.
    assert {("test-gpu", "memory_bandwidth"), ("test-fabric", "port_bandwidth"), ("test-link", "per_link_bandwidth"), ("test-pcie", "lanes")} <= cited
    assert {"record_id": "test-gpu", "figure": "memory_bandwidth", "quote": "GPU Memory Bandwidth 3.35TB/s", "locator": None} in source["cited_by"]
    table = cli("show", "test-datasheet").stdout
    assert table.startswith("A datasheet for the tests  (test-datasheet, source)\n")
    assert '    test-gpu.memory_bandwidth "GPU Memory Bandwidth 3.35TB/s"\n' in table


def test_an_id_that_is_neither_record_nor_source_is_still_not_found(cli):
    result = cli("show", "test-datasheets")
    assert result.exit_code == 2 and "no record or alias 'test-datasheets'" in result.stderr


@pytest.mark.parametrize("vendor, expected", [
    ("Test Vendor", ["test-fabric", "test-gpu", "test-link", "test-system"]),
    ("test standards body", ["test-pcie"]),
])
def test_list_filters_by_vendor_in_any_case(cli, vendor, expected):
    result = cli("list", "--vendor", vendor, "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert sorted(row["id"] for row in json.loads(result.stdout)) == expected


def test_a_vendor_the_data_lacks_is_refused_with_the_closest(cli):
    result = cli("list", "--vendor", "Test Vendr")
    assert result.exit_code == 2 and "no record of this vendor; did you mean 'Test Vendor'?" in result.stderr
    assert cli("list", "--kind", "source", "--vendor", "Test Vendor").exit_code == 2
