"""Where the bundled specs and migrations are: inside the installed wheel, or at the top of a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _bundled(name: str) -> Path:
    installed = _PACKAGE / "_bundled" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def bundled_specs() -> Path:
    return _bundled("specs")


def migrations_dir() -> Path:
    return _bundled("migrations")
