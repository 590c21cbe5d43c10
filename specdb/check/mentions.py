"""Where prose names hardware: records by id, name or alias, the short names people use for them, families, and hardware the data does not hold.

Names come from the database. Besides ids, names and aliases, a record is
known by its name stripped of vendor, form factor, memory size and
parenthetical ("NVIDIA H100 SXM5 80GB" -> "H100") and, for a family member,
without the family word ("InfiniBand NDR" -> "NDR"). A stripped name that
fits several records ("NVLink" from "NVLink 4" and "NVLink 5") names them
all, as a family.
"""

from __future__ import annotations

import re
import sqlite3
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from specdb.check.page import Page, Spans
from specdb.db.catalog import hardware_names
from specdb.names import words

_GENERIC_SUFFIX = re.compile(
    r"\s+(?:SXM\d?|OAM|PCIe|\d+\s?GB|HBM\w*|training cluster|cluster|rack|superchip|platform|8-GPU|AI accelerator|accelerator|pod slice)$",
    re.IGNORECASE,
)
_VERSION_SUFFIX = re.compile(r"\s+(?:v?\d+(?:\.\d+)?|Gen\s?\d+)$", re.IGNORECASE)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
_GENERATION = re.compile(rf"\b(?P<ordinal>{'|'.join(_ORDINALS)})[\s-]generation\b", re.IGNORECASE)
# Model numbers such as H800, MI250X, L40S, GH200: hardware, when no record claims them.
_MODEL_NUMBER = re.compile(r"(?<![\w-])[A-Z]{1,4}\d{2,4}[A-Za-z]{0,3}(?![\w-])")
# Parts no record is, named with a space before their model number or version: graphics cards ("GeForce RTX 4090",
# "Radeon RX 7900 XTX", "RTX A6000"), switch chips of a generation ("NVSwitch 3.0"; the records hold what a GPU gets
# through its switches, not the chip), the CPU-GPU link inside a superchip ("NVLink-C2C"; the records name it in notes only)
# and InfiniBand's generations before HDR (QDR to EDR; "SDR" and "DDR" name other things too).
_UNHELD_PART = re.compile(r"(?=[GRQNFE])(?<![\w-])(?:(?:GeForce\s+|Radeon\s+|Quadro\s+)?(?:RTX|GTX|RX|Radeon\s+Pro)\s?[A-Z]?\d{3,4}"
                          r"(?:\s?(?:Ti|SUPER|XTX|XT|Ada))?|NVSwitch\s?(?:v?\d(?:\.\d)?|Gen\s?\d)|NVLink[\s-]C2C|(?:QDR|FDR|EDR))(?![\w-])")
# Number formats, memory and connector standards, and GPU dies ("GH100" is the die of the H100 and H200, "AD104" of an Ada
# card): a die's name says what a part is built on, not which part a figure is of.
_NOT_HARDWARE = re.compile(r"^(?:BF|FP|INT|TF|HBM|GDDR|LPDDR|DDR|SXM|PAM|OSFP|QSFP|IEEE|ISO|RFC|CVE)\d|^(?:G[AHPV]|AD|TU|GB)1\d\d$|^(?:AD|GB)20\d$|^GB20[2-9]",
                           re.IGNORECASE)
_POINT_RELEASE = re.compile(r"\.[1-9]")
_MODEL_SIZE = re.compile(r"[ \t-]+\d+(?:\.\d+)?[BM]\b")
_VERSION_AFTER = re.compile(r"[\s-]?(?:v\d+\w*|\d{1,2}(?:\.\d+)?|Gen\s?\d+|[A-Z]DR)\b")
# A form factor or memory size after a name: a variant, which is a different part when none of the record's names has it
# ("H100 NVL" is not the H100 SXM, "A100 40GB" not the 80 GB A100).
_VARIANT_AFTER = re.compile(r"(?:[\s-]|\s?\()(?P<variant>NVL\d*|\d+\s?GB|PCIe|SXM\d?|OAM)(?![\w/-])\)?", re.IGNORECASE)
_SIZE = re.compile(r"\d+\s?GB", re.IGNORECASE)
_SIZE_SPACE = re.compile(r"(\d)\s+(?=GB)", re.IGNORECASE)
_VERSION_NUMBER = re.compile(r"(\d+)(?:\.0)?\b")
_BARE_VERSION = re.compile(r"(?:v|Gen\s?)?(\d{1,2})(?:\.0)?", re.IGNORECASE)
_SPEED_SUFFIX = re.compile(r"([A-Za-z]+)(\d+)")
_WORD_START = re.compile(r"(?<![\w-])\w")
_SEPARATORS = str.maketrans("", "", " \t\n\r-")
_QUANTITY_AFTER = re.compile(r"[\s-]*(?:[kMGTP]i?[Bb]|[A-Za-z]*FLOP|GT|%|x\b|×|GPU|times)")


