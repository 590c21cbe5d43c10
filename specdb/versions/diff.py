"""What changed between two versions of the data: records and figures matched by id and name, and the ratios that moved.

One model (a list of `Change`), several writers: a readable summary,
JSON (one object per change, stable keys), Markdown for a changelog, and a
count-only stat view.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from specdb.errors import EXIT_USAGE, GitError, InvalidSpecs, SpecdbError, UsageError
from specdb.output import to_json
from specdb.progress import Progress, told
from specdb.versions.dbcompare import changed_records
from specdb.versions.snapshot import (
    Citation, Claim, FigureState, RecordState, Snapshot, from_database, from_database_records, from_dataset,
)
from specdb.analysis.tiers import RATIOS

if TYPE_CHECKING:
    from specdb.load.dataset import Dataset
    from specdb.versions.gitsource import Repository

# Each kind of change, and the group a user may narrow the report to (`diff --only`).
GROUP_OF = {
    "record_added": "records", "record_removed": "records", "record_renamed": "records", "record_changed": "records",
    "figure_added": "values", "figure_removed": "values", "value_changed": "values", "status_changed": "values",
    "derivation_changed": "values", "figure_changed": "values",
    "counting_changed": "counting",
    "sources_changed": "sources", "source_changed": "sources",
    "re_reviewed": "review", "review_changed": "review",
    "prose_changed": "prose",
    "history_changed": "history",
    "ratio_changed": "ratios",
}
KINDS_OF_CHANGE = tuple(GROUP_OF)
FORMATS = ("summary", "json", "markdown")
GROUPS = tuple(dict.fromkeys(GROUP_OF.values()))

# How each column of a figure is reported; a column not named here is still reported, as figure_changed.
_VALUE = ("value_text", "value", "unit", "dimension")
_FIGURE_FIELDS = {
    **{name: "counting_changed" for name in ("direction", "scope", "precision", "sparsity")},
    **{name: "review_changed" for name in ("as_of", "as_of_text", "reviewed", "reviewed_text", "warn_after", "error_after")},
    **{name: "prose_changed" for name in ("note", "uncertainty", "method")},
    **{name: "derivation_changed" for name in ("derived_product", "derived_factor")},
    "status": "status_changed",
}
# Dates are compared once, by the day; their text is compared only when the day is the same.
_SAME_DAY = {"as_of_text": "as_of", "reviewed_text": "reviewed", "released_date": "released"}


@dataclass(frozen=True)
class Change:
    change: str
    record: str
    figure: str | None = None
    old: Any = None
    new: Any = None
    percent: float | None = None
    detail: str | None = None

    @property
    def group(self) -> str:
        return "prose" if self.change == "record_changed" and self.detail == "notes" else "sources" if self.change == "source_changed" else GROUP_OF[self.change]

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "group": self.group}


def open_version(text: str, specs: Path, progress: Progress | None = None) -> Snapshot:
    """A folder of specs, a built database file, a server's publication (postgresql://), or a git revision of the repository holding the specs."""
    from specdb.versions import gitsource
    from specdb.locations import SERVER_SCHEMES, ServerDatabase, is_specs_folder

    if text.startswith(SERVER_SCHEMES):
        from specdb.db.postgres import connect_readonly as open_publication

        server = ServerDatabase(text)
        reader = open_publication(server)
        try:
            return from_database(reader, str(server))  # type: ignore[arg-type]
        finally:
            reader.close()
    path = Path(text)
    if path.is_dir():
        if not is_specs_folder(path):
            raise UsageError(f"{text}: not a specs folder (a specs folder holds <kind>/<id>.yaml files, or policy.yaml)")
        return _folder(path, str(path), progress)
    if path.is_file():
        from specdb.db.migrate import at_current_schema
        from specdb.db.store import connect_readonly

        with at_current_schema(path.resolve()) as readable:
            connection = connect_readonly(readable)
            try:
                return from_database(connection, text)
            finally:
                connection.close()
    from specdb.versions.revisions import revision

    repo = _repository((text,), specs)
    return revision(repo, specs, text, gitsource.require_revision(repo, text), progress)


def _repository(texts: tuple[str, ...], specs: Path) -> "Repository":
    """The repository to read the revisions `texts` name from; where there is none, they are said to name no file either."""
    from specdb.versions import gitsource

    try:
        return gitsource.repository(specs)
    except GitError as error:
        raise UsageError(f"{' and '.join(texts)}: no such file or folder, and {error}") from None


def working_tree(specs: Path, progress: Progress | None = None) -> Snapshot:
    return _folder(specs, "working tree", progress)


