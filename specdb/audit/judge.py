"""Each field of an audited table against the data: the part it names, the figure it means, and a verdict.

Verdicts: ok (the figure, within the rounding of both, or one of its recorded alternatives); stale (a value the figure
had before, from its history entries); sparse-as-dense (twice the dense peak, what 2:4 structured sparsity quotes, where
the format means dense); mixed-basis (the same link counted the other way: both directions added where the format
means one, or the reverse); wrong-variant (another part of the same vendor's figure: the SXM value on a PCIe key);
mismatch (none of these); unmatched (the data lacks the part or the figure).
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import asdict, dataclass, field, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from specdb.analysis.tiers import platforms
from specdb.audit import fields as meaning
from specdb.audit.fields import Field, half_unit
from specdb.db.catalog import resolve
from specdb.errors import AmbiguousName, NotFound
from specdb.format import figure_names
from specdb.format.counting import Bandwidth
from specdb.format.units import BINARY_PREFIXES, SI_PREFIXES, UnitError, format_value, parse_quantity
from specdb.names import words

VERDICTS = ("ok", "mismatch", "stale", "sparse-as-dense", "mixed-basis", "wrong-variant", "unmatched")
PASSING = ("ok", "unmatched")
# A value agrees with a figure within half a unit of the last digit either writes, never less than this share
# (1978.9 and 1978 TOPS are one figure, and so are a vendor's rounded "3.7 TB/s" and its 3.67) and never more than the
# cap (a "2 TB/s" is not 2.06). The errors these tables carry (an announced figure, a sparse peak, another variant's
# figure, the other direction) differ by more.
_FLOOR = 0.02
_CAP = 0.025
# A capacity is a count of bytes, not a rounded rate: 268 GB is not the B300's 270 GiB.
_CAPACITY_FLOOR = 0.005
_GIB_PER_GB = 1e9 / 2**30
# Words of a vendor, brand or product line that tables put before a part's name and records do not all carry
# ('Intel Habana Gaudi3', 'Amazon Trainium1', 'AMD Radeon Instinct MI250X').
_BRAND_WORDS = frozenset(("nvidia", "amd", "intel", "habana", "google", "cloud", "aws", "amazon", "radeon", "tesla", "gpu"))
# Meanings whose expected value is the figure as stored (not halved, not a platform's tier), as git history holds it;
# the dense peaks too.
_AS_STORED = (meaning.MEMORY_BANDWIDTH, meaning.MEMORY_CAPACITY, meaning.POWER)
_MODULES = ("sxm", "oam")
_FORM_FACTOR = re.compile(r"^(sxm|pcie|oam)\d+$")
_SIZE = re.compile(r"(\d+)gi?b")
# A row's capacity this far from a part's (but within a factor of two), where the part is named for its capacity, is
# another variant's (40 GB for 80 GB), not an error in the figure.
_OTHER_SIZE = 0.25
_DENSE_16BIT = (figure_names.DENSE_FP16_FLOPS, figure_names.DENSE_BF16_FLOPS)


@dataclass
class Finding:
    """One field and its verdict; `holds` is the figure as the data writes it, `suggestion` a value in the file's own unit."""

    path: str
    line: int
    column: int
    key: str
    written: str
    part: str
    verdict: str
    record: str | None = None
    figure: str | None = None
    holds: str | None = None
    quote: str | None = None
    source: str | None = None
    suggestion: str | None = None
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Expected:
    """What the data holds for a field's meaning on one part, with what a wrong value is likely to be instead."""

    record: str
    figure: str
    value: float
    text: str
    quote: str | None
    source: str | None
    ok_also: list[tuple[float, str]] = field(default_factory=list)  # recorded alternatives
    older: list[tuple[float, str]] = field(default_factory=list)  # history entries
    other_count: float | None = None  # the same link counted the other way
    sparse: float | None = None
    # Values in this range are the figure after an overhead tables count in different ways (PCIe 6's FLIT).
    ok_range: tuple[float, float] | None = None
    # What the driver reports (nvidia-smi's memory.total): right only to the MiB, not rounded to GB (288 GB for the
    # B300 is the announced capacity, not the driver's 288.4e9 bytes).
    exact_also: list[tuple[float, str]] = field(default_factory=list)


