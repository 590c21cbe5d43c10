"""check.claims, from its mutation survivors: every spelling of a unit, every count noun, ranges of ratios, derivations
after one another, and the labels and words that say how a figure is counted.

Expected values are worked by hand: half a unit of the last digit written, in the unit's SI value ("32 GB/s" ->
0.5e9 B/s, "3.4E3 GB/s" -> 0.05e3 GB/s); a bit is an eighth of a byte.
"""

import pytest

from specdb.check.claims import _spellings, extract
from specdb.check.page import read_page


def claims(text, fmt="text"):
    return extract(read_page(text, fmt))


def read(text, fmt="text"):
    return [(claim.text, claim.value, claim.half_unit) for claim in claims(text, fmt)]


# The unit table -----------------------------------------------------------------------------------------------------
# UNIT_SPELLINGS is built once, when the module is imported; the table is built again here so that every entry is seen.

SI = ("", "k", "M", "G", "T", "P")
BYTE_RATES = ("B/s", "B/sec", "Bps")
BIT_RATES = ("b/s", "bps", "bit/s", "b/sec", "bits/s", "bit/sec", "bits/sec")
FLOPS_WORDS = {"G": "giga", "T": "tera", "P": "peta", "E": "exa"}
OTHER_UNITS = {
    "GT/s": "GT/s", "MT/s": "MT/s", "GHz": "GHz", "MHz": "MHz", "W": "W", "kW": "kW", "MW": "MW", "watts": "W",
    "ms": "ms", "µs": "us", "μs": "us", "us": "us", "ns": "ns", "milliseconds": "ms", "microseconds": "us",
    "nanoseconds": "ns", "seconds": "s", "%": "%", "percent": "%", "per cent": "%",
    "megabytes per second": "MB/s", "gigabytes per second": "GB/s", "terabytes per second": "TB/s", "petabytes per second": "PB/s",
    "megabits per second": "Mb/s", "gigabits per second": "Gb/s", "terabits per second": "Tb/s", "petabits per second": "Pb/s",
    "megabytes": "MB", "gigabytes": "GB", "terabytes": "TB", "petabytes": "PB",
}


def expected_spellings():
    table = dict(OTHER_UNITS)
    for prefix in SI:
        table |= {f"{prefix}{rate}": f"{prefix}B/s" for rate in BYTE_RATES}
        table |= {f"{prefix}{rate}": f"{prefix}b/s" for rate in BIT_RATES}
    table |= {f"{prefix}B": f"{prefix}B" for prefix in ("k", "M", "G", "T", "P")}
    table |= {f"{prefix}{unit}": f"{prefix}{unit}" for prefix in ("Ki", "Mi", "Gi", "Ti", "Pi") for unit in ("B", "B/s")}
    for prefix, word in FLOPS_WORDS.items():
        spellings = (f"{prefix}FLOPS", f"{prefix}FLOPs", f"{prefix}FLOP/s", f"{word}FLOPS", f"{word}flops", f"{word}FLOP/s", f"{prefix}OPS")
        table |= {spelling: f"{prefix}FLOPS" for spelling in spellings}
    return table


def test_every_spelling_prose_uses_is_read_as_the_unit_it_means():
    table = _spellings()
    assert {spelling: table.get(spelling) for spelling in expected_spellings()} == expected_spellings()


def test_the_unit_table_holds_no_exa_rate_or_size_and_no_bare_byte():
    """Prose writes bandwidths and sizes up to peta ("EB/s" is no hardware's), and "405B" is a model's size, not 405 bytes."""
    table = _spellings()
    assert not {"EB/s", "Eb/s", "EB", "B", "Eb/sec", "exabytes per second"} & table.keys()
    assert claims("Llama 3 405B was trained in 2024.") == []


# Numbers ------------------------------------------------------------------------------------------------------------

def test_an_exponent_in_capitals_is_an_exponent():
    assert read("It moves 3.4E3 GB/s.") == [("3.4E3 GB/s", pytest.approx(3.4e12), pytest.approx(0.05e12))]


def test_half_a_unit_of_a_number_with_no_trailing_zero():
    """ "32 GB/s" is written to the gigabyte: half a unit is 0.5 GB/s; "450" to the ten: 5 GB/s is not it, 50 is."""
    assert read("It moves 32 GB/s and 450 GB/s.") == [("32 GB/s", pytest.approx(32e9), pytest.approx(0.5e9)),
                                                     ("450 GB/s", pytest.approx(450e9), pytest.approx(5e9))]


def test_a_figure_in_bits_is_an_eighth_of_it_in_bytes():
    assert read("A port runs at 400 Gbps.") == [("400 Gbps", pytest.approx(50e9), pytest.approx(50e9 / 8))]


# Counts -------------------------------------------------------------------------------------------------------------

