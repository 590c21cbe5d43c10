"""What every command shares at run time, without Typer: where the data is, printing rows, and errors as exit codes."""

import codecs
import errno
import importlib.util
import io
import os
import sqlite3
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Optional, Sequence

from specdb.errors import SpecdbError, UsageError


def lazy_module(name: str) -> ModuleType:
    """The module `name`, executed on first use of one of its attributes (the recipe in importlib's documentation).

    Command modules declare their options with Typer in annotations that are
    evaluated only when the full CLI is assembled; through this, the fast path
    runs the same functions without importing Typer or Click.
    """
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def locate(specs: Optional[str], db: Optional[str]) -> tuple[Path, Path]:
    from specdb.locations import resolve_db, resolve_specs

    specs_dir = resolve_specs(specs, working_folder=True)
    return specs_dir, resolve_db(db, specs_dir)


def open_database(specs: Optional[str], db: Optional[str], refresh: bool = False, *, wait: float | None = None) -> sqlite3.Connection:
    """The database for these options: a SQLite file built or refreshed first when the specs changed, a server's publication as it is
    (see `specdb.connect`); with `refresh`, built or published first in any case. A server's reader waits at most `wait`
    seconds for a publish to let it read (see `database.open_fresh`)."""
    from specdb.db.access import open_fresh

    specs_dir, db_path = locate(specs, db)
    return open_fresh(db_path, specs_dir, refresh=refresh, wait=wait)


def emit(
    rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None = None, document: Any = None, *,
    priority: Sequence[str] | None = None, one_record: bool = False,
) -> None:
    """Rows in the chosen format; `document`, when given, is what JSON prints instead (a single object, in full).

    On a terminal a table fits the window: `priority` says which columns to keep first, and a view of one record
    (`one_record`) becomes one block per row rather than lose a column (see `output.text_table`)."""
    from specdb.output import colour_enabled, render, terminal_width

    sys.stdout.write(render(rows, fmt, columns, document, width=terminal_width(sys.stdout), priority=priority,
                            vertical_when_narrow=one_record, colour=colour_enabled(sys.stdout)))


def interrupted() -> int:
    """Say that Ctrl-C ended the command, the same way wherever it came; the exit code to leave with."""
    from specdb.errors import EXIT_INTERRUPTED

    print("specdb: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED


def report(error: SpecdbError) -> int:
    """Print an error the way every command does; the exit code to leave with."""
    from specdb.errors import InvalidSpecs

    if isinstance(error, InvalidSpecs):
        for problem in error.problems:
            print(problem, file=sys.stderr)
    print(f"specdb: {error}", file=sys.stderr)
    return error.exit_code


def version_line() -> str:
    from specdb import __version__

    return f"specdb {__version__}"


class OutputError(OSError):
    """Standard output cannot be written: it is closed, its disk is full, or its reader went away (errno EPIPE)."""


class _Output(io.RawIOBase):
    """Descriptor 1 or 2 as the process was given it. The first failed write raises OutputError, unless `quiet`
    (standard error, which has nowhere to report to); later writes are dropped, so the flush at exit stays silent."""

    def __init__(self, fd: int, *, closed: bool, quiet: bool):
        super().__init__()
        self.fd, self.was_closed, self.quiet, self.failed = fd, closed, quiet, False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return not self.was_closed and os.isatty(self.fd)

    def write(self, data) -> int:
        if self.failed:
            return len(data)
        try:
            if self.was_closed:
                raise OSError(errno.EBADF, "it is closed")
            return os.write(self.fd, data)
        except OSError as error:
            self.failed = True
            if self.quiet:
                return len(data)
            raise OutputError(error.errno, f"cannot write to standard output: {error.strerror}") from None


def _escaped(error: UnicodeEncodeError) -> tuple[str, int]:
    """What an encoding cannot write, as JSON writes it: `\\u` and four hex digits per UTF-16 unit, so JSON stays JSON."""
    units = []
    for char in error.object[error.start:error.end]:
        code = ord(char)
        units += [code] if code <= 0xFFFF else [0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)]
    return "".join(f"\\u{unit:04x}" for unit in units), error.end


_ESCAPED = "specdb.escaped"
codecs.register_error(_ESCAPED, _escaped)


class _ClosedInput(io.RawIOBase):
    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise OSError(errno.EBADF, "standard input is closed")


def guard_standard_streams() -> None:
    """Make the process's own standard streams safe whatever state the command was started with.

    A closed descriptor 0, 1 or 2 gets /dev/null, so no file the command opens (a database) takes that number
    and receives what is printed, or the errors of a child (git). A read from a closed standard input fails with
    that said; standard output reports a failed write as OutputError and writes what its encoding cannot (an
    ASCII-only locale) as JSON's escapes, `\\u2026` for `…`, as does standard error. Streams already replaced (by a test
    capturing output) are left alone.
    """
    closed = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(fd)
            # The lowest free descriptor, which is this one: those below it are open by now.
            os.open(os.devnull, os.O_RDWR)
    if 0 in closed and sys.stdin is sys.__stdin__:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedInput()))
    for fd, name in ((1, "stdout"), (2, "stderr")):
        stream = getattr(sys, name)
        if stream is getattr(sys, f"__{name}__"):
            raw = _Output(fd, closed=fd in closed, quiet=fd == 2)
            encoding = stream.encoding if stream is not None else "utf-8"
            line_buffering = stream.line_buffering if stream is not None else False
            setattr(sys, name, io.TextIOWrapper(io.BufferedWriter(raw), encoding, _ESCAPED, line_buffering=line_buffering or fd == 2))


def refuse_undecodable(argv: Sequence[str]) -> None:
    """Every argument is UTF-8 text: ids, names and SQL are matched as text, and a path is named in messages and data."""
    for argument in argv:
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError(f"the argument {repr(os.fsencode(argument))[1:]} is not UTF-8 text") from None
