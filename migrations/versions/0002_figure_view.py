"""figure_view: every figure with its record's kind, name and vendor, for browsing the file without joins

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 19:30:00
"""
from typing import Sequence, Union

from alembic import op

revision: str = "0002"
down_revision: Union[str, None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute(
        "CREATE VIEW figure_view AS"
        " SELECT f.record_id, r.kind, r.name AS record_name, r.vendor, f.name AS figure,"
        " f.value_text, f.value, f.unit, f.direction, f.scope, f.status, f.as_of, f.reviewed,"
        " (SELECT group_concat(c.source_id, ' ') FROM citation c WHERE c.figure_id = f.id AND c.claim_id IS NULL) AS sources"
        " FROM figure f JOIN record r ON r.id = f.record_id"
    )


def downgrade() -> None:
    op.execute("DROP VIEW figure_view")
