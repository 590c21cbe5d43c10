"""The one mapping from validated records to the database's rows.

The build writes these rows; `snapshot` reads a version of the data back from
them, whether they come from specs (through here) or from a built database,
so a field added to the record format is mapped once, here, and every reading
of a version (folder, git revision, database) carries it.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from specdb.names import name_key
from specdb.format.policy import effective_policy

if TYPE_CHECKING:
    from specdb.format import schema
    from specdb.load.dataset import Dataset

# Referenced tables before the tables that refer to them: the order rows are inserted in.
TABLES = ("meta", "record", "source", "alias", "record_use", "figure", "collective_run", "claim", "citation", "runtime_name", "record_digest")
# Columns that only number rows within one database: a record's digest leaves them out and places its rows by their order.
NUMBERING = {"figure": ("id",), "collective_run": ("figure_id",), "claim": ("id", "figure_id"), "citation": ("id", "figure_id", "claim_id")}

# Each table's rows (as `t`) with the record they belong to: the owner column, the joins that find it, and the columns
# that place a row within its record; ids that only number rows within one database (`NUMBERING`) are left out.
OWNER = {
    "record": ("t.id", "", ()),
    "source": ("t.id", "", ()),
    "alias": ("t.record_id", "", ()),
    "record_use": ("t.record_id", "", ()),
    "figure": ("t.record_id", "", ()),
    "collective_run": ("f.record_id", "JOIN figure f ON f.id = t.figure_id", ("f.name",)),
    "claim": ("f.record_id", "JOIN figure f ON f.id = t.figure_id", ("f.name",)),
    "citation": (
        "f.record_id", "JOIN figure f ON f.id = t.figure_id LEFT JOIN claim c ON c.id = t.claim_id", ("f.name", "c.claim_kind", "c.position"),
    ),
}


def dataset_rows(dataset: Dataset, meta: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Every table's rows for a valid dataset, with the build's meta facts."""
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
    rows["meta"] = meta_rows(meta)
    numbering = Numbering()
    for record_id in sorted(dataset.records):
        loaded = dataset.records[record_id]
        for table, row in record_rows(loaded.model, loaded.relpath, dataset.policies, numbering):
            rows[table].append(row)
    return rows


def meta_rows(meta: dict[str, str]) -> list[dict[str, Any]]:
    return [{"key": key, "value": value} for key, value in sorted(meta.items())]


class Numbering:
    """The last figure, claim and citation ids given: records mapped in the order of their ids number their rows alike."""

    def __init__(self) -> None:
        self.figure = self.claim = self.citation = 0


def record_rows(
    model: schema.Record | schema.SourceRecord, relpath: str, policies: schema.KindPolicies | None, numbering: Numbering,
) -> Iterator[tuple[str, dict[str, Any]]]:
    """One record's rows as (table, row), its digest last; called for the records in the order of their ids, with one `numbering`."""
    rows = list(_owned_rows(model, relpath, policies, numbering))
    yield from rows
    yield "record_digest", {"id": model.id, "digest": rows_digest(rows)}


def rows_digest(rows: Iterable[tuple[str, dict[str, Any]]]) -> str:
    """A digest of a record's rows in the order `record_rows` gives them, which places each row within its record.

    Each row is its table and its values in the order of its columns, as a tuple's repr: quoted and delimited, so no
    two sequences of rows read alike.
    """
    digest = hashlib.blake2b(digest_size=16)
    for table, row in rows:
        left_out = NUMBERING.get(table)
        values = row.values() if left_out is None else [value for column, value in row.items() if column not in left_out]
        digest.update(repr((table, *values)).encode())
    return digest.hexdigest()


