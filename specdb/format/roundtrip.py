"""YAML files changed in place, keeping what a person wrote: comments, key order, quoting, flow or block style.

`specdb upgrade` rewrites records through it: renames, moves and splits
re-emit the document. Setting a value in place, with every other byte kept,
is `format.yamledit`'s, which rewrites no more than the value's own
characters. ruamel.yaml reads a file into mappings that remember their
layout; it is imported here only, so a read never loads it.
"""

from __future__ import annotations

import io
from typing import Any

from specdb.errors import UsageError


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never fold a long line a person wrote on one
    # The spec files' own layout: mappings by two spaces, a list's dash two spaces in under its key.
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.brace_single_entry_mapping_in_flow_sequence = True
    yaml.representer.add_representer(type(None), lambda representer, _: representer.represent_scalar("tag:yaml.org,2002:null", "null"))
    return yaml


def load(text: str, shown: str) -> Any:
    """The document as mappings and lists that remember their layout; a UsageError naming shown, line and column when it is not YAML."""
    from ruamel.yaml import YAMLError

    try:
        return _yaml().load(text)
    except YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        where = f"{shown}:{mark.line + 1}:{mark.column + 1}" if mark is not None else shown
        raise UsageError(f"{where}: YAML syntax: {getattr(error, 'problem', None) or error}") from None


def dump(data: Any) -> str:
    """The document as text, laid out as it was read, with what changed in the style around it."""
    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()