class Data:
    """The figures audit reads, loaded once for every file audited. With `specs`, a specs folder in git, a value that
    matches nothing the database holds is also looked for among the values the figure had in earlier commits."""

    def __init__(self, connection: sqlite3.Connection, specs: Path | None = None):
        self.connection = connection
        self.specs = specs
        self._committed: dict[tuple[str, str], list[tuple[float, str]]] = {}
        self.kinds: dict[str, tuple[str, str]] = {
            row[0]: (row[1], row[2] or "") for row in connection.execute("SELECT id, kind, vendor FROM record")
        }
        self.families: dict[str, str] = {row[0]: row[1] or "" for row in connection.execute("SELECT id, family FROM record")}
        self.uses: dict[str, dict[str, str]] = {}
        for record_id, role, target in connection.execute("SELECT record_id, role, target_id FROM record_use"):
            self.uses.setdefault(record_id, {})[role] = target
        sources: dict[int, tuple[str | None, str | None]] = {}
        for figure_id, quote, url, source_id in connection.execute(
            "SELECT c.figure_id, c.quote, s.url, s.id FROM citation c JOIN source s ON s.id = c.source_id"
            " WHERE c.claim_id IS NULL ORDER BY c.figure_id, c.position"
        ):
            sources.setdefault(figure_id, (quote, url or source_id))
        claims: dict[int, dict[str, list[tuple[float, str]]]] = {}
        for figure_id, kind, value, text, announced_only in connection.execute(
            "SELECT c.figure_id, c.claim_kind, c.value, c.value_text, c.status = 'announced' AND f.status != 'announced'"
            " FROM claim c JOIN figure f ON f.id = c.figure_id"
        ):
            # An alternative announced before the part shipped is a value the figure had, as much as a history entry.
            kind = "history" if kind == "alternative" and announced_only else kind
            claims.setdefault(figure_id, {}).setdefault(kind, []).append((value, text))
        self.figures: dict[tuple[str, str], _Expected] = {}
        self.directions: dict[tuple[str, str], str | None] = {}
        for figure_id, record_id, name, value, text, direction in connection.execute(
            "SELECT id, record_id, name, value, value_text, direction FROM figure"
        ):
            quote, source = sources.get(figure_id, (None, None))
            own = claims.get(figure_id, {})
            self.figures[(record_id, name)] = _Expected(
                record_id, name, value, text, quote, source, list(own.get("alternative", [])), list(own.get("history", [])),
            )
            self.directions[(record_id, name)] = direction
        self.names = connection.execute(
            "SELECT id, id FROM record WHERE kind = 'accelerator' UNION ALL SELECT r.name, r.id FROM record r WHERE r.kind = 'accelerator'"
            " UNION ALL SELECT a.alias, a.record_id FROM alias a JOIN record r ON r.id = a.record_id WHERE r.kind = 'accelerator'"
            # The names tools report are names too: JAX's "TPU v5" is the v5p, so a bare "v5" is not the v5e's alone.
            " UNION ALL SELECT n.name, n.record_id FROM runtime_name n JOIN record r ON r.id = n.record_id"
            " WHERE r.kind = 'accelerator' AND n.reported_by != 'pci'"
        ).fetchall()
        self.link_names = connection.execute(
            "SELECT name, id FROM record WHERE kind = 'link'"
            " UNION ALL SELECT a.alias, a.record_id FROM alias a JOIN record r ON r.id = a.record_id WHERE r.kind = 'link'"
        ).fetchall()
        self.platforms = platforms(connection)
        self.fp16_as_bf16 = self._vendors_fp16_as_bf16()

    def parts(self, name: str) -> tuple[set[str], str, bool]:
        """The accelerators a name may mean, why none when none, and whether they are a guess: the resolver's answer,
        else every accelerator whose names hold each word of it ('H100' is the SXM and the PCIe part), a form factor cut
        short of its generation ('sxm' for 'SXM5') included, else the parts a shorthand may stand for (a guess), else
        the links whose names hold each word ('NVIDIA NVLink 4')."""
        try:
            record_id = resolve(self.connection, name)
        except (AmbiguousName, NotFound):
            record_id = None
        if record_id is not None:
            kind = self.kinds[record_id][0]
            if kind == "accelerator":
                return {record_id}, "", False
            accelerator = self.uses.get(record_id, {}).get("accelerator")
            if accelerator:
                return {accelerator}, "", False
            if kind == "link":
                return {record_id}, "", False
            return set(), f"'{name}' is a {kind} record, not an accelerator", False
        wanted = [word for word in words(name) if word not in _BRAND_WORDS]
        sizes = [float(size.group(1)) for word in wanted for size in [_SIZE.fullmatch(word)] if size]
        wanted = [word for word in wanted if not _SIZE.fullmatch(word)]
        found = {record_id for known, record_id in self.names if wanted and all(_holds(words(known), word) for word in wanted)}
        if not found:
            # A form factor with a digit no name holds ('sxm1', a footnote mark run into the key) is the form factor,
            # and an SXM or OAM module no name mentions is the part itself ('gb200_sxm': GB200 comes only as a module).
            for bare in ([_FORM_FACTOR.sub(r"\1", word) for word in wanted], [word for word in wanted if word not in _MODULES]):
                if bare != wanted and bare and not found:
                    found = {record_id for known, record_id in self.names if all(_holds(words(known), word) for word in bare)}
        guessed = False
        if not found:
            # A shorthand ('MI300') is the part whose name extends it by letters alone ('MI300X') where the data holds
            # such a part; the judge treats the guess as weaker evidence than a name.
            found = {record_id for known, record_id in self.names
                     if wanted and all(_holds(words(known), word) or _extends(words(known), word) for word in wanted)}
            guessed = bool(found)
        if not found:
            # A table of links names them with their vendor ("NVIDIA NVLink 4"), which the resolver does not take.
            found = {record_id for known, record_id in self.link_names if wanted and all(_holds(words(known), word) for word in wanted)}
        # A memory size in the name ('mi250x-128gb') picks the parts with that capacity, in GB or GiB.
        found = {record_id for record_id in found if all(self._holds_memory(record_id, size) for size in sizes)}
        if not found:
            return found, f"no accelerator '{name}' in the data", False
        if guessed:
            return found, f"'{name}' taken as a shorthand for {' or '.join(sorted(found))}", True
        return found, "", False

    def _holds_memory(self, record_id: str, size: float) -> bool:
        capacity = self.figures.get((record_id, figure_names.MEMORY_CAPACITY))
        return capacity is None or any(abs(capacity.value / unit - size) <= 0.02 * size for unit in (1e9, 2**30))

    def other_variant(self, record_ids: set[str], capacity: Field) -> bool:
        """Whether a row's capacity shows it is a variant the data does not hold: each part the name may mean is one
        named for its capacity ('A100 PCIe 80GB'), and the row's capacity is far from it (40 GB), not a near miss."""
        return all(self._named_for_size(record_id) and not self._near_size(record_id, capacity)
                   and self._within_a_variant(record_id, capacity) for record_id in record_ids)

    def _within_a_variant(self, record_id: str, capacity: Field) -> bool:
        """Whether a capacity is one a sibling variant could have: within a factor of two of the part's (40 GB beside
        80), not a node's total under a GPU's name (1.44 TB for a 180 GB B200)."""
        held = self.figures[(record_id, figure_names.MEMORY_CAPACITY)].value
        readings = (capacity.value, capacity.value / _GIB_PER_GB) if capacity.either_gb else (capacity.value,)
        return any(held / 2 * (1 - _FLOOR) <= reading <= 2 * held * (1 + _FLOOR) for reading in readings)

    def refutes(self, record_ids: set[str], capacity: Field) -> bool:
        """Whether a row's capacity is far from that of every part a shorthand was taken for."""
        return all(not self._near_size(record_id, capacity) for record_id in record_ids)

    def _near_size(self, record_id: str, capacity: Field) -> bool:
        held = self.figures.get((record_id, figure_names.MEMORY_CAPACITY))
        if held is None:
            return True
        readings = (capacity.value, capacity.value / _GIB_PER_GB) if capacity.either_gb else (capacity.value,)
        return any(abs(reading - held.value) <= _OTHER_SIZE * held.value for reading in readings)

    def _named_for_size(self, record_id: str) -> bool:
        return any(_SIZE.fullmatch(word) for known, named in self.names if named == record_id for word in words(known))

    def expected(self, record_id: str, quantity: str) -> list[_Expected]:
        if quantity.startswith(meaning.DENSE):
            precision = quantity[len(meaning.DENSE):]
            names = _DENSE_16BIT if precision == "16bit" else (f"dense_{precision}_flops",)
            for name in names:
                if (record_id, name) in self.figures:
                    found = self.figures[(record_id, name)]
                    return [replace(found, sparse=2 * found.value)]
            # Where a vendor's parts that record both run FP16 at the BF16 rate (NVIDIA's and AMD's tensor and matrix
            # cores; not Intel's Gaudi 3), a part of that vendor with one of the two recorded is judged on it.
            twin = {"fp16": figure_names.DENSE_BF16_FLOPS, "bf16": figure_names.DENSE_FP16_FLOPS}.get(precision)
            alike = self.kinds.get(record_id, ("", ""))[1] in self.fp16_as_bf16
            found = self.figures.get((record_id, twin)) if twin and alike else None
            if found:
                return [replace(found, sparse=2 * found.value, text=f"{found.text} (the {twin[6:10].upper()} rate; no {precision.upper()} rate is recorded)")]
            return []
        if quantity in (meaning.MEMORY_BANDWIDTH, meaning.MEMORY_CAPACITY, meaning.POWER):
            found = self.figures.get((record_id, quantity))
            driver = self.figures.get((record_id, figure_names.DRIVER_MEMORY_TOTAL))
            if found and driver and quantity == meaning.MEMORY_CAPACITY:
                return [replace(found, exact_also=[(driver.value, driver.text)])]
            return [found] if found else []
        if quantity in (meaning.SCALE_UP_PER_DIRECTION, meaning.SCALE_UP_BIDIRECTIONAL):
            one_way = quantity == meaning.SCALE_UP_PER_DIRECTION
            if self.kinds.get(record_id, ("", ""))[0] == "link":
                # A table of scale-up rates may name the link rather than the part ("NVLink 4", "PCIe 5").
                return self._own_link(record_id, one_way)
            return self._link(record_id, figure_names.SCALE_UP_BANDWIDTH, one_way)
        if quantity == meaning.SCALE_OUT_PER_DIRECTION:
            return [self._tier(tier) for platform in self.platforms if platform.accelerator == record_id
                    for tier in (platform.tiers["scale_out"],) if tier is not None]
        if quantity in (meaning.LINK_PER_DIRECTION, meaning.LINK_BIDIRECTIONAL):
            return self._own_link(record_id, quantity == meaning.LINK_PER_DIRECTION)
        if quantity in (meaning.ONE_LINK_PER_DIRECTION, meaning.ONE_LINK_BIDIRECTIONAL):
            if self.kinds.get(record_id, ("", ""))[0] != "link":
                return []
            return self._link(record_id, "per_link_bandwidth", quantity == meaning.ONE_LINK_PER_DIRECTION)
        if quantity == meaning.HOST_LINK_PER_DIRECTION:
            link = self.uses.get(record_id, {}).get("host_link")
            found = self.figures.get((link, "x16_per_direction_bandwidth")) if link else None
            both = self.figures.get((link, "x16_bidirectional_bandwidth")) if link else None
            return [replace(found, other_count=both.value if both else 2 * found.value)] if found else []
        raise ValueError(f"no quantity {quantity!r}")

    def _vendors_fp16_as_bf16(self) -> set[str]:
        """The vendors whose parts, where both rates are recorded, all give FP16 and BF16 alike."""
        alike: dict[str, bool] = {}
        for (record_id, name), fp16 in self.figures.items():
            bf16 = self.figures.get((record_id, figure_names.DENSE_BF16_FLOPS))
            if name == figure_names.DENSE_FP16_FLOPS and bf16 is not None:
                vendor = self.kinds[record_id][1]
                alike[vendor] = alike.get(vendor, True) and fp16.value == bf16.value
        return {vendor for vendor, same in alike.items() if same}

    def _link(self, record_id: str, name: str, one_way: bool) -> list[_Expected]:
        found = self.figures.get((record_id, name))
        direction = self.directions.get((record_id, name))
        if found is None or direction not in ("per-direction", "bidirectional"):
            return []
        per_direction = found.value / 2 if direction == "bidirectional" else found.value
        value, other = (per_direction, 2 * per_direction) if one_way else (2 * per_direction, per_direction)
        text = f"{found.text} {direction}"
        if (direction == "per-direction") != one_way:
            text += f" ({format_value(value, 'bandwidth')} {'per direction' if one_way else 'both directions added'})"
        return [replace(found, value=value, text=text, other_count=other, older=[], ok_also=[])]

    def _own_link(self, record_id: str, one_way: bool) -> list[_Expected]:
        """A link record's rate: per accelerator (NVLink), else its x16 figures (PCIe), one way or both."""
        if self.kinds.get(record_id, ("", ""))[0] != "link":
            return []
        if (record_id, "per_accelerator_bandwidth") in self.figures:
            return self._link(record_id, "per_accelerator_bandwidth", one_way)
        one = self.figures.get((record_id, "x16_per_direction_bandwidth"))
        both = self.figures.get((record_id, "x16_bidirectional_bandwidth"))
        if one is None or both is None:
            return []
        flit = self.figures.get((record_id, "flit_efficiency")) or self._family_flit(record_id)
        # From the rate after the FLIT overhead as the data counts it up to the raw rate: tables count that overhead
        # differently (242 or 236 payload bytes of 256).
        span = (flit.value, 1.0) if flit else None
        if one_way:
            return [replace(one, other_count=both.value, ok_range=span and (one.value * span[0], one.value))]
        # Both ways is twice the one-way rate, or the raw rate the specification headlines.
        return [replace(both, other_count=one.value, ok_also=[*both.ok_also, (2 * one.value, f"2 x {one.text}")],
                      ok_range=span and (both.value * span[0], both.value))]

    def _family_flit(self, record_id: str) -> _Expected | None:
        """The FLIT overhead of another link of the family with the same line encoding (PCIe 7 keeps PCIe 6's flits,
        its record says, and records no overhead of its own)."""
        encoding = self.figures.get((record_id, "encoding_efficiency"))
        if encoding is None:
            return None
        for (other, name), found in sorted(self.figures.items()):
            sibling = self.figures.get((other, "encoding_efficiency"))
            if (name == "flit_efficiency" and other != record_id and self.families.get(other) == self.families.get(record_id)
                    and sibling is not None and sibling.value == encoding.value):
                return found
        return None

    def _tier(self, tier: Bandwidth) -> _Expected:
        found = self.figures[(tier.record_id, tier.figure)]
        value = tier.on("per-direction")
        halved = f" ({format_value(value, 'bandwidth')} per direction)" if tier.direction == "bidirectional" else ""
        return replace(found, value=value, text=f"{found.text} {tier.direction}{halved}", other_count=2 * value, older=[], ok_also=[])

    def committed(self, record_id: str, figure: str) -> list[tuple[float, str]]:
        """The values a figure had in earlier commits of the specs (`specdb history`), with the commit, oldest first."""
        if self.specs is None:
            return []
        if (record_id, figure) not in self._committed:
            from specdb.versions.history import figure_history

            values = []
            for row in figure_history(self.connection, self.specs, record_id, figure):
                if row["commit"] and isinstance(row["value"], str):
                    try:
                        values.append((parse_quantity(row["value"]).value, f"{row['value']} (commit {row['commit'][:10]})"))
                    except UnitError:
                        continue
            self._committed[(record_id, figure)] = values
        return self._committed[(record_id, figure)]

    def same_vendor(self, record_ids: set[str]) -> list[str]:
        vendors = {self.kinds[record_id][1] for record_id in record_ids}
        return sorted(record_id for record_id, (kind, vendor) in self.kinds.items()
                      if kind == "accelerator" and vendor in vendors and record_id not in record_ids)


