"""Every unit spelling `specdb check` reads in prose, with the value it stands for, worked out by hand from the SI and
binary prefixes (k = 1e3 ... E = 1e18; Ki = 2**10 ... Pi = 2**50) and 8 bits to the byte. Each is written after the
number 400 in a sentence; the claim read there must carry that value in SI units (B/s, B, FLOP/s, T/s, Hz, W, s, share).
"""

import math

import pytest

from specdb.check.claims import extract
from specdb.check.page import read_page

SI = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
BINARY = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40}
WORDS = {"mega": 1e6, "giga": 1e9, "tera": 1e12, "peta": 1e15}
FLOP_PREFIXES = {"G": ("giga", 1e9), "T": ("tera", 1e12), "P": ("peta", 1e15), "E": ("exa", 1e18)}
CYRILLIC = {"М": 1e6, "Г": 1e9, "Т": 1e12, "П": 1e15}


def _cases():
    cases = []
    for prefix, factor in SI.items():
        bytes_per_second, bits_per_second = 400 * factor, 400 * factor / 8
        cases += [(f"{prefix}{unit}", bytes_per_second) for unit in
                  ("B/s", "B/sec", "B/second", "Bps", "Byte/s", "Bytes/s", "byte/s", "bytes/s", "B/秒", "B/초",
                   "B por segundo", "B pro Sekunde")]
        cases += [(f"{prefix}{unit}", bits_per_second) for unit in
                  ("b/s", "bps", "bit/s", "b/sec", "bits/s", "bit/sec", "bits/sec", "b/秒", "b por segundo", "bit por segundo")]
        cases += [(f"{prefix}{unit}", 400 * factor) for unit in ("B", "Byte", "Bytes", "bytes")]
    for prefix, factor in BINARY.items():
        cases += [(f"{prefix}B", 400 * factor), (f"{prefix}B/s", 400 * factor), (f"{prefix}Bps", 400 * factor)]
    for prefix, (word, factor) in FLOP_PREFIXES.items():
        cases += [(spelling, 400 * factor) for spelling in (
            f"{prefix}FLOPS", f"{prefix}FLOPs", f"{prefix}FLOP/s", f"{word}FLOPS", f"{word}flops", f"{word}FLOP/s",
            f"{word.capitalize()}FLOPS", f"{word.capitalize()}-FLOPS", f"{word}-FLOPS", f"{word}FLOPs", f"{prefix}OPS", f"{prefix}OPs")]
    cases += [("PF", 4e17), ("TF", 4e14)]
    cases += [("GT/s", 4e11), ("MT/s", 4e8), ("GHz", 4e11), ("MHz", 4e8), ("W", 400.0), ("kW", 4e5), ("MW", 4e8), ("watts", 400.0)]
    cases += [("ms", 4e-1), ("µs", 4e-4), ("μs", 4e-4), ("us", 4e-4), ("ns", 4e-7), ("milliseconds", 4e-1),
              ("microseconds", 4e-4), ("nanoseconds", 4e-7), ("seconds", 400.0)]
    cases += [("%", 4.0), ("percent", 4.0), ("per cent", 4.0)]
    for word, factor in WORDS.items():
        cases += [(f"{word}bytes per second", 400 * factor), (f"{word}byte-per-second", 400 * factor),
                  (f"{word}bits per second", 400 * factor / 8), (f"{word}bytes", 400 * factor)]
    cases += [("bytes", 400.0), ("Bytes", 400.0)]
    for cyrillic, factor in CYRILLIC.items():
        cases += [(f"{cyrillic}байт", 400 * factor), (f"{cyrillic}байт/с", 400 * factor), (f"{cyrillic}бит/с", 400 * factor / 8),
                  (f"{cyrillic}Б/с", 400 * factor), (f"{cyrillic}флопс", 400 * factor), (f"{cyrillic}ФЛОПС", 400 * factor)]
    cases += [("Mo", 4e8), ("Go", 4e11), ("Mo/s", 4e8), ("Go/s", 4e11), ("To/s", 4e14), ("Po/s", 4e17),
              ("Gio", 400 * 2.0**30), ("Tio", 400 * 2.0**40)]
    return cases


@pytest.mark.parametrize("spelling, value", _cases())
def test_a_unit_spelling_reads_as_its_value(spelling, value):
    [claim] = [claim for claim in extract(read_page(f"It reaches 400 {spelling} here.", "text")) if claim.kind == "quantity"]
    assert claim.text == f"400 {spelling}"
    assert math.isclose(claim.value, value, rel_tol=1e-9)


@pytest.mark.parametrize("written, value", [("4e6 bytes per second", 4e6), ("4e6 bits per second", 5e5),
                                            ("4e6 bytes/s", 4e6), ("4e6 bytes/sec", 4e6), ("4e6 Bytes/sec", 4e6)])
def test_unprefixed_rates_read_in_bytes_or_bits(written, value):
    [claim] = extract(read_page(f"It reaches {written} here.", "text"))
    assert math.isclose(claim.value, value, rel_tol=1e-9)
