"""Which figures need re-review: before a cut-off date, older than an age, or past their review policy.

Policies are shaped like dbt's source freshness: `warn_after` and
`error_after`, each a count of days, months or years; error is checked
before warn. The effective policy of every figure is resolved at build time
(figure, else record, else kind) and stored beside it.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
import sqlite3
from typing import TYPE_CHECKING, Any

from specdb.db.catalog import figure_sources, figures_to_review
from specdb.format.dates import parse_date
from specdb.errors import UsageError

if TYPE_CHECKING:
    from specdb.format import schema

_AGE = re.compile(r"^\s*(\d+)\s*(d|days?|w|weeks?|mo|months?|y|yrs?|years?)\s*$", re.IGNORECASE | re.ASCII)
_PERIODS = {"d": "day", "w": "week", "mo": "month", "y": "year"}
# A review interval or an age longer than a century is not one anybody means.
LONGEST_PERIOD = {"day": 36525, "week": 5218, "month": 1200, "year": 100}


def _policy_text(period: schema.Period | None) -> str | None:
    return None if period is None else f"{period.count} {period.period}"


def effective_policy(policies: schema.KindPolicies | None, record: schema.Record, figure: schema.Figure) -> tuple[str | None, str | None]:
    """warn_after and error_after for a figure: the figure's own, else its record's, else its kind's; an explicit null switches one off."""
    kind_policy = policies.review.get(record.kind) if policies else None
    chosen = []
    for key in ("warn_after", "error_after"):
        value = None
        for policy in (figure.review, record.review, kind_policy):
            if policy is not None and key in policy.model_fields_set:
                value = getattr(policy, key)
                break
        chosen.append(_policy_text(value))
    return chosen[0], chosen[1]


def parse_cutoff(text: str) -> dt.date:
    """2026-07 means 2026-07-01; a full date is taken as it is."""
    try:
        return parse_date(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def parse_age(text: str) -> tuple[int, str]:
    """'6mo', '90d', '1y', '2 years' -> (count, period); at most a century."""
    match = _AGE.match(text)
    if match is None:
        raise UsageError(f"'{text}' is not an age; write a count and d, w, mo or y (90d, 6mo, 1y)")
    unit = match[2].lower()
    key = "mo" if unit.startswith("mo") else unit[0]
    count, period = int(match[1]), _PERIODS[key]
    if count > LONGEST_PERIOD[period]:
        raise UsageError(f"'{text}' is longer than 100 years")
    return count, period


def before(today: dt.date, count: int, period: str) -> dt.date:
    """The date count periods before today; a month back from the 31st lands on the month's last day.

    A span reaching before year 1 gives the first day of year 1: nothing can be reviewed before it.
    """
    try:
        if period in ("day", "week"):
            return today - dt.timedelta(days=count * (7 if period == "week" else 1))
        year, month = divmod(today.year * 12 + today.month - 1 - count * (12 if period == "year" else 1), 12)
        month += 1
        return dt.date(year, month, min(today.day, calendar.monthrange(year, month)[1]))
    except (OverflowError, ValueError):
        return dt.date.min


# Every format shows these, in this order: what is stale, how badly, and where to look.
STALE_COLUMNS = ("level", "record_id", "kind", "figure", "value", "status", "reviewed", "age_days", "cutoff", "warn_after", "error_after", "sources")


def stale_figures(
    connection: sqlite3.Connection,
    *,
    since: str | None = None,
    older_than: str | None = None,
    today: dt.date | None = None,
) -> list[dict[str, Any]]:
    """Figures needing review, oldest first, each with a level: 'stale' against a cut-off, else 'error' or 'warn' by policy."""
    today = today or dt.date.today()
    if since and older_than:
        raise UsageError("give --since or --older-than, not both")
    cutoff = parse_cutoff(since) if since else before(today, *parse_age(older_than)) if older_than else None
    rows = []
    for row in figures_to_review(connection, cutoff.isoformat() if cutoff else None):
        reviewed = dt.date.fromisoformat(row["reviewed"])
        level = _level(reviewed, cutoff, row["warn_after"], row["error_after"], today)
        if level is None:
            continue
        found = dict(row)
        found["age_days"] = (today - reviewed).days
        found["level"] = level
        found["cutoff"] = cutoff.isoformat() if cutoff else None
        rows.append(found)
    sources = figure_sources(connection, [row.pop("id") for row in rows])
    for row, source_ids in zip(rows, sources):
        row["sources"] = source_ids
    return rows


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
    """Whether `stale --check` fails: any stale or error row, and warn rows too when strict."""
    failing_levels = {"stale", "error", "warn"} if strict else {"stale", "error"}
    return any(row["level"] in failing_levels for row in rows)
