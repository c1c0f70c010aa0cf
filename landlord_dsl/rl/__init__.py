"""Reinforcement learning over any rule file: PettingZoo AEC and parallel environments and a Gymnasium wrapper.

Needs the optional extra: `pip install 'landlord-dsl[rl]'` (pettingzoo,
gymnasium, numpy). `landlord_dsl.env(...)` imports this package only when
called, and says which extra is missing. The environments step a
`landlord_dsl.State` (docs/state.md): pure Python, deep-copyable and picklable.
"""

from .aec import (
    EnvironmentUsageError,
    InvalidAction,
    LandlordAECEnv,
    LandlordGymEnv,
    LandlordParallelEnv,
    ResetNeeded,
)

__all__ = [
    "EnvironmentUsageError",
    "InvalidAction",
    "LandlordAECEnv",
    "LandlordGymEnv",
    "LandlordParallelEnv",
    "ResetNeeded",
]
