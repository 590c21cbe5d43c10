"""The files of a specs folder: found without skipping anything silently, read once, and stamped.

A database records which bytes it was built from (a content hash) and, as a
shortcut for later reads, what the files' metadata was when those bytes were
read (a stamp: a hash of each file's path, size, times and inode, so that it
costs a build 32 bytes a file). The stamp can only ever save work, never hide a
change:

- each file's metadata is taken from the open file before its bytes are read,
  so a file saved again after the read no longer matches;
- it includes the inode change time, which every write and every `touch`,
  `cp -p`, `tar x` or `rsync -t` moves and which no program can set back;
- a file changed within `RACY_SECONDS` of the stamp may share its timestamp
  with a later change (timestamps are coarse), so while any such file exists
  the stamp is marked racy and the bytes are compared instead.
"""

from __future__ import annotations

import os
import stat
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple

RACY_SECONDS = 2
MAX_FILE_BYTES = 1024 * 1024
_DIGEST_BYTES = 32  # SHA-256
_YAML_SUFFIXES = (".yaml", ".yml")


class TreeProblem(NamedTuple):
    """Something under the specs folder that cannot be read as a spec file: the path relative to the folder, and why."""

    relpath: str
    message: str


class Tree:
    """The spec files under a folder, as relative paths with '/', and what could not be walked."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: list[str] = []
        self.problems: list[TreeProblem] = []
        # Each spec file's stamp line as the walk saw it, so a freshness check looks at every file once (when asked for).
        self.lines: dict[str, str] = {}


class SpecFile(NamedTuple):
    """One spec file as read: its bytes (None when they could not be had) and why not."""

    relpath: str
    raw: bytes | None
    problem: str | None = None


class Stamp(NamedTuple):
    """A hash of every spec file's metadata as it was when read (see `stamp_digest`), and whether any of it is too recent to trust."""

    digest: str
    racy: bool


def is_spec_file(name: str) -> bool:
    return name.lower().endswith(_YAML_SUFFIXES)


def walk(root: Path, *, stamp_lines: bool = True) -> Tree:
    """Every YAML file under root in a stable order, and every folder, link or file that cannot be taken as one.

    Hidden names (starting with '.') are skipped on purpose: version control and
    editors keep their files there. Folders reached through symbolic links are
    not followed, so a link loop cannot make the walk endless. Without
    `stamp_lines` the files' metadata is not kept: a build takes it from each
    file as it reads it.
    """
    tree = Tree(Path(root))
    root_text = str(root)
    pending = [""]
    while pending:
        folder = pending.pop()
        subfolders: list[str] = []
        try:
            # Each entry is taken as it comes and let go: a folder of tens of thousands of files is never held as entries.
            with os.scandir(os.path.join(root_text, folder) if folder else root_text) as listing:
                for entry in listing:
                    _take(tree, folder, entry, subfolders, stamp_lines)
        except OSError as error:
            tree.problems.append(TreeProblem(folder or ".", f"cannot read folder: {error.strerror or error}"))
            continue
        pending.extend(sorted(subfolders, reverse=True))
    tree.files.sort()
    tree.problems.sort()
    return tree


def _take(tree: Tree, folder: str, entry: os.DirEntry, subfolders: list[str], stamp_lines: bool) -> None:
    """Add one folder entry to the tree: a subfolder to walk, a spec file, or a problem."""
    if entry.name.startswith("."):
        return
    relpath = f"{folder}/{entry.name}" if folder else entry.name
    kind, info = _kind(entry)
    if kind == "folder":
        subfolders.append(relpath)
    elif kind == "file":
        if is_spec_file(entry.name):
            tree.files.append(relpath)
            if stamp_lines:
                tree.lines[relpath] = _stamp_line(relpath, info)
    elif kind is not None:
        tree.problems.append(TreeProblem(relpath, kind))


