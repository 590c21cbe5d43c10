"""The tier ladder as a picture: memory, scale-up and scale-out bandwidth per platform on a log axis.

Matplotlib is an optional extra (`pip install 'specdb[plot]'`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from specdb.atomicwrite import destination, replacing_file
from specdb.errors import MissingExtra, UsageError

FORMATS = (".png", ".svg")
_TIER_STYLE = (("memory_gbps", "memory (HBM)", "#4c72b0"), ("scale_up_gbps", "scale-up", "#55a868"), ("scale_out_gbps", "scale-out", "#c44e52"))


def plot_ladder(rows: list[dict[str, Any]], output: Path, basis: str) -> Path:
    """Draw one column of three bars per platform, in the rows' (generation) order, with the ratios above; the image replaces output whole or not at all."""
    if output.suffix.lower() not in FORMATS:
        raise UsageError(f"--output must end in {' or '.join(FORMATS)}")
    destination(output)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtra("plotting needs matplotlib: pip install 'specdb[plot]'") from None
    rows = [row for row in rows if all(row[key] for key, _, _ in _TIER_STYLE)]
    if not rows:
        raise UsageError("no platform has all three tiers to draw")
    figure, axes = plt.subplots(figsize=(max(8, 1.3 * len(rows) + 2), 6), dpi=110)
    width = 0.26
    for offset, (key, label, color) in enumerate(_TIER_STYLE):
        for index, row in enumerate(rows):
            bar = axes.bar(index + (offset - 1) * width, row[key], width, color=color, label=label if index == 0 else None)
            bar.patches[0].set_gid(f"platform-{row['platform']}" if offset == 0 else f"platform-{row['platform']}-{key}")
    for index, row in enumerate(rows):
        mixed = set(row["mixed_counting"])
        up = f"{row['memory_to_scale_up']:.3g}x" + ("*" if "memory_to_scale_up" in mixed else "")
        out = f"{row['scale_up_to_scale_out']:.3g}x" + ("*" if "scale_up_to_scale_out" in mixed else "")
        axes.annotate(f"HBM/up {up}\nup/out {out}", (index, row["memory_gbps"] * 1.6), ha="center", va="bottom", fontsize=8)
    axes.set_yscale("log")
    axes.set_ylim(top=max(row["memory_gbps"] for row in rows) * 12)
    axes.set_xticks(range(len(rows)))
    axes.set_xticklabels([f"{row['platform']}\n{row['year'] or ''}" for row in rows], rotation=30, ha="right", fontsize=8)
    axes.set_ylabel("GB/s per accelerator (log scale)")
    note = "every link one way, memory as its total" if basis == "per-direction" else "vendors' headline figures; * mixes bidirectional and one-way figures"
    axes.set_title(f"The tier ladder by generation (basis: {basis}: {note})", fontsize=10)
    axes.legend(loc="upper left", fontsize=8)
    axes.grid(axis="y", which="major", alpha=0.3)
    figure.tight_layout()
    try:
        with replacing_file(output) as temporary:
            figure.savefig(temporary, format=output.suffix.lower()[1:])
    finally:
        plt.close(figure)
    return output
