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
from itertools import pairwise


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
# Written so that no two parts can match the same spaces: a line of spaces fails at once, not after trying each split.
_DELIMITER_ROW = re.compile(r"^[ \t]*(?:\|[ \t]*)?:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$", re.MULTILINE)
_ESCAPE_CODE_OR_PIPE = re.compile(r"\\.|`[^`\n]*`|\|")
# A body row holds a pipe; GitHub's tables need none at the row's start ("NVIDIA H100 | 80 | 3.35").
_PIPE_ROW = re.compile(r"[^\n|]*\|")
_HTML_HEADING = re.compile(r"<h[1-6]\b[^<>]*>", re.IGNORECASE)
_HTML_HEADING_CLOSE = re.compile(r"</h[1-6]\s*>|<(?:table|p|div)\b", re.IGNORECASE)
_FIGURE_START = re.compile(r"\s*[~≈<>]?\s*[\d.]")
_HTML_CAPTION = re.compile(r"<caption\b[^<>]*>", re.IGNORECASE)


def tables(source: str, text: str, fmt: str, line_starts: list[int]) -> tuple[Cell, ...]:
    """Every table cell of a page ("text", "markdown" or "html"; in plain text, pipe tables), in reading order.

    `text` is the page with scripts, styles and comments blanked, the same length as `source`.
    """
    if fmt == "markdown":
        return _markdown_cells(source, line_starts)
    if fmt == "html":
        return _html_cells(source, text, line_starts)
    return _pipe_tables(source, line_starts)


# Markdown -------------------------------------------------------------------------------------------------------

def _markdown_cells(source: str, line_starts: list[int]) -> tuple[Cell, ...]:
    """The cells of the pipe tables in the page's paragraphs, as markdown-it-py finds its blocks (not in code, HTML or
    front matter), each table captioned by the line before it (a heading, a title, an introducing sentence).

    The parser's own table rule makes eight tokens a row and a few a cell, which costs seconds on a megabyte of table;
    its block structure and source lines cost far less, and a table's rows are then read from their lines.
    """
    from markdown_it import MarkdownIt  # only a Markdown page needs the parser

    parser = MarkdownIt("commonmark")
    parser.core.ruler.disable("inline")  # the blocks and their source lines are all a table needs
    prose: list[tuple[int, int]] = []  # 0-based line ranges of paragraphs and headings, in order
    for token in parser.parse(source):
        if token.type in ("paragraph_open", "heading_open") and token.map:
            prose.append((token.map[0], token.map[1]))
    return _pipe_tables(source, line_starts, prose)


def _pipe_tables(source: str, line_starts: list[int], prose: list[tuple[int, int]] | None = None) -> tuple[Cell, ...]:
    """Pipe tables: a row of cells, a delimiter row ("|---|:--:|"), then rows that start with a pipe; with `prose`, only
    inside those line ranges (0-based, end excluded), captioned by the line before the table."""
    cells: list[Cell] = []
    starts = [first for first, _ in prose] if prose is not None else []
    for delimiter in _DELIMITER_ROW.finditer(source):
        line = bisect_right(line_starts, delimiter.start())  # 1-based
        if line < 2 or "|" not in source[line_starts[line - 2]:delimiter.start()]:
            continue
        caption, last = None, len(line_starts)
        if prose is not None:
            at = bisect_right(starts, line - 2) - 1
            if at < 0 or prose[at][1] < line:
                continue  # the delimiter is in code, HTML or outside any paragraph
            last = prose[at][1]
            # The line before the table: its title, or the sentence that introduces it.
            if prose[at][0] < line - 2:
                caption = _line_span(source, line_starts, line - 3, line - 2)
            elif at > 0:
                caption = _line_span(source, line_starts, prose[at - 1][1] - 1, prose[at - 1][1])
        header = _pipe_cells(source, line_starts, line - 2)
        row = line + 1
        if row <= last and _PIPE_ROW.match(source, line_starts[row - 1]) and _blank_beyond_label(source, header):
            # "| Specifications | | |" over "| | H100 SXM | H200 SXM |": the first body row heads the columns.
            below = _pipe_cells(source, line_starts, row - 1)
            if len(below) > 1 and _blank(source, below[0]) and not any(_blank(source, cell) for cell in below[1:]):
                header, row = below, row + 1
        while row <= last and _PIPE_ROW.match(source, line_starts[row - 1]) and not _heads_table(source, line_starts, row):
            spans = _pipe_cells(source, line_starts, row - 1)
            cells += [Cell(span.start, span.end, header[column] if column < len(header) else None,
                           spans[0] if column else None, caption) for column, span in enumerate(spans)]
            row += 1
    return tuple(cells)