def _owned_rows(
    model: schema.Record | schema.SourceRecord, relpath: str, policies: schema.KindPolicies | None, numbering: Numbering,
) -> Iterator[tuple[str, dict[str, Any]]]:
    from specdb.format import schema

    def cite(citations: Iterable[schema.SourceCitation], figure: int, claim: int | None) -> Iterator[tuple[str, dict[str, Any]]]:
        for position, citation in enumerate(citations):
            numbering.citation += 1
            yield "citation", {
                "id": numbering.citation, "figure_id": figure, "claim_id": claim, "position": position,
                "source_id": citation.ref, "quote": citation.quote, "locator": citation.locator, "note": citation.note,
            }

    if isinstance(model, schema.SourceRecord):
        yield "source", {
            "id": model.id, "name": model.name, "publisher": model.publisher, "url": model.url,
            "citation": model.citation, "published": _iso(model.published), "accessed": _iso(model.accessed),
            "notes": model.notes, "path": relpath, "fingerprint": model.fingerprint,
        }
        return
    yield "record", {
        "id": model.id, "kind": model.kind, "name": model.name, "vendor": model.vendor, "family": model.family,
        "released": model.released.text if model.released else None, "released_date": _iso(model.released),
        "notes": model.notes, "path": relpath,
    }
    for alias in model.aliases:
        yield "alias", {"alias_key": name_key(alias), "alias": alias, "record_id": model.id}
    for runtime in model.runtime_names:
        yield "runtime_name", {
            "record_id": model.id, "name_key": name_key(runtime.name), "reported_by": runtime.reported_by, "name": runtime.name,
            "source_id": runtime.ref,
        }
    for pci in model.pci_ids:
        yield "runtime_name", {"record_id": model.id, "name_key": pci.id, "reported_by": "pci", "name": pci.id, "source_id": pci.ref}
    for role, target in sorted(model.uses.items()):
        yield "record_use", {"record_id": model.id, "role": role, "target_id": target}
    for name in sorted(model.figures):
        figure = model.figures[name]
        numbering.figure += 1
        figure_id = numbering.figure
        warn_after, error_after = effective_policy(policies, model, figure)
        yield "figure", {
            "id": figure_id, "record_id": model.id, "name": name,
            "value_text": figure.value.text, "value": figure.value.value, "unit": figure.value.unit,
            "dimension": figure.value.dimension, "direction": figure.direction, "scope": figure.scope,
            "status": figure.status, "as_of": _iso(figure.as_of), "as_of_text": figure.as_of.text,
            "reviewed": _iso(figure.reviewed), "reviewed_text": figure.reviewed.text,
            "precision": figure.precision, "sparsity": figure.sparsity, "method": figure.method,
            "note": figure.note, "uncertainty": figure.uncertainty,
            "derived_product": " ".join(figure.derived.product) if figure.derived else None,
            "derived_factor": figure.derived.factor if figure.derived else None,
            "warn_after": warn_after, "error_after": error_after,
        }
        if figure.collective is not None:
            run = figure.collective
            yield "collective_run", {
                "figure_id": figure_id, "operation": run.operation, "accelerators": run.accelerators,
                "size_bytes": run.size.value if run.size else None, "size_text": run.size.text if run.size else None,
                "algorithm": run.algorithm, "library": run.library, "domains": run.domains,
            }
        yield from cite(figure.sources, figure_id, None)
        claims: list[tuple[str, Any]] = [("history", entry) for entry in figure.history]
        claims += [("alternative", entry) for entry in figure.alternatives]
        positions = {"history": 0, "alternative": 0}
        for claim_kind, claim in claims:
            numbering.claim += 1
            yield "claim", {
                "id": numbering.claim, "figure_id": figure_id, "claim_kind": claim_kind, "position": positions[claim_kind],
                "value_text": claim.value.text, "value": claim.value.value, "unit": claim.value.unit,
                "status": claim.status, "direction": getattr(claim, "direction", None), "scope": getattr(claim, "scope", None),
                "as_of": _iso(claim.as_of), "reviewed": _iso(getattr(claim, "reviewed", None)),
                "reason": getattr(claim, "reason", None), "note": getattr(claim, "note", None),
            }
            positions[claim_kind] += 1
            yield from cite(claim.sources, figure_id, numbering.claim)


def _iso(date: schema.SpecDate | None) -> str | None:
    return date.day.isoformat() if date else None
