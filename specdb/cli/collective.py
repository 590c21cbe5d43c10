"""collective: how long a collective takes on each tier of a platform."""

from __future__ import annotations  # the Typer declarations in the signatures are read only when the full CLI is assembled
import sys
from typing import Annotated, Optional

from specdb.cli.common import emit, lazy_module, open_database
from specdb.collective.bound import ALGORITHMS, TIER_CHOICES
from specdb.format.terms import COLLECTIVE_OPERATIONS

typer = lazy_module("typer")
options = lazy_module("specdb.cli.options")


def collective(
    operation: Annotated[str, options.choice_argument(COLLECTIVE_OPERATIONS, help="The collective")],
    platform: Annotated[str, typer.Option("--platform", "-p", help="Platform (system record id or alias)")],
    size: Annotated[Optional[str], typer.Option("--size", help="Message size with its unit: 16GB, 512MiB")] = None,
    params: Annotated[Optional[float], typer.Option("--params", help="Number of parameters whose gradients are reduced, e.g. 8e9")] = None,
    dtype: Annotated[str, typer.Option("--dtype", help="Bytes per parameter with --params: fp32, bf16, fp16, fp8, fp4")] = "bf16",
    gpus: Annotated[Optional[int], typer.Option("--gpus", "-n", help="Accelerators taking part; omitted: the large-ring limit (2(N-1)/N -> 2), whose ring and tree latency is left out")] = None,
    tier: Annotated[str, options.choice(TIER_CHOICES, "--tier", help="auto places it as a framework would: inside the scale-up domain when it fits, else hierarchically; without --gpus, in the scale-up domain")] = "auto",
    algorithm: Annotated[str, options.choice(("auto", *ALGORITHMS), "--algorithm", help="auto picks the algorithm NCCL's tuner would (the least time in NCCL's own cost model); tree, nvls (NVLink SHARP) and collnet (InfiniBand SHARP across domains) are all-reduce only")] = "auto",
    basis: options.BasisOption = "per-direction",
    latency: Annotated[Optional[str], typer.Option("--latency", help="Per-step latency where the data has none, e.g. 2us")] = None,
    nccl_version: Annotated[Optional[str], typer.Option("--nccl-version", help="The NCCL version whose tuner constants choose the algorithm with auto, e.g. 2.26.2 (Blackwell's tree cap changed in 2.28); default: 2.28 and later")] = None,
    no_in_network: Annotated[bool, typer.Option("--no-in-network", help="Leave out reduction in the switches (NVLink SHARP, InfiniBand SHARP), as on clusters that do not enable it")] = False,
    specs: options.SpecsOption = None,
    db: options.DbOption = None,
    refresh: options.RefreshOption = False,
    fmt: options.FormatOption = "table",
) -> None:
    """Estimate a collective's time: the peak bound from the link figures, and the time to expect from measured runs.

    Example: specdb collective all-reduce --params 8e9 --dtype bf16 --gpus 8 --platform nvidia-hgx-h100
    """
    from specdb.collective.estimate import describe, estimate, footer, message_bytes, nccl_library, parse_latency

    result = estimate(
        open_database(specs, db, refresh),
        operation,
        platform=platform,
        size_bytes=message_bytes(size, params, dtype),
        accelerators=gpus,
        tier=tier,
        algorithm=algorithm,
        basis=basis,
        latency=parse_latency(latency) if latency else None,
        in_network=not no_in_network,
        library=nccl_library(nccl_version) if nccl_version is not None else None,
    )
    emit(describe(result), fmt, document=result.as_dict(), one_record=True)
    if fmt == "table":
        from specdb.output import terminal_width, wrapped_lines
        from specdb.format.units import format_value

        chosen = f"{result.bound.algorithm}, NCCL's tuner's choice of {', '.join(result.considered)}" if result.considered else result.bound.algorithm
        scaled = ("efficiencies measured in published runs; latency left out, give --gpus to include it"
                  if any(e.phase.latency_left_out for e in result.expected) else "efficiencies and latencies measured in published runs")
        summary = (
            f"\n{result.bound.operation} of {format_value(result.bound.size_bytes, 'size')} on {result.bound.platform} ({chosen}):\n"
            f"  expected   {result.seconds * 1e3:.3g} ms  (peak figures scaled by {scaled})\n"
            f"  peak bound {result.bound_seconds * 1e3:.3g} ms  (the links' peak figures only; basis: {result.bound.basis})\n"
            f"  algbw {result.algbw / 1e9:.4g} GB/s, busbw {result.busbw / 1e9:.4g} GB/s (nccl-tests' definitions, at the expected time)"
        )
        sys.stdout.write(wrapped_lines([summary, *(f"  {source}" for source in footer(result))], terminal_width(sys.stdout)))
