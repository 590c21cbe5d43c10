"""info and schema: which data the other commands read, under which licence, and the format of its records."""

from __future__ import annotations  # the Typer declarations in the signatures are read only when the full CLI is assembled

import json
import sys

from specdb.cli.common import emit, lazy_module, locate

options = lazy_module("specdb.cli.options")


def info(
    specs: options.SpecsOption = None, db: options.DbOption = None, refresh: options.RefreshOption = False, fmt: options.FormatOption = "table"
) -> None:
    """Say which data is used: data version, content hash, specs folder, database, counts and licences, and a server's last publishes.

    Builds a SQLite database first if needed; reads a server as published. Example: specdb info --format json
    """
    from specdb import info as describe

    facts = describe(*locate(specs, db), refresh=refresh)
    rows = [{"key": key, "value": value} for key, value in facts.items() if key != "publications"]
    rows += [{"key": "published", "value": _publication_line(publication)} for publication in facts.get("publications", ())]
    emit(rows, fmt, document=facts)


def _publication_line(publication: dict) -> str:
    previous = publication["previous_content_hash"]
    return (
        f"{publication['published_at']} by {publication['published_by']}: {publication['content_hash'][:12]}"
        f" (replacing {previous[:12] if previous else 'nothing'}), specdb {publication['specdb_version']}"
    )


def schema() -> None:
    """Print the record format as a JSON Schema, for editors (yaml-language-server) and other validators.

    Example: specdb schema > specdb-record.schema.json
    """
    from specdb.format.jsonschema import record_json_schema

    sys.stdout.write(json.dumps(record_json_schema(), indent=2, ensure_ascii=False) + "\n")
