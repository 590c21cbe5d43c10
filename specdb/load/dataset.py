"""Load a specs folder: read every file, validate each record, then check the records against each other.

`load_specs` never raises on bad input: everything wrong is a `Problem` with
the file, line and column, and all of them are reported in one pass, not only
the first: a record that fails validation still has its references to other
records checked, as far as its text allows.

The records are validated one at a time, in the order of their ids, and what
checking them against each other needs is kept apart from them, in a
temporary file (`links.LinkTable`), so a build can hand each valid record on
to be written and keep nothing of it in memory.
"""

from __future__ import annotations

import math
import os
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

from pydantic import ValidationError

from specdb.format import schema

from specdb.format import upgrades, vocabulary
from specdb.load.links import Links, LinkTable, SourceLinks
from specdb.names import is_look_alike, name_key, normal
from specdb.progress import FilesDone
from specdb.format.schema import Figure, KindPolicies, Record, SourceRecord
from specdb.load.files import FolderFiles, SpecSource, Stamp, Tree, read_specs
from specdb.format.units import binary_reading, decimal_prefixed
from specdb.load.yamlread import Located, Path_, parse_yaml

POLICY_FILE = "policy.yaml"
# The kinds of problem `validate` reports, each a `code` in its JSON output.
PROBLEM_CODES = (
    "unreadable", "layout", "yaml", "missing-key", "unknown-key", "invalid-value", "vocabulary", "duplicate-id",
    "duplicate-alias", "unknown-record", "wrong-kind", "unknown-source", "unknown-figure", "review-order", "derived-mismatch",
    "excluded-source", "more-problems",
)
DERIVED_TOLERANCE = 0.02
# Problems listed for one file; past them, one problem of code "more-problems" says how many more there are.
MAX_PROBLEMS_PER_FILE = 100


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


# Hands each valid record, in the order of ids, to be written; the policy file comes first.
RecordWriter = Callable[[Record | SourceRecord, str, KindPolicies | None], None]


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
    # Every valid record's links by id, and the links of records that failed validation, by the id they claim.
    links: LinkTable = field(default_factory=LinkTable, repr=False)
    unvalidated: list[tuple[str, Links]] = field(default_factory=list)
    # Where the files came from: a problem found once its record is no longer held is located in its file read again.
    files: SpecSource | None = field(default=None, repr=False)
    record_count: int = 0
    source_count: int = 0
    figure_count: int = 0
    # Problems found but not listed, by file shown: past MAX_PROBLEMS_PER_FILE a file.
    left_out: dict[str, int] = field(default_factory=dict)
    # The files read through a conversion from an older record format (as shown), which `specdb upgrade` rewrites.
    converted: list[str] = field(default_factory=list)
    # Records an older format kept inside another record's file: the path each is read as, and the file it is in.
    split_from: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def problem_count(self) -> int:
        """Every problem found, listed or left out."""
        return sum(1 for problem in self.problems if problem.code != "more-problems") + sum(self.left_out.values())


def load_specs(root: Path) -> Dataset:
    """Read and validate every record under root; a folder, link or file that cannot be read is a problem too."""
    return load_tree(Path(root), *read_specs(Path(root)))


def load_tree(root: Path, tree: Tree, files: FolderFiles, write: RecordWriter | None = None, *, progress: FilesDone | None = None) -> Dataset:
    """Validate the files found by `read_specs`; with `write`, each valid record is written (while all so far are valid) instead of kept."""

    shown = _shown_under(root)
    layout = [Problem(shown(p.relpath), 0, 0, p.message, "layout") for p in tree.problems]
    dataset = load_files(root, files, shown, write=None if layout else write, progress=progress)
    dataset.stamp = files.stamp()
    dataset.problems += layout
    _settle(dataset)
    return dataset


def load_files(
    root: Path,
    files: SpecSource,
    shown: Callable[[str], str],
    write: RecordWriter | None = None,
    *,
    across_records: bool = True,
    progress: FilesDone | None = None,
) -> Dataset:
    """Validate records given as spec files: from a folder, or from a git revision; each file is read as its turn comes.

    Without `write` every valid record is kept in `records`; with it, each is
    handed to `write` while no problem has been found, and only its links are kept.
    Without `across_records`, each file is validated on its own: for some files of a version known to be valid as a whole.
    `progress` is told the files validated so far and the files in all, after each file.
    """
    dataset = Dataset(root=root, shown=shown, files=files)
    total = len(files.relpaths)
    for done, relpath in enumerate(_in_load_order(files.relpaths), 1):
        if progress is not None and done > 1:
            progress(done - 1, total)
        file = files.read(relpath)
        where = shown(file.relpath)
        if file.raw is None:
            dataset.problems.append(Problem(where, 0, 0, file.problem or "cannot read file", "unreadable"))
            dataset.unloaded.add(_stem(file.relpath))
            continue
        located, yaml_problems = parse_yaml(file.raw, positions=False)
        dataset.problems.extend(Problem(where, p.line, p.column, p.message, "yaml") for p in yaml_problems)
        if located is None:
            dataset.unloaded.add(_stem(file.relpath))
            continue
        upgraded = upgrades.upgraded(located.data, file.relpath)
        if upgraded.converted:
            dataset.converted.append(where)
        if not _load_one(dataset, file.relpath, where, located, write):
            dataset.unloaded.add(_stem(file.relpath))
        for relpath, data in upgraded.split:
            dataset.split_from[relpath] = file.relpath
            if not _load_one(dataset, relpath, where, Located(data), write, written_in=file.relpath):
                dataset.unloaded.add(_stem(relpath))
    if progress is not None and total:
        progress(total, total)
    dataset.content_hash = files.content_hash()
    if across_records:
        _check_references(dataset)
    _settle(dataset)
    return dataset


