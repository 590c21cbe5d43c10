"""Dates as specdb writes them: YYYY-MM-DD, or YYYY-MM meaning the month's first day; one pattern for the record
format, the command options and the JSON Schema."""

from __future__ import annotations

import datetime as dt
import re

# ASCII digits only: `\d` alone would take digits of other scripts.
DATE = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$", re.ASCII)


def parse_date(text: str) -> dt.date:
    """2026-07 is 2026-07-01; a full date is taken as it is. ValueError names what is wrong."""
    match = DATE.match(text.strip())
    if match is None:
        raise ValueError(f"'{text}' is not a date; write YYYY-MM-DD or YYYY-MM")
    try:
        return dt.date(int(match[1]), int(match[2]), int(match[3] or 1))
    except ValueError as exc:
        raise ValueError(f"'{text}' is not a real date ({exc})") from None