def _holds(known: tuple[str, ...], word: str) -> bool:
    """Whether a name's words hold a word: as it is, as a form factor cut short of its generation ('sxm' for 'sxm5'),
    or as two words run together ('gaudi3' for 'Gaudi 3')."""
    if any(candidate == word or (word.isalpha() and candidate.startswith(word) and candidate[len(word):].isdigit()) for candidate in known):
        return True
    return any(first + second == word for first, second in pairwise(known))


def _extends(known: tuple[str, ...], word: str) -> bool:
    """Whether a name's words extend a shorthand holding a digit by letters alone ('mi300x' extends 'mi300')."""
    return any(any(c.isdigit() for c in word) and candidate.startswith(word) and candidate[len(word):].isalpha()
               for candidate in known)


def judge(table: list[Field], data: Data, path: str) -> list[Finding]:
    """A finding for every field, in the file's order."""
    capacities = _row_capacities(table)
    return [_judge_one(item, data, path, capacities.get((item.part, item.line), capacities.get((item.part, 0))))
            for item in sorted(table, key=lambda item: (item.line, item.column, item.key))]


def _row_capacities(table: list[Field]) -> dict[tuple[str, int], Field]:
    """The memory capacity each field's row gives: the one on its line (a table row), else the only one its part has
    in the file (a file describing one part), under line 0."""
    found: dict[tuple[str, int], Field] = {}
    by_part: dict[str, list[Field]] = {}
    for item in table:
        if item.meaning == meaning.MEMORY_CAPACITY:
            found[(item.part, item.line)] = item
            by_part.setdefault(item.part, []).append(item)
    for part, items in by_part.items():
        if len(items) == 1:
            found[(part, 0)] = items[0]
    return found