def _folder(path: Path, label: str, progress: Progress | None) -> Snapshot:
    from specdb.load.dataset import load_tree
    from specdb.load.files import read_specs

    return _snapshot(load_tree(path, *read_specs(path), progress=told(f"reading {label}", progress)), label)


def _snapshot(dataset: Dataset, label: str) -> Snapshot:
    """A validated version as a snapshot; a version that does not validate is reported with its own problems."""
    if not dataset.ok:
        raise InvalidSpecs(dataset.problems)
    return from_dataset(dataset, label)


def compare_versions(
    old: str, new: str | None, specs: Path, *, basis: str = "per-direction", only: tuple[str, ...] | None = None,
    progress: Progress | None = None, validate: bool = False,
) -> tuple[Snapshot, Snapshot, list[Change]]:
    """The two versions named (new defaults to the working tree) and the changes between them.

    Two database files, or two git revisions, are compared by the records that changed only (see `_databases`
    and `revisions.revisions`); the report is the same as from the whole of both. Two git revisions are checked
    across records only as far as the change reaches, unless `validate` has each never read whole checked whole.
    Every failure exits 2, whatever its kind: to a script running `diff --exit-code`, 1 means "differences", as with git diff.
    """
    try:
        if new is None:
            before, after = open_version(old, specs, progress), working_tree(specs, progress)
        elif _is_revision(old) and _is_revision(new):
            from specdb.versions.revisions import revisions

            before, after = revisions(_repository((old, new), specs), old, new, specs, progress, validate=validate)
        elif Path(old).is_file() and Path(new).is_file():
            before, after = _databases(old, new)
        else:
            before, after = open_version(old, specs, progress), open_version(new, specs, progress)
        return before, after, diff(before, after, basis=basis, only=only)
    except SpecdbError as error:
        error.exit_code = EXIT_USAGE
        raise


def _is_revision(text: str) -> bool:
    """What `open_version` reads as a git revision: neither a folder, nor a file, nor a server."""
    from specdb.locations import SERVER_SCHEMES

    return not text.startswith(SERVER_SCHEMES) and not Path(text).is_dir() and not Path(text).is_file()


def _databases(old: str, new: str) -> tuple[Snapshot, Snapshot]:
    """Two database files, as the records that differ in any row, with the ratios of the platforms that rest on them.

    A file made by an older specdb is read through a copy brought to the current schema by the migrations.
    """
    from specdb.db.migrate import at_current_schema
    from specdb.db.store import connect_readonly

    with ExitStack() as stack:
        paths = [stack.enter_context(at_current_schema(Path(text).resolve())) for text in (old, new)]
        connections = []
        try:
            for path in paths:
                connections.append(connect_readonly(path))
            changed = changed_records(*paths)
            return from_database_records(connections[0], old, changed), from_database_records(connections[1], new, changed)
        finally:
            for connection in connections:
                connection.close()


def diff(old: Snapshot, new: Snapshot, *, basis: str = "per-direction", only: tuple[str, ...] | None = None) -> list[Change]:
    """Every change from old to new, grouped by record in id order, then the tier ratios that moved; `only` keeps some groups."""
    unknown = sorted(set(only or ()) - set(GROUPS))
    if unknown:
        raise UsageError(f"unknown group {', '.join(unknown)}; groups are {', '.join(GROUPS)}")
    changes: list[Change] = []
    renamed = _renames(old, new)
    vanished = set(renamed.values())
    for record_id in sorted(set(old.records) | set(new.records)):
        if record_id in vanished:
            continue
        before = old.records.get(renamed.get(record_id, record_id))
        after = new.records.get(record_id)
        if after is None:
            changes.append(Change("record_removed", record_id, old=before.name))
        elif before is None:
            changes.append(Change("record_added", record_id, new=after.name))
        else:
            if record_id in renamed:
                changes.append(Change("record_renamed", record_id, old=renamed[record_id], new=record_id))
            changes.extend(_record_changes(record_id, before, after))
    changes.extend(_ratio_changes(old, new, basis))
    return [change for change in changes if only is None or change.group in only]


def _renames(old: Snapshot, new: Snapshot) -> dict[str, str]:
    """new id -> old id, where a new record lists a vanished old id among its aliases."""
    found = {}
    for record in new.records.values():
        for alias in record.aliases:
            if alias in old.records and alias not in new.records and record.id not in old.records:
                found[record.id] = alias
                break
    return found


