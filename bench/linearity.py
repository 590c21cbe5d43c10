"""The lines the benchmarks print to show whether a cost grows linearly with the data."""


def linearity(label: str, seconds_per_item: dict[int, float]) -> str:
    sizes = sorted(seconds_per_item)
    steps = ", ".join(f"{size}: {seconds_per_item[size] * 1e6:.0f} us" for size in sizes)
    growth = seconds_per_item[sizes[-1]] / seconds_per_item[sizes[0]]
    return f"{label} per figure: {steps}; largest / smallest {growth:.2f} (1.0 is linear)"


def marginal(label: str, cost: dict[int, tuple[float, int]]) -> str:
    """What each figure beyond the smaller size adds, between successive sizes: CPU seconds and bytes of peak memory.

    Start-up (imports, the first pages of the database) cancels out, so equal
    steps mean a cost linear in the number of figures.
    """
    sizes = sorted(cost)
    steps = []
    for smaller, larger in zip(sizes, sizes[1:]):
        added = larger - smaller
        seconds = (cost[larger][0] - cost[smaller][0]) / added
        memory = (cost[larger][1] - cost[smaller][1]) / added
        steps.append(f"{smaller}->{larger}: {seconds * 1e6:.0f} us and {memory:.0f} bytes a figure")
    return f"{label}, marginal: " + "; ".join(steps)
