"""Markdown tables with a header row, as ml-engineering keeps them (`compute/accelerator/README.md`): a part per row, a
quantity per column, the unit in the header.

A column is judged when its header says what it holds, the way those tables write it: a number format alone ("bf16",
"fp8", "int8") under a TFLOPS (or PFLOPS) header is that format's dense peak (ml-engineering's table notes that its
figures are without sparsity, and a column or table naming sparsity is left out); "memory bandwidth" or "HBM bandwidth"
with TB/s or GB/s; "memory" or "HBM" with GB (read as GB or GiB: such tables write "80GB" for 80 GiB); "TDP" or "power"
in W; a scale-up link (NVLink, Infinity Fabric, scale-up, intra-node) with its direction in the header or in the cell
("unidirectional", "per direction", "one way", or "bidirectional", "both directions"): a link value that does not say
how it counts is not judged. On a row that names a link (ml-engineering's `network/README.md`: "NVLink 4", "PCIe 5"),
a column that names only a direction ("Uni-dir.", "Duplex", or "Unidirection" over cells with units, "31 GBps", GBps
being bytes as in the headers) is that link's rate one way or both; a column of totals per node or of rates per lane
or per link is not judged. A column headed by a bandwidth unit alone ("GBps") is read where the sentence before the
table says it compares intra-node bandwidth and how it counts ("Here is intra-node unidirectional theoretical peak
bandwidth"), loosely: the accelerator's scale-up rate, or the link's on a row naming no accelerator; a peer-to-peer
comparison gives one link's rate and is not read. Delimiter rows need one hyphen a cell ("--:"), as GitHub reads them. The first column names the part, unless a later one is headed
as the part's ("Name", "GPU", "Model") and the first is not (a table that puts the architecture first); a part cell
loses footnote marks ("GH200 SXM (1)"), and of several parts ("H100, H200, GH200") names the first. A header naming
a number format, memory or memory bandwidth without a unit is read where the cell gives its own ("1979 TFLOPS"), and a
cell may name its own number format after the value ("3958 TFLOPS (FP8)"). "VRAM" is memory, as "memory" and "HBM"
are. Where a table gives a number format both as a tensor-core rate ("BF16 Tensor Core TFLOPS") and without saying so
("BF16 TFLOPS"), the second is the vector units' rate, which the data does not hold, and is not read; nor is a column
headed as a vector or non-tensor rate. A cell holding a pair, "1125 / 2250*", is the dense and the sparse peak where the
file's notes say the mark is sparsity's ("\\* Effective TOPS / TFLOPS using the Sparsity Feature"): the unmarked number
is read. A cell "4100 x 2" (two dies, two stacks) is the product.
"""

from __future__ import annotations

import re

from specdb.audit import fields as meaning
from specdb.audit.fields import Field
from specdb.format.units import UnitError, parse_quantity

NAME = "markdown"
_DTYPES = ("bf16", "fp16", "fp8", "int8", "fp4")
# "GBs" is a plural of GB ("Memory (GBs)"), not a rate.
_UNIT = re.compile(r"(?<![\w/])(PFLOPS|TFLOPS|TOPS|TB/s|TBps|GB/s|GBps|GiB|GBs|GB|W)(?![\w/])")
_SCALES = {"pflops": 1e15, "tflops": 1e12, "tops": 1e12, "tb/s": 1e12, "tbps": 1e12, "gb/s": 1e9, "gbps": 1e9,
           "gib": 2**30, "gbs": 1e9, "gb": 1e9, "w": 1.0}
_BANDWIDTHS = ("tb/s", "tbps", "gb/s", "gbps")
_NUMBER = re.compile(r"^[~≈]?\s*([-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*([A-Za-z/]*)\s*$")  # "3.4e12" too
# A delimiter row: a cell of one hyphen or more ("--:" as well as ":---:"), with a pipe somewhere, as GitHub reads it.
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def _is_separator(line: str) -> bool:
    return "|" in line and bool(_SEPARATOR.match(line))


def looks_like(path: str, text: str) -> bool:
    return path.endswith((".md", ".markdown")) or any(_is_separator(line) for line in text.splitlines()[:400])


