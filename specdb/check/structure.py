"""The tables of a Markdown or HTML page, read with real parsers: each cell's place in the file, its column's header and its row's label.

A figure in a table cell is read with the words its cell inherits: the column
header gives its quantity, unit and counting ("NVLink (Unidirectional)",
"Memory (GB)"), the row label names the part, and the caption says what the
table is about. Markdown is parsed by markdown-it-py, whose tokens carry the
source lines of each table row; HTML by lxml, whose elements carry the
source line of their start tag. Cells are located on those lines, so every
offset is the file's own.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Cell:
    """A table cell: its content's stretch of the file, the header of its column and the label of its row (None for the label itself)."""

    start: int
    end: int
    header: Span | None
    label: Span | None
    caption: Span | None


# Where cells open and where a cell's content stops, in HTML.
_HTML_CELL_OPEN = re.compile(r"<(td|th)\b[^<>]*>", re.IGNORECASE)
_HTML_CELL_BOUNDARY = re.compile(r"</?(?:td|th|tr|table|thead|tbody|tfoot|caption)\b[^<>]*>", re.IGNORECASE)
_DELIMITER_ROW = re.compile(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$", re.MULTILINE)
_HTML_CAPTION = re.compile(r"<caption\b[^<>]*>", re.IGNORECASE)


def tables(source: str, text: str, fmt: str, line_starts: list[int]) -> tuple[Cell, ...]:
    """Every table cell of a page ("text", "markdown" or "html"; in plain text, pipe tables), in reading order.

    `text` is the page with scripts, styles and comments blanked, the same length as `source`.
    """
    if fmt == "markdown":
        parsed = _markdown_cells(source, line_starts)
        read = {bisect_right(line_starts, cell.start) for cell in parsed}
        return tuple(sorted((*parsed, *_pipe_tables(source, line_starts, read)), key=lambda cell: cell.start))
    if fmt == "html":
        return _html_cells(source, text, line_starts)
    return _pipe_tables(source, line_starts, set())


# Markdown -------------------------------------------------------------------------------------------------------

def _markdown_cells(source: str, line_starts: list[int]) -> tuple[Cell, ...]:
    from markdown_it import MarkdownIt  # only a Markdown page needs the parser

    cells: list[Cell] = []
    header: list[Span] = []
    caption: Span | None = None
    last_block: Span | None = None
    for token in MarkdownIt("commonmark").enable("table").parse(source):
        if token.type == "inline" and token.map and token.level <= 1:
            last_block = _line_span(source, line_starts, token.map[0], token.map[1])
        if token.type == "table_open":
            header, caption = [], last_block
        elif token.type == "tr_open" and token.map:
            row = _pipe_cells(source, line_starts, token.map[0])
            if not header:
                header = row
                continue
            for column, span in enumerate(row):
                cells.append(Cell(span.start, span.end, header[column] if column < len(header) else None,
                                  row[0] if column else None, caption))
    return tuple(cells)


def _pipe_tables(source: str, line_starts: list[int], read: set[int]) -> tuple[Cell, ...]:
    """Pipe tables the Markdown parser did not take as tables (one continuing a list item, or in plain text): a row of
    cells, a delimiter row ("|---|:--:|"), then rows that start with a pipe."""
    cells: list[Cell] = []
    for delimiter in _DELIMITER_ROW.finditer(source):
        line = bisect_right(line_starts, delimiter.start())  # 1-based
        if line < 2 or line + 1 in read or "|" not in source[line_starts[line - 2]:delimiter.start()]:
            continue
        header = _pipe_cells(source, line_starts, line - 2)
        row = line + 1
        while row <= len(line_starts) and source[line_starts[row - 1]:].lstrip(" ").startswith("|"):
            spans = _pipe_cells(source, line_starts, row - 1)
            cells += [Cell(span.start, span.end, header[column] if column < len(header) else None,
                           spans[0] if column else None, None) for column, span in enumerate(spans)]
            row += 1
    return tuple(cells)


def _line_span(source: str, line_starts: list[int], first: int, end: int) -> Span:
    start = line_starts[first] if first < len(line_starts) else len(source)
    stop = line_starts[end] - 1 if end < len(line_starts) else len(source)
    return Span(start, max(start, stop))


def _pipe_cells(source: str, line_starts: list[int], line: int) -> list[Span]:
    """The cells of one table row, between the pipes of its line (a pipe escaped or inside a code span separates nothing)."""
    span = _line_span(source, line_starts, line, line + 1)
    row = source[span.start:span.end]
    pipes, code, escaped = [], False, False
    for offset, char in enumerate(row):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "`":
            code = not code
        elif char == "|" and not code:
            pipes.append(offset)
    bounds = [-1, *pipes, len(row)]
    cells = []
    for index, (left, right) in enumerate(zip(bounds, bounds[1:])):
        piece = row[left + 1:right]
        if not piece.strip() and index in (0, len(bounds) - 2):
            continue  # outside the leading or trailing pipe
        stripped = len(piece) - len(piece.lstrip())
        cells.append(Span(span.start + left + 1 + stripped, span.start + left + 1 + len(piece.rstrip())))
    return cells


# HTML -----------------------------------------------------------------------------------------------------------

def _html_cells(source: str, text: str, line_starts: list[int]) -> tuple[Cell, ...]:
    import lxml.etree
    import lxml.html  # only an HTML page needs the parser

    try:
        root = lxml.html.document_fromstring(source)
    except (lxml.etree.ParserError, ValueError):
        return ()  # nothing an HTML parser can build a tree of: the page is read as text
    # Cell start tags in the file, in order; the parser's cells are matched to them by line and order.
    openings = [(match.start(), match.end(), match[1].casefold()) for match in _HTML_CELL_OPEN.finditer(text)]
    boundaries = [match.start() for match in _HTML_CELL_BOUNDARY.finditer(text)]
    captions = [match.end() for match in _HTML_CAPTION.finditer(text)]
    opening_lines = [bisect_right(line_starts, start) for start, _, _ in openings]
    cursor = 0
    cells: list[Cell] = []

    def locate(element) -> Span | None:
        nonlocal cursor
        line = element.sourceline or 0
        at = cursor
        while at < len(openings) and (opening_lines[at] < line or openings[at][2] != element.tag):
            at += 1
        if at == len(openings):
            return None
        cursor = at + 1
        content_start = openings[at][1]
        stop = boundaries[bisect_right(boundaries, content_start)] if bisect_right(boundaries, content_start) < len(boundaries) else len(text)
        return Span(content_start, stop)

    for table in root.iter("table"):
        caption = None
        caption_element = table.find("caption")
        if caption_element is not None and caption_element.sourceline:
            line_start = line_starts[caption_element.sourceline - 1]
            after = captions[bisect_right(captions, line_start - 1):]
            if after:
                stop = boundaries[bisect_right(boundaries, after[0])] if bisect_right(boundaries, after[0]) < len(boundaries) else len(text)
                caption = Span(after[0], stop)
        header: list[Span | None] = []
        for row in table.iter("tr"):
            if _nearest_table(row) is not table:
                continue
            elements = [child for child in row if isinstance(child.tag, str) and child.tag in ("td", "th")]
            spans = [locate(element) for element in elements]
            if not header and elements and all(element.tag == "th" for element in elements):
                header = spans
                continue
            label = spans[0] if len(spans) > 1 else None
            for column, span in enumerate(spans):
                if span is not None:
                    cells.append(Cell(span.start, span.end, header[column] if column < len(header) else None,
                                      label if column else None, caption))
    return tuple(sorted(cells, key=lambda cell: cell.start))


def _nearest_table(element):
    parent = element.getparent()
    while parent is not None and parent.tag != "table":
        parent = parent.getparent()
    return parent