def _in_load_order(relpaths: list[str]) -> list[str]:
    """The policy file first (every figure's review policy may come from it), then records in the order of their ids.

    An id is its file's name without the suffix, and files of one name keep the order of their paths: `relpaths` are
    sorted, and so is what a stable sort by name leaves, with no key but the name held for each file.
    """
    records = sorted((relpath for relpath in relpaths if relpath != POLICY_FILE), key=_stem)
    return [POLICY_FILE, *records] if len(records) < len(relpaths) else records


def _stem(relpath: str) -> str:
    return os.path.splitext(relpath.rpartition("/")[2])[0]


def _shown_under(root: Path) -> Callable[[str], str]:
    """How a file under root is named to the user: relative to the working folder when inside it.

    Where the working folder is not inside root, the folder is placed once rather than each file (a relative path
    costs a look at the working folder): every file is inside the working folder, or none is.
    """
    full_root = os.path.normpath(str(root))
    try:
        relative_root = os.path.relpath(full_root)
    except ValueError:  # another drive
        relative_root = full_root
    if all(part == ".." for part in relative_root.split(os.sep)):
        return lambda relpath: _shown(full_root, relpath)
    base = full_root if relative_root.startswith("..") or os.path.isabs(relative_root) else relative_root
    return lambda relpath: os.path.normpath(os.path.join(base, relpath))


def _shown(root: str, relpath: str) -> str:
    full = os.path.normpath(os.path.join(root, relpath))
    relative = os.path.relpath(full)
    return full if relative.startswith("..") else relative


def _load_one(dataset: Dataset, relpath: str, shown: str, located: Located, write: RecordWriter | None, *, written_in: str | None = None) -> bool:
    """Validate one file's data and add its record; False when it is not a usable record under its file name.

    A record split off another by a format conversion is read as `relpath`, where `specdb upgrade` writes it; its
    problems are found in the file it is `written_in`.
    """
    in_file = written_in or relpath
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
        problems.extend(_problems_from(exc, shown, located, dataset.left_out))
        if model_type is not KindPolicies:
            claimed = data.get("id")
            record_id = claimed if isinstance(claimed, str) else _stem(relpath)
            dataset.unvalidated.append((record_id, _unvalidated_links(data, in_file)))
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
    if isinstance(model, SourceRecord) and dataset.policies is not None:
        # The policy file is read first, so a source's domain is checked now and its url need not be kept.
        _check_source_domain(model.url, dataset.policies.excluded_source_domains, lambda path, message, code: problems.append(Problem(shown, *located.where(path), message, code)))
    if isinstance(model, Record):
        problems.extend(Problem(shown, *located.where(path, key=len(path) == 2), message, "vocabulary") for path, message in _vocabulary_problems(model))
        problems.extend(Problem(shown, *located.where(path), message, "review-order") for path, message in _review_order_problems(model))
    other = dataset.links.get(model.id)
    if other is not None:
        problems.append(Problem(shown, *located.where(("id",)), f"id '{model.id}' is already used by {dataset.shown(other.relpath)}", "duplicate-id"))
        return True
    dataset.links.add(model.id, _links(model, in_file))
    if isinstance(model, SourceRecord):
        dataset.source_count += 1
    else:
        dataset.record_count += 1
        dataset.figure_count += len(model.figures)
    if write is None:
        dataset.records[model.id] = LoadedRecord(model, relpath)
    elif not problems:
        write(model, relpath, dataset.policies)
    return matches_name


