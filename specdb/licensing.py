"""The licences of the code and of the data, and how to attribute the data; one place for every output that states them."""

from __future__ import annotations

CODE_LICENSE = "MIT"
DATA_LICENSE = "CC-BY-4.0"
DATA_LICENSE_TITLE = "Creative Commons Attribution 4.0 International"
DATA_LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/"


def attribution(data_version: str | None, content_hash: str) -> str:
    """The attribution line a reuser of the data copies: what, which version, under which licence, and where the sources are."""
    version = f"version {data_version}" if data_version else "custom specs"
    return (
        f"AI hardware figures from specdb ({version}, content {content_hash[:12]}), {DATA_LICENSE_TITLE} ({DATA_LICENSE}); "
        "each figure cites its own sources, listed with it."
    )