def agrees(item: Field, expected: float, expected_text: str = "") -> bool:
    if expected == 0:
        return item.value == 0
    floor = _CAPACITY_FLOOR if item.meaning == meaning.MEMORY_CAPACITY else _FLOOR
    share = max(half_unit(item.written, item.value), half_unit(expected_text, expected, whole_zeros=True) if expected_text else 0.0, floor)
    return abs(item.value - expected) <= min(share, _CAP) * abs(expected)


def _judge_one(item: Field, data: Data, path: str, capacity: Field | None = None) -> Finding:
    finding = Finding(path, item.line, item.column, item.key, item.written, item.part, "unmatched")
    parts, why, guessed = data.parts(item.part)
    if not parts:
        finding.note = why
        return finding
    if capacity is not None and data.other_variant(parts, capacity):
        finding.record = ", ".join(sorted(parts))
        finding.note = f"a {capacity.written} variant, which the data does not hold ({finding.record} is named for another capacity)"
        return finding
    expectations = [expected for record_id in sorted(parts) for expected in data.expected(record_id, item.meaning)]
    if not expectations:
        finding.record = ", ".join(sorted(parts))
        finding.note = f"no {item.meaning.replace('dense:', 'dense ').replace('_', ' ')} figure for {finding.record}"
        return finding
    verdict, chosen, note = _verdict(item, expectations, data, parts)
    if verdict != "ok" and item.link:
        verdict, chosen, note = _on_the_stated_link(item, data, parts, (verdict, chosen, note))
    if guessed and verdict != "ok" and capacity is not None and data.refutes(parts, capacity):
        verdict, note = "unmatched", f"{why}, but the row's {capacity.written} is not its capacity: another part is meant"
    elif guessed and verdict == "mismatch":
        # Under a shorthand, a value that is no error the data can name may as well be another part's right figure.
        verdict, note = "unmatched", f"{why}, whose figure it does not match: another part may be meant"
    elif guessed:
        note = f"{why}; {note}" if note else why
    if verdict in ("mismatch", "wrong-variant") and item.meaning == meaning.POWER:
        # Power is quoted as TDP, typical, or peak board power; the data records one, and the file may mean another.
        verdict, note = "unmatched", "a power figure of another kind than the data's (TDP, typical or peak board power)"
    finding.verdict = verdict
    finding.record = chosen.record
    finding.figure = chosen.figure
    finding.holds = chosen.text
    finding.quote = chosen.quote
    finding.source = chosen.source
    finding.note = note
    if verdict not in PASSING:
        finding.suggestion = _in_unit(item, chosen.value)
    return finding


