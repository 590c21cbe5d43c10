"""The record format, version 2, as pydantic models (see docs/record-format.md).

Input arrives as plain strings from `yamlread`, so every typed field parses
its own text: quantities through `units`, dates through `parse_spec_date`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, WithJsonSchema, model_validator

from specdb.format.dates import DATE, parse_date
from specdb.format.policy import LONGEST_PERIOD
from specdb.format.terms import (  # re-exported: the record format speaks of these
    COLLECTIVE_ALGORITHMS, COLLECTIVE_OPERATIONS, DIRECTIONS, KINDS, PERIODS, PRECISIONS, ROLE_KINDS, RUN_ALGORITHMS, SCOPES, SPARSITIES, STATUSES,
)
from specdb.format.units import Quantity, UnitError, foreign_digit, parse_quantity
from specdb.format.upgrades import CURRENT_FORMAT

# Older formats are converted to this one before a record is validated (format.upgrades).
SCHEMA_VERSION = str(CURRENT_FORMAT)

ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
FIGURE_NAME_PATTERN = r"^[a-z][a-z0-9_]*$"


@dataclass(frozen=True, order=True)
class SpecDate:
    """A date as written: a full day, or a month meaning its first day."""

    day: dt.date
    text: str

    def __str__(self) -> str:
        return self.text


def parse_spec_date(text: Any) -> SpecDate:
    if not isinstance(text, str):
        raise ValueError("expected a date such as 2026-07 or 2026-07-15")
    foreign = foreign_digit(text)
    if foreign is not None:
        raise ValueError(f"'{text}': write dates with the digits 0-9 ('{foreign}' is U+{ord(foreign):04X})")
    return SpecDate(parse_date(text), text.strip())


def _past_date(text: Any) -> SpecDate:
    parsed = parse_spec_date(text)
    if parsed.day > dt.date.today():
        raise ValueError(f"'{parsed.text}' is in the future")
    return parsed


def _quantity(text: Any) -> Quantity:
    if not isinstance(text, str):
        raise ValueError("expected a quantity such as '3.35 TB/s' or '72'")
    try:
        return parse_quantity(text)
    except UnitError as exc:
        raise ValueError(str(exc)) from None


def _number(text: Any) -> float:
    quantity = _quantity(text)
    if quantity.dimension != "count":
        raise ValueError(f"'{text}' must be a plain number")
    return quantity.value


def _whole_number(text: Any) -> int:
    value = _number(text)
    if value != int(value):
        raise ValueError(f"'{text}' must be a whole number")
    return int(value)


def _text(value: Any) -> Any:
    if isinstance(value, str) and not value.strip():
        raise ValueError("must not be empty")
    return value


# How these fields look to a JSON Schema validator reading the YAML (YAML 1.2: `72` is a number, `2026-07` a string).
_QUANTITY_SCHEMA = WithJsonSchema({
    "anyOf": [{"type": "string", "minLength": 1}, {"type": "number"}],
    "description": "a number and a unit from the closed list in docs/record-format.md, e.g. '3.35 TB/s', '400 Gb/s', '72'",
})
_DATE_SCHEMA = WithJsonSchema({"type": "string", "pattern": DATE.pattern, "description": "YYYY-MM-DD, or YYYY-MM for a month"})
_SCHEMA_VERSION_SCHEMA = WithJsonSchema({"enum": [int(SCHEMA_VERSION), SCHEMA_VERSION], "description": "record format version"})

QuantityField = Annotated[Quantity, BeforeValidator(_quantity), _QUANTITY_SCHEMA]
DateField = Annotated[SpecDate, BeforeValidator(parse_spec_date), _DATE_SCHEMA]
PastDateField = Annotated[SpecDate, BeforeValidator(_past_date), _DATE_SCHEMA]
SchemaVersion = Annotated[Literal[SCHEMA_VERSION], _SCHEMA_VERSION_SCHEMA]  # type: ignore[valid-type]
Text = Annotated[str, BeforeValidator(_text)]
RecordId = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
FigureName = Annotated[str, StringConstraints(pattern=FIGURE_NAME_PATTERN)]
FigureReference = Annotated[str, StringConstraints(pattern=r"^(?:[a-z0-9][a-z0-9-]*\.)?[a-z][a-z0-9_]*$")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)


class Period(Strict):
    count: Annotated[int, BeforeValidator(_whole_number), Field(gt=0)]
    period: Literal[PERIODS]  # type: ignore[valid-type]

    @model_validator(mode="after")
    def _at_most_a_century(self) -> "Period":
        if self.count > LONGEST_PERIOD[self.period]:
            raise ValueError(f"{self.count} {self.period}s is longer than 100 years; write null to switch the policy off")
        return self


class ReviewPolicy(Strict):
    warn_after: Period | None = None
    error_after: Period | None = None


class SourceCitation(Strict):
    ref: RecordId
    quote: Text | None = None
    locator: Text | None = None
    note: Text | None = None


Sources = Annotated[list[SourceCitation], Field(min_length=1)]


class Derivation(Strict):
    product: Annotated[list[FigureReference], Field(min_length=1)]
    factor: Annotated[float, BeforeValidator(_number)] = 1.0
    note: Text | None = None


class Alternative(Strict):
    value: QuantityField
    reason: Text
    sources: Sources
    status: Literal[STATUSES] | None = None  # type: ignore[valid-type]
    as_of: PastDateField | None = None


class HistoryEntry(Strict):
    value: QuantityField
    as_of: PastDateField
    reviewed: PastDateField
    sources: Sources
    status: Literal[STATUSES] | None = None  # type: ignore[valid-type]
    direction: Literal[DIRECTIONS] | None = None  # type: ignore[valid-type]
    scope: Literal[SCOPES] | None = None  # type: ignore[valid-type]
    note: Text | None = None


class CollectiveRun(Strict):
    """What a measured collective bandwidth was measured on: nccl-tests' busbw of one operation at one size."""

    operation: Literal[COLLECTIVE_OPERATIONS]  # type: ignore[valid-type]
    accelerators: Annotated[int, BeforeValidator(_whole_number), Field(ge=2)]
    size: QuantityField | None = None
    algorithm: Literal[RUN_ALGORITHMS]  # type: ignore[valid-type]
    library: Text
    domains: Annotated[int, BeforeValidator(_whole_number), Field(ge=1)] | None = None

    @model_validator(mode="after")
    def _size_is_a_data_size(self) -> "CollectiveRun":
        if self.size is not None and self.size.dimension != "size":
            raise ValueError(f"size '{self.size.text}' is not a data size")
        if self.domains is not None and self.domains > self.accelerators:
            raise ValueError(f"{self.accelerators} accelerators cannot span {self.domains} domains")
        return self


