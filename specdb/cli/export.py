"""export: the data as a folder another tool reads (Frictionless, Datasette, llm-analysis, AIConfigurator)."""

import sys
from typing import Annotated

import click
import typer

from specdb.cli.common import locate
from specdb.cli.options import DbOption, RefreshOption, SpecsOption
from specdb.export import FORMATS

export_app = typer.Typer(
    help="Write the data for another tool into a folder, atomically; the same data gives the same bytes. "
    "Example: specdb export datapackage ./specdb-data",
    no_args_is_help=True,
)

# A click.Path keeps the name as typed (a pathlib.Path would turn "" into "."), and leaves the command to the Typer CLI, which completes paths.
FolderArgument = Annotated[str, typer.Argument(click_type=click.Path(), help="Folder to write; replaced whole when it holds an earlier specdb export")]
ForceOption = Annotated[bool, typer.Option("--force", help="Replace a non-empty folder even if no earlier export wrote it")]


def _command(fmt: str):
    def command(
        folder: FolderArgument, force: ForceOption = False, specs: SpecsOption = None, db: DbOption = None, refresh: RefreshOption = False
    ) -> None:
        from specdb import write_export

        result = write_export(fmt, folder, *locate(specs, db), force=force, refresh=refresh)
        print(f"{result.path}: {fmt} export, {len(result.files)} files", file=sys.stderr)

    return command


for _name, (_, _description) in FORMATS.items():
    export_app.command(_name, help=f"{_description[0].upper()}{_description[1:]}. Example: specdb export {_name} ./{_name}")(_command(_name))
