"""record_digest: a digest of each record's rows, so two databases are compared record by record

A database upgraded from an earlier revision has no digests; `diff` then compares its rows.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 06:40:00
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel.sql.sqltypes


revision: str = "0004"
down_revision: Union[str, None] = "0003"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table("record_digest",
    sa.Column("id", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column("digest", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.PrimaryKeyConstraint("id", name=op.f("pk_record_digest"))
    )


def downgrade() -> None:
    op.drop_table("record_digest")
