"""Agents stage: a whole game played through the stepped State, each seat an Agent or a StateAgent.

Driven play (`Game.play`) hands an Agent the Game mid-turn; a searcher needs the State, which only a
stepped game has. `play_stepped` steps a game from its first request to its end: a seat's decisions and
bids go to its Agent (handed `state.game` and the request, as in driven play) or its StateAgent (handed
the State), and every throw and shuffle is answered by `SeededChance(seed)`, outside the state. With the
same seed and the same answers the game is the driven game of that seed (docs/state.md): a table of
bots plays the same game either way, so seats may be swapped for searchers on common random numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..core.errors import UsageError
from ..engine.game import Agent
from ..engine.state import State, new_state
from ..program.requests import DiceRequest, SeededChance
from .search import CallableAgent, StateAgent, answer_seat

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..program.compiled import Program

Seat = Agent | StateAgent | Callable[[State], Any]


def as_seat(player: Any) -> Agent | StateAgent:
    """Return a seat's player: an Agent or a StateAgent as it is, any other callable `f(state) -> action`
    as a CallableAgent. Anything else is a UsageError."""
    if isinstance(player, (Agent, StateAgent)):
        return player
    if callable(player):
        return CallableAgent(player)
    raise UsageError(
        f"{player!r} cannot play a seat: give an Agent, a StateAgent, or a function of the State that returns an answer"
    )


def needs_state(seats: Sequence[Any]) -> bool:
    """Return True if a seat answers from the State (so the game must be stepped, not driven)."""
    return any(not isinstance(s, Agent) for s in seats)


@attrs.frozen
class SteppedGame:
    """A game `play_stepped` played: the game at its end, and every seat's score and cash after the setup
    and after each round (read at the first request of the round after it), and at the end."""

    game: Game
    wealth_by_round: tuple[tuple[int, ...], ...]
    cash_by_round: tuple[tuple[int, ...], ...]


def play_stepped(
    program: Program,
    seats: Sequence[Seat],
    seed: int,
    turn_limit: int | None = None,
    listener: Callable[[tuple], None] | None = None,
) -> SteppedGame:
    """Play a game of `program` to its end through a State, seat i answered by `seats[i]`; return it.

    Dice and shuffles come from `SeededChance(seed)`, as `Game(seed=seed)` throws them. `listener`, if
    given, is called with every event of the log, in order, as the game reaches it.

    :raises UsageError: a seat cannot play, or gives an answer that is not legal.
    """
    players = [as_seat(s) for s in seats]
    state = new_state(program, len(players), seed=None, turn_limit=turn_limit)
    chance = SeededChance(seed)
    wealth: list[tuple[int, ...]] = []
    cash: list[tuple[int, ...]] = []
    told = 0
    last_round = -1
    while True:
        game = state.game
        if listener is not None:
            log = game.log
            for event in log[told:]:
                listener(event)
            told = len(log)
        if state.is_terminal():
            break
        round_ = (game.turn + game.n - 1) // game.n
        if game.turn and round_ != last_round:
            # a round's first request, which comes before anything of the round but its first turn's
            # start: the wealth after the setup (round 1) or after the round before
            wealth.append(game.scores())
            cash.append(tuple(game.cash(i) for i in range(game.n)))
            last_round = round_
        if state.is_chance():
            request = state.request()
            state.apply_chance(chance.roll(request) if isinstance(request, DiceRequest) else chance.shuffle(request))  # type: ignore[arg-type]
        else:
            state.apply(answer_seat(players[state.current_player()], state))
    game = state.game
    wealth.append(game.scores())
    cash.append(tuple(game.cash(i) for i in range(game.n)))
    return SteppedGame(game, tuple(wealth), tuple(cash))
