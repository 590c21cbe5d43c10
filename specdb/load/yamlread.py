"""Read one YAML file into plain dicts, lists and strings, remembering where each came from.

PyYAML's constructors are never run: scalars stay the text that was written
(so `NO`, `4.0` and `2026-07-01` are strings for the schema to parse), duplicate
keys, anchors/aliases, tags and non-UTF-8 bytes are reported with their line
and column instead of being silently accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from specdb.load.files import MAX_FILE_BYTES, too_large
from specdb.textfile import line_and_column, undecodable

try:
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # libyaml missing: the pure-Python loader reads the same documents
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]


# Tags of this loader's own: the composer asks `resolve` only for nodes written without a tag,
# so a node carrying any other tag (`!!str` included) was tagged in the file.
_UNTAGGED = {yaml.ScalarNode: "specdb:scalar", yaml.SequenceNode: "specdb:sequence", yaml.MappingNode: "specdb:mapping"}
_PLAIN_TAGS = set(_UNTAGGED.values())


class _Loader(_SafeLoader):  # type: ignore[misc, valid-type]
    """Composes without guessing types: every untagged node gets a tag of specdb's own, so written tags stand out."""

    yaml_implicit_resolvers: dict = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        return _UNTAGGED[kind]

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        return None

    def ascend_resolver(self) -> None:
        return None

MAX_DEPTH = 32
_NULLS = {"", "~", "null", "Null", "NULL"}
_BRACKETS = re.compile(r"[\[\]{}]")
# Block nesting shows as indentation or as "- - -" / "? ? ?" on one line.
_DEEP_BLOCK = re.compile(r"^(?: {%d,}|(?:[-?:] +){%d,})" % (MAX_DEPTH * 2, MAX_DEPTH), re.MULTILINE)

Path_ = tuple[str | int, ...]


@dataclass
class Located:
    """A document's plain data, with the (line, column) of every value and every mapping key."""

    data: Any
    values: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    # The file's bytes while the positions are not yet taken: most files have no problem, so they are taken on the first question.
    unlocated: bytes | None = None

    def where(self, path: Path_, *, key: bool = False) -> tuple[int, int]:
        """The closest known position for path: the key itself when asked, else its value."""
        if self.unlocated is not None:
            located, _ = parse_yaml(self.unlocated)
            assert located is not None, "a document that composed once composes again"
            self.values, self.keys, self.unlocated = located.values, located.keys, None
        if key and path in self.keys:
            return self.keys[path]
        while path:
            if path in self.values:
                return self.values[path]
            path = path[:-1]
        return self.values.get((), (1, 1))


