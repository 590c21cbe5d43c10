"""Precision, recall and alarms right of `specdb check` on real public pages annotated by hand before the checker ran on them.

Usage: python bench/check_outside.py [FOLDER...] [--split tuning|held-out|all]

Each FOLDER (default tests/data/check-outside) holds pages `NNN-slug.ext`, each beside `NNN-slug.ext.expected.tsv`
whose rows are: line, column, claim as written, verdict, the accepted record.figure labels (`|` between
alternatives; `-` when any figure, or none, is right) and a note. Pages numbered 462 and up are held out:
they are measured once, at the end, and never used to change the rules; `--split tuning` (the default) reads
none of their files. Pages 101-160 and 201-461 are all tuning pages: the third of 101-160 numbered by a
multiple of 3 was held out first, then pages 201-230, 231-260, 261-290, 291-311, 312-329, 342-401, 402-431 and
432-461 were the second to ninth held-out sets; each was measured once on 2026-12-02 and is tuning material after that.

A finding is right when its line is the annotated line, its claim text overlaps the annotated claim (spaces
normalised: one contains the other, and where the column is annotated the two stretches of the line overlap), its verdict is the annotated one, and its record.figure is one of the
accepted labels. Each annotated row is found by at most one finding. Precision is right findings over all
findings; recall is annotated rows found; alarms right is, of the findings whose verdict fails a check
(mismatch, stale, mixed-basis) or leaves its basis in doubt (ambiguous-basis), the share that are right; it is
also given for the failing verdicts alone.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import specdb
from specdb.check.verdicts import FAILING, Database, check_text

SPLITS = ("tuning", "held-out")
FIRST_HELD_OUT = 462
ALARMS = (*FAILING, "ambiguous-basis")
_PAGE_NUMBER = re.compile(r"^(\d+)-")


@dataclass(frozen=True)
class Annotation:
    line: int
    column: int | None
    claim: str
    verdict: str
    figures: tuple[str, ...]
    note: str

    def matches(self, finding) -> bool:
        if finding.line != self.line or finding.verdict != self.verdict:
            return False
        written, found = _normal(self.claim), _normal(finding.claim)
        if not (written in found or found in written):
            return False
        if self.column is not None and not (finding.column < self.column + len(self.claim) and self.column < finding.column + len(finding.claim)):
            return False  # the same text elsewhere on the line ("8" inside "80")
        label = f"{finding.record_id}.{finding.figure}" if finding.record_id else (finding.figure or "")
        return not self.figures or any(label == figure or label.startswith(figure + ".") for figure in self.figures)


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def split_of(page: Path) -> str | None:
    number = _PAGE_NUMBER.match(page.name)
    if number is None:
        return None
    return "held-out" if int(number[1]) >= FIRST_HELD_OUT else "tuning"


def pages(folder: Path, split: str) -> list[Path]:
    """The pages of a split (by their names alone), each with an annotation file beside it."""
    chosen = []
    for path in sorted(folder.iterdir()):
        if path.name.endswith(".expected.tsv") or path.name.startswith("."):
            continue
        page_split = split_of(path)
        if page_split is None or (split != "all" and page_split != split):
            continue
        if path.with_name(path.name + ".expected.tsv").is_file():
            chosen.append(path)
    return chosen


def annotations(page: Path) -> list[Annotation]:
    rows = []
    for number, line in enumerate(page.with_name(page.name + ".expected.tsv").read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if fields[0].strip().casefold() == "line":
            continue  # a header row
        if len(fields) < 4:
            sys.exit(f"{page.name}.expected.tsv:{number}: expected at least line, column, claim and verdict")
        line_number, column, claim, verdict = (field.strip() for field in fields[:4])
        figures = fields[4].strip() if len(fields) > 4 else "-"
        rows.append(Annotation(int(line_number), int(column) if column.isdigit() else None, claim, verdict,
                               tuple(f.strip() for f in figures.split("|") if f.strip() not in ("-", "")),
                               fields[5].strip() if len(fields) > 5 else ""))
    return rows


def score(chosen: list[Path], database: Database) -> dict:
    found = right = alarms = alarms_right = failing = failing_right = expected = hits = 0
    missed, wrong = [], []
    for page in chosen:
        rows = annotations(page)
        try:
            findings = check_text(page.read_text(encoding="utf-8"), database, path=page.name)
        except Exception as error:  # noqa: BLE001 (an internal error is a result to report, not a reason to stop measuring)
            print(f"  internal error on {page.name}: {type(error).__name__}: {error}")
            findings = []
        unclaimed = list(rows)
        for finding in findings:
            row = next((row for row in unclaimed if row.matches(finding)), None)
            found += 1
            if finding.verdict in ALARMS:
                alarms += 1
                alarms_right += row is not None
            if finding.verdict in FAILING:
                failing += 1
                failing_right += row is not None
            if row is None:
                wrong.append(f"{finding}")
            else:
                right += 1
                unclaimed.remove(row)
        expected += len(rows)
        hits += len(rows) - len(unclaimed)
        missed += [f"{page.name}:{row.line}:{row.column or ''} {row.claim!r} {row.verdict} {'|'.join(row.figures) or '-'}"
                   f"{' (' + row.note + ')' if row.note else ''}" for row in unclaimed]
    return {"pages": len(chosen), "expected": expected, "findings": found, "right": right, "hits": hits,
            "alarms": alarms, "alarms_right": alarms_right, "failing": failing, "failing_right": failing_right, "missed": missed, "wrong": wrong}


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.1%} ({part}/{whole})" if whole else "n/a (0/0)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", default=[str(ROOT / "tests" / "data" / "check-outside")])
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="tuning")
    parser.add_argument("--quiet", action="store_true", help="print the scores only, not the missed and wrong rows")
    arguments = parser.parse_args()
    folders = [Path(folder) for folder in arguments.folders]
    database = Database(specdb.connect(ROOT / "specs"))
    for split in SPLITS if arguments.split == "all" else (arguments.split,):
        result = score([page for folder in folders for page in pages(folder, split)], database)
        print(f"{split}: {result['pages']} pages, {result['expected']} annotated claims, {result['findings']} findings: "
              f"precision {_share(result['right'], result['findings'])}, recall {_share(result['hits'], result['expected'])}, "
              f"alarms right {_share(result['alarms_right'], result['alarms'])} "
              f"(mismatch, stale and mixed-basis alone: {_share(result['failing_right'], result['failing'])})")
        if not arguments.quiet:
            for row in result["missed"]:
                print(f"  missed: {row}")
            for row in result["wrong"]:
                print(f"  wrong:  {row}")


if __name__ == "__main__":
    main()
