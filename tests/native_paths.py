"""The tests that run on both paths, pure Python and the native build (the `native` fixture, conftest.py):
which shipped files build natively in the quick run."""

from __future__ import annotations

import pytest

# the editions (not their variants): one native build each in the quick run
BASE_EDITIONS = frozenset(
    {"landlords-game-1904", "landlords-game-1906", "landlords-game-1939", "monopoly-1933-atlantic-city"}
)


# C flags of a variant's native build in the tests: its games are those of the C the flags compile, at
# any optimisation level, and -O0 takes a sixth of the compiler's time (about 6 CPU seconds against 36
# for a 1933 variant); the editions are built with Python's own flags, as users get them
VARIANT_CFLAGS = "-O0"


def skip_native_variant(request: pytest.FixtureRequest, native: bool | str, name: str) -> None:
    """Skip the native path of a test of a shipped variant unless the slow tests run (CI runs them): each
    file is a build of its own, tens of seconds of a C compiler the first time; when it runs, build it
    with VARIANT_CFLAGS."""
    if native and name not in BASE_EDITIONS:
        if not request.config.getoption("--run-slow"):
            pytest.skip("slow: the native build of a variant (run with --run-slow; CI does)")
        request.getfixturevalue("monkeypatch").setenv("CFLAGS", VARIANT_CFLAGS)
