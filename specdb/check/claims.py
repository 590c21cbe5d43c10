"""Figure claims in prose: quantities with a hardware unit, counts of accelerators, ratios, and times derived from a bandwidth.

Only a number with a unit, a count noun or a ratio word becomes a claim, so
years ("2024"), model sizes ("405B", "8-billion-parameter") and bare numbers
never do. Values are parsed through `units.parse_quantity`, so the checker
reads units exactly as the specs do.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from specdb.check.page import Page, Span, Spans
from specdb.format.units import BINARY_PREFIXES, SI_PREFIXES, UnitError, parse_quantity

# Prose writes bandwidths and sizes up to peta; exa only in FLOPS, spelt out below.
_PREFIXES = tuple(prefix for prefix in SI_PREFIXES if prefix != "E")


def _spellings() -> dict[str, str]:
    """Unit as written in prose -> unit as `units.parse_quantity` reads it."""
    table: dict[str, str] = {}
    for prefix in _PREFIXES:
        # "GBps" is bytes in prose (bits are "Gbps"), though the record format refuses it as ambiguous.
        table.update({f"{prefix}B/s": f"{prefix}B/s", f"{prefix}B/sec": f"{prefix}B/s", f"{prefix}B/second": f"{prefix}B/s",
                      f"{prefix}Bps": f"{prefix}B/s", f"{prefix}Byte/s": f"{prefix}B/s", f"{prefix}Bytes/s": f"{prefix}B/s",
                      f"{prefix}byte/s": f"{prefix}B/s", f"{prefix}bytes/s": f"{prefix}B/s"})
        for bits in ("b/s", "bps", "bit/s", "b/sec", "bits/s", "bit/sec", "bits/sec"):
            table[f"{prefix}{bits}"] = f"{prefix}b/s"
    for prefix in _PREFIXES[1:]:
        table.update({f"{prefix}B": f"{prefix}B", f"{prefix}Byte": f"{prefix}B", f"{prefix}Bytes": f"{prefix}B",
                      f"{prefix}bytes": f"{prefix}B"})
    for prefix in BINARY_PREFIXES:
        table.update({f"{prefix}B": f"{prefix}B", f"{prefix}B/s": f"{prefix}B/s", f"{prefix}Bps": f"{prefix}B/s"})
    for prefix, word in (("G", "giga"), ("T", "tera"), ("P", "peta"), ("E", "exa")):
        for spelling in (f"{prefix}FLOPS", f"{prefix}FLOPs", f"{prefix}FLOP/s", f"{word}FLOPS", f"{word}flops", f"{word}FLOP/s"):
            table[spelling] = f"{prefix}FLOPS"
        # Vendors capitalise the spelt-out prefix ("20 PetaFLOPS", "1.4 Exa-FLOPS"); ML writing shortens peta- and
        # teraFLOPS to "PF" and "TF" ("360 PF", "312 TF").
        for spelling in (f"{word.capitalize()}FLOPS", f"{word.capitalize()}-FLOPS", f"{word}-FLOPS", f"{word}FLOPs"):
            table[spelling] = f"{prefix}FLOPS"
        # Integer operations per second: the data keeps them as FLOPS with the number format int8.
        table[f"{prefix}OPS"] = f"{prefix}FLOPS"
        table[f"{prefix}OPs"] = f"{prefix}FLOPS"
    table.update({"PF": "PFLOPS", "TF": "TFLOPS"})
    table.update({"GT/s": "GT/s", "MT/s": "MT/s", "GHz": "GHz", "MHz": "MHz", "W": "W", "kW": "kW", "MW": "MW", "watts": "W"})
    table.update({"ms": "ms", "µs": "us", "μs": "us", "us": "us", "ns": "ns", "milliseconds": "ms", "microseconds": "us", "nanoseconds": "ns", "seconds": "s"})
    table.update({"%": "%", "percent": "%", "per cent": "%"})
    for prefix, word in (("", ""), ("M", "mega"), ("G", "giga"), ("T", "tera"), ("P", "peta")):
        table[f"{word}bytes per second"] = f"{prefix}B/s"
        table[f"{word}byte-per-second"] = f"{prefix}B/s"
        table[f"{word}bits per second"] = f"{prefix}b/s"
        table[f"{word}bytes"] = f"{prefix}B"
    # Tables of counted units write them in full beside numbers in scientific notation: "HBM bandwidth (bytes/s)", 3.35e12.
    table.update({spelling: "B/s" for spelling in ("bytes/s", "bytes/sec", "Bytes/s", "Bytes/sec")})
    table["Bytes"] = "B"
    # Japanese and Chinese write "per second" as /秒, Korean as /초: "900GB/秒".
    for prefix in _PREFIXES:
        table.update({f"{prefix}B/秒": f"{prefix}B/s", f"{prefix}B/초": f"{prefix}B/s", f"{prefix}b/秒": f"{prefix}b/s"})
    # Spanish and Portuguese write "per second" in words: "3,7 TB por segundo"; German "pro Sekunde".
    for prefix in _PREFIXES:
        table.update({f"{prefix}B por segundo": f"{prefix}B/s", f"{prefix}b por segundo": f"{prefix}b/s",
                      f"{prefix}B pro Sekunde": f"{prefix}B/s", f"{prefix}bit por segundo": f"{prefix}b/s"})
    # Russian writes the prefixes and units in Cyrillic: "144 Гбайт", "4,9 Тбайт/с", "2,52 Пфлопс", "800 Гбит/с".
    for cyrillic, prefix in (("М", "M"), ("Г", "G"), ("Т", "T"), ("П", "P")):
        table.update({f"{cyrillic}байт": f"{prefix}B", f"{cyrillic}байт/с": f"{prefix}B/s", f"{cyrillic}бит/с": f"{prefix}b/s",
                      f"{cyrillic}Б/с": f"{prefix}B/s", f"{cyrillic}флопс": f"{prefix}FLOPS", f"{cyrillic}ФЛОПС": f"{prefix}FLOPS"})
    # French writes bytes as octets: "288 Go", "8 To/s" ("To" alone is too often the English word to be read).
    table.update({f"{prefix}o": f"{prefix}B" for prefix in ("M", "G")})
    table.update({f"{prefix}o/s": f"{prefix}B/s" for prefix in ("M", "G", "T", "P")})
    table.update({"Gio": "GiB", "Tio": "TiB"})
    return table


UNIT_SPELLINGS = _spellings()
_WORD_NUMBERS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100,
}
# (a comma before one or two digits is a decimal comma, as German, French or Portuguese write "1,8 TB/s": a thousands
# separator has three after it)
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+,\d{1,2}(?![\d,.])|\d+(?:\.\d+)?(?:[eE][-+]?\d{1,3})?"
_DECIMAL_COMMA = re.compile(r"\d+,\d{1,2}")
_NUMBER = rf"(?<![\w.,/\-−])(?P<number>{_DIGITS})(?![\d,]\d)"
# The low end of a range written before the number ("600-900 GB/s", "from 50 to 100 GB/s").
# Chinese, Japanese and Korean run numbers into words with no space ("使用141GB显存"): a letter of theirs bounds a quantity
# as a space does, where a Latin letter or digit next to it makes it part of a name ("HBM3e", "A100").
_WORD = r"0-9A-Za-z_\u00c0-\u024f"
_LOW = rf"(?<![{_WORD}.,/\-−])(?P<low>\d+(?:\.\d+)?)[ \u00a0\u2009\u202f]*(?:[-–]|to\b)[ \u00a0\u2009\u202f]*"
_SPACE = r"[ \u00a0\u2009\u202f]*"  # entities such as &nbsp; leave padding behind them
_UNIT = "|".join(re.escape(unit) for unit in sorted(UNIT_SPELLINGS, key=len, reverse=True))
# A unit may name what it is counted per: "GB/s/GPU", "GB/s/dir".
_PER_UNIT = {"gpu": "per-accelerator", "chip": "per-accelerator", "accelerator": "per-accelerator", "port": "per-port",
             "link": "per-link", "lane": "per-lane", "dir": "per-direction", "direction": "per-direction"}
# A unit joined by a hyphen ("a 256-GB card") is the compound adjective English makes of a quantity.
# The number formats compute rates are given in; one may stand between a rate and its unit ("918 BF16 TFLOPS").
NUMBER_FORMATS = r"FP64|FP32|TF32|BFLOAT16|BF16|FP16|FP8|FP6|FP4|INT8|INT4"
# Table cells copied as text run together: "Memory Bandwidth5.2TB/s", "32 PFLOPS900 GB/s". A number right after a lowercase
# word or a unit starts a quantity; after a capital or a digit it is part of a name ("A100", "HBM3e", "SXM5"), and after
# "fp", "bf", "tf" or "int" of a number format ("bf16 TFLOPS").
QUANTITY = re.compile(rf"(?:{_LOW}|(?<![{_WORD}.,/\-−])|(?<=[a-z][a-z])(?<!fp|bf|tf|nt)|(?<=/s)|(?<=OPS))(?P<number>{_DIGITS})(?![\d,]\d)(?:{_SPACE}|-)"
                      rf"(?:(?P<format>{NUMBER_FORMATS})[ \u00a0](?=\w*OP))?(?P<unit>{_UNIT})"
                      rf"(?:/(?i:(?P<per>{'|'.join(_PER_UNIT)})))?(?![{_WORD}/])")
_HEADER_UNIT = re.compile(rf"(?<![\w/])(?P<unit>{_UNIT})(?![\w/])")
# Column names of data files write the unit as the name's last words: "memory_capacity_gb", "memory_bandwidth_tb_s".
_SNAKE_CASE_UNITS = {"gb": "GB", "gib": "GiB", "tb": "TB", "gb_s": "GB/s", "tb_s": "TB/s", "gbps": "Gb/s", "tflops": "TFLOPS",
                     "pflops": "PFLOPS", "tops": "TOPS", "w": "W", "watts": "W"}
_SNAKE_CASE_UNIT = re.compile(rf"(?<=[a-z0-9]_)(?P<unit>{'|'.join(sorted(_SNAKE_CASE_UNITS, key=len, reverse=True))})(?![A-Za-z0-9]|_[a-z])",
                              re.IGNORECASE)
# A number with no unit after it: in a cell, its unit is its column's.
_BARE_NUMBER = re.compile(rf"(?<![\w.,/\-−+])(?P<number>{_DIGITS})(?![\d,]\d)(?![.,]?\d)(?!{_SPACE}[A-Za-z%×/])")
# A number right after a capitalised word in a cell is the version in a name ("NVLink 3.0 (A100)", "Gen 5"), not the
# column's figure ("3.35 TB/s or 3.4" is).
_VERSION_IN_NAME = re.compile(r"\b[A-Za-z]*[A-Z][A-Za-z]*[ \u00a0]?$")
# A column of counts: "Lanes", "Links/GPU", "GPUs".
# ("GPU egress bandwidth" heads rates of a GPU, not a count of GPUs: a rate word anywhere in the header says so.)
_HEADER_COUNT = re.compile(r"\W*(?:number\s+of\s+|#\s*)?(?P<noun>GPU|accelerator|chip|link|lane|port|NIC)s?\b"
                           r"(?!.*\b(?:BW|bandwidth|speed|rate|throughput|egress|ingress))",
                           re.IGNORECASE)
_COUNT_NOUNS = {"gpu": "accelerators", "accelerator": "accelerators", "chip": "accelerators", "tpu": "accelerators",
                "xpu": "accelerators", "link": "links", "lane": "lanes", "port": "ports", "nic": "nics"}
_WORD = "|".join(_WORD_NUMBERS)
# "CDNA 3 GPU", "RDNA 4 GPUs": a number right after an architecture's name is its version, not a count ("NVIDIA 8-GPU
# server" is a count: the hyphen joins the number to its noun).
_VERSION_BEFORE = re.compile(r"(?<![\w-])[A-Z][A-Za-z]*[A-Z][A-Za-z]*[ \u00a0]$")
# "24 x 200 GbE ports": a speed between a number and a noun makes the number the speed, not the count.
_NOT_A_SPEED = r"(?![KMGT](?:bE|b|bps|B|Bps)?\b)"
COUNT = re.compile(
    rf"(?:{_NUMBER}|(?<![\w-])(?i:(?P<word>{_WORD})))(?P<thousands>K)?(?:-|\s+|(?<=\d)[x×]\s*)(?:{_NOT_A_SPEED}[A-Z0-9][\w.]*\s+){{0,2}}?"
    r"(?:(?P<noun>GPU|accelerator|chip|TPU|XPU|link|lane|port|NIC)s?|(?P<product>[A-Z][A-Za-z]*\d+[A-Za-z]*?)s\b"
    # "8× H100", "72x B200": a multiplication sign right before a product's name counts that many of it.
    r"|(?:(?<=[x×])|(?<=[x×]\s))(?P<times_product>[A-Z][A-Za-z]*\d+[A-Za-z]*)(?![\w-]))\b"
)
# "4x 50Gbps", "2× 400G": a multiplier before a figure counts its parts, and is no ratio.
_RATIO_WORD = r"(?:slower|faster|more|less|higher|lower|greater|larger|smaller|bigger|wider|narrower|as|the|that|difference|gap|step|cliff|speed-?up|slowdown|advantage|ratio)\b"
RATIO = re.compile(
    rf"(?:{_NUMBER}|(?<![\w-])(?P<word>{_WORD}))"
    rf"(?:{_SPACE}[-–]{_SPACE}(?P<high>\d+(?:\.\d+)?)|\s+to\s+(?P<high_words>\d+(?:\.\d+)?))?"
    rf"(?:(?P<sign>[x×])(?=[\s,.;:)]|$)(?-i:(?!\s+[A-Z][A-Za-z]*\d))(?!\s*\d)|\s+times\s+(?={_RATIO_WORD})|-fold\b)",
    re.IGNORECASE,
)
# "9x more GPUs", "four times as many ports": a ratio of counts, which no figure holds.
_COUNT_RATIO = re.compile(r"\s*(?:more|fewer|as\s+many)\s+(?:[\w-]+\s+){0,2}?(?:GPU|accelerator|chip|node|server|rack|port|link|lane|NIC|switch|core)(?:e?s)?\b",
                          re.IGNORECASE)
_DERIVATION_OPERATOR = re.compile(r"\s*[÷/]\s*$")
_DERIVATION_RESULT = re.compile(r"^[\sA-Za-z-]{0,25}?(?:≈|=|~|≃|≅|is about|is roughly|takes about|takes)\s*[~≈]?\s*$")

# The words of both counts in the languages hardware pages are written in: "bi-directional", "bidireccional",
# "bidirectionnel", "bidirektional", "obousměrná"; "uni-directional", "unidirektional", "pro Richtung", "par direction",
# "por dirección", "jednosměrná". Chinese, Japanese and Korean write them inside words, with no word boundary to look for:
# 双向/雙向/双方向/양방향 (both ways), 单向/單向/片方向/단방향 (one way).
BIDIRECTIONAL = re.compile(
    r"\bbi-?direc[ct]ion\w*|\bbi-?direkt\w*|\bbi-?dir\b|\bboth\s+directions\b|\bin\s+both\s+ways\b|(?<!full )(?<!full-)\bduplex\b"
    r"|\bobousměr\w*|\bTX\s*\+\s*RX\b|双向|雙向|双方向|양방향", re.IGNORECASE)
# Networking prose writes "full-duplex" for a rate carried in each direction at once, not the two directions summed.
PER_DIRECTION = re.compile(
    r"\bfull[\s-]duplex\b|\buni-?dir\b|\bper[\s-]direction\b|\b(?:in\s+)?each\s+direction\b|\beach\s+way\b|\bone[\s-]way\b"
    r"|\buni-?direc[ct]ion\w*|\buni-?direkt\w*|\bin\s+one\s+direction\b|/\s*(?:<br\s*/?>\s*)?direction\b|\b(?:egress|ingress)\b"
    r"|\b(?:pro|je)\s+Richtung\b|\bpar\s+(?:direction|sens)\b|\bdans\s+chaque\s+(?:sens|direction)\b|\bpor\s+(?:direcci[óo]n|sentido)\b"
    r"|\ben\s+cada\s+(?:direcci[óo]n|sentido)\b|\bjednosměr\w*|单向|單向|片方向|단방향",
    re.IGNORECASE,
)
_SCOPES = (
    ("per-accelerator", re.compile(r"\b(?:per|each|a|every)[\s-](?:GPU|accelerator|chip|device|TPU)\b|\beach\s+[A-Z][A-Za-z]*\d\w*\b", re.IGNORECASE)),
    ("per-port", re.compile(r"\b(?:per|each|a)[\s-](?:port|NIC)\b", re.IGNORECASE)),
    ("per-link", re.compile(r"\b(?:per|each)[\s-]link\b", re.IGNORECASE)),
    ("per-lane", re.compile(r"\b(?:per|each)[\s-]lane\b|\blane\s*/|/\s*lane\b", re.IGNORECASE)),
    ("per-system", re.compile(r"\baggregate\b|\b(?:per|each)\s+(?:system|rack|node|server)\b|\bin\s+total\b", re.IGNORECASE)),
)
JOINER = re.compile(r"[,，、]|\b(?:and|or|but|while|whereas|versus|vs|than|against)\b")
_MORE = re.compile(r"\s+(?:more|higher|greater|larger|bigger|faster|increase|gain|jump|uplift|boost|improvement)\b", re.IGNORECASE)
_OUT_OF = re.compile(r"\s+out\s+of\s+(?:the\s+)?(?:[A-Za-z-]+\s+){0,3}", re.IGNORECASE)
_LINE_LABEL = re.compile(r"[^\S\n]*[>*#\-\s]*(?P<label>[^:\n]{3,80}):\s")
_LABEL_SCOPE = re.compile(r"(?:NV)?(?P<noun>link|lane|port)\s*#?\d+", re.IGNORECASE)
_LABEL_REACH = 200  # characters back to the start of a claim's line, where its label is looked for
_WINDOW_BEFORE = 30
_WINDOW_AFTER = 40


@dataclass(frozen=True, slots=True)
class Claim:
    """A figure-like quantity in the text.

    `kind` is "quantity" (a value with a unit, or a count), "ratio" or "time"
    (a time the text derives as size ÷ bandwidth). Values are canonical SI;
    `half_unit` is half a unit of the last digit written, in the same units.
    """

    kind: str
    start: int
    end: int
    text: str
    value: float
    dimension: str
    unit: str
    half_unit: float
    basis: str | None = None
    scope: str | None = None
    noun: str | None = None
    high: float | None = None
    low: float | None = None
    derived_size: float | None = None
    derived_bandwidth: int | None = None


def _number(text: str) -> tuple[float, float]:
    """The number written, and half a unit of its last significant digit ("16,000" -> 500, "3.35" -> 0.005, "3.4e12" -> 5e10)."""
    if _DECIMAL_COMMA.fullmatch(text):
        text = text.replace(",", ".")
    digits, _, exponent = text.replace(",", "").casefold().partition("e")
    scale = float(f"1e{exponent}") if exponent else 1.0  # an exponent past a float's range is infinite, and then skipped
    value = float(digits) * scale
    if "." in digits:
        return value, 0.5 * 10.0 ** -len(digits.split(".")[1]) * scale
    trailing = len(digits) - len(digits.rstrip("0"))
    return value, 0.5 * 10.0 ** min(trailing, len(digits) - 1) * scale


def _quantity(match: re.Match) -> Claim | None:
    """A number with a unit as a claim; None for a number no hardware has (zero, "0.5 kB/s", "10000000000 TB/s")."""
    unit = UNIT_SPELLINGS[match["unit"]]
    number, half = _number(match["number"])
    low = _number(match["low"])[0] if match["low"] else None
    if not (math.isfinite(number) and number > 0) or (low is not None and not 0 < low < number):
        return None
    try:
        quantity = parse_quantity(f"{number!r} {unit}")
    except UnitError:
        return None
    factor = quantity.value / number
    per = _PER_UNIT[match["per"].casefold()] if match["per"] else None
    return Claim("quantity", match.start(), match.end(), match.group(), quantity.value, quantity.dimension, match["unit"],
                 half * factor, basis=per if per == "per-direction" else None, scope=None if per == "per-direction" else per,
                 low=low * factor if low is not None else None)


def extract(page: Page) -> list[Claim]:
    """Every claim in the page, in reading order."""
    text = page.text
    found: list[Claim] = []
    taken = Spans()
    free = taken.free

    for match in QUANTITY.finditer(text):
        claim = _quantity(match)
        if claim is not None and claim.unit == "%" and _MORE.match(text, claim.end):
            # "76% more memory", "a 43% increase": a ratio of 1.76 and 1.43, judged as ratios are.
            claim = replace(claim, kind="ratio", value=1 + claim.value, dimension="ratio")
        if claim is not None:
            found.append(claim)
            taken.add(match.start(), match.end())
    for match in COUNT.finditer(text):
        if not free(match.start(), match.end()) or (
                match["times_product"] is None
                and text[match.end("number") if match["number"] else match.end("word")] == " "
                and _VERSION_BEFORE.search(text, max(0, match.start() - 20), match.start())):
            continue
        number, half = _number(match["number"]) if match["number"] else (float(_WORD_NUMBERS[match["word"].casefold()]), 0.5)
        if number <= 0 or not number.is_integer():
            continue  # "0.75x B200" is a price ratio: a count is whole
        if match["thousands"]:
            number, half = number * 1000, half * 1000
        noun = _COUNT_NOUNS[match["noun"].casefold()] if match["noun"] else "accelerators"
        found.append(Claim("quantity", match.start(), match.end(), match.group(), number, "count", "", half, noun=noun))
        taken.add(match.start(), match.end())
    for match in RATIO.finditer(text):
        if not free(match.start(), match.end()) or _COUNT_RATIO.match(text, match.end()):
            continue
        if match["word"]:
            number, half = float(_WORD_NUMBERS[match["word"].casefold()]), 0.5
        else:
            number, half = _number(match["number"])
        if number <= 0:
            continue
        high = match["high"] or match["high_words"]
        end = match.end() if match["sign"] or "fold" in match.group() else match.start() + len(match.group().rstrip())
        found.append(Claim("ratio", match.start(), end, text[match.start():end].strip(), number, "ratio", "x", half,
                           high=float(high) if high else None))
        taken.add(match.start(), end)
    found.extend(_bare_cell_numbers(page, taken))
    found.sort(key=lambda claim: claim.start)
    found = _derivations(text, found)
    read = [_with_context(page, found, index) for index in range(len(found))]
    for index in range(1, len(read)):
        # "unidirectional 380GB/s out of 450GB/s": the whole a share is taken out of is counted as the share is.
        if read[index].basis is None and read[index - 1].basis and _OUT_OF.fullmatch(text, read[index - 1].end, read[index].start):
            read[index] = replace(read[index], basis=read[index - 1].basis)
    return read


def _bare_cell_numbers(page: Page, taken: Spans) -> list[Claim]:
    """Numbers alone in a table cell ("80", "3.35", "3.4e12") whose column header gives the unit ("Memory (GB)", "HBM TB/s"),
    or, in a table of one part whose rows are its specifications ("| HBM capacity per chip (GiB) | 95 |"), whose row label does."""
    found = []
    for cell in page.cells:
        said = next((said for said in (_cell_unit(page, span) for span in (cell.header, cell.label) if span is not None) if said), None)
        if said is None:
            continue
        unit, counted = said
        for match in _BARE_NUMBER.finditer(page.text, cell.start, cell.end):
            if not taken.free(match.start(), match.end()) or _VERSION_IN_NAME.search(page.text, cell.start, match.start()):
                continue
            number, half = _number(match["number"])
            if not (math.isfinite(number) and number > 0):
                continue
            if unit is None:
                found.append(Claim("quantity", match.start(), match.end(), match.group(), number, "count", "", half,
                                   noun=_COUNT_NOUNS[counted["noun"].casefold()]))
                continue
            try:
                quantity = parse_quantity(f"{number!r} {UNIT_SPELLINGS[unit]}")
            except UnitError:
                continue
            factor = quantity.value / number
            found.append(Claim("quantity", match.start(), match.end(), match.group(), quantity.value, quantity.dimension,
                               unit, half * factor))
    return found


def _cell_unit(page: Page, span: Span) -> tuple[str | None, re.Match | None] | None:
    """The unit ("Memory (GB)", "memory_bandwidth_tb_s") or count noun ("Lanes") a header or row label gives its cells, if
    it gives one (a percent is no unit a bare number is read in)."""
    written = _HEADER_UNIT.search(page.text, span.start, span.end)
    snake = None if written else _SNAKE_CASE_UNIT.search(page.text, span.start, span.end)
    unit = written["unit"] if written else _SNAKE_CASE_UNITS[snake["unit"].casefold()] if snake else None
    counted = _HEADER_COUNT.match(page.text, span.start, span.end)
    return None if (unit is None or UNIT_SPELLINGS[unit] == "%") and counted is None else (unit, counted)


def _derivations(text: str, claims: list[Claim]) -> list[Claim]:
    """"32 GB ÷ 900 GB/s ≈ 36 ms": the time becomes a derived claim; the size is an operand, not a claim."""
    operands: set[int] = set()
    result = list(claims)
    for index in range(len(claims) - 2):
        size, bandwidth, time = claims[index:index + 3]
        if (size.dimension, bandwidth.dimension, time.dimension) != ("size", "bandwidth", "time"):
            continue
        if not (_DERIVATION_OPERATOR.match(text[size.end:bandwidth.start]) and _DERIVATION_RESULT.match(text[bandwidth.end:time.start])):
            continue
        operands.add(index)
        result[index + 2] = Claim("time", time.start, time.end, time.text, time.value, "time", time.unit, time.half_unit,
                                  derived_size=size.value, derived_bandwidth=index + 1)
    kept = [claim for index, claim in enumerate(result) if index not in operands]
    renumber = {old: new for new, old in enumerate(i for i in range(len(result)) if i not in operands)}
    return [
        claim if claim.derived_bandwidth is None else replace(claim, derived_bandwidth=renumber[claim.derived_bandwidth])
        for claim in kept
    ]


def _with_context(page: Page, claims: list[Claim], index: int) -> Claim:
    """The basis and scope the words around a claim state, looked for in its clause and not past a neighbouring claim,
    else, in a table cell, in its column's header, its row's label and the table's caption."""
    claim = claims[index]
    if claim.kind != "quantity":
        return claim
    clause = page.clause_of(claim.start)
    # Words between two claims with no joining word are the first's only as far as its own window reaches.
    before_start = max(clause.start, claim.start - _WINDOW_BEFORE,
                       min(_gap_split(page.text, claims[index - 1].end, claim.start), claims[index - 1].end + _WINDOW_AFTER) if index else 0)
    after_end = min(clause.end, claim.end + _WINDOW_AFTER, _gap_split(page.text, claim.end, claims[index + 1].start) if index + 1 < len(claims) else len(page.text))
    around = page.text[before_start:claim.start] + " " + page.text[claim.end:after_end]
    basis, scope = claim.basis or _basis(around), claim.scope or _scope(around)
    cell = page.cell_of(claim.start)
    if cell is not None and (basis is None or scope is None):
        inherited = [page.text[span.start:span.end] for span in (cell.header, cell.label, cell.caption) if span is not None]
        # Nearest first: a column's header ("GB/s, full-duplex") says how its cells count before a caption that explains
        # both counts ("25GB/s each way ... both directions").
        basis = basis or next((stated for stated in map(_basis, inherited) if stated), None)
        scope = scope or _scope(" ".join(inherited))
        if basis is None:
            # "| PCIe Gen5 x16 | ~64 GB/s | ~1 μs | CPU↔GPU, bidirectional |": a Markdown row's notes count its figures.
            row_start = page.text.rfind("\n", 0, claim.start) + 1
            row_end = page.text.find("\n", claim.end)
            row = page.text[row_start:len(page.text) if row_end < 0 else row_end]
            both, one = BIDIRECTIONAL.search(row) is not None, PER_DIRECTION.search(row) is not None
            basis = _basis(row) if row.lstrip().startswith("|") and both != one else None  # a row stating both says neither
    if basis is None or scope is None:
        # "PCIe (Unidirectional) Bandwidth: Gen4 - 32 GB/s; Gen5 - 64 GB/s": a line's label before its colon counts every figure
        # after it; "Link 3: 25 GB/s", as nvidia-smi lists a GPU's links, scopes them.
        reach = max(0, claim.start - _LABEL_REACH)
        newline = page.text.rfind("\n", reach, claim.start)
        # A line that starts further back than the reach has its label out of it, not at the page's start.
        label = _LINE_LABEL.match(page.text, newline + 1, claim.start) if newline >= 0 or reach == 0 else None
        if label:
            basis = basis or _basis(label["label"])
            named = _LABEL_SCOPE.fullmatch(label["label"].strip())
            scope = scope or (f"per-{named['noun'].casefold()}" if named else None)
    return replace(claim, basis=basis, scope=scope)


def _basis(words: str) -> str | None:
    return "bidirectional" if BIDIRECTIONAL.search(words) else "per-direction" if PER_DIRECTION.search(words) else None


def _scope(words: str) -> str | None:
    return next((name for name, pattern in _SCOPES if pattern.search(words)), None)


def _gap_split(text: str, start: int, end: int) -> int:
    """Where the words between two claims stop describing the first and start describing the second: the first joining word,
    or a parenthesis opened before the second and still open ("450 GB/s (bidirectional = 900 GB/s)": its words are the
    second's)."""
    joiner = JOINER.search(text, start, end)
    split = joiner.start() if joiner else end
    opened = text.rfind("(", start, split)
    return opened if opened >= 0 and ")" not in text[opened:end] else split
