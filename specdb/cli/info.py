"""info and schema: which data the other commands read, under which licence, and the format of its records."""

import json
import sys

from specdb.cli.common import DbOption, FormatOption, SpecsOption, emit, locate


def info(specs: SpecsOption = None, db: DbOption = None, fmt: FormatOption = "table") -> None:
    """Say which data is used: data version, content hash, specs folder, database, counts and licences.

    Builds the database first if needed. Example: specdb info --format json
    """
    from specdb import info as describe

    facts = describe(*locate(specs, db))
    emit([{"key": key, "value": value} for key, value in facts.items()], fmt, document=facts)


def schema() -> None:
    """Print the record format as a JSON Schema, for editors (yaml-language-server) and other validators.

    Example: specdb schema > specdb-record.schema.json
    """
    from specdb.recordschema import record_json_schema

    sys.stdout.write(json.dumps(record_json_schema(), indent=2, ensure_ascii=False) + "\n")
