"""Add records to a specs folder: validated together with the records already there, then written all or none."""

from __future__ import annotations

import os
from pathlib import Path

from specdb.atomicwrite import add_new_files
from specdb.load.dataset import load_tree
from specdb.errors import UsageError
from specdb.load.files import FolderFiles, SpecFile, Tree, read_specs


class FolderWithNewFiles(FolderFiles):
    """The folder's spec files as they are, with the new files' text in place as though they were written."""

    def __init__(self, tree: Tree, new: dict[str, str]) -> None:
        tree.files = sorted(set(tree.files) | set(new))
        super().__init__(tree)
        self._new = {relpath: text.encode("utf-8") for relpath, text in new.items()}

    def _fetch(self, relpath: str, *, again: bool = False) -> SpecFile:
        if relpath in self._new:
            return SpecFile(relpath, self._new[relpath])
        return super()._fetch(relpath, again=again)


def add_records(specs: Path, new: dict[str, str], origin: str) -> list[Path]:
    """Write each new file (text by its path under specs, such as `cluster/<id>.yaml`) into specs, or none; the paths written.

    The specs are first validated as they would be with the new files: any
    problem (in a new file, or one the new files cause in another, such as a
    taken id) is a usage error that lists the problems and names `origin`,
    what the records were made from. Files are added in the order given:
    order them so that the first ones stand without the later ones.
    """
    for relpath in new:
        if os.path.lexists(specs / relpath):
            raise UsageError(f"{specs / relpath} exists already")
    tree, _ = read_specs(specs)
    dataset = load_tree(specs, tree, FolderWithNewFiles(tree, new))
    if not dataset.ok:
        problems = "\n".join(f"  {problem}" for problem in dataset.problems)
        raise UsageError(f"{origin}: the records made from it do not validate with the specs; nothing was written:\n{problems}")
    paths = {specs / relpath: text for relpath, text in new.items()}
    add_new_files(paths)
    return list(paths)
