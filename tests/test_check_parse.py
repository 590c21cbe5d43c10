"""specdb check on pages written as people write them: absurd numbers, spellings, ranges, tables with their headers, and what the data does not hold.

Figures from specs/: the H100 SXM has 3.35 TB/s of HBM and 80 GiB, 900 GB/s of NVLink counted both ways and 1,978
TOPS of dense INT8 (kept as 1,978 TFLOPS); PCIe 5.0 x16 moves 63 GB/s each way (128 GB/s both), PCIe 4.0 has 16
lanes; an InfiniBand NDR port runs at 400 Gb/s each way on four 100 Gb/s lanes.
"""

import subprocess
import sys

import pytest
from conftest import REPO

from specdb.check.claims import extract
from specdb.check.page import read_page
from specdb.check.verdicts import check_text


def verdicts(findings):
    return [(f.claim, f.verdict) for f in findings]


# Numbers no hardware has ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("number", ["0.5 kB/s", "1e-07 GB/s", "10000000000 TB/s", "0 GB/s", "0.000 TB/s", "1e400 GB/s"])
def test_a_number_out_of_every_plausible_range_is_skipped_and_the_page_goes_on(database, number):
    findings = check_text(f"The H100 link runs at {number}. The H100 has 3.35 TB/s of HBM3.\n", database)
    assert verdicts(findings) == [("3.35 TB/s", "ok")]


def test_the_command_reads_a_page_of_absurd_numbers_without_an_internal_error(tmp_path):
    page = tmp_path / "absurd.txt"
    page.write_text("The H100 runs at 0.5 kB/s, 1e-07 GB/s or 10000000000 TB/s; it has 3.35 TB/s of HBM3.\n")
    result = subprocess.run([sys.executable, "-m", "specdb", "check", str(page), "--specs", str(REPO / "specs"),
                             "--db", str(tmp_path / "db.sqlite")], capture_output=True, text=True, cwd=REPO, timeout=120, check=False)
    assert (result.returncode, result.stderr) == (0, "1 claim: 1 ok\n")
    assert result.stdout == f"{page}:1:67: ok: \"3.35 TB/s\" → nvidia-h100-sxm.memory_bandwidth = 3.35 TB/s (total)\n"


def test_scientific_notation_is_a_number_with_its_precision():
    """3.4e3 GB/s is 3.4 TB/s, written to a tenth: half a unit of the last digit is 0.05e3 GB/s."""
    (claim,) = extract(read_page("It moves 3.4e3 GB/s.", "text"))
    assert claim.value == pytest.approx(3.4e12) and claim.half_unit == pytest.approx(0.05e12) and claim.text == "3.4e3 GB/s"


def test_a_zero_does_not_end_the_reading_of_the_claims_after_it():
    claims = extract(read_page("0 GB/s idle, 0 GPUs spare, 0x faster; then 900 GB/s, 8 GPUs and 3x faster.", "text"))
    assert [claim.text for claim in claims] == ["900 GB/s", "8 GPUs", "3x"]


# Spellings ------------------------------------------------------------------------------------------------------

def test_units_that_say_what_they_count_per(database):
    findings = check_text("The H100 has 900 GB/s/GPU of NVLink, or 450 GB/s/dir.\n", database)
    assert [(f.claim, f.verdict, f.basis) for f in findings] == [("900 GB/s/GPU", "ok", "bidirectional"),
                                                                  ("450 GB/s/dir", "ok", "per-direction")]


def test_other_spellings_of_units(database):
    findings = check_text("The H100 has 3.35 TB/sec of HBM3, 1978 TOPS of INT8, 3350 GBps of HBM3 and "
                          "7200 Gbit/s of NVLink both directions.\n", database)
    assert verdicts(findings) == [("3.35 TB/sec", "ok"), ("1978 TOPS", "ok"), ("3350 GBps", "ok"), ("7200 Gbit/s", "ok")]
    assert findings[1].figure == "dense_int8_flops"


def test_a_hyphenated_system_name_and_a_count_in_words(database):
    (finding,) = check_text("Each DGX-H100 holds eight GPUs.\n", database)
    assert (finding.claim, finding.verdict, finding.record_id) == ("eight GPUs", "ok", "nvidia-hgx-h100")


