"""A vendorable peak table: `peaks.json`, keyed by every name a part is known by, and `specdb_peaks.py`, which reads it
with the standard library only, for a training script to copy in and divide its FLOP/s by.

Names are looked up as the resolver looks them up: first as written (NFKC, case folded), then in the loose form
(letters and digits only), so the module matches 'NVIDIA H100 80GB HBM3', 'nvidia_h100_80gb_hbm3' and
'NVIDIA-H100-80GB-HBM3' alike, and the GKE label 'tpu-v5p-slice' is the chip while 'TPU v5p slice' is the slice. A
name several records share ('gfx942') keys the list of them, and the module refuses it; a part or peak the data lacks
is a KeyError, never a neighbour's number.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from specdb.export.folder import write_json
from specdb.names import loose_key, name_key

TABLE = "peaks.json"
MODULE = "specdb_peaks.py"

READER = '''"""Peak throughput of accelerators by the name the runtime reports, read from peaks.json beside this file.

Written by `specdb export peaks`; copy both files into a project. Standard library only.
Data: {attribution}

    import torch, specdb_peaks
    peak = specdb_peaks.peak(torch.cuda.get_device_name(), "bf16")  # FLOP/s, dense
"""

import json
import os
import re
import unicodedata

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "peaks.json"), encoding="utf-8") as _file:
    TABLE = json.load(_file)


def _folded(name):
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    pci = re.fullmatch(r"\\s*0x([0-9a-f]{{4}})([0-9a-f]{{4}})\\s*", folded)
    return f"{{pci[2]}}:{{pci[1]}}" if pci else folded  # nvidia-smi's pci.device_id: device then vendor


def part(name):
    """The record id of the part a name means; KeyError when the data lacks it or several records share the name."""
    folded = _folded(name)
    found = TABLE["names"].get(folded)
    if found is None:
        found = TABLE["loose_names"].get("".join(char for char in folded if char.isalnum()))
    if found is None:
        raise KeyError(f"{{name!r}} is not in the data")
    if isinstance(found, list):
        raise KeyError(f"{{name!r}} names more than one part: {{', '.join(found)}}")
    return found


def peak(name, dtype="bf16", sparse=False):
    """The part's peak for dtype in FLOP/s, dense unless sparse; KeyError when the data holds no such peak."""
    return entry(name, dtype, sparse)["flops"]


def entry(name, dtype="bf16", sparse=False):
    """The peak with its record, figure, review date and source URLs."""
    record = part(name)
    counting = "sparse" if sparse else "dense"
    found = TABLE["parts"].get(record, {{}}).get("peaks", {{}}).get(counting, {{}}).get(dtype)
    if found is None:
        raise KeyError(f"{{record}}: no {{counting}} {{dtype}} peak in the data")
    return dict(found, record=record)
'''


def write(connection: sqlite3.Connection, about: dict[str, Any], folder: Path) -> dict[str, Any]:
    parts = _parts(connection)
    names: dict[str, set[str]] = {}
    loose_names: dict[str, set[str]] = {}
    for known, record_id in _names(connection):
        names.setdefault(name_key(known), set()).add(record_id)
        if loose_key(known):
            loose_names.setdefault(loose_key(known), set()).add(record_id)
    write_json(folder / TABLE, {
        "specdb_version": about["specdb_version"],
        "data_version": about["data_version"],
        "content_hash": about["content_hash"],
        "data_license": about["data_license"],
        "attribution": about["attribution"],
        "unit": "FLOP/s",
        "names": _table(names),
        "loose_names": _table(loose_names),
        "parts": parts,
    })
    (folder / MODULE).write_text(READER.format(attribution=about["attribution"]), encoding="utf-8")
    shared = sorted(key for key, owners in names.items() if len(owners) > 1)  # refused by the module, as by the resolver
    return {
        "open_with": f"import {MODULE[:-3]}; {MODULE[:-3]}.peak(torch.cuda.get_device_name(), 'bf16')",
        "accelerators": sorted(parts),
        "names": len(names),
        "shared_names": shared,
    }


def _table(owners_by_key: dict[str, set[str]]) -> dict[str, Any]:
    return {key: min(owners) if len(owners) == 1 else sorted(owners) for key, owners in sorted(owners_by_key.items())}


def _parts(connection: sqlite3.Connection) -> dict[str, Any]:
    """Every accelerator with a peak: its name and its peaks by counting and number format, each with its provenance."""
    sources: dict[int, list[str]] = {}
    for figure_id, url, source_id in connection.execute(
        "SELECT c.figure_id, s.url, s.id FROM citation c JOIN source s ON s.id = c.source_id WHERE c.claim_id IS NULL ORDER BY c.figure_id, c.position"
    ):
        sources.setdefault(figure_id, []).append(url or source_id)
    parts: dict[str, Any] = {}
    for figure_id, record_id, record_name, figure, value, value_text, precision, sparsity, status, reviewed in connection.execute(
        "SELECT f.id, r.id, r.name, f.name, f.value, f.value_text, f.precision, f.sparsity, f.status, f.reviewed"
        " FROM figure f JOIN record r ON r.id = f.record_id"
        " WHERE r.kind = 'accelerator' AND f.dimension = 'compute' ORDER BY r.id, f.name"
    ):
        entry = parts.setdefault(record_id, {"name": record_name, "peaks": {}})
        entry["peaks"].setdefault(sparsity, {})[precision] = {
            "flops": value, "as_written": value_text, "figure": figure, "status": status, "reviewed": reviewed,
            "sources": sources.get(figure_id, []),
        }
    return parts


def _names(connection: sqlite3.Connection) -> list[tuple[str, str]]:
    """(name, record id) for every id, name, alias, runtime name and PCI id: a system's names are kept so that a name
    an accelerator shares with one is refused here as the resolver refuses it."""
    return connection.execute(
        "SELECT id, id FROM record UNION ALL SELECT name, id FROM record UNION ALL SELECT alias, record_id FROM alias"
        " UNION ALL SELECT name, record_id FROM runtime_name"
    ).fetchall()
