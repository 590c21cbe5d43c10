"""Setting values in a YAML file while keeping every other byte: comments, quoting, key order, indentation, folded text.

The file is composed (PyYAML's composer, which gives each node's start and
end in the text) and each edit replaces the characters of one scalar value,
or inserts one `key: value` line after a sibling key, at that key's
indentation. Nothing is re-emitted, so the file differs from its original
exactly in the lines an edit touches.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

import yaml

Key = str | int
# Written plain: dates and fingerprints, which no YAML reader takes for anything else (unlike `null`, `yes` or `1e3`).
_PLAIN = re.compile(r"\d{4}-\d{2}(-\d{2})?|sha256:[0-9a-f]{64}")
_TRAILING_BREAKS = re.compile(r"\n[ \t\n]*\Z")


class Edit(NamedTuple):
    """Set the scalar at `path` (mapping keys and sequence positions) to `value`. When its last key is absent, the line is
    inserted after the first of the keys in `after` that its mapping has on a single line."""

    path: tuple[Key, ...]
    value: str
    after: tuple[str, ...] = ()


class EditError(ValueError):
    """An edit the file's shape does not allow (a missing mapping, a flow-style mapping to insert into, no place for a new key)."""


def edited(text: str, edits: list[Edit]) -> str:
    for edit in edits:
        text = _apply(text, edit)
    return text


def _apply(text: str, edit: Edit) -> str:
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    *parents, last = edit.path
    for key in parents:
        node = _child(node, key, edit.path)
    if not isinstance(node, yaml.MappingNode):
        raise EditError(f"{'.'.join(map(str, edit.path[:-1]))} is not a mapping")
    for key_node, value_node in node.value:
        if key_node.value == last:
            if not isinstance(value_node, yaml.ScalarNode):
                raise EditError(f"{'.'.join(map(str, edit.path))} is not a single value")
            start, end = value_node.start_mark.index, value_node.end_mark.index
            breaks = _TRAILING_BREAKS.search(text[start:end]) if value_node.style in ("|", ">") else None
            return text[:start] + render(edit.value) + (breaks.group() if breaks else "") + text[end:]
    if node.flow_style:
        raise EditError(f"{'.'.join(map(str, edit.path[:-1]))} is written on one line ({{...}}); cannot add '{last}' to it")
    siblings = {key_node.value: (key_node, value_node) for key_node, value_node in node.value}
    for anchor in edit.after:
        if anchor in siblings:
            key_node, value_node = siblings[anchor]
            if value_node.start_mark.line == value_node.end_mark.line and isinstance(value_node, yaml.ScalarNode):
                line_end = text.find("\n", value_node.end_mark.index)
                line_end = len(text) if line_end < 0 else line_end
                line = f"\n{' ' * key_node.start_mark.column}{last}: {render(edit.value)}"
                return text[:line_end] + line + text[line_end:]
    raise EditError(f"no place for '{last}' in {'.'.join(map(str, edit.path[:-1])) or 'the file'}: none of {', '.join(edit.after)} is on one line")


def _child(node, key: Key, path: tuple[Key, ...]):
    if isinstance(key, int) and isinstance(node, yaml.SequenceNode) and 0 <= key < len(node.value):
        return node.value[key]
    if isinstance(key, str) and isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if key_node.value == key:
                return value_node
    raise EditError(f"no {'.'.join(map(str, path[:path.index(key) + 1]))} in the file")


def render(value: str) -> str:
    """A value as a scalar: plain when it is a date or a fingerprint, else double-quoted (JSON's escapes are YAML's)."""
    return value if _PLAIN.fullmatch(value) else json.dumps(value, ensure_ascii=False)
