"""A git history of realistic specs for diff benchmarks: the bundled specs replicated under renamed ids, then a commit changing 1% of the files.

Usage: python bench/diff_history.py OUT [--records 10000] [--change 0.01] [--seed 1]

Copy k of every record (whole copies only, so every reference resolves) gets the id `<id>-r<k>` (every reference follows) and
aliases suffixed ` r<k>`, so the copies form one valid dataset with the
bundled data's shape: systems built on accelerators, links and fabrics,
derived figures, claim citations. The second commit raises the first value of
each chosen file by 0.1%, which moves the tier ratios of the platforms built
on a changed accelerator or link.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "specs"
_ALIASES = re.compile(r"^aliases: \[(.*)\]$", re.MULTILINE)
_VALUE = re.compile(r"^(\s+value: )([0-9.]+)( [A-Za-z].*)$", re.MULTILINE)


def git(repo: Path, *args: str) -> str:
    command = ["git", "-C", str(repo), "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def replicate(out: Path, records: int) -> list[Path]:
    """Whole copies of the bundled specs, as many as come nearest `records` record files; the files written, in order."""
    originals = sorted(path for path in BUNDLED.rglob("*.yaml") if path.name != "policy.yaml")
    ids = sorted((path.stem for path in originals), key=len, reverse=True)
    one_id = re.compile(r"(?<![a-z0-9-])(" + "|".join(re.escape(i) for i in ids) + r")(?![a-z0-9-])")
    out.mkdir(parents=True)
    shutil.copy(BUNDLED / "policy.yaml", out / "policy.yaml")
    written: list[Path] = []
    for copy in range(max(1, round(records / len(originals)))):
        for path in originals:
            text = path.read_text()
            if copy:
                text = one_id.sub(lambda match: f"{match.group(1)}-r{copy}", text)
                text = _ALIASES.sub(lambda match: "aliases: [" + ", ".join(f"{alias.strip()} r{copy}" for alias in match.group(1).split(",")) + "]", text)
            target = out / path.parent.name / (path.stem + (f"-r{copy}" if copy else "") + ".yaml")
            target.parent.mkdir(exist_ok=True)
            target.write_text(text)
            written.append(target)
    return written


def raise_first_value(path: Path) -> bool:
    """Raise the file's first figure value by 0.1%; False when it has no value with a unit (a count must stay whole)."""
    text = path.read_text()
    match = _VALUE.search(text)
    if match is None:
        return False
    number = float(match.group(2)) * 1.001
    path.write_text(text[:match.start(2)] + f"{number:.6g}" + text[match.end(2):])
    return True


def make_history(root: Path, records: int, change: float, seed: int) -> tuple[int, int]:
    """A repository at root whose HEAD~1 holds `records` records and whose HEAD changes `change` of the record files."""
    specs = root / "specs"
    files = replicate(specs, records)
    git(root.parent, "init", "-q", str(root))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "replicated specs")
    # Records that derive figures from others are left alone, so the change keeps every derivation within its tolerance.
    candidates = [path for path in files if path.parent.name in ("accelerator", "link", "fabric", "system") and "derived:" not in path.read_text()]
    chosen = random.Random(seed).sample(candidates, min(len(candidates), round(records * change)))
    changed = sum(raise_first_value(path) for path in chosen)
    git(root, "commit", "-qam", f"{changed} files changed")
    return len(files), changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--change", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    records, changed = make_history(args.out, args.records, args.change, args.seed)
    print(f"{args.out}: {records} records, {changed} changed in the last commit")


if __name__ == "__main__":
    main()
