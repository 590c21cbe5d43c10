"""check.verdicts, from its mutation survivors: what a finding says (its expected value, basis and note) for times
derived from a bandwidth, values a figure was changed to, kinds of figure a named part lacks, and ratios to a part that
holds no figure of the kind named.

Figures from specs/: the H100 SXM has 80 GiB of HBM and 900 GB/s of NVLink 4 counted both ways (450 GB/s each way);
the H200 SXM 141 GiB; the A100 (Ampere) has no FP8 tensor cores, so its record holds no FP8 figure; InfiniBand NDR is
a fabric, with no memory.
"""

import pytest
from conftest import REPO

import specdb
from specdb.check.verdicts import Database, check_text


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    path = tmp_path_factory.mktemp("checkmutation") / "specdb.sqlite"
    specdb.connect(REPO / "specs", path).close()
    return path


@pytest.fixture
def database(built):  # read for each test, so that each test is one the reading of the figures is run for
    return Database(specdb.connect(REPO / "specs", built))


def by_claim(text, database):
    return {finding.claim: finding for finding in check_text(text, database)}


# What a finding says --------------------------------------------------------------------------------------------

def test_an_ok_finding_gives_the_figure_as_stored(database):
    (finding,) = check_text("The H100 has 3.35 TB/s of HBM3.", database)
    assert (finding.verdict, finding.record_id, finding.figure, finding.expected, finding.basis) == (
        "ok", "nvidia-h100-sxm", "memory_bandwidth", "3.35 TB/s", "total")


def test_an_alternative_value_is_named_as_one(database):
    """The B200's memory bandwidth is 7.7 TB/s; NVIDIA's 8 TB/s is recorded as an alternative value."""
    (finding,) = check_text("NVIDIA's B200 moves 8 TB/s of HBM bandwidth.", database)
    assert (finding.verdict, finding.suggestion) == ("mismatch", "7.7 TB/s")
    assert finding.note.startswith("8 TB/s is an alternative value, not the canonical one: ")


def test_a_finding_without_a_figure_or_a_suggestion_is_written_with_its_note_alone(database):
    (finding,) = check_text("The A100 SXM 80GB delivers 2,000 TFLOPS of FP8.", database, path="page.txt")
    assert str(finding) == 'page.txt:1:28: unmatched: "2,000 TFLOPS" [the database holds no fp8 compute figure for nvidia-a100-sxm-80gb]'


# Times derived from a bandwidth -------------------------------------------------------------------------------------

def test_a_time_from_a_two_way_figure_is_mixed_basis_with_the_time_as_written_expected(database):
    """32 GB ÷ 900 GB/s = 35.6 ms, as the text divides; one way, 32 GB ÷ 450 GB/s = 71.1 ms."""
    found = by_claim("On the H100, NVLink moves 900 GB/s; an all-reduce of 32 GB ÷ 900 GB/s ≈ 36 ms.", database)
    time = found["36 ms"]
    assert (time.verdict, time.expected, time.basis) == ("mixed-basis", "35.6 ms", "bidirectional")
    assert time.note == "900 GB/s counts both directions, and each byte crosses one way"
    assert time.suggestion == "71.1 ms (32 GB ÷ 450 GB/s per direction)"


def test_a_time_that_agrees_with_neither_count_is_a_mismatch_against_the_one_way_time(database):
    """50 ms is neither 35.6 ms (32 GB ÷ 900 GB/s) nor 71.1 ms (32 GB ÷ 450 GB/s)."""
    time = by_claim("On the H100, NVLink moves 900 GB/s; an all-reduce of 32 GB ÷ 900 GB/s ≈ 50 ms.", database)["50 ms"]
    assert (time.verdict, time.expected, time.basis) == ("mismatch", "71.1 ms", "per-direction")
    assert (time.figure, time.suggestion) == ("(32 GB ÷ nvidia-h100-sxm.scale_up_bandwidth)", "71.1 ms (32 GB ÷ 450 GB/s per direction)")


# Values a figure was changed to -------------------------------------------------------------------------------------

@pytest.mark.parametrize("page", [
    # The old part named most: the new value is still another part's.
    "The H100 is fast. The H100 is big. The H100 is new.\n\nA refresh of the H100, lifting memory from 80 GB to 141 GB.\n\nSee the H200.",
    # Of the other parts, the one named most: the H200 three times, the B200 once.
    "The H200 is out, the H200 sells, the H200 ships. The B200 too.\n\nA refresh of the H100, lifting memory from 80 GB to 141 GB.",
])
def test_the_value_a_figure_was_changed_to_is_of_the_other_part_named_most(database, page):
    found = by_claim(page, database)
    assert (found["80 GB"].verdict, found["80 GB"].record_id) == ("ok", "nvidia-h100-sxm")
    assert (found["141 GB"].verdict, found["141 GB"].record_id) == ("ok", "nvidia-h200-sxm")


def test_a_changed_value_no_named_part_holds_says_whose_figure_it_replaced(database):
    finding = by_claim("A refresh of the H100, lifting memory from 80 GB to 100 GB.", database)["100 GB"]
    assert (finding.verdict, finding.record_id, finding.figure) == ("unmatched", "nvidia-h100-sxm", "memory_capacity")
    assert finding.note == "the value nvidia-h100-sxm.memory_capacity was changed to, of a part the text does not name"


# Kinds of figure a named part lacks ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, note", [
    ("The A100 SXM 80GB delivers 2,000 TFLOPS of FP8.", "the database holds no fp8 compute figure for nvidia-a100-sxm-80gb"),
    ("The Gaudi 3 delivers 3,000 TFLOPS of sparse FP8 compute.", "the database holds no sparse fp8 compute figure for intel-gaudi-3"),
])
def test_a_named_part_without_the_kind_of_figure_is_unmatched_naming_the_kind(database, text, note):
    (finding,) = check_text(text, database)
    assert (finding.verdict, finding.record_id, finding.note) == ("unmatched", None, note)


# Ratios to a named part's figure ------------------------------------------------------------------------------------

def test_a_ratio_to_a_part_that_holds_no_figure_of_the_kind_named_is_not_judged(database):
    assert check_text("The B200 has 2× the memory of InfiniBand NDR.", database) == []


def test_a_changed_value_is_of_the_old_parts_family_before_a_part_named_more_often(database):
    """The MI300X (192 GiB) and MI325X (256 GiB) are both CDNA 3; the H200, named twice, holds 141 GiB."""
    page = ("CDNA 3 parts: the MI300X and the MI325X. The H200 is out, the H200 sells.\n\n"
            "A refresh of the MI300X, lifting memory from 192 GB to 256 GB.")
    found = by_claim(page, database)
    assert (found["192 GB"].verdict, found["192 GB"].record_id) == ("ok", "amd-mi300x")
    assert (found["256 GB"].verdict, found["256 GB"].record_id) == ("ok", "amd-mi325x")
