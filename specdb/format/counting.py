"""How a bandwidth is counted, and the one rule for putting two figures on one basis.

Two bases. `per-direction` counts every link one way (a bidirectional figure
is halved) and memory as its total: the basis to reason on. `as-quoted`
takes the vendors' headline figures as they are, to reproduce a published page.
"""

from __future__ import annotations

from typing import NamedTuple

BASES = ("per-direction", "as-quoted")
_ONE_WAY = ("total", "per-direction")


class Bandwidth(NamedTuple):
    """A bandwidth as stored: B/s with its direction, and the record and figure it came from."""

    value: float
    direction: str
    record_id: str
    figure: str

    def on(self, basis: str) -> float:
        if basis == "per-direction" and self.direction == "bidirectional":
            return self.value / 2
        return self.value

    def counted(self, basis: str) -> str:
        if basis == "per-direction" and self.direction == "bidirectional":
            return "per-direction"
        return self.direction


def same_basis(one: str, other: str) -> bool:
    """Memory totals and one-way link figures are one basis; a bidirectional figure is not, beside either."""
    return (one in _ONE_WAY) == (other in _ONE_WAY)