def test_every_count_noun_counts_what_it_names():
    found = claims("It has 4 links, 16 lanes, 8 ports, 2 NICs, 4 TPUs, 2 chips, 3 XPUs, 5 accelerators and 16,000 H100s.")
    assert [(claim.text, claim.value, claim.noun) for claim in found] == [
        ("4 links", 4, "links"), ("16 lanes", 16, "lanes"), ("8 ports", 8, "ports"), ("2 NICs", 2, "nics"),
        ("4 TPUs", 4, "accelerators"), ("2 chips", 2, "accelerators"), ("3 XPUs", 3, "accelerators"),
        ("5 accelerators", 5, "accelerators"), ("16,000 H100s", 16_000, "accelerators")]
    assert found[-1].half_unit == 500


def test_a_number_after_an_architecture_name_is_its_version_not_a_count():
    assert claims("The CDNA 3 GPU and the RDNA 4 GPUs.") == []
    assert claims("The CDNA three GPUs.") == []
    assert claims("GeForce 3 GPUs.") == []  # a name at the page's first character


def test_a_hyphen_joins_a_number_to_its_noun_even_after_a_name():
    (claim,) = claims("An NVIDIA 8-GPU server.")
    assert (claim.text, claim.value, claim.noun) == ("8-GPU", 8, "accelerators")


def test_a_version_far_before_a_number_does_not_make_it_one():
    """Only the name right before the number is its architecture: a capitalised word further back is not."""
    assert [claim.text for claim in claims("The ConnectX card, then 8 GPUs.")] == ["8 GPUs"]


def test_a_multiplication_sign_before_a_product_counts_that_many_of_it():
    found = claims("It has 8× H100 and 72x B200.")
    assert [(claim.text, claim.value, claim.noun, claim.kind) for claim in found] == [
        ("8× H100", 8, "accelerators", "quantity"), ("72x B200", 72, "accelerators", "quantity")]


def test_a_count_of_zero_is_no_claim_and_the_count_after_it_is():
    assert [claim.text for claim in claims("It has 0 GPUs spare and 8 GPUs.")] == ["8 GPUs"]


# Ratios -------------------------------------------------------------------------------------------------------------

def test_a_range_of_ratios_keeps_both_ends():
    dash, words = claims("It is 2-3x faster and 2 to 3x faster.")
    assert (dash.text, dash.value, dash.high) == ("2-3x", 2, 3)
    assert (words.text, words.value, words.high) == ("2 to 3x", 2, 3)


def test_a_ratio_of_counts_is_no_ratio_and_the_ratio_after_it_is():
    assert [claim.text for claim in claims("It has 9x more GPUs and is 3x faster.")] == ["3x"]


def test_a_ratio_in_words_with_no_times_after_it_is_no_claim():
    assert claims("Two of them.") == []


def test_a_ratio_says_nothing_of_how_its_sides_are_counted():
    (claim,) = claims("It is 2x faster bidirectional per GPU.")
    assert (claim.kind, claim.basis, claim.scope) == ("ratio", None, None)


# Derived times ------------------------------------------------------------------------------------------------------

def test_two_derivations_each_point_at_their_own_bandwidth():
    found = claims("32 GB ÷ 900 GB/s ≈ 36 ms and 32 GB / 50 GB/s = 640 ms")
    assert [(claim.text, claim.kind) for claim in found] == [("900 GB/s", "quantity"), ("36 ms", "time"),
                                                            ("50 GB/s", "quantity"), ("640 ms", "time")]
    assert [(claim.derived_size, claim.derived_bandwidth) for claim in found] == [
        (None, None), (pytest.approx(32e9), 0), (None, None), (pytest.approx(32e9), 2)]
    # "36 ms" is written to the millisecond: 0.036 s, half a unit 0.0005 s.
    assert (found[1].value, found[1].unit, found[1].half_unit) == (pytest.approx(0.036), "ms", pytest.approx(0.0005))


@pytest.mark.parametrize("result", ["takes about", "is roughly", "="])
def test_the_words_of_a_derivation_result(result):
    found = claims(f"8 GB / 100 GB/s {result} 80 ms")
    assert [(claim.text, claim.kind) for claim in found] == [("100 GB/s", "quantity"), ("80 ms", "time")]


def test_a_size_a_bandwidth_and_a_time_in_another_order_derive_nothing():
    assert [claim.kind for claim in claims("900 GB/s ÷ 32 GB ≈ 36 ms")] == ["quantity", "quantity", "quantity"]


# The counting words around a claim ----------------------------------------------------------------------------------

def test_a_line_label_counts_every_figure_after_its_colon():
    found = claims("PCIe (Unidirectional) Bandwidth: Gen4 - 32 GB/s; Gen5 - 64 GB/s")
    assert [(claim.text, claim.basis) for claim in found] == [("32 GB/s", "per-direction"), ("64 GB/s", "per-direction")]


def test_a_line_label_counts_only_its_own_line():
    assert [claim.basis for claim in claims("Unidirectional: yes\nGen5 - 64 GB/s")] == [None]


