"""A cold `specdb diff HEAD~1 HEAD` (nothing remembered, as on a CI runner) against a build of one side, on 16,000 records with 1% of the files changed.

Usage: python bench/cold_diff.py [--records 16000] [--change 0.01] [--rounds 3]

Each round runs, interleaved so a slow spell of a shared machine hits all of
them: a build of HEAD into a new database (the floor), the diff with an
empty cache, the same diff with what the first remembered (warm), and
`specdb --version` (start-up). Wall time, CPU time and the peak resident
memory of each process (from wait4) are the figures; the goal is a cold diff
within 1.2x the build's time and 2x its memory, and a warm diff within
0.5 s beyond start-up. Once, before the rounds, the cold diff's report is
compared with `--validate`'s, which reads both revisions whole.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from diff_history import make_history


def measured(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak resident MB) of one run of a command."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def report(command: list[str], env: dict[str, str]) -> str:
    return subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=16_000)
    parser.add_argument("--change", type=float, default=0.01)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    specdb = [sys.executable, "-m", "specdb"]
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}, Python {platform.python_version()}")

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "history"
        records, changed = make_history(root, args.records, args.change, seed=1)
        specs = str(root / "specs")
        env = {key: value for key, value in os.environ.items() if key not in ("SPECDB_SPECS", "SPECDB_DB", "PYTHONDONTWRITEBYTECODE")}
        print(f"{records} records; HEAD changes {changed} files")
        diff = [*specdb, "diff", "HEAD~1", "HEAD", "--specs", specs, "--format", "json"]
        database = Path(folder) / "head.sqlite"
        cold_cache, warm_cache = Path(folder) / "cold-cache", Path(folder) / "warm-cache"

        def cold_env() -> dict[str, str]:
            shutil.rmtree(cold_cache, ignore_errors=True)
            return {**env, "XDG_CACHE_HOME": str(cold_cache)}

        def build_env() -> dict[str, str]:
            database.unlink(missing_ok=True)
            return {**env, "XDG_CACHE_HOME": str(cold_cache)}

        warm_env = {**env, "XDG_CACHE_HOME": str(warm_cache)}
        reached = report(diff, warm_env)  # also what the warm diffs start from
        whole = report([*diff, "--validate"], cold_env())
        verdict = "equals" if reached == whole else "DIFFERS FROM"
        print(f"cold diff's report {verdict} --validate's ({len(json.loads(reached))} changes)")

        commands = {
            f"build of HEAD ({records} records)": ([*specdb, "build", "--specs", specs, "--db", str(database)], build_env),
            "diff HEAD~1 HEAD, cold": (diff, cold_env),
            "diff HEAD~1 HEAD, warm": (diff, lambda: warm_env),
            "specdb --version": ([*specdb, "--version"], lambda: env),
        }
        runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, (command, environment) in commands.items():
                runs[name].append(measured(command, environment()))

    medians = {name: tuple(statistics.median(run[index] for run in found) for index in range(3)) for name, found in runs.items()}
    print(f"{'command':34} {'wall':>8} {'CPU':>8} {'peak memory':>12}")
    for name, (wall, cpu, memory) in medians.items():
        print(f"{name:34} {wall:7.2f}s {cpu:7.2f}s {memory:9.0f} MB")
    build, cold, warm, start = medians.values()
    print(f"cold diff / build: wall {cold[0] / build[0]:.2f}x, CPU {cold[1] / build[1]:.2f}x, peak memory {cold[2] / build[2]:.2f}x "
          "(goal: at most 1.2x time, 2x memory)")
    print(f"warm diff beyond start-up: {warm[0] - start[0]:.2f} s wall, {warm[1] - start[1]:.2f} s CPU (goal: at most 0.5 s)")
    print(f"medians of {args.rounds} interleaved rounds")


if __name__ == "__main__":
    main()
