"""Where the specs and the database are, from options, the environment, or defaults.

The library never looks at the working folder: without an argument or
$SPECDB_SPECS it reads the bundled data. The CLI also takes `./specs`, but only
when it is recognisably a specdb specs folder (see `is_specs_folder`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from specdb.errors import DatabaseError, UsageError
from specdb.resources import bundled_specs
from specdb.format.terms import KINDS

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
    (`accelerator/`, `link/`, ...) whose first YAML file begins with `schema:` and a record format's number (`schema: 2`).

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
    key, _, number = first.replace(" ", "").partition(":")
    return key == "schema" and number.strip("'\"").isdigit()


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
    """A PostgreSQL database named by a URL (see `server_database`); printed without its password."""

    url: str

    def __str__(self) -> str:
        return without_passwords(self.url, self.url)


Database = Path | ServerDatabase

# A URL's password: after the user's `:`, up to the last `@` of the word, however the password breaks the URL apart
# (an unescaped `@` or `/`). A user given in the query with an `@` is masked with it: the safe side.
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://[^\s:/?#@'\"]*):[^\s'\"]*@")
# A `password=` or `sslpassword=` value in a URL's query or a libpq keyword/value string, quoted or not.
_KEYWORD_PASSWORD = re.compile(r"(?i)\b((?:ssl)?password)(\s*=\s*)('(?:[^'\\]|\\.)*'?|[^\s&'\"]*)")
MASK = "***"


def without_passwords(text: str, connection: str = "") -> str:
    """The text with every credential blanked: a password in any URL, any `password=` or `sslpassword=` value, and
    every secret the connection string (a URL or libpq keyword/value string) holds, wherever it appears.

    Every message that shows a server's address or a driver's words goes through here."""
    for secret in sorted(_secrets(connection), key=len, reverse=True):
        text = text.replace(secret, MASK)
    text = _URL_PASSWORD.sub(rf"\1:{MASK}@", text)
    return _KEYWORD_PASSWORD.sub(rf"\1\2{MASK}", text)


def _secrets(connection: str) -> set[str]:
    """The passwords a connection string holds, as written and percent-decoded (a URL's may hold an unescaped `@`)."""
    from urllib.parse import unquote

    found: set[str] = set()
    # The user information as libpq reads it (up to the first `@` before the path) and up to the last `@` of all.
    for user_info in (re.match(r"(?i)[a-z][a-z0-9+.\-]*://([^/@]*)@", connection), re.match(r"(?i)[a-z][a-z0-9+.\-]*://(.*)@", connection)):
        if user_info and ":" in user_info.group(1):
            found.add(user_info.group(1).split(":", 1)[1])
    for match in _KEYWORD_PASSWORD.finditer(connection):
        value = match.group(3)
        found |= {value, value.strip("'"), re.sub(r"\\(.)", r"\1", value.strip("'"))}  # libpq quotes with '...' and escapes with \
    found |= {unquote(secret) for secret in found}
    return {secret for secret in found if secret and secret != MASK}


# Characters a URL's user name or password must percent-encode, and where each breaks the URL apart.
_URL_HELP = "percent-encode @ : / ? # [ ] and spaces in the user name and password (%40 %3A %2F %3F %23 %5B %5D %20)"


def server_database(text: str) -> ServerDatabase:
    """A postgresql:// (or postgres://, any case) URL as a server database; one that Python's and libpq's readings
    could split differently (an unescaped `@`, `/`, `?` or `#` in the password), or that does not parse, is a usage error."""
    from urllib.parse import unquote, urlsplit

    scheme, rest = text.split("://", 1)
    url = f"{scheme.lower()}://{rest}"
    shown = without_passwords(url, url)
    try:
        parts = urlsplit(url)
        parts.port, parts.hostname  # noqa: B018 - each raises ValueError on a malformed address
    except ValueError:
        raise UsageError(f"{shown}: not a valid server URL; {_URL_HELP}") from None
    # libpq takes the user information up to the first `@` before the first `/`; Python up to the last `@` before the
    # first `/`, `?` or `#`. Where they could differ, or a database name would hold an `@`, the URL is refused.
    libpq_authority = rest.split("/", 1)[0]
    ambiguous = libpq_authority.count("@") > 1 or re.search(r"[?#].*@", libpq_authority) or "@" in parts.path
    if ambiguous or parts.fragment or re.search(r"[\s\x00-\x1f]", url):
        raise UsageError(f"{shown}: not a valid server URL; {_URL_HELP}")
    try:
        unquote(url, errors="strict")
    except UnicodeDecodeError:
        raise UsageError(f"{shown}: not a valid server URL; a percent-encoded byte sequence in it is not UTF-8") from None
    if parts.query and any("=" not in pair for pair in parts.query.split("&")):
        raise UsageError(f"{shown}: not a valid server URL; its query takes key=value pairs joined by &")
    return ServerDatabase(url)


# libpq's connection keywords that name a server; a --db of keyword=value pairs naming one is a libpq connection string.
_LIBPQ_KEYWORDS = {"host", "hostaddr", "port", "dbname", "user", "password", "service", "sslmode", "passfile", "options", "connect_timeout"}
_KEYWORD_PAIRS = re.compile(r"\s*(?:([A-Za-z_]+)\s*=\s*(?:'(?:[^'\\]|\\.)*'|[^\s']*)\s*)+")


def _is_keyword_string(text: str) -> bool:
    if not _KEYWORD_PAIRS.fullmatch(text):
        return False
    keys = re.findall(r"([A-Za-z_]+)\s*=", re.sub(r"'(?:[^'\\]|\\.)*'", "''", text))
    return any(key.lower() in _LIBPQ_KEYWORDS for key in keys)


def resolve_db(option: str | os.PathLike[str] | ServerDatabase | None, specs: Path) -> Database:
    """--db, else $SPECDB_DB, else a per-user cache file named after the specs folder."""
    if isinstance(option, ServerDatabase):
        return option
    chosen = _named(option, "--db", DB_ENV)
    if chosen is not None:
        if chosen.lower().startswith(SERVER_SCHEMES):
            return server_database(chosen)
        if _is_keyword_string(chosen):
            raise UsageError(
                f"'{without_passwords(chosen, chosen)}': a libpq keyword/value string; give the server as a URL,"
                " postgresql://user:password@host:port/dbname (for a file of this name, write ./ before it)"
            )
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
        if "://" in text or re.match(r"(?i)postgres(?:ql)?[+:]", text):
            raise UsageError(f"'{without_passwords(text, text)}': not a database specdb can use (a path, a sqlite:/// URL or a postgresql:// URL)")
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
