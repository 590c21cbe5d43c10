"""How well the expected time predicts published runs it was not calibrated on.

Three ways, each run's estimate over its measured time:
- leave one out: each calibration run predicted from all the others;
- leave the platform out: each run predicted with every run on its platform set aside, so its efficiencies are
  borrowed from other platforms, as for a platform nobody has measured;
- held out: the runs whose algorithm the library chose (`default`) and the runs on more than HELD_OUT_ABOVE
  accelerators, which calibrate nothing by construction, each predicted from all the calibration runs: with the
  algorithm NCCL's tuner would pick (with the constants of the run's NCCL version) where the library chose, with the
  run's own algorithm otherwise.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from specdb.collective.calibration import (
    DEFAULT,
    Calibration,
    Run,
    is_bandwidth_run,
    is_held_out,
    read_runs,
)
from specdb.collective.estimate import estimate
from specdb.format.units import format_value


def leave_one_out(connection: sqlite3.Connection) -> list[dict[str, Any]]:
    """Each calibration run predicted from all the others."""
    runs = read_runs(connection)
    return _rows(connection, [run for run in runs if not is_held_out(run)], lambda run: frozenset({run.figure_id}))


def leave_platform_out(connection: sqlite3.Connection) -> list[dict[str, Any]]:
    """Each calibration run predicted with every run on its platform set aside."""
    runs = read_runs(connection)
    return _rows(connection, [run for run in runs if not is_held_out(run)],
                 lambda run: frozenset(other.figure_id for other in runs if other.platform == run.platform))


def held_out(connection: sqlite3.Connection) -> list[dict[str, Any]]:
    """Each run whose algorithm the library chose or that spans more than HELD_OUT_ABOVE accelerators, predicted from all the calibration runs."""
    return _rows(connection, [run for run in read_runs(connection) if is_held_out(run)], lambda run: frozenset())


def _rows(connection: sqlite3.Connection, runs: list[Run], excluded) -> list[dict[str, Any]]:
    rows = []
    for run in runs:
        calibration = Calibration(connection, exclude=excluded(run))
        if run.platform not in calibration.topologies:
            continue
        row = predict(connection, run, calibration)
        if row is not None:
            rows.append(row)
    return rows


def predict(connection: sqlite3.Connection, run: Run, calibration: Calibration) -> dict[str, Any] | None:
    """One run's estimate over its measured time, the peak bound's over it, and what the estimate was calibrated on."""
    if run.scope == "per-port":
        port = calibration.port_bandwidth(run.platform)
        if not port:
            return None
        efficiency = calibration.efficiency(run.platform, "scale-out", run.algorithm, run.operation)
        predicted, bounded = run.busbw / ((efficiency.value if efficiency else 1.0) * port), run.busbw / port
        source, algorithm = efficiency.source if efficiency else "no measured run: the peak bound", run.algorithm
    else:
        result = estimate(connection, run.operation, platform=run.platform, size_bytes=run.compared_size, accelerators=run.accelerators,
                          algorithm="auto" if run.algorithm == DEFAULT else run.algorithm, calibration=calibration, domains=run.domains,
                          library=run.library)
        predicted, bounded = result.seconds / run.measured_seconds, result.bound_seconds / run.measured_seconds
        source = "; ".join(sorted({e.efficiency_source if is_bandwidth_run(run) else e.latency_source for e in result.expected}))
        algorithm = result.bound.algorithm
    domain = calibration.topologies[run.platform].domain
    return {
        "run": run.label, "gpus": run.accelerators, "domains": run.domains or (-(-run.accelerators // domain) if domain else 1),
        "size": format_value(run.size_bytes, "size") if run.size_bytes else "peak", "algorithm": algorithm,
        "estimate_over_measured": round(predicted, 3), "bound_over_measured": round(bounded, 3), "calibrated_on": source,
    }
