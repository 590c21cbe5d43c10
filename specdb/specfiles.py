"""The files of a specs folder, and a cheap fingerprint of them (names, sizes, modification times)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Iterator


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
    """Changes whenever a spec file is added, removed, resized or touched; costs one stat per file."""
    digest = hashlib.sha256(str(root).encode())
    for relpath, path in spec_files(root):
        try:
            info = path.stat()
        except OSError:
            digest.update(f"{relpath}\0missing\n".encode())
            continue
        digest.update(f"{relpath}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()
