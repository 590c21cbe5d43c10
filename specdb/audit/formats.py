"""The formats audit reads, how one is told from the file, and the one call that reads a file in its format."""

from __future__ import annotations

from specdb.audit import (
    FORMATS,
    aiconfigurator,
    epoch,
    huggingface,
    inferencex,
    llm_analysis,
    markdown,
    pyflops,
)
from specdb.audit.fields import Field, UnreadableTable
from specdb.errors import UsageError

_BY_NAME = {reader.NAME: reader for reader in (aiconfigurator, llm_analysis, inferencex, huggingface, epoch, pyflops, markdown)}
READERS = tuple(_BY_NAME[name] for name in FORMATS)
MAX_FILE_BYTES = 8 * 1024 * 1024


def read_text(path: str) -> str:
    """The file's text; a file that cannot be read, or is not UTF-8, is a usage error naming it."""
    from specdb import textfile

    return textfile.read_text(path, MAX_FILE_BYTES, name_instead="the files to audit", too_large="not a hand-kept table")


def detect(path: str, text: str) -> str:
    for reader in READERS:
        if reader.looks_like(path, text):
            return reader.NAME
    raise UnreadableTable(path, f"cannot tell the format; name it with --as ({', '.join(FORMATS)})")


def read(path: str, text: str, as_format: str | None = None) -> tuple[str, list[Field]]:
    """The format used and the file's fields, in that format (`as_format`) or the one detected."""
    name = as_format or detect(path, text)
    reader = _BY_NAME.get(name)
    if reader is None:
        raise UsageError(f"--as '{name}': not a format audit reads; use one of {', '.join(FORMATS)}")
    return name, reader.read(path, text)
