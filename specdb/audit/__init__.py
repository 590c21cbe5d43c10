"""Audit another project's hand-kept hardware table: read it (one module a format), judge each field it maps against the
data (`judge`), and say what was found (`render`)."""
