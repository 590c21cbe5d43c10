"""Read records and figures out of a built database (a read-only sqlite3 connection)."""

from __future__ import annotations

import re
import sqlite3
from typing import Any, Iterable

from specdb.errors import AmbiguousName, NotFound, UsageError
from specdb.names import loose_key, model_numbers, name_key, normal, pci_id, truncated, undecorated, variant_words, words
from specdb.format.units import format_value

def list_records(connection: sqlite3.Connection, kind: str | None = None, vendor: str | None = None) -> list[dict[str, Any]]:
    """One row per record, of one kind and one vendor (any case or look-alike form) when asked; a vendor the data does
    not know is a usage error naming the closest."""
    rows = [dict(row) for row in connection.execute(
        "SELECT r.id, r.kind, r.name, r.vendor, r.family, r.released,"
        " (SELECT COUNT(*) FROM figure f WHERE f.record_id = r.id) AS figures,"
        " (SELECT MAX(f.reviewed) FROM figure f WHERE f.record_id = r.id) AS last_reviewed"
        " FROM record r" + (" WHERE r.kind = ?" if kind else "") + " ORDER BY r.kind, r.id",
        (kind,) if kind else (),
    )]
    if vendor is None:
        return rows
    vendors = {name_key(row["vendor"]): row["vendor"] for row in rows}
    if name_key(vendor) not in vendors:
        from specdb.suggest import did_you_mean  # only on this error path

        raise UsageError(f"--vendor '{vendor}': no record of this vendor{did_you_mean(vendor, sorted(set(vendors.values())))}")
    return [row for row in rows if name_key(row["vendor"]) == name_key(vendor)]


def resolve(connection: sqlite3.Connection, name: str) -> str:
    """The record id for a name a user or a tool gives: an id, a name, an alias, a name a tool reports (nvidia-smi, torch,
    JAX device_kind, rocminfo, a node label), a PCI id ('10de:2335', nvidia-smi's '0x233510DE'), or a name cut short with
    '...'; in any case, spacing or punctuation, or in look-alike forms such as fullwidth letters, and with what tools print
    around a name left out ('GPU 0: ... (UUID: ...)', '(gfx942:sramecc+:xnack-)').

    A name that fits more than one record ('gfx942', a bare 'H100') is refused with the choices (AmbiguousName), never
    settled by which matched first; a name of a part the data lacks is NotFound, with suggestions that share its model
    numbers (never 'H20' for 'H200').
    """
    row = connection.execute("SELECT id FROM record WHERE id = ?", (normal(name),)).fetchone()
    if row is not None:
        return row[0]
    bare = undecorated(name)
    if bare != name and bare.strip():
        return resolve(connection, bare)
    pci = pci_id(name)
    if pci is not None:
        return _one(name, {r[0] for r in connection.execute("SELECT record_id FROM runtime_name WHERE reported_by = 'pci' AND name_key = ?", (pci,))})
    key = name_key(name)
    exact = {r[0] for r in connection.execute(
        "SELECT record_id FROM alias WHERE alias_key = ? UNION SELECT record_id FROM runtime_name WHERE name_key = ? AND reported_by != 'pci'"
        " UNION SELECT id FROM record WHERE lower(id) = ?",
        (key, key, key),
    )}
    if exact:
        return _one(name, exact)
    names = _known_names(connection)
    loose = {record_id for known, record_id in names if loose_key(known) == loose_key(name)}
    if loose:
        return _one(name, loose)
    start = truncated(name)
    if start is not None:
        return _one(name, _completions(start, names), cut_short=True)
    wanted = set(words(name))
    # A name whose every word is in several records' names ('H100') is shared by them: refused with the choices.
    containing = {record_id for known, record_id in names if wanted and wanted <= set(words(known))}
    if len(containing) > 1:
        _one(name, containing)
    raise NotFound(f"no record or alias '{name}' in the data{_suggestions(name, names)}")


