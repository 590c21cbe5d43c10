"""Which figures need re-review: before a cut-off date, older than an age, past their review policy, or citing a source whose
text changed since its last review.

The policy of each figure was resolved at build time (`format.policy`); error is checked before warn, and a changed source
marks a figure that no age does.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Any

from specdb.db.catalog import figure_sources, figures_citing, figures_to_review
from specdb.errors import UsageError
from specdb.format.policy import before, parse_age, parse_cutoff

# Every format shows these, in this order: what is stale, how badly, and where to look.
STALE_COLUMNS = ("level", "record_id", "kind", "figure", "value", "status", "reviewed", "age_days", "cutoff", "warn_after", "error_after", "sources")


def stale_figures(
    connection: sqlite3.Connection,
    *,
    since: str | None = None,
    older_than: str | None = None,
    today: dt.date | None = None,
    changed_sources: set[str] = frozenset(),
) -> list[dict[str, Any]]:
    """Figures needing review, oldest first, each with a level: 'stale' against a cut-off, else 'error' or 'warn' by policy, else
    'changed' when a source it cites changed since its review (`changed_sources`, the ids `sources.cache` finds)."""
    today = today or dt.date.today()
    if since and older_than:
        raise UsageError("give --since or --older-than, not both")
    cutoff = parse_cutoff(since) if since else before(today, *parse_age(older_than)) if older_than else None
    changed = {row["id"]: row for row in figures_citing(connection, sorted(changed_sources))}
    rows = []
    for row in figures_to_review(connection, cutoff.isoformat() if cutoff else None):
        level = _level(dt.date.fromisoformat(row["reviewed"]), cutoff, row["warn_after"], row["error_after"], today)
        if level == "warn" and row["id"] in changed:
            level = "changed"  # a changed source fails a check; its age alone would only warn
        if level is not None:
            rows.append(_found(row, level, cutoff, today))
    listed = {row["id"] for row in rows}
    rows.extend(_found(row, "changed", cutoff, today) for figure_id, row in changed.items() if figure_id not in listed)
    rows.sort(key=lambda row: (row["reviewed"], row["record_id"], row["figure"]))
    sources = figure_sources(connection, [row.pop("id") for row in rows])
    for row, source_ids in zip(rows, sources):
        row["sources"] = source_ids
    return rows


def _found(row: Any, level: str, cutoff: dt.date | None, today: dt.date) -> dict[str, Any]:
    found = dict(row)
    found.update(age_days=(today - dt.date.fromisoformat(row["reviewed"])).days, level=level, cutoff=cutoff.isoformat() if cutoff else None)
    return found


def _level(reviewed: dt.date, cutoff: dt.date | None, warn_after: str | None, error_after: str | None, today: dt.date) -> str | None:
    """'stale' for a row the cut-off query selected; else the first policy level the review date is past, error before warn."""
    if cutoff is not None:
        return "stale"
    for level, policy in (("error", error_after), ("warn", warn_after)):
        if policy:
            count, period = policy.split()
            if reviewed < before(today, int(count), period):
                return level
    return None


def failing(rows: list[dict[str, Any]], *, strict: bool) -> bool:
    """Whether `stale --check` fails: any stale, error or changed row, and warn rows too when strict."""
    failing_levels = {"stale", "error", "changed", "warn"} if strict else {"stale", "error", "changed"}
    return any(row["level"] in failing_levels for row in rows)
