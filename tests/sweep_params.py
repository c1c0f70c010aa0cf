"""Parameters of the tests that sweep every shipped rule file.

The quick run (`python -m pytest`) sweeps the three editions; the variants,
which share their edition's engine paths, are marked slow and run with
`--run-slow` (as CI runs the suite).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

EDITIONS = ("landlords-game-1904", "landlords-game-1906", "monopoly-1933-atlantic-city")


def variants_slow(values: Iterable[Any], name: Callable[[Any], str] = str) -> list[Any]:
    """Return `values` as parameters, each one whose `name(value)` is not an edition's marked slow."""
    return [v if name(v) in EDITIONS else pytest.param(v, marks=pytest.mark.slow) for v in values]
