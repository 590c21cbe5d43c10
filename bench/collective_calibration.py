"""How well the expected collective time predicts a published run it was not calibrated on (leave-one-out).

Usage: python bench/collective_calibration.py

Each measured run in the bundled data is predicted from all the others
(`specdb.collective.estimate.leave_one_out`); the table gives estimate / measured per
run and the distribution of the ratios, beside the peak bound / measured.
"""

from __future__ import annotations

import math
import statistics
import tempfile
from pathlib import Path

from specdb.collective.calibration import Calibration, read_runs
from specdb.collective.estimate import estimate, leave_one_out
from specdb.resources import bundled_specs
from specdb.db.access import open_fresh


def bound_ratios(connection) -> dict[str, float]:
    """Peak bound / measured for each run: what the estimate gave before calibration."""
    calibration = Calibration(connection)
    ratios = {}
    for run in read_runs(connection):
        if run.scope == "per-port":
            ratios[run.label] = run.busbw / calibration.port_bandwidth(run.platform)
            continue
        result = estimate(connection, run.operation, platform=run.platform, size_bytes=run.compared_size,
                          accelerators=run.accelerators, algorithm=run.algorithm, calibration=calibration)
        ratios[run.label] = result.bound_seconds / run.measured_seconds
    return ratios


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        connection = open_fresh(Path(folder) / "specdb.sqlite", bundled_specs())
        rows = leave_one_out(connection)
        bounds = bound_ratios(connection)
    print("| run | size | estimate / measured | peak bound / measured | calibrated on |")
    print("| --- | --- | ---: | ---: | --- |")
    for row in rows:
        print(f"| {row['run']} | {row['size']} | {row['estimate_over_measured']:.2f} | {bounds[row['run']]:.2f} | {row['calibrated_on']} |")
    for label, ratios in (("estimate", [row["estimate_over_measured"] for row in rows]), ("peak bound", list(bounds.values()))):
        errors = [abs(math.log(ratio)) for ratio in ratios]
        print(f"\n{label} / measured over {len(ratios)} runs: min {min(ratios):.2f}, median {statistics.median(ratios):.2f}, "
              f"max {max(ratios):.2f}; median |error| {math.exp(statistics.median(errors)) - 1:.1%}, worst {math.exp(max(errors)) - 1:.1%}")


if __name__ == "__main__":
    main()
