"""Rewrite spec files in the current record format, keeping their layout: every file or none.

Each file in an older format goes through the same conversions a read
applies (`format.upgrades`), on a round-trip reading of its text
(`format.roundtrip`), so only what a conversion changes changes. The whole
specs folder is then validated as it would be with the new texts; only when
it is valid are they written, all at once (`atomicwrite.replace_files`). A
file already in the current format is left alone, so a second run changes
nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from specdb.atomicwrite import replace_files
from specdb.errors import InvalidSpecs, UsageError
from specdb.format import roundtrip, upgrades
from specdb.load.dataset import load_tree
from specdb.load.files import is_spec_file, read_specs, walk
from specdb.load.newrecords import FolderWithNewFiles


@dataclass
class Upgrade:
    """The files rewritten and the files added (records an older format kept inside another file), by path."""

    rewritten: list[Path] = field(default_factory=list)
    added: list[Path] = field(default_factory=list)


def upgrade_specs(specs: Path, paths: list[Path]) -> Upgrade:
    """Rewrite the spec files under `paths` (every one under specs when none is named) in the current format.

    InvalidSpecs, with every problem, when the specs would not be valid afterwards; nothing is written then.
    """
    texts: dict[str, str] = {}
    result = Upgrade()
    for relpath in _named_files(specs, paths):
        path = specs / relpath
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the validation below reports a file it cannot read, with the reason
        data = roundtrip.load(text, str(path))
        if upgrades.format_of(data) in (None, upgrades.CURRENT_FORMAT):
            continue
        upgraded = upgrades.upgraded(data, relpath)
        texts[relpath] = roundtrip.dump(upgraded.data)
        result.rewritten.append(path)
        for split_relpath, record in upgraded.split:
            if os.path.lexists(specs / split_relpath) or split_relpath in texts:
                raise UsageError(f"{path}: its record {record['id']} is to be written to {specs / split_relpath}, which exists already")
            texts[split_relpath] = roundtrip.dump(record)
            result.added.append(specs / split_relpath)
    if not texts:
        return result
    tree, _ = read_specs(specs)
    dataset = load_tree(specs, tree, FolderWithNewFiles(tree, texts))
    if not dataset.ok:
        raise InvalidSpecs(dataset.problems)
    replace_files({specs / relpath: text for relpath, text in texts.items()})
    return result


def _named_files(specs: Path, paths: list[Path]) -> list[str]:
    """The spec files under each path, relative to specs, in order; a path outside specs or missing is a usage error."""
    if not paths:
        return walk(specs, stamp_lines=False).files
    root = specs.resolve()
    found: dict[str, None] = {}
    for path in paths:
        full = path.resolve()
        if not full.exists():
            raise UsageError(f"{path}: no such file or folder")
        if full != root and root not in full.parents:
            raise UsageError(f"{path}: not inside the specs folder {specs}; name it with --specs")
        relative = full.relative_to(root).as_posix()
        if full.is_dir():
            prefix = "" if relative == "." else f"{relative}/"
            found.update((f"{prefix}{relpath}", None) for relpath in walk(full, stamp_lines=False).files)
        elif is_spec_file(full.name):
            found[relative] = None
        else:
            raise UsageError(f"{path}: not a spec file (.yaml)")
    return list(found)
