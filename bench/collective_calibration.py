"""How well the expected collective time predicts published runs it was not calibrated on.

Usage: python bench/collective_calibration.py

Three tables over the bundled data (`specdb.collective.validation`): leave one out (each calibration run
predicted from the others), leave the platform out (each run predicted with its whole platform's runs set aside)
and held out (the runs whose algorithm NCCL chose, and the runs on more than 256 GPUs, which calibrate nothing,
predicted with the algorithm NCCL's tuner would pick, with the constants of the run's NCCL version, or the run's algorithm). Each gives estimate / measured per run, the peak bound / measured beside it, and the distribution.
"""

from __future__ import annotations

import math
import statistics
import tempfile
from pathlib import Path

from specdb.collective.validation import held_out, leave_one_out, leave_platform_out
from specdb.db.access import open_fresh
from specdb.resources import bundled_specs


def summary(label: str, ratios: list[float]) -> str:
    errors = [abs(math.log(ratio)) for ratio in ratios]
    within = sum(1 for ratio in ratios if 1 / 1.25 <= ratio <= 1.25)
    return (f"{label} / measured over {len(ratios)} runs: min {min(ratios):.2f}, median {statistics.median(ratios):.2f}, max {max(ratios):.2f}; "
            f"median |error| {math.exp(statistics.median(errors)) - 1:.1%}, worst {math.exp(max(errors)) - 1:.1%}; within 25 %: {within} of {len(ratios)}")


def table(title: str, rows: list[dict]) -> None:
    print(f"\n## {title}\n")
    print("| run | GPUs | domains | size | algorithm | estimate / measured | peak bound / measured |")
    print("| --- | ---: | ---: | --- | --- | ---: | ---: |")
    for row in rows:
        print(f"| {row['run']} | {row['gpus']} | {row['domains']} | {row['size']} | {row['algorithm']} | {row['estimate_over_measured']:.2f} | {row['bound_over_measured']:.2f} |")
    print()
    print(summary("estimate", [row["estimate_over_measured"] for row in rows]))
    print(summary("peak bound", [row["bound_over_measured"] for row in rows]))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        connection = open_fresh(Path(folder) / "specdb.sqlite", bundled_specs())
        table("Leave one out", leave_one_out(connection))
        table("Leave the platform out", leave_platform_out(connection))
        table("Held out (NCCL chose the algorithm, or more than 256 GPUs; never calibrated on)", held_out(connection))


if __name__ == "__main__":
    main()
