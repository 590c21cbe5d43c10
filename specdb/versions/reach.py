"""What a change between two revisions reaches, told from the rows of the records around it.

A diff of two revisions not read whole before reads the changed files, the
files that name one of their records (by id or alias, as `git grep` finds
them), and the records those read for the tier ratios and derived figures.
Every record a change can move, and every record whose checks across records
a change can break, is among them:

- a platform's tier ratios read only the system record and its accelerator;
- a reference (`uses`, a citation, a derived figure's product) names its
  target by id, and an alias taken twice is written in both records.

The checks across records then run on those records, with every other id of
the revision taken to exist as it is; a problem they find, which may be one
of these records against one never read, has the whole revision read, so it
is reported as a first reading reports it.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Iterable, Iterator

from specdb.analysis.tiers import FIGURES_READ

if TYPE_CHECKING:
    from pathlib import Path

    from specdb.load.links import Links, SourceLinks
    from specdb.versions.cache import Rows


def record_id(relpath: str) -> str:
    """The id of the record a valid spec file holds: its file name (a record's id must match it)."""
    return relpath.rpartition("/")[2].rpartition(".")[0]


def words(relpaths: Iterable[str], old: dict[str, Rows], new: dict[str, Rows]) -> list[str]:
    """What the records of the changed files are named by elsewhere: their ids, and each alias one side gives a record
    and the other does not (an alias both sides give it cannot take another record's on one side only)."""
    found = {record_id(relpath) for relpath in relpaths}
    for relpath in {*old, *new}:
        found.update(_aliases(old.get(relpath, [])) ^ _aliases(new.get(relpath, [])))
    return sorted(found)


def _aliases(rows: Rows) -> set[str]:
    return {row["alias"] for table, row in rows if table == "alias"}


# What the tier ratios read of a system or accelerator: the record, what it uses, and some of its figures.
_RATIO_TABLES = ("record", "record_use", "figure")


class Reached:
    """The records a change reaches in one revision, taken one at a time: what the checks across records need of
    each, kept in a temporary file as a build keeps it, and only the rows of systems and accelerators the tier ratios
    read, so memory does not grow with the records taken."""

    def __init__(self, specs: Path) -> None:
        from specdb.load.dataset import Dataset

        self._dataset = Dataset(root=specs)
        self.ids: set[str] = set()
        self.platform_rows: dict[str, Rows] = {}
        self.reads: set[str] = set()  # ids of the records those taken read
        self.id_twice = False

    def take(self, relpath: str, rows: Rows) -> None:
        found_id, links = links_of(rows)
        if found_id in self.ids:
            self.id_twice = True
            return
        self.ids.add(found_id)
        self._dataset.links.add(found_id, links)
        table, record = rows[0]
        if table == "record" and record["kind"] in ("system", "accelerator"):
            self.platform_rows[relpath] = [
                (table, row) for table, row in rows if table in _RATIO_TABLES and (table != "figure" or row["name"] in FIGURES_READ)
            ]
        self.reads.update(_read_by(rows))

    def consistent(self, other_ids: set[str]) -> bool:
        """Whether the records taken pass the checks across records, against each other and against the other records
        of the revision (`other_ids`, not read), which are taken to be there as they are; False when two share an id."""
        from specdb.load.dataset import check_references

        if self.id_twice:
            return False
        self._dataset.unloaded = other_ids - self.ids
        check_references(self._dataset)
        return self._dataset.ok


def _read_by(rows: Rows) -> Iterator[str]:
    """Ids of the records a record reads: a system's accelerator (its tier ratios), and each record a derived figure
    multiplies a figure of."""
    for table, row in rows:
        if table == "record_use" and row["role"] == "accelerator":
            yield row["target_id"]
        elif table == "figure" and row["derived_product"] is not None:
            yield from (part.rpartition(".")[0] for part in row["derived_product"].split(" ") if "." in part)


def moved_platforms(rows_of_files: Iterable[Rows], changed_ids: set[str]) -> set[str]:
    """The systems among these records whose tier ratios a change to `changed_ids` can move: a changed system, or one
    built on a changed accelerator."""
    found = set()
    for rows in rows_of_files:
        table, record = rows[0]
        if table != "record" or record["kind"] != "system":
            continue
        accelerator = next((row["target_id"] for table, row in rows if table == "record_use" and row["role"] == "accelerator"), None)
        if record["id"] in changed_ids or accelerator in changed_ids:
            found.add(record["id"])
    return found


def links_of(rows: Rows) -> tuple[str, Links | SourceLinks]:
    """What the checks across records need of a record, from its rows, as `dataset` gathers it from the validated record."""
    from specdb.load.links import Links, SourceLinks

    aliases, uses, refs, derivations, names, values = [], [], {}, [], [], array("d")
    for table, row in rows:
        if table == "source":
            # Its domain was checked when it was validated, under the same policy file (part of what it is remembered by).
            return row["id"], SourceLinks(row["path"])
        if table == "record":
            record = row
        elif table == "alias":
            aliases.append(row["alias"])
        elif table == "record_use":
            uses.append((row["role"], row["target_id"]))
        elif table == "figure":
            names.append(row["name"])
            values.append(row["value"])
            if row["derived_product"] is not None:
                derivations.append((row["name"], tuple(row["derived_product"].split(" ")), row["derived_factor"]))
        elif table in ("citation", "runtime_name"):
            refs[row["source_id"]] = None
    return record["id"], Links(
        record["path"], record["kind"], tuple(aliases), tuple(uses), tuple(refs), tuple(derivations), tuple(names), values,
    )
