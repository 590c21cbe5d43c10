"""A source's content as text, and the one normal form that quotes, pages and fingerprints are compared in.

HTML is read as the text a reader sees (scripts and styles dropped, entities
decoded); a PDF through pypdf's text extraction. Quotes are found after
NFKC, case folding, typographic quotes, dashes and spaces made plain, and
whitespace collapsed: a quote copied from a rendered page matches the markup
it came from, and a page re-wrapped or re-typeset without a change of words
keeps its fingerprint.
"""

from __future__ import annotations

import hashlib
import html
import io
import re
import unicodedata
from html.parser import HTMLParser

# Typographic characters a copy and its page may spell differently.
_PLAIN = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u00b4": "'", "`": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-", "\ufe63": "-", "\uff0d": "-",
    "\u00ad": None, "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None, "\ufeff": None,
})
_SPACE = re.compile(r"\s+")
# Markup around words, which a quote taken from a rendered page leaves out: emphasis, table pipes, heading marks.
_MARKUP = re.compile(r"[*_|#]+")


def normalise(text: str) -> str:
    """The form quotes are looked for in: NFKC, case-folded, plain quotes and dashes, markup marks and runs of whitespace as one space."""
    text = unicodedata.normalize("NFKC", text).translate(_PLAIN).casefold()
    return _SPACE.sub(" ", _MARKUP.sub(" ", text)).strip()


def contains_quote(normalised_page: str, quote: str) -> bool:
    """Whether the quote is in the page (already normalised); a quote that is only markup is never found."""
    wanted = normalise(quote)
    return bool(wanted) and wanted in normalised_page


def fingerprint(text: str) -> str:
    """The fingerprint of a source's content: SHA-256 of its normal form, so only a change of words changes it."""
    return "sha256:" + hashlib.sha256(normalise(text).encode()).hexdigest()


class _VisibleText(HTMLParser):
    """The text of an HTML page a reader sees, with a space where a tag stood so cells and paragraphs do not run together."""

    _HIDDEN = frozenset({"script", "style", "noscript", "template", "svg"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self._HIDDEN:
            self.hidden += 1
        self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDDEN and self.hidden:
            self.hidden -= 1
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def html_text(markup: str) -> str:
    parser = _VisibleText()
    parser.feed(markup)
    parser.close()
    return html.unescape("".join(parser.parts))


class UnreadablePdf(ValueError):
    """A PDF pypdf cannot read (damaged, encrypted, or not a PDF)."""


def pdf_text(data: bytes) -> str:
    """The text of every page of a PDF, in order."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UnreadablePdf("the PDF is encrypted")
        return "\n".join(page.extract_text() or "" for page in reader.pages)
    except (PyPdfError, ValueError, KeyError, TypeError) as error:
        raise UnreadablePdf(f"the PDF cannot be read ({error})") from None


def decode(data: bytes, charset: str | None) -> str:
    """Bytes as text in the charset the server named, else UTF-8; undecodable bytes become U+FFFD rather than an error."""
    try:
        return data.decode(charset or "utf-8", errors="replace")
    except LookupError:
        return data.decode("utf-8", errors="replace")
