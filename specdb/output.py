"""Render rows (a list of dicts with the same keys) as a table, JSON, CSV or Markdown.

Written here rather than with a table library: the ones that do this well
cost more at import than a whole read command is allowed to take.
"""

from __future__ import annotations

import json
import math
from typing import Any, Iterable, Sequence

FORMATS = ("table", "json", "csv", "markdown")


def render(rows: Sequence[dict[str, Any]], fmt: str, columns: Iterable[str] | None = None, document: Any = None) -> str:
    """One renderer for lists and single objects: rows as a table, CSV or Markdown with these columns, and as JSON
    the same rows with the same columns, or `document` (a single object shown whole) when there is one."""
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
    return text_table(rows, columns)


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


def text_table(rows: Sequence[dict[str, Any]], columns: list[str]) -> str:
    if not rows:
        return "(no rows)\n"
    cells = [[_cell(row.get(column)) for column in columns] for row in rows]
    widths = [max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)]
    numeric = [all(_is_number(row.get(column)) or row.get(column) is None for row in rows) for column in columns]

    def line(values: list[str]) -> str:
        parts = [value.rjust(width) if right else value.ljust(width) for value, width, right in zip(values, widths, numeric)]
        return "  ".join(parts).rstrip()

    header = line(columns)
    rule = "  ".join("-" * width for width in widths)
    return "\n".join([header, rule, *(line(values) for values in cells)]) + "\n"


def markdown_table(rows: Sequence[dict[str, Any]], columns: list[str]) -> str:
    def escape(text: str) -> str:
        return text.replace("|", "\\|")

    numeric = [bool(rows) and all(_is_number(row.get(column)) or row.get(column) is None for row in rows) for column in columns]
    out = ["| " + " | ".join(columns) + " |", "|" + "|".join("---:" if right else "---" for right in numeric) + "|"]
    for row in rows:
        out.append("| " + " | ".join(escape(_cell(row.get(column))) for column in columns) + " |")
    return "\n".join(out) + "\n"