def _one(name: str, record_ids: set[str], cut_short: bool = False) -> str:
    if len(record_ids) == 1:
        return next(iter(record_ids))
    if not record_ids:
        raise NotFound(f"no record or alias '{name}' in the data; `specdb list` shows every record")
    why = "was cut short before the words that tell these apart" if cut_short else "names more than one record"
    raise AmbiguousName(f"'{name}' {why}: {', '.join(sorted(record_ids))}; give one of these ids")


def _known_names(connection: sqlite3.Connection) -> list[tuple[str, str]]:
    """(name, record id) for every id, name, alias and name a tool reports."""
    return connection.execute(
        "SELECT id, id FROM record UNION ALL SELECT name, id FROM record UNION ALL SELECT alias, record_id FROM alias"
        " UNION ALL SELECT name, record_id FROM runtime_name WHERE reported_by != 'pci'"
    ).fetchall()


def _completions(start: str, names: list[tuple[str, str]]) -> set[str]:
    """The records a name cut short may be: those with a name that begins so and whose cut-off rest holds no model
    number ('NVIDIA A100-SXM...' may be the 40 GB or the 80 GB part, whatever the data holds, so it is refused)."""
    begins = loose_key(start)
    clean, numbered = set(), set()
    for known, record_id in names:
        loose = loose_key(known)
        if begins and loose.startswith(begins):
            rest = loose[len(begins):]
            (numbered if any(char.isdigit() for char in rest) else clean).add(record_id)
    if not clean and numbered:
        raise AmbiguousName(f"'{start}...' was cut short before the part's model numbers; give the whole name")
    return clean


def _names_number(known_words: tuple[str, ...], number: str) -> bool:
    """Whether a known name holds the model number or variant, whole or with more letters after it ('80' in '80GB',
    'sxm' in 'SXM5'; 'H20' is not in 'H200')."""
    return any(word.startswith(number) and not word[len(number):len(number) + 1].isdigit() for word in known_words)


def _suggestions(name: str, names: list[tuple[str, str]]) -> str:
    from specdb.suggest import closest  # only on this error path

    # A suggestion keeps the model numbers and the variant (form factor, memory size) asked for: another H20 is no H200,
    # and the H100 SXM is no H100 NVL.
    kept = model_numbers(name) | variant_words(name)
    owner = {known: record_id for known, record_id in names if all(_names_number(words(known), word) for word in kept)}
    first_per_record: dict[str, str] = {}
    for known in closest(name, owner, n=len(owner)):
        first_per_record.setdefault(owner[known], known)
    one_per_record = list(first_per_record.values())[:3]
    return f"; did you mean {' or '.join(repr(known) for known in one_per_record)}?" if one_per_record else "; `specdb list` shows every record"


def show_record(connection: sqlite3.Connection, name: str) -> dict[str, Any]:
    """One record with its aliases, the records it uses, and every figure with its sources, history and alternatives."""
    from specdb.format.vocabulary import lookup  # here, not at the top: `list` does not need it

    record_id = resolve(connection, name)
    record = dict(connection.execute("SELECT * FROM record WHERE id = ?", (record_id,)).fetchone())
    record["aliases"] = [r[0] for r in connection.execute("SELECT alias FROM alias WHERE record_id = ? ORDER BY alias", (record_id,))]
    record["runtime_names"] = [dict(r) for r in connection.execute(
        "SELECT name, reported_by, source_id FROM runtime_name WHERE record_id = ? ORDER BY reported_by = 'pci', name, reported_by", (record_id,),
    )]
    record["uses"] = uses_of(connection, record_id)
    record["used_by"] = [r[0] for r in connection.execute("SELECT DISTINCT record_id FROM record_use WHERE target_id = ? ORDER BY record_id", (record_id,))]
    citations = _citations(connection, record_id)
    claims: dict[int, list[dict[str, Any]]] = {}
    for row in connection.execute(
        "SELECT c.* FROM claim c JOIN figure f ON f.id = c.figure_id WHERE f.record_id = ? ORDER BY c.figure_id, c.claim_kind, c.position",
        (record_id,),
    ):
        claim = dict(row)
        claim["sources"] = citations.get((claim["figure_id"], claim["id"]), [])
        claims.setdefault(claim["figure_id"], []).append(claim)
    figures = []
    for row in record_figures(connection, record_id):
        figure = dict(row)
        figure["display"] = format_value(figure["value"], figure["dimension"])
        entry = lookup(figure["name"])
        figure["description"] = entry.description if entry else None
        figure["sources"] = citations.get((figure["id"], None), [])
        own_claims = claims.get(figure["id"], [])
        figure["history"] = [_claim_out(c) for c in own_claims if c["claim_kind"] == "history"]
        figure["alternatives"] = [_claim_out(c) for c in own_claims if c["claim_kind"] == "alternative"]
        figures.append(_drop_ids(figure))
    record["figures"] = figures
    return record


