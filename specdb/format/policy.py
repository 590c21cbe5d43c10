"""Review policies: the periods they are written in, and the policy each figure takes.

Policies are shaped like dbt's source freshness: `warn_after` and
`error_after`, each a count of days, weeks, months or years. The effective
policy of every figure is resolved at build time (figure, else record, else
kind) and stored beside it; `analysis.stale` reads it back.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import TYPE_CHECKING

from specdb.errors import UsageError
from specdb.format.dates import parse_date

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
