"""Two git revisions as `diff` reads them: by the files that differ, and each file by what is remembered of it.

Every record of an unchanged file is the same on both sides, so only the
changed files are read, and the tier ratios of every platform come from what
is remembered of each revision (`revisioncache`). A file whose bytes, path,
review policies and code were validated before is not validated again: its
rows are remembered. A revision never seen is checked as a whole all the same
(references, aliases and derived figures across every record), and one with
any problem is validated again in full, so its problems read exactly as a
first reading reports them.
"""

from __future__ import annotations

from array import array
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from specdb.errors import InvalidSpecs
from specdb.progress import Progress, told
from specdb.versions.snapshot import Snapshot, from_rows
from specdb.format.counting import BASES

if TYPE_CHECKING:
    from specdb.versions import gitsource
    from specdb.versions import cache as revisioncache
    from specdb.load.dataset import Dataset
    from specdb.load.links import Links, SourceLinks
    from specdb.versions.cache import RevisionSummary
    from specdb.load.files import SpecSource

# The review policies' file, which reaches every figure (`dataset.POLICY_FILE`, named here without importing the validation).
POLICY_FILE = "policy.yaml"


def revisions(repo: gitsource.Repository, old: str, new: str, specs: Path, progress: Progress | None) -> tuple[Snapshot, Snapshot]:
    """Two git revisions, as the files that differ between them, with the tier ratios of every platform of each.

    A revision never validated before is checked whole once, and its summary remembered; a change to the review
    policies, which reaches every record, has both sides read whole.
    """
    from specdb.versions import gitsource
    from specdb.versions import cache as revisioncache

    sides = []
    for text in (old, new):
        commit = gitsource.require_revision(repo, text)
        tree = gitsource.specs_tree(repo, commit)
        summary = revisioncache.load(tree) if tree else None
        found = None
        if summary is None:
            found, content_hash = _whole_revision(repo, specs, text, commit, progress)
            platforms = _assembled(_platforms(found), text, commit, content_hash)
            summary = revisioncache.RevisionSummary(content_hash, {basis: platforms.ratios(basis) for basis in BASES})
            if tree:
                revisioncache.store(tree, summary)
        sides.append((text, commit, summary, found))
    changed = gitsource.changed_files(repo, sides[0][1], sides[1][1])
    if POLICY_FILE in changed or all(found is not None for *_, found in sides):
        wholes = []
        for text, commit, summary, found in sides:
            rows = found if found is not None else _whole_revision(repo, specs, text, commit, progress)[0]
            wholes.append(_assembled(rows.values(), text, commit, summary.content_hash))
            wholes[-1].known_ratios = summary.ratios
        return wholes[0], wholes[1]
    before, after = (_changed_part(repo, specs, text, commit, summary, changed) for text, commit, summary, _ in sides)
    return before, after


def _changed_part(repo: gitsource.Repository, specs: Path, text: str, commit: str, summary: RevisionSummary, changed: list[str]) -> Snapshot:
    """The records of the changed files as a revision holds them, each validated on its own (the revision is valid as a whole)."""
    from specdb.versions import gitsource

    found, _ = _validated(repo, specs, text, gitsource.blob_ids(repo, commit, [*changed, POLICY_FILE]), whole=False)
    snapshot = _assembled(found.values(), text, commit, summary.content_hash)
    snapshot.known_ratios = summary.ratios
    return snapshot


def revision(repo: gitsource.Repository, specs: Path, text: str, commit: str, progress: Progress | None) -> Snapshot:
    """Every spec file of a revision, validated as a whole (see `_validated`)."""
    found, content_hash = _whole_revision(repo, specs, text, commit, progress)
    return _assembled(found.values(), text, commit, content_hash)


def _whole_revision(
    repo: gitsource.Repository, specs: Path, text: str, commit: str, progress: Progress | None,
) -> tuple[dict[str, revisioncache.Rows], str]:
    from specdb.versions import gitsource

    return _validated(repo, specs, text, gitsource.blob_ids(repo, commit), whole=True, progress=progress)