class Figure(Strict):
    value: QuantityField
    direction: Literal[DIRECTIONS] | None = None  # type: ignore[valid-type]
    scope: Literal[SCOPES] | None = None  # type: ignore[valid-type]
    status: Literal[STATUSES]  # type: ignore[valid-type]
    as_of: PastDateField
    reviewed: PastDateField
    sources: Sources
    precision: Literal[PRECISIONS] | None = None  # type: ignore[valid-type]
    sparsity: Literal[SPARSITIES] | None = None  # type: ignore[valid-type]
    method: Text | None = None
    note: Text | None = None
    uncertainty: Text | None = None
    derived: Derivation | None = None
    collective: CollectiveRun | None = None
    alternatives: list[Alternative] = []
    history: list[HistoryEntry] = []
    review: ReviewPolicy | None = None

    @model_validator(mode="after")
    def _counted_as_its_dimension_requires(self) -> "Figure":
        missing = []
        dimension = self.value.dimension
        if dimension == "bandwidth":
            missing += [key for key in ("direction", "scope") if getattr(self, key) is None]
        elif self.direction is not None:
            raise ValueError(f"'direction' applies to bandwidths only, not to a {dimension}")
        if dimension == "compute":
            missing += [key for key in ("precision", "sparsity") if getattr(self, key) is None]
        if self.status == "measured" and self.method is None:
            missing.append("method")
        if self.collective is not None and (self.status != "measured" or dimension != "bandwidth"):
            raise ValueError("'collective' belongs to a measured bandwidth (a bus bandwidth as nccl-tests reports it)")
        if missing:
            keys = ", ".join(f"'{key}'" for key in missing)
            what = "a measured figure" if missing == ["method"] else f"a {dimension} figure"
            raise ValueError(f"{what} needs {keys}")
        for entry in self.history:
            if entry.value.dimension != dimension:
                raise ValueError(f"history value '{entry.value.text}' is a {entry.value.dimension}, not a {dimension}")
        for alternative in self.alternatives:
            if alternative.value.dimension != dimension:
                raise ValueError(f"alternative value '{alternative.value.text}' is a {alternative.value.dimension}, not a {dimension}")
        dates = [entry.as_of.day for entry in self.history]
        if dates != sorted(dates, reverse=True):
            raise ValueError("history must be ordered newest first (by as_of)")
        return self


