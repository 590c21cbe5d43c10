"""Time `specdb diff` on 10,000 records with 1% of the files changed: two git revisions, and two database files.

Usage: python bench/diff.py [--records 10000] [--change 0.01] [--rounds 7]

Each round runs the measured diffs interleaved with their floors, so a slow
spell of a shared machine hits both: `specdb --version` (start-up) and
`python -c "import sqlite3"` for every diff, and `git diff --stat HEAD~1 HEAD`
for the git work of a revision diff. CPU time (user + system of the process)
is the main figure, wall time beside it; "beyond start-up" subtracts the
median of `specdb --version`. The revision diff is timed warm (both revisions
validated before, so only changed files are read); the first diff of two
revisions never seen, and the first after a new commit, are timed once each.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from diff_history import git, make_history


def timed(command: list[str], env: dict[str, str], cwd: Path | None = None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--change", type=float, default=0.01)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    specdb = str(Path(sys.executable).with_name("specdb"))
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}, Python {platform.python_version()}")

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "history"
        records, changed = make_history(root, args.records, args.change, seed=1)
        specs = str(root / "specs")
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(folder) / "cache")}
        # Measure as an installed package runs: with its bytecode cache.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        print(f"{records} records; HEAD changes {changed} files")

        diff_revisions = [specdb, "diff", "HEAD~1", "HEAD", "--specs", specs, "--stat"]
        cold = timed(diff_revisions, env)
        # A new commit on top: its parent (HEAD) is known, the commit is not.
        (root / "specs" / "source" / "synthetic-note.yaml").write_text(
            "schema: 2\nid: synthetic-note\nkind: source\nname: A new source\npublisher: bench\ncitation: added by bench/diff.py\npublished: 2026-01-01\n"
        )
        git(root, "add", "-A")
        git(root, "commit", "-qm", "one source added")
        new_commit = timed([specdb, "diff", "HEAD~1", "HEAD", "--specs", specs, "--stat"], env)
        git(root, "reset", "-q", "--hard", "HEAD~1")

        databases = []
        for revision in ("HEAD~1", "HEAD"):
            checkout = Path(folder) / f"at-{revision.replace('~', '-')}"
            git(root, "worktree", "add", "-q", "--detach", str(checkout), revision)
            database = Path(folder) / f"{checkout.name}.sqlite"
            subprocess.run([specdb, "build", "--specs", str(checkout / "specs"), "--db", str(database)], env=env, check=True, stderr=subprocess.DEVNULL)
            databases.append(str(database))

        commands = {
            "specdb --version": [specdb, "--version"],
            "python -c 'import sqlite3'": [sys.executable, "-c", "import sqlite3"],
            "git diff --stat HEAD~1 HEAD": ["git", "-C", str(root), "diff", "--stat", "HEAD~1", "HEAD"],
            "diff HEAD~1 HEAD (warm)": diff_revisions,
            "diff of two database files": [specdb, "diff", *databases, "--stat"],
        }
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, command in commands.items():
                runs[name].append(timed(command, env))

    medians = {name: (statistics.median(c for c, _ in found), statistics.median(w for _, w in found)) for name, found in runs.items()}
    start_cpu, start_wall = medians["specdb --version"]
    print(f"{'command':34} {'CPU':>9} {'wall':>9} {'CPU beyond start-up':>20} {'wall beyond start-up':>21}")
    for name, (cpu, wall) in medians.items():
        beyond = f"{(cpu - start_cpu) * 1000:18.0f} ms {(wall - start_wall) * 1000:18.0f} ms" if name.startswith("diff") else ""
        print(f"{name:34} {cpu * 1000:6.0f} ms {wall * 1000:6.0f} ms {beyond}")
    for name, (cpu, wall) in (("first diff, both revisions new", cold), ("first diff after a new commit", new_commit)):
        print(f"{name:34} {cpu * 1000:6.0f} ms {wall * 1000:6.0f} ms {(cpu - start_cpu) * 1000:18.0f} ms {(wall - start_wall) * 1000:18.0f} ms  (one run)")
    print(f"medians of {args.rounds} interleaved rounds")


if __name__ == "__main__":
    main()
