"""create schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-29 19:03:29.762472
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel.sql.sqltypes


revision: str = '0001'
down_revision: Union[str, None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('meta',
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('value', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_meta'))
    )
    op.create_table('record',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('vendor', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('family', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('released', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('released_date', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('notes', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('path', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_record'))
    )
    with op.batch_alter_table('record', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_record_kind'), ['kind'], unique=False)

    op.create_table('source',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('publisher', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('url', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('citation', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('published', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('accessed', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('notes', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('path', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_source'))
    )
    op.create_table('alias',
    sa.Column('alias_key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('alias', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('record_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['record_id'], ['record.id'], name=op.f('fk_alias_record_id_record')),
    sa.PrimaryKeyConstraint('alias_key', name=op.f('pk_alias'))
    )
    with op.batch_alter_table('alias', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_alias_record_id'), ['record_id'], unique=False)

    op.create_table('figure',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('record_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('value_text', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('value', sa.Float(), nullable=False),
    sa.Column('unit', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('dimension', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('direction', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('scope', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('as_of', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('as_of_text', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('reviewed', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('reviewed_text', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('precision', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('sparsity', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('method', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('note', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('uncertainty', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('derived_product', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('derived_factor', sa.Float(), nullable=True),
    sa.Column('warn_after', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('error_after', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.ForeignKeyConstraint(['record_id'], ['record.id'], name=op.f('fk_figure_record_id_record')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_figure')),
    sa.UniqueConstraint('record_id', 'name', name=op.f('uq_figure_record_id'))
    )
    with op.batch_alter_table('figure', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_figure_name'), ['name'], unique=False)
        batch_op.create_index(batch_op.f('ix_figure_record_id'), ['record_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_figure_reviewed'), ['reviewed'], unique=False)

    op.create_table('record_use',
    sa.Column('record_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('role', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('target_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['record_id'], ['record.id'], name=op.f('fk_record_use_record_id_record')),
    sa.ForeignKeyConstraint(['target_id'], ['record.id'], name=op.f('fk_record_use_target_id_record')),
    sa.PrimaryKeyConstraint('record_id', 'role', name=op.f('pk_record_use'))
    )
    with op.batch_alter_table('record_use', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_record_use_target_id'), ['target_id'], unique=False)

    op.create_table('claim',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('figure_id', sa.Integer(), nullable=False),
    sa.Column('claim_kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('value_text', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('value', sa.Float(), nullable=False),
    sa.Column('unit', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('direction', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('scope', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('as_of', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('reviewed', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('note', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.ForeignKeyConstraint(['figure_id'], ['figure.id'], name=op.f('fk_claim_figure_id_figure')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_claim'))
    )
    with op.batch_alter_table('claim', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_claim_figure_id'), ['figure_id'], unique=False)

    op.create_table('citation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('figure_id', sa.Integer(), nullable=False),
    sa.Column('claim_id', sa.Integer(), nullable=True),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('source_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('quote', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('locator', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('note', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.ForeignKeyConstraint(['claim_id'], ['claim.id'], name=op.f('fk_citation_claim_id_claim')),
    sa.ForeignKeyConstraint(['figure_id'], ['figure.id'], name=op.f('fk_citation_figure_id_figure')),
    sa.ForeignKeyConstraint(['source_id'], ['source.id'], name=op.f('fk_citation_source_id_source')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_citation'))
    )
    with op.batch_alter_table('citation', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_citation_claim_id'), ['claim_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_citation_figure_id'), ['figure_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_citation_source_id'), ['source_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('citation', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_citation_source_id'))
        batch_op.drop_index(batch_op.f('ix_citation_figure_id'))
        batch_op.drop_index(batch_op.f('ix_citation_claim_id'))

    op.drop_table('citation')
    with op.batch_alter_table('claim', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_claim_figure_id'))

    op.drop_table('claim')
    with op.batch_alter_table('record_use', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_record_use_target_id'))

    op.drop_table('record_use')
    with op.batch_alter_table('figure', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_figure_reviewed'))
        batch_op.drop_index(batch_op.f('ix_figure_record_id'))
        batch_op.drop_index(batch_op.f('ix_figure_name'))

    op.drop_table('figure')
    with op.batch_alter_table('alias', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_alias_record_id'))

    op.drop_table('alias')
    op.drop_table('source')
    with op.batch_alter_table('record', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_record_kind'))

    op.drop_table('record')
    op.drop_table('meta')
