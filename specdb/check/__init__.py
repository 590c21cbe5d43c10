"""Checking prose: the page as text, the claims in it, the hardware it names, and each claim's verdict."""
