"""Paths named by the user written whole or not at all: made beside their place under a temporary name, then renamed into it.

`plot` replaces its image this way, `import` adds its records, and
`export/folder.py` swaps in a whole folder. A full disk, a write error or an
interrupt leaves what was there before; a path that cannot take what is
written (a broken link, a folder where a file goes, a parent that is a file)
is refused before anything is written, with the reason.

A temporary is named `.<target name, its first 100 characters>.<process id>.<8 hex digits>.<purpose>`:
hidden, so the specs walk skips it, and carrying the id of the process that
writes it, so that a later writer removes what a killed one left.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Iterator

from specdb.errors import SpecdbError, UsageError

PURPOSES = ("tmp", "exporting", "replaced")
# File systems allow names of 255 bytes; a temporary adds at most 40 characters to what it keeps of its target's name.
TARGET_NAME_CHARACTERS = 100


def destination(path: Path) -> Path:
    """Where a file written at `path` lands: an existing link is followed to its file; a broken link, a folder, a FIFO or device, or a missing parent is refused."""
    try:
        if os.path.islink(path) and not os.path.exists(path):
            raise SpecdbError(f"{path}: a broken symbolic link (to {os.readlink(path)}); remove it or name another file")
        real = Path(os.path.realpath(path))
        if real.is_dir():
            raise UsageError(f"{path}: is a folder; name a file")
        if real.exists() and not real.is_file():
            raise UsageError(f"{path}: is not a regular file (a FIFO, device or socket), which a new file would replace; name a file")
        if real.parent.exists() and not real.parent.is_dir():
            raise UsageError(f"{path}: {real.parent} is not a folder")
        if not real.parent.is_dir():
            raise UsageError(f"{path}: no folder {real.parent}; create it first")
    except OSError as error:  # a name too long, a folder that cannot be searched
        raise cannot_write(path, error) from None
    return real


def cannot_write(path: Path, error: OSError) -> SpecdbError:
    return SpecdbError(f"{path}: cannot write ({error.strerror or error})")


def temporary_beside(target: Path, purpose: str) -> Path:
    """A fresh name for a temporary in target's folder (see the module's note)."""
    return target.with_name(f".{_leading(target)}.{os.getpid()}.{secrets.token_hex(4)}.{purpose}")


def _leading(target: Path) -> str:
    """The start of target's name that a temporary's name carries: all of it but for a name near the length a folder allows."""
    return target.name[:TARGET_NAME_CHARACTERS]


def remove_stale_temporaries(target: Path) -> None:
    """Remove the temporaries beside target that a process no longer running left (one killed while writing)."""
    left = re.compile(rf"\.{re.escape(_leading(target))}\.(\d+)\.[0-9a-f]{{8}}\.(?:{'|'.join(PURPOSES)})")
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return
    for entry in entries:
        found = left.fullmatch(entry.name)
        if found is None or _running(int(found.group(1))):
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            _discard(Path(entry.path))


def _running(pid: int) -> bool:
    """Whether a process of that id exists; where that cannot be asked, assume it does (its temporary is kept)."""
    if os.name != "posix":  # signal 0 asks only on POSIX
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's process, or a number no process has that a name only looks like
        return True
    return True


@contextmanager
def replacing_file(target: Path) -> Iterator[Path]:
    """A temporary path beside target to write; when the block ends without error, it takes target's place in one rename.

    An existing file keeps its permissions. On any error or interrupt target is
    left as it was and the temporary removed; an OSError becomes one message.
    """
    real = destination(target)
    remove_stale_temporaries(real)
    temporary = temporary_beside(real, "tmp")
    try:
        try:
            yield temporary
            if real.exists():
                os.chmod(temporary, stat.S_IMODE(real.stat().st_mode))
            _flush(temporary)
            os.replace(temporary, real)
        except OSError as error:
            raise cannot_write(target, error) from None
    finally:
        _discard(temporary)


def add_new_files(contents: dict[Path, str]) -> None:
    """Write every file, none of which may exist yet, or none of them.

    All are written beside their places first, then linked into them in the
    order given: a link fails rather than replace a file that appeared
    meanwhile. After a failure the files already linked are removed again; an
    interrupt between two links leaves the earlier ones, so the caller orders
    them so that each prefix stands on its own.
    """
    made: list[Path] = []
    temporaries: dict[Path, Path] = {}
    placed: list[Path] = []
    try:
        for path, text in contents.items():
            try:
                make_folders(path.parent, made)
                remove_stale_temporaries(path)
                temporary = temporary_beside(path, "tmp")
                with open(temporary, "x", encoding="utf-8") as handle:
                    temporaries[path] = temporary
                    handle.write(text)
                _flush(temporary)
            except OSError as error:
                raise cannot_write(path, error) from None
        for path, temporary in temporaries.items():
            try:
                os.link(temporary, path)
            except FileExistsError:
                raise UsageError(f"{path} exists already") from None
            except OSError as error:
                raise cannot_write(path, error) from None
            placed.append(path)
    except BaseException:
        for path in [*placed, *temporaries.values()]:
            _discard(path)
        remove_folders(made)
        raise
    for temporary in temporaries.values():
        _discard(temporary)


def replace_files(contents: dict[Path, str]) -> None:
    """Write every file, replacing those that exist, or none of them.

    All are written beside their places first; each existing file is kept
    under a second name while the new ones are renamed into place, and after
    a failure every file is put back as it was (a new one removed). An
    existing file keeps its permissions.
    """
    temporaries: dict[Path, Path] = {}
    kept: dict[Path, Path] = {}
    placed: list[Path] = []
    try:
        for path, text in contents.items():
            real = destination(path)
            try:
                remove_stale_temporaries(real)
                temporary = temporary_beside(real, "tmp")
                with open(temporary, "x", encoding="utf-8") as handle:
                    temporaries[real] = temporary
                    handle.write(text)
                if real.exists():
                    os.chmod(temporary, stat.S_IMODE(real.stat().st_mode))
                    kept[real] = temporary_beside(real, "replaced")
                    os.link(real, kept[real])
                _flush(temporary)
            except OSError as error:
                raise cannot_write(path, error) from None
        for real, temporary in temporaries.items():
            try:
                os.replace(temporary, real)
            except OSError as error:
                raise cannot_write(real, error) from None
            placed.append(real)
    except BaseException:
        for real in placed:
            if real in kept:
                os.replace(kept.pop(real), real)
            else:
                _discard(real)
        for path in [*temporaries.values(), *kept.values()]:
            _discard(path)
        raise
    for path in kept.values():
        _discard(path)


def make_folders(folder: Path, made: list[Path]) -> None:
    """Make folder and whichever of its parents are missing, adding each to `made` (outermost first) as it is made."""
    missing = []
    while not os.path.lexists(folder):
        missing.append(folder)
        folder = folder.parent
    for each in reversed(missing):
        try:
            each.mkdir()
        except FileExistsError:  # made meanwhile by another writer, whose it is
            continue
        made.append(each)


def remove_folders(made: list[Path]) -> None:
    """Remove again the folders `make_folders` made, innermost first, as far as they are empty."""
    for folder in reversed(made):
        with suppress(OSError):
            folder.rmdir()


def _flush(path: Path) -> None:
    """Put the file's bytes on disk before it is renamed into place, so a crash does not leave its name on an empty file."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _discard(path: Path) -> None:
    with suppress(OSError):
        os.unlink(path)
