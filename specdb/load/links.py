"""What the checks across records keep of each record, by id: kept in a temporary SQLite file, not in memory.

Records are validated one at a time and let go; what checking them against
each other needs (where each is, its kind, aliases, the records it uses, the
sources it cites, its figures' values and derivations) is all that is kept of
them. Held as Python objects it grew a build's memory by about half a kilobyte
a figure; as rows in a file whose pages SQLite caches up to a bound, it costs
next to nothing however many records there are.
"""

from __future__ import annotations

import marshal
import sqlite3
from array import array
from dataclasses import dataclass
from typing import Iterator, Sequence

from specdb.errors import DatabaseError
from specdb.names import is_look_alike, name_key

_SCHEMA = """
CREATE TABLE links (id TEXT PRIMARY KEY, relpath TEXT NOT NULL, kind TEXT NOT NULL, detail BLOB);
CREATE TABLE alias (key TEXT NOT NULL, record_id TEXT NOT NULL, position INTEGER NOT NULL, look_alike INTEGER NOT NULL);
"""
# Each alias another record holds: one whose folded text is a record's id names that record; otherwise the first
# record to list it written plainly (not as a look-alike, such as fullwidth 'Ｂ200' for 'B200'), in the order of files, keeps it.
_CLAIMED = """
SELECT record_id, position, owner FROM (
    SELECT a.record_id, a.position,
           COALESCE((SELECT id FROM links WHERE id = a.key),
                    first_value(a.record_id) OVER (PARTITION BY a.key ORDER BY a.look_alike, l.relpath, a.position)) AS owner
    FROM alias a JOIN links l ON l.id = a.record_id
) WHERE owner <> record_id
"""


@dataclass(slots=True)
class Links:
    """What checking one record against the others needs, in place of the record itself.

    Positions are not kept: a record with a problem is parsed again to locate it.
    """

    relpath: str
    kind: str
    aliases: tuple[str, ...] = ()
    uses: tuple[tuple[str, str], ...] = ()
    # The source ids cited, each once.
    refs: tuple[str, ...] = ()
    # (figure name, product, factor) of each derived figure; its value is among `values`.
    derivations: tuple[tuple[str, tuple[str, ...], float], ...] = ()
    # Each figure's name and value, side by side.
    names: tuple[str, ...] = ()
    values: Sequence[float] = ()

    def value(self, name: str) -> float | None:
        try:
            return self.values[self.names.index(name)]
        except ValueError:
            return None


class SourceLinks:
    """A source's links: where it is. A source refers to nothing."""

    __slots__ = ("relpath",)
    kind = "source"

    def __init__(self, relpath: str) -> None:
        self.relpath = relpath

    def value(self, name: str) -> None:
        return None


class LinkTable:
    """Every valid record's links by id, written as each record is validated and read back by the checks across records."""

    def __init__(self) -> None:
        # "": a private temporary file, removed when closed, which SQLite writes to only once its page cache is full.
        self._db = sqlite3.connect("", isolation_level=None)
        self._db.executescript(_SCHEMA)

    def __contains__(self, record_id: str) -> bool:
        return self.kind_of(record_id) is not None

    def add(self, record_id: str, links: Links | SourceLinks) -> None:
        """Keep a record's links; its id must not be kept already."""
        try:
            if isinstance(links, SourceLinks):
                self._db.execute("INSERT INTO links VALUES (?, ?, 'source', NULL)", (record_id, links.relpath))
                return
            detail = marshal.dumps((links.aliases, links.uses, links.refs, links.derivations, links.names, array("d", links.values).tobytes()))
            self._db.execute("INSERT INTO links VALUES (?, ?, ?, ?)", (record_id, links.relpath, links.kind, detail))
            if links.aliases:
                # Folded: ids are lower case ASCII (see schema.ID_PATTERN), so a folded alias compares with them as it is.
                self._db.executemany(
                    "INSERT INTO alias VALUES (?, ?, ?, ?)",
                    [(name_key(alias), record_id, position, is_look_alike(alias)) for position, alias in enumerate(links.aliases)],
                )
        except sqlite3.Error as error:
            # Writing is where a temporary folder that is full or cannot be written shows.
            raise DatabaseError(
                f"cannot keep what the checks across records need in a temporary file ({error}); set TMPDIR to a folder with room"
            ) from None

    def kind_of(self, record_id: str) -> str | None:
        row = self._db.execute("SELECT kind FROM links WHERE id = ?", (record_id,)).fetchone()
        return row[0] if row else None

    def get(self, record_id: str) -> Links | SourceLinks | None:
        row = self._db.execute("SELECT relpath, kind, detail FROM links WHERE id = ?", (record_id,)).fetchone()
        return None if row is None else _links(*row)

    def records_in_file_order(self) -> Iterator[tuple[str, Links]]:
        """Every record that is not a source, with its links, in the order of their files' paths."""
        # Read as it goes: the lookups each record's checks make run on the same connection meanwhile.
        for record_id, relpath, kind, detail in self._db.execute(
            "SELECT id, relpath, kind, detail FROM links WHERE kind <> 'source' ORDER BY relpath"
        ):
            yield record_id, _links(relpath, kind, detail)

    def claimed_aliases(self) -> dict[tuple[str, int], str]:
        """(record id, position in its aliases) of each alias another record holds, with that record's id."""
        return {(record_id, position): owner for record_id, position, owner in self._db.execute(_CLAIMED)}


def _links(relpath: str, kind: str, detail: bytes | None) -> Links | SourceLinks:
    if detail is None:
        return SourceLinks(relpath)
    aliases, uses, refs, derivations, names, values = marshal.loads(detail)
    return Links(relpath, kind, aliases, uses, refs, derivations, names, array("d", values))

