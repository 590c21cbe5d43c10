"""What check.claims reads off a page, claim by claim: values, precision, ranges, counts, ratios, derived times, table cells and the counting words around each.

Expected values are worked by hand: a number's half unit is half of its last significant digit ("400" -> 50,
"5e3" -> 500), in the unit's SI value (GB/s x 1e9).
"""

import pytest
from conftest import verdicts

from specdb.check.claims import extract
from specdb.check.page import read_page


def claims(text, fmt="text"):
    return extract(read_page(text, fmt))


def only(text, fmt="text"):
    (claim,) = claims(text, fmt)
    return claim


@pytest.mark.parametrize("written, value, half", [
    ("16,000 GB/s", 16_000e9, 500e9), ("3.35 TB/s", 3.35e12, 0.005e12), ("400 GB/s", 400e9, 50e9),
    ("5e3 GB/s", 5e12, 0.5e12), ("0.5 GB/s", 0.5e9, 0.05e9),
])
def test_a_quantity_and_half_a_unit_of_its_last_digit(written, value, half):
    claim = only(f"It moves {written}.")
    assert (claim.kind, claim.dimension, claim.text) == ("quantity", "bandwidth", written)
    assert claim.value == pytest.approx(value) and claim.half_unit == pytest.approx(half)


@pytest.mark.parametrize("written", ["0 GB/s", "0-900 GB/s", "900-900 GB/s", "1e400 GB/s"])
def test_no_claim_from_a_zero_an_empty_range_or_an_infinite_number(written):
    assert claims(f"It moves {written}.") == []


def test_a_range_keeps_both_ends():
    claim = only("It moves 1-900 GB/s.")
    assert (claim.text, claim.low, claim.value) == ("1-900 GB/s", pytest.approx(1e9), pytest.approx(900e9))
    assert only("It moves from 600 to 900 GB/s.").low == pytest.approx(600e9)


def test_a_unit_per_gpu_is_a_scope_and_per_direction_a_basis():
    gpu, direction = claims("NVLink gives 900 GB/s/GPU, that is 450 GB/s/dir.")
    assert (gpu.scope, gpu.basis) == ("per-accelerator", None)
    assert (direction.scope, direction.basis) == (None, "per-direction")


def test_counts_in_digits_words_and_thousands():
    eight, one, thousands = claims("It has eight GPUs. It has 1 GPU. It has 16K GPUs.")
    assert (eight.value, eight.half_unit, eight.unit, eight.dimension, eight.noun) == (8, 0.5, "", "count", "accelerators")
    assert one.value == 1 and one.half_unit == 0.5
    assert thousands.value == 16_000 and thousands.half_unit == 500


def test_a_count_overlapping_a_quantity_is_not_read_and_the_counts_after_it_are():
    assert [claim.text for claim in claims("The 8 GB GPUs and 4 GPUs.")] == ["8 GB", "4 GPUs"]


def test_ratios_in_words_signs_and_folds():
    text = "It is two times faster, 1x faster, 3.7x wider and a 5-fold gap."
    two, one, sign, fold = claims(text)
    assert (two.text, two.value, two.half_unit, two.end) == ("two times", 2, 0.5, text.index("two times") + len("two times"))
    assert (one.value, one.kind, one.dimension, one.unit) == (1, "ratio", "ratio", "x")
    assert (sign.text, sign.value, sign.half_unit) == ("3.7x", 3.7, 0.05)
    assert (fold.text, fold.end) == ("5-fold", text.index("5-fold") + len("5-fold"))


def test_a_time_derived_from_a_size_and_a_bandwidth():
    text = "8 GB and 900 GB/s then 36 ms; 32 GB ÷ 900 GB/s ≈ 36 ms"
    found = claims(text)
    assert [(claim.text, claim.kind, claim.dimension) for claim in found] == [
        ("8 GB", "quantity", "size"), ("900 GB/s", "quantity", "bandwidth"), ("36 ms", "quantity", "time"),
        ("900 GB/s", "quantity", "bandwidth"), ("36 ms", "time", "time")]
    assert found[4].derived_size == pytest.approx(32e9) and found[4].derived_bandwidth == 3


def test_a_size_and_a_bandwidth_without_a_division_derive_nothing():
    assert [claim.kind for claim in claims("32 GB and 900 GB/s ≈ 36 ms")] == ["quantity", "quantity", "quantity"]


# The counting words around a claim ----------------------------------------------------------------------------

