"""A user's file read whole as UTF-8 text within a size cap: the pages `check` reads, the tables `audit` reads and the
logs `import nccl-tests` reads go through here, so each command refuses the same cases in the same words.

The file is read a block at a time, so Ctrl-C ends an endless input (`/dev/zero`, a pipe that never closes) and no
more than the cap is ever held. Bytes that are not UTF-8 are reported at their line and column, as `validate`
reports them in a spec file.
"""

from __future__ import annotations

import sys
from typing import BinaryIO

from specdb.errors import UsageError

_BLOCK = 1 << 20


def read_at_most(stream: BinaryIO, limit: int) -> bytes:
    """Up to `limit` bytes of the stream, a block at a time."""
    blocks, size = [], 0
    while size < limit and (block := stream.read(min(_BLOCK, limit - size))):
        blocks.append(block)
        size += len(block)
    return b"".join(blocks)


def line_and_column(text: str | bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column of an offset into text (in characters) or bytes (in bytes)."""
    newline = b"\n" if isinstance(text, bytes) else "\n"
    return text.count(newline, 0, offset) + 1, offset - (text.rfind(newline, 0, offset) + 1) + 1


def undecodable(raw: bytes, error: UnicodeDecodeError) -> tuple[str, int, int]:
    """What to say of bytes that are not UTF-8, and the line and column (1-based) of the first one."""
    return f"not UTF-8: byte 0x{raw[error.start]:02x} cannot be decoded", *line_and_column(raw, error.start)


def read_text(path: str, limit: int, *, name_instead: str, too_large: str) -> str:
    """The text of the file at `path` (`-`: standard input), a leading byte-order mark dropped.

    A missing file, a folder, an unreadable file, one over `limit` bytes or one that is not UTF-8 is a UsageError
    naming the path (and the line and column of the first undecodable byte); `name_instead` says what to name in
    place of a folder ("the files to check"), `too_large` why the cap is what it is.
    """
    try:
        if path == "-":
            raw = read_at_most(sys.stdin.buffer, limit + 1)
        else:
            with open(path, "rb") as stream:
                raw = read_at_most(stream, limit + 1)
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a folder; name {name_instead}") from None
    except OSError as error:
        raise UsageError(f"{path}: cannot be read ({error.strerror or error})") from None
    if len(raw) > limit:
        raise UsageError(f"{path}: larger than {limit // 2**20} MiB, {too_large}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        message, line, column = undecodable(raw, error)
        raise UsageError(f"{path}:{line}:{column}: {message}") from None