def _record_changes(record_id: str, before: RecordState, after: RecordState) -> list[Change]:
    kind = "source_changed" if after.kind == "source" else "record_changed"
    changes = [Change(kind, record_id, old=old, new=new, detail=name) for name, old, new in _field_changes(before.fields, after.fields)]
    if before.kind != after.kind:
        changes.append(Change("record_changed", record_id, old=before.kind, new=after.kind, detail="kind"))
    for name in ("aliases", "uses"):
        old, new = getattr(before, name), getattr(after, name)
        if old != new:
            changes.append(Change("record_changed", record_id, old=_plain(old), new=_plain(new), detail=name))
    for name in sorted(set(before.figures) | set(after.figures)):
        old_figure, new_figure = before.figures.get(name), after.figures.get(name)
        if old_figure is None:
            changes.append(Change("figure_added", record_id, name, new=new_figure.fields["value_text"]))
        elif new_figure is None:
            changes.append(Change("figure_removed", record_id, name, old=old_figure.fields["value_text"]))
        else:
            changes.extend(_figure_changes(record_id, name, old_figure, new_figure))
    return changes


def _field_changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """(column, old, new) for every column that differs; a date's text only when its day did not change too."""
    differing = {name for name in set(old) | set(new) if old.get(name) != new.get(name)}
    return [
        (name, old.get(name), new.get(name)) for name in sorted(differing)
        if _SAME_DAY.get(name) not in differing
    ]


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [list(item) if isinstance(item, tuple) else item for item in value]
    return value


def _figure_changes(record_id: str, name: str, old: FigureState, new: FigureState) -> list[Change]:
    changes = []
    before, after = old.fields, new.fields
    value_moved = any(before.get(key) != after.get(key) for key in ("value", "unit"))
    if value_moved:
        percent = round((after["value"] - before["value"]) / before["value"] * 100, 2) if before["unit"] == after["unit"] else None
        changes.append(Change("value_changed", record_id, name, old=before["value_text"], new=after["value_text"], percent=percent))
    elif before["value_text"] != after["value_text"]:
        changes.append(Change("value_changed", record_id, name, old=before["value_text"], new=after["value_text"], percent=0.0, detail="rewritten, same quantity"))
    for field, old_value, new_value in _field_changes(before, after):
        if field in _VALUE:
            continue
        kind = _FIGURE_FIELDS.get(field, "figure_changed")
        if field == "reviewed" and not value_moved:
            kind, field = "re_reviewed", None
        changes.append(Change(kind, record_id, name, old=old_value, new=new_value, detail=field))
    changes.extend(_citation_changes(record_id, name, old.citations, new.citations, "sources"))
    for label, old_claims, new_claims in (("history", old.history, new.history), ("alternative", old.alternatives, new.alternatives)):
        changes.extend(_claim_changes(record_id, name, label, old_claims, new_claims))
    return changes


def _citation_changes(record_id: str, name: str, old: tuple[Citation, ...], new: tuple[Citation, ...], where: str) -> list[Change]:
    """Sources added or removed, then, for sources cited on both sides, any change to a quote, locator or note."""
    if old == new:
        return []
    old_ids, new_ids = [c.source_id for c in old], [c.source_id for c in new]
    changes = []
    if sorted(set(old_ids)) != sorted(set(new_ids)):
        removed = sorted(set(old_ids) - set(new_ids))
        added = sorted(set(new_ids) - set(old_ids))
        detail = "removed / added" if where == "sources" else f"{where}: removed / added"
        changes.append(Change("sources_changed", record_id, name, old=removed, new=added, detail=detail))
    old_by_id = {c.source_id: c for c in old}
    for citation in new:
        before = old_by_id.get(citation.source_id)
        if before is None or before == citation:
            continue
        for field in ("quote", "locator", "note"):
            if getattr(before, field) != getattr(citation, field):
                changes.append(Change("sources_changed", record_id, name, old=getattr(before, field), new=getattr(citation, field),
                                      detail=f"{where}: {citation.source_id} {field}"))
    if not changes:
        changes.append(Change("sources_changed", record_id, name, old=old_ids, new=new_ids, detail=f"{where}: order"))
    return changes


def _claim_changes(record_id: str, name: str, label: str, old: tuple[Claim, ...], new: tuple[Claim, ...]) -> list[Change]:
    """Entries of a figure's history or alternatives added, removed or changed, matched by position."""
    changes = []
    for index in range(max(len(old), len(new))):
        before = old[index] if index < len(old) else None
        after = new[index] if index < len(new) else None
        where = f"{label} {index + 1}"
        if before is None:
            changes.append(Change("history_changed", record_id, name, new=after.value_text, detail=f"{where} added"))
        elif after is None:
            changes.append(Change("history_changed", record_id, name, old=before.value_text, detail=f"{where} removed"))
        elif before != after:
            for field, old_value, new_value in _field_changes(before.fields, after.fields):
                changes.append(Change("history_changed", record_id, name, old=old_value, new=new_value, detail=f"{where} {field}"))
            for change in _citation_changes(record_id, name, before.citations, after.citations, f"{where} sources"):
                changes.append(Change("history_changed", record_id, name, old=change.old, new=change.new, detail=change.detail))
    return changes


