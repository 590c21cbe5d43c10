"""plot ratios: the tier ladder as an image."""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from specdb.cli.common import open_database
from specdb.cli.options import BasisOption, DbOption, RefreshOption, SpecsOption

plot_app = typer.Typer(help="Pictures of the data (needs the plot extra: pip install 'specdb[plot]').", no_args_is_help=True)


@plot_app.command("ratios")
def ratios(
    output: Annotated[Path, typer.Option("--output", "-o", help="Image file to write: .png or .svg")] = Path("ladder.png"),
    basis: BasisOption = "per-direction",
    vendor: Annotated[Optional[str], typer.Option("--vendor", help="Only platforms of this vendor")] = None,
    specs: SpecsOption = None,
    db: DbOption = None,
    refresh: RefreshOption = False,
) -> None:
    """Draw memory, scale-up and scale-out bandwidth per platform, in generation order, ratios annotated.

    Example: specdb plot ratios --output ladder.svg --basis as-quoted
    """
    from specdb.analysis.plot import plot_ladder
    from specdb.analysis.tiers import ratio_rows

    rows = ratio_rows(open_database(specs, db, refresh), basis, vendor=vendor)
    written = plot_ladder(rows, output, basis)
    print(f"wrote {written}", file=sys.stderr)
