"""The database schema: the one definition, from which the Alembic migrations are written.

Read commands do not import this module: they query the tables with the
standard library's sqlite3 (see `store.py`); a test checks that the
migrations create exactly these tables.
"""

from __future__ import annotations

from typing import Optional

from sqlalchemy import MetaData, UniqueConstraint
from sqlmodel import Field, SQLModel

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata: MetaData = SQLModel.metadata


class Meta(SQLModel, table=True):
    """Facts about the build: content hash of the specs, git revision, record format, data licence."""

    key: str = Field(primary_key=True)
    value: str


class Record(SQLModel, table=True):
    id: str = Field(primary_key=True)
    kind: str = Field(index=True)
    name: str
    vendor: Optional[str] = None
    family: Optional[str] = None
    released: Optional[str] = Field(default=None, description="as written: YYYY-MM or YYYY-MM-DD")
    released_date: Optional[str] = Field(default=None, description="ISO date; a month means its first day")
    notes: Optional[str] = None
    path: str = Field(description="file path relative to the specs folder")


class Source(SQLModel, table=True):
    id: str = Field(primary_key=True)
    name: str
    publisher: str
    url: Optional[str] = None
    citation: Optional[str] = None
    published: Optional[str] = None
    accessed: Optional[str] = None
    notes: Optional[str] = None
    path: str
    fingerprint: Optional[str] = None


class Alias(SQLModel, table=True):
    alias_key: str = Field(primary_key=True, description="casefolded alias, for lookups")
    alias: str
    record_id: str = Field(foreign_key="record.id", index=True)


class RuntimeName(SQLModel, table=True):
    __tablename__ = "runtime_name"

    name_key: str = Field(primary_key=True, description="casefolded name, for lookups; a PCI id as vendor:device")
    reported_by: str = Field(primary_key=True, description="the tool that reports the name, or 'pci' for a PCI vendor:device id")
    record_id: str = Field(foreign_key="record.id", primary_key=True, index=True)
    name: str
    source_id: str = Field(foreign_key="source.id")


class RecordUse(SQLModel, table=True):
    __tablename__ = "record_use"

    record_id: str = Field(foreign_key="record.id", primary_key=True)
    role: str = Field(primary_key=True, description="accelerator, scale_up, host_link, scale_out, nic, system")
    target_id: str = Field(foreign_key="record.id", index=True)


class Figure(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("record_id", "name"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    record_id: str = Field(foreign_key="record.id", index=True)
    name: str = Field(index=True)
    value_text: str = Field(description="the value as written in the spec")
    value: float = Field(description="canonical SI value: B/s, B, FLOP/s, T/s, Bd, s, W, Hz, or 1")
    unit: str
    dimension: str
    direction: Optional[str] = None
    scope: Optional[str] = None
    status: str
    as_of: str = Field(description="ISO date")
    as_of_text: str
    reviewed: str = Field(index=True, description="ISO date")
    reviewed_text: str
    precision: Optional[str] = None
    sparsity: Optional[str] = None
    method: Optional[str] = None
    note: Optional[str] = None
    uncertainty: Optional[str] = None
    derived_product: Optional[str] = Field(default=None, description="space-separated figure references")
    derived_factor: Optional[float] = None
    warn_after: Optional[str] = Field(default=None, description="effective review policy, e.g. '6 month'; NULL when off")
    error_after: Optional[str] = None


class Claim(SQLModel, table=True):
    """A figure's earlier values (history) and competing values (alternative)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    figure_id: int = Field(foreign_key="figure.id", index=True)
    claim_kind: str = Field(description="history or alternative")
    position: int
    value_text: str
    value: float
    unit: str
    status: Optional[str] = None
    direction: Optional[str] = None
    scope: Optional[str] = None
    as_of: Optional[str] = None
    reviewed: Optional[str] = None
    reason: Optional[str] = None
    note: Optional[str] = None


class Citation(SQLModel, table=True):
    """A source behind a figure (claim_id NULL) or behind one of its claims."""

    id: Optional[int] = Field(default=None, primary_key=True)
    figure_id: int = Field(foreign_key="figure.id", index=True)
    claim_id: Optional[int] = Field(default=None, foreign_key="claim.id", index=True)
    position: int
    source_id: str = Field(foreign_key="source.id", index=True)
    quote: Optional[str] = None
    locator: Optional[str] = None
    note: Optional[str] = None


class CollectiveRun(SQLModel, table=True):
    """What a measured collective bandwidth figure was measured on (nccl-tests' busbw of one operation at one size)."""

    __tablename__ = "collective_run"

    figure_id: int = Field(foreign_key="figure.id", primary_key=True)
    operation: str = Field(description="all-reduce, all-gather, reduce-scatter, all-to-all, point-to-point")
    accelerators: int
    size_bytes: Optional[float] = Field(default=None, description="message size in bytes (nccl-tests' size column); NULL: a large-message peak stated without a size")
    size_text: Optional[str] = None
    algorithm: str = Field(description="ring, tree, nvls (NVLink SHARP), collnet (InfiniBand SHARP), or default (the library chose)")
    library: str = Field(description="library and version, e.g. NCCL 2.18.5")
    domains: Optional[int] = Field(default=None, description="scale-up domains (nodes) the run spanned; NULL: as few as hold its accelerators")


class RecordDigest(SQLModel, table=True):
    """A digest of each record's (or source's) rows, written with them, so two databases are compared record by record without reading their rows."""

    __tablename__ = "record_digest"

    id: str = Field(primary_key=True, description="record or source id")
    digest: str = Field(description="hash of every row the record owns, without the ids that only number rows within one database")
