"""Prose as the checker reads it: plain text, Markdown or HTML turned into text of the same length, cut into paragraphs and sentences.

Markup is blanked out rather than removed, so an offset in the readable text
is the same offset in the file and every finding keeps its line and column.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property

from specdb.check.structure import Cell, Span, tables

FORMATS = ("text", "markdown", "html")

# Where hidden content opens, and what closes each kind; content left unclosed is read as text.
_HTML_HIDDEN_OPEN = re.compile(r"<(script|style)\b|<!--", re.IGNORECASE)
_HTML_HIDDEN_CLOSE = {
    "script": re.compile(r"</script\s*>", re.IGNORECASE),
    "style": re.compile(r"</style\s*>", re.IGNORECASE),
    "<!--": re.compile(r"-->"),
}
_HTML_TAG = re.compile(r"<[^<>]*>")
_HTML_BLOCK = re.compile(r"</?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|blockquote|pre|dd|dt)\b", re.IGNORECASE)
_HTML_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);")
_MARKDOWN_LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
_URL = re.compile(r"\bhttps?://\S+")
# Chinese and Japanese end sentences with full-width marks and no space after them.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|[。！？]")
_HTML_SENTENCE_END = re.compile(_SENTENCE_END.pattern + r"|\n")
# A list item or a "Label: value" line of a spec sheet begins a sentence of its own, though the line before it has no full stop.
_TEXT_SENTENCE_END = re.compile(_SENTENCE_END.pattern + r"|\n(?=[ \t]*(?:[-*•·▪][ \t]|\d{1,2}[.)][ \t]|[A-Z][\w&/() -]{0,40}:[ \t]+\S))")
_CLAUSE_END = re.compile(r"[;:—–；：]|\s-\s|\s\|\s")
_LINE_BREAK = re.compile(r"\n")
_SPACE = re.compile(r"\s+")
# Longer paragraphs and sentences are cut, at a line break, a sentence or clause end or a space, so that the words
# a claim is read with stay near it and checking a page costs time in proportion to its length.
PARAGRAPH_LIMIT = 10_000
SENTENCE_LIMIT = 2_000

_MONTHS = {name: number for number, name in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"), 1)}
_REVIEWED = re.compile(
    r"\b(?:last\s+)?(?:reviewed|updated|revised|checked)\s+(?:on\s+|in\s+|as\s+of\s+)?"
    r"(?:(?P<iso>\d{4}-\d{2}(?:-\d{2})?)|(?P<month>[A-Za-z]+)\s+(?:(?P<day>\d{1,2}),?\s+)?(?P<year>\d{4}))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Page:
    """Readable text of one file, the same length as the file, with its paragraphs, sentences and clauses."""

    source: str
    text: str
    paragraphs: tuple[Span, ...]
    sentences: tuple[Span, ...]
    clauses: tuple[Span, ...]
    cells: tuple[Cell, ...] = ()

    def cell_of(self, offset: int) -> Cell | None:
        """The table cell an offset lies in, if any."""
        at = bisect_right(self.cell_starts, offset) - 1
        return self.cells[at] if at >= 0 and offset < self.cells[at].end else None

    @cached_property
    def cell_starts(self) -> list[int]:
        return [cell.start for cell in self.cells]

    def position(self, offset: int) -> tuple[int, int]:
        """1-based line and column of an offset in the file."""
        line = bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    @cached_property
    def line_starts(self) -> list[int]:
        return [0] + [match.end() for match in re.finditer("\n", self.source)]

    def paragraph_of(self, offset: int) -> int:
        return _index_of(self.paragraph_starts, offset)

    def sentence_of(self, offset: int) -> Span:
        return self.sentences[_index_of(self.sentence_starts, offset)]

    def clause_of(self, offset: int) -> Span:
        return self.clauses[_index_of(self.clause_starts, offset)]

    @cached_property
    def paragraph_starts(self) -> list[int]:
        return [span.start for span in self.paragraphs]

    @cached_property
    def sentence_starts(self) -> list[int]:
        return [span.start for span in self.sentences]

    @cached_property
    def clause_starts(self) -> list[int]:
        return [span.start for span in self.clauses]


def _index_of(starts: list[int], offset: int) -> int:
    """The last span starting at or before an offset (the first span for an offset before them all)."""
    return max(bisect_right(starts, offset) - 1, 0)


def detect_format(source: str, name: str = "") -> str:
    lowered = name.casefold()
    if lowered.endswith((".html", ".htm", ".xhtml")):
        return "html"
    if lowered.endswith((".md", ".markdown")):
        return "markdown"
    if re.match(r"\s*<(!doctype|html|body|p|div|article)\b", source, re.IGNORECASE):
        return "html"
    return "text"


def read_page(source: str, fmt: str) -> Page:
    """The readable text of a file in a format of FORMATS, cut into paragraphs, sentences and clauses."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    text = _URL.sub(_blank, source)
    line_starts = [0] + [match.end() for match in re.finditer("\n", source)]
    if fmt == "html":
        text = _blank_hidden(text)
    cells = tables(source, text, fmt, line_starts)
    if fmt == "html":
        text = _HTML_TAG.sub(_blank_tag, text)
        text = _HTML_ENTITY.sub(_entity, text)
    elif fmt == "markdown":
        text = _MARKDOWN_LINK_TARGET.sub(lambda match: "]" + _blank_text(match.group()[1:]), text)
    # In HTML a line break is markup (a cell, a list item, a <br>), so it ends a sentence.
    sentence_end = _HTML_SENTENCE_END if fmt == "html" else _TEXT_SENTENCE_END
    paragraphs = tuple(_bounded(text, _paragraphs(text), PARAGRAPH_LIMIT, (_LINE_BREAK, sentence_end, _SPACE)))
    sentences = tuple(_bounded(text, (span for paragraph in paragraphs for span in _split(text, paragraph, sentence_end)),
                               SENTENCE_LIMIT, (_LINE_BREAK, _CLAUSE_END, _SPACE)))
    clauses = tuple(span for sentence in sentences for span in _split(text, sentence, _CLAUSE_END))
    return Page(source, text, paragraphs, sentences, clauses, cells)


