"""Where the specs and the database are, from options, the environment, or defaults.

The library never looks at the working folder: without an argument or
$SPECDB_SPECS it reads the bundled data. The CLI also takes `./specs`, but only
when it is recognisably a specdb specs folder (see `is_specs_folder`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from specdb.errors import DatabaseError, UsageError
from specdb.resources import bundled_specs
from specdb.terms import KINDS

SPECS_ENV = "SPECDB_SPECS"
DB_ENV = "SPECDB_DB"


RECORD_FOLDERS = KINDS


def resolve_specs(option: str | os.PathLike[str] | None = None, *, working_folder: bool = False) -> Path:
    """The argument, else $SPECDB_SPECS, else (with working_folder) ./specs when it is a specdb specs folder, else the bundled copy.

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
    if working_folder and is_specs_folder(local):
        return local.resolve()
    return bundled_specs()


def is_specs_folder(folder: Path) -> bool:
    """Whether a folder is a specdb specs folder: it has a `policy.yaml`, or a record sub-folder
    (`accelerator/`, `link/`, ...) whose first YAML file begins with `schema: 1`.

    Cheap on purpose (a few stat calls and one short read): an unrelated `specs/`
    folder, such as OpenAPI documents, is not taken for specdb data.
    """
    if (folder / "policy.yaml").is_file():
        return True
    for name in RECORD_FOLDERS:
        first = next(iter(sorted((folder / name).glob("*.yaml"))), None) if (folder / name).is_dir() else None
        if first is not None and _begins_with_schema(first):
            return True
    return False


def _begins_with_schema(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    lines = (line.strip() for line in head.splitlines())
    first = next((line for line in lines if line and not line.startswith("#")), "")
    return first.replace(" ", "") == "schema:1"


def _named(option: str | os.PathLike[str] | None, flag: str, variable: str) -> str | None:
    """The option's value, else the environment variable's (an empty variable counts as unset); an empty option is a usage error."""
    if option is not None:
        text = os.fspath(option)
        if not text.strip():
            raise UsageError(f"{flag} is empty; give a path or leave the option out")
        return text
    return os.environ.get(variable) or None


SERVER_SCHEMES = ("postgresql://", "postgres://")


class ServerDatabase(NamedTuple):
    """A PostgreSQL database named by a URL; printed without its password."""

    url: str

    def __str__(self) -> str:
        from urllib.parse import urlsplit

        parts = urlsplit(self.url)
        if parts.password is None:
            return self.url
        user = parts.username or ""
        host = parts.netloc.rsplit("@", 1)[1]
        return parts._replace(netloc=f"{user}:***@{host}").geturl()


Database = Path | ServerDatabase


def resolve_db(option: str | os.PathLike[str] | ServerDatabase | None, specs: Path) -> Database:
    """--db, else $SPECDB_DB, else a per-user cache file named after the specs folder."""
    if isinstance(option, ServerDatabase):
        return option
    chosen = _named(option, "--db", DB_ENV)
    if chosen is not None:
        if chosen.startswith(SERVER_SCHEMES):
            return ServerDatabase(chosen)
        return database_path(chosen)
    import hashlib

    key = hashlib.sha256(str(specs).encode()).hexdigest()[:16]
    return cache_folder() / f"specs-{key}.sqlite"


def cache_folder() -> Path:
    """The per-user cache folder of the platform (on Linux $XDG_CACHE_HOME/specdb)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("specdb"))


def database_path(text: str) -> Path:
    """A path, or a sqlite:/// URL, as a path; what exists there must be a regular file (a FIFO would block every read)."""
    for prefix in ("sqlite:///", "file:"):
        if text.startswith(prefix):
            text = text[len(prefix):].split("?", 1)[0]
            break
    else:
        if "://" in text:
            raise UsageError(f"'{text}': not a database specdb can use (a path, a sqlite:/// URL or a postgresql:// URL)")
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
