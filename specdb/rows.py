"""The one mapping from validated records to the database's rows.

The build writes these rows; `snapshot` reads a version of the data back from
them, whether they come from specs (through here) or from a built database,
so a field added to the record format is mapped once, here, and every reading
of a version (folder, git revision, database) carries it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from specdb import schema
    from specdb.dataset import Dataset

TABLES = ("meta", "record", "source", "alias", "record_use", "figure", "claim", "citation")


def _policy_text(period: schema.Period | None) -> str | None:
    return None if period is None else f"{period.count} {period.period}"


def effective_policy(dataset: Dataset, record: schema.Record, figure: schema.Figure) -> tuple[str | None, str | None]:
    """warn_after and error_after for a figure: the figure's own, else its record's, else its kind's; an explicit null switches one off."""
    kind_policy = dataset.policies.review.get(record.kind) if dataset.policies else None
    chosen = []
    for key in ("warn_after", "error_after"):
        value = None
        for policy in (figure.review, record.review, kind_policy):
            if policy is not None and key in policy.model_fields_set:
                value = getattr(policy, key)
                break
        chosen.append(_policy_text(value))
    return chosen[0], chosen[1]


def dataset_rows(dataset: Dataset, meta: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Every table's rows for a valid dataset, with the build's meta facts."""
    from specdb import schema

    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
    rows["meta"] = [{"key": key, "value": value} for key, value in sorted(meta.items())]
    figure_id = claim_id = citation_id = 0

    def cite(citations: Iterable[schema.SourceCitation], figure: int, claim: int | None) -> None:
        nonlocal citation_id
        for position, citation in enumerate(citations):
            citation_id += 1
            rows["citation"].append({
                "id": citation_id, "figure_id": figure, "claim_id": claim, "position": position,
                "source_id": citation.ref, "quote": citation.quote, "locator": citation.locator, "note": citation.note,
            })

    for record_id in sorted(dataset.records):
        loaded = dataset.records[record_id]
        model = loaded.model
        if isinstance(model, schema.SourceRecord):
            rows["source"].append({
                "id": model.id, "name": model.name, "publisher": model.publisher, "url": model.url,
                "citation": model.citation, "published": _iso(model.published), "accessed": _iso(model.accessed),
                "notes": model.notes, "path": loaded.relpath,
            })
            continue
        rows["record"].append({
            "id": model.id, "kind": model.kind, "name": model.name, "vendor": model.vendor, "family": model.family,
            "released": model.released.text if model.released else None, "released_date": _iso(model.released),
            "notes": model.notes, "path": loaded.relpath,
        })
        for alias in model.aliases:
            rows["alias"].append({"alias_key": alias.casefold(), "alias": alias, "record_id": model.id})
        for role, target in sorted(model.uses.items()):
            rows["record_use"].append({"record_id": model.id, "role": role, "target_id": target})
        for name in sorted(model.figures):
            figure = model.figures[name]
            figure_id += 1
            warn_after, error_after = effective_policy(dataset, model, figure)
            rows["figure"].append({
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
            })
            cite(figure.sources, figure_id, None)
            claims: list[tuple[str, Any]] = [("history", entry) for entry in figure.history]
            claims += [("alternative", entry) for entry in figure.alternatives]
            positions = {"history": 0, "alternative": 0}
            for claim_kind, claim in claims:
                claim_id += 1
                rows["claim"].append({
                    "id": claim_id, "figure_id": figure_id, "claim_kind": claim_kind, "position": positions[claim_kind],
                    "value_text": claim.value.text, "value": claim.value.value, "unit": claim.value.unit,
                    "status": claim.status, "direction": getattr(claim, "direction", None), "scope": getattr(claim, "scope", None),
                    "as_of": _iso(claim.as_of), "reviewed": _iso(getattr(claim, "reviewed", None)),
                    "reason": getattr(claim, "reason", None), "note": getattr(claim, "note", None),
                })
                positions[claim_kind] += 1
                cite(claim.sources, figure_id, claim_id)
    return rows


def _iso(date: schema.SpecDate | None) -> str | None:
    return date.day.isoformat() if date else None
