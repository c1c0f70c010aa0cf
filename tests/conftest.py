"""Shared test configuration: Hypothesis profiles and the slow tests.

Tests marked `@pytest.mark.slow` (each takes many seconds: whole-edition
sweeps, long fuzzing, browsers, benchmarks) are skipped unless pytest is run
with `--run-slow`; CI (.ci/run) runs them all:

    python -m pytest              the quick run, for while you work
    python -m pytest --run-slow   everything, as CI runs it

Both run on every core (`-n auto` in pyproject.toml); add `-n 0` for one process.

Select a profile with the environment variable LANDLORD_HYPOTHESIS_PROFILE:

    ci        (default) 100 examples per property, derandomized, so a plain
              `pytest` run is quick and reproducible
    thorough  2000 examples per property, random seeds, for hunting bugs:
              LANDLORD_HYPOTHESIS_PROFILE=thorough python -m pytest --run-slow tests/test_fuzz.py
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=_SLOW_OK,
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=_SLOW_OK,
)
settings.load_profile(os.environ.get("LANDLORD_HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", default=False, help="also run the tests marked slow (CI does)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow (CI does)")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.fixture(params=["python", "native"])
def native(request: pytest.FixtureRequest) -> bool | str:
    """The `native` argument of compile_ruleset for the path a test runs on: False (pure Python), or
    "require" (the native build, docs/engine.md), skipped where Cython or a C compiler is missing."""
    if request.param == "python":
        return False
    from landlord_dsl.compiling.native import native_unavailable

    reason = native_unavailable()
    if reason is not None:
        pytest.skip(f"no native build here: {reason}")
    return "require"