# A note saying that a star marks a figure with sparsity ("1. \\* Effective TOPS / TFLOPS using the Sparsity Feature",
# NVIDIA's "* With sparsity").
_SPARSITY_NOTE = re.compile(r"^\s*(?:\d+[.)]\s+|[-+]\s+)?\\?\*(?![*\\])\s*\S.*\bspars(?:e|ity)\b", re.IGNORECASE | re.MULTILINE)


def read(path: str, text: str) -> list[Field]:
    lines = text.splitlines()
    starred_sparse = bool(_SPARSITY_NOTE.search(text))
    found: list[Field] = []
    index = 0
    while index + 1 < len(lines):
        if "|" in lines[index] and _is_separator(lines[index + 1]):
            header = _cells(lines[index])
            named = _part_column(header)
            columns = _columns(header, named, _prose_before(lines, index))
            row = index + 2
            while row < len(lines) and "|" in lines[row] and lines[row].strip():
                if columns:
                    found.extend(_row(lines[row], row + 1, header, columns, named, starred_sparse))
                row += 1
            index = row
        else:
            index += 1
    return found


def _cells(line: str) -> list[tuple[int, str]]:
    """(1-based column, text) of each cell of a table row."""
    cells, start = [], 0
    body = line.rstrip()
    if body.lstrip().startswith("|"):
        start = body.index("|") + 1
    for part in re.finditer(r"[^|]+|(?<=\|)(?=\|)", body[start:]):
        raw = part.group()
        cells.append((start + part.start() + len(raw) - len(raw.lstrip()) + 1, raw.strip()))
    if body.endswith("|") and cells and cells[-1][1] == "":
        cells.pop()
    return cells


_PART_HEADER = re.compile(r"^(name|gpu|model|accelerator|device|part|chip|sku|product)s?\b", re.IGNORECASE)
# A later column naming the part: the word alone, with "name" or "model", or before a slash ("Accelerator / product");
# not a word of the part's kind ("GPU type": desktop or server).
_LATER_PART_HEADER = re.compile(r"^(name|gpu|model|accelerator|device|part|chip|sku|product)s?(?:\s*$|\s+(?:name|model)s?\s*$|\s*[/\\(])",
                                re.IGNORECASE)


def _part_column(header: list[tuple[int, str]]) -> int:
    """The column naming the part: the first headed as such ("Name", "GPU", "Model") after a first column that is not,
    as in tables that put the architecture first; else the first."""
    if header and not _PART_HEADER.match(header[0][1]):
        for position, (_, cell) in enumerate(header[1:], start=1):
            if _LATER_PART_HEADER.match(cell):
                return position
    return 0


