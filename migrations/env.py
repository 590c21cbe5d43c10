"""Alembic environment: runs on a connection handed over by specdb, or on sqlalchemy.url."""

from alembic import context
from sqlalchemy import create_engine

from specdb.db.models import metadata

config = context.config


def run_on(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
elif config.attributes.get("connection") is not None:
    run_on(config.attributes["connection"])
else:
    with create_engine(config.get_main_option("sqlalchemy.url")).begin() as connection:
        run_on(connection)
