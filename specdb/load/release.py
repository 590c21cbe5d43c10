"""The data release a specs folder is: its version and the content hash of the spec files it was made of, read from
the folder's RELEASE file (one line, `2026.12.0 <content hash>`, after any `#` comment lines).

The file travels with the specs (in the checkout, and bundled in the
package), so the version is known without git; the tag `data-<version>`
marks the commit. Files whose content hash is not the release's are named
after the release with their own hash (`2026.12.0+bffa1f7484ee`), never as
the release itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from specdb.errors import InvalidSpecs

RELEASE_FILE = "RELEASE"
# Calendar versions: year, month, and the release within the month.
_LINE = re.compile(r"(?P<version>\d{4}\.\d{1,2}\.\d+) (?P<content_hash>[0-9a-f]{64})")
# The longest RELEASE file read: a few comment lines and the release line.
_MAX_BYTES = 4096


class Release(NamedTuple):
    version: str
    content_hash: str


def read_release(specs: Path) -> Release | None:
    """The release the folder's RELEASE file names; None without one; a file that cannot be read as one is a problem
    located in it."""
    path = specs / RELEASE_FILE
    try:
        with path.open("rb") as file:
            raw = file.read(_MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _problem(path, 0, f"cannot read: {error.strerror or error}", "unreadable") from None
    lines = raw[:_MAX_BYTES].decode("utf-8", errors="replace").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        found = _LINE.fullmatch(line.strip())
        if found is None or len(raw) > _MAX_BYTES:
            raise _problem(path, number, "expected '<version> <content hash>': a version such as 2026.12.0, a space, and the 64 hex digits of the content hash `specdb info` shows")
        return Release(found["version"], found["content_hash"])
    raise _problem(path, 0, "no release line ('<version> <content hash>')")


def _problem(path: Path, line: int, message: str, code: str = "invalid-value") -> InvalidSpecs:
    from specdb.load.dataset import Problem  # only for a bad file: the validation library loads with it

    return InvalidSpecs([Problem(str(path), line, 1 if line else 0, message, code)])


def data_version(specs: Path, content_hash: str) -> str | None:
    """The version of the data read from a specs folder with this content hash: the folder's release when its files are
    the release's, else the release followed by the first 12 digits of their own hash; None for a folder of no release."""
    release = read_release(specs)
    if release is None:
        return None
    return release.version if release.content_hash == content_hash else f"{release.version}+{content_hash[:12]}"
