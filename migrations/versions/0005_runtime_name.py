"""runtime_name: the names tools report for a part (nvidia-smi, torch, JAX, rocminfo, node labels) and its PCI ids, each with its source

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 08:10:00
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel.sql.sqltypes


revision: str = "0005"
down_revision: Union[str, None] = "0004"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table("runtime_name",
    sa.Column("name_key", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column("reported_by", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column("record_id", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column("name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column("source_id", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(["record_id"], ["record.id"], name=op.f("fk_runtime_name_record_id_record")),
    sa.ForeignKeyConstraint(["source_id"], ["source.id"], name=op.f("fk_runtime_name_source_id_source")),
    sa.PrimaryKeyConstraint("name_key", "reported_by", "record_id", name=op.f("pk_runtime_name"))
    )
    op.create_index(op.f("ix_runtime_name_record_id"), "runtime_name", ["record_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_runtime_name_record_id"), table_name="runtime_name")
    op.drop_table("runtime_name")