def _generation(link_id: str) -> int:
    """A link's generation from its record's id ("pcie-6": 6; 0 where the id gives none)."""
    number = re.search(r"(\d+)$", link_id)
    return int(number[1]) if number else 0


def _on_the_stated_link(item: Field, data: Data, parts: set[str], judged: tuple[str, _Expected, str]) -> tuple[str, _Expected, str]:
    """A host-link rate whose file names an older link than the data records for the part ("pcie 5.0" where the data has
    PCIe 6): a link runs at the generation both its ends have, and the other end (a CPU, a NIC) may have the older one,
    so a rate right for the link it names is unmatched; the other direction of that link is still mixed-basis. A newer
    link than the part has ("pcie 6.0" on a PCIe 5 part) is one the part cannot run, and is judged on the part's own."""
    stated, _, _ = data.parts(item.link)
    own = {data.uses.get(record_id, {}).get("host_link") for record_id in parts}
    if len(stated) != 1 or stated <= own:
        return judged
    [link] = stated
    if all(_generation(link) > _generation(record_id) for record_id in own - {None}) and own - {None}:
        return judged[0], judged[1], f"{judged[2]}; the file names {item.link}, a newer link than the data records for {', '.join(sorted(parts))}"
    theirs = data.expected(link, meaning.LINK_PER_DIRECTION)
    if not theirs:
        return judged
    verdict, chosen, note = _verdict(replace(item, loose=True), theirs, data, stated)
    if verdict == "ok":
        return "unmatched", judged[1], f"the one-way rate of {item.link}, as the file says; the data records {', '.join(sorted(own - {None}))} for {', '.join(sorted(parts))}"
    if verdict == "mixed-basis":
        return verdict, chosen, f"{note}, on {item.link} as the file says"
    return judged