def _heads_table(source: str, line_starts: list[int], line: int) -> bool:
    """Whether a line (1-based) is a delimiter row or the header row over one: the start of the next table, not a row of
    this one (two tables one after the other, with no blank line between them)."""
    return any(_DELIMITER_ROW.match(_line_text(source, line_starts, at)) for at in (line, line + 1) if at <= len(line_starts))


def _line_text(source: str, line_starts: list[int], line: int) -> str:
    span = _line_span(source, line_starts, line - 1, line)
    return source[span.start:span.end]


def _blank(source: str, span: Span) -> bool:
    """Whether a cell holds nothing but emphasis marks."""
    return not source[span.start:span.end].strip(" \t*_")


def _blank_beyond_label(source: str, header: list[Span]) -> bool:
    """Whether a header row names nothing over its columns but the first."""
    return len(header) > 1 and all(_blank(source, cell) for cell in header[1:])


def _line_span(source: str, line_starts: list[int], first: int, end: int) -> Span:
    start = line_starts[first] if first < len(line_starts) else len(source)
    stop = line_starts[end] - 1 if end < len(line_starts) else len(source)
    return Span(start, max(start, stop))


def _pipe_cells(source: str, line_starts: list[int], line: int) -> list[Span]:
    """The cells of one table row, between the pipes of its line (a pipe escaped or inside a code span separates nothing)."""
    span = _line_span(source, line_starts, line, line + 1)
    row = source[span.start:span.end]
    pipes = [match.start() for match in _ESCAPE_CODE_OR_PIPE.finditer(row) if match.group() == "|"]
    bounds = [-1, *pipes, len(row)]
    cells = []
    for index, (left, right) in enumerate(pairwise(bounds)):
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
        caption = _html_caption(table, text, line_starts, captions, boundaries)
        header: list[Span | None] = []
        rows = [row for row in table.iter("tr") if _nearest_table(row) is table]
        # A table with no <th> whose first row holds no figure ("Metric | RTX 5090 | H100 SXM"): that row heads the columns.
        headless = not any(child.tag == "th" for row in rows for child in row)
        for number, row in enumerate(rows):
            elements = [child for child in row if isinstance(child.tag, str) and child.tag in ("td", "th")]
            spans = [locate(element) for element in elements]
            if not header and elements and (all(element.tag == "th" for element in elements)
                                            or headless and number == 0 and len(elements) > 1 and not any(
                                                _FIGURE_START.match(element.text_content()) for element in elements)):
                header = spans
                continue
            label = spans[0] if len(spans) > 1 else None
            for column, span in enumerate(spans):
                if span is not None:
                    cells.append(Cell(span.start, span.end, header[column] if column < len(header) else None,
                                      label if column else None, caption))
    return tuple(sorted(cells, key=lambda cell: cell.start))


def _html_caption(table, text: str, line_starts: list[int], captions: list[int], boundaries: list[int]) -> Span | None:
    """What a table is about: its <caption>, else the heading nearest before it."""
    element = table.find("caption")
    if element is not None and element.sourceline:
        line_start = line_starts[element.sourceline - 1]
        after = captions[bisect_right(captions, line_start - 1):]
        if after:
            at = bisect_right(boundaries, after[0])
            return Span(after[0], boundaries[at] if at < len(boundaries) else len(text))
    heading = next(iter(table.xpath("preceding::*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6][1]")), None)
    if heading is None or not heading.sourceline:
        return None
    opening = _HTML_HEADING.search(text, line_starts[heading.sourceline - 1])
    if opening is None:
        return None
    closing = _HTML_HEADING_CLOSE.search(text, opening.end())
    return Span(opening.end(), closing.start() if closing else opening.end())


def _nearest_table(element):
    parent = element.getparent()
    while parent is not None and parent.tag != "table":
        parent = parent.getparent()
    return parent
