"""Measures of how values are spread, shared by the `gini_pct` builtin and the statistics."""

from __future__ import annotations

from collections.abc import Sequence


def gini(values: Sequence[float]) -> float:
    """Return the Gini coefficient of non-negative values (0 = equal, near 1 = one holds all)."""
    xs = sorted([float(v) if v > 0 else 0.0 for v in values])  # (as max(0.0, float(v)), in half the time)
    n, total = len(xs), sum(xs)
    if n == 0 or total == 0:
        return 0.0
    weighted = sum([i * x for i, x in enumerate(xs, 1)])
    return (2 * weighted) / (n * total) - (n + 1) / n