def _ratio_changes(old: Snapshot, new: Snapshot, basis: str) -> list[Change]:
    before, after = old.ratios(basis), new.ratios(basis)
    changes = []
    for platform in sorted(set(before) & set(after)):
        for position, (ratio, _, _) in enumerate(RATIOS):
            old_value, new_value = before[platform][position], after[platform][position]
            if old_value != new_value:
                percent = round((new_value - old_value) / old_value * 100, 2) if old_value and new_value else None
                changes.append(Change("ratio_changed", platform, ratio, old=old_value, new=new_value, percent=percent, detail=f"basis {basis}"))
    return changes


def counts(changes: list[Change]) -> dict[str, int]:
    found = {kind: sum(1 for change in changes if change.change == kind) for kind in KINDS_OF_CHANGE}
    return {kind: count for kind, count in found.items() if count}


def _line(change: Change) -> str:
    where = change.figure or ""
    percent = f" ({change.percent:+g}%)" if change.percent not in (None, 0.0) else ""
    match change.change:
        case "record_added":
            return f"added: {change.new}"
        case "record_removed":
            return f"removed: {change.old}"
        case "record_renamed":
            return f"renamed from {change.old}"
        case "record_changed" | "source_changed":
            return f"{change.detail}: {_short(change.old)} -> {_short(change.new)}"
        case "figure_added":
            return f"{where} added: {change.new}"
        case "figure_removed":
            return f"{where} removed (was {change.old})"
        case "value_changed":
            return f"{where}: {change.old} -> {change.new}{percent}" + (f" [{change.detail}]" if change.detail else "")
        case "counting_changed":
            return f"{where}: {change.detail} {change.old} -> {change.new}"
        case "status_changed":
            return f"{where}: status {change.old} -> {change.new}"
        case "sources_changed" if change.detail == "removed / added":
            removed = "".join(f" -{ref}" for ref in change.old)
            added = "".join(f" +{ref}" for ref in change.new)
            return f"{where}: sources{removed}{added}"
        case "re_reviewed":
            return f"{where}: re-reviewed {change.old} -> {change.new}, value unchanged"
        case "ratio_changed":
            return f"{where}: {_ratio(change.old)} -> {_ratio(change.new)}{percent} ({change.detail})"
        case _:
            return f"{where}: {change.detail}: {_short(change.old)} -> {_short(change.new)}"


def _short(value: Any) -> str:
    """A value for one line of a summary: text quoted and cut at 60 characters, nothing as 'none'."""
    if value is None:
        return "none"
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    return str(value)


def _ratio(value: float | None) -> str:
    return "none" if value is None else f"{value:g}x"


def _label(snapshot: Snapshot) -> str:
    """The version as the user named it, with the git commit it was built from when that says more."""
    commit = snapshot.git_revision[:10]
    return f"{snapshot.label} ({commit})" if commit and not snapshot.label.startswith(commit) else snapshot.label


def render(changes: list[Change], fmt: str, old: Snapshot, new: Snapshot) -> str:
    old_label, new_label = _label(old), _label(new)
    if fmt == "json":
        return to_json([change.as_dict() for change in changes])
    summary = counts(changes)
    if fmt == "stat":
        lines = [f"{old_label} -> {new_label}: {len(changes)} changes"] + [f"  {kind:18} {count}" for kind, count in summary.items()]
        return "\n".join(lines) + "\n"
    heading = ", ".join(f"{count} {kind.replace('_', ' ').replace('re reviewed', 're-reviewed')}" for kind, count in summary.items()) or "no changes"
    if fmt == "markdown":
        out = [f"## Changes from {old_label} to {new_label}", "", heading, ""]
        for record, group in _grouped(changes):
            out.append(f"### {record}")
            out.extend(f"- {_line(change)}" for change in group)
            out.append("")
        return "\n".join(out)
    out = [f"{old_label} -> {new_label}: {heading}"]
    for record, group in _grouped(changes):
        out.append(f"\n{record}")
        out.extend(f"  {_line(change)}" for change in group)
    return "\n".join(out) + "\n"


def _grouped(changes: list[Change]) -> list[tuple[str, list[Change]]]:
    groups: dict[str, list[Change]] = {}
    for change in changes:
        key = f"{change.record} (tier ratios)" if change.change == "ratio_changed" else change.record
        groups.setdefault(key, []).append(change)
    return list(groups.items())