def _validated(
    repo: gitsource.Repository, specs: Path, text: str, listing: list[tuple[str, str]], *,
    whole: bool, progress: Progress | None = None,
) -> tuple[dict[str, revisioncache.Rows], str]:
    """The rows of each listed file (path, blob id) as a revision holds it, by path, validated and remembered (see
    `revisioncache`); with `whole`, the content hash of the revision too.

    A file whose rows are remembered was valid on its own with these bytes, path, review policies and code, so it is
    not validated again. With `whole`, the listing is the whole revision: the checks across records (references,
    aliases, derived figures) run on every record, and a revision with any problem is validated again in full, so its
    problems are reported exactly as a first reading reports them. Otherwise some files of a revision known to be
    valid as a whole, each on its own.
    """
    from specdb.versions import gitsource
    from specdb.versions import cache as revisioncache

    policy = dict(listing).get(POLICY_FILE, "")
    keys = {relpath: revisioncache.file_key(relpath, blob, policy) for relpath, blob in listing if relpath != POLICY_FILE}
    remembered = revisioncache.load_files(list(keys.values()))
    found = {relpath: remembered[key] for relpath, key in keys.items() if key in remembered}
    unread = [(relpath, blob) for relpath, blob in listing if relpath not in found]
    if not whole and all(relpath == POLICY_FILE for relpath, _ in unread):
        return found, ""
    from specdb.load.dataset import load_files
    from specdb.db.rows import Numbering, record_rows
    from specdb.load.files import SpecFile, SpecsInMemory

    shown = _shown_in(repo, text)
    listed = listing if whole else unread
    files = [SpecFile(relpath, raw) for (relpath, _), raw in zip(listed, gitsource.read_blobs(repo, [blob for _, blob in listed]))]
    dataset = load_files(
        specs, SpecsInMemory(file for file in files if file.relpath not in found), shown, across_records=False,
        progress=told(f"reading {text}", progress),
    )
    every = SpecsInMemory(files)
    for relpath in every.relpaths:
        every.read(relpath)  # so that the content hash covers every file, and a problem can be located in any
    if not (dataset.ok and (not whole or _valid_across_records(dataset, found.values(), every))):
        if whole:
            dataset = load_files(specs, SpecsInMemory(files), shown)
        raise InvalidSpecs(dataset.problems)
    validated = {loaded.relpath: list(record_rows(loaded.model, loaded.relpath, dataset.policies, Numbering())) for loaded in dataset.records.values()}
    # A file an older format split in two is read again each time: its rows are those of two records.
    revisioncache.store_files({keys[relpath]: rows for relpath, rows in validated.items() if relpath in keys and relpath not in dataset.split_from.values()})
    found.update(validated)
    return found, every.content_hash() if whole else ""


def _assembled(rows_of_files: Iterable[revisioncache.Rows], text: str, commit: str, content_hash: str) -> Snapshot:
    """A version of the data from the rows of its files, each numbered from 1 (see `rows.record_rows`)."""
    from specdb.db.rows import TABLES

    tables: dict[str, list[dict[str, Any]]] = {table: [] for table in TABLES}
    for number, rows in enumerate(rows_of_files):
        for table, row in rows:
            tables[table].append(_numbered_apart(table, row, number))
    snapshot = from_rows(tables, text)
    snapshot.content_hash, snapshot.git_revision = content_hash, commit
    return snapshot


def _platforms(found: dict[str, revisioncache.Rows]) -> Iterator[revisioncache.Rows]:
    """The rows of the records the tier ratios read: every system, and the accelerator it is built on.

    A valid record's file is named by its kind and id (`system/<id>.yaml`), and the accelerator it uses is in the revision.
    """
    for relpath, rows in found.items():
        if relpath.startswith("system/"):
            yield rows
            accelerator = next((row["target_id"] for table, row in rows if table == "record_use" and row["role"] == "accelerator"), None)
            if accelerator is not None:
                yield found[f"accelerator/{accelerator}.yaml"]


def _valid_across_records(dataset: Dataset, remembered: Iterable[revisioncache.Rows], every: SpecSource) -> bool:
    """Whether the records of a whole revision, some validated before and given by their rows, pass the checks across records.

    False as well when two files give one id, which the full validation reports as it does; `every` file of the
    revision locates a problem.
    """
    from specdb.load.dataset import check_references

    for rows in remembered:
        record_id, links = _links_of(rows)
        if record_id in dataset.links:
            return False
        dataset.links.add(record_id, links)
    dataset.files = every
    check_references(dataset)
    return dataset.ok


def _links_of(rows: revisioncache.Rows) -> tuple[str, Links | SourceLinks]:
    """What the checks across records need of a record, from its rows, as `dataset` gathers it from the validated record."""
    from specdb.load.links import Links, SourceLinks

    aliases, uses, refs, derivations, names, values = [], [], {}, [], [], array("d")
    for table, row in rows:
        if table == "source":
            # Its domain was checked when it was validated, under the same policy file (part of what it is remembered by).
            return row["id"], SourceLinks(row["path"])
        if table == "record":
            record = row
        elif table == "alias":
            aliases.append(row["alias"])
        elif table == "record_use":
            uses.append((row["role"], row["target_id"]))
        elif table == "figure":
            names.append(row["name"])
            values.append(row["value"])
            if row["derived_product"] is not None:
                derivations.append((row["name"], tuple(row["derived_product"].split(" ")), row["derived_factor"]))
        elif table in ("citation", "runtime_name"):
            refs[row["source_id"]] = None
    return record["id"], Links(
        record["path"], record["kind"], tuple(aliases), tuple(uses), tuple(refs), tuple(derivations), tuple(names), values,
    )


def _numbered_apart(table: str, row: dict[str, Any], file_number: int) -> dict[str, Any]:
    """A row of one file's rows, numbered from 1, with ids no other file's rows share (they only tie rows together)."""
    from specdb.db.rows import NUMBERING

    columns = NUMBERING.get(table)
    if columns is None:
        return row
    numbered = dict(row)
    for column in columns:
        if row[column] is not None:
            numbered[column] = (file_number, row[column])
    return numbered


def _shown_in(repo: gitsource.Repository, text: str) -> Callable[[str], str]:
    return lambda relpath: f"{text}:{repo.prefix}{relpath}"
