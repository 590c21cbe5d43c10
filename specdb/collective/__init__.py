"""Collective operations: the peak bound from link figures, the expectation calibrated on measured runs, and importing runs."""
