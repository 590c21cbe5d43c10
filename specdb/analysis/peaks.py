"""The peak throughput of a part for one number format, the figure an MFU is divided by: dense unless sparse is asked for."""

from __future__ import annotations

import sqlite3
from typing import Any

from specdb.errors import NotFound, UsageError
from specdb.format.terms import PRECISIONS

# The formats a training or inference script asks a peak for.
PEAK_DTYPES = ("bf16", "fp16", "fp8", "fp4", "int8", "tf32")


def peak(connection: sqlite3.Connection, name: str, dtype: str, sparse: bool = False) -> dict[str, Any]:
    """The part's peak for `dtype`, dense unless `sparse`: the value in FLOP/s (operations per second for int8) with the
    figure it comes from, its counting, status, as-of and review dates, and its sources (title, URL, quote).

    NotFound names what the data holds for the part when it has no such peak: no number is made up for a format
    the data does not give (a dense peak is never halved from a sparse one, nor the other way round).
    """
    from specdb.db.catalog import show_record

    if dtype not in PRECISIONS:
        raise UsageError(f"'{dtype}' is not a number format; use one of {', '.join(PEAK_DTYPES)}")
    sparsity = "sparse" if sparse else "dense"
    record = show_record(connection, name)
    compute = [figure for figure in record["figures"] if figure["dimension"] == "compute"]
    chosen = [figure for figure in compute if figure["precision"] == dtype and figure["sparsity"] == sparsity]
    if not chosen:
        raise NotFound(f"{record['id']} ({record['name']}): no {sparsity} {dtype} peak in the data; {_holds(record, compute)}")
    if len(chosen) > 1:
        raise UsageError(f"{record['id']} has several {sparsity} {dtype} peaks: {', '.join(figure['name'] for figure in chosen)}; read them with `specdb show`")
    [figure] = chosen
    data = connection.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()
    return {
        "record_id": record["id"], "record_name": record["name"], "asked_as": name,
        "dtype": dtype, "sparsity": sparsity, "figure": figure["name"],
        "value": figure["value"], "unit": "FLOP/s", "value_text": figure["value_text"], "display": figure["display"],
        "status": figure["status"], "as_of": figure["as_of"], "reviewed": figure["reviewed"],
        "note": figure["note"], "uncertainty": figure["uncertainty"],
        "sources": [
            {key: source[key] for key in ("source_id", "title", "publisher", "url", "quote", "locator")} for source in figure["sources"]
        ],
        "content_hash": data[0] if data else None,
    }


def _holds(record: dict[str, Any], compute: list[dict[str, Any]]) -> str:
    if compute:
        return "it holds " + ", ".join(f"{figure['sparsity']} {figure['precision']}" for figure in compute)
    accelerator = record["uses"].get("accelerator")
    if accelerator:
        return f"it is a {record['kind']}; its accelerator is {accelerator}"
    return f"it is a {record['kind']} with no peak throughput"
