"""Epoch AI's Machine Learning Hardware CSV (`ml_hardware.csv`, described at
https://epoch.ai/data/machine-learning-hardware-documentation): one row per accelerator, units in the column names.

Columns judged, with their units as the header states them: "Tensor-FP16/BF16 performance (FLOP/s)" (the 16-bit tensor
rate), "FP8 performance (FLOP/s)", "FP4 performance (FLOP/s)", "INT8 performance (OP/s)", "Memory (bytes)", "Memory
bandwidth (byte/s)", "TDP (W)". The columns do not say whether a rate is dense; they are judged as dense peaks, so a
value at twice the dense peak is reported as sparse-as-dense for a reader to confirm. "Memory (bytes)" is read as the
vendor's GB or GiB (the file writes 80e9 for parts that hold 80 GiB). The interconnect columns do not say how they
count directions and are not judged.
"""

from __future__ import annotations

import csv
import io

from specdb.audit import fields as meaning
from specdb.audit.fields import Field, UnreadableTable
from specdb.textfile import line_and_column

NAME = "epoch"
NAME_COLUMN = "Hardware name"
COLUMNS = {
    "Tensor-FP16/BF16 performance (FLOP/s)": meaning.dense("16bit"),
    "FP8 performance (FLOP/s)": meaning.dense("fp8"),
    "FP4 performance (FLOP/s)": meaning.dense("fp4"),
    "INT8 performance (OP/s)": meaning.dense("int8"),
    "Memory (bytes)": meaning.MEMORY_CAPACITY,
    "Memory bandwidth (byte/s)": meaning.MEMORY_BANDWIDTH,
    "TDP (W)": meaning.POWER,
}


def looks_like(path: str, text: str) -> bool:
    return text.lstrip("\ufeff").startswith(NAME_COLUMN + ",")


def read(path: str, text: str) -> list[Field]:
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), strict=True)
    try:
        header = next(reader)
    except (StopIteration, csv.Error) as error:
        raise UnreadableTable(path, f"CSV: {error or 'empty file'}", 1, 1) from None
    if NAME_COLUMN not in header:
        raise UnreadableTable(path, f"no '{NAME_COLUMN}' column in the header", 1, 1)
    name_at = header.index(NAME_COLUMN)
    judged = {index: COLUMNS[column] for index, column in enumerate(header) if column in COLUMNS}
    lines = text.lstrip("\ufeff").splitlines()
    found: list[Field] = []
    start = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            raise UnreadableTable(path, f"CSV: {error}", reader.line_num, 1) from None
        if len(row) > name_at and row[name_at].strip():
            found.extend(_fields(row, start, "\n".join(lines[start - 1:reader.line_num]), header, judged, row[name_at].strip()))
        start = reader.line_num + 1
    return found


def _fields(row: list[str], first_line: int, record: str, header: list[str], judged: dict[int, str], part: str) -> list[Field]:
    """The judged cells of one record, each at the line and column where it is written (a quoted note may run over
    several lines before it)."""
    found = []
    searched = 0
    for index, quantity in judged.items():
        if index >= len(row) or not row[index].strip():
            continue
        try:
            value = float(row[index])
        except ValueError:
            continue
        at = record.find("," + row[index], searched)
        at = at + 1 if at >= 0 else record.find(row[index], searched)
        if at >= 0:
            searched = at + len(row[index])
            line, column = line_and_column(record, at)
            line += first_line - 1
        else:
            line, column = first_line, 1
        found.append(Field(line, column, f"{part} / {header[index]}", row[index], value, 1.0, "", part, quantity,
                           either_gb=quantity == meaning.MEMORY_CAPACITY))
    return found
