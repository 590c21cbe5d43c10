"""Render rows as a table, JSON, CSV or Markdown: dicts read by column name, or tuples read by position.

A query's result is given as tuples, because two of its columns may share a
name (`SELECT f.name, r.name ...`): every column is kept, in order, in every
format; JSON, whose objects cannot repeat a key, suffixes the repeats (see `json_keys`).

Written here rather than with a table library: the ones that do this well
cost more at import than a whole read command is allowed to take.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Iterable, Sequence, TextIO

FORMATS = ("table", "json", "csv", "markdown")
# A text column is never cut narrower than this: four characters and the ellipsis still hint at what was there.
NARROWEST_CUT = 5
ELLIPSIS = "\u2026"


Row = Mapping[str, Any] | Sequence[Any]


def render(rows: Sequence[Row], fmt: str, columns: Iterable[str] | None = None, document: Any = None, width: int | None = None) -> str:
    """One renderer for lists and single objects: rows as a table, CSV or Markdown with these columns, and as JSON
    the same rows with the same columns, or `document` (a single object shown whole) when there is one.

    Rows that are not dicts are read by position and need `columns`. `width` fits a table to that many characters
    (see `text_table`); the other formats never cut anything."""
    columns = list(columns) if columns is not None else (list(rows[0]) if rows else [])
    if fmt == "json":
        keys = json_keys(columns)
        return to_json(document if document is not None else [dict(zip(keys, values)) for values in _values(rows, columns)])
    if fmt == "csv":
        import csv  # here, not at the top: a read command in another format should not pay for it
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([_cell(value) for value in values] for values in _values(rows, columns))
        return buffer.getvalue()
    if fmt == "markdown":
        return markdown_table(rows, columns)
    return text_table(rows, columns, width)


def json_keys(columns: Sequence[str]) -> list[str]:
    """The columns as JSON object keys: each name once, a repeated name suffixed `_2`, `_3`, ... with a number
    that no column already uses, so `a, a, a_2` gives `a, a_3, a_2`."""
    taken = set(columns)
    seen: set[str] = set()
    keys = []
    for column in columns:
        key = column
        if column in seen:
            number = 2
            while f"{column}_{number}" in taken:
                number += 1
            key = f"{column}_{number}"
            taken.add(key)
        seen.add(column)
        keys.append(key)
    return keys


def _values(rows: Sequence[Row], columns: Sequence[str]) -> list[list[Any]]:
    """Each row's values in the order of `columns`: a dict by name, anything else by position."""
    return [[row.get(column) for column in columns] if isinstance(row, Mapping) else list(row) for row in rows]


def terminal_width(stream: TextIO) -> int | None:
    """The width of the terminal the stream writes to, or None when it is not a terminal (a pipe or a file gets every character)."""
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):
        return None
    if not interactive:
        return None
    import shutil  # here, not at the top: it imports the compression modules, and a pipe never needs it

    return shutil.get_terminal_size().columns


def to_json(data: Any) -> str:
    """Strict JSON (RFC 8259) of any result: blobs as Datasette writes them, non-finite numbers as their names in strings."""
    return json.dumps(_json_safe(data), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _json_safe(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$base64": True, "encoded": _base64(value)}
    if isinstance(value, dict):
        return {key: _json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(item) for item in value]
    return value


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _base64(value)
    if isinstance(value, float):
        return exact_number(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_cell(item) for item in value)
    return str(value)


def _base64(value: bytes | bytearray | memoryview) -> str:
    import base64

    return base64.b64encode(bytes(value)).decode("ascii")


def exact_number(value: float) -> str:
    """The stored float exactly: whole numbers in plain digits (102005473280, not 1.02005e+11), others
    as the shortest text that reads back to the same float."""
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return repr(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def text_table(rows: Sequence[Row], columns: list[str], width: int | None = None) -> str:
    """Aligned columns, numbers to the right. Given a `width`, the widest text columns are cut, each cell that no longer
    fits ending in an ellipsis, until the lines fit; the first column and numbers are never cut, nor a text column
    below `NARROWEST_CUT` (the lines are then as wide as that leaves them)."""
    if not rows:
        return "(no rows)\n"
    values = _values(rows, columns)
    cells = [[_cell(value) for value in line] for line in values]
    widths = [max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)]
    numeric = _numeric(values, len(columns))
    if width is not None:
        widths = _fitted(widths, numeric, width - 2 * (len(columns) - 1))

    def line(values: list[str]) -> str:
        parts = [_cut(value, width).rjust(width) if right else _cut(value, width).ljust(width) for value, width, right in zip(values, widths, numeric)]
        return "  ".join(parts).rstrip()

    header = line(columns)
    rule = "  ".join("-" * width for width in widths)
    return "\n".join([header, rule, *(line(values) for values in cells)]) + "\n"


def _fitted(widths: list[int], numeric: list[bool], room: int) -> list[int]:
    """Column widths summing to at most `room` where they can: the text columns wider than a common limit are cut to
    it, the highest limit that fits, so the widest columns give way first and narrow ones keep every character.
    The first column names the row and numbers must stay exact: neither is cut."""
    kept = [index == 0 or right for index, right in enumerate(numeric)]
    fixed = sum(width for width, keep in zip(widths, kept) if keep)
    text = [width for width, keep in zip(widths, kept) if not keep]
    if not text or fixed + sum(text) <= room:
        return widths
    limit = max(text)
    while limit > NARROWEST_CUT and fixed + sum(min(width, limit) for width in text) > room:
        limit -= 1
    return [width if keep else min(width, limit) for width, keep in zip(widths, kept)]


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + ELLIPSIS


def _numeric(values: list[list[Any]], count: int) -> list[bool]:
    """Per column, whether every value in it is a number or empty: such a column is aligned right."""
    return [bool(values) and all(_is_number(line[i]) or line[i] is None for line in values) for i in range(count)]


def markdown_table(rows: Sequence[Row], columns: list[str]) -> str:
    def escape(text: str) -> str:
        return text.replace("|", "\\|")

    values = _values(rows, columns)
    numeric = _numeric(values, len(columns))
    out = ["| " + " | ".join(escape(column) for column in columns) + " |", "|" + "|".join("---:" if right else "---" for right in numeric) + "|"]
    for line in values:
        out.append("| " + " | ".join(escape(_cell(value)) for value in line) + " |")
    return "\n".join(out) + "\n"