def _verdict(item: Field, expectations: list[_Expected], data: Data, parts: set[str]) -> tuple[str, _Expected, str]:
    # A file that writes GB for GB and GiB alike is read first as writing the data's own unit ("192 GB" for the
    # announced 192 GiB is that figure), and only then in the other (80 GB for 80 GiB as bytes).
    readings = (_nominal, _matches) if item.either_gb and item.meaning == meaning.MEMORY_CAPACITY else (_matches,)
    for same in readings:
        for expected in expectations:
            if same(item, expected.value, expected.text):
                return "ok", expected, ""
            if expected.ok_range and expected.ok_range[0] * (1 - _FLOOR) <= item.value <= expected.ok_range[1]:
                return "ok", expected, "within the FLIT overhead the data records"
            for value, text in expected.ok_also:
                if same(item, value, text):
                    return "ok", expected, f"equals the recorded alternative {text}"
            for value, text in expected.exact_also:
                if abs(item.value - value) <= 2**20:
                    return "ok", expected, f"what the driver reports, {text}"
        if item.share_of_part:
            for expected in expectations:
                for dies in range(2, 9):
                    if agrees(replace(item, value=item.value * dies), expected.value, expected.text):
                        return "ok", expected, f"one of {dies} equal shares of {expected.text}, as the file says (per die, core or device)"
        for expected in expectations:
            for value, text in expected.older:
                if same(item, value, text):
                    return "stale", expected, f"{text} is an older or announced value of {expected.record}.{expected.figure}"
    # The values the figure had in earlier commits, read from git only now that nothing the database holds matched.
    for expected in expectations:
        if item.meaning in _AS_STORED or item.meaning.startswith(meaning.DENSE):
            for value, text in data.committed(expected.record, expected.figure):
                if _matches(item, value, text):
                    return "stale", expected, f"{text} is an earlier value of {expected.record}.{expected.figure}"
    for expected in expectations:
        if expected.sparse is not None and agrees(item, expected.sparse):
            return "sparse-as-dense", expected, "twice the dense peak: the figure with 2:4 structured sparsity, where the format means dense"
        if expected.other_count is not None and agrees(item, expected.other_count):
            return "mixed-basis", expected, "the same link counted the other way (both directions added where one is meant, or the reverse)"
    if item.share_of_part:
        # How many shares a part is split into can be a setting (AWS's logical NeuronCores): no whole number agreeing
        # is no evidence against the figure.
        return "unmatched", expectations[0], "one die's, core's or device's share, as the file says, that no whole number of shares makes the figure"
    if len(expectations) > 1:
        for expected in expectations:
            if _as_precise_as_written(item, expected.value):
                return "unmatched", expected, (f"a name several parts answer to, and {expected.record}'s {expected.text} agrees "
                                               "at the precision the value is written to")
    # A loose field naming several parts (a bare 'H100') is no evidence against one of them.
    if len(parts) == 1 or not item.loose:
        for other in data.same_vendor(parts):
            for theirs in data.expected(other, item.meaning):
                if _matches(item, theirs.value, theirs.text):
                    return "wrong-variant", expectations[0], f"equals {other}'s {theirs.text}"
    if not item.loose and item.meaning != meaning.MEMORY_CAPACITY:
        binary = _in_binary_units(item, expectations)
        if binary is not None:
            return binary
    if item.loose:
        return "unmatched", expectations[0], "matches no figure the data holds; the format documents this field only approximately"
    return "mismatch", expectations[0], ""


