"""Reinforcement learning over any rule file: a PettingZoo AEC environment and a Gymnasium wrapper.

Needs the optional extra: `pip install 'landlord-dsl[rl]'` (pettingzoo,
gymnasium, numpy). `landlord_dsl.env(...)` imports this package only when
called, and says which extra is missing.
"""

from .aec import EnvironmentUsageError, InvalidAction, LandlordAECEnv, LandlordGymEnv, ResetNeeded

__all__ = ["EnvironmentUsageError", "InvalidAction", "LandlordAECEnv", "LandlordGymEnv", "ResetNeeded"]
