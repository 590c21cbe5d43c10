"""import: turn a benchmark's output into measured figures in the specs, ready to review and commit."""

import datetime as dt
from pathlib import Path
from typing import Annotated, Optional

import typer

from specdb.cli.common import open_database
from specdb.cli.options import DbOption, SpecsOption, choice
from specdb.terms import COLLECTIVE_ALGORITHMS, COLLECTIVE_OPERATIONS

import_app = typer.Typer(
    help="Import measurements as records to review and commit. Example: specdb import nccl-tests all_reduce.log --platform hgx-h100 --algorithm ring",
    no_args_is_help=True,
)


@import_app.command("nccl-tests")
def nccl_tests(
    log: Annotated[Path, typer.Argument(help="Text output of an nccl-tests or rccl-tests run (all_reduce_perf and the like)")],
    platform: Annotated[str, typer.Option("--platform", "-p", help="The platform it ran on (system record id or alias)")],
    algorithm: Annotated[str, choice(COLLECTIVE_ALGORITHMS, "--algorithm", help="The algorithm the run used (set NCCL_ALGO when running it)")],
    operation: Annotated[str, choice(COLLECTIVE_OPERATIONS, "--operation", help="The collective, when the log does not say")] = "all-reduce",
    gpus: Annotated[Optional[int], typer.Option("--gpus", "-n", help="GPUs in the run; default: the log's rank lines")] = None,
    record_id: Annotated[Optional[str], typer.Option("--id", help="Id of the new record; default: <platform>-nccl-tests-<date>")] = None,
    date: Annotated[Optional[str], typer.Option("--date", help="Date of the run (YYYY-MM-DD); default: today")] = None,
    specs: SpecsOption = None,
    db: DbOption = None,
) -> None:
    """Write an nccl-tests run as a measured-figures record (and a source record for the log) into the specs.

    Example: specdb import nccl-tests all_reduce.log --platform hgx-h100 --algorithm ring
    """
    import re

    from specdb.cli.common import locate
    from specdb.errors import UsageError
    from specdb.nccltests import parse, records
    from specdb.schema import ID_PATTERN, parse_spec_date
    from specdb.tiers import platforms

    try:
        text = log.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{log}: cannot be read ({exc})") from None
    parsed = parse(text, str(log))
    count = gpus or len(parsed.devices)
    if count < 2:
        raise UsageError(f"{log}: the number of GPUs is not in the log (no '# Rank' lines); give --gpus")
    try:
        day = parse_spec_date(date).day.isoformat() if date else dt.date.today().isoformat()
    except ValueError as exc:
        raise UsageError(f"--date {exc}") from None
    [found] = platforms(open_database(specs, db), platform=platform)
    platform_id = found.id
    chosen_id = record_id or f"{platform_id}-nccl-tests-{day}"
    if not re.match(ID_PATTERN, chosen_id):
        raise UsageError(f"--id '{chosen_id}' is not a record id (lower case letters, digits and hyphens)")
    written = records(parsed, log_name=log.name, platform=platform_id, record_id=chosen_id, operation=operation,
                      algorithm=algorithm, accelerators=count, date=day)
    specs_dir, _ = locate(specs, db)
    targets = {folder: specs_dir / folder / (f"{chosen_id}.yaml" if folder == "cluster" else f"{chosen_id}-log.yaml") for folder in written}
    for target in targets.values():
        if target.exists():
            raise UsageError(f"{target} exists already; choose another --id")
    for folder, target in targets.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(written[folder], encoding="utf-8")
        print(target)
