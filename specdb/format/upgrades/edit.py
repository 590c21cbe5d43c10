"""Changes a format step makes to a record, the same on a plain dict and on a round-trip mapping, keeping its layout.

A round-trip mapping (`format.roundtrip`) has `insert` and keeps each key's
comments in `ca.items`; a key renamed keeps its place and its comments, and a
text replaced keeps the quoting it was written with. Nothing here imports the
round-trip library: a read never needs it.
"""

from __future__ import annotations

from typing import Any, MutableMapping


def rename_key(mapping: MutableMapping[str, Any], old: str, new: str) -> None:
    """Give the key `old` the name `new`, in its place among the others."""
    keys = list(mapping)
    position = keys.index(old)
    value = mapping.pop(old)
    insert = getattr(mapping, "insert", None)
    if insert is not None:
        comments = mapping.ca.items.pop(old, None)  # type: ignore[attr-defined]
        insert(position, new, value)
        if comments is not None:
            mapping.ca.items[new] = comments  # type: ignore[attr-defined]
        return
    following = [(key, mapping.pop(key)) for key in keys[position + 1:]]
    mapping[new] = value
    mapping.update(following)


def replace_text(mapping: MutableMapping[str, Any], key: str, text: str) -> None:
    """Set a text value, quoted as the one it replaces was (a round-trip string's type says how)."""
    old = mapping[key]
    mapping[key] = type(old)(text) if isinstance(old, str) else text


def replace_number(mapping: MutableMapping[str, Any], key: str, number: int) -> None:
    """Set a whole number, written as the value it replaces was: a plain reading holds text, a round-trip one a number
    (or a text in its quoting, when the number was quoted)."""
    old = mapping[key]
    mapping[key] = type(old)(str(number)) if isinstance(old, str) else number


def new_like(mapping: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """An empty mapping of the same kind, so a record split off a round-trip one is written in block style."""
    return type(mapping)()


def text_of(value: Any) -> str | None:
    """A scalar as text: a round-trip reading gives numbers and dates for what a plain reading keeps as written."""
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return None
    return str(value)
