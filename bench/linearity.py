"""The line the benchmarks print to show whether a cost grows linearly with the data."""


def linearity(label: str, seconds_per_item: dict[int, float]) -> str:
    sizes = sorted(seconds_per_item)
    steps = ", ".join(f"{size}: {seconds_per_item[size] * 1e6:.0f} us" for size in sizes)
    growth = seconds_per_item[sizes[-1]] / seconds_per_item[sizes[0]]
    return f"{label} per figure: {steps}; largest / smallest {growth:.2f} (1.0 is linear)"
