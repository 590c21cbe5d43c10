"""Quantities as people write them ("3.35 TB/s", "400 Gb/s", "80 GiB"), parsed into SI values.

The vocabulary is closed on purpose: a unit that is not in the table is an
error with a suggestion, never a guess. "KB" is refused because it means 1000
to some readers and 1024 to others.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

SI_PREFIXES = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
BINARY_PREFIXES = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}

CANONICAL_UNIT = {
    "bandwidth": "B/s",
    "size": "B",
    "compute": "FLOP/s",
    "transfer_rate": "T/s",
    "symbol_rate": "Bd",
    "time": "s",
    "power": "W",
    "frequency": "Hz",
    "ratio": "1",
    "count": "1",
}


# What a figure or an option may plausibly be, per dimension: wide enough for any part, system or cluster,
# narrow enough that products and ratios of a few of them stay finite and non-zero in floating point.
PLAUSIBLE = {
    "bandwidth": (1e3, 1e18, "1 kB/s to 1 EB/s"),
    "size": (1.0, 1e21, "1 B to 1 ZB"),
    "compute": (1e6, 1e21, "1 MFLOP/s to 1 ZFLOP/s"),
    "transfer_rate": (1e3, 1e15, "1 kT/s to 1 PT/s"),
    "symbol_rate": (1e3, 1e15, "1 kBd to 1 PBd"),
    "time": (1e-12, 1e9, "1 ps to 1e9 s"),
    "power": (1e-3, 1e10, "1 mW to 10 GW"),
    "frequency": (1.0, 1e15, "1 Hz to 1 PHz"),
    "ratio": (1e-9, 10.0, "0.0000001 % to 1000 %"),
    "count": (1e-9, 1e12, "1e-9 to 1e12"),
}


def _unit_table() -> dict[str, tuple[str, float]]:
    table: dict[str, tuple[str, float]] = {}

    def add(names: list[str], dimension: str, factor: float) -> None:
        for name in names:
            table[name] = (dimension, factor)

    for prefix, factor in SI_PREFIXES.items():
        add([f"{prefix}B/s"], "bandwidth", factor)
        add([f"{prefix}b/s", f"{prefix}bit/s", f"{prefix}bps"], "bandwidth", factor / 8)
        add([f"{prefix}B"], "size", factor)
        add([f"{prefix}FLOP/s", f"{prefix}FLOPS"], "compute", factor)
        add([f"{prefix}T/s"], "transfer_rate", factor)
        add([f"{prefix}Bd"], "symbol_rate", factor)
        add([f"{prefix}W"], "power", factor)
        add([f"{prefix}Hz"], "frequency", factor)
    for prefix, factor in BINARY_PREFIXES.items():
        add([f"{prefix}B/s"], "bandwidth", factor)
        add([f"{prefix}B"], "size", factor)
    add(["s"], "time", 1.0)
    add(["ms"], "time", 1e-3)
    add(["us", "µs"], "time", 1e-6)
    add(["ns"], "time", 1e-9)
    add(["ps"], "time", 1e-12)
    add(["%"], "ratio", 0.01)
    return table


UNITS = _unit_table()

_QUANTITY = re.compile(r"^\s*(?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*(?P<unit>\S*)\s*$", re.ASCII)


def number_and_unit(text: str) -> tuple[float, str]:
    """The number of a quantity as written and what follows it, its spacing kept ("80 GB" → (80.0, " GB"), "80GB" →
    (80.0, "GB")), for writing another number in the same form; UnitError when the text is not a number and a unit."""
    match = _QUANTITY.match(text)
    if match is None:
        raise UnitError(f"'{text}' is not a number followed by a unit")
    return float(match["number"]), text[match.end("number"):].rstrip()


def decimal_prefixed(quantity: Quantity) -> bool:
    """Whether a quantity is written with a decimal prefix (kB, GB, TB/s...) rather than a binary one or none."""
    match = _QUANTITY.match(quantity.text)
    unit = match["unit"] if match is not None else ""
    return unit[:2] not in BINARY_PREFIXES and unit[:1] in SI_PREFIXES and unit[:1] != ""


def binary_reading(quantity: Quantity) -> str:
    """A decimal quantity as its binary counterpart reads it: "186 GB" -> "186 GiB", "512 kB" -> "512 KiB"."""
    match = _QUANTITY.match(quantity.text)
    assert match is not None, "a parsed quantity matches the pattern it was parsed with"
    unit = match["unit"]
    return f"{match['number']} {unit[0].upper()}i{unit[1:]}"


def decimal_counterpart(value: float, text: str) -> float | None:
    """A value written with a binary prefix read as the same number with the decimal prefix, as vendors write capacities:
    141 GiB (value 141 x 2**30) marketed as "141 GB" is 141e9; None for a value written without a binary prefix."""
    for prefix, factor in BINARY_PREFIXES.items():
        if text.endswith(f"{prefix}B"):
            return value / factor * SI_PREFIXES[prefix[0].lower() if prefix == "Ki" else prefix[0]]
    return None


class UnitError(ValueError):
    """A quantity that cannot be read; the message says why and what would be accepted."""


class Quantity(NamedTuple):
    text: str
    value: float
    dimension: str

    @property
    def unit(self) -> str:
        return CANONICAL_UNIT[self.dimension]


def parse_quantity(text: str) -> Quantity:
    """Parse "3.35 TB/s" into Quantity(value=3.35e12, dimension="bandwidth")."""
    foreign = foreign_digit(text)
    if foreign is not None:
        raise UnitError(f"'{text}': write numbers with the digits 0-9 ('{foreign}' is U+{ord(foreign):04X})")
    match = _QUANTITY.match(text)
    if match is None:
        if re.match(r"^\s*\d{1,3}(,\d{3})+", text, re.ASCII):
            raise UnitError(f"'{text}': write numbers without thousands separators")
        raise UnitError(f"'{text}' is not a number followed by a unit")
    number = float(match["number"])
    unit = match["unit"]
    if not math.isfinite(number):
        raise UnitError(f"'{text}' is not finite")
    if number <= 0:
        raise UnitError(f"'{text}' must be greater than zero")
    if unit != "" and unit not in UNITS:
        raise UnitError(_unknown_unit_message(text, unit))
    dimension, factor = UNITS[unit] if unit else ("count", 1.0)
    value = number * factor
    low, high, span = PLAUSIBLE[dimension]
    if not low <= value <= high:
        raise UnitError(f"'{text.strip()}' is outside the plausible range of a {dimension.replace('_', ' ')} ({span})")
    return Quantity(text.strip(), value, dimension)


def foreign_digit(text: str) -> str | None:
    """The first digit of another script in the text (Arabic-Indic '٣', fullwidth '３'), which Python would read as a number."""
    return next((char for char in text if char.isdecimal() and not char.isascii()), None)


def _unknown_unit_message(text: str, unit: str) -> str:
    if unit in ("KB", "KB/s", "Kb/s", "Kbps"):
        return f"'{text}': unit '{unit}' is ambiguous; write kB (1000) or KiB (1024)"
    if unit.upper() in ("GBPS", "TBPS", "MBPS") and unit[1] == "B":
        return f"'{text}': unit '{unit}' is ambiguous; write {unit[0]}B/s for bytes or {unit[0]}b/s for bits"
    import difflib  # only on this error path

    close = difflib.get_close_matches(unit, UNITS, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"'{text}': unknown unit '{unit}'{hint}"


def rounded(value: float, decimals: int) -> float:
    """value rounded to `decimals` places, or to three significant digits where that would leave nothing (never a false 0)."""
    shown = round(value, decimals)
    return shown if shown or not value else float(f"{value:.3g}")


_DISPLAY_UNITS = {
    "bandwidth": [(1e12, "TB/s"), (1e9, "GB/s"), (1e6, "MB/s"), (1.0, "B/s")],
    "size": [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1.0, "B")],
    "compute": [(1e15, "PFLOP/s"), (1e12, "TFLOP/s"), (1e9, "GFLOP/s"), (1.0, "FLOP/s")],
    "transfer_rate": [(1e9, "GT/s"), (1e6, "MT/s"), (1.0, "T/s")],
    "symbol_rate": [(1e9, "GBd"), (1.0, "Bd")],
    "time": [(1.0, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns")],
    "power": [(1e3, "kW"), (1.0, "W")],
    "frequency": [(1e9, "GHz"), (1e6, "MHz"), (1.0, "Hz")],
}


def format_value(value: float, dimension: str, digits: int = 4) -> str:
    """Render a canonical value with a readable decimal prefix: 4.5e11 B/s -> '450 GB/s'."""
    if dimension == "ratio":
        return f"{value * 100:.{digits}g} %"
    if dimension == "count":
        return f"{value:.{digits + 2}g}"
    for scale, label in _DISPLAY_UNITS[dimension]:
        if abs(value) >= scale:
            return f"{value / scale:.{digits}g} {label}"
    scale, label = _DISPLAY_UNITS[dimension][-1]
    return f"{value / scale:.{digits}g} {label}"
