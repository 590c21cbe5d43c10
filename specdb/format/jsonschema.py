"""The record format as a JSON Schema (draft 2020-12), generated from the pydantic models, for editors and other validators.

It checks the shape of a spec file (keys, types, closed vocabularies, id and
date patterns); the checks across records and of units stay with `specdb validate`.
"""

from __future__ import annotations

from typing import Any


def record_json_schema() -> dict[str, Any]:
    """A JSON Schema that every spec file (a record, a source or policy.yaml) satisfies."""
    from pydantic import TypeAdapter

    from specdb.format import schema
    from specdb.licensing import DATA_LICENSE

    generated = TypeAdapter(schema.Record | schema.SourceRecord | schema.KindPolicies).json_schema(by_alias=True, mode="validation")
    # Chosen by `kind` rather than "any of the three", so a validator reports the mistake inside the record, not "matches none".
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"specdb record format {schema.SCHEMA_VERSION}",
        "description": f"A specdb spec file: a record (accelerator, link, fabric, system, cluster), a source, or policy.yaml. Data under {DATA_LICENSE}.",
        "if": {"required": ["kind"]},
        "then": {
            "if": {"properties": {"kind": {"const": "source"}}},
            "then": {"$ref": "#/$defs/SourceRecord"},
            "else": {"$ref": "#/$defs/Record"},
        },
        "else": {"$ref": "#/$defs/KindPolicies"},
        "$defs": generated["$defs"],
    }
