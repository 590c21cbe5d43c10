"""Versions of the data: snapshots of a folder, a git revision or a database, what changed between two, and a figure's history."""
