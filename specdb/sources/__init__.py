"""Checking sources: fetching their addresses, the cache of what was fetched, finding the quotes, and recording a re-review."""
