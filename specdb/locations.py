"""Where the specs and the database are, from options, the environment, or defaults."""

from __future__ import annotations

import os
from pathlib import Path

from specdb.errors import DatabaseError, UsageError
from specdb.resources import bundled_specs

SPECS_ENV = "SPECDB_SPECS"
DB_ENV = "SPECDB_DB"


def resolve_specs(option: str | os.PathLike[str] | None = None) -> Path:
    """--specs, else $SPECDB_SPECS, else ./specs when it exists, else the bundled copy.

    A folder named by an option or the environment must exist: an empty or
    wrong name is a usage error, never a silent fallback to another folder.
    """
    chosen = _named(option, "--specs", SPECS_ENV)
    if chosen is not None:
        path = Path(chosen).expanduser().resolve()
        if not path.is_dir():
            raise UsageError(f"{chosen}: specs folder not found" if not path.exists() else f"{chosen}: not a folder (the specs folder holds <kind>/<id>.yaml files)")
        return path
    local = Path("specs")
    if local.is_dir():
        return local.resolve()
    return bundled_specs()


def _named(option: str | os.PathLike[str] | None, flag: str, variable: str) -> str | None:
    """The option's value, else the environment variable's (an empty variable counts as unset); an empty option is a usage error."""
    if option is not None:
        text = os.fspath(option)
        if not text.strip():
            raise UsageError(f"{flag} is empty; give a path or leave the option out")
        return text
    return os.environ.get(variable) or None


def resolve_db(option: str | os.PathLike[str] | None, specs: Path) -> Path:
    """--db, else $SPECDB_DB, else a per-user cache file named after the specs folder."""
    chosen = _named(option, "--db", DB_ENV)
    if chosen is not None:
        return database_path(chosen)
    import hashlib

    from platformdirs import user_cache_dir

    key = hashlib.sha256(str(specs).encode()).hexdigest()[:16]
    return Path(user_cache_dir("specdb")) / f"specs-{key}.sqlite"


def database_path(text: str) -> Path:
    """A path, or a sqlite:/// URL, as a path; what exists there must be a regular file (a FIFO would block every read)."""
    for prefix in ("sqlite:///", "file:"):
        if text.startswith(prefix):
            text = text[len(prefix):].split("?", 1)[0]
            break
    else:
        if "://" in text:
            raise UsageError(f"'{text}': only SQLite databases are supported (a path or a sqlite:/// URL)")
    if not text.strip():
        raise UsageError("the database path is empty")
    path = Path(text).expanduser().resolve()
    require_regular_file(path)
    return path


def require_regular_file(path: Path) -> None:
    """Refuse at once a database path that is a folder, a FIFO, a device or a socket."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode):
        what = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a FIFO, device or socket)"
        raise DatabaseError(f"{path}: {what}; a database is a file")
