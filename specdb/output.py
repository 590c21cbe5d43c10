"""Render rows (a list of dicts with the same keys) as a table, JSON, CSV or Markdown.

Written here rather than with a table library: the ones that do this well
cost more at import than a whole read command is allowed to take.
"""

from __future__ import annotations

import json
import math
from typing import Any, Iterable, Sequence, TextIO

FORMATS = ("table", "json", "csv", "markdown")
# A text column is never cut narrower than this: four characters and the ellipsis still hint at what was there.
NARROWEST_CUT = 5
ELLIPSIS = "\u2026"


def render(
    rows: Sequence[dict[str, Any]], fmt: str, columns: Iterable[str] | None = None, document: Any = None, width: int | None = None
) -> str:
    """One renderer for lists and single objects: rows as a table, CSV or Markdown with these columns, and as JSON
    the same rows with the same columns, or `document` (a single object shown whole) when there is one.

    `width` fits a table to that many characters (see `text_table`); the other formats never cut anything."""
    columns = list(columns) if columns is not None else (list(rows[0]) if rows else [])
    if fmt == "json":
        return to_json(document if document is not None else [{column: row.get(column) for column in columns} for row in rows])
    if fmt == "csv":
        import csv  # here, not at the top: a read command in another format should not pay for it
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([_cell(row.get(column)) for column in columns] for row in rows)
        return buffer.getvalue()
    if fmt == "markdown":
        return markdown_table(rows, columns)
    return text_table(rows, columns, width)


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


def text_table(rows: Sequence[dict[str, Any]], columns: list[str], width: int | None = None) -> str:
    """Aligned columns, numbers to the right. Given a `width`, the widest text columns are cut, each cell that no longer
    fits ending in an ellipsis, until the lines fit; the first column and numbers are never cut, nor a text column
    below `NARROWEST_CUT` (the lines are then as wide as that leaves them)."""
    if not rows:
        return "(no rows)\n"
    cells = [[_cell(row.get(column)) for column in columns] for row in rows]
    widths = [max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)]
    numeric = [all(_is_number(row.get(column)) or row.get(column) is None for row in rows) for column in columns]
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


def markdown_table(rows: Sequence[dict[str, Any]], columns: list[str]) -> str:
    def escape(text: str) -> str:
        return text.replace("|", "\\|")

    numeric = [bool(rows) and all(_is_number(row.get(column)) or row.get(column) is None for row in rows) for column in columns]
    out = ["| " + " | ".join(columns) + " |", "|" + "|".join("---:" if right else "---" for right in numeric) + "|"]
    for row in rows:
        out.append("| " + " | ".join(escape(_cell(row.get(column))) for column in columns) + " |")
    return "\n".join(out) + "\n"