# The tools whose reports a runtime name is recorded from.
REPORTERS = (
    "nvidia-smi", "torch", "hip", "rocm-smi", "amd-smi", "rocminfo", "jax", "hl-smi", "neuron-ls", "kubernetes-label",
)
_PCI_ID = r"^[0-9a-f]{4}:[0-9a-f]{4}$"


class RuntimeName(Strict):
    """A name a tool reports for the part (torch.cuda.get_device_name, nvidia-smi, JAX device_kind, a node label...), where it was seen."""

    name: Text
    reported_by: Literal[REPORTERS]  # type: ignore[valid-type]
    ref: RecordId


class PciId(Strict):
    """The part's PCI vendor:device id (lowercase hex, `10de:2335`), where it was seen (lspci, nvidia-smi, amd-smi)."""

    id: Annotated[str, StringConstraints(pattern=_PCI_ID)]
    ref: RecordId


class Record(Strict):
    schema_: SchemaVersion = Field(alias="schema")
    id: RecordId
    kind: Literal[KINDS[:-1]]  # type: ignore[valid-type]
    name: Text
    vendor: Text
    family: Text | None = None
    released: DateField | None = None
    aliases: list[Text] = []
    runtime_names: list[RuntimeName] = []
    pci_ids: list[PciId] = []
    notes: Text | None = None
    uses: dict[Literal[tuple(ROLE_KINDS)], RecordId] = {}  # type: ignore[valid-type]
    review: ReviewPolicy | None = None
    figures: Annotated[dict[FigureName, Figure], Field(min_length=1)]


class SourceRecord(Strict):
    schema_: SchemaVersion = Field(alias="schema")
    id: RecordId
    kind: Literal["source"]
    name: Text
    publisher: Text
    url: Annotated[str, StringConstraints(pattern=r"^https?://\S+$")] | None = None
    citation: Text | None = None
    published: PastDateField | None = None
    accessed: PastDateField | None = None
    # The content's fingerprint when it was last reviewed (`specdb review` writes it; `sources check` and `stale` compare with it).
    fingerprint: Annotated[str, StringConstraints(pattern=r"^sha256:[0-9a-f]{64}$")] | None = None
    notes: Text | None = None

    @model_validator(mode="after")
    def _can_be_found(self) -> "SourceRecord":
        if self.url is None and self.citation is None:
            raise ValueError("a source needs 'url' or 'citation'")
        if self.published is None and self.accessed is None:
            raise ValueError("a source needs 'published' or 'accessed'")
        return self


_DOMAIN = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+")


def parse_domain(text: Any) -> str:
    if not isinstance(text, str) or not _DOMAIN.fullmatch(text):
        raise ValueError(f"'{text}' is not a domain name such as example.com (lowercase, without scheme or path)")
    return text


DomainName = Annotated[str, BeforeValidator(parse_domain)]


class KindPolicies(Strict):
    schema_: SchemaVersion = Field(alias="schema")
    review: dict[Literal[KINDS[:-1]], ReviewPolicy] = {}  # type: ignore[valid-type]
    # Mirrors, proxies and content farms: a source record's URL may not be on one of these hosts or their subdomains.
    excluded_source_domains: list[DomainName] = []
