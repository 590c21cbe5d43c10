"""Quantities as people write them: bits are not bytes, GB is not GiB, an unknown unit is an error."""

import pytest

from specdb.format.units import UnitError, format_value, parse_quantity, rounded


@pytest.mark.parametrize("text, value, dimension", [
    ("3.35 TB/s", 3.35e12, "bandwidth"),
    ("900 GB/s", 900e9, "bandwidth"),
    ("400 Gb/s", 50e9, "bandwidth"),
    ("400 Gbps", 50e9, "bandwidth"),
    ("800 Gbit/s", 100e9, "bandwidth"),
    ("32 GT/s", 32e9, "transfer_rate"),
    ("141 GB", 141e9, "size"),
    ("80 GiB", 80 * 2**30, "size"),
    ("989 TFLOPS", 989e12, "compute"),
    ("2.5 PFLOP/s", 2.5e15, "compute"),
    ("72", 72, "count"),
    ("41 %", 0.41, "ratio"),
    ("130 ns", 130e-9, "time"),
    ("2us", 2e-6, "time"),
    ("700 W", 700, "power"),
    ("106.25 GBd", 106.25e9, "symbol_rate"),
    ("1e3 GB", 1e12, "size"),
])
def test_units(text, value, dimension):
    quantity = parse_quantity(text)
    assert quantity.value == pytest.approx(value) and quantity.dimension == dimension and quantity.text == text.strip()


@pytest.mark.parametrize("text, message", [
    ("5 KB", "ambiguous; write kB (1000) or KiB (1024)"),
    ("3 GBps", "ambiguous; write GB/s for bytes or Gb/s for bits"),
    ("3 TB/S", "did you mean 'TB/s'?"),
    ("3 furlongs", "unknown unit 'furlongs'"),
    ("1,979 TFLOPS", "without thousands separators"),
    ("0 GB", "greater than zero"),
    ("-2 GB", "greater than zero"),
    ("nan GB", "not a number followed by a unit"),
    ("1e400", "not finite"),
    ("GB", "not a number followed by a unit"),
])
def test_bad_quantities(text, message):
    with pytest.raises(UnitError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        parse_quantity(text)


@pytest.mark.parametrize("value, dimension, shown", [
    (4.5e11, "bandwidth", "450 GB/s"), (3.35e12, "bandwidth", "3.35 TB/s"), (50e9, "bandwidth", "50 GB/s"),
    (141e9, "size", "141 GB"), (989e12, "compute", "989 TFLOP/s"), (0.41, "ratio", "41 %"), (72, "count", "72"), (130e-9, "time", "130 ns"),
])
def test_display(value, dimension, shown):
    assert format_value(value, dimension) == shown


@pytest.mark.parametrize("text, expected", [
    ("1 KB/s", "'1 KB/s': unit 'KB/s' is ambiguous; write kB (1000) or KiB (1024)"),
    ("1 Kb/s", "'1 Kb/s': unit 'Kb/s' is ambiguous; write kB (1000) or KiB (1024)"),
    ("1 Kbps", "'1 Kbps': unit 'Kbps' is ambiguous; write kB (1000) or KiB (1024)"),
    ("1 TBps", "'1 TBps': unit 'TBps' is ambiguous; write TB/s for bytes or Tb/s for bits"),
    ("1 MBps", "'1 MBps': unit 'MBps' is ambiguous; write MB/s for bytes or Mb/s for bits"),
    ("1 GBs", "'1 GBs': unknown unit 'GBs'; did you mean 'GB/s'?"),
    ("1 parsec", "'1 parsec': unknown unit 'parsec'"),
])
def test_an_unknown_or_ambiguous_unit_is_named_with_one_way_out(text, expected):
    with pytest.raises(UnitError) as raised:
        parse_quantity(text)
    assert str(raised.value) == expected


@pytest.mark.parametrize("value, dimension, expected", [
    (16.0, "count", "16"),
    (123456.0, "count", "123456"),  # counts keep six significant digits
    (1234567.0, "count", "1.23457e+06"),  # and no seventh
    (1e12, "bandwidth", "1 TB/s"),  # exactly one of a prefix takes that prefix
    (0.5, "bandwidth", "0.5 B/s"),  # below the smallest prefix, in the base unit
    (123456789.0, "bandwidth", "123.5 MB/s"),
    (5e-10, "time", "0.5 ns"),  # below the smallest prefix of a time, in nanoseconds
    (2.5e-3, "time", "2.5 ms"),
    (1500.0, "power", "1.5 kW"),
    (1.98e9, "frequency", "1.98 GHz"),
    (0.984615, "ratio", "98.46 %"),
])
def test_values_are_shown_with_a_readable_prefix(value, dimension, expected):
    assert format_value(value, dimension) == expected


@pytest.mark.parametrize("text, value", [("1 kB/s", 1e3), ("1 EB/s", 1e18), ("1 kT/s", 1e3), ("1 PT/s", 1e15)])
def test_the_ends_of_a_plausible_range_are_inside_it(text, value):
    assert parse_quantity(text).value == value


def test_a_figure_outside_its_range_names_the_dimension_in_words():
    with pytest.raises(UnitError, match=r"^'999 T/s' is outside the plausible range of a transfer rate \(1 kT/s to 1 PT/s\)$"):
        parse_quantity("999 T/s")


@pytest.mark.parametrize("value, decimals, shown", [
    (2.71828, 3, 2.718),
    # 0.000412 rounds to 0.0 at three places: three significant digits instead, never a false 0
    (0.00041234, 3, 0.000412),
    (0.0, 3, 0.0),
])
def test_rounding_never_turns_a_figure_into_zero(value, decimals, shown):
    assert rounded(value, decimals) == shown



def test_a_binary_capacity_reads_as_its_decimal_counterpart_as_vendors_write_it():
    from specdb.format.units import decimal_counterpart

    # 141 GiB = 141 x 2**30 B, which a vendor writes "141 GB": 141e9 B. 512 KiB likewise reads 512e3 B.
    assert decimal_counterpart(141 * 2**30, "141 GiB") == pytest.approx(141e9)
    assert decimal_counterpart(512 * 2**10, "512 KiB") == pytest.approx(512e3)
    assert decimal_counterpart(80e9, "80 GB") is None
