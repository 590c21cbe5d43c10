"""Record format 1 to format 2.

Format 1 changed under one number: its files all say `schema: 1`, but the
rules that judged them tightened three times (see docs/record-format.md,
"Format history"). No file says which of those states it was written in, so
this one step recognises each older shape by its content and converts it;
a file already in the last shape of format 1 only has its number raised.

1. Lane figures (the figure-name vocabulary): `signal_pair_rate` and a
   `lane_rate` written as a bandwidth become `lane_bandwidth`;
   `signaling_rate` becomes `lane_rate`; the record's derived products follow.
2. The MI350-series links: the `mi355x_*` figures of `amd-infinity-fabric`
   move, without the prefix, to a record of their own,
   `amd-infinity-fabric-cdna4`; the MI355X and its platform use it, and
   references to the moved figures follow them.
3. Memory in binary units: a `memory_capacity` (or `driver_memory_total`)
   written with a decimal prefix, as vendors print it, is the binary amount
   they mean: `80 GB` becomes `80 GiB`, in the value and its alternatives.
4. Aliases: an alias a record lists twice (ignoring case and look-alike
   forms) is kept once, where it first appears.
"""

from __future__ import annotations

from typing import Any, Callable, MutableMapping

from specdb.format import vocabulary
from specdb.format.units import UnitError, binary_reading, decimal_prefixed, parse_quantity
from specdb.format.upgrades.edit import new_like, rename_key, replace_number, replace_text, text_of
from specdb.names import name_key

TO_FORMAT = 2

# Step 1: the lane figures' names before the vocabulary, and after.
SIGNAL_PAIR_RATE, LANE_RATE, SIGNALING_RATE, LANE_BANDWIDTH = "signal_pair_rate", "lane_rate", "signaling_rate", "lane_bandwidth"

# Step 2: the record whose prefixed figures were another link's, where they went, and who uses them.
SHARED_LINK = "amd-infinity-fabric"
MOVED_PREFIX = "mi355x_"
SPLIT_LINK = "amd-infinity-fabric-cdna4"
SPLIT_NAME = "AMD Infinity Fabric (xGMI) GPU-to-GPU links, MI350 series"
SPLIT_NOTES = (
    "The GPU-to-GPU links of the MI350X and MI355X (CDNA 4), which record format 1 kept in amd-infinity-fabric"
    " as its mi355x_* figures."
)
MOVED_USER = "amd-mi355x"

Record = MutableMapping[str, Any]


def upgrade(record: Record, relpath: str) -> list[tuple[str, Record]]:
    """Convert a format 1 record to format 2 in place; the records split off it, each with the path it is written to."""
    figures = record.get("figures")
    if isinstance(figures, dict):
        _rename_lane_figures(figures)
        _binary_memory(figures)
    split = _split_moved_links(record, relpath)
    _follow_moved_links(record)
    _keep_aliases_once(record)
    replace_number(record, "schema", TO_FORMAT)
    return split


def _rename_lane_figures(figures: Record) -> None:
    renamed = {}
    if SIGNAL_PAIR_RATE in figures and LANE_BANDWIDTH not in figures:
        renamed[SIGNAL_PAIR_RATE] = LANE_BANDWIDTH
    elif LANE_RATE in figures and LANE_BANDWIDTH not in figures and _dimension(figures[LANE_RATE]) == "bandwidth":
        renamed[LANE_RATE] = LANE_BANDWIDTH
        if SIGNALING_RATE in figures:
            renamed[SIGNALING_RATE] = LANE_RATE
    for old, new in renamed.items():
        rename_key(figures, old, new)
    if renamed:
        _rename_in_products(figures, lambda reference: renamed.get(reference, reference))


def _dimension(figure: Any) -> str | None:
    text = text_of(figure.get("value")) if isinstance(figure, dict) else None
    try:
        return parse_quantity(text).dimension if text is not None else None
    except UnitError:
        return None


