"""Shared test configuration: Hypothesis profiles.

Select a profile with the environment variable LANDLORD_HYPOTHESIS_PROFILE:

    ci        (default) 100 examples per property, derandomized, so a plain
              `pytest` run is quick and reproducible
    thorough  2000 examples per property, random seeds, for hunting bugs:
              LANDLORD_HYPOTHESIS_PROFILE=thorough python -m pytest tests/test_fuzz.py
"""

from __future__ import annotations

import os

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
