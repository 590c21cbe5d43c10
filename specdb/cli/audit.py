"""audit: another project's hand-kept hardware table, field by field, against the database."""

from __future__ import (
    annotations,  # the Typer declarations in the signatures are read only when the full CLI is assembled
)

import sys
from typing import Annotated, Optional

from specdb.audit import FORMATS, OUTPUTS
from specdb.cli.common import lazy_module, locate, open_database
from specdb.errors import EXIT_FINDINGS

typer = lazy_module("typer")
options = lazy_module("specdb.cli.options")


def audit(
    paths: Annotated[list[str], typer.Argument(help="The table files to audit (never written to)", show_default=False)],
    as_format: Annotated[Optional[str], options.choice(FORMATS, "--as", help="Read the files in this format instead of detecting it")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="unmatched findings fail too")] = False,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    output: Annotated[str, options.choice(OUTPUTS, "--format", "-f", help="table (a summary per file and what is wrong), json or markdown (a review comment)")] = "table",
) -> None:
    """Judge every field of another project's hardware table that maps to a figure: ok, mismatch, stale, sparse-as-dense,
    mixed-basis, wrong-variant or unmatched, each with its line, what specdb holds (quote and source) and a replacement.

    Reads AIConfigurator systems YAML, llm-analysis GPU JSON, InferenceX gpu-specs.ts, huggingface.js hardware.ts, Epoch
    AI's hardware CSV, Python peak-FLOPS tables and Markdown tables; the format is detected unless --as names it. A value
    the figure had in an earlier commit of the specs (where they are in git) is stale. Exit 1 on any finding but ok or
    unmatched (with --strict, unmatched too).

    Examples: specdb audit systems/b200_sxm.yaml ; specdb audit --format json throughput.py ; specdb audit --as markdown notes.txt
    """
    from specdb.audit.formats import read, read_text
    from specdb.audit.judge import Data, failing, judge
    from specdb.audit.render import render, summary
    from specdb.output import terminal_width

    tables = []
    for path in paths:
        text = read_text(path)
        tables.append((path, *read(path, text, as_format)))
    specs_dir, _ = locate(specs, db)
    data = Data(open_database(specs, db, refresh), specs_dir)
    audits = [(path, name, judge(fields, data, path)) for path, name, fields in tables]
    sys.stdout.write(render(audits, output, terminal_width(sys.stdout)))
    if output != "table":
        for path, name, findings in audits:
            print(summary(path, name, findings), file=sys.stderr)
    if any(failing(findings, strict=strict) for _, _, findings in audits):
        raise SystemExit(EXIT_FINDINGS)
