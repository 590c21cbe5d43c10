"""Write an export folder whole or not at all, and never over a folder that is not an export nor over one the command stands on.

The folder is written beside the target under a temporary name and renamed
into place. Exports to one folder may run at once: each takes the target's
place in turn, moving aside whatever is there (an earlier export, or another
process's just placed), so the folder ends as one export, whole. A process
killed meanwhile leaves its temporaries, which the next export beside them
removes (see `atomicwrite`).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Iterable, Iterator

from specdb.atomicwrite import make_folders, remove_folders, remove_stale_temporaries, temporary_beside
from specdb.errors import DatabaseError, SpecdbError, UsageError

MANIFEST = "specdb-export.json"
# Each attempt to take the target's place fails only because another export took it meanwhile.
PLACE_ATTEMPTS = 100


def named_folder(folder: str | os.PathLike[str]) -> Path:
    """The absolute path of the folder named, links followed; an empty name, or a broken link on the way, is refused."""
    text = os.fspath(folder)
    if not text.strip():
        raise UsageError("the export folder is empty; name a folder")
    try:
        absolute = Path(os.path.abspath(text))
        for each in (absolute, *absolute.parents):
            if os.path.islink(each) and not os.path.exists(each):
                broken = "" if each == absolute else f" {each} is"
                raise SpecdbError(f"{text}:{broken} a broken symbolic link (to {os.readlink(each)}); remove it or name another folder")
        return absolute.resolve()
    except OSError as exc:  # a name too long, a folder that cannot be searched
        raise SpecdbError(f"{text}: cannot write the export ({exc.strerror or exc})") from None


def check_target(target: Path, force: bool, kept: Iterable[tuple[Path, str]] = ()) -> None:
    """Refuse a file, a folder holding one of `kept` (path, what it is), or a non-empty folder that no earlier export wrote, unless forced.

    Another export may move the folder aside at any moment: one that is gone is no folder to keep.
    """
    for path, what in kept:
        if target == path or target in path.parents:
            relation = "is" if target == path else "holds"
            raise UsageError(f"{target}: {relation} {what}, and an export replaces its folder whole; name another folder")
    try:
        if not stat.S_ISDIR(target.stat().st_mode):
            raise UsageError(f"{target}: exists and is not a folder")
        names = os.listdir(target)  # one listing: the folder it shows is the one judged
    except FileNotFoundError:
        return
    if force or not names or MANIFEST in names:
        return
    raise UsageError(f"{target}: folder is not empty and holds no earlier specdb export; choose another folder or pass --force")


@contextmanager
def replacing(target: Path, force: bool, kept: Iterable[tuple[Path, str]] = ()) -> Iterator[Path]:
    """A fresh folder beside target to write into; when the block ends without error it takes target's place."""
    staging: Path | None = None
    made: list[Path] = []
    try:
        try:
            check_target(target, force, kept)
            staging = temporary_beside(target, "exporting")
            make_folders(target.parent, made)
            remove_stale_temporaries(target)
            staging.mkdir()
            yield staging
            _place(staging, target)
        except OSError as exc:
            raise SpecdbError(f"{target}: cannot write the export ({exc.strerror or exc})") from None
    except BaseException:  # staging took target's place only when nothing failed
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        remove_folders(made)
        raise


def _place(staging: Path, target: Path) -> None:
    """Rename staging to target, moving aside (then removing) what holds the name; an error puts back what was moved aside."""
    retired: list[Path] = []
    try:
        for _ in range(PLACE_ATTEMPTS):
            try:
                os.rename(staging, target)  # takes the place of nothing, or of an empty folder
                return
            except OSError as exc:
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise
            aside = temporary_beside(target, "replaced")
            try:
                os.rename(target, aside)
            except FileNotFoundError:  # another export moved it first
                continue
            retired.append(aside)
        raise SpecdbError(f"{target}: other exports to this folder kept taking its place; try again")
    except BaseException:
        if retired and not os.path.lexists(target):
            with suppress(OSError):
                os.rename(retired[-1], target)
                retired.pop()
        raise
    finally:
        for aside in retired:
            shutil.rmtree(aside, ignore_errors=True)


def record_file(folder: Path, record_id: str, suffix: str) -> Path:
    """The file of one record directly in folder; an id that would name a path elsewhere (a database altered by hand can hold any) or the manifest is refused."""
    name = f"{record_id}{suffix}"
    if Path(name).name != name or name.startswith(".") or "\0" in name:
        raise DatabaseError(f"{record_id!r} in the database is not a record id; rebuild the database from valid specs")
    if name == MANIFEST:
        raise UsageError(f"record '{record_id}' would be written as {name}, the export's manifest; rename the record")
    return folder / name


def write_json(path: Path, value: Any) -> None:
    """JSON the same way every time: two-space indent, keys in the order given, UTF-8, a final newline."""
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