def _as_precise_as_written(item: Field, value: float) -> bool:
    """Whether a value is a figure rounded to the digits it is written with (1.6 TB/s for 1,555 GB/s), however far
    that rounding takes it."""
    return abs(item.value - value) <= half_unit(item.written, item.value) * abs(item.value) * (1 + 1e-9)


# A rate is a decimal count (a tera is 10**12), but a program may write it with the binary prefix (2**40 for tera, as
# capacities are written in GiB): `1979 * 2**40` is 1979 TFLOPS so written, 10% above the figure.
_PREFIX_NAMES = {1: "kilo", 2: "mega", 3: "giga", 4: "tera", 5: "peta"}
_BINARY_PREFIXES = {power: BINARY_PREFIXES[binary] / SI_PREFIXES[decimal]
                    for power, (decimal, binary) in enumerate(zip(("k", "M", "G", "T", "P"), BINARY_PREFIXES), 1)}


def _in_binary_units(item: Field, expectations: list[_Expected]) -> tuple[str, _Expected, str] | None:
    """The verdict on a rate that is a figure the data can name once its prefix is read as binary: the figure itself
    (a mismatch, since the value is not the figure), its sparse peak, or the link counted the other way. The prefix
    is the one the figure is written with, or the next smaller (1979 TFLOPS for 1.979 PFLOPS)."""
    for expected in expectations:
        for value, verdict, what in ((expected.value, "mismatch", expected.text),
                                     (expected.sparse, "sparse-as-dense", "twice the dense peak, the figure with 2:4 structured sparsity,"),
                                     (expected.other_count, "mixed-basis", "the same link counted the other way,")):
            if not value:
                continue
            written_with = int(math.log10(value) // 3)
            for power in (written_with, written_with - 1):
                if power in _BINARY_PREFIXES and agrees(item, value * _BINARY_PREFIXES[power]):
                    return verdict, expected, (f"{what} written in binary units "
                                               f"(2**{10 * power} for a {_PREFIX_NAMES[power]}, 10**{3 * power})")
    return None


def _nominal(item: Field, value: float, text: str) -> bool:
    """Whether a capacity written in GB is the figure's number in the figure's own unit (GB or GiB)."""
    binary = "GiB" in text
    written = item.value / 1e9 * 2**30 if binary else item.value
    return agrees(replace(item, value=written), value, text)


def _matches(item: Field, value: float, text: str) -> bool:
    if agrees(item, value, text):
        return True
    return item.either_gb and item.meaning == meaning.MEMORY_CAPACITY and (
        agrees(item, value * _GIB_PER_GB, text) or agrees(item, value / _GIB_PER_GB, text))


def _in_unit(item: Field, value: float) -> str:
    """The data's value as the file would write it: in its unit, and for a file that writes GB for both, a capacity of
    a whole number of GiB in the same words the vendor uses ("186 GB" for 186 GiB)."""
    if item.either_gb and abs(value / 2**30 - round(value / 2**30)) < 1e-6:
        value = value / 2**30 * 1e9
    number = value / item.scale
    text = f"{number:.6g}" if abs(number) < 1e6 else f"{round(number)}"
    return f"{text}{item.unit}"


def failing(findings: list[Finding], strict: bool = False) -> bool:
    """Whether the findings fail an audit: any verdict but ok and unmatched; with strict, unmatched too."""
    passing = ("ok",) if strict else PASSING
    return any(finding.verdict not in passing for finding in findings)