FIGURE_COLUMNS = (
    "record_id", "name", "value_text", "value", "unit", "dimension", "display", "direction", "scope", "status", "as_of", "reviewed",
    "precision", "sparsity", "method", "uncertainty", "sources",
)


def figure_rows(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A shown record's figures as flat rows (FIGURE_COLUMNS): sources as the list of cited source ids."""
    return [
        {**figure, "record_id": record["id"], "sources": [source["source_id"] for source in figure["sources"]]}
        for figure in record["figures"]
    ]


def _citations(connection: sqlite3.Connection, record_id: str) -> dict[tuple[int, int | None], list[dict[str, Any]]]:
    found: dict[tuple[int, int | None], list[dict[str, Any]]] = {}
    for row in connection.execute(
        "SELECT c.figure_id, c.claim_id, c.source_id, c.quote, c.locator, s.name AS title, s.publisher, s.url, s.citation"
        " FROM citation c JOIN figure f ON f.id = c.figure_id JOIN source s ON s.id = c.source_id"
        " WHERE f.record_id = ? ORDER BY c.figure_id, c.claim_id, c.position",
        (record_id,),
    ):
        entry = dict(row)
        key = (entry.pop("figure_id"), entry.pop("claim_id"))
        found.setdefault(key, []).append(entry)
    return found


def _claim_out(claim: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in claim.items() if key not in ("id", "figure_id", "claim_kind", "position")}


def _drop_ids(figure: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in figure.items() if key not in ("id", "record_id")}


def list_figures(
    connection: sqlite3.Connection,
    *,
    kind: str | None = None,
    name: str | None = None,
    vendor: str | None = None,
    record: str | None = None,
    status: str | None = None,
) -> list[dict[str, Any]]:
    """Figures across records, filtered; `name` accepts SQL LIKE wildcards (`%bandwidth`)."""
    name, vendor = (normal(text) if text else text for text in (name, vendor))
    clauses, params = [], []
    for column, value, operator in (
        ("r.kind", kind, "="), ("f.name", name, "LIKE"), ("r.vendor", vendor, "LIKE"),
        ("f.status", status, "="),
    ):
        if value:
            # lower() on both sides: LIKE ignores ASCII case in SQLite and not in PostgreSQL; this way it does in both.
            clauses.append(f"lower({column}) LIKE lower(?)" if operator == "LIKE" else f"{column} = ?")
            params.append(value)
    if record:
        clauses.append("r.id = ?")
        params.append(resolve(connection, record))
    if vendor:
        _require_known(connection, "--vendor", vendor, "SELECT DISTINCT vendor FROM record WHERE vendor IS NOT NULL")
    if name:
        from specdb.format.vocabulary import FIGURES

        _require_known(connection, "--name", name, "SELECT DISTINCT name FROM figure", FIGURES)
    where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    sql = (
        "SELECT f.record_id, r.kind, r.vendor, f.name, f.value_text, f.value, f.unit, f.direction, f.scope,"
        " f.status, f.as_of, f.reviewed, f.precision, f.sparsity"
        f" FROM figure f JOIN record r ON r.id = f.record_id{where} ORDER BY r.kind, f.record_id, f.name"
    )
    return [dict(row) for row in connection.execute(sql, params)]


def _require_known(connection: sqlite3.Connection, option: str, pattern: str, sql: str, also: Iterable[str] = ()) -> None:
    """A filter that matches nothing in the data and no declared word is a misspelling, not an empty answer."""
    known = [row[0] for row in connection.execute(sql)]
    like = re.compile("".join(".*" if char == "%" else "." if char == "_" else re.escape(char) for char in pattern), re.IGNORECASE)
    if pattern in also or any(like.fullmatch(word) for word in known):
        return
    from specdb.suggest import did_you_mean  # only on this error path

    raise UsageError(f"{option} '{pattern}' matches nothing in the data{did_you_mean(pattern.replace('%', ''), [*known, *also])}")


def show_source(connection: sqlite3.Connection, source_id: str) -> dict[str, Any] | None:
    """A source by its id (any case): what it is, where, and every figure that cites it with the words quoted; None
    when no source has that id."""
    row = connection.execute("SELECT * FROM source WHERE lower(id) = ?", (name_key(source_id),)).fetchone()
    if row is None:
        return None
    source = {key: row[key] for key in ("id", "name", "publisher", "url", "citation", "published", "accessed", "notes")}
    source["cited_by"] = [
        {"record_id": cited[0], "figure": cited[1], "quote": cited[2], "locator": cited[3]}
        for cited in connection.execute(
            "SELECT DISTINCT f.record_id, f.name, c.quote, c.locator FROM citation c JOIN figure f ON f.id = c.figure_id"
            " WHERE c.source_id = ? ORDER BY f.record_id, f.name, c.quote", (row["id"],),
        )
    ]
    return source


def list_sources(connection: sqlite3.Connection) -> list[dict[str, Any]]:
    sql = (
        "SELECT s.id, s.publisher, s.name, s.url, s.published, s.accessed,"
        " (SELECT COUNT(DISTINCT c.figure_id) FROM citation c WHERE c.source_id = s.id) AS figures"
        " FROM source s ORDER BY s.id"
    )
    return [dict(row) for row in connection.execute(sql)]


def figure_sources(connection: sqlite3.Connection, figure_ids: list[int]) -> list[list[str]]:
    """The ids of the sources each figure itself cites (not its history entries' or alternatives'), sorted, in the order of figure_ids."""
    found: dict[int, set[str]] = {}
    for start in range(0, len(figure_ids), 500):
        chunk = figure_ids[start:start + 500]
        marks = ", ".join("?" * len(chunk))
        for figure_id, source_id in connection.execute(
            f"SELECT figure_id, source_id FROM citation WHERE claim_id IS NULL AND figure_id IN ({marks})", chunk
        ):
            found.setdefault(figure_id, set()).add(source_id)
    return [sorted(found.get(figure_id, ())) for figure_id in figure_ids]


def counts(connection: sqlite3.Connection) -> tuple[int, int, int]:
    """How many records (other than sources), sources and figures the database holds."""
    return connection.execute("SELECT (SELECT COUNT(*) FROM record), (SELECT COUNT(*) FROM source), (SELECT COUNT(*) FROM figure)").fetchone()


def record_kind(connection: sqlite3.Connection, record_id: str) -> str:
    return connection.execute("SELECT kind FROM record WHERE id = ?", (record_id,)).fetchone()[0]


def record_figures(connection: sqlite3.Connection, record_id: str) -> list[sqlite3.Row]:
    """A record's figures, every column, by name."""
    return connection.execute("SELECT * FROM figure WHERE record_id = ? ORDER BY name", (record_id,)).fetchall()


def current_figure(connection: sqlite3.Connection, record_id: str, name: str) -> tuple[int, str, str, str, str, str]:
    """A figure's id, value as written, status, as-of and review dates, and its record's file; NotFound lists the record's figures."""
    name = normal(name)
    found = connection.execute(
        "SELECT f.id, f.value_text, f.status, f.as_of, f.reviewed, r.path FROM figure f JOIN record r ON r.id = f.record_id"
        " WHERE f.record_id = ? AND f.name = ?",
        (record_id, name),
    ).fetchone()
    if found is None:
        names = [row[0] for row in connection.execute("SELECT name FROM figure WHERE record_id = ? ORDER BY name", (record_id,))]
        raise NotFound(f"{record_id} has no figure '{name}'; it has {', '.join(names)}")
    return tuple(found)  # type: ignore[return-value]


def history_entries(connection: sqlite3.Connection, figure_id: int) -> list[tuple[str, str, str, str, list[str]]]:
    """A figure's history entries, oldest first: value as written, as-of date, status, review date and cited source ids."""
    return [
        (value_text, as_of, status, reviewed, sources.split() if sources else [])
        for value_text, as_of, status, reviewed, sources in connection.execute(
            "SELECT c.value_text, c.as_of, c.status, c.reviewed,"
            " (SELECT group_concat(source_id, ' ') FROM citation WHERE claim_id = c.id)"
            " FROM claim c WHERE c.figure_id = ? AND c.claim_kind = 'history' ORDER BY c.as_of",
            (figure_id,),
        )
    ]


def figures_to_review(connection: sqlite3.Connection, reviewed_before: str | None) -> Iterable[sqlite3.Row]:
    """Figures reviewed before a date (ISO), or without one every figure with a review policy, oldest review first:
    id, record_id, kind, figure, value, status, reviewed, warn_after and error_after."""
    sql = (
        "SELECT f.id, f.record_id, r.kind, f.name AS figure, f.value_text AS value, f.status, f.reviewed, f.warn_after, f.error_after"
        " FROM figure f JOIN record r ON r.id = f.record_id"
    )
    if reviewed_before is not None:
        sql, params = sql + " WHERE f.reviewed < ?", [reviewed_before]
    else:
        sql, params = sql + " WHERE f.warn_after IS NOT NULL OR f.error_after IS NOT NULL", []
    return connection.execute(sql + " ORDER BY f.reviewed, f.record_id, f.name", params)


def figures_citing(connection: sqlite3.Connection, source_ids: list[str]) -> list[sqlite3.Row]:
    """The figures that cite any of these sources themselves, with the columns of `figures_to_review`."""
    if not source_ids:
        return []
    marks = ", ".join("?" * len(source_ids))
    return connection.execute(
        "SELECT f.id, f.record_id, r.kind, f.name AS figure, f.value_text AS value, f.status, f.reviewed, f.warn_after, f.error_after"
        " FROM figure f JOIN record r ON r.id = f.record_id"
        f" WHERE f.id IN (SELECT figure_id FROM citation WHERE claim_id IS NULL AND source_id IN ({marks}))"
        " ORDER BY f.reviewed, f.record_id, f.name", source_ids,
    ).fetchall()


def hardware_names(connection: sqlite3.Connection) -> list[tuple[str, str, str | None, str | None, list[str]]]:
    """Every record but the sources: id, name, vendor, family and aliases, by id."""
    aliases: dict[str, list[str]] = {}
    for alias, record_id in connection.execute("SELECT alias, record_id FROM alias ORDER BY record_id, alias"):
        aliases.setdefault(record_id, []).append(alias)
    return [
        (record_id, name, vendor, family, aliases.get(record_id, []))
        for record_id, name, vendor, family in connection.execute("SELECT id, name, vendor, family FROM record WHERE kind != 'source' ORDER BY id")
    ]


def record_kinds(connection: sqlite3.Connection) -> dict[str, str]:
    return dict(connection.execute("SELECT id, kind FROM record"))


def record_vendors(connection: sqlite3.Connection) -> dict[str, str]:
    return dict(connection.execute("SELECT id, vendor FROM record"))


def uses_of(connection: sqlite3.Connection, record_id: str) -> dict[str, str]:
    """The records a record is built from, by role, in the order of roles."""
    return dict(connection.execute("SELECT role, target_id FROM record_use WHERE record_id = ? ORDER BY role", (record_id,)).fetchall())


def record_uses(connection: sqlite3.Connection) -> list[tuple[str, str]]:
    """(record, record it uses) for every use."""
    return connection.execute("SELECT record_id, target_id FROM record_use").fetchall()


def every_claim(connection: sqlite3.Connection) -> Iterable[tuple[int, str, float, str, str | None, str | None]]:
    """Every history entry and alternative: figure id, kind, value, value as written, as-of date, reason; in each figure's order."""
    return connection.execute("SELECT figure_id, claim_kind, value, value_text, as_of, reason FROM claim ORDER BY figure_id, position")


def every_figure(connection: sqlite3.Connection) -> Iterable[tuple[Any, ...]]:
    """Every figure: id, record, name, value, value as written, dimension, direction, scope, precision, as-of date; by record and name."""
    return connection.execute(
        "SELECT id, record_id, name, value, value_text, dimension, direction, scope, precision, as_of FROM figure ORDER BY record_id, name"
    )


def sources_to_check(connection: sqlite3.Connection, record_id: str | None = None, source_id: str | None = None) -> list[sqlite3.Row]:
    """The sources a record cites (or every source), or the one named: id, url, citation, fingerprint and path, by id.
    The record is any name `resolve` takes; an unknown source is NotFound with the closest ids."""
    sql, params = "SELECT s.id, s.url, s.citation, s.fingerprint, s.path FROM source s", []
    if record_id is not None:
        sql += " WHERE s.id IN (SELECT c.source_id FROM citation c JOIN figure f ON f.id = c.figure_id WHERE f.record_id = ?)"
        params.append(resolve(connection, record_id))
    if source_id is not None:
        known = [row[0] for row in connection.execute("SELECT id FROM source")]
        if source_id not in known:
            from specdb.suggest import did_you_mean

            raise NotFound(f"no source '{source_id}'{did_you_mean(source_id, known)}")
        sql += (" AND" if params else " WHERE") + " s.id = ?"
        params.append(source_id)
    return connection.execute(sql + " ORDER BY s.id", params).fetchall()


def source_citations(connection: sqlite3.Connection, source_ids: list[str], record_id: str | None = None) -> list[sqlite3.Row]:
    """The citations of these sources by figures and their alternatives (a history entry quotes what a source said then, not
    now): source id, record id, figure name, claim kind (None for the figure itself) and quote, in that order."""
    found = []
    record = resolve(connection, record_id) if record_id is not None else None
    for start in range(0, len(source_ids), 500):
        chunk = source_ids[start:start + 500]
        sql = (
            "SELECT DISTINCT c.source_id, f.record_id, f.name AS figure, cl.claim_kind, c.quote"
            " FROM citation c JOIN figure f ON f.id = c.figure_id LEFT JOIN claim cl ON cl.id = c.claim_id"
            f" WHERE c.source_id IN ({', '.join('?' * len(chunk))}) AND (cl.claim_kind IS NULL OR cl.claim_kind != 'history')"
        )
        params: list[Any] = list(chunk)
        if record is not None:
            sql, params = sql + " AND f.record_id = ?", params + [record]
        found += connection.execute(sql + " ORDER BY c.source_id, f.record_id, f.name, c.quote", params).fetchall()
    return found


def source_fingerprints(connection: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """The sources reviewed with a fingerprint: id, url and fingerprint."""
    return connection.execute("SELECT id, url, fingerprint FROM source WHERE fingerprint IS NOT NULL AND url IS NOT NULL ORDER BY id").fetchall()
