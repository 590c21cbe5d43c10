"""Options shared by every command, declared once with Typer from the library's own word lists.

Command modules read these names lazily (see `common.lazy_module`): they are
built only when the full Typer CLI is assembled, never on the fast path.
"""

from typing import Annotated, Any, Optional, Sequence

import click
import typer

from specdb.output import FORMATS
from specdb.format.terms import KINDS, STATUSES
from specdb.format.counting import BASES

class Choice(click.Choice):
    """One of a fixed set of words; a misspelling is refused with the closest word (and shell completion offers them)."""

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            from specdb.suggest import did_you_mean

            self.fail(f"'{value}' is not one of {', '.join(self.choices)}{did_you_mean(str(value), self.choices, n=1)}", param, ctx)

def choice(words: Sequence[str], *flags: str, help: str) -> Any:
    """A typer option taking one of `words`, shown as {a|b|c} in the help."""
    return typer.Option(*flags, click_type=Choice(list(words)), help=help)

def choice_argument(words: Sequence[str], *, help: str) -> Any:
    return typer.Argument(click_type=Choice(list(words)), help=help, show_default=False)

KindOption = Annotated[Optional[str], choice(KINDS, "--kind", "-k", help="Record kind")]
StatusOption = Annotated[Optional[str], choice(STATUSES, "--status", help="What kind of figure")]
BasisOption = Annotated[
    str,
    choice(BASES, "--basis", help="per-direction: every link one way, memory as its total; as-quoted: the vendors' headline figures"),
]
DbOption = Annotated[
    Optional[str],
    typer.Option("--db", help="Database path, sqlite:/// URL or postgresql:// URL [env: SPECDB_DB; default: a per-user cache file]", show_default=False),
]
RefreshOption = Annotated[
    bool,
    typer.Option("--refresh", help="Build or publish the database from the specs first; a postgresql:// server is otherwise read as published, never written"),
]
SpecsOption = Annotated[
    Optional[str],
    typer.Option("--specs", help="Specs folder [env: SPECDB_SPECS; default: ./specs if it is a specdb specs folder, else the bundled data]", show_default=False),
]
# Every command that prints rows offers the same formats, with the same columns in each.
FormatOption = Annotated[str, choice(FORMATS, "--format", "-f", help="Output format: a table for people, json, csv or markdown")]


def _database(ctx: typer.Context):
    """The database the command line names so far, as it is, or None: completion never builds, waits or fails loudly.

    A key press must not validate and build a specs folder; a database not yet built offers no candidates.
    """
    import sqlite3
    from pathlib import Path

    from specdb.cli.common import locate
    from specdb.errors import SpecdbError
    from specdb.db.store import connect_readonly

    try:
        _, db_path = locate(ctx.params.get("specs"), ctx.params.get("db"))
        return connect_readonly(db_path) if isinstance(db_path, Path) else None
    except (SpecdbError, sqlite3.Error, OSError):
        return None


def complete_record(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """Shell completion of a record id, with the record's name beside it where the shell shows one."""
    from specdb.db.catalog import list_records

    connection = _database(ctx)
    if connection is None:
        return []
    return [(row["id"], row["name"]) for row in list_records(connection) if row["id"].startswith(incomplete)]


def complete_figure(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """Shell completion of a figure name of the record already on the command line."""
    from specdb.db.catalog import show_record
    from specdb.errors import NotFound

    connection = _database(ctx)
    if connection is None or not ctx.params.get("record"):
        return []
    try:
        figures = show_record(connection, ctx.params["record"])["figures"]
    except NotFound:
        return []
    return [(figure["name"], figure["value_text"]) for figure in figures if figure["name"].startswith(incomplete)]
