"""Load a specs folder: read every file, validate each record, then check the records against each other.

`load_specs` never raises on bad input: everything wrong is a `Problem` with
the file, line and column, and all of them are reported, not only the first.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator
from urllib.parse import urlsplit

from pydantic import ValidationError

from specdb import schema, vocabulary
from specdb.schema import Figure, KindPolicies, Record, SourceRecord
from specdb.specfiles import SpecFile, Stamp, Tree, content_digest, read_specs
from specdb.yamlread import Located, parse_yaml

POLICY_FILE = "policy.yaml"
# The kinds of problem `validate` reports, each a `code` in its JSON output.
PROBLEM_CODES = (
    "unreadable", "layout", "yaml", "missing-key", "unknown-key", "invalid-value", "vocabulary", "duplicate-id",
    "duplicate-alias", "unknown-record", "wrong-kind", "unknown-source", "unknown-figure", "review-order", "derived-mismatch",
    "excluded-source",
)
DERIVED_TOLERANCE = 0.02


@dataclass(frozen=True, order=True)
class Problem:
    """What is wrong and where; line and column are 0 when the problem is a whole file or folder."""

    path: str
    line: int
    column: int
    message: str
    code: str  # the kind of problem, one of PROBLEM_CODES: what a tool reading `validate --format json` branches on

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}" if self.line else self.path
        return f"{where}: {self.message}"


@dataclass
class LoadedRecord:
    model: Record | SourceRecord
    relpath: str
    located: Located


@dataclass
class Dataset:
    root: Path
    records: dict[str, LoadedRecord] = field(default_factory=dict)
    policies: KindPolicies | None = None
    problems: list[Problem] = field(default_factory=list)
    content_hash: str = ""
    # The spec files' metadata as they were read (None for a git revision): what a database built from them records.
    stamp: Stamp | None = None
    # Ids of files that could not be loaded: references to them are not reported a second time.
    unloaded: set[str] = field(default_factory=set)
    shown: Callable[[str], str] = str

    @property
    def ok(self) -> bool:
        return not self.problems

    def figure(self, record_id: str, name: str) -> Figure | None:
        loaded = self.records.get(record_id)
        if loaded is None or not isinstance(loaded.model, Record):
            return None
        return loaded.model.figures.get(name)


def load_specs(root: Path) -> Dataset:
    """Read and validate every record under root; a folder, link or file that cannot be read is a problem too."""
    return load_tree(Path(root), *read_specs(Path(root)))


def load_tree(root: Path, tree: Tree, files: list[SpecFile], stamp: Stamp) -> Dataset:
    """Validate the files read by `read_specs`."""

    def shown(relpath: str) -> str:
        return _shown(root, relpath)

    dataset = load_files(root, files, shown)
    dataset.stamp = stamp
    dataset.problems = sorted(dataset.problems + [Problem(shown(p.relpath), 0, 0, p.message, "layout") for p in tree.problems])
    return dataset


def load_files(root: Path, files: Iterable[SpecFile], shown: Callable[[str], str]) -> Dataset:
    """Validate records given as spec files: from a folder, or from a git revision."""
    dataset = Dataset(root=root, shown=shown)
    read: list[tuple[str, bytes]] = []
    for file in files:
        where = shown(file.relpath)
        if file.raw is None:
            dataset.problems.append(Problem(where, 0, 0, file.problem or "cannot read file", "unreadable"))
            dataset.unloaded.add(Path(file.relpath).stem)
            continue
        read.append((file.relpath, file.raw))
        located, yaml_problems = parse_yaml(file.raw)
        dataset.problems.extend(Problem(where, p.line, p.column, p.message, "yaml") for p in yaml_problems)
        if located is None or not _load_one(dataset, file.relpath, where, located):
            dataset.unloaded.add(Path(file.relpath).stem)
    dataset.content_hash = content_digest(read)
    _check_references(dataset)
    dataset.problems.sort()
    return dataset


def _shown(root: Path, relpath: str) -> str:
    """The file as the user would type it: relative to the working folder when inside it."""
    full = os.path.normpath(os.path.join(str(root), relpath))
    try:
        relative = os.path.relpath(full)
    except ValueError:
        return full
    return full if relative.startswith("..") else relative


def _load_one(dataset: Dataset, relpath: str, shown: str, located: Located) -> bool:
    """Validate one file's data and add its record; False when it is not a usable record under its file name."""
    data = located.data
    problems = dataset.problems
    if not isinstance(data, dict):
        problems.append(Problem(shown, *located.where(()), "a record file must be a mapping of keys", "yaml"))
        return False
    parts = relpath.split("/")
    if relpath == POLICY_FILE:
        model_type: type[Any] = KindPolicies
    elif len(parts) != 2 or parts[0] not in schema.KINDS:
        problems.append(Problem(shown, 0, 0, f"a record lives in specs/<kind>/<id>.yaml, with kind one of {', '.join(schema.KINDS)}", "layout"))
        return False
    else:
        model_type = SourceRecord if data.get("kind") == "source" else Record
    try:
        model = model_type.model_validate(data)
    except ValidationError as exc:
        problems.extend(_problems_from(exc, shown, located))
        return False
    if model_type is KindPolicies:
        dataset.policies = model
        return True
    folder, filename = parts
    if not filename.endswith(".yaml"):
        problems.append(Problem(shown, 0, 0, "record files end in .yaml", "layout"))
    matches_name = filename.rsplit(".", 1)[0] == model.id
    if not matches_name:
        problems.append(Problem(shown, *located.where(("id",)), f"id '{model.id}' does not match the file name '{filename}'", "layout"))
    if folder != model.kind:
        problems.append(Problem(shown, *located.where(("kind",)), f"kind '{model.kind}' does not match the folder '{folder}/'", "layout"))
    if isinstance(model, Record):
        problems.extend(Problem(shown, *located.where(path, key=len(path) == 2), message, "vocabulary") for path, message in _vocabulary_problems(model))
    if model.id in dataset.records:
        other = dataset.records[model.id].relpath
        problems.append(Problem(shown, *located.where(("id",)), f"id '{model.id}' is already used by {dataset.shown(other)}", "duplicate-id"))
        return True
    dataset.records[model.id] = LoadedRecord(model, relpath, located.pruned(_checked_across_records))
    return matches_name


