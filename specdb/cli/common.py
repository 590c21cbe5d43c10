"""What every command shares at run time, without Typer: where the data is, printing rows, and errors as exit codes."""

import importlib.util
import sqlite3
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Optional, Sequence

from specdb.errors import SpecdbError


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


def open_database(specs: Optional[str], db: Optional[str], *, wait: float | None = None) -> sqlite3.Connection:
    """The database for these options, built or refreshed first when the specs changed; a server's reader waits at
    most `wait` seconds for a publish to let it read (see `database.open_fresh`)."""
    from specdb.database import open_fresh

    specs_dir, db_path = locate(specs, db)
    return open_fresh(db_path, specs_dir, wait=wait)


def emit(rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None = None, document: Any = None) -> None:
    """Rows in the chosen format; `document`, when given, is what JSON prints instead (a single object, in full)."""
    from specdb.output import render, terminal_width

    sys.stdout.write(render(rows, fmt, columns, document, width=terminal_width(sys.stdout)))


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