@dataclass(frozen=True, slots=True)
class Mention:
    """A name in the text: one record, a family of records, or (no records) hardware the database does not hold."""

    start: int
    end: int
    text: str
    records: tuple[str, ...]

    @property
    def known(self) -> bool:
        return bool(self.records)

    @property
    def family(self) -> bool:
        return len(self.records) > 1


class Lexicon:
    """Every name the database knows hardware by, compiled into one pattern."""

    def __init__(self, connection: sqlite3.Connection):
        levels: list[dict[str, set[str]]] = [{}, {}, {}]
        families: dict[str, set[str]] = {}
        family_words: dict[str, dict[str, set[str]]] = {}  # a word -> the families whose members it is written before
        self.words: dict[str, set[str]] = {}
        for record_id, name, vendor, family, aliases in hardware_names(connection):
            written = [record_id, name, *aliases]
            self.words[record_id] = {word for text in written for word in words(text)}
            for text in written:
                _add(levels[0], text, record_id)
            for text in written[1:]:
                for short in _short_forms(text, vendor, family):
                    _add(levels[1], short, record_id)
                    first, _, rest = short.partition(" ")
                    if rest and rest[0].isalpha() and any(char.isdigit() for char in rest):
                        _add(levels[2], rest, record_id)
            if family:
                families.setdefault(_key(family), set()).add(record_id)
                for alias in aliases:
                    # "IB NDR" beside "InfiniBand NDR": a word written before a member's short name is another name of its family.
                    first, _, rest = alias.partition(" ")
                    if rest and any(_key(rest) == _key(form) for form in _short_forms(name, vendor, family)[1:]):
                        family_words.setdefault(_key(first), {}).setdefault(_key(family), set()).add(record_id)
        self.names: dict[str, tuple[str, ...]] = {}
        for level in levels:
            for key, ids in level.items():
                self.names.setdefault(key, tuple(sorted(ids)))
        for key, ids in families.items():
            self.names.setdefault(key, tuple(sorted(ids)))
        for key, named in family_words.items():
            # Only a word written so before every member of one family, and of no other, names the family.
            family, ids = next(iter(named.items()))
            if len(named) == 1 and len(ids) > 1 and ids == families[family]:
                self.names.setdefault(key, tuple(sorted(ids)))
        self.generations = {
            (key.split("generation")[0], key.split("generation")[1]): ids[0]
            for key, ids in self.names.items() if "generation" in key and len(ids) == 1
        }
        self.heads = {key[:3] for key in self.names}
        spellings = sorted(self.names, key=len, reverse=True)
        # The class of first characters lets the search pass over a position without trying every name there.
        first = "".join(sorted({re.escape(key[0]) for key in spellings}))
        self.pattern = re.compile(
            rf"(?<![\w-])(?=[{first}])(?:" + "|".join(_pattern(key) for key in spellings) + r")(?:s|'s|’s)?(?![\w-])", re.IGNORECASE
        )

    def previous_generation(self, record_id: str) -> str | None:
        """The record of the generation before a record's in its family ("fifth-generation NVLink" -> the fourth's)."""
        for (ordinal, family), record in self.generations.items():
            if record == record_id and ordinal in _ORDINALS[1:]:
                return self.generations.get((_ORDINALS[_ORDINALS.index(ordinal) - 1], family))
        return None

    def find(self, page: Page) -> list[Mention]:
        """Every mention in the page, in reading order."""
        text = page.text
        found: list[Mention] = []
        resume = 0
        for word in _WORD_START.finditer(text):
            at = word.start()
            # The pattern is tried only where a word begins as some name does: most words begin as none.
            if at < resume or text[at:at + 5].translate(_SEPARATORS).casefold()[:3] not in self.heads \
                    and text[at:at + 2].casefold() not in self.heads:
                continue
            match = self.pattern.match(text, at)
            if match is None or match.group()[-1:].isdigit() and (_POINT_RELEASE.match(text, match.end())
                                                                   or _MODEL_SIZE.match(text, match.end())):
                # "Llama 3.1", "CUDA 12.1": a point release is another name than "Llama 3" ("NVLink 4.0" is NVLink 4);
                # "Llama 3 70B": a name followed by a parameter count is a model's.
                continue
            resume = match.end()
            records = self.names.get(_key(match.group())) or self.names.get(_key(re.sub(r"(?:'s|’s|s)$", "", match.group())))
            if records:
                found.append(Mention(match.start(), match.end(), match.group(), records))
        found = self._unknown_versions(text, found)
        found.extend(self._generations(page, found))
        found.extend(self._versions_under_family(page, found))
        taken = Spans()
        for mention in sorted(found, key=lambda mention: mention.start):
            taken.add(mention.start, mention.end)
        for match in _UNHELD_PART.finditer(text):
            if taken.free(match.start(), match.end()):
                found.append(Mention(match.start(), match.end(), match.group(), ()))
                taken.add(match.start(), match.end())
        for match in _MODEL_NUMBER.finditer(text):
            if _NOT_HARDWARE.match(match.group()) or not taken.free(match.start(), match.end()):
                continue
            found.append(Mention(match.start(), match.end(), match.group(), self._with_speed(match.group())))
        return sorted(found, key=lambda mention: mention.start)

    def _unknown_versions(self, text: str, mentions: list[Mention]) -> list[Mention]:
        """A name followed by a version no record has ("NVLink 6", "PCIe Gen7", "TPU v4", "Gaudi 2"), or by a variant none
        of its records' names has ("H100 NVL", "A100 40GB"), names unknown hardware."""
        result = []
        for mention in mentions:
            version = _VERSION_AFTER.match(text, mention.end)
            if version and mention.text[-1:].isdigit() and version.group().strip(" -").isdigit():
                version = None  # "Gaudi3 24 200-GbE ports": after a name that ends in its number, a bare number is a count
            variant = _VARIANT_AFTER.match(text, mention.end) if not mention.text.endswith(("'s", "’s")) else None
            if variant and _key(variant["variant"]) in self.names:
                variant = None  # "DGX H100 NVL72" in a table's header: the next part, not a variant of this one
            if version and not _QUANTITY_AFTER.match(text, version.end()) and (mention.family or _key(version.group()) not in self.names):
                # (after a part, not a family, a version that is itself a name is the next part: "v5e v6e" in a table's header)
                # "NVLink Gen4", "NVLink v4": the generation the record names "NVLink 4", written another way.
                number = _VERSION_NUMBER.search(version.group())
                records = self.names.get(_key(f"{mention.text} {number[1]}")) if number else None
                result.append(Mention(mention.start, version.end(), text[mention.start:version.end()], records or ()))
            elif variant and self._other_variant(variant["variant"], mention.records):
                result.append(Mention(mention.start, variant.end(), text[mention.start:variant.end()], ()))
            elif variant and len(having := self._having(variant["variant"], mention.records)) < len(mention.records):
                # "A100 80GB", "A100 (80GB)": the records whose names give the variant, not the 40 GB A100 as well.
                result.append(Mention(mention.start, variant.end(), text[mention.start:variant.end()], having or mention.records))
            else:
                result.append(mention)
        return result

    def _other_variant(self, variant: str, records: tuple[str, ...]) -> bool:
        """Whether a form factor or memory size names a part other than the records: none of their names has it ("80 GB"
        is "80GB"), and, for a memory size, some of their names give one ("A100 40GB" beside "A100 80GB"; a part sold in
        one size, whose name gives none, is named with its size as "MI300X 192 GB")."""
        if self._having(variant, records):
            return False
        return not _SIZE.fullmatch(variant) or any(_SIZE.fullmatch(word) for record in records for word in self.words[record])

    def _having(self, variant: str, records: tuple[str, ...]) -> tuple[str, ...]:
        """The records whose names give a form factor or memory size ("80 GB" is "80GB")."""
        wanted = set(_form(words(_SIZE_SPACE.sub(r"\1", variant))))
        return tuple(record for record in records if wanted <= set(_form(self.words[record])))

    def _versions_under_family(self, page: Page, mentions: list[Mention]) -> list[Mention]:
        """"| NVLink Gen | ... |" over "| 3.0 | ... |": a cell holding only a version, in a column whose header names a
        family, names that generation of the family, as "NVLink 3.0" would."""
        found = []
        starts = [mention.start for mention in mentions]
        text = page.text
        for cell in page.cells:
            version = _BARE_VERSION.fullmatch(text[cell.start:cell.end].strip(" \t*_"))
            if version is None or cell.header is None:
                continue
            header = mentions[bisect_left(starts, cell.header.start):bisect_left(starts, cell.header.end)]
            family = next((mention for mention in header if mention.family), None)
            records = self.names.get(_key(f"{family.text} {version[1]}")) if family is not None else None
            if records and len(records) == 1:
                at = text.index(version.group(), cell.start)
                found.append(Mention(at, at + len(version.group()), version.group(), records))
        return found

    def _with_speed(self, model: str) -> tuple[str, ...]:
        """"NDR400": a name the records know followed by the rate their own name gives ("InfiniBand NDR (400 Gb/s)") is that
        record; "HDR100", whose 100 no HDR record's name gives, stays hardware the data does not hold."""
        name, speed = _SPEED_SUFFIX.match(model).groups()
        return tuple(record for record in self.names.get(_key(name), ()) if speed in self.words[record])

    def _generations(self, page: Page, mentions: list[Mention]) -> list[Mention]:
        """"its fifth-generation switch": the generation of the family named nearest in the paragraph."""
        found = []
        starts = [mention.start for mention in mentions]
        families = [mention for mention in mentions if mention.family]
        family_starts = [mention.start for mention in families]
        for match in _GENERATION.finditer(page.text):
            at = bisect_right(starts, match.start()) - 1
            if at >= 0 and match.start() < mentions[at].end:
                continue
            paragraph = page.paragraphs[page.paragraph_of(match.start())]
            before = families[bisect_left(family_starts, paragraph.start):bisect_right(family_starts, match.start())]
            after = families[bisect_right(family_starts, match.start()):bisect_left(family_starts, paragraph.end)]
            for mention in _nearest_first(before, after, match.start()):
                record = self.generations.get((match["ordinal"].casefold(), _key(re.sub(r"(?:'s|’s)$", "", mention.text))))
                if record:
                    found.append(Mention(match.start(), match.end(), match.group(), (record,)))
                    break
        return found


