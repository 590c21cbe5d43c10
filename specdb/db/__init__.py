"""The database: its tables and migrations, the build into SQLite, the publish to PostgreSQL, and the read side."""
