"""The `specdb` command: a thin layer of Typer commands over the library."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from specdb import __version__
from typer.core import TyperGroup

from specdb.cli import query, records, stale
from specdb.cli.common import fail
from specdb.errors import EXIT_ENVIRONMENT, SpecdbError

class _Commands(TyperGroup):
    """Every command's SpecdbError becomes its message on stderr and its exit code."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SpecdbError as error:
            fail(error)


app = typer.Typer(
    name="specdb",
    cls=_Commands,
    help="A reviewed, versioned database of AI hardware figures. Exit codes: 0 ok, 1 findings, 2 usage, 3 environment.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        print(f"specdb {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit")] = None,
) -> None:
    """specdb: AI hardware figures with their sources."""


app.command("validate")(records.validate)
app.command("build")(records.build)
app.command("list")(records.list_records)
app.command("show")(records.show)
app.command("stale")(stale.stale)
app.command("compare")(query.compare)
app.command("sql")(query.sql)
app.add_typer(query.query_app, name="query")


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        print("specdb: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as error:  # the last line of defence: a message, never a traceback
        print(f"specdb: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(EXIT_ENVIRONMENT)
