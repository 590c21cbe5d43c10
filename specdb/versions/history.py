"""Every value one figure has had: the history entries in its record, and the git commits that changed it."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from specdb.db.catalog import current_figure, figure_sources, history_entries, resolve
from specdb.errors import GitError
from specdb.progress import Progress


def figure_history(
    connection: sqlite3.Connection, specs: Path, record: str, figure: str, progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Rows oldest first: recorded history entries, then one row per commit that changed the figure, then the current value.

    `progress` is told of each commit's version of the file as it is read (what, done, in all).
    """
    record_id = resolve(connection, record)
    figure_id, value_text, status, as_of, reviewed, path = current_figure(connection, record_id, figure)
    rows = [
        {"origin": "history entry", "date": date, "value": value, "status": state, "reviewed": checked, "sources": sources, "commit": None}
        for value, date, state, checked, sources in history_entries(connection, figure_id)
    ]
    rows.extend(_from_git(specs, path, figure, progress))
    [sources] = figure_sources(connection, [figure_id])
    rows.append({"origin": "current", "date": as_of, "value": value_text, "status": status, "reviewed": reviewed, "sources": sources, "commit": None})
    return rows


def _from_git(specs: Path, relpath: str, figure: str, progress: Progress | None) -> list[dict[str, Any]]:
    """One row per commit whose version of the file changed this figure's value, status, review date or sources.

    In a shallow clone the oldest commit fetched seems to bring every file in; its row says the history is cut
    there, with the figure as that commit held it, rather than crediting it with a change.
    """
    from specdb.versions import gitsource
    from specdb.format.upgrades import upgraded
    from specdb.load.yamlread import parse_yaml

    try:
        repo = gitsource.repository(specs)
        versions = gitsource.file_history(repo, relpath)
        boundary = gitsource.shallow_boundary(repo)
    except GitError:
        return []
    rows: list[dict[str, Any]] = []
    previous = None
    for done, version in enumerate(versions, 1):
        if progress is not None:
            progress(f"reading the history of {relpath}", done, len(versions))
        located, _ = parse_yaml(version.content) if version.content is not None else (None, [])
        # Read as the current format has it, so a figure is followed back through its older names.
        data = upgraded(located.data, relpath).data if located is not None else None
        entry = data.get("figures", {}).get(figure) if isinstance(data, dict) and isinstance(data.get("figures"), dict) else None
        if not isinstance(entry, dict):
            state = None
        else:
            refs = entry.get("sources") if isinstance(entry.get("sources"), list) else []
            state = (entry.get("value"), entry.get("status"), entry.get("reviewed"), tuple(sorted(str(s.get("ref")) for s in refs if isinstance(s, dict))))
        truncated = version.commit in boundary
        if state != previous or truncated:
            rows.append({
                "origin": f"{'history truncated (shallow clone) at ' if truncated else ''}commit {version.commit[:10]}: {version.subject}",
                "date": version.date,
                "value": state[0] if state else "(absent)",
                "status": state[1] if state else None,
                "reviewed": state[2] if state else None,
                "sources": list(state[3]) if state else [],
                "commit": version.commit,
            })
        previous = state
    return rows
