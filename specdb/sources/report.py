"""A source check as rows grouped by record, most urgent first: a table or CSV for people, JSON and Markdown for a scheduled job
that opens an issue."""

from __future__ import annotations

from collections import Counter
from typing import Any

from specdb.sources.check import SOURCE_STATUSES, URGENCY, SourceResult

COLUMNS = ("record_id", "source", "source_status", "quote_status", "figures", "detail", "quote", "new_url")
# Sources no figure cites (only a runtime name or a PCI id, or none) are reported under this heading.
UNCITED = "(no figure)"


def rows(results: list[SourceResult]) -> list[dict[str, Any]]:
    """One row per record, source and quote; the records in order of their most urgent row, then by id."""
    found = []
    for result in results:
        for cited in result.citations or [None]:
            found.append({
                "record_id": cited.record_id if cited else UNCITED, "source": result.source_id, "source_status": result.status,
                "quote_status": cited.status if cited else None, "figures": ", ".join(cited.figures) if cited else "",
                "detail": "; ".join(part for part in (result.detail, cited.reason if cited else "") if part),
                "quote": cited.quote if cited else None, "new_url": result.new_url,
            })
    urgency = {}
    for row in found:
        urgency[row["record_id"]] = min(urgency.get(row["record_id"], len(URGENCY)), _urgency(row))
    return sorted(found, key=lambda row: (urgency[row["record_id"]], row["record_id"], _urgency(row), row["source"], row["quote"] or ""))


def _urgency(row: dict[str, Any]) -> int:
    return min(URGENCY.index(row["source_status"]) if row["source_status"] in URGENCY else len(URGENCY),
               URGENCY.index(row["quote_status"]) if row["quote_status"] else len(URGENCY))


def summary(results: list[SourceResult]) -> str:
    """'129 sources: 120 ok, 3 moved; 400 quotes: 380 found, 2 missing, 18 not checkable'."""
    sources = Counter(result.status for result in results)
    quotes = Counter(cited.status for result in results for cited in result.citations)
    source_part = ", ".join(f"{sources[status]} {status}" for status in SOURCE_STATUSES if sources.get(status))
    words = {"quote-found": "found", "quote-missing": "missing", "not-checkable": "not checkable"}
    quote_part = ", ".join(f"{quotes[status]} {word}" for status, word in words.items() if quotes.get(status))
    count = sum(quotes.values())
    return f"{len(results)} source{'' if len(results) == 1 else 's'}: {source_part or 'none'}; {count} quote{'' if count == 1 else 's'}: {quote_part or 'none'}"


def document(results: list[SourceResult]) -> dict[str, Any]:
    """The JSON report: the summary, the citations grouped by record (most urgent first), and every source with its status."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in rows(results):
        grouped.setdefault(row["record_id"], []).append({key: row[key] for key in COLUMNS if key != "record_id"})
    return {
        "summary": summary(results),
        "records": [{"record_id": record_id, "citations": cited} for record_id, cited in grouped.items()],
        "sources": [
            {"id": result.source_id, "url": result.url, "status": result.status, "detail": result.detail, "new_url": result.new_url,
             "fingerprint": result.fingerprint, "reviewed_fingerprint": result.reviewed_fingerprint, "fetched": result.fetched}
            for result in results
        ],
    }


def markdown(results: list[SourceResult]) -> str:
    """A Markdown report: a heading per record, most urgent first, each a table of its citations."""
    from specdb.output import markdown_table

    lines = ["# Source check", "", summary(results), ""]
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in rows(results):
        grouped.setdefault(row["record_id"], []).append(row)
    for record_id, cited in grouped.items():
        lines += [f"## {record_id}", "", markdown_table(cited, [column for column in COLUMNS if column != "record_id"]).rstrip("\n"), ""]
    return "\n".join(lines)
