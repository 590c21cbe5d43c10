"""Speed of `specdb check` in MB of page a second, against a floor, on prose, a run-on sentence and large tables.

Usage: python bench/check_speed.py [--rounds 3]

Each case is timed in rounds, interleaved with its floor (one pass of the quantity pattern over the page, the
least any checker must do) so that the machine's load falls on both alike; the medians are printed with the
check's MB/s and its ratio to the floor. The run-on sentence is also timed at four times its length: the last
column is its cost per byte at 64 kB over that at 16 kB (1.0 is linear).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import specdb
from specdb.check.claims import QUANTITY
from specdb.check.verdicts import Database, check_text

MB = 1_000_000
RUN_ON = "The H100 has 3.35 TB/s of HBM3 and 900 GB/s of NVLink, and the B200 has 8 TB/s "
PARTS = ("H100 SXM", "H200", "B200", "A100 80GB", "MI300X", "Gaudi 3", "TPU v5p", "L40S")


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _markdown_table(size: int) -> str:
    header = "| Part | HBM (TB/s) | Memory (GB) | NVLink (bidirectional) | Notes |\n|---|---:|---:|---|---|\n"
    rows = [f"| {PARTS[i % len(PARTS)]} | {3 + i % 5}.{i % 10} | {80 + i % 64} | {900 + i % 9} GB/s | row {i}, measured ? |\n"
            for i in range(size // 60)]
    return (header + "".join(rows))[:size]


def _html_table(size: int) -> str:
    head = ("<html><body><table><caption>Accelerators</caption>\n<tr><th>Part</th><th>HBM (TB/s)</th><th>Memory (GB)</th>"
            "<th>NVLink</th></tr>\n")
    rows = [f"<tr><td>{PARTS[i % len(PARTS)]}</td><td>{3 + i % 5}.{i % 10}</td><td>{80 + i % 64}</td><td>{900 + i % 9} GB/s</td></tr>\n"
            for i in range(size // 80)]
    return head + "".join(rows) + "</table></body></html>\n"


def cases() -> dict[str, tuple[str, str]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    prose = "\n\n".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md")))
    return {
        "README as Markdown, 1 MB": (_repeat(readme, MB), "page.md"),
        "docs as plain text, 1 MB": (_repeat(prose, MB), "page.txt"),
        "run-on sentence, 16 kB": (_repeat(RUN_ON, 16_000), "page.txt"),
        "Markdown table, 1 MB": (_markdown_table(MB), "page.md"),
        "HTML table, 1 MB": (_html_table(MB), "page.html"),
    }


def _seconds(work) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    database = Database(specdb.connect(ROOT / "specs"))
    pages = cases()
    pages["run-on sentence, 64 kB"] = (_repeat(RUN_ON, 64_000), "page.txt")
    checks: dict[str, list[float]] = {name: [] for name in pages}
    floors: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(rounds):
        for name, (page, path) in pages.items():
            floors[name].append(_seconds(lambda page=page: sum(1 for _ in QUANTITY.finditer(page))))
            checks[name].append(_seconds(lambda page=page, path=path: check_text(page, database, path=path)))
    print(f"{'page':28} {'bytes':>10} {'check s':>9} {'MB/s':>7} {'floor s':>9} {'ratio':>7}")
    for name, (page, _) in pages.items():
        check, floor = statistics.median(checks[name]), statistics.median(floors[name])
        size = len(page.encode())
        print(f"{name:28} {size:>10,} {check:9.3f} {size / MB / check:7.2f} {floor:9.4f} {check / max(floor, 1e-9):7.1f}")
    short, long = (statistics.median(checks[name]) / len(pages[name][0]) for name in ("run-on sentence, 16 kB", "run-on sentence, 64 kB"))
    print(f"run-on sentence: cost per byte at 64 kB over 16 kB: {long / short:.2f} (1.0 is linear)")


if __name__ == "__main__":
    main()
