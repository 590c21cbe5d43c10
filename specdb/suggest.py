"""'Did you mean' for a word the data does not know: the closest known words, best first."""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Iterable

from specdb.names import name_key


def _loose(text: str) -> str:
    return "".join(char for char in name_key(text) if char.isalnum())


def closest(word: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Known words that start with the word, then those containing it, then those spelled alike; ties by similarity,
    then by the longest run of characters in common.

    "h100" ranks "H100 SXM" (starts with it) before "HGX H100" (contains it) before "HGX A100" (only alike);
    "nvdia-h100" is as similar to "nvidia-hgx-a100" as to "nvidia-h100-sxm", but shares "diah100" with the latter.
    """
    wanted = _loose(word)
    ranked = []
    for candidate in dict.fromkeys(known):
        loose = _loose(candidate)
        matcher = SequenceMatcher(None, wanted, loose)
        similarity = matcher.ratio()
        starts, contains = bool(wanted) and loose.startswith(wanted), bool(wanted) and wanted in loose
        if starts or contains or similarity >= 0.6:
            longest_run = matcher.find_longest_match().size
            ranked.append((not starts, not contains, -similarity, -longest_run, candidate))
    return [candidate for *_, candidate in sorted(ranked)[:n]]


def did_you_mean(word: str, known: Iterable[str], n: int = 3) -> str:
    """"; did you mean 'x'?" naming the closest known words, or "" when none is close."""
    close = closest(word, known, n)
    return f"; did you mean {' or '.join(repr(candidate) for candidate in close)}?" if close else ""