def _links(model: Record | SourceRecord, relpath: str) -> Links | SourceLinks:
    if isinstance(model, SourceRecord):
        return SourceLinks(relpath)
    refs: dict[str, None] = {}
    derivations = []
    values = array("d")
    for name, figure in model.figures.items():
        for citation in figure.sources:
            refs[citation.ref] = None
        for claim in (*figure.history, *figure.alternatives):
            for citation in claim.sources:
                refs[citation.ref] = None
        if figure.derived is not None:
            derivations.append((name, tuple(figure.derived.product), figure.derived.factor))
        values.append(figure.value.value)
    for seen in (*model.runtime_names, *model.pci_ids):
        refs[seen.ref] = None
    uses = tuple(model.uses.items())
    return Links(relpath, model.kind, tuple(model.aliases), uses, tuple(refs), tuple(derivations), tuple(model.figures), values)


def _unvalidated_links(data: dict[str, Any], relpath: str) -> Links:
    """The references of a record that failed validation, as far as its text allows, so they are checked in the same pass.

    Its citations are those written as text; a figure that validates on its
    own gives its value and derivation. Its kind is left blank: it is not
    among the records others may use, so nothing asks for it.
    """
    uses = data.get("uses")
    figures = data.get("figures")
    derivations = []
    names, values = [], array("d")
    for name, body in (figures.items() if isinstance(figures, dict) else ()):
        try:
            figure = Figure.model_validate(body)
        except ValidationError:
            continue
        if figure.derived is not None:
            derivations.append((name, tuple(figure.derived.product), figure.derived.factor))
        names.append(name)
        values.append(figure.value.value)
    written_uses = tuple((role, target) for role, target in uses.items() if role in schema.ROLE_KINDS and isinstance(target, str)) if isinstance(uses, dict) else ()
    refs = tuple({ref: None for _, ref in _written_citations(data)})
    return Links(relpath, "", (), written_uses, refs, tuple(derivations), tuple(names), values)


def _written_citations(data: dict[str, Any]) -> Iterator[tuple[Path_, str]]:
    """Where each citation of a record's figures and runtime names is, and the `ref` it gives, for every citation written as text."""
    for key in ("runtime_names", "pci_ids"):
        seen = data.get(key)
        for i, entry in enumerate(seen if isinstance(seen, list) else ()):
            if isinstance(entry, dict) and isinstance(entry.get("ref"), str):
                yield (key, i, "ref"), entry["ref"]
    figures = data.get("figures")
    for name, body in (figures.items() if isinstance(figures, dict) else ()):
        if not isinstance(body, dict):
            continue
        base = ("figures", name)
        lists = [(base + ("sources",), body.get("sources"))]
        for kind in ("history", "alternatives"):
            claims = body.get(kind)
            if isinstance(claims, list):
                lists += [(base + (kind, i, "sources"), claim.get("sources")) for i, claim in enumerate(claims) if isinstance(claim, dict)]
        for path, citations in lists:
            for j, citation in enumerate(citations if isinstance(citations, list) else ()):
                if isinstance(citation, dict) and isinstance(citation.get("ref"), str):
                    yield path + (j, "ref"), citation["ref"]


def _review_order_problems(record: Record) -> Iterator[tuple[Path_, str]]:
    for name, figure in record.figures.items():
        if figure.reviewed.day < figure.as_of.day:
            yield ("figures", name, "reviewed"), f"reviewed {figure.reviewed} is before as_of {figure.as_of}"


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
        if entry.binary:
            claims = [(base, figure.value), *((base + ("alternatives", i), alternative.value) for i, alternative in enumerate(figure.alternatives))]
            for path, value in claims:
                if decimal_prefixed(value):
                    yield path + ("value",), (
                        f"{_dotted(path)}: '{value.text}' is counted in decimal units, but DRAM is built in powers of two, so a vendor's"
                        f" '{value.text}' of it is {binary_reading(value)}: write that, and keep the vendor's words in the quote"
                    )


def _problems_from(exc: ValidationError, shown: str, located: Located, left_out: dict[str, int]) -> Iterator[Problem]:
    """The validation errors as problems: no more than a file lists, the rest counted in `left_out`, never located."""
    errors = exc.errors(include_url=False)
    if len(errors) > MAX_PROBLEMS_PER_FILE:
        left_out[shown] = left_out.get(shown, 0) + len(errors) - MAX_PROBLEMS_PER_FILE
    for error in errors[:MAX_PROBLEMS_PER_FILE]:
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


def check_references(dataset: Dataset) -> None:
    """The checks across records on every record in `dataset.links`, some of which may have been validated before, on their own."""
    _check_references(dataset)
    _settle(dataset)


def _settle(dataset: Dataset) -> None:
    """Sort the problems and list at most MAX_PROBLEMS_PER_FILE of each file, with one more saying how many are left out."""
    listed: list[Problem] = []
    per_file: dict[str, int] = {}
    for problem in sorted(problem for problem in dataset.problems if problem.code != "more-problems"):
        per_file[problem.path] = per_file.get(problem.path, 0) + 1
        if per_file[problem.path] <= MAX_PROBLEMS_PER_FILE:
            listed.append(problem)
        else:
            dataset.left_out[problem.path] = dataset.left_out.get(problem.path, 0) + 1
    listed += [Problem(path, 0, 0, f"... and {count:,} more problems in this file (at most {MAX_PROBLEMS_PER_FILE} are listed per file)",
                       "more-problems") for path, count in dataset.left_out.items()]
    dataset.problems = sorted(listed)


