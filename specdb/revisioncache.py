"""What `diff` remembers of a git revision it has validated in full, so that a later diff reads only the files that changed.

An entry is named by the git object id of the specs folder at the revision,
which names every byte of every file in it, and by a digest of specdb's own
code, which decides what is valid and how ratios come out: an entry can never
describe other content or other rules, so it is never stale. Only valid
revisions are remembered. An entry is written whole to a temporary file and
renamed into place, so readers and concurrent writers see a whole entry or
none; an entry that cannot be read or is not of the expected shape is ignored.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from numbers import Real
from pathlib import Path
from typing import Any

from specdb.locations import cache_folder
from specdb.snapshot import Ratios
from specdb.tiers import BASES, RATIOS


@dataclass(frozen=True)
class RevisionSummary:
    """A valid revision's content hash and the tier ratios of every platform on each basis."""

    content_hash: str
    ratios: dict[str, Ratios]


@functools.cache
def code_digest() -> str:
    package = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def entry_path(tree: str) -> Path:
    return cache_folder() / "revisions" / f"{tree}-{code_digest()[:16]}.json"


def load(tree: str) -> RevisionSummary | None:
    """The summary remembered for a specs tree, or None when there is none that can be trusted."""
    try:
        data = json.loads(entry_path(tree).read_bytes())
    except (OSError, ValueError):
        return None
    return _summary(data)


def _summary(data: Any) -> RevisionSummary | None:
    if not isinstance(data, dict) or not isinstance(data.get("content_hash"), str):
        return None
    ratios = data.get("ratios")
    if not isinstance(ratios, dict) or set(ratios) != set(BASES):
        return None
    summary = RevisionSummary(data["content_hash"], {})
    for basis, platforms in ratios.items():
        if not isinstance(platforms, dict):
            return None
        for values in platforms.values():
            if not isinstance(values, list) or len(values) != len(RATIOS) or not all(_ratio(value) for value in values):
                return None
        summary.ratios[basis] = {platform: tuple(values) for platform, values in platforms.items()}
    return summary


def _ratio(value: Any) -> bool:
    return value is None or (isinstance(value, Real) and not isinstance(value, bool))


def store(tree: str, summary: RevisionSummary) -> None:
    """Remember a valid revision; a cache folder that cannot be written only leaves the next diff to read it in full again."""
    target = entry_path(tree)
    text = json.dumps({"content_hash": summary.content_hash, "ratios": {basis: {p: list(v) for p, v in r.items()} for basis, r in summary.ratios.items()}})
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "w") as file:
                file.write(text)
            os.replace(temporary, target)
        except BaseException:  # an interrupt too: no half-written entry is left behind
            os.unlink(temporary)
            raise
    except OSError:
        return
