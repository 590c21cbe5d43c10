"""What a reader of a server knows of the publication it reads: whether it holds the reader's specs, and which is newer.

A read of a server never publishes (only `specdb build --db URL` does), so
when the specs in hand are not the ones published, the reader says so once,
on stderr, and reads the publication as it is.

Imported only for a postgresql:// database, with `postgres.py`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from specdb.locations import ServerDatabase
from specdb.db.postgres import Reader, publications, publish_command
from specdb.load.files import read_specs
from specdb.db.store import read_meta, stamp_matches

# Said once a process: a program that connects a thousand times hears it once.
_told: set[tuple[str, str, str]] = set()


def warn_if_other_specs(reader: Reader, db: ServerDatabase, specs: Path) -> None:
    """Say on stderr, once, when the publication does not hold the specs' bytes; which side is newer when that is known."""
    meta = read_meta(reader)
    published = meta.get("content_hash", "")
    if stamp_matches(meta, specs):
        return
    local = specs_content_hash(specs)
    if local == published:
        return
    key = (str(db), published, local or "")
    if key in _told:
        return
    _told.add(key)
    if local is None:
        held = f"{db}: the specs at {specs} cannot all be read, so whether it holds them is not known"
    else:
        held = f"{db} holds other data than the specs at {specs} (published {published[:12]}, these {local[:12]}); {_newer(reader, meta, specs, local)}"
    print(f"specdb: {held}. Read as published; to publish these specs: {publish_command(db, specs)}", file=sys.stderr)


def holds_specs(reader: Reader, specs: Path) -> bool:
    """Whether the publication holds the specs' bytes as they are now."""
    meta = read_meta(reader)
    return stamp_matches(meta, specs) or specs_content_hash(specs) == meta.get("content_hash")


def specs_content_hash(specs: Path) -> str | None:
    """The content hash of the folder's spec files as they are now (see `specfiles`); None when some cannot be read."""
    tree, files = read_specs(specs)
    if tree.problems:
        return None
    files.read_all()
    return files.content_hash() if files.whole else None


def _newer(reader: Reader, meta: dict[str, str], specs: Path, local: str) -> str:
    """Which side is newer, from the publish log, else from git; or that it is not known."""
    log = publications(reader, limit=1000)
    earlier = next((row for row in log[1:] if row["content_hash"] == local), None)
    if earlier is not None:
        return f"the publication is newer (these specs were published on {earlier['published_at']} by {earlier['published_by']}, then replaced)"
    published_revision = meta.get("git_revision") or ""
    local_revision = _git(specs, "log", "-1", "--format=%H", "--", ".")
    if published_revision and local_revision:
        if local_revision == published_revision and _git(specs, "status", "--porcelain", "--", "."):
            return f"these specs are newer (edited since git revision {published_revision[:12]}, the one published)"
        if local_revision != published_revision and _is_ancestor(specs, published_revision, local_revision):
            return f"these specs are newer (git revision {local_revision[:12]} follows {published_revision[:12]}, the one published)"
        if local_revision != published_revision and _is_ancestor(specs, local_revision, published_revision):
            return f"the publication is newer (published from git revision {published_revision[:12]}, which follows these specs' {local_revision[:12]})"
    return "which is newer is not known"


def _git(specs: Path, *args: str) -> str:
    """git's output in the specs folder, stripped; empty when git is missing, fails or the folder is not in a repository."""
    try:
        result = subprocess.run(["git", "-C", str(specs), *args], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return result.stdout.strip() if result.returncode == 0 else ""


def _is_ancestor(specs: Path, older: str, newer: str) -> bool:
    try:
        return subprocess.run(
            ["git", "-C", str(specs), "merge-base", "--is-ancestor", older, newer], capture_output=True, timeout=10, check=False
        ).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
