"""The tests that run on both paths, pure Python and the native build (the `native` fixture, conftest.py):
which shipped files build natively in the quick run."""

from __future__ import annotations

import pytest

# the editions (not their variants): one native build each in the quick run
BASE_EDITIONS = frozenset(
    {"landlords-game-1904", "landlords-game-1906", "landlords-game-1939", "monopoly-1933-atlantic-city"}
)


def skip_native_variant(request: pytest.FixtureRequest, native: bool | str, name: str) -> None:
    """Skip the native path of a test of a shipped variant unless the slow tests run (CI runs them): each
    file is a build of its own, tens of seconds of a C compiler the first time."""
    if native and name not in BASE_EDITIONS and not request.config.getoption("--run-slow"):
        pytest.skip("slow: the native build of a variant (run with --run-slow; CI does)")
