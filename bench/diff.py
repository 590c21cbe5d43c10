"""Time `specdb diff` between two git revisions: on the bundled data, and on synthetic data that differs in 1% of figures.

Usage: python bench/diff.py [--records 1000 10000] [--runs 3]

Each diff is timed as a whole process, less the start-up of `specdb --version`
measured in the same run ("work beyond start-up"); the in-process split shows
reading both revisions (git, parse, validate) against the comparison itself.
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
REPO = HERE.parent


def seconds(command: list[str], env: dict[str, str], runs: int) -> float:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args], check=True, capture_output=True)


def in_process(specs: Path, old: str, new: str) -> tuple[float, float, int]:
    sys.path.insert(0, str(REPO))
    from specdb.diff import diff, open_version

    start = time.perf_counter()
    before, after = open_version(old, specs), open_version(new, specs)
    read = time.perf_counter() - start
    start = time.perf_counter()
    changes = diff(before, after)
    return read, time.perf_counter() - start, len(changes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--per-record", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    specdb = str(Path(sys.executable).with_name("specdb"))
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start_up = seconds([specdb, "--version"], env, args.runs)
    print(f"start-up (specdb --version): {start_up * 1000:.0f} ms")

    with tempfile.TemporaryDirectory() as folder:
        bundled = Path(folder) / "bundled"
        subprocess.run(["git", "clone", "-q", str(REPO), str(bundled)], check=True)
        gpu = bundled / "specs" / "accelerator" / "nvidia-h100-sxm.yaml"
        gpu.write_text(gpu.read_text().replace("value: 3.35 TB/s", "value: 3.4 TB/s", 1))
        git(bundled, "commit", "-qam", "change one figure")
        total = seconds([specdb, "diff", "HEAD~1", "HEAD", "--specs", str(bundled / "specs")], env, args.runs)
        read, compare, changes = in_process(bundled / "specs", "HEAD~1", "HEAD")
        print(f"bundled data: {total * 1000:.0f} ms whole process, {(total - start_up) * 1000:.0f} ms beyond start-up "
              f"(reading both revisions {read * 1000:.0f} ms, comparing {compare * 1000:.1f} ms; {changes} changes)")

        per_figure = {}
        for records in args.records:
            figures = records * args.per_record
            repo = Path(folder) / f"synthetic-{records}"
            specs = repo / "specs"
            generate = [sys.executable, str(HERE / "synthetic.py"), str(specs), "--figures", str(figures), "--per-record", str(args.per_record)]
            subprocess.run(generate, check=True, stdout=subprocess.DEVNULL)
            git(repo.parent, "init", "-q", str(repo))
            git(repo, "add", "-A")
            git(repo, "commit", "-qm", "base")
            subprocess.run([*generate, "--change", "0.01"], check=True, stdout=subprocess.DEVNULL)
            git(repo, "commit", "-qam", "1% of figures changed")
            total = seconds([specdb, "diff", "HEAD~1", "HEAD", "--specs", str(specs), "--stat"], env, args.runs)
            read, compare, changes = in_process(specs, "HEAD~1", "HEAD")
            per_figure[figures] = (total - start_up) / figures
            print(f"{records} records, {figures} figures, 1% changed: {total:.2f} s whole process, {total - start_up:.2f} s beyond start-up "
                  f"(reading both revisions {read:.2f} s, comparing {compare:.3f} s; {changes} changes)")
        if len(per_figure) > 1:
            print(linearity("diff", per_figure))


if __name__ == "__main__":
    main()
