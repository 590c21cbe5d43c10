"""Where the specs and the database are, from options, the environment, or defaults.

The library never looks at the working folder: without an argument or
$SPECDB_SPECS it reads the bundled data. The CLI also takes `./specs`, but only
when it is recognisably a specdb specs folder (see `is_specs_folder`).
"""

from __future__ import annotations

import os
from pathlib import Path

from specdb.errors import UsageError
from specdb.resources import bundled_specs

SPECS_ENV = "SPECDB_SPECS"
DB_ENV = "SPECDB_DB"


RECORD_FOLDERS = ("accelerator", "link", "fabric", "system", "cluster", "source")


def resolve_specs(option: str | os.PathLike[str] | None = None, *, working_folder: bool = False) -> Path:
    """The argument, else $SPECDB_SPECS, else (with working_folder) ./specs when it is a specdb specs folder, else the bundled copy."""
    if option:
        return Path(option).resolve()
    if os.environ.get(SPECS_ENV):
        return Path(os.environ[SPECS_ENV]).resolve()
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
