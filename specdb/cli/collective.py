"""collective: how long a collective takes on each tier of a platform."""

import sys
from enum import Enum
from typing import Annotated, Optional

import typer

from specdb.cli.common import DbOption, Format, FormatOption, SpecsOption, emit, open_database
from specdb.cli.query import Basis, BasisOption


class Operation(str, Enum):
    all_reduce = "all-reduce"
    all_gather = "all-gather"
    reduce_scatter = "reduce-scatter"
    all_to_all = "all-to-all"
    point_to_point = "point-to-point"


class Tier(str, Enum):
    auto = "auto"
    scale_up = "scale-up"
    scale_out = "scale-out"


class Algorithm(str, Enum):
    ring = "ring"
    tree = "tree"


def collective(
    operation: Annotated[Operation, typer.Argument(help="The collective")],
    platform: Annotated[str, typer.Option("--platform", "-p", help="Platform (system record id or alias)")],
    size: Annotated[Optional[str], typer.Option("--size", help="Message size with its unit: 16GB, 512MiB")] = None,
    params: Annotated[Optional[float], typer.Option("--params", help="Number of parameters whose gradients are reduced, e.g. 8e9")] = None,
    dtype: Annotated[str, typer.Option("--dtype", help="Bytes per parameter with --params: fp32, bf16, fp16, fp8, fp4")] = "bf16",
    gpus: Annotated[Optional[int], typer.Option("--gpus", "-n", help="Accelerators taking part; omitted: the large-ring limit (2(N-1)/N -> 2)")] = None,
    tier: Annotated[Tier, typer.Option("--tier", help="auto places it as a framework would: inside the scale-up domain when it fits, else hierarchically")] = Tier.auto,
    algorithm: Annotated[Algorithm, typer.Option("--algorithm", help="ring, or tree (all-reduce only)")] = Algorithm.ring,
    basis: BasisOption = Basis.per_direction,
    latency: Annotated[Optional[str], typer.Option("--latency", help="Per-step latency where the data has none, e.g. 2us")] = None,
    specs: SpecsOption = None,
    db: DbOption = None,
    fmt: FormatOption = Format.table,
) -> None:
    """Estimate a collective's time with an alpha-beta model, on the platform's figures.

    Example: specdb collective all-reduce --params 8e9 --dtype bf16 --gpus 8 --platform nvidia-hgx-h100
    """
    from specdb.collective import describe, estimate, message_bytes, parse_latency

    tier_choice = tier.value
    if gpus is None and tier is Tier.auto:
        tier_choice = "scale-up"
    result = estimate(
        open_database(specs, db),
        operation.value,
        platform=platform,
        size_bytes=message_bytes(size, params, dtype),
        accelerators=gpus,
        tier=tier_choice,
        algorithm=algorithm.value,
        basis=basis.value,
        latency=parse_latency(latency) if latency else None,
    )
    if fmt is Format.json:
        from specdb.output import to_json

        sys.stdout.write(to_json(result.as_dict()))
        return
    emit(describe(result), fmt)
    if fmt is Format.table:
        from specdb.units import format_value

        print(
            f"\n{result.operation} of {format_value(result.size_bytes, 'size')} on {result.platform}: "
            f"{result.seconds * 1e3:.3g} ms, bound by {result.bound_by}; basis: {result.basis}"
        )
