"""Agents stage: agents answer decision and bid requests for one seat.

The searchers, which answer from the stepped State, are in search.py; the stepped driver that plays
them in stepped.py; the seat specs (`mcts:400,bot,bot`) in seats.py.

Every agent works with any edition: it sees only typed requests (options with
cost and value hints, bid ranges) and the player's cash, never a rule name.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TextIO

from ..core.errors import Diagnostic, LandlordError, UsageError, visible
from ..engine.events import LogRoll, LogTurn, decode
from ..engine.game import RESERVE_CAP as RESERVE_CAP
from ..engine.game import Agent as Agent
from ..engine.game import default_reserve as default_reserve
from ..program.requests import FOLDED_AGENTS, FOLDED_CHOOSERS, BidRequest, DecisionRequest

if TYPE_CHECKING:
    from ..engine.game import Game


class RandomAgent(Agent):
    """Picks uniformly among legal options; bids the minimum or passes at random."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game: Game, request: DecisionRequest) -> int:
        """Return a uniformly random legal option's index."""
        return self.rng.randrange(len(request.legal))

    def bid(self, game: Game, request: BidRequest) -> int | None:
        """Return the minimum bid or None (pass), at even odds."""
        return request.minimum if self.rng.random() < 0.5 else None


class HeuristicAgent(Agent):
    """A sensible bot for any edition.

    It takes the option whose value hint most exceeds its cost, among those
    that leave at least `reserve` in cash; with nothing affordable it takes
    the cheapest option. In auctions it bids up to the rules' value hint
    while keeping its reserve. With `reserve=None` (the default) the reserve
    is the rules' own money scale, `default_reserve(program, players)` of the
    game it plays.
    """

    # The compiler writes this policy into the generated option loops (codegen_stmt, `_folded_choice`),
    # and Decisions works out its bids and answers: a seat whose agent is exactly this class (it is in
    # requests.FOLDED_AGENTS) gets the same answer without a list of options or a request being made.
    # Keep `choose`, `bid` and that code in step; a subclass is always asked through its methods.

    def __init__(self, reserve: int | None = None):
        self.reserve = reserve

    def fork(self) -> HeuristicAgent:
        """Return this agent itself: it has no state that play changes (Agent.fork)."""
        return self

    def reserve_for(self, game: Game) -> int:
        """Return the cash this bot keeps back in `game`: its own `reserve`, else the rules' money scale
        (`Game.default_reserve`). The agent keeps no reference to the game: a finished game is freed at once."""
        return game.default_reserve if self.reserve is None else self.reserve

    def choose(self, game: Game, request: DecisionRequest) -> int:
        """Return the index of the affordable option whose value most exceeds its cost (else the cheapest)."""
        return self.pick(game.bal[game.nacc + request.seat] - self.reserve_for(game), request.legal)

    @staticmethod
    def pick(limit: int, legal: Sequence[tuple]) -> int:
        """Return the index, in `legal`, of the entry whose value most exceeds its cost among those costing
        at most `limit` (or nothing), else of the cheapest entry."""
        best, best_gain = -1, None
        cheapest, cheapest_cost = 0, None
        # the hints straight from the entries: (option number, bound value, cost, value)
        for i, (_, _, cost, value) in enumerate(legal):
            if cheapest_cost is None or cost < cheapest_cost:
                cheapest, cheapest_cost = i, cost
            if cost <= limit or cost <= 0:
                gain = value - cost
                if best_gain is None or gain > best_gain:
                    best, best_gain = i, gain
        return best if best >= 0 else cheapest

    def bid(self, game: Game, request: BidRequest) -> int | None:
        """Return the minimum bid while it is within the value hint and the reserve, else None (pass)."""
        ceiling = request.value
        affordable = game.bal[game.nacc + request.seat] - self.reserve_for(game)
        if request.minimum <= min(ceiling, affordable):
            return request.minimum
        return None


