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
import re
from collections.abc import Mapping
from typing import Any, Iterable, NamedTuple, Sequence, TextIO

FORMATS = ("table", "json", "csv", "markdown")
# A text column is never cut narrower than this: four characters and the ellipsis still hint at what was there.
NARROWEST_CUT = 5
# The first column names its row: it gives way only after the others, and keeps more.
NARROWEST_FIRST = 16
ELLIPSIS = "\u2026"


Row = Mapping[str, Any] | Sequence[Any]


def render(
    rows: Sequence[Row], fmt: str, columns: Iterable[str] | None = None, document: Any = None, width: int | None = None, *,
    priority: Sequence[str] | None = None, vertical_when_narrow: bool = False, colour: bool = False,
) -> str:
    """One renderer for lists and single objects: rows as a table, CSV or Markdown with these columns, and as JSON
    the same rows with the same columns, or `document` (a single object shown whole) when there is one.

    Rows that are not dicts are read by position and need `columns`. `width`, `priority`, `vertical_when_narrow` and
    `colour` shape a table for a terminal (see `text_table`); the other formats never cut anything."""
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
    return text_table(rows, columns, width, priority=priority, vertical_when_narrow=vertical_when_narrow, colour=colour)


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


def text_table(
    rows: Sequence[Row], columns: list[str], width: int | None = None, *, priority: Sequence[str] | None = None,
    vertical_when_narrow: bool = False, colour: bool = False,
) -> str:
    """Aligned columns, numbers to the right. Given a `width` (a terminal's), no line is wider than it:

    1. a header wider than its column is wrapped at its underscores (`memory_to_scale_up` over two lines);
    2. text columns are cut, the widest first, each cut cell ending in an ellipsis, down to `NARROWEST_CUT`; then the
       first column, which names the row, down to `NARROWEST_FIRST`;
    3. then whole columns are left out, the last in `priority` (default: the columns' order) first, and a line under
       the table names them.

    Numbers, quantities written with their unit and dates are never cut. With
    `vertical_when_narrow`, a table that would need step 2 or 3 is shown as one block per row instead (see `vertical`).
    `colour` makes the header bold and known verdicts coloured (see `colour_enabled`)."""
    if not rows:
        return "(no rows)\n"
    values = _values(rows, columns)
    cells = [[_cell(value) for value in line] for line in values]
    numeric = _numeric(values, len(columns))
    layout = _layout(columns, cells, numeric, width, priority)
    if vertical_when_narrow and (layout.cut or layout.left_out):
        return vertical(columns, cells, width)
    shown, widths = layout.shown, layout.widths

    def line(parts: list[str], painted: bool = False) -> str:
        out = []
        for position, (index, text) in enumerate(zip(shown, parts)):
            text = _cut(text, widths[position])
            padded = text.rjust(widths[position]) if numeric[index] else text.ljust(widths[position])
            out.append(_paint(padded, columns[index], text) if painted and colour else padded)
        return "  ".join(out).rstrip()

    header_lines = _header_lines([columns[index] for index in shown], widths)
    header = [line(parts) for parts in header_lines]
    if colour:
        header = [f"{BOLD}{text}{RESET}" for text in header]
    rule = "  ".join("-" * column_width for column_width in widths)
    body = [line([row[index] for index in shown], painted=True) for row in cells]
    note = wrapped(f"({len(layout.left_out)} column{'s' if len(layout.left_out) > 1 else ''} left out to fit {width} characters: "
                   f"{', '.join(layout.left_out)}; a wider window or --format csv shows every column)", width, indent=1) if layout.left_out else []
    return "\n".join([*header, rule, *body, *note]) + "\n"


# A number with its unit or words after a space ("3.35 TB/s", "2 x 19.08 us", "61%"), or a date: cut, it would mislead.
_QUANTITY = re.compile(r"[-+]?\d[\d.,]*(?:e[-+]?\d+)?(?:%|\s.*)?|\d{4}-\d{2}(?:-\d{2})?(?:T\S*)?")


class _Layout(NamedTuple):
    shown: list[int]  # the columns shown, by index, in their order
    widths: list[int]  # each shown column's width
    cut: bool  # whether a cell had to be cut
    left_out: list[str]  # the columns left out, by name


