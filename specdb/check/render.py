"""Findings as a reader sees them: one line each, JSON, or a Markdown review comment listing what is not ok."""

from __future__ import annotations

from specdb.check.verdicts import VERDICTS, Finding


def summary(findings: list[Finding]) -> str:
    """"31 claims: 27 ok, 2 mixed-basis, 1 ambiguous-basis"."""
    from specdb.output import tally

    return tally("claim", VERDICTS, findings)


def render(findings: list[Finding], fmt: str) -> str:
    """Findings as `text` (one line each), `json` (a list of objects) or `markdown` (a review comment listing what is not ok)."""
    if fmt == "json":
        from specdb.output import to_json

        return to_json([finding.as_dict() for finding in findings])
    if fmt == "markdown":
        from specdb.output import markdown_table

        problems = [finding for finding in findings if finding.verdict != "ok"]
        rows = [
            {
                "where": f"{finding.path}:{finding.line}:{finding.column}",
                "claim": finding.claim,
                "verdict": finding.verdict,
                "database": f"{finding.record_id + '.' if finding.record_id else ''}{finding.figure or ''}"
                            f"{' = ' + finding.expected if finding.expected else ''}{f' ({finding.basis})' if finding.basis else ''}",
                "suggestion": finding.suggestion or "",
                "note": finding.note,
            }
            for finding in problems
        ]
        head = f"**specdb check**: {summary(findings)}\n"
        return head + ("\n" + markdown_table(rows, list(rows[0])) if rows else "\nEvery figure agrees with the database.\n")
    return "".join(f"{finding}\n" for finding in findings)
