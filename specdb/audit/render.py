"""An audit as a reader sees it: a one-screen summary and table per file, JSON, or a Markdown review comment."""

from __future__ import annotations

from specdb.audit.judge import PASSING, VERDICTS, Finding

_COLUMNS = ["where", "key", "written", "verdict", "specdb", "suggestion"]
_UNMATCHED_SHOWN = 8  # names of unmatched parts listed under a table, so that it stays on one screen


def summary(path: str, table_format: str, findings: list[Finding]) -> str:
    """"systems/b200_sxm.yaml (aiconfigurator): 11 fields: 9 ok, 1 mismatch, 1 unmatched"."""
    from specdb.output import tally

    return f"{path} ({table_format}): {tally('field', VERDICTS, findings)}"


def render(audits: list[tuple[str, str, list[Finding]]], output: str, width: int | None = None) -> str:
    """Each file's findings: `table` (its summary, then every finding that is not ok or unmatched, then the unmatched
    parts by name), `json` (every finding of every file) or `markdown` (a review comment)."""
    if output == "json":
        from specdb.output import to_json

        return to_json([{"path": path, "format": name, "summary": summary(path, name, findings),
                         "findings": [finding.as_dict() for finding in findings]} for path, name, findings in audits])
    if output == "markdown":
        return "\n".join(_markdown(path, name, findings) for path, name, findings in audits)
    return "\n".join(_table(path, name, findings, width) for path, name, findings in audits)


def _row(finding: Finding) -> dict[str, str]:
    holds = f"{finding.record}.{finding.figure} = {finding.holds}" if finding.figure else (finding.note or "")
    return {
        "where": f"{finding.line}:{finding.column}", "key": finding.key, "written": finding.written, "verdict": finding.verdict,
        "specdb": holds, "suggestion": finding.suggestion or "",
    }


def _alarms(findings: list[Finding]) -> list[Finding]:
    return [finding for finding in findings if finding.verdict not in PASSING]


def _unmatched_parts(findings: list[Finding]) -> str:
    parts = sorted({finding.part for finding in findings if finding.verdict == "unmatched"})
    if not parts:
        return ""
    shown = ", ".join(parts[:_UNMATCHED_SHOWN]) + (f" and {len(parts) - _UNMATCHED_SHOWN} more" if len(parts) > _UNMATCHED_SHOWN else "")
    return f"unmatched (not judged: the data lacks the part or the figure): {shown}\n"


def _table(path: str, name: str, findings: list[Finding], width: int | None) -> str:
    from specdb.output import text_table, wrapped_lines

    out = summary(path, name, findings) + "\n"
    alarms = _alarms(findings)
    if alarms:
        out += text_table([_row(finding) for finding in alarms], _COLUMNS, width,
                          priority=["where", "verdict", "written", "suggestion", "specdb", "key"])
        sources = [f"{finding.line}:{finding.column} {finding.record}.{finding.figure}: \"{finding.quote}\" ({finding.source})"
                   + (f"; {finding.note}" if finding.note else "")
                   for finding in alarms if finding.quote or finding.note]
        out += wrapped_lines(sources, width) if sources else ""
    return out + _unmatched_parts(findings)


def _markdown(path: str, name: str, findings: list[Finding]) -> str:
    from specdb.output import markdown_table

    head = f"**specdb audit** {summary(path, name, findings)}\n"
    alarms = _alarms(findings)
    if not alarms:
        return head + "\nEvery field specdb holds agrees with the data.\n"
    rows = [dict(_row(finding), quote=finding.quote or "", source=finding.source or "", note=finding.note) for finding in alarms]
    return head + "\n" + markdown_table(rows, [*_COLUMNS, "quote", "source", "note"])
