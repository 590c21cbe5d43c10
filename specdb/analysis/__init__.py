"""Questions asked of one version: the tier ladder and its ratios, comparisons, figures due for review, the ladder plot."""
