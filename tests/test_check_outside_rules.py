"""Rules of specdb check for the shapes real pages write figures in: what a page measures, parts the data does not
hold, values the text computes, multipliers that are counts, and version numbers that are not counts.

Each text is written for its test; expected verdicts come from the rules in docs/check.md and the figures in specs/
(PCIe 5.0 x16: 63 GB/s per direction, 128 GB/s both ways; H100 SXM: NVLink 900 GB/s both ways, 3.35 TB/s HBM).
"""

import pytest

import specdb
from conftest import REPO
from specdb.check.verdicts import Database, check_text


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    path = tmp_path_factory.mktemp("check-outside-rules") / "specdb.sqlite"
    return Database(specdb.connect(REPO / "specs", path))


def verdicts(text, database, fmt="text"):
    return {finding.claim: finding for finding in check_text(text, database, path="page", fmt=fmt)}


def test_a_figure_a_tool_reports_is_a_run_not_a_peak(database):
    found = verdicts("On our H100 box each GPU sits on a PCIe 5.0 x16 link, and bandwidthTest shows 51.2 GB/s"
                     " host to device.", database)
    # Not a mismatch against PCIe's 63 GB/s: the H100 record holds no such measurement, so it is unmatched.
    assert found["51.2 GB/s"].verdict == "unmatched"


def test_an_actual_throughput_is_not_judged_against_the_link_it_crosses(database):
    found = verdicts("PCIe 5.0 x16 is rated 128 GB/s bidirectional, so the actual throughput is perhaps 20-30 GB/s.", database)
    assert found["128 GB/s"].verdict == "ok"
    assert found["20-30 GB/s"].verdict == "unmatched"


def test_the_words_of_a_run_in_another_clause_leave_a_rated_figure_rated(database):
    found = verdicts("PCIe 5.0 x16 carries 63 GB/s per direction; in practice we see less.", database)
    assert found["63 GB/s"].verdict == "ok"


@pytest.mark.parametrize("row", ["GeForce RTX 4090", "RTX 4090", "Radeon RX 7900 XTX", "RTX A6000"])
def test_a_graphics_card_in_a_row_label_is_hardware_the_data_does_not_hold(database, row):
    table = f"| GPU | Memory (GB) | Bandwidth |\n| --- | --- | --- |\n| H100 SXM | 80 | 3.35 TB/s |\n| {row} | 24 | 1 TB/s |\n"
    found = check_text(table, database, path="page.md", fmt="markdown")
    by_line = {(finding.line, finding.claim): finding.verdict for finding in found}
    assert by_line[3, "80"] == "ok" and by_line[3, "3.35 TB/s"] == "ok"
    assert by_line[4, "24"] == "unmatched" and by_line[4, "1 TB/s"] == "unmatched"