def _vocabulary_problems(record: Record) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Each figure against its name's entry in the vocabulary: known, on this kind, of its dimension, counted as it must be.

    A path of two parts points at the figure's name, a longer one at one of its keys.
    """
    for name, figure in record.figures.items():
        base = ("figures", name)
        entry = vocabulary.lookup(name)
        if entry is None:
            yield base, f"figures: unknown figure name '{name}'{vocabulary.suggestion(name)}"
            continue
        if record.kind not in entry.kinds:
            yield base, f"figures.{name}: {record.kind} records cannot have this figure (it belongs to: {', '.join(entry.kinds)})"
        quantity = figure.value
        if quantity.dimension != entry.dimension:
            yield base + ("value",), f"figures.{name}: '{quantity.text}' is a {quantity.dimension}, but {name} is a {entry.dimension}"
            continue
        if entry.whole and quantity.value != int(quantity.value):
            yield base + ("value",), f"figures.{name}: '{quantity.text}' must be a whole number ({entry.description})"
        if entry.directions and figure.direction not in entry.directions:
            yield base + ("direction",), f"figures.{name}: direction '{figure.direction}' does not fit; {name} is counted {' or '.join(entry.directions)}"
        if entry.scope and figure.scope is not None and figure.scope != entry.scope:
            yield base + ("scope",), f"figures.{name}: scope '{figure.scope}' does not fit; {name} is {entry.scope}"


_CROSS_CHECKED_LAST = {"id", "kind", "ref", "reviewed", "product", "url"}
_CROSS_CHECKED_FIRST = {"aliases", "uses"}


def _checked_across_records(path: tuple[Any, ...]) -> bool:
    """Whether a position can appear in a problem found by checking records against each other."""
    return path[-1] in _CROSS_CHECKED_LAST or path[0] in _CROSS_CHECKED_FIRST or (len(path) > 1 and path[-2] == "product")


def _problems_from(exc: ValidationError, shown: str, located: Located) -> Iterator[Problem]:
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        kind = error["type"]
        # pydantic marks an invalid mapping key with a last element "[key]", unless the data really has a key of that name.
        if loc and loc[-1] == "[key]" and not _has_path(located.data, loc):
            path = loc[:-1]
            yield Problem(shown, *located.where(path, key=True), f"{_dotted(path[:-1])}: '{path[-1]}' is not an allowed name here", "invalid-value")
            continue
        if kind == "missing":
            yield Problem(shown, *located.where(loc[:-1]), f"missing key '{_dotted(loc)}'", "missing-key")
        elif kind == "extra_forbidden":
            yield Problem(shown, *located.where(loc, key=True), f"unknown key '{_dotted(loc)}'", "unknown-key")
        else:
            yield Problem(shown, *located.where(loc), f"{_dotted(loc) or 'record'}: {_message(error)}", "invalid-value")


def _has_path(data: Any, path: tuple[Any, ...]) -> bool:
    for part in path:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return False
    return True


def _dotted(loc: tuple[Any, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _message(error: Any) -> str:
    kind = error["type"]
    given = error.get("input")
    if kind == "literal_error":
        return f"'{given}' is not one of {error['ctx']['expected']}"
    if kind == "string_pattern_mismatch":
        return f"'{given}' has characters that are not allowed (lowercase letters, digits, '-' for ids; '_' for figure names)"
    if kind in ("dict_type", "model_type"):
        return "expected a mapping of keys"
    if kind == "list_type":
        return "expected a list"
    if kind == "string_type":
        return "expected text"
    if kind == "too_short":
        return "must not be empty"
    message = error["msg"]
    return message.removeprefix("Value error, ")


def _check_references(dataset: Dataset) -> None:
    sources = {rid for rid, loaded in dataset.records.items() if isinstance(loaded.model, SourceRecord)}
    alias_owner: dict[str, str] = {}
    for record_id in dataset.records:
        alias_owner[record_id.casefold()] = record_id
    excluded = dataset.policies.excluded_source_domains if dataset.policies else []
    for record_id, loaded in dataset.records.items():
        model = loaded.model
        if isinstance(model, SourceRecord):
            _check_source_domain(model, excluded, _reporter(dataset, loaded))
        if not isinstance(model, Record):
            continue
        report = _reporter(dataset, loaded)
        own: set[str] = set()
        for index, alias in enumerate(model.aliases):
            key = alias.casefold()
            owner = alias_owner.setdefault(key, record_id)
            if owner != record_id:
                report(("aliases", index), f"alias '{alias}' already names '{owner}'", "duplicate-alias")
            elif key in own:
                report(("aliases", index), f"alias '{alias}' is listed twice (aliases ignore case)", "duplicate-alias")
            own.add(key)
        for role, target in model.uses.items():
            target_loaded = dataset.records.get(target)
            if target_loaded is None and target not in dataset.unloaded:
                report(("uses", role), f"uses.{role}: no record '{target}'", "unknown-record")
            elif target_loaded is not None and target_loaded.model.kind != schema.ROLE_KINDS[role]:
                report(("uses", role), f"uses.{role}: '{target}' is a {target_loaded.model.kind}, not a {schema.ROLE_KINDS[role]}", "wrong-kind")
        for name, figure in model.figures.items():
            _check_figure(dataset, sources, report, record_id, name, figure)


def _check_source_domain(source: SourceRecord, excluded: list[str], report) -> None:
    host = (urlsplit(source.url).hostname or "") if source.url else ""
    for domain in excluded:
        if host == domain or host.endswith("." + domain):
            report(("url",), f"url: {host} is a mirror or content farm ({domain} is in excluded_source_domains of {POLICY_FILE}); cite the primary source it copies", "excluded-source")
            return


def _reporter(dataset: Dataset, loaded: LoadedRecord):
    shown = dataset.shown(loaded.relpath)

    def report(path: tuple[Any, ...], message: str, code: str) -> None:
        dataset.problems.append(Problem(shown, *loaded.located.where(path), message, code))

    return report


def _check_figure(dataset: Dataset, sources: set[str], report, record_id: str, name: str, figure: Figure) -> None:
    base = ("figures", name)
    citations = [(base + ("sources", i, "ref"), c.ref) for i, c in enumerate(figure.sources)]
    for kind, claims in (("history", figure.history), ("alternatives", figure.alternatives)):
        for i, claim in enumerate(claims):
            citations += [(base + (kind, i, "sources", j, "ref"), c.ref) for j, c in enumerate(claim.sources)]
    for path, ref in citations:
        if ref not in sources and ref not in dataset.unloaded:
            report(path, f"no source record '{ref}' (expected specs/source/{ref}.yaml)", "unknown-source")
    if figure.reviewed.day < figure.as_of.day:
        report(base + ("reviewed",), f"reviewed {figure.reviewed} is before as_of {figure.as_of}", "review-order")
    if figure.derived is not None:
        _check_derivation(dataset, report, record_id, name, figure)


def _check_derivation(dataset: Dataset, report, record_id: str, name: str, figure: Figure) -> None:
    derived = figure.derived
    assert derived is not None
    path = ("figures", name, "derived", "product")
    product = derived.factor
    for index, reference in enumerate(derived.product):
        other_record, _, other_name = reference.rpartition(".")
        part = dataset.figure(other_record or record_id, other_name)
        if part is None:
            if (other_record or record_id) not in dataset.unloaded:
                report(path + (index,), f"derived: no figure '{reference}'", "unknown-figure")
            return
        product *= part.value.value
    if not math.isclose(product, figure.value.value, rel_tol=DERIVED_TOLERANCE):
        parts = " x ".join(derived.product)
        report(path, f"derived: {parts} x {derived.factor:g} = {product:.6g}, but value is {figure.value.value:.6g} (more than {DERIVED_TOLERANCE:.0%} apart)", "derived-mismatch")
