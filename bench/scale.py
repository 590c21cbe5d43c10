"""Build and read at scale, as whole processes, against the floor of parsing and inserting the same data.

Usage: python bench/scale.py [--sizes 10000 100000] [--runs 5]

For each size (a number of figures, 10 per record, from bench/synthetic.py):
  floor         parse every file with PyYAML's C loader and insert one row per
                figure with the standard library's sqlite3 in one transaction
  validate      specdb validate
  full build    specdb build into a new database
  no change     specdb build again (nothing to do)
  one changed   specdb build after one file's value changed
  read          specdb stale --since 2026-07, specdb query figures --record ID
Targets: full build within 2x the floor; a no-change rebuild within 1.5x a read
command; cost linear in the number of figures. Peak memory is the largest
resident set of the process.
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

from linearity import linearity

HERE = Path(__file__).resolve().parent
FLOOR = """
import os, sqlite3, sys, yaml
rows = []
for folder, _, names in os.walk(sys.argv[1]):
    for name in names:
        if name.endswith(".yaml"):
            with open(os.path.join(folder, name), "rb") as handle:
                data = yaml.load(handle, Loader=yaml.CSafeLoader)
            for figure, body in (data.get("figures") or {}).items():
                rows.append((data["id"], figure, str(body["value"]), body.get("direction"), body.get("scope"), str(body["reviewed"])))
connection = sqlite3.connect(sys.argv[2])
connection.execute("CREATE TABLE figure (record_id, name, value, direction, scope, reviewed)")
with connection:
    connection.executemany("INSERT INTO figure VALUES (?, ?, ?, ?, ?, ?)", rows)
"""


def run(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KiB) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    return seconds, usage.ru_maxrss


def best(command: list[str], env: dict[str, str], runs: int, before=None) -> tuple[float, int]:
    timings, peak = [], 0
    for _ in range(runs):
        if before:
            before()
        seconds, memory = run(command, env)
        timings.append(seconds)
        peak = max(peak, memory)
    return statistics.median(timings), peak


def measure(figures: int, runs: int, specdb: str, env: dict[str, str], folder: Path) -> dict[str, tuple[float, int]]:
    specs = folder / f"specs-{figures}"
    subprocess.run([sys.executable, str(HERE / "synthetic.py"), str(specs), "--figures", str(figures)], check=True, stdout=subprocess.DEVNULL)
    db = folder / f"specdb-{figures}.sqlite"
    floor_db = folder / f"floor-{figures}.sqlite"
    common = ["--specs", str(specs)]

    def fresh_floor() -> None:
        floor_db.unlink(missing_ok=True)

    def fresh_db() -> None:
        for path in folder.glob(f"specdb-{figures}.sqlite*"):
            path.unlink()

    changed = specs / "link" / "synthetic-link-000000.yaml"
    original = changed.read_text()

    def change_one() -> None:
        text = changed.read_text()
        changed.write_text(text.replace("value: 100 GB/s", "value: 99 GB/s") if "value: 100 GB/s" in text else original)

    results = {
        "floor": best([sys.executable, "-c", FLOOR, str(specs), str(floor_db)], env, runs, fresh_floor),
        "validate": best([specdb, "validate", *common], env, runs),
        "full build": best([specdb, "build", *common, "--db", str(db)], env, runs, fresh_db),
    }
    results["no change"] = best([specdb, "build", *common, "--db", str(db)], env, runs)
    results["one changed"] = best([specdb, "build", *common, "--db", str(db)], env, runs, change_one)
    results["read: stale"] = best([specdb, "stale", "--since", "2026-07", *common, "--db", str(db)], env, runs)
    results["read: figures"] = best([specdb, "query", "figures", "--record", "synthetic-link-000001", *common, "--db", str(db)], env, runs)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    specdb = str(Path(sys.executable).with_name("specdb"))
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    per_figure = {}
    with tempfile.TemporaryDirectory() as folder:
        for figures in args.sizes:
            results = measure(figures, args.runs, specdb, env, Path(folder))
            floor = results["floor"][0]
            read = min(results["read: stale"][0], results["read: figures"][0])
            print(f"\n{figures} figures ({figures // 10} records), median of {args.runs}:")
            for name, (seconds, memory) in results.items():
                print(f"  {name:14} {seconds:8.3f} s  peak {memory / 1024:7.1f} MiB")
            print(f"  full build / floor       {results['full build'][0] / floor:.2f}x (target <= 2x)")
            print(f"  no change / read command {results['no change'][0] / read:.2f}x (target <= 1.5x)")
            per_figure[figures] = results["full build"][0] / figures
        if len(per_figure) > 1:
            print("\n" + linearity("full build", per_figure))


if __name__ == "__main__":
    main()