@pytest.mark.parametrize("text, bases", [
    ("bidirectional 9 GB/s", ["bidirectional"]),  # from the page's first character
    ("bidirectional 900 GB/s and 450 GB/s", ["bidirectional", None]),
    ("bidirectional links which the vendor rates at 900 GB/s", [None]),  # more than 30 characters before
    ("both directions; 900 GB/s", [None]),  # another clause
    ("9 GB/s; bidirectional", [None]),
    ("9 GB/s over links which the vendor documents in bidirectional terms", [None]),  # more than 40 after
    ("9 GB/s and 18 GB/s bidirectional", [None, "bidirectional"]),  # the next claim's words
    ("9 GB/s 18 GB/s bidirectional, and", [None, "bidirectional"]),
    ("9 GB/s and bidirectional 18 GB/s", [None, "bidirectional"]),
    ("10 GB/s and 20 GB/s both directions 30 GB/s", [None, "bidirectional", None]),
    ("450 GB/s per direction", ["per-direction"]),
])
def test_the_counting_a_claim_is_read_with(text, bases):
    assert [claim.basis for claim in claims(text)] == bases


def test_the_scope_a_claim_is_read_with():
    assert only("It gives 900 GB/s per GPU.").scope == "per-accelerator"


# Table cells ----------------------------------------------------------------------------------------------------

TABLE = """| Part | HBM (TB/s) | Links | MFU (%) |
|---|---|---|---|
| H100 | 0.5 | 1 | 41 |
| H100 | 0 | 18 | 40 |
| A100 | 2 | 12 | 39 |
| B200 | 3.35 TB/s or 3.4 | 18 | 38 |
"""


def test_bare_numbers_in_cells_take_the_unit_or_the_count_of_their_column():
    found = [(claim.text, claim.unit, claim.dimension, claim.value, claim.half_unit) for claim in claims(TABLE, "markdown")]
    assert found == [
        ("0.5", "TB/s", "bandwidth", pytest.approx(0.5e12), pytest.approx(0.05e12)), ("1", "", "count", 1, 0.5),
        ("18", "", "count", 18, 0.5),  # the 0 beside it is no claim, and the row goes on
        ("2", "TB/s", "bandwidth", pytest.approx(2e12), pytest.approx(0.5e12)), ("12", "", "count", 12, 0.5),
        ("3.35 TB/s", "TB/s", "bandwidth", pytest.approx(3.35e12), pytest.approx(0.005e12)),
        ("3.4", "TB/s", "bandwidth", pytest.approx(3.4e12), pytest.approx(0.05e12)), ("18", "", "count", 18, 0.5)]
    assert {claim.noun for claim in claims(TABLE, "markdown") if claim.dimension == "count"} == {"links"}


def test_an_empty_header_gives_its_column_nothing():
    assert [claim.text for claim in claims("|  | GPUs |\n|---|---|\n| 7 | 8 |\n", "markdown")] == ["8"]


def test_a_cell_inherits_the_counting_and_scope_its_own_words_leave_unsaid():
    scope = only("| Part | NVLink per GPU |\n|---|---|\n| H100 | 450 GB/s each way |\n", "markdown")
    assert (scope.basis, scope.scope) == ("per-direction", "per-accelerator")
    basis = only("| Part | NVLink (bidirectional) |\n|---|---|\n| H100 | 900 GB/s per GPU |\n", "markdown")
    assert (basis.basis, basis.scope) == ("bidirectional", "per-accelerator")


@pytest.mark.parametrize("words, counting", [
    ("900 GB/s bidireccional", "bidirectional"), ("900 GB/s bidirectionnelle", "bidirectional"),
    ("900 GB/s bidirektional", "bidirectional"), ("900 GB/s obousměrně", "bidirectional"), ("900 GB/s 雙向", "bidirectional"),
    ("900 GB/s 양방향", "bidirectional"), ("450 GB/s unidireccional", "per-direction"), ("450 GB/s pro Richtung", "per-direction"),
    ("450 GB/s par direction", "per-direction"), ("450 GB/s jednosměrně", "per-direction"), ("450 GB/s 片方向", "per-direction"),
    ("450 GB/s 單向", "per-direction"), ("450 GB/s 단방향", "per-direction"),
])
def test_counting_words_of_other_languages_say_how_a_figure_counts(database, words, counting):
    found = verdicts(f"H100 NVLink 4: {words}.", database)
    claim = words.split(" GB/s")[0] + " GB/s"
    assert (found[claim].verdict, found[claim].basis) == ("ok", counting)