def _kind(entry: os.DirEntry) -> tuple[str | None, os.stat_result | None]:
    """'folder', 'file', None for something to ignore, or the problem with the entry; and its metadata (a link's target's)."""
    try:
        if entry.is_symlink():
            try:
                info = os.stat(entry.path)
            except OSError as error:
                return f"broken symbolic link ({error.strerror or error})", None
            if stat.S_ISDIR(info.st_mode):
                return "symbolic link to a folder: not followed; copy the records instead", info
        else:
            info = entry.stat(follow_symlinks=False)
    except OSError as error:
        return f"cannot read: {error.strerror or error}", None
    if stat.S_ISDIR(info.st_mode):
        return "folder", info
    if stat.S_ISREG(info.st_mode):
        return "file", info
    return ("not a regular file: a spec is a plain file" if is_spec_file(entry.name) else None), info


def read_specs(root: Path) -> tuple[Tree, FolderFiles]:
    """The spec files under root, to be read one at a time; a missing folder is a usage error."""
    if not root.is_dir():
        from specdb.errors import UsageError

        raise UsageError(f"{root}: specs folder not found" if not root.exists() else f"{root}: not a folder")
    tree = walk(root, stamp_lines=False)
    return tree, FolderFiles(tree)


class Digests:
    """One SHA-256 digest for each of a number of places, or none yet: in one buffer, where a dict would cost several times as much a file."""

    def __init__(self, places: int) -> None:
        self._bytes = bytearray(_DIGEST_BYTES * places)
        self._held = bytearray(places)

    def put(self, place: int, digest: bytes) -> None:
        self._bytes[place * _DIGEST_BYTES:(place + 1) * _DIGEST_BYTES] = digest
        self._held[place] = 1

    def get(self, place: int) -> bytes | None:
        return bytes(self._bytes[place * _DIGEST_BYTES:(place + 1) * _DIGEST_BYTES]) if self._held[place] else None

    def held(self) -> Iterator[tuple[int, bytes]]:
        """Each place that has a digest, in order, with it."""
        for place, held in enumerate(self._held):
            if held:
                yield place, bytes(self._bytes[place * _DIGEST_BYTES:(place + 1) * _DIGEST_BYTES])


class SpecSource(ABC):
    """Spec files handed out one at a time, in any order, so that no more than one file's bytes need be held.

    It remembers a digest of each file's bytes as they were handed out: the
    content hash is made of them, and a file asked for again to locate a
    problem is given only when its bytes are still those.
    """

    def __init__(self, relpaths: list[str]) -> None:
        # Sorted: a file's place among them says where its digests are kept.
        self.relpaths = relpaths
        self._digests = Digests(len(relpaths))
        self.whole = True

    def read(self, relpath: str) -> SpecFile:
        file = self._fetch(relpath)
        if file.raw is None:
            self.whole = False
        else:
            self._digests.put(self._place(relpath), _digest(file.raw))
        return file

    def again(self, relpath: str) -> bytes | None:
        """The bytes `read` gave for relpath; None when they can no longer be had."""
        raw = self._fetch(relpath, again=True).raw
        return raw if raw is not None and _digest(raw) == self._digests.get(self._place(relpath)) else None

    def content_hash(self) -> str:
        """The version of the files read so far: a hash of each one's path and the digest of its bytes, in the order of paths."""
        return _content_hash((self.relpaths[place], file_digest) for place, file_digest in self._digests.held())

    def _place(self, relpath: str) -> int:
        import bisect  # here, not at the top: a read of an up-to-date database places no file

        return bisect.bisect_left(self.relpaths, relpath)

    @abstractmethod
    def _fetch(self, relpath: str, *, again: bool = False) -> SpecFile:
        """The file now; `again` when it was read before, to locate a problem."""


class SpecsInMemory(SpecSource):
    """Spec files whose bytes are already held, as a git revision's are."""

    def __init__(self, files: Iterable[SpecFile]) -> None:
        self._files = {file.relpath: file for file in files}
        super().__init__(sorted(self._files))

    def _fetch(self, relpath: str, *, again: bool = False) -> SpecFile:
        return self._files[relpath]


