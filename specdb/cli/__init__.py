"""The `specdb` command: a thin layer of Typer commands over the library.

Commands are registered lazily (the pattern click documents as "lazily
loading subcommands"): a run of one command imports and builds that command
only, which keeps read commands quick to start.
"""

import importlib
import sys
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup

from specdb import __version__
from specdb.cli.common import fail
from specdb.errors import EXIT_ENVIRONMENT, SpecdbError

# command name -> (module, attribute); a Typer attribute is a command group.
COMMANDS = {
    "validate": ("specdb.cli.records", "validate"),
    "build": ("specdb.cli.records", "build"),
    "list": ("specdb.cli.records", "list_records"),
    "show": ("specdb.cli.records", "show"),
    "query": ("specdb.cli.query", "query_app"),
    "compare": ("specdb.cli.query", "compare"),
    "sql": ("specdb.cli.query", "sql"),
    "stale": ("specdb.cli.stale", "stale"),
    "collective": ("specdb.cli.collective", "collective"),
    "import": ("specdb.cli.imports", "import_app"),
    "plot": ("specdb.cli.plot", "plot_app"),
    "diff": ("specdb.cli.versions", "diff"),
    "history": ("specdb.cli.versions", "history"),
    "check": ("specdb.cli.check", "check"),
    "info": ("specdb.cli.info", "info"),
    "export": ("specdb.cli.export", "export_app"),
    "schema": ("specdb.cli.info", "schema"),
}


class _Commands(TyperGroup):
    """Every command's SpecdbError becomes its message on stderr and its exit code."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SpecdbError as error:
            fail(error)


def _version(value: bool) -> None:
    if value:
        print(f"specdb {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit")] = None,
) -> None:
    """specdb: AI hardware figures with their sources."""


def make_app(only: Optional[str] = None) -> typer.Typer:
    """The CLI with every command, or with the one command about to run."""
    app = typer.Typer(
        name="specdb",
        cls=_Commands,
        help="A reviewed, versioned database of AI hardware figures. Exit codes: 0 ok, 1 findings, 2 usage, 3 environment.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    app.callback()(_root)
    for name, (module, attribute) in COMMANDS.items():
        if only in (None, name):
            target = getattr(importlib.import_module(module), attribute)
            if isinstance(target, typer.Typer):
                app.add_typer(target, name=name)
            else:
                app.command(name)(target)
    return app


def _command_in(argv: list[str]) -> Optional[str]:
    for argument in argv:
        if not argument.startswith("-"):
            return argument if argument in COMMANDS else None
    return None


def main() -> None:
    try:
        make_app(_command_in(sys.argv[1:]))()
    except KeyboardInterrupt:
        print("specdb: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as error:  # the last line of defence: a message, never a traceback
        print(f"specdb: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(EXIT_ENVIRONMENT)


def __getattr__(name: str):
    """`from specdb.cli import app` gives the full CLI (for tests and tools) without slowing `main`."""
    if name == "app":
        return make_app()
    raise AttributeError(name)