FOLDED_AGENTS.add(HeuristicAgent)
FOLDED_CHOOSERS.add(HeuristicAgent)


class ScriptedAgent(Agent):
    """Answers from a list, in order: option names or indices, bids or None.

    Used by tests (to pin a scenario) and by replay (the recorded answers).
    Running out of answers, or an answer that fits no option, is an error.
    """

    def __init__(self, answers: Iterable[object]):
        self.answers = list(answers)

    def _next(self, what: str) -> object:
        if not self.answers:
            raise LandlordError(f"the scripted agent has no answer left for: {what}")
        return self.answers.pop(0)

    def choose(self, game: Game, request: DecisionRequest) -> int:
        """Return the next scripted answer as an index (a name is looked up among the legal options).

        A negative index counts from the end, so DONE (-1), an offer's done as
        `Game.decisions` records it, is its last entry.
        """
        answer = self._next(request.prompt)
        if isinstance(answer, str):
            names = request.names
            if answer not in names:
                raise LandlordError(
                    f"scripted answer {answer!r} is not an option of '{request.prompt}' ({', '.join(names)})"
                )
            return names.index(answer)
        if type(answer) is int and -len(request.legal) <= answer < 0:
            return len(request.legal) + answer
        return answer  # type: ignore[return-value]

    def bid(self, game: Game, request: BidRequest) -> int | None:
        """Return the next scripted answer: a bid, or None to pass."""
        return self._next(f"a bid for {request.space}")  # type: ignore[return-value]


class SharedScript:
    """One answer list shared by all seats, in the order the game asks (for replay)."""

    def __init__(self, answers: Iterable[object]):
        self.agent = ScriptedAgent(answers)

    def seats(self, n: int) -> list[Agent]:
        return [self.agent] * n


# invalid answers in a row after which a human seat whose input is not a terminal gives up: a script or a
# file that answers wrongly would otherwise be asked forever (issue 35, item 14)
MAX_INVALID_ANSWERS = 10


