"""Run-time control: the exceptions compiled rules raise to end a turn or the game, and the engine's limits.

Both the engine and the code the compiler generates use these, so they
live apart from either: neither has to import the other to stop a turn.
"""

from __future__ import annotations

MAX_NESTING = 48  # handlers triggering handlers (e.g. a card moving onto a card space)
MAX_OFFER_ROUNDS = 256  # answers to one `offer` before it closes by itself (a rich 1933 turn builds 60 and more)
MAX_TRIGGER_REPEATS = 100  # firings of one `when ... repeat` trigger at one check
DEFAULT_TURN_LIMIT = 10_000


class EndTurn(Exception):
    """Raised by `end turn`: the current player's turn is over."""


class EndGame(Exception):
    """Raised by `end game`, an end condition or the turn limit."""
