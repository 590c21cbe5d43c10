"""Time read commands on an up-to-date database as whole processes, against the floor of `python -c "import sqlite3"`.

Usage: python bench/read_path.py [--runs 40]
Each round runs the floor and then every command once, so a slow spell of the
machine hits all of them alike; the medians of wall time and of CPU time (user
plus system, from the children's resource usage) are compared with the floor's.
Target: every read command, in the default table format and in JSON, at most 3x
the floor; a no-change `build` no slower than a read.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

READS = (
    ["list"],
    ["stale", "--since", "2026-07"],
    ["query", "ratios"],
    ["show", "nvidia-h100-sxm"],
)
COMMANDS = (
    *READS,
    *([*command, "--format", "json"] for command in READS),
    ["build"],
)


def one_run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def machine() -> str:
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores, {memory:.0f} GiB, {platform.system()} {platform.machine()}, Python {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    specdb = str(Path(sys.executable).with_name("specdb"))
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "SPECDB_DB": os.path.join(folder, "bench.sqlite")}
        # Measure as an installed package runs: with its bytecode cache, written by the warm-up runs.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([specdb, "build"], env=env, check=True, stderr=subprocess.DEVNULL)
        for command in COMMANDS:
            subprocess.run([specdb, *command], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        floor_command = [sys.executable, "-c", "import sqlite3"]
        timings: dict[str, list[tuple[float, float]]] = {"floor": []}
        for _ in range(args.runs):
            timings["floor"].append(one_run(floor_command, env))
            for command in COMMANDS:
                timings.setdefault(" ".join(command), []).append(one_run([specdb, *command], env))
    floor_runs = timings.pop("floor")
    floor_wall, floor_cpu = (statistics.median(run[i] for run in floor_runs) for i in (0, 1))
    load = os.getloadavg()[0]
    print(f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}; load average {load:.1f}; {args.runs} rounds")
    print(f"{'':45} {'wall':>9} {'x floor':>8} {'cpu':>9} {'x floor':>8}")
    floor_name = 'floor: python -c "import sqlite3"'
    print(f"{floor_name:45} {floor_wall * 1e3:6.1f} ms {'':8} {floor_cpu * 1e3:6.1f} ms")
    worst_wall = worst_cpu = 0.0
    for name, runs in timings.items():
        wall, cpu = (statistics.median(run[i] for run in runs) for i in (0, 1))
        if name != "build":
            worst_wall, worst_cpu = max(worst_wall, wall / floor_wall), max(worst_cpu, cpu / floor_cpu)
        print(f"{'specdb ' + name:45} {wall * 1e3:6.1f} ms {wall / floor_wall:7.2f}x {cpu * 1e3:6.1f} ms {cpu / floor_cpu:7.2f}x")
    print(f"worst read: {worst_wall:.2f}x the floor in wall time, {worst_cpu:.2f}x in CPU time (target: at most 3x)")


if __name__ == "__main__":
    main()