def _is_terminal(stream: TextIO) -> bool:
    """Return True if `stream` is an interactive terminal (a person may still correct a wrong answer)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # a stream without a file, or closed
        return False


class HumanAgent(Agent):
    """Asks a person at the terminal."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None):
        self._stdin, self._stdout = stdin, stdout

    def fork(self) -> HumanAgent:
        """Return this agent itself: the person at the terminal answers for a fork of the game too (Agent.fork)."""
        return self

    @property
    def stdin(self) -> TextIO:
        """Return the stream answers are read from (the terminal unless one was given)."""
        return self._stdin or sys.stdin

    @property
    def stdout(self) -> TextIO:
        """Return the stream questions are written to (the terminal unless one was given)."""
        return self._stdout or sys.stdout

    def _ask(self, prompt: str, valid: Callable[[str], bool], again: str = "one of the numbers shown") -> str:
        """Return the first valid answer typed, telling the person after an invalid one to answer with `again`;
        raise UsageError when input ends, or when input that is not a terminal (a pipe, a file) gives
        MAX_INVALID_ANSWERS invalid answers in a row."""
        invalid = 0
        while True:
            self.stdout.write(prompt)
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise UsageError("input ended while the game was waiting for an answer")
            line = line.strip()
            if valid(line):
                return line
            invalid += 1
            if invalid >= MAX_INVALID_ANSWERS and not _is_terminal(self.stdin):
                shown = line if len(line) <= 40 else line[:37] + "..."
                raise UsageError(
                    [
                        Diagnostic(
                            f"{invalid} answers in a row were not valid (the last: '{visible(shown)}'), and input "
                            "is not a terminal, so no one is there to correct them: the game stops",
                            hint=f"the last question takes {again}; give a valid answer to each, one a line",
                        )
                    ]
                )
            self.stdout.write(f"  please answer with {again}\n")

    def _context(self, game: Game, seat: int) -> None:
        self.stdout.write(f"\n{visible(game.names[seat])}: {decision_context(game, seat)}\n")

    def choose(self, game: Game, request: DecisionRequest) -> int:
        """Return the index of the option the person types (asked again until the answer is valid).

        An offer's "done" has a key of its own, 0 or Enter, so the other options keep the numbers 1..n
        however many there are. An offer none of whose options the rules' hints recommend (worth more
        than it costs: mortgaging when nothing is owed, say) is not listed unless asked for with "?":
        Enter closes it at once, and no option is taken by a number the person has not been shown."""
        self._context(game, request.seat)
        self.stdout.write(f"{visible(request.prompt)}\n")
        options = request.options
        done = next((i for i, (k, *_) in enumerate(request.legal) if k == request.site.done), None)
        numbered = [i for i in range(len(options)) if i != done]
        n = len(numbered)
        if done is not None and not any(options[i].value > options[i].cost for i in numbered):
            others = f"{n} other option{'s' if n != 1 else ''}, none worth its cost now"
            self.stdout.write(f"  ({others}: press Enter for {options[done].label}, ? to list them)\n")
            if self._ask("> ", lambda s: s in ("", "0", "?"), "Enter, or ? to list the options") != "?":
                return done
        if done is not None:
            self.stdout.write(f"  0. {visible(options[done].label)}  (or press Enter)\n")
        for number, i in enumerate(numbered, 1):
            o = options[i]
            stake = ", ".join(
                f"{what} {amount}" for what, amount in (("costs", o.cost), ("worth", o.value)) if amount > 0
            )
            self.stdout.write(f"  {number}. {visible(o.label)}{f'  ({stake})' if stake else ''}\n")
        closing = ("", "0") if done is not None else ()
        again = f"a number from {0 if done is not None else 1} to {n}" + (", or Enter" if done is not None else "")
        answer = self._ask("> ", lambda s: s in closing or (s.isdigit() and 1 <= int(s) <= n), again)
        if done is not None and answer in closing:
            return done
        return numbered[int(answer) - 1]

    def bid(self, game: Game, request: BidRequest) -> int | None:
        """Return the bid the person types, or None when they pass."""
        high = f"highest bid {request.high_bid}" if request.high_bid is not None else "no bids yet"
        self._context(game, request.seat)
        self.stdout.write(f"Auction of {visible(request.space)}: opening price {request.start}, {high}.\n")
        answer = self._ask(
            f"  bid {request.minimum}..{request.maximum}, or press Enter to pass > ",
            lambda s: s == "" or (s.isdigit() and request.minimum <= int(s) <= request.maximum),
            f"a bid from {request.minimum} to {request.maximum}, or Enter to pass",
        )
        return int(answer) if answer else None


def make_agent(kind: str, seed: int, seat: int, reserve: int | None = None) -> Agent:
    """Return a new agent of a named kind (bot, random or human) for a seat; `reserve` is a bot's (None: the rules')."""
    if kind == "bot":
        return HeuristicAgent(reserve)
    if kind == "random":
        return RandomAgent(seed * 1009 + seat)
    if kind == "human":
        return HumanAgent()
    from .seats import parse_seat

    spec = parse_seat(kind)  # an unknown kind is refused here, with the nearest known one
    raise UsageError(f"the seat kind '{spec}' searches the stepped game: it plays through play_stepped, not Game.play")


def decision_context(game: Game, seat: int) -> str:
    """Return what a person answering for `seat` needs in view: his cash, his space, and this turn's last throw."""
    told = [f"cash {game.cash(seat)}", f"on {game.space_name(game.pos[seat])}"]
    for event in reversed(game.log):
        typed = decode(event)
        if isinstance(typed, LogTurn):
            break
        if isinstance(typed, LogRoll):
            thrower = "you" if typed.seat == seat else game.names[typed.seat]
            told.append(f"{thrower} threw {' + '.join(map(str, typed.dice))} = {sum(typed.dice)} this turn")
            break
    return visible(", ".join(told))
