"""Time and memory of `specdb check` on pages built to be slow, at doubling sizes: each cost should grow in step with the page.

Usage: python bench/check_hostile.py [--sizes 16000,32000,64000,128000]
Each case is checked in a child process of its own (the database read once, outside the timing), which prints
the CPU seconds of the check and the peak memory Python allocated for it, both per byte of the page. Equal
figures down a column mean a cost linear in the page's length; the last column is the largest size's cost
per byte over the smallest's (1.0 is linear).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN_ON = "The H100 has 3.35 TB/s of HBM3 and 900 GB/s of NVLink, and the B200 has 8 TB/s "
# Each case: how a page of about n bytes is built, and the name that gives its format.
CASES = {
    "run-on sentence": ("(RUN_ON * (n // len(RUN_ON) + 1))[:n]", "page.txt"),
    "paragraph with no newline": ('("The H100 has 3.35 TB/s of HBM3. " * (n // 32 + 1))[:n]', "page.txt"),
    "'8x ' repeated": ('"8x " * (n // 3)', "page.txt"),
    "comparisons in one sentence": ('"8x faster than HBM on the H100 " * (n // 31)', "page.txt"),
    "unclosed <script> tags": ('"<html>" + "<script>x " * (n // 10)', "page.html"),
    "unclosed <!-- comments": ('"<html>" + "<!-- x " * (n // 7)', "page.html"),
    "figures of distinct values": ('" ".join(f"{1000 + i / 1000:.3f} GB/s of HBM on the H100." for i in range(n // 36))', "page.txt"),
    "generations in one paragraph": ('"its fifth-generation NVLink " * (n // 28)', "page.txt"),
}

CHILD = """
import json, resource, sys, time, tracemalloc
import specdb
from specdb.check.verdicts import Database, check_text
RUN_ON = {run_on!r}
n = {size}
page = {build}
database = Database(specdb.connect({specs!r}))
tracemalloc.start()
started = time.process_time()
findings = check_text(page, database, path={name!r})
seconds = time.process_time() - started
print(json.dumps({{"bytes": len(page.encode()), "seconds": seconds, "peak": tracemalloc.get_traced_memory()[1], "findings": len(findings)}}))
"""


def measure(case: str, size: int) -> dict:
    build, name = CASES[case]
    code = CHILD.format(run_on=RUN_ON, size=size, build=build, specs=str(ROOT / "specs"), name=name)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="16000,32000,64000,128000", help="page sizes in bytes, comma-separated")
    sizes = [int(size) for size in parser.parse_args().sizes.split(",")]
    print(f"{'case':30} " + " ".join(f"{size:>16,}" for size in sizes) + "   growth")
    for case in CASES:
        samples = [measure(case, size) for size in sizes]
        per_byte = [sample["seconds"] / sample["bytes"] for sample in samples]
        cells = " ".join(f"{cost * 1e6:6.1f} us {sample['peak'] / sample['bytes']:4.0f} B" for cost, sample in zip(per_byte, samples))
        print(f"{case:30} {cells}   {per_byte[-1] / per_byte[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