class FolderFiles(SpecSource):
    """The spec files of a walked folder, read from disk when asked for, with the stamp of what was read."""

    def __init__(self, tree: Tree) -> None:
        super().__init__(tree.files)
        self.root = tree.root
        self._root_text = str(tree.root)
        self._started = time.time_ns()
        # A digest of each file's stamp line as read, in the order of paths.
        self._line_digests = Digests(len(self.relpaths))
        self._newest_change = 0

    def stamp(self) -> Stamp:
        """The metadata of every file read, each taken from the open file before its bytes were read."""
        line_digests = (line_digest for _, line_digest in self._line_digests.held())
        return Stamp(stamp_digest(self.root, line_digests), _racy(self._newest_change, self._started))

    def read_all(self) -> None:
        """Read every file once, keeping only their digests and metadata."""
        for relpath in self.relpaths:
            self.read(relpath)

    def _fetch(self, relpath: str, *, again: bool = False) -> SpecFile:
        try:
            descriptor = os.open(os.path.join(self._root_text, relpath), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError as error:
            return SpecFile(relpath, None, f"cannot read file: {error.strerror or error}")
        try:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode):
                return SpecFile(relpath, None, "not a regular file: a spec is a plain file")
            if not again:
                self._line_digests.put(self._place(relpath), _digest(_stamp_line(relpath, info).encode()))
                self._newest_change = max(self._newest_change, info.st_ctime_ns)
            if info.st_size > MAX_FILE_BYTES:
                return SpecFile(relpath, None, too_large(info.st_size))
            raw = _read_at_most(descriptor, info.st_size, MAX_FILE_BYTES + 1)
            if len(raw) > MAX_FILE_BYTES:  # grown since it was measured
                return SpecFile(relpath, None, too_large(len(raw), grown=True))
            return SpecFile(relpath, raw)
        except OSError as error:
            return SpecFile(relpath, None, f"cannot read file: {error.strerror or error}")
        finally:
            os.close(descriptor)


def _read_at_most(descriptor: int, size: int, limit: int) -> bytes:
    """The file's bytes, but no more than `limit` of them: a file may grow while it is read."""
    chunks, taken = [], 0
    while taken < limit and (chunk := os.read(descriptor, min(max(size, 65536), limit - taken))):
        chunks.append(chunk)
        taken += len(chunk)
    return b"".join(chunks)


def content_hash_of(files: Iterable[tuple[str, bytes]]) -> str:
    """The content hash of files given as (path, bytes) in the order of paths, as `SpecSource.content_hash` makes it."""
    return _content_hash((relpath, _digest(raw)) for relpath, raw in files)


def _content_hash(digests: Iterable[tuple[str, bytes]]) -> str:
    import hashlib

    digest = hashlib.sha256()
    for relpath, file_digest in digests:
        digest.update(relpath.encode() + b"\0" + file_digest)
    return digest.hexdigest()


def _digest(raw: bytes) -> bytes:
    import hashlib  # here, not at the top: a read of an up-to-date database never hashes

    return hashlib.sha256(raw).digest()


def too_large(size: int, *, grown: bool = False) -> str:
    measured = "grew past the limit while it was read" if grown else f"is {size / 1e6:.1f} MB"
    return f"file {measured}; a record file is at most {MAX_FILE_BYTES // 2**20} MiB"


def current_stamp(tree: Tree) -> str:
    """The stamp digest the files have now, from the metadata the walk just took."""
    return stamp_digest(tree.root, (_digest(tree.lines[relpath].encode()) for relpath in tree.files))


def stamp_digest(root: Path, line_digests: Iterable[bytes]) -> str:
    """SHA-256 of the folder's path, then of the SHA-256 of each file's stamp line (path, size, modification and change
    times in nanoseconds, inode, separated by tabs) in the order of paths."""
    import hashlib

    digest = hashlib.sha256(str(root).encode())
    for line_digest in line_digests:
        digest.update(line_digest)
    return digest.hexdigest()


def _stamp_line(relpath: str, info: os.stat_result) -> str:
    return f"{relpath}\t{info.st_size}\t{info.st_mtime_ns}\t{info.st_ctime_ns}\t{info.st_ino}"


def _racy(newest_change_ns: int, taken_ns: int) -> bool:
    return newest_change_ns >= taken_ns - RACY_SECONDS * 1_000_000_000