def _rename_in_products(figures: Record, renamed: Callable[[str], str]) -> None:
    """Every figure's derived product with each reference replaced by `renamed(reference)`."""
    for figure in figures.values():
        derived = figure.get("derived") if isinstance(figure, dict) else None
        product = derived.get("product") if isinstance(derived, dict) else None
        if not isinstance(product, list):
            continue
        for index, reference in enumerate(product):
            if isinstance(reference, str) and renamed(reference) != reference:
                product[index] = type(reference)(renamed(reference))


def _binary_memory(figures: Record) -> None:
    for name, figure in figures.items():
        entry = vocabulary.lookup(name)
        if entry is None or not entry.binary or not isinstance(figure, dict):
            continue
        alternatives = figure.get("alternatives")
        for claim in [figure, *(alternatives if isinstance(alternatives, list) else ())]:
            text = text_of(claim.get("value")) if isinstance(claim, dict) else None
            try:
                quantity = parse_quantity(text) if text is not None else None
            except UnitError:
                continue
            if quantity is not None and quantity.dimension == "size" and decimal_prefixed(quantity):
                replace_text(claim, "value", binary_reading(quantity))


def _split_moved_links(record: Record, relpath: str) -> list[tuple[str, Record]]:
    figures = record.get("figures")
    if record.get("id") != SHARED_LINK or not isinstance(figures, dict):
        return []
    moved = [name for name in figures if name.startswith(MOVED_PREFIX)]
    if not moved:
        return []
    split = new_like(record)
    split["schema"] = record["schema"]
    replace_number(split, "schema", TO_FORMAT)
    split["id"] = SPLIT_LINK
    split["kind"] = record.get("kind")
    split["name"] = SPLIT_NAME
    for key in ("vendor", "family"):
        if key in record:
            split[key] = record[key]
    split["notes"] = SPLIT_NOTES
    split["figures"] = split_figures = new_like(figures)
    for name in moved:
        split_figures[name.removeprefix(MOVED_PREFIX)] = figures.pop(name)
    # Within the moved figures an unprefixed name was one that stayed; a prefixed one moved with them.
    _rename_in_products(split_figures, lambda reference: _moved_reference(reference, within_split=True))
    _rename_in_products(figures, lambda reference: _moved_reference(reference, within_split=False))
    folder = relpath.rpartition("/")[0]
    return [(f"{folder}/{SPLIT_LINK}.yaml" if folder else f"{SPLIT_LINK}.yaml", split)]


def _moved_reference(reference: str, *, within_split: bool) -> str:
    record, dot, name = reference.rpartition(".")
    if dot and record != SHARED_LINK:
        return reference
    if name.startswith(MOVED_PREFIX):
        bare = name.removeprefix(MOVED_PREFIX)
        return bare if within_split else f"{SPLIT_LINK}.{bare}"
    return f"{SHARED_LINK}.{name}" if within_split else reference


def _follow_moved_links(record: Record) -> None:
    """References from other records to the moved figures, and the MI355X's use of the links they describe."""
    figures = record.get("figures")
    if record.get("id") != SHARED_LINK and isinstance(figures, dict):
        prefix = f"{SHARED_LINK}.{MOVED_PREFIX}"
        _rename_in_products(figures, lambda reference: f"{SPLIT_LINK}.{reference[len(prefix):]}" if reference.startswith(prefix) else reference)
    uses = record.get("uses")
    if isinstance(uses, dict) and uses.get("scale_up") == SHARED_LINK and MOVED_USER in (record.get("id"), uses.get("accelerator")):
        replace_text(uses, "scale_up", SPLIT_LINK)


def _keep_aliases_once(record: Record) -> None:
    aliases = record.get("aliases")
    if not isinstance(aliases, list):
        return
    seen: set[str] = set()
    for index in reversed([i for i, alias in enumerate(aliases) if isinstance(alias, str) and _seen_before(alias, seen)]):
        del aliases[index]


def _seen_before(alias: str, seen: set[str]) -> bool:
    key = name_key(alias)
    if key in seen:
        return True
    seen.add(key)
    return False
