"""Time read commands on an up-to-date database as whole processes, against the floor of `python -c "import sqlite3"`.

Usage: python bench/read_path.py [--runs 30]
Target: each command's median under 5x the floor's median, measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


COMMANDS = (["stale", "--since", "2026-07"], ["query", "ratios", "--format", "json"], ["show", "nvidia-h100-sxm"])


def one_run(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
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
        # Interleaved, so that a slow spell of the machine hits the floor and the commands alike.
        timings: dict[str, list[float]] = {"floor": []}
        for _ in range(args.runs):
            timings["floor"].append(one_run(floor_command, env))
            for command in COMMANDS:
                timings.setdefault(" ".join(command), []).append(one_run([specdb, *command], env))
        floor = statistics.median(timings.pop("floor"))
        print(f"floor  python -c 'import sqlite3'      median {floor * 1000:7.1f} ms")
        worst = 0.0
        for name, runs in timings.items():
            seconds = statistics.median(runs)
            worst = max(worst, seconds / floor)
            print(f"specdb {name:32} median {seconds * 1000:7.1f} ms  {seconds / floor:4.1f}x floor")
        print(f"worst ratio {worst:.1f}x (target < 5x)")


if __name__ == "__main__":
    main()
