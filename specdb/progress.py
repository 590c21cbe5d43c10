"""What long work tells of its progress, for a caller to show (the CLI shows it on a terminal only)."""

from __future__ import annotations

from typing import Callable

# What is being done, the items done so far, the items in all.
Progress = Callable[[str, int, int], None]
# Files validated so far, files in all.
FilesDone = Callable[[int, int], None]


def told(label: str, progress: Progress | None) -> FilesDone | None:
    """Validation's files-done count, as the progress of the work named by label."""
    return None if progress is None else lambda done, total: progress(label, done, total)
