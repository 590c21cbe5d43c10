"""What changed between two versions of the data: records and figures matched by id and name, and the ratios that moved.

One model (a list of `Change`), several writers: a readable summary,
JSON (one object per change, stable keys), Markdown for a changelog, and a
count-only stat view.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from specdb.errors import InvalidSpecs
from specdb.snapshot import FigureState, RecordState, Snapshot, from_database, from_dataset
from specdb.tiers import ratio_rows

KINDS_OF_CHANGE = (
    "record_added", "record_removed", "record_renamed", "record_changed",
    "figure_added", "figure_removed", "value_changed", "counting_changed",
    "status_changed", "sources_changed", "re_reviewed", "ratio_changed",
)


@dataclass(frozen=True)
class Change:
    change: str
    record: str
    figure: str | None = None
    old: Any = None
    new: Any = None
    percent: float | None = None
    detail: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def open_version(text: str, specs: Path) -> Snapshot:
    """A folder of specs, a built database file, or a git revision of the repository holding the specs."""
    from specdb import gitsource
    from specdb.dataset import load_files, load_specs
    from specdb.specfiles import SpecFile

    path = Path(text)
    if path.is_dir():
        return _snapshot(load_specs(path), str(path))
    if path.is_file():
        from specdb.store import connect_readonly

        connection = connect_readonly(path.resolve())
        try:
            return from_database(connection, text)
        finally:
            connection.close()
    repo = gitsource.repository(specs)
    commit = gitsource.require_revision(repo, text)
    files = [SpecFile(relpath, content) for relpath, content in gitsource.files_at(repo, commit)]
    return _snapshot(load_files(specs, files, lambda relpath: f"{text}:{repo.prefix}{relpath}"), text, commit)


def working_tree(specs: Path) -> Snapshot:
    from specdb.dataset import load_specs

    return _snapshot(load_specs(specs), "working tree")


def _snapshot(dataset, label: str, commit: str = "") -> Snapshot:
    """A validated version as a snapshot; a version that does not validate is reported with its own problems."""
    if not dataset.ok:
        raise InvalidSpecs(dataset.problems)
    snapshot = from_dataset(dataset, label)
    snapshot.git_revision = commit
    return snapshot


def diff(old: Snapshot, new: Snapshot, *, basis: str = "per-direction") -> list[Change]:
    """Every change from old to new, grouped by record in id order, then the tier ratios that moved."""
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
    return changes


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
    changes = []
    for field in ("kind", "name", "vendor", "released", "aliases", "uses"):
        old, new = getattr(before, field), getattr(after, field)
        if old != new:
            changes.append(Change("record_changed", record_id, old=_plain(old), new=_plain(new), detail=field))
    for name in sorted(set(before.figures) | set(after.figures)):
        old_figure, new_figure = before.figures.get(name), after.figures.get(name)
        if old_figure is None:
            changes.append(Change("figure_added", record_id, name, new=new_figure.value_text))
        elif new_figure is None:
            changes.append(Change("figure_removed", record_id, name, old=old_figure.value_text))
        else:
            changes.extend(_figure_changes(record_id, name, old_figure, new_figure))
    return changes


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [list(item) if isinstance(item, tuple) else item for item in value]
    return value


def _figure_changes(record_id: str, name: str, old: FigureState, new: FigureState) -> list[Change]:
    changes = []
    if old.value != new.value or old.unit != new.unit:
        percent = round((new.value - old.value) / old.value * 100, 2) if old.unit == new.unit and old.value else None
        changes.append(Change("value_changed", record_id, name, old=old.value_text, new=new.value_text, percent=percent))
    elif old.value_text != new.value_text:
        changes.append(Change("value_changed", record_id, name, old=old.value_text, new=new.value_text, percent=0.0, detail="rewritten, same quantity"))
    for field in ("direction", "scope"):
        if getattr(old, field) != getattr(new, field):
            changes.append(Change("counting_changed", record_id, name, old=getattr(old, field), new=getattr(new, field), detail=field))
    if old.status != new.status:
        changes.append(Change("status_changed", record_id, name, old=old.status, new=new.status))
    if old.sources != new.sources:
        added = sorted(set(new.sources) - set(old.sources))
        removed = sorted(set(old.sources) - set(new.sources))
        changes.append(Change("sources_changed", record_id, name, old=removed, new=added, detail="removed / added"))
    if old.reviewed != new.reviewed and old.value == new.value and old.unit == new.unit:
        changes.append(Change("re_reviewed", record_id, name, old=old.reviewed, new=new.reviewed))
    return changes


def _ratio_changes(old: Snapshot, new: Snapshot, basis: str) -> list[Change]:
    before = {row["platform"]: row for row in ratio_rows(old, basis)}
    after = {row["platform"]: row for row in ratio_rows(new, basis)}
    changes = []
    for platform in sorted(set(before) & set(after)):
        for ratio in ("memory_to_scale_up", "scale_up_to_scale_out", "memory_to_scale_out"):
            old_value, new_value = before[platform][ratio], after[platform][ratio]
            if old_value != new_value:
                percent = round((new_value - old_value) / old_value * 100, 2) if old_value and new_value else None
                changes.append(Change("ratio_changed", platform, ratio, old=old_value, new=new_value, percent=percent, detail=f"basis {basis}"))
    return changes


def counts(changes: list[Change]) -> dict[str, int]:
    return {kind: sum(1 for change in changes if change.change == kind) for kind in KINDS_OF_CHANGE if any(c.change == kind for c in changes)}


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
        case "record_changed":
            return f"{change.detail}: {change.old} -> {change.new}"
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
        case "sources_changed":
            removed = "".join(f" -{ref}" for ref in change.old)
            added = "".join(f" +{ref}" for ref in change.new)
            return f"{where}: sources{removed}{added}"
        case "re_reviewed":
            return f"{where}: re-reviewed {change.old} -> {change.new}, value unchanged"
        case _:
            return f"{where}: {_ratio(change.old)} -> {_ratio(change.new)}{percent} ({change.detail})"


def _ratio(value: float | None) -> str:
    return "none" if value is None else f"{value:g}x"


def _label(snapshot: Snapshot) -> str:
    """The version as the user named it, with the git commit it was built from when that says more."""
    commit = snapshot.git_revision[:10]
    return f"{snapshot.label} ({commit})" if commit and not snapshot.label.startswith(commit) else snapshot.label


def render(changes: list[Change], fmt: str, old: Snapshot, new: Snapshot) -> str:
    old_label, new_label = _label(old), _label(new)
    if fmt == "json":
        return json.dumps([change.as_dict() for change in changes], indent=2) + "\n"
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

