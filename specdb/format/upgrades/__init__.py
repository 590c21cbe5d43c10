"""Record formats and the conversions between them: a file in an older format is read as the current format says.

Every file names its format in its `schema` key. Each step from one format to
the next is a module of its own (`f1_to_f2`), applied in turn on read, so a
reader only ever meets records of the current format, whatever a file or a
past git revision says. `specdb upgrade` applies the same steps to the files
themselves (`load.upgrade`, through `format.roundtrip`, which keeps their
layout).

A step works on the record as a mapping: the plain dicts `load.yamlread`
gives, or the round-trip mappings of `format.roundtrip`, whose key order,
comments and quoting it keeps (see `edit`). It may split a record in two: the
records split off are returned, each with the path where `specdb upgrade`
writes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, MutableMapping

from specdb.format.upgrades import f1_to_f2

CURRENT_FORMAT = 2
# From each older format, the step to the next one.
STEPS: dict[int, Callable[[MutableMapping[str, Any], str], list[tuple[str, MutableMapping[str, Any]]]]] = {
    1: f1_to_f2.upgrade,
}
FORMAT_KEY = "schema"


@dataclass
class Upgraded:
    """A record as the current format has it, the format its file was written in, and the records split off it on the way."""

    data: Any
    written_in: int | None
    split: list[tuple[str, MutableMapping[str, Any]]] = field(default_factory=list)

    @property
    def converted(self) -> bool:
        return self.written_in is not None and self.written_in < CURRENT_FORMAT


def format_of(data: Any) -> int | None:
    """The format a record's data says it is in: None when it names none this specdb knows (validation says so)."""
    if not isinstance(data, dict):
        return None
    written = data.get(FORMAT_KEY)
    text = str(written).strip() if isinstance(written, (str, int)) and not isinstance(written, bool) else ""
    return int(text) if text.isdigit() and 1 <= int(text) <= CURRENT_FORMAT else None


def upgraded(data: Any, relpath: str) -> Upgraded:
    """The record's data in the current format, changed in place; data in the current format, or in none known, is left as it is.

    `relpath` is the file's path under the specs folder (`link/nvlink-3.yaml`).
    """
    written_in = format_of(data)
    result = Upgraded(data, written_in)
    if written_in is None:
        return result
    for step_from in range(written_in, CURRENT_FORMAT):
        split = STEPS[step_from](data, relpath)
        for _, record in result.split:
            STEPS[step_from](record, relpath)
        result.split.extend(split)
    return result