def _columns(header: list[tuple[int, str]], named: int = 0, prose: str = "") -> dict[int, tuple[str, float]]:
    """Column index → (meaning, scale of the header's unit) for every column whose header says what it holds; a scale
    of 0 where the header names the quantity but no unit, so that only cells giving their own unit are read. A column
    headed by a bandwidth unit alone ("GBps") is a scale-up rate where the sentence before the table says how it counts
    (`_prose_direction`)."""
    if not header:
        return {}
    table_unit = _UNIT.search(header[0][1])
    if "sparsity" in header[0][1].lower():
        return {}
    columns = {}
    # A table with a memory-capacity column calls its memory bandwidth "Peak Bandwidth" (ml-engineering's HBM table).
    memory_table = any(re.search(r"\b(memory|hbm|vram)\b", cell.lower()) and "bandwidth" not in cell.lower() for _, cell in header[1:])
    tensor_formats = {_dtype(cell.lower()) for _, cell in header[1:] if _TENSOR_UNITS.search(cell)} - {None}
    per_link_table = any(re.search(r"\b(ports?|links?)\s*(/|per)\s*gpu\b", cell.lower()) for _, cell in header)
    for position, (_, cell) in enumerate(header[1:], start=1):
        lowered = cell.lower()
        if "sparse" in lowered or "sparsity" in lowered or position == named:
            continue
        if _VECTOR_UNITS.search(cell) or (_dtype(lowered) in tensor_formats and not _TENSOR_UNITS.search(cell)):
            # The vector units' rate, beside the tensor cores' in the same table: not a peak the data holds.
            continue
        own_unit = _UNIT.search(cell)
        unit = (own_unit or table_unit)
        unit_text = unit.group(1) if unit else ""
        scale = _SCALES.get(unit_text.lower(), 0.0)
        dtype = _dtype(lowered)
        if dtype and (unit_text.lower() in ("tflops", "pflops", "tops") or not unit_text):
            columns[position] = (meaning.dense(dtype), scale)
        elif not unit_text and re.search(r"(memory|hbm|vram)\W+(bandwidth|bw)\b", lowered):
            columns[position] = (meaning.MEMORY_BANDWIDTH, _BYTES_IF_BARE)
        elif not unit_text and re.search(r"\b(memory|hbm|vram)(\W+(capacity|size))?(/(chip|gpu|device))?$", lowered):
            columns[position] = (meaning.MEMORY_CAPACITY, 0.0)
        elif (re.search(r"(memory|hbm|vram)\W+bandwidth", lowered) or (memory_table and "bandwidth" in lowered)) and unit_text.lower() in _BANDWIDTHS:
            columns[position] = (meaning.MEMORY_BANDWIDTH, scale)
        elif re.search(r"\b(memory|hbm|vram)\b", lowered) and "bandwidth" not in lowered and unit_text.lower() in ("gb", "gbs", "gib"):
            columns[position] = (meaning.MEMORY_CAPACITY, scale)
        elif re.search(r"\b(tdp|power)\b", lowered) and unit_text.lower() == "w":
            columns[position] = (meaning.POWER, 1.0)
        elif (per_link_table and re.search(r"nvlink|infinity fabric", lowered) and not re.search(r"gpu|node|total|aggregate", lowered)
              and _direction(lowered) and (unit_text.lower() in _BANDWIDTHS or not unit_text)):
            # "NVLink Bandwidth (GB/s, full-duplex)" beside "NVLink Ports / GPU": one link's rate, the GPU's being the product.
            one_way = _direction(lowered) == meaning.SCALE_UP_PER_DIRECTION
            columns[position] = (meaning.ONE_LINK_PER_DIRECTION if one_way else meaning.ONE_LINK_BIDIRECTIONAL, scale)
        elif re.search(r"nvlink|infinity fabric|scale-up|intra-node", lowered) and (unit_text.lower() in _BANDWIDTHS or not unit_text):
            columns[position] = (_direction(lowered) or _STATED_IN_CELL, scale)
        elif (_direction(lowered) and (unit_text.lower() in _BANDWIDTHS or not unit_text)
              and not re.search(r"\b(total|node|lane|links?)\b", lowered)):
            # A column that names only a direction ("Uni-dir.", "Duplex", or "Unidirection" over cells giving their
            # unit) is judged on rows that name a link.
            one_way = _direction(lowered) == meaning.SCALE_UP_PER_DIRECTION
            columns[position] = (meaning.LINK_PER_DIRECTION if one_way else meaning.LINK_BIDIRECTIONAL, scale)
        elif own_unit and unit_text.lower() in _BANDWIDTHS and _unit_alone(cell) and _prose_direction(prose):
            columns[position] = (_LOOSELY + _prose_direction(prose), scale)
    return columns


# A memory-bandwidth column with no unit ("HBM BW/chip | 3.4e12", the scaling book's tables) writes bytes a second, the
# SI unit; a cell giving its own unit ("2.0 TB/s") is read in it.
_BYTES_IF_BARE = 1.0
_TENSOR_UNITS = re.compile(r"\b(?:tensor|matrix)\b", re.IGNORECASE)
_VECTOR_UNITS = re.compile(r"\bnon-?tensor\b|\bvector\b", re.IGNORECASE)
# A meaning taken from the prose around a table rather than its header: judged as documented loosely.
_LOOSELY = "loosely:"
_PROSE_LINES = 6


def _unit_alone(header: str) -> bool:
    """Whether a header is a unit and nothing else ("GBps", "(GB/s)", "<br>GBps")."""
    return not re.sub(r"<br>|[()\s]", "", _UNIT.sub("", header))


