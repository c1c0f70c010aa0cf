"""The program contract: what the compiler produces and the engine runs.

A `Program` (compiled.py) is a compiled rule set; the generated code calls
the runtime helpers (runtime.py) and the members of the game that
game_contract.py lists, signals the end of a turn or a game with the
exceptions of control.py, and asks for dice, shuffles and decisions with the
requests of requests.py. Neither the compiler nor the engine imports the
other: both build on this contract.
"""

from .._moved import forwarded_attribute
from .compiled import DiceSet, Program

__all__ = ["DiceSet", "Program"]


def __getattr__(name: str) -> object:
    """Return a name 0.1 had at this path (landlord_dsl.program), from its new module, with a DeprecationWarning."""
    return forwarded_attribute("program", name)
