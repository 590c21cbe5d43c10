"""Exports of the data for other tools, each a folder with a `specdb-export.json` manifest.

Every export is deterministic (the same data gives the same bytes), is
written to a fresh folder that then takes the target's place, and carries the
data licence and the attribution line.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specdb.export.folder import MANIFEST, named_folder, replacing, write_json

# format -> (module, one-line description)
FORMATS: dict[str, tuple[str, str]] = {
    "datapackage": ("specdb.export.datapackage", "Frictionless Data Package: datapackage.json and one CSV per table"),
    "datasette": ("specdb.export.datasette", "the database and its Datasette metadata.json (titles, licence, column descriptions)"),
    "llm-analysis": ("specdb.export.llm_analysis", "one llm-analysis GPUConfig JSON per accelerator"),
    "aiconfigurator": ("specdb.export.aiconfigurator", "one AIConfigurator system YAML per platform"),
    "peaks": ("specdb.export.peaks", "peaks.json keyed by every name a part is known by, and specdb_peaks.py, a dependency-free reader"),
}


@dataclass(frozen=True)
class ExportResult:
    path: Path
    files: list[str]


def export(connection: sqlite3.Connection, about: dict[str, Any], fmt: str, target: str | os.PathLike[str], force: bool = False) -> ExportResult:
    """Write the data in one format into target; `about` is `specdb.info()` for the same data.

    Raises UsageError for an unknown format, an empty target, a target that is
    a file, that holds the working folder or what the export reads, or that
    is a non-empty folder no earlier export wrote (unless force).
    """
    from specdb.errors import UsageError

    if fmt not in FORMATS:
        raise UsageError(f"unknown export format '{fmt}'; one of: {', '.join(FORMATS)}")
    writer = importlib.import_module(FORMATS[fmt][0])
    destination = named_folder(target)
    with replacing(destination, force, _read_or_stood_in(connection, about)) as folder:
        details = writer.write(connection, about, folder)
        files = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())
        write_json(folder / MANIFEST, {
            "format": fmt,
            "specdb_version": about["specdb_version"],
            "data_version": about["data_version"],
            "content_hash": about["content_hash"],
            "data_license": about["data_license"],
            "data_license_url": about["data_license_url"],
            "attribution": about["attribution"],
            "files": files,
            **details,
        })
    return ExportResult(destination, [*files, MANIFEST])


def _read_or_stood_in(connection: sqlite3.Connection, about: dict[str, Any]) -> list[tuple[Path, str]]:
    """What replacing the target must not remove: the specs and the database file the export reads, and the working folder."""
    kept = []
    with suppress(FileNotFoundError):  # a working folder already removed holds nothing to keep
        kept.append((Path.cwd(), "the working folder"))
    kept.append((Path(about["specs"]).resolve(), "the specs folder the export reads"))
    if isinstance(connection, sqlite3.Connection):
        kept.append((Path(about["database"]).resolve(), "the database the export reads"))
    return kept
