"""Stage 4, the engine.

The generic game state machine that runs a Program (movement, cards,
decisions, dice, events, saves, invariants).

The engine knows no edition and no compiler: it runs what program/ describes.
"""

from .._moved import forwarded_attribute
from .game import Game

__all__ = ["Game"]


def __getattr__(name: str) -> object:
    """Return a name 0.1 had at this path (landlord_dsl.engine), from its new module, with a DeprecationWarning."""
    return forwarded_attribute("engine", name)
