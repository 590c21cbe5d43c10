"""The files of a specs folder: found without skipping anything silently, read once, and stamped.

A database records which bytes it was built from (a content hash) and, as a
shortcut for later reads, what the files' metadata was when those bytes were
read (a stamp). The stamp can only ever save work, never hide a change:

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
from pathlib import Path
from typing import Iterable, NamedTuple

RACY_SECONDS = 2
MAX_FILE_BYTES = 5 * 1024 * 1024
_YAML_SUFFIXES = (".yaml", ".yml")


class TreeProblem(NamedTuple):
    """Something under the specs folder that cannot be read as a spec file: the path relative to the folder, and why."""

    relpath: str
    message: str


class Tree:
    """The spec files under a folder, as (relative path with '/', full path), and what could not be walked."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: list[tuple[str, str]] = []
        self.problems: list[TreeProblem] = []
        # Each spec file's metadata as the walk saw it, so a freshness check looks at every file once.
        self.metadata: dict[str, os.stat_result] = {}


class SpecFile(NamedTuple):
    """One spec file as read: its bytes (None when they could not be had) and why not."""

    relpath: str
    raw: bytes | None
    problem: str | None = None


class Stamp(NamedTuple):
    """The metadata of every spec file as it was when read, one line each, and whether any of it is too recent to trust."""

    lines: str
    racy: bool


def is_spec_file(name: str) -> bool:
    return name.lower().endswith(_YAML_SUFFIXES)


def walk(root: Path) -> Tree:
    """Every YAML file under root in a stable order, and every folder, link or file that cannot be taken as one.

    Hidden names (starting with '.') are skipped on purpose: version control and
    editors keep their files there. Folders reached through symbolic links are
    not followed, so a link loop cannot make the walk endless.
    """
    tree = Tree(Path(root))
    root_text = str(root)
    pending = [""]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(os.path.join(root_text, folder) if folder else root_text) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as error:
            tree.problems.append(TreeProblem(folder or ".", f"cannot read folder: {error.strerror or error}"))
            continue
        subfolders = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            relpath = f"{folder}/{entry.name}" if folder else entry.name
            kind, info = _kind(entry)
            if kind == "folder":
                subfolders.append(relpath)
            elif kind == "file":
                if is_spec_file(entry.name):
                    tree.files.append((relpath, entry.path))
                    tree.metadata[relpath] = info
            elif kind is not None:
                tree.problems.append(TreeProblem(relpath, kind))
        pending.extend(reversed(subfolders))
    tree.files.sort()
    return tree


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


def read_specs(root: Path) -> tuple[Tree, list[SpecFile], Stamp]:
    """Every spec file under root, read once, with the stamp of what was read; a missing folder is a usage error."""
    if not root.is_dir():
        from specdb.errors import UsageError

        raise UsageError(f"{root}: specs folder not found" if not root.exists() else f"{root}: not a folder")
    tree = walk(root)
    return (tree, *read_tree(tree))


def read_tree(tree: Tree) -> tuple[list[SpecFile], Stamp]:
    """Every spec file's bytes, and the stamp of what was read (each file's metadata taken before its bytes)."""
    started = time.time_ns()
    files, lines, newest_change = [], [str(tree.root)], 0
    for relpath, path in tree.files:
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError as error:
            files.append(SpecFile(relpath, None, f"cannot read file: {error.strerror or error}"))
            continue
        try:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode):
                files.append(SpecFile(relpath, None, "not a regular file: a spec is a plain file"))
                continue
            lines.append(_stamp_line(relpath, info))
            newest_change = max(newest_change, info.st_ctime_ns)
            if info.st_size > MAX_FILE_BYTES:
                files.append(SpecFile(relpath, None, too_large(info.st_size)))
                continue
            files.append(SpecFile(relpath, _read_all(descriptor, info.st_size)))
        except OSError as error:
            files.append(SpecFile(relpath, None, f"cannot read file: {error.strerror or error}"))
        finally:
            os.close(descriptor)
    return files, Stamp("\n".join(lines), _racy(newest_change, started))


def _read_all(descriptor: int, size: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(descriptor, max(size, 65536))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def too_large(size: int) -> str:
    return f"file is {size / 1e6:.1f} MB; a record file is at most {MAX_FILE_BYTES // 2**20} MiB"


def current_lines(tree: Tree) -> str:
    """The stamp's lines the files have now, from the metadata the walk just took."""
    return "\n".join([str(tree.root), *(_stamp_line(relpath, tree.metadata[relpath]) for relpath, _ in tree.files)])


def _stamp_line(relpath: str, info: os.stat_result) -> str:
    return f"{relpath}\t{info.st_size}\t{info.st_mtime_ns}\t{info.st_ctime_ns}\t{info.st_ino}"


def _racy(newest_change_ns: int, taken_ns: int) -> bool:
    return newest_change_ns >= taken_ns - RACY_SECONDS * 1_000_000_000


def content_digest(files: Iterable[tuple[str, bytes]]) -> str:
    """The version of a set of spec files: a hash of their paths and bytes, in order."""
    import hashlib

    digest = hashlib.sha256()
    for relpath, raw in files:
        digest.update(relpath.encode() + b"\0" + raw + b"\0")
    return digest.hexdigest()
