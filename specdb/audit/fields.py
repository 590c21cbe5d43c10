"""What every format reader gives the judge: the fields of a table, each with where it is written and what it means."""

from __future__ import annotations

import re
from dataclasses import dataclass

from specdb.errors import UsageError

# What a field can mean, as a quantity of one accelerator (or of the platform built on it); `judge` knows each.
MEMORY_BANDWIDTH = "memory_bandwidth"
MEMORY_CAPACITY = "memory_capacity"
POWER = "power"
SCALE_UP_PER_DIRECTION = "scale_up_per_direction"
SCALE_UP_BIDIRECTIONAL = "scale_up_bidirectional"
SCALE_OUT_PER_DIRECTION = "scale_out_per_direction"
HOST_LINK_PER_DIRECTION = "host_link_per_direction"
# A link record's own rate per accelerator (NVLink 4: 900 GB/s both ways), or x16 for PCIe, on a row naming the link.
LINK_PER_DIRECTION = "link_per_direction"
LINK_BIDIRECTIONAL = "link_bidirectional"
# One link's rate (NVLink 4: 25 GB/s each way), on a row naming the link, in a table that gives the links per GPU apart.
ONE_LINK_PER_DIRECTION = "one_link_per_direction"
ONE_LINK_BIDIRECTIONAL = "one_link_bidirectional"
DENSE = "dense:"  # followed by a number format: "dense:bf16" is the dense BF16 peak


def dense(precision: str) -> str:
    return f"{DENSE}{precision}"


@dataclass(frozen=True)
class Field:
    """One value of the audited file, as written and in SI units (B/s, B, FLOP/s, W).

    `scale` is the SI value of one of the file's own units (1e12 for TFLOPS), for a replacement written as the file
    writes it. `loose` marks a field whose format documents it only approximately ("in FP16 whenever possible"): a value
    matching no figure is unmatched rather than a mismatch, since the figure it means may not be one the data holds.
    `either_gb` accepts a capacity in GB for GiB and the other way round, for formats that write "GB" for both.
    `share_of_part` marks a rate the file says is one die's, core's or device's share of the part ("per GCD").
    `link` names the link the file says a host-link rate is of ("PCIe 6"), where it says so.
    """

    line: int
    column: int
    key: str
    written: str
    value: float
    scale: float
    unit: str
    part: str
    meaning: str
    loose: bool = False
    either_gb: bool = False
    share_of_part: bool = False
    link: str = ""


class UnreadableTable(UsageError):
    """A file that is not a table of its format: the message names file, line and column."""

    def __init__(self, path: str, message: str, line: int = 0, column: int = 0):
        where = f"{path}:{line}:{column}" if line else path
        super().__init__(f"{where}: {message}")


_NUMBER = re.compile(r"[-+]?(?:\d[\d_,]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def half_unit(written: str, value: float, whole_zeros: bool = False) -> float:
    """Half a unit of the last significant digit written, as a share of the value: "989.4e12" → 0.05e12, and
    "4800000000000" or "4800000000000.0" → 0.05e12, since trailing zeros of a whole number are not taken as significant."""
    match = _NUMBER.search(written.replace(" ", ""))
    if not match or value == 0:
        return 0.0
    text = match.group().replace("_", "").replace(",", "")
    mantissa = text.lower().partition("e")[0]
    # "3700000000000.0" is how a program prints a float, not a claim of a tenth's precision.
    mantissa = mantissa.removesuffix(".0") if len(mantissa.split(".")[0].lstrip("+-")) > 3 else mantissa
    digits = mantissa.lstrip("+-")
    if "." in digits:
        decimals = len(digits.split(".")[1])
        step = 10.0 ** -decimals
    else:
        stripped = digits if whole_zeros else digits.rstrip("0") or "0"
        step = 10.0 ** (len(digits) - len(stripped))
    number = float(mantissa) if mantissa.strip("+-.") else 0.0
    if number == 0:
        return 0.0
    return abs(step / 2 / number)


def figure_meaning(figure: str) -> str:
    """The meaning of a field an exporter fills from a figure ('dense_bf16_flops' → 'dense:bf16')."""
    if figure.startswith("dense_") and figure.endswith("_flops"):
        return dense(figure[len("dense_"):-len("_flops")])
    return figure
