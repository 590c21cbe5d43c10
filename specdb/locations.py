"""Where the specs and the database are, from options, the environment, or defaults."""

from __future__ import annotations

import os
from pathlib import Path

from specdb.errors import UsageError
from specdb.resources import bundled_specs

SPECS_ENV = "SPECDB_SPECS"
DB_ENV = "SPECDB_DB"


def resolve_specs(option: str | os.PathLike[str] | None = None) -> Path:
    """--specs, else $SPECDB_SPECS, else ./specs when it exists, else the bundled copy."""
    if option:
        return Path(option).resolve()
    if os.environ.get(SPECS_ENV):
        return Path(os.environ[SPECS_ENV]).resolve()
    local = Path("specs")
    if local.is_dir():
        return local.resolve()
    return bundled_specs()


def resolve_db(option: str | os.PathLike[str] | None, specs: Path) -> Path:
    """--db, else $SPECDB_DB, else a per-user cache file named after the specs folder."""
    chosen = str(option) if option else os.environ.get(DB_ENV)
    if chosen:
        return database_path(chosen)
    import hashlib

    from platformdirs import user_cache_dir

    key = hashlib.sha256(str(specs).encode()).hexdigest()[:16]
    return Path(user_cache_dir("specdb")) / f"specs-{key}.sqlite"


def database_path(text: str) -> Path:
    """A path, or a sqlite:/// URL, as a path."""
    for prefix in ("sqlite:///", "file:"):
        if text.startswith(prefix):
            text = text[len(prefix):].split("?", 1)[0]
            break
    else:
        if "://" in text:
            raise UsageError(f"'{text}': only SQLite databases are supported (a path or a sqlite:/// URL)")
    return Path(text).expanduser().resolve()
