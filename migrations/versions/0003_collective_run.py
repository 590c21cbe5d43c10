"""collective_run: the operation, size, GPU count, algorithm and library of a measured collective bandwidth

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 01:50:00
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel.sql.sqltypes


revision: str = "0003"
down_revision: Union[str, None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table("collective_run",
    sa.Column("figure_id", sa.Integer(), nullable=False),
    sa.Column("operation", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column("accelerators", sa.Integer(), nullable=False),
    sa.Column("size_bytes", sa.Float(), nullable=True),
    sa.Column("size_text", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column("algorithm", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column("library", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column("domains", sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(["figure_id"], ["figure.id"], name=op.f("fk_collective_run_figure_id_figure")),
    sa.PrimaryKeyConstraint("figure_id", name=op.f("pk_collective_run"))
    )


def downgrade() -> None:
    op.drop_table("collective_run")