def _check_references(dataset: Dataset) -> None:
    claimed = dataset.links.claimed_aliases()
    for record_id, links in dataset.links.records_in_file_order():
        report = _Reporter(dataset, links)
        own: set[str] = set()
        for index, alias in enumerate(links.aliases):
            key = name_key(alias)
            owner = claimed.get((record_id, index))
            if owner is not None and is_look_alike(alias):
                report(("aliases", index), f"alias '{alias}' is a look-alike of '{normal(alias)}', which names '{owner}'", "duplicate-alias")
            elif owner is not None:
                report(("aliases", index), f"alias '{alias}' already names '{owner}'", "duplicate-alias")
            elif key in own:
                report(("aliases", index), f"alias '{alias}' is listed twice (aliases ignore case and look-alike forms)", "duplicate-alias")
            own.add(key)
        _check_outgoing(dataset, report, record_id, links)
    for record_id, links in dataset.unvalidated:
        _check_outgoing(dataset, _Reporter(dataset, links), record_id, links)


def _is_source(dataset: Dataset, record_id: str) -> bool:
    return dataset.links.kind_of(record_id) == "source"


def _check_outgoing(dataset: Dataset, report, record_id: str, links: Links) -> None:
    """A record's references to others: the records it uses, the sources it cites, the figures its derived figures multiply."""
    for role, target in links.uses:
        target_kind = dataset.links.kind_of(target)
        if target_kind is None and target not in dataset.unloaded:
            report(("uses", role), f"uses.{role}: no record '{target}'", "unknown-record")
        elif target_kind is not None and target_kind != schema.ROLE_KINDS[role]:
            report(("uses", role), f"uses.{role}: '{target}' is a {target_kind}, not a {schema.ROLE_KINDS[role]}", "wrong-kind")
    unknown = {ref for ref in links.refs if not _is_source(dataset, ref) and ref not in dataset.unloaded}
    if unknown:
        located = report.located
        written = _written_citations(located.data) if located is not None else [((), ref) for ref in sorted(unknown)]
        for path, ref in written:
            if ref in unknown:
                report(path, f"no source record '{ref}' (expected specs/source/{ref}.yaml)", "unknown-source")
    for name, product_names, factor in links.derivations:
        _check_derivation(dataset, report, record_id, links, name, product_names, factor)


def _check_source_domain(url: str | None, excluded: list[str], report) -> None:
    host = (urlsplit(url).hostname or "") if url else ""
    for domain in excluded:
        if host == domain or host.endswith("." + domain):
            report(("url",), f"url: {host} is a mirror or content farm ({domain} is in excluded_source_domains of {POLICY_FILE}); cite the primary source it copies", "excluded-source")
            return


class _Reporter:
    """Adds a record's problems, located in its file, which is read and parsed again on the first one.

    A file whose bytes changed since they were validated cannot place them: they are reported on the whole file.
    """

    def __init__(self, dataset: Dataset, links: Links) -> None:
        self.dataset = dataset
        self.relpath = links.relpath
        self._parsed = False
        self._located: Located | None = None

    @property
    def located(self) -> Located | None:
        if not self._parsed:
            self._parsed = True
            raw = self.dataset.files.again(self.relpath) if self.dataset.files is not None else None
            self._located = parse_yaml(raw)[0] if raw is not None else None
        return self._located

    def __call__(self, path: tuple[Any, ...], message: str, code: str) -> None:
        located = self.located
        where = located.where(path) if located is not None else (0, 0)
        self.dataset.problems.append(Problem(self.dataset.shown(self.relpath), *where, message, code))


def _check_derivation(dataset: Dataset, report, record_id: str, links: Links, name: str, product_names: tuple[str, ...], factor: float) -> None:
    value = links.value(name)
    path = ("figures", name, "derived", "product")
    product = factor
    for index, reference in enumerate(product_names):
        other_record, _, other_name = reference.rpartition(".")
        target = dataset.links.get(other_record) if other_record else links
        part = target.value(other_name) if target is not None else None
        if part is None:
            if (other_record or record_id) not in dataset.unloaded:
                report(path + (index,), f"derived: no figure '{reference}'", "unknown-figure")
            return
        product *= part
    if not math.isclose(product, value, rel_tol=DERIVED_TOLERANCE):
        parts = " x ".join(product_names)
        report(path, f"derived: {parts} x {factor:g} = {product:.6g}, but value is {value:.6g} (more than {DERIVED_TOLERANCE:.0%} apart)", "derived-mismatch")