def _prose_before(lines: list[str], header: int) -> str:
    """The paragraph just before a table (blank lines and a bold label such as "**Generally available:**" skipped),
    up to a heading or another table."""
    said: list[str] = []
    index = header - 1
    while index >= 0 and len(said) < _PROSE_LINES:
        line = lines[index].strip()
        index -= 1
        if not line or re.fullmatch(r"\*\*[^*]+\*\*:?", line):
            if said:
                break
            continue
        if line.startswith(("#", "|")):
            break
        said.append(line)
    return " ".join(reversed(said)).lower()


def _prose_direction(prose: str) -> str | None:
    """The scale-up meaning of a table whose sentence says it compares intra-node (scale-up) bandwidth and how it
    counts ("Here is intra-node unidirectional theoretical peak bandwidth"); none for a peer-to-peer comparison, whose
    figures are one link's, not an accelerator's."""
    if not re.search(r"intra-node|scale-up|nvlink", prose) or re.search(r"peer-to-peer|\bp2p\b", prose):
        return None
    return _direction(prose)


_STATED_IN_CELL = "scale_up, counted as the cell says"
_DIRECTION_WORDS = re.compile(r"\s*\(?\b(?:uni|bi)-?directional\b\)?|\s*\b(?:per|each|one)[ -](?:direction|way)\b", re.IGNORECASE)


def _direction(text: str) -> str | None:
    """The scale-up meaning a header or cell gives by naming its direction."""
    # "Full-duplex" is a rate carried in each direction at once (the scaling book: "25GB/s each way"), as networking
    # writes it; "duplex" alone, or "bidirectional", is both directions added.
    if re.search(r"uni-?dir|unidirection|per direction|per-direction|one way|one-way|each way|in each direction|full[\s-]duplex", text):
        return meaning.SCALE_UP_PER_DIRECTION
    if re.search(r"bi-?dir|both directions|duplex", text):
        return meaning.SCALE_UP_BIDIRECTIONAL
    return None


def _dtype(header: str) -> str | None:
    """The number format a column header names ('bf16', 'BF16 (TFLOPS)', 'FP16/BF16 dense'), if it names one."""
    named = [dtype for dtype in _DTYPES if dtype in re.findall(r"[a-z0-9]+", header)]
    if set(named) == {"bf16", "fp16"}:
        return "16bit"
    return named[0] if len(named) == 1 else None


def _row(line: str, number: int, header: list[tuple[int, str]], columns: dict[int, tuple[str, float]], named: int = 0,
         starred_sparse: bool = False) -> list[Field]:
    cells = _cells(line)
    if len(cells) <= named:
        return []
    part = _part(cells[named][1]) or (_part(cells[0][1]) if named else "")
    if not part:
        return []
    found = []
    for position, (quantity, scale) in columns.items():
        if position >= len(cells):
            continue
        column, cell = cells[position]
        loose = quantity.startswith(_LOOSELY)
        quantity = quantity.removeprefix(_LOOSELY)
        if quantity == _STATED_IN_CELL:
            quantity = _direction(cell.lower())
            if quantity is None:
                continue
        # A cell may name its own number format after the value ("3958 TFLOPS (FP8)" under "FP8 / INT8"), or restate it in
        # another unit ("**3,000 GB/s (3.0 TB/s)**"); bold around the whole cell is markup.
        cell = cell.strip()
        if cell.startswith("**") and cell.endswith("**") and len(cell) > 4:
            cell = cell[2:-2].strip()
        said = re.search(r"\(([^)]*[a-zA-Z][^)]*)\)\s*$", cell)
        if said and quantity.startswith(meaning.DENSE) and _dtype(said.group(1).lower()):
            quantity = meaning.dense(_dtype(said.group(1).lower()))
        if said and not _direction(said.group(1).lower()):
            cell = cell[:said.start()].rstrip()
        bare = _DIRECTION_WORDS.sub("", cell)
        if starred_sparse and quantity.startswith(meaning.DENSE):
            bare = _dense_of_pair(bare)
        if not scale and quantity.startswith(meaning.DENSE) and _written_in_tflops(bare):
            scale = 1e12  # "| FP16 | ... | 1,979 |": a format's peak with no unit anywhere can only be in TFLOPS
        value = _value(bare, scale)
        if value is None:
            continue
        key = f"{part} / {header[position][1]}"
        unit = ""
        if not scale:
            # The cell's own unit, for a replacement written alike ("989 TFLOPS").
            written = _NUMBER.match(bare.replace("**", "").strip())
            if written is None or not float(written.group(1).replace(",", "")):
                continue
            scale, unit = value / float(written.group(1).replace(",", "")), f" {written.group(2)}"
        found.append(Field(number, column, key, cell, value, scale, unit, part, quantity, loose=loose,
                           either_gb=quantity == meaning.MEMORY_CAPACITY))
    return found