def test_full_duplex_is_the_rate_in_each_direction(database):
    (finding,) = check_text("An InfiniBand NDR port runs at 400 Gb/s full-duplex.\n", database)
    assert (finding.verdict, finding.basis) == ("ok", "per-direction")


# Ranges, counts, ratios, percentages ----------------------------------------------------------------------------

def test_a_range_agrees_when_the_figure_lies_within_it(database):
    findings = check_text("The H100 has 600-900 GB/s of NVLink. The H100 has from 3 to 3.2 TB/s of HBM3.\n", database)
    assert verdicts(findings) == [("600-900 GB/s", "ok"), ("3 to 3.2 TB/s", "mismatch")]


def test_a_range_written_backwards_is_no_claim():
    assert extract(read_page("The H100 has 900-600 GB/s of NVLink.", "text")) == []


def test_counts_are_not_ratios(database):
    """ "9x more GPUs" compares counts, which no figure holds; "24× 200GbE ports" counts ports."""
    claims = extract(read_page("The cluster has 9x more GPUs and four times as many ports, with 24× 200GbE ports.", "text"))
    assert [(claim.text, claim.kind, claim.noun) for claim in claims] == [("24× 200GbE ports", "quantity", "ports")]


def test_a_percentage_is_judged_only_when_it_says_what_it_is_a_share_of(database):
    assert check_text("With PCIe Gen5 on the H100 you save up to 60% on cloud costs.\n", database) == []
    (finding,) = check_text("PCIe 5.0 encoding efficiency is 98.5%.\n", database)
    assert finding.figure == "encoding_efficiency"


# What the data does not hold --------------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence, kind", [
    ("The H100 has 50 MB of L2 cache.", "a cache"),
    ("The H100 reaches 12 TB/s of L2 cache bandwidth.", "a cache"),
    ("The H100 reaches 3.0 TB/s of effective HBM bandwidth.", "an effective"),
    ("The H100's HBM3 runs at 5.23 Gbps per pin.", "a memory pin rate"),
    ("An NVLink 4 hop on the H100 takes 100 ns.", "a hardware latency"),
])
def test_a_kind_of_figure_no_record_holds_is_unmatched_saying_what(database, sentence, kind):
    (finding,) = check_text(sentence + "\n", database)
    assert finding.verdict == "unmatched" and kind in finding.note and finding.figure is None


def test_message_sizes_are_not_hardware_figures(database):
    assert check_text("On the H100, a 17 MB message takes longer than a 256 kB message.\n", database) == []


@pytest.mark.parametrize("sentence, name", [
    ("The H100 NVL has 94 GB of HBM3 at 3.9 TB/s.", "H100 NVL"),
    ("The A100 40GB has 1.6 TB/s of HBM2.", None),
])
def test_a_variant_the_data_does_not_hold_is_never_judged_against_a_neighbour(database, sentence, name):
    findings = check_text(sentence + "\n", database)
    for finding in findings:
        assert finding.record_id != "nvidia-h100-sxm" and finding.record_id != "nvidia-a100-sxm-80gb"
    if name:
        assert {f.verdict for f in findings} == {"unmatched"} and all(name in f.note for f in findings)


def test_a_value_far_from_every_reading_of_the_figure_is_another_quantity(database):
    """1,440 GB is eight H100s' worth, not a wrong HBM capacity of one: 18 times 80 GiB."""
    (finding,) = check_text("The H100 has 1,440 GB of HBM3.\n", database)
    assert finding.verdict == "unmatched" and "another quantity" in finding.note


def test_a_wrong_counting_word_is_a_mismatch_however_far(database):
    """128 GB/s counted per direction is twice PCIe 5.0 x16's 63 GB/s: the counting trap, not another quantity."""
    (finding,) = check_text("PCIe 5.0 x16 moves 128 GB/s per direction.\n", database)
    assert finding.verdict == "mismatch"


# Tables -----------------------------------------------------------------------------------------------------------

MARKDOWN_TABLE = """# H100 figures

| Part | HBM (TB/s) | Memory (GB) | NVLink (per direction) |
|---|---:|---:|---|
| H100 SXM | 3.35 | ? | 450 GB/s |
| H100 SXM | 3.4e12 B/s | 80 | 900 GB/s |
"""


