"""peak: a part's peak throughput for one number format, the denominator of an MFU."""

from __future__ import annotations  # the Typer declarations in the signatures are read only when the full CLI is assembled

import sys
from typing import Annotated, Any

from specdb.cli.common import lazy_module, open_database

typer = lazy_module("typer")
options = lazy_module("specdb.cli.options")

PEAK_FORMATS = ("table", "json")


def peak(
    device: Annotated[str, typer.Argument(help="Any name of the part: id, alias, or what torch.cuda.get_device_name(), nvidia-smi or JAX's device_kind print")],
    dtype: Annotated[str, options.choice(("bf16", "fp16", "fp8", "fp4", "int8", "tf32"), "--dtype", "-d", help="Number format")] = "bf16",
    sparse: Annotated[bool, typer.Option("--sparse", help="The peak with 2:4 structured sparsity (dense by default)")] = False,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    fmt: Annotated[str, options.choice(PEAK_FORMATS, "--format", "-f", help="table for people, or json")] = "table",
) -> None:
    """A part's peak throughput for one number format, dense unless --sparse, with its counting, review date and sources.

    Says so, and exits 2, when the data holds no such peak (a format the part does not run natively, or one not
    recorded). Example: specdb peak "NVIDIA H100 80GB HBM3" --dtype bf16
    """
    from specdb.analysis.peaks import peak as find_peak

    found = find_peak(open_database(specs, db), device, dtype, sparse)
    if fmt == "json":
        from specdb.output import to_json

        sys.stdout.write(to_json(found))
    else:
        sys.stdout.write(_describe(found))


def _describe(found: dict[str, Any]) -> str:
    lines = [
        f"{found['record_name']} ({found['record_id']}): {found['sparsity']} {found['dtype']} peak {found['value_text']} ({found['value']:g} FLOP/s)",
        f"  figure {found['figure']}, {found['status']}, as of {found['as_of']}, reviewed {found['reviewed']}",
    ]
    if found["note"]:
        lines.append(f"  note: {found['note']}")
    for source in found["sources"]:
        quote = f' "{source["quote"]}"' if source.get("quote") else ""
        lines.append(f"  source: {source['source_id']}{' ' + source['url'] if source.get('url') else ''}{quote}")
    return "\n".join(lines) + "\n"