def _written_in_tflops(cell: str) -> bool:
    """Whether a cell is a bare number from 10 to 100,000: a peak written with no unit, which only TFLOPS can be (no
    accelerator's 16- or 8-bit peak is below 1e11 FLOP/s, and one in GFLOPS would be a part of under 100 TFLOPS)."""
    match = _NUMBER.match(cell.replace("**", "").strip())
    return bool(match) and not match.group(2) and 10 <= float(match.group(1).replace(",", "")) < 1e5


_STARRED_PAIR = re.compile(r"^\s*([^/*]+?)(\**)\s*/\s*([^/*]+?)(\**)\s*$")


def _dense_of_pair(cell: str) -> str:
    """Of a cell giving a peak without and with sparsity ("1125 / 2250*", the star marking the sparse one as the file's
    notes say), the one without; any other cell as it is."""
    pair = _STARRED_PAIR.match(cell)
    if pair is None or bool(pair.group(2)) == bool(pair.group(4)):
        return cell
    return pair.group(3) if pair.group(2) else pair.group(1)


# A name's aside in brackets that says no variant: the architecture or a remark ("H100 SXM (Hopper)", "B200 (Blackwell,
# dual-die)"); an aside naming a memory size or a form factor ("A100 (80GB)", "H100 (SXM5)") is kept, as it says which variant.
_ASIDE = re.compile(r"\s*\((?![^)]*(?:\d\s*G(?:i)?B|SXM|PCIe|NVL|OAM|HGX|DGX))[^()]*\)\s*$", re.IGNORECASE)
_FOOTNOTE = re.compile(r"(?:\s*\(\d+\)|\s*\[\d+\]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)+$")


def _part(cell: str) -> str:
    """The part a cell names, without markup and footnote marks ("NVIDIA GH200 SXM (1)"); of several ("H100, H200,
    GH200", "B200, B*"), the first, which the row's figures are given for."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell)
    # Bold, code and emphasis are markup; a star left inside a name ("B*", escaped "B\\*") is a wildcard.
    text = re.sub(r"\*\*|`|(?<!\w)_+|_+(?!\w)", "", text).replace("\\*", "*").strip("* ")
    text = _ASIDE.sub("", text).strip()
    named = [name.strip() for name in text.split(",") if name.strip() and "*" not in name]
    return _FOOTNOTE.sub("", named[0]).strip() if named else ""


_PRODUCT = re.compile(r"^(\d[\d,]*(?:\.\d+)?)\s*[x×]\s*(\d+)$")


def _value(cell: str, scale: float) -> float | None:
    """A cell's value in SI units: a bare number in the header's unit, or a quantity with its own unit."""
    # Bold, and a footnote mark after the number ("989*", "989¹", "989 [2]"), are not part of it.
    cell = re.sub(r"(\*+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+|\s*\[\d+\]|\s*\(\d+\))$", "", cell.replace("**", "").strip())
    product = _PRODUCT.match(cell)
    if product:
        # "4100 x 2": a rate per die (or stack) times their count.
        each = _value(product.group(1), scale)
        return None if each is None else each * float(product.group(2))
    match = _NUMBER.match(cell)
    if match is None:
        return None
    number, unit = match.groups()
    number = number.replace(",", "")
    if unit and _UNIT.fullmatch(unit):
        # The table's own spellings: "GBps" is bytes here (ml-engineering: "1 GBps = 8 Gbps"), as in its headers.
        return float(number) * _SCALES[unit.lower()]
    if unit:
        try:
            return parse_quantity(f"{number} {unit}").value
        except UnitError:
            return None
    return float(number) * scale if scale else None
