"""The checker's test corpus: pages in tests/data/check and the verdicts expected of them, read from expected.tsv.

Shared by the corpus test and `bench/check_corpus.py`, which prints precision and recall.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).parent / "data" / "check"


@dataclass(frozen=True)
class Expected:
    page: str
    line: int
    claim: str
    verdict: str
    figures: tuple[str, ...]  # accepted record.figure (or record) labels; empty when the figure is not checked
    known_miss: bool

    def matches(self, finding) -> bool:
        """Whether a finding is this claim with this verdict, matched to one of the accepted figures."""
        if (finding.line, finding.claim, finding.verdict) != (self.line, self.claim, self.verdict):
            return False
        label = f"{finding.record_id}.{finding.figure}" if finding.record_id else ""
        return not self.figures or any(label == figure or label.startswith(figure + ".") for figure in self.figures)


def expected() -> list[Expected]:
    rows = []
    for line in (CORPUS / "expected.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        page, number, claim, verdict, figures, *flags = line.split("\t")
        rows.append(Expected(page, int(number), claim, verdict, tuple(f for f in figures.split("|") if f != "-"), "known-miss" in flags))
    return rows


def pages() -> list[Path]:
    return sorted(path for path in CORPUS.iterdir() if path.name != "expected.tsv")


def score(findings_by_page: dict[str, list]) -> dict[str, object]:
    """Precision (findings that are expected claims with the right verdict and figure) and recall (expected claims so found)."""
    rows = [row for row in expected() if row.page in findings_by_page]
    findings = [finding for page_findings in findings_by_page.values() for finding in page_findings]
    hits = [row for row in rows if any(row.matches(finding) for finding in findings_by_page.get(row.page, []))]
    correct = [finding for page, page_findings in findings_by_page.items() for finding in page_findings
               if any(row.page == page and row.matches(finding) for row in rows)]
    return {
        "expected": len(rows),
        "findings": len(findings),
        "correct": len(correct),
        "precision": len(correct) / len(findings) if findings else 1.0,
        "recall": len(hits) / len(rows) if rows else 1.0,
        "missed": [row for row in rows if row not in hits],
        "unexpected": [finding for finding in findings if finding not in correct],
    }
