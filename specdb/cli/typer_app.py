"""The full `specdb` CLI, assembled with Typer: help, usage errors, shell completion, and every command line the fast path leaves to it."""

import importlib
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup

from specdb.cli.commands import COMMANDS
from specdb.cli.common import interrupted, report, version_line
from specdb.errors import EXIT_CODES, SpecdbError


class _Commands(TyperGroup):
    """Every command's SpecdbError becomes its message on stderr and its exit code; Ctrl-C ends it as it ends the fast path."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SpecdbError as error:
            raise typer.Exit(report(error)) from None
        except KeyboardInterrupt:
            # Past Click, which would print "Aborted!" and exit 1.
            raise SystemExit(interrupted()) from None


def _version(value: bool) -> None:
    if value:
        print(version_line())
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
        help="A reviewed, versioned database of AI hardware figures. Exit codes: " + ", ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES) + ".",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        suggest_commands=False,  # Click names the closest command itself; Typer's own suggestion would repeat it
    )
    app.callback()(_root)
    for name, (module, attribute) in COMMANDS.items():
        if only in (None, name):
            target = getattr(importlib.import_module(module), attribute)
            if isinstance(target, typer.Typer):
                target.suggest_commands = False
                app.add_typer(target, name=name)
            else:
                app.command(name)(target)
    return app
