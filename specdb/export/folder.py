"""Write an export folder whole or not at all, and never over a folder that is not an export."""

from __future__ import annotations

import json
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from specdb.errors import SpecdbError, UsageError

MANIFEST = "specdb-export.json"


def check_target(target: Path, force: bool) -> None:
    """Refuse a file, or a non-empty folder that no earlier export wrote, unless forced."""
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target}: exists and is not a folder")
    if force or not target.is_dir() or (target / MANIFEST).is_file():
        return
    if any(target.iterdir()):
        raise UsageError(f"{target}: folder is not empty and holds no earlier specdb export; choose another folder or pass --force")


@contextmanager
def replacing(target: Path, force: bool) -> Iterator[Path]:
    """A fresh folder beside target to write into; on success it takes target's place in one rename (two when target holds an older export)."""
    target = target.resolve()
    check_target(target, force)
    staging = target.with_name(f".{target.name}.{os.getpid()}.exporting")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        yield staging
        _swap(staging, target)
    except OSError as exc:
        raise SpecdbError(f"{target}: cannot write the export ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _swap(staging: Path, target: Path) -> None:
    if target.is_dir() and not any(target.iterdir()):
        target.rmdir()
    if not target.exists():
        os.replace(staging, target)
        return
    retired = target.with_name(f".{target.name}.{os.getpid()}.replaced")
    os.replace(target, retired)
    os.replace(staging, target)
    shutil.rmtree(retired, ignore_errors=True)


def write_json(path: Path, value: Any) -> None:
    """JSON the same way every time: two-space indent, keys in the order given, UTF-8, a final newline."""
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