@pytest.mark.parametrize("page, basis", [
    ("Unidirectional: 64 GB/s\nnext line", "per-direction"),  # a line after the claim's is not its line
    ("x\nUnidirectional: 64 GB/s", "per-direction"),  # the label starts right after the newline
    ("x\nPer direction: a\nGen5 64 GB/s", None),  # the nearest newline before the claim starts its line
    ("Intro\nUnidirectional rates: " + "x" * 200 + " 64 GB/s", None),  # its line starts further back than the reach
])
def test_a_line_label_is_looked_for_at_the_start_of_the_claims_own_line(page, basis):
    assert [claim.basis for claim in claims(page)] == [basis]


def test_a_line_label_within_reach_counts_the_figure_after_it():
    """A label is looked for up to 200 characters back: this one starts 173 before the figure."""
    assert [claim.basis for claim in claims("Unidirectional rates: " + "x" * 150 + " 64 GB/s")] == ["per-direction"]


@pytest.mark.parametrize("page", [
    "Unidirectional rates: " + "x" * 200 + " 64 GB/s",
    "Unidirectional: yes\nThe part " + "is long " * 30 + "and gives 64 GB/s",  # not the first line's label either
])
def test_a_line_label_further_back_than_its_reach_counts_nothing(page):
    assert [claim.basis for claim in claims(page)] == [None]


@pytest.mark.parametrize("words, basis", [
    ("full-duplex", "per-direction"), ("full duplex", "per-direction"), ("duplex", "bidirectional"),
    ("bidirectional and per direction", "bidirectional"), ("one way", "per-direction"), ("bi-dir", "bidirectional"),
])
def test_the_words_that_say_how_a_figure_is_counted(words, basis):
    assert [claim.basis for claim in claims(f"It gives 900 GB/s {words}.")] == [basis]


@pytest.mark.parametrize("words, scope", [
    ("per GPU", "per-accelerator"), ("per port", "per-port"), ("per link", "per-link"), ("per lane", "per-lane"),
    ("in aggregate", "per-system"), ("per node", "per-system"), ("each H100", "per-accelerator"),
])
def test_the_words_that_say_what_a_figure_is_counted_per(words, scope):
    assert [claim.scope for claim in claims(f"It gives 900 GB/s {words}.")] == [scope]


def test_a_cell_with_its_own_counting_keeps_it_over_its_header():
    (claim,) = claims("| Part | NVLink (bidirectional) per port |\n|---|---|\n| H100 | 450 GB/s per direction per GPU |\n",
                      "markdown")
    assert (claim.basis, claim.scope) == ("per-direction", "per-accelerator")


# Table cells --------------------------------------------------------------------------------------------------------

def test_a_cell_of_an_impossible_number_is_skipped_and_its_row_goes_on():
    assert read("| Part | HBM (TB/s) | Links |\n|---|---|---|\n| H100 | 1e400 | 18 |\n", "markdown") == [("18", 18, 0.5)]


def test_a_cell_value_the_units_refuse_is_skipped_and_the_column_goes_on():
    """0.5 kB/s is no hardware's rate, which the unit reader refuses; 3 kB/s below it is read."""
    found = read("| Part | Rate (kB/s) |\n|---|---|\n| A | 0.5 |\n| B | 3 |\n", "markdown")
    assert found == [("3", pytest.approx(3e3), pytest.approx(0.5e3))]


def test_a_header_of_percentages_gives_its_cells_no_unit():
    assert claims("| Part | MFU (%) |\n|---|---|\n| H100 | 41 |\n", "markdown") == []


def test_every_number_in_a_cell_is_read_past_the_ones_skipped():
    """Links: 0 and 1e400 are no count, 8 and 16 are; Rate: 0.5 kB/s is refused, 3 kB/s read; HBM: the range is a
    claim of its own, and the bare 3 after it is 3 TB/s."""
    table = "| Part | Links | Rate (kB/s) | HBM (TB/s) |\n|---|---|---|---|\n| A | 0; 1e400; 8; 16 | 0.5; 3 | 600-900 GB/s; 3 |\n"
    found = claims(table, "markdown")
    assert [(claim.text, claim.value, claim.dimension, claim.noun) for claim in found] == [
        ("8", 8, "count", "links"), ("16", 16, "count", "links"), ("3", pytest.approx(3e3), "bandwidth", None),
        ("600-900 GB/s", pytest.approx(900e9), "bandwidth", None), ("3", pytest.approx(3e12), "bandwidth", None)]


def test_a_cell_past_the_header_row_is_no_claim_and_the_rows_after_it_are_read():
    page = "Figures:\n| Part | Links |\n|---|---|\n| A | 9 | 7 |\n| B | 4 | 5 |\n"
    assert [(claim.text, claim.value, claim.noun) for claim in claims(page)] == [("9", 9, "links"), ("4", 4, "links")]