def test_a_markdown_table_cell_takes_its_unit_and_quantity_from_the_header_and_its_part_from_the_row(database):
    findings = check_text(MARKDOWN_TABLE, database, fmt="markdown")
    assert [(f.line, f.column, f.claim, f.verdict) for f in findings] == [
        (5, 14, "3.35", "ok"), (5, 25, "450 GB/s", "ok"),  # the "?" cell leaves the row's other cells
        (6, 14, "3.4e12 B/s", "ok"), (6, 27, "80", "ok"), (6, 32, "900 GB/s", "mismatch")]
    assert findings[0].figure == "memory_bandwidth" and findings[3].figure == "memory_capacity"
    assert findings[4].basis == "per-direction"  # the header's counting: 900 GB/s each way is twice the H100's


def test_a_table_in_a_fenced_code_block_is_not_read(database):
    page = "Example:\n\n```\n| Part | HBM (TB/s) |\n|---|---|\n| H100 | 9 |\n```\n"
    assert check_text(page, database, fmt="markdown") == []


HTML_TABLE = """<html><body>
<table><caption>H100 SXM memory</caption>
<tr><th>Part</th><th>HBM (TB/s)</th><th>Memory (GB)</th></tr>
<tr><td>H100</td><td>3.35</td><td>80</td></tr>
<tr><td>H100</td><td>?</td>
    <td>94</td></tr>
</table></body></html>
"""


def test_an_html_table_cell_is_read_with_its_header_and_row_label_at_its_own_line_and_column(database):
    findings = check_text(HTML_TABLE, database, fmt="html")
    assert [(f.line, f.column, f.claim, f.verdict, f.figure) for f in findings] == [
        (4, 22, "3.35", "ok", "memory_bandwidth"), (4, 35, "80", "ok", "memory_capacity"),
        (6, 9, "94", "mismatch", "memory_capacity")]


def test_a_pipe_table_in_plain_text_is_read_as_a_table(database):
    page = "Figures:\n| Metric | H100 | A100 |\n|---|---|---|\n| Memory bandwidth | 3.35 TB/s | 9 TB/s |\n"
    findings = check_text(page, database, fmt="text")
    assert [(f.claim, f.verdict) for f in findings] == [("3.35 TB/s", "ok"), ("9 TB/s", "unmatched")]
    assert findings[0].record_id == "nvidia-h100-sxm" and "another quantity" in findings[1].note  # 4.4 times any A100's


def test_two_figures_in_one_cell_are_kept_apart(database):
    page = "| Part | HBM |\n|---|---|\n| H100 | 80 GB / 3.35 TB/s |\n"
    findings = check_text(page, database, fmt="markdown")
    assert verdicts(findings) == [("80 GB", "ok"), ("3.35 TB/s", "ok")]
    assert [f.figure for f in findings] == ["memory_capacity", "memory_bandwidth"]


def test_a_table_header_of_counts_makes_its_numbers_counts(database):
    page = "| Interconnect | Lanes | Per lane (GB/s) |\n|---|---|---|\n| PCIe 4.0 | 16 | 2.0 |\n"
    findings = check_text(page, database, fmt="markdown")
    assert (findings[0].claim, findings[0].verdict) == ("16", "ok")
    assert findings[0].record_id == "pcie-4"
    # a lane's bandwidth is not the x16 link's: PCIe 4.0 holds a lane's transfer rate, not its GB/s
    assert all(f.figure is None or "x16" not in f.figure for f in findings[1:])


@pytest.mark.parametrize("sentence, name", [
    ("PCIe 8.0 x16 moves 512 GB/s.", "PCIe 8.0"),
    ("NVLink 7 gives each GPU 7.2 TB/s.", "NVLink 7"),
    ("The TPU v3 has 32 GB of HBM.", "TPU v3"),
])
def test_a_version_no_record_has_names_hardware_the_data_does_not_hold(database, sentence, name):
    (finding,) = check_text(sentence + "\n", database)
    assert (finding.verdict, finding.record_id, finding.note) == ("unmatched", None, f"names {name}, which the database does not hold")


@pytest.mark.parametrize("sentence", [
    "PCIe links the host, NVLink links the GPUs, and its fifth-generation links give 1.8 TB/s per GPU.",
    "Its fifth-generation links give 1.8 TB/s per GPU: NVLink links the GPUs, and later PCIe links the host.",
])
def test_a_generation_belongs_to_the_family_named_nearest(database, sentence):
    (finding,) = check_text(sentence + "\n", database)
    assert (finding.verdict, finding.record_id) == ("ok", "nvlink-5")
