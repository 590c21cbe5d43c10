"""The files of a specs folder, and a cheap fingerprint of them (names, sizes, modification times)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator


def spec_files(root: Path) -> Iterator[tuple[str, Path]]:
    """Every YAML file under root as (relative path with '/', path), in a stable order.

    Folders reached through symbolic links are not followed, so a link loop
    cannot make the walk endless.
    """
    for folder, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(name for name in dirnames if not name.startswith("."))
        base = Path(folder)
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")) and not name.startswith("."):
                path = base / name
                yield path.relative_to(root).as_posix(), path


def symlinked_folders(root: Path) -> Iterator[str]:
    for folder, dirnames, _ in os.walk(root, followlinks=False):
        for name in sorted(dirnames):
            if (Path(folder) / name).is_symlink():
                yield (Path(folder) / name).relative_to(root).as_posix()


def stat_fingerprint(root: Path) -> str:
    """Every spec file's name, size and modification time, one per line: changes whenever a file does.

    Kept as plain text rather than hashed so that a read command needs neither
    pathlib objects nor hashlib: one os.stat per file.
    """
    lines = [str(root)]
    root_text = str(root)
    for folder, dirnames, filenames in os.walk(root_text, followlinks=False):
        dirnames[:] = sorted(name for name in dirnames if not name.startswith("."))
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")) and not name.startswith("."):
                path = os.path.join(folder, name)
                try:
                    info = os.stat(path)
                except OSError:
                    lines.append(f"{path}\tmissing")
                    continue
                lines.append(f"{path}\t{info.st_size}\t{info.st_mtime_ns}")
    return "\n".join(lines)


def content_digest(files: Iterable[tuple[str, bytes]]) -> str:
    """The version of a set of spec files: a hash of their paths and bytes, in order."""
    import hashlib

    digest = hashlib.sha256()
    for relpath, raw in files:
        digest.update(relpath.encode() + b"\0" + raw + b"\0")
    return digest.hexdigest()