class YamlProblem(Exception):
    """A problem with a file's text; line and column 0 when it concerns the whole file."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def _position(mark: Any) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


def parse_yaml(raw: bytes, *, positions: bool = True, last_duplicate_wins: bool = False) -> tuple[Located | None, list[YamlProblem]]:
    """The document's plain data and where each part is, or the problems that stop it being read.

    Without `positions` only problems are located now; the rest is located
    on the first question to `Located.where`. With `last_duplicate_wins`, a key
    written twice in a mapping takes its last value, as PyYAML reads it, for
    files of other projects that their own loader reads so.
    """
    if len(raw) > MAX_FILE_BYTES:
        return None, [YamlProblem(too_large(len(raw)))]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [YamlProblem(*undecodable(raw, exc))]
    if text.startswith("\ufeff"):
        text = text[1:]
        raw = raw[3:]
    depth_problem = _nesting_problem(text)
    if depth_problem:
        return None, [depth_problem]
    try:
        try:
            # The checked UTF-8 bytes, not the text: libyaml composes them faster, with the same positions.
            root = _compose(raw if _Loader is not yaml.SafeLoader else text)
        except yaml.reader.ReaderError:
            # Counted in characters, as the message promises, not in bytes.
            root = _compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = _position(mark) if mark else (1, 1)
        return None, [YamlProblem(f"YAML syntax: {exc.problem or exc.context}", line, column)]
    except yaml.reader.ReaderError as exc:
        return None, [YamlProblem(f"character {_codepoint(exc.character)} is not allowed in YAML", *line_and_column(text, exc.position))]
    except yaml.YAMLError as exc:
        return None, [YamlProblem(f"YAML error: {exc}")]
    if root is None:
        return None, [YamlProblem("file is empty; a record is a mapping of keys")]
    located = Located(data=None)
    problems: list[YamlProblem] = []
    # A node met twice is an alias, and an alias needs an anchor: without an '&' in the file there is nothing to track.
    seen: set[int] | None = set() if b"&" in raw else None
    located.data = _plain(root, (), located if positions else None, problems, seen, last_duplicate_wins)
    if not positions:
        located.unlocated = raw
    if any(p.message.startswith("anchors and aliases") for p in problems):
        problems = [p for p in problems if not p.message.startswith("anchors and aliases")]
        problems.extend(_alias_positions(text))
    return (located if not problems else None), problems


def _compose(source: bytes | str) -> Any:
    loader = _Loader(source)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def _codepoint(character: Any) -> str:
    code = ord(character) if isinstance(character, str) else int(character)
    return f"U+{code:04X}"


def _nesting_problem(text: str) -> YamlProblem | None:
    """Refuse absurd nesting before the composer recurses into it."""
    # Flow nesting goes no deeper than the file has opening brackets, which str.count finds without a Python loop.
    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth = 0
        for match in _BRACKETS.finditer(text):
            if match.group() in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    return YamlProblem(f"nesting deeper than {MAX_DEPTH} levels", *line_and_column(text, match.start()))
            elif depth:
                depth -= 1
    for match in _DEEP_BLOCK.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        return YamlProblem(f"nesting deeper than {MAX_DEPTH} levels", line, 1)
    return None


def _plain(node: Any, path: Path_, located: Located | None, problems: list[YamlProblem], seen: set[int] | None,
           last_duplicate_wins: bool = False) -> Any:
    """The node as plain data; with `located`, every value's and key's position is recorded in it."""
    if located is not None:
        located.values[path] = _position(node.start_mark)
    if seen is not None:
        if id(node) in seen:
            problems.append(YamlProblem("anchors and aliases are not allowed", *_position(node.start_mark)))
            return None
        seen.add(id(node))
    if node.tag not in _PLAIN_TAGS:
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        problems.append(YamlProblem(f"tag '{tag}' is not allowed: specdb reads every value as written", *_position(node.start_mark)))
        return None
    if isinstance(node, yaml.ScalarNode):
        return None if not node.style and node.value in _NULLS else node.value
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item, path + (index,), located, problems, seen, last_duplicate_wins) for index, item in enumerate(node.value)]
    mapping: dict[str, Any] = {}
    key_nodes: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _PLAIN_TAGS:
            problems.append(YamlProblem("a key must be plain text", *_position(key_node.start_mark)))
            continue
        if not key_node.style and key_node.value == "<<":
            problems.append(YamlProblem("merge keys (<<) are not allowed", *_position(key_node.start_mark)))
            continue
        key = key_node.value
        if key in key_nodes and not last_duplicate_wins:
            first = _position(key_nodes[key].start_mark)
            problems.append(YamlProblem(f"duplicate key '{key}' (first at line {first[0]})", *_position(key_node.start_mark)))
            continue
        key_nodes[key] = key_node
        if located is not None:
            located.keys[path + (key,)] = _position(key_node.start_mark)
        mapping[key] = _plain(value_node, path + (key,), located, problems, seen, last_duplicate_wins)
    return mapping


def _alias_positions(text: str) -> list[YamlProblem]:
    """Point at each alias, which the composed graph no longer shows."""
    problems = []
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent):
            problems.append(YamlProblem(f"anchors and aliases are not allowed (alias *{event.anchor})", *_position(event.start_mark)))
            if len(problems) >= 20:
                break
    return problems