def _layout(columns: list[str], cells: list[list[str]], numeric: list[bool], width: int | None, priority: Sequence[str] | None) -> _Layout:
    natural = [max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)]
    everything = list(range(len(columns)))
    if width is None or sum(natural) + 2 * (len(columns) - 1) <= width:
        return _Layout(everything, natural, False, [])
    whole = [numeric[i] or all(not line[i] or _QUANTITY.fullmatch(line[i]) for line in cells) for i in everything]
    content = [max(len(line[i]) for line in cells) for i in everything]
    header = [max(len(part) for part in _header_parts(column)) for column in columns]
    # Where a column may stop: whole columns and headers keep every character; text gives way down to a floor.
    floors = [
        max(content[i], header[i]) if whole[i] else max(header[i], min(content[i], NARROWEST_FIRST if i == 0 else NARROWEST_CUT))
        for i in everything
    ]
    ranked = [columns.index(name) for name in dict.fromkeys(priority or ()) if name in columns]
    ranked += [i for i in everything if i not in ranked]
    ranked = [0] + [i for i in ranked if i != 0]
    shown = sorted(ranked)
    while True:
        room = width - 2 * (len(shown) - 1)
        widths = {i: max(content[i], header[i]) for i in shown}
        if sum(widths.values()) > room:
            # The widest text columns give way first, to a common limit; the first column only after the others.
            for group in ([i for i in shown if i != 0 and not whole[i]], [0] if 0 in shown and not whole[0] else []):
                excess = sum(widths.values()) - room
                if excess <= 0 or not group:
                    continue
                limit = max(widths[i] for i in group)
                while excess > 0 and limit > min(floors[i] for i in group):
                    limit -= 1
                    excess = sum(max(floors[i], min(widths[i], limit)) if i in group else widths[i] for i in shown) - room
                for i in group:
                    widths[i] = max(floors[i], min(widths[i], limit))
        if sum(widths.values()) <= room or len(shown) == 1:
            left_out = [columns[i] for i in everything if i not in shown]
            cut = any(widths[i] < content[i] for i in shown)
            return _Layout(shown, [widths[i] for i in shown], cut, left_out)
        dropped = next(i for i in reversed(ranked) if i in shown)
        shown.remove(dropped)


def _header_parts(column: str) -> list[str]:
    """A header's pieces, each but the first starting at an underscore: where it may wrap."""
    return re.split(r"(?=_)", column) if "_" in column.strip("_") else [column]


def _header_lines(headers: list[str], widths: list[int]) -> list[list[str]]:
    """Each header packed into lines no wider than its column, as many lines as the tallest needs."""
    packed = []
    for header, column_width in zip(headers, widths):
        lines: list[str] = []
        for part in _header_parts(header):
            if lines and len(lines[-1]) + len(part) <= column_width:
                lines[-1] += part
            else:
                lines.append(part)
        packed.append(lines)
    height = max(len(lines) for lines in packed)
    return [[lines[row] if row < len(lines) else "" for lines in packed] for row in range(height)]


def vertical(columns: list[str], cells: list[list[str]], width: int | None) -> str:
    """One block per row: its first column, then each other column's name and value, indented, long values wrapped."""
    label = max(len(column) for column in columns[1:]) if len(columns) > 1 else 0
    out = []
    for row in cells:
        out.append(row[0])
        for column, text in zip(columns[1:], row[1:]):
            if text:
                out.extend(wrapped(f"  {column.ljust(label)}  {text}", width, indent=label + 4))
    return "\n".join(out) + "\n"


def wrapped(text: str, width: int | None, indent: int = 4) -> list[str]:
    """A line as lines no wider than `width` (a terminal's), broken at spaces, later lines indented; whole without a width."""
    if width is None or len(text) <= width:
        return [text]
    import textwrap  # here, not at the top: only a line too long for a terminal needs it

    lead = len(text) - len(text.lstrip(" "))
    return textwrap.wrap(text, width, initial_indent="", subsequent_indent=" " * max(indent, lead), break_on_hyphens=False,
                         drop_whitespace=True) or [text]


def wrapped_lines(lines: Iterable[str], width: int | None, indent: int = 4) -> str:
    """Lines (each may hold line breaks) as text no wider than `width`, each ending in a newline (see `wrapped`)."""
    return "".join(f"{part}\n" for line in lines for piece in line.split("\n") for part in wrapped(piece, width, indent))


# ANSI styles for a terminal; `colour_enabled` says when to use them.
BOLD, RESET = "\033[1m", "\033[0m"
_VERDICT_COLOURS = {"error": "\033[31m", "mismatch": "\033[31m", "stale": "\033[33m", "warn": "\033[33m", "mixed-basis": "\033[33m",
                    "ambiguous": "\033[33m", "ok": "\033[32m", "changed": "\033[33m", "unreachable": "\033[33m", "gone": "\033[31m",
                    "moved": "\033[31m", "quote-missing": "\033[31m", "quote-found": "\033[32m"}
_COLOURED_COLUMNS = ("level", "verdict", "source_status", "quote_status")


def colour_enabled(stream: TextIO) -> bool:
    """Colour on a terminal only, and never when NO_COLOR is set to anything (https://no-color.org) or TERM is dumb."""
    import os

    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _paint(padded: str, column: str, text: str) -> str:
    colour = _VERDICT_COLOURS.get(text) if column in _COLOURED_COLUMNS else None
    return f"{colour}{padded}{RESET}" if colour else padded


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


def counted(records: int, sources: int, figures: int) -> str:
    """What a version of the data holds, in the words `validate`, `build` and `info` share: "79 records, 150 sources, 389 figures"."""
    return f"{records:,} record{'s' * (records != 1)}, {sources:,} source{'s' * (sources != 1)}, {figures:,} figure{'s' * (figures != 1)}"


def tally(noun: str, verdicts: Sequence[str], findings: Sequence[Any]) -> str:
    """How many findings, and how many of each verdict in the order given: "31 claims: 27 ok, 2 mixed-basis"."""
    counts = {verdict: sum(1 for finding in findings if finding.verdict == verdict) for verdict in verdicts}
    parts = ", ".join(f"{count} {verdict}" for verdict, count in counts.items() if count)
    return f"{len(findings)} {noun}{'' if len(findings) == 1 else 's'}{': ' + parts if parts else ''}"
