"""import: turn a benchmark's output into measured figures in the specs, ready to review and commit."""

import datetime as dt
import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from specdb.cli.common import open_database
from specdb.cli.options import DbOption, SpecsOption, choice
from specdb.format.terms import COLLECTIVE_OPERATIONS, RUN_ALGORITHMS

import_app = typer.Typer(
    help="Import measurements as records to review and commit. Example: specdb import nccl-tests all_reduce.log --platform hgx-h100 --algorithm ring",
    no_args_is_help=True,
)


@import_app.command("nccl-tests")
def nccl_tests(
    log: Annotated[Path, typer.Argument(help="Text output of an nccl-tests or rccl-tests run (all_reduce_perf and the like)")],
    platform: Annotated[str, typer.Option("--platform", "-p", help="The platform it ran on (system record id or alias)")],
    algorithm: Annotated[str, choice(RUN_ALGORITHMS, "--algorithm", help="The algorithm the run used (set NCCL_ALGO when running it); default: the library chose, so the run checks estimates but calibrates none")],
    operation: Annotated[str, choice(COLLECTIVE_OPERATIONS, "--operation", help="The collective, when the log does not say")] = "all-reduce",
    gpus: Annotated[Optional[int], typer.Option("--gpus", "-n", help="GPUs in the run; default: the log's rank lines")] = None,
    record_id: Annotated[Optional[str], typer.Option("--id", help="Id of the new record; default: <platform>-nccl-tests-<date>")] = None,
    date: Annotated[Optional[str], typer.Option("--date", help="Date of the run (YYYY-MM-DD); default: today")] = None,
    specs: SpecsOption = None,
    db: DbOption = None,
) -> None:
    """Write an nccl-tests run as a measured-figures record (and a source record for the log) into the specs.

    The specs folder is the one named (--specs, SPECDB_SPECS or ./specs), never the bundled data.
    Example: specdb import nccl-tests all_reduce.log --platform hgx-h100 --algorithm ring
    """
    import re

    from specdb.cli.common import locate
    from specdb.errors import UsageError
    from specdb.locations import SPECS_ENV, is_specs_folder
    from specdb.load.newrecords import add_records
    from specdb.collective.nccltests import parse, read_log, records
    from specdb.format.schema import ID_PATTERN, parse_spec_date
    from specdb.analysis.tiers import platforms

    for flag, value in (("--platform", platform), ("--id", record_id), ("--date", date)):
        if value is not None and not value.strip():
            raise UsageError(f"{flag} is empty; give a value or leave the option out")
    if gpus is not None and gpus < 2:
        raise UsageError(f"--gpus {gpus}: a collective run has at least 2 GPUs")
    if specs is None and not os.environ.get(SPECS_ENV) and not is_specs_folder(Path("specs")):
        raise UsageError("no specs folder to write into: give --specs DIR (or SPECDB_SPECS), or run where ./specs is one")
    parsed = parse(read_log(log), str(log))
    ranks = len(parsed.devices)
    if gpus is not None and ranks and gpus != ranks:
        raise UsageError(f"--gpus {gpus}, but {log} lists {ranks} ranks; leave --gpus out, or import the log of the run you mean")
    if gpus is None and ranks == 0:
        raise UsageError(f"{log}: the number of GPUs is not in the log (no '# Rank' lines); give --gpus")
    if gpus is None and ranks < 2:
        raise UsageError(f"{log}: the log lists 1 rank; a collective run has at least 2 GPUs")
    count = gpus or ranks
    try:
        day = parse_spec_date(date).day.isoformat() if date else dt.date.today().isoformat()
    except ValueError as exc:
        raise UsageError(f"--date {exc}") from None
    [found] = platforms(open_database(specs, db), platform=platform)
    platform_id = found.id
    chosen_id = record_id or f"{platform_id}-nccl-tests-{day}"
    if not re.fullmatch(ID_PATTERN, chosen_id):
        raise UsageError(f"--id {chosen_id!r} is not a record id (lower case letters, digits and hyphens)")
    written = records(parsed, log_name=log.name, platform=platform_id, record_id=chosen_id, operation=operation,
                      algorithm=algorithm, accelerators=count, date=day)
    specs_dir, _ = locate(specs, db)
    # The source first: on its own it is a valid record, while the cluster record cites it.
    new = {f"source/{chosen_id}-log.yaml": written["source"], f"cluster/{chosen_id}.yaml": written["cluster"]}
    for path in add_records(specs_dir, new, str(log)):
        print(path)