def _blank_hidden(text: str) -> str:
    """Scripts, styles and comments blanked in one pass: once a kind is found unclosed, no later opening of it is closed either."""
    pieces, copied, position, unclosed = [], 0, 0, set()
    while (opening := _HTML_HIDDEN_OPEN.search(text, position)) is not None:
        kind = (opening[1] or opening[0]).casefold()
        closing = None if kind in unclosed else _HTML_HIDDEN_CLOSE[kind].search(text, opening.end())
        if closing is None:
            unclosed.add(kind)
            position = opening.end()
            continue
        pieces += [text[copied:opening.start()], _blank_text(text[opening.start():closing.end()])]
        copied = position = closing.end()
    pieces.append(text[copied:])
    return "".join(pieces)


def _blank_text(text: str) -> str:
    return "".join(char if char == "\n" else " " for char in text)


def _blank(match: re.Match) -> str:
    return _blank_text(match.group())


def _blank_tag(match: re.Match) -> str:
    blank = _blank_text(match.group())
    # A block element ends a paragraph; the break takes the place of the tag's first character.
    return "\n" + blank[1:] if _HTML_BLOCK.match(match.group()) and "\n" not in blank else blank


def _entity(match: re.Match) -> str:
    character = html.unescape(match.group())
    if len(character) != 1:
        character = " "
    if character in "\u00a0\u2009\u202f":
        character = " "
    return character + " " * (len(match.group()) - 1)


def _paragraphs(text: str) -> tuple[Span, ...]:
    """Blank lines end a paragraph, and so does a line ending a sentence (plain text often puts one paragraph on a line)."""
    spans, start, offset = [], 0, 0
    for line in text.splitlines(keepends=True):
        offset += len(line)
        stripped = line.strip()
        if not stripped or stripped[-1] in ".!?:" or stripped.startswith(("#", "- ", "* ", "|")):
            if text[start:offset].strip():
                spans.append(Span(start, offset))
            start = offset
    if text[start:].strip() or not spans:
        spans.append(Span(start, len(text)))
    return tuple(spans)


def _bounded(text: str, spans, limit: int, breaks: tuple[re.Pattern, ...]):
    """The spans, each longer than `limit` cut after the last break of the first kind found within the limit (a hard cut when none is)."""
    for span in spans:
        start = span.start
        while span.end - start > limit:
            window_end = start + limit
            cut = next((last.end() for pattern in breaks
                        if (last := _last(pattern, text, start + 1, window_end)) is not None and last.end() > start), window_end)
            yield Span(start, cut)
            start = cut
        yield Span(start, span.end)


def _last(pattern: re.Pattern, text: str, start: int, end: int) -> re.Match | None:
    last = None
    for last in pattern.finditer(text, start, end):
        pass
    return last


def _split(text: str, span: Span, boundary: re.Pattern) -> list[Span]:
    pieces, start = [], span.start
    for match in boundary.finditer(text, span.start, span.end):
        if match.start() > start:
            pieces.append(Span(start, match.start()))
        start = match.end()
    if start < span.end or not pieces:
        pieces.append(Span(start, span.end))
    return pieces


def review_date(text: str) -> dt.date | None:
    """The page's own review date ("last reviewed in July 2026", "Updated 2026-07-14"), the first of the month when no day is given."""
    for match in _REVIEWED.finditer(text):
        if match["iso"]:
            parts = [int(part) for part in match["iso"].split("-")]
            year, month, day = parts[0], parts[1], parts[2] if len(parts) > 2 else 1
        else:
            month = _MONTHS.get(match["month"].casefold())
            if month is None:
                continue
            year, day = int(match["year"]), int(match["day"] or 1)
        try:
            return dt.date(year, month, day)
        except ValueError:
            continue
    return None


class Spans:
    """Stretches of text already taken, kept sorted so that a new one is checked against its neighbours only."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def add(self, start: int, end: int) -> None:
        at = bisect_left(self.starts, start)
        self.starts.insert(at, start)
        self.ends.insert(at, end)

    def free(self, start: int, end: int) -> bool:
        """Whether [start, end) overlaps no taken stretch (taken stretches never overlap each other)."""
        at = bisect_left(self.starts, start)
        return (at == 0 or self.ends[at - 1] <= start) and (at == len(self.starts) or end <= self.starts[at])
