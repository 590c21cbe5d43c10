"""Recording a re-review: the figures' `reviewed:` dates, and the source's `accessed:` date and content fingerprint, written into
the spec files with every other byte kept (`yamledit`).

A review reads the source first and is refused when a quote its figures
cite is not in it, or when the source is gone, moved or unreachable;
`force` with a note records it anyway, and the note goes on each citation
whose quote was not found, so the next reader knows.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path
from typing import NamedTuple

from specdb.errors import NotFound, ReviewRefused, SpecdbError, UsageError
from specdb.sources.cache import SourceCache
from specdb.sources.check import read_address
from specdb.sources.fetch import DEFAULT_TIMEOUT, client
from specdb.sources.text import contains_quote, fingerprint, normalise
from specdb.format.yamledit import Edit, EditError, edited


class Review(NamedTuple):
    record_path: Path
    source_path: Path
    figures: list[str]
    missing: list[str]
    fingerprint: str | None


def review(
    connection: sqlite3.Connection, specs: Path, record: str, figures: list[str], source_id: str, *, today: dt.date,
    force: bool = False, note: str | None = None, cache: SourceCache | None = None, timeout: float = DEFAULT_TIMEOUT,
) -> Review:
    """Check the figures' quotes of the source against what it says now, then write the review; ReviewRefused when the source
    does not bear them out and `force` was not given."""
    from specdb.db.catalog import resolve, source_citations, sources_to_check

    if force and not (note and note.strip()):
        raise UsageError("--force needs --note: say why the review stands although the source does not bear it out")
    if note and not force:
        raise UsageError("--note goes with --force; a review the source bears out needs no note")
    record_id = resolve(connection, record)
    (source,) = sources_to_check(connection, source_id=source_id)
    if not source["url"]:
        raise UsageError(f"source '{source_id}' has no address (only a citation); there is nothing to read it in")
    quotes: dict[str, list[str | None]] = {}
    for row in source_citations(connection, [source_id], record_id):
        if row["claim_kind"] is None:
            quotes.setdefault(row["figure"], []).append(row["quote"])
    if not quotes:
        raise NotFound(f"no figure of '{record_id}' cites '{source_id}'")
    unknown = [name for name in figures if name not in quotes]
    if unknown:
        raise NotFound(f"{', '.join(unknown)}: not a figure of '{record_id}' citing '{source_id}' (those are {', '.join(sorted(quotes))})")
    chosen = figures or sorted(quotes)

    with client(timeout) as http:
        reading = read_address(source["url"], cache or SourceCache(), http=http)
    problems = [] if reading.status == "ok" else [f"the source is {reading.status}: {reading.detail}"]
    page = normalise(reading.text) if reading.text is not None else None
    missing = sorted({quote for name in chosen for quote in quotes[name] if quote and (page is None or not contains_quote(page, quote))})
    if page is None and not problems:
        problems.append(f"its text cannot be read ({reading.unreadable})")
    problems += [f"quote not found: \"{quote}\"" for quote in missing]
    if problems and not force:
        raise ReviewRefused(f"{source_id}: " + "; ".join(problems) + ". Nothing was written; give --force --note TEXT to record the review anyway")

    record_path, source_path = _paths(connection, specs, record_id, source_id)
    day = today.isoformat()
    record_edits = [Edit(("figures", name, "reviewed"), day) for name in chosen]
    if missing:
        record_edits += _note_edits(record_path, chosen, source_id, set(missing), f"Reviewed {day} without the quote found in the source: {note.strip()}")
    source_edits = [Edit(("accessed",), day, after=("published", "url"))]
    found_fingerprint = fingerprint(reading.text) if reading.text is not None else None
    if found_fingerprint:
        source_edits.append(Edit(("fingerprint",), found_fingerprint, after=("accessed",)))
    _write({record_path: record_edits, source_path: source_edits})
    return Review(record_path, source_path, chosen, missing, found_fingerprint)


def _paths(connection: sqlite3.Connection, specs: Path, record_id: str, source_id: str) -> tuple[Path, Path]:
    (record_path,) = connection.execute("SELECT path FROM record WHERE id = ?", (record_id,)).fetchone()
    (source_path,) = connection.execute("SELECT path FROM source WHERE id = ?", (source_id,)).fetchone()
    return specs / record_path, specs / source_path


def _note_edits(path: Path, figures: list[str], source_id: str, missing: set[str], note: str) -> list[Edit]:
    """A note on every citation of the source whose quote was not found, after any note it has."""
    from specdb.load.yamlread import parse_yaml

    located, _ = parse_yaml(path.read_bytes(), positions=False)
    edits = []
    for name in figures:
        for position, citation in enumerate(located.data["figures"][name]["sources"]):
            if citation.get("ref") == source_id and citation.get("quote") in missing:
                text = f"{citation['note']} {note}" if citation.get("note") else note
                edits.append(Edit(("figures", name, "sources", position, "note"), text, after=("locator", "quote", "ref")))
    return edits


def _write(edits: dict[Path, list[Edit]]) -> None:
    """Every file edited and validated first, then all written or none (the figures' review and the source's fingerprint
    belong together)."""
    from specdb.atomicwrite import replace_files

    texts = {}
    for path, file_edits in edits.items():
        try:
            texts[path] = edited(path.read_text(encoding="utf-8"), file_edits)
        except EditError as error:
            raise SpecdbError(f"{path}: cannot record the review: {error}") from None
        _validate(path, texts[path])
    replace_files(texts)


def _validate(path: Path, text: str) -> None:
    from pydantic import ValidationError

    from specdb.format import upgrades
    from specdb.format.schema import Record, SourceRecord
    from specdb.load.yamlread import parse_yaml

    located, problems = parse_yaml(text.encode())
    if problems or located is None:
        raise SpecdbError(f"{path}: the review would leave the file unreadable ({problems[0] if problems else 'empty'}); nothing was written")
    # A file in an older record format is held to the rules as every reader holds it: converted first.
    data = upgrades.upgraded(located.data, path.name).data
    model = SourceRecord if data.get("kind") == "source" else Record
    try:
        model.model_validate(data)
    except ValidationError as error:
        raise SpecdbError(f"{path}: the review would leave the record invalid ({error.errors()[0]['msg']}); nothing was written") from None