def _nearest_first(before: list[Mention], after: list[Mention], offset: int) -> Iterator[Mention]:
    """Mentions before and after an offset, nearest first (the earlier of two as near)."""
    left, right = len(before) - 1, 0
    while left >= 0 or right < len(after):
        if right == len(after) or (left >= 0 and offset - before[left].start <= after[right].start - offset):
            yield before[left]
            left -= 1
        else:
            yield after[right]
            right += 1


def _form(names: Iterable[str]) -> Iterator[str]:
    """Words with the SXM form's generation dropped: "B200 SXM5" is the SXM B200 whichever socket revision it names."""
    return (re.sub(r"^sxm\d$", "sxm", word) for word in names)


def _key(text: str) -> str:
    """A name as the text may spell it: any case, with or without spaces and hyphens."""
    return re.sub(r"[\s-]+", "", text.replace("’", "'")).casefold()


def _add(level: dict[str, set[str]], text: str, record_id: str) -> None:
    key = _key(text)
    if len(key) >= 2 and any(char.isalpha() for char in key):
        level.setdefault(key, set()).add(record_id)


def _short_forms(text: str, vendor: str | None, family: str | None) -> list[str]:
    short = re.sub(r"\s*\(.*?\)", "", text).split(",")[0].strip()
    if vendor and short.casefold().startswith(vendor.casefold() + " "):
        short = short[len(vendor) + 1:]
    while _GENERIC_SUFFIX.search(short):
        short = _GENERIC_SUFFIX.sub("", short)
    forms = [short]
    unversioned = _VERSION_SUFFIX.sub("", short)
    if unversioned != short and any(char.isalpha() for char in unversioned):
        forms.append(unversioned)
    if family and short.casefold().startswith(family.casefold() + " "):
        forms.append(short[len(family) + 1:])
    return [form for form in forms if len(form) >= 2]


def _pattern(key: str) -> str:
    """A name as a pattern: between its characters, spaces and hyphens may be written or left out."""
    return r"[\s-]*".join(re.escape(char) for char in key)
