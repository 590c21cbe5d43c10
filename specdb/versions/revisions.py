"""Two git revisions as `diff` reads them: by the files that differ, and each file by what is remembered of it.

Every record of an unchanged file is the same on both sides, so only the
changed files are read, with the tier ratios of the platforms the change can
move. A file whose bytes, path, review policies and code were validated
before is not validated again: its rows are remembered (`revisioncache`).
Two revisions not read before are read as far as the change reaches (see
`reach`), and what was found of them remembered; with `validate`, a revision
never read whole is checked as a whole (references, aliases and derived
figures across every record) and the ratios of all its platforms remembered.
Either way a revision with a problem is validated again in full, so its
problems read exactly as a first reading reports them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from specdb.errors import InvalidSpecs
from specdb.progress import Progress, told
from specdb.versions import reach
from specdb.versions.snapshot import Snapshot, from_rows
from specdb.format.counting import BASES

if TYPE_CHECKING:
    from specdb.versions import gitsource
    from specdb.versions import cache as revisioncache
    from specdb.load.dataset import Dataset
    from specdb.versions.cache import RevisionSummary
    from specdb.load.files import SpecSource

# The review policies' file, which reaches every figure (`dataset.POLICY_FILE`, named here without importing the validation).
POLICY_FILE = "policy.yaml"


def revisions(
    repo: gitsource.Repository, old: str, new: str, specs: Path, progress: Progress | None, *, validate: bool = False,
) -> tuple[Snapshot, Snapshot]:
    """Two git revisions, as the files that differ between them, with the tier ratios of the platforms that may have moved.

    Revisions read whole before are read by their changed files and the ratios remembered of them; otherwise only
    what the change reaches is read (`_reached`). With `validate`, a revision never read whole is checked whole once,
    and its summary remembered; a change to the review policies, which reaches every record, has both sides read whole.
    """
    from specdb.versions import gitsource
    from specdb.versions import cache as revisioncache

    texts = (old, new)
    commits = [gitsource.require_revision(repo, text) for text in texts]
    trees = [gitsource.specs_tree(repo, commit) for commit in commits]
    summaries = [revisioncache.load(tree) if tree else None for tree in trees]
    changed = gitsource.changed_files(repo, *commits)
    if validate or POLICY_FILE in changed:
        return _read_whole(repo, specs, texts, commits, trees, summaries, changed, progress)
    if summaries[0] is None or summaries[1] is None:
        pair = revisioncache.load_pair(trees[0], trees[1]) if trees[0] and trees[1] else None
        if pair is None:
            reached = _reached(repo, specs, texts, commits, trees, changed)
            if reached is None:  # a problem across records, reported as a reading of the whole revision reports it
                return _read_whole(repo, specs, texts, commits, trees, summaries, changed, progress)
            return reached
        summaries = list(pair)
    before, after = (_changed_part(repo, specs, text, commit, summary, changed) for text, commit, summary in zip(texts, commits, summaries))
    return before, after


def _read_whole(
    repo: gitsource.Repository, specs: Path, texts: tuple[str, str], commits: list[str], trees: list[str | None],
    summaries: list[RevisionSummary | None], changed: list[str], progress: Progress | None,
) -> tuple[Snapshot, Snapshot]:
    """Each revision never read whole checked whole and its summary remembered; then both sides whole when the review
    policies changed or neither was known, else their changed files."""
    from specdb.versions import cache as revisioncache

    sides = []
    for text, commit, tree, summary in zip(texts, commits, trees, summaries):
        found = None
        if summary is None:
            found, content_hash = _whole_revision(repo, specs, text, commit, progress)
            platforms = _assembled(_platforms(found), text, commit, content_hash)
            summary = revisioncache.RevisionSummary(content_hash, {basis: platforms.ratios(basis) for basis in BASES})
            if tree:
                revisioncache.store(tree, summary)
        sides.append((text, commit, summary, found))
    if POLICY_FILE in changed or all(found is not None for *_, found in sides):
        wholes = []
        for text, commit, summary, found in sides:
            rows = found if found is not None else _whole_revision(repo, specs, text, commit, progress)[0]
            wholes.append(_assembled(rows.values(), text, commit, summary.content_hash))
            wholes[-1].known_ratios = summary.ratios
        return wholes[0], wholes[1]
    before, after = (_changed_part(repo, specs, text, commit, summary, changed) for text, commit, summary, _ in sides)
    return before, after


def _reached(
    repo: gitsource.Repository, specs: Path, texts: tuple[str, str], commits: list[str], trees: list[str | None], changed: list[str],
) -> tuple[Snapshot, Snapshot] | None:
    """Two revisions by what the change between them reaches (see `reach`): the records of the changed files, with the
    tier ratios of the platforms it can move; None when the records it reaches fail the checks across records.

    What a diff of the two found of each is remembered under both trees, so the next reads only the changed files.
    """
    from specdb.load.files import content_hash_of
    from specdb.versions import gitsource
    from specdb.versions import cache as revisioncache

    listings = [gitsource.blob_ids(repo, commit) for commit in commits]
    parts = []
    for text, commit, listing in zip(texts, commits, listings):
        blobs = dict(listing)
        try:
            found, _ = _validated(repo, specs, text, _listed(blobs, changed), whole=False)
        except InvalidSpecs:
            return None
        parts.append(found)
    changed_ids = {reach.record_id(relpath) for relpath in changed}
    words = reach.words(changed, *parts)
    around = []
    for text, commit, listing, part in zip(texts, commits, listings, parts):
        rows = _around(repo, specs, text, commit, listing, part, words)
        if rows is None:
            return None
        around.append(rows)
    moved = set().union(*(reach.moved_platforms(rows.values(), changed_ids) for rows in around))
    summaries = []
    for text, commit, listing, rows in zip(texts, commits, listings, around):
        content_hash = content_hash_of(zip((relpath for relpath, _ in listing), gitsource.each_blob(repo, [blob for _, blob in listing])))
        platforms = _assembled(rows.values(), text, commit, content_hash)
        summaries.append(revisioncache.RevisionSummary(content_hash, {
            basis: {platform: ratios for platform, ratios in platforms.ratios(basis).items() if platform in moved} for basis in BASES
        }))
    if trees[0] and trees[1]:
        revisioncache.store_pair(trees[0], trees[1], *summaries)
    snapshots = []
    for text, commit, part, summary in zip(texts, commits, parts, summaries):
        snapshot = _assembled(part.values(), text, commit, summary.content_hash)
        snapshot.known_ratios = summary.ratios
        snapshots.append(snapshot)
    return snapshots[0], snapshots[1]


def _around(
    repo: gitsource.Repository, specs: Path, text: str, commit: str, listing: list[tuple[str, str]],
    part: dict[str, revisioncache.Rows], words: list[str],
) -> dict[str, revisioncache.Rows] | None:
    """The rows the tier ratios read of the systems and accelerators among the changed files of a revision (`part`),
    the files that name their records and the records those read; None when a file is invalid, two files give one id,
    or these records fail the checks across records. Files are validated a batch at a time and let go."""
    from specdb.versions import gitsource

    blobs = dict(listing)
    by_id: dict[str, str] = {}
    for relpath, _ in listing:
        if relpath != POLICY_FILE and by_id.setdefault(reach.record_id(relpath), relpath) != relpath:
            return None  # two files of one id: the revision is invalid
    reached = reach.Reached(specs)
    for relpath, rows in part.items():
        reached.take(relpath, rows)
    # A source refers to no record: the files that may name a changed one are outside the sources' folder.
    naming = [relpath for relpath in gitsource.mentioning(repo, commit, words, leaving_out="source") if relpath not in part]
    try:
        for batch in _batches(naming):
            for relpath, rows in _validated(repo, specs, text, _listed(blobs, batch), whole=False)[0].items():
                reached.take(relpath, rows)
        read = sorted({by_id[target] for target in reached.reads if target in by_id} - {*part, *naming})
        for batch in _batches(read):
            for relpath, rows in _validated(repo, specs, text, _listed(blobs, batch), whole=False)[0].items():
                reached.take(relpath, rows)
    except InvalidSpecs:
        return None
    return reached.platform_rows if reached.consistent(set(by_id)) else None


# How many files are validated at once while the records a change reaches are read: enough to pay git's start-up
# rarely, few enough that their bytes and records are a small part of the memory a diff takes.
_BATCH_FILES = 256


def _batches(relpaths: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(relpaths), _BATCH_FILES):
        yield relpaths[start:start + _BATCH_FILES]


def _listed(blobs: dict[str, str], relpaths: Iterable[str]) -> list[tuple[str, str]]:
    """(path, blob id) of the files of `relpaths` a revision holds, with its review policies, which every file is read under."""
    return [(relpath, blobs[relpath]) for relpath in sorted({*relpaths, POLICY_FILE}) if relpath in blobs]


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
        if not (whole and _only_dangling(dataset.problems)):
            raise InvalidSpecs(dataset.problems)
        _say_read_as_committed(text, dataset.problems)
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
            if f"accelerator/{accelerator}.yaml" in found:  # absent only from a revision read as committed, see _only_dangling
                yield found[f"accelerator/{accelerator}.yaml"]


def _only_dangling(problems: list) -> bool:
    """Whether every problem of a whole revision is a reference to a record it does not hold.

    Such a revision was committed that way (a system added a commit before the accelerator it is built on): each of its
    records is valid on its own, so it is read as it was, and what it lacks shows as the records the other side adds.
    """
    return bool(problems) and all(problem.code == "unknown-record" for problem in problems)


def _say_read_as_committed(text: str, problems: list) -> None:
    import sys

    first = problems[0]
    more = f" and {len(problems) - 1} more" if len(problems) > 1 else ""
    print(f"specdb: warning: {text} names records it does not hold ({first}{more}); read as it was committed", file=sys.stderr)


def _valid_across_records(dataset: Dataset, remembered: Iterable[revisioncache.Rows], every: SpecSource) -> bool:
    """Whether the records of a whole revision, some validated before and given by their rows, pass the checks across records.

    False as well when two files give one id, which the full validation reports as it does; `every` file of the
    revision locates a problem.
    """
    from specdb.load.dataset import check_references

    for rows in remembered:
        record_id, links = reach.links_of(rows)
        if record_id in dataset.links:
            return False
        dataset.links.add(record_id, links)
    dataset.files = every
    check_references(dataset)
    return dataset.ok


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
