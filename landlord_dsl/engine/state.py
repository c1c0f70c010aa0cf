"""Engine stage: a game the caller steps, one request at a time, and clones (issue 29; docs/state.md).

A `State` is a game paused at its next request: a decision or a bid for a seat, or a chance request
(dice, a shuffle) when no seed answers chance inside it. The caller reads the request, applies an answer,
and clones the state to look ahead.

How it pauses: the game is a `SteppedGame` running the Program's stepped compilation, in which every
generated function that may ask is a generator (compiling/stepped_pass.py, engine/stepping.py): a
request is a `yield`, its answer is sent back, and the rules go on where they stopped. A generator
cannot be copied, so a state also keeps `base`, the game at a turn boundary (never run again, shared
with clones), and `prefix`, every answer given since. A clone shares `base` and copies `prefix`; the
first time it is read it forks `base` and replays the prefix through the stepped code. A stepped game
and a driven game (`Game.play`) with the same seed and the same answers log byte-identical events: the
same compiled rules run, and the stepped code asks in the order the driven code does.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Generator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.errors import LandlordError, UsageError
from ..program.requests import BidRequest, DecisionRequest, DiceRequest, DrawRequest, SeededChance, ShuffleRequest
from .fields import fields_of, put_fields
from .game import RULE_FAILURES, Game, whole_argument
from .hidden import Observation, Redrawn, observe, redraw
from .stepping import SteppedGame

if TYPE_CHECKING:
    from ..program.compiled import Program

# What current_player() returns when no seat acts (OpenSpiel's numbers).
CHANCE = -1
TERMINAL = -4

# A shuffle of more cards than this has too many orders to list (8! = 40,320): chance_outcomes refuses it.
MAX_LISTED_SHUFFLE = 8

# A state takes a new `base` at a turn boundary at least this often, so that a clone's first use or a
# clone of a state far from its base replays at most this many turns.
REBASE_TURNS = 16

Request = DecisionRequest | BidRequest | DiceRequest | ShuffleRequest | DrawRequest
_CHANCE_REQUESTS = (DiceRequest, ShuffleRequest, DrawRequest)


class _Outside:
    """The chance source of a game whose chance is answered outside it (`apply_chance`): never asked."""

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        raise LandlordError("a stepped game without a seed asks for its throws")  # pragma: no cover

    def shuffle(self, request: ShuffleRequest) -> list[int]:
        raise LandlordError("a stepped game without a seed asks for its shuffles")  # pragma: no cover

    def __deepcopy__(self, memo: dict) -> _Outside:
        return self


_OUTSIDE = _Outside()


def _play(game: SteppedGame) -> Generator[Request | None, Any, None]:
    """Play `game` from where it stands (before its setup, or at a turn boundary) to its end: yield each
    request and take its answer, and yield None at each turn boundary it reaches (not the one it starts at)."""
    if not game.started:
        yield from game.setup_s()
        if not game.over:
            yield None
    while not game.over:
        yield from game.play_turn_s()
        if not game.over:
            yield None


class State:
    """A game of a compiled Program paused at its next request; see docs/state.md.

    Made by `new_state`. A clone replays the answers since the last turn boundary when it is first read.

    Example:

        >>> state = ld.new_state("landlords-game-1906", players=2, seed=7)
        >>> while not state.is_terminal():
        ...     state.apply(state.legal_actions()[0])
        >>> len(state.scores())
        2

    :param program: the compiled rules (from `compile_rules`).
    :param players: seats.
    :param seed: the seed of the dice and shuffles, or None to be asked for each (`apply_chance`).
    :param turn_limit: the turns after which the game stops (default: the rules').
    :param draws: present shuffles as draws (without a seed only): a shuffle asks nothing, and each card
        taken from the top of a deck's shuffled cards is a chance request (a DrawRequest) for one of
        them; a deck whose order the rules read (`cards_in`) is still shuffled by one ShuffleRequest.
    :raises UsageError: the rules are not for that many players, or `draws` is asked with a seed.
    """

    __slots__ = ("_base", "_game", "_mark", "_pending", "_prefix", "_replaying", "_run", "_sent", "_turns")

    def __init__(
        self, program: Program, players: int, seed: int | None, turn_limit: int | None = None, draws: bool = False
    ) -> None:
        players = whole_argument(players, "players")
        if seed is not None:
            seed = whole_argument(seed, "seed")
        inside = seed is not None
        if draws and inside:
            raise UsageError("a seeded state answers its shuffles inside: draws=True needs seed=None")
        chance = SeededChance(seed) if seed is not None else _OUTSIDE
        deferred = frozenset(program.deck_cards) - program.stepped().decks_read if draws else frozenset()
        base = SteppedGame(program, [None] * players, chance, inside, turn_limit, deferred=deferred)
        self._base: SteppedGame = base
        self._prefix: list[Any] = []
        self._game: SteppedGame | None = None  # the game played, once this state has been read
        self._run: Generator[Request | None, Any, None] | None = None
        self._pending: Request | None = None
        self._sent = 0  # answers of the prefix the game played has been sent
        self._mark = 0  # how many of them came before the last turn boundary it passed
        self._turns = 0  # turn boundaries it passed since the base
        self._replaying = False

    # ---------------------------------------------------------------- playing
    # The setup and each turn run as a generator of their own (`_run`); between two of them is a turn
    # boundary, where the state counts the turns since its base and takes a new base now and then.
    def _go(self, answer: Any) -> None:
        """Send `answer` to the running setup or turn and play on to the next request, or the end; a
        Python error inside the rules becomes a located RuleRuntimeError, as in `Game.play`."""
        try:
            self._pending = self._run.send(answer)  # type: ignore[union-attr]
            return
        except StopIteration:
            pass
        except RULE_FAILURES as err:
            raise self._located(err) from None
        except BaseException:
            self._game = None  # (the rules' generator is done: a later read replays, to this failure again)
            raise
        self._play_on(True)

    def _play_on(self, boundary: bool) -> None:
        """Start the next turn (after counting the `boundary` just passed) and play to its first request,
        past turns that ask nothing, or to the end of the game."""
        game = self._game
        assert game is not None
        while not game.over:
            if boundary:
                self._mark, self._turns = self._sent, self._turns + 1
                if self._turns >= REBASE_TURNS and not self._replaying:
                    self._base, self._prefix = game.fork(agents=game.agents), []
                    self._sent = self._mark = self._turns = 0
            boundary = True
            run = self._run = game.play_turn_s()
            try:
                self._pending = run.send(None)
                return
            except StopIteration:
                continue
            except RULE_FAILURES as err:
                raise self._located(err) from None
            except BaseException:
                self._game = None  # (the rules' generator is done: a later read replays, to this failure again)
                raise
        self._run = self._pending = None
        game.log_end()

    def _located(self, err: BaseException) -> BaseException:
        """Return the located RuleRuntimeError for a Python error raised inside the rules, or `err` itself
        if it is not the rules' (Game.rule_failure). The game played is then dropped: its generator is
        done, and a later read replays the answers to the same failure."""
        failure = self._game.rule_failure(err)  # type: ignore[union-attr]
        self._game = None
        return err if failure is None else failure

    def _start(self, game: SteppedGame) -> None:
        """Play `game` (a fork of the base) from where it stands to its first request."""
        self._game = game
        self._sent = self._mark = self._turns = 0
        if game.started:
            self._play_on(False)
            return
        self._run = game.setup_s()
        self._go(None)

    def _live(self) -> SteppedGame:
        """Return the game played: the first time, fork the base and replay the prefix into it."""
        game = self._game
        if game is None:
            game = self._base.fork(agents=self._base.agents)
            self._replaying = True
            try:
                self._start(game)
                for answer in self._prefix:
                    self._sent += 1
                    if type(answer) is Redrawn:  # (drawn again by `resample` where the game then stood)
                        answer.apply(game)
                    else:
                        self._go(answer)
            finally:
                self._replaying = False
        return game

    def _answer(self, answer: Any) -> None:
        """Record and send an answer the caller gave (checked legal)."""
        self._prefix.append(answer)
        self._sent += 1
        self._go(answer)

    def _boundary_base(self) -> None:
        """Make the base the game at the last turn boundary the play passed (replayed aside from the old
        base), and the prefix the answers since: what clones share."""
        game = self._base.fork(agents=self._base.agents)
        run = _play(game)
        answers = iter(self._prefix)
        boundaries = 0
        item = next(run)
        while True:
            if item is None:
                boundaries += 1
                if boundaries == self._turns:
                    break
                item = next(run)
            else:
                answer = next(answers)
                while type(answer) is Redrawn:
                    answer.apply(game)
                    answer = next(answers)
                item = run.send(answer)
        run.close()
        self._base, self._prefix = game, self._prefix[self._mark :]
        self._sent -= self._mark
        self._mark = self._turns = 0

    # ------------------------------------------------------------------ asking
    def is_terminal(self) -> bool:
        """Return True if the game is over (no request is pending)."""
        if self._game is None:
            self._live()
        return self._pending is None

    def is_chance(self) -> bool:
        """Return True if the pending request is a chance request (dice, a shuffle or a draw), answered by
        `apply_chance`."""
        if self._game is None:
            self._live()
        return isinstance(self._pending, _CHANCE_REQUESTS)

    def current_player(self) -> int:
        """Return the seat (0-based) whose decision or bid is pending, CHANCE (-1) at a chance request,
        TERMINAL (-4) when the game is over."""
        if self._game is None:
            self._live()
        pending = self._pending
        if pending is None:
            return TERMINAL
        if isinstance(pending, (DecisionRequest, BidRequest)):
            return pending.seat
        return CHANCE

    def request(self) -> Request | None:
        """Return the pending request: a DecisionRequest or BidRequest (what an Agent is handed), a
        DiceRequest, ShuffleRequest or DrawRequest at a chance node, or None when the game is over."""
        if self._game is None:
            self._live()
        return self._pending

    def legal_actions(self) -> list[int | None]:
        """Return what `apply` accepts now: option indices for a decision; None (pass) and every amount
        from the minimum to the maximum for a bid; nothing at a chance node or the end."""
        if self._game is None:
            self._live()
        pending = self._pending
        if isinstance(pending, DecisionRequest):
            return list(range(len(pending.legal)))
        if isinstance(pending, BidRequest):
            return [None, *range(pending.minimum, pending.maximum + 1)]
        return []

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """Return every outcome of the pending chance request with its exact probability: each throw (a
        tuple of faces, 1 to sides) of a dice request; each order (a permutation, as a ShuffleRequest's
        answer) of a shuffle of at most MAX_LISTED_SHUFFLE cards; each card a DrawRequest may draw, copies
        of one card (the same name) listed once, by the first of them, with their count over the cards
        left. A larger shuffle raises UsageError: answer it with a permutation of your own (`sample_chance`)."""
        if self._game is None:
            self._live()
        pending = self._pending
        if isinstance(pending, DiceRequest):
            p = Fraction(1, pending.sides**pending.count)
            return [(throw, p) for throw in itertools.product(range(1, pending.sides + 1), repeat=pending.count)]
        if isinstance(pending, ShuffleRequest):
            if pending.size > MAX_LISTED_SHUFFLE:
                raise UsageError(
                    f"a shuffle of {pending.size} cards has {math.factorial(pending.size):,} orders, too many to "
                    f"list (at most {MAX_LISTED_SHUFFLE} cards); apply_chance one of them, e.g. sample_chance(rng)"
                )
            p = Fraction(1, math.factorial(pending.size))
            return [(list(order), p) for order in itertools.permutations(range(pending.size))]
        if isinstance(pending, DrawRequest):
            names = self._base.prog.card_names
            first: dict[str, int] = {}
            copies: dict[str, int] = {}
            for card in pending.cards:
                first.setdefault(names[card], card)
                copies[names[card]] = copies.get(names[card], 0) + 1
            left = len(pending.cards)
            return [(card, Fraction(copies[name], left)) for name, card in first.items()]
        raise UsageError("no chance request is pending (is_chance() is False)")

    def sample_chance(self, rng: random.Random) -> Any:
        """Return an outcome of the pending chance request drawn with `rng` (uniform, as the dice and the
        shuffle are): a throw, a permutation of the deck, or the card drawn."""
        if self._game is None:
            self._live()
        pending = self._pending
        if isinstance(pending, DiceRequest):
            return tuple(rng.randint(1, pending.sides) for _ in range(pending.count))
        if isinstance(pending, ShuffleRequest):
            order = list(range(pending.size))
            rng.shuffle(order)
            return order
        if isinstance(pending, DrawRequest):
            return pending.cards[rng.randrange(len(pending.cards))]
        raise UsageError("no chance request is pending (is_chance() is False)")

    # ---------------------------------------------------------------- answering
    def apply(self, action: int | None) -> None:
        """Answer the pending decision (an option's index) or bid (an amount, or None to pass); returns
        nothing. An answer not in `legal_actions()` raises UsageError and changes nothing.

        :param action: one of `legal_actions()`.
        :raises UsageError: the answer is not legal now, or no decision or bid is pending.
        """
        if self._game is None:
            self._live()
        pending = self._pending
        if isinstance(pending, DecisionRequest):
            if type(action) is not int or not 0 <= action < len(pending.legal):
                raise UsageError(f"{action!r} is not an option of '{pending.prompt}' (0 to {len(pending.legal) - 1})")
        elif isinstance(pending, BidRequest):
            if action is not None and (type(action) is not int or not pending.minimum <= action <= pending.maximum):
                raise UsageError(
                    f"{action!r} is not a bid for {pending.space} (None, or {pending.minimum} to {pending.maximum})"
                )
        else:
            what = "the game is over" if pending is None else "a chance request is pending: use apply_chance"
            raise UsageError(f"no decision or bid to apply {action!r} to: {what}")
        self._prefix.append(action)
        self._sent += 1
        try:  # (`_go`, written out: the answer most often only resumes the turn)
            self._pending = self._run.send(action)  # type: ignore[union-attr]
            return
        except StopIteration:
            pass
        except RULE_FAILURES as err:
            raise self._located(err) from None
        except BaseException:
            self._game = None  # (the rules' generator is done: a later read replays, to this failure again)
            raise
        self._play_on(True)

    def apply_chance(self, outcome: Sequence[int] | int) -> None:
        """Answer the pending chance request: a throw (one face, 1 to sides, a die), a shuffle's order
        (a permutation of range(size)) or the card drawn (one of the DrawRequest's cards); returns nothing.
        Anything else raises UsageError.

        :param outcome: the faces thrown, the deck's new order, or the card drawn.
        :raises UsageError: the outcome does not fit the request, or no chance request is pending.
        """
        if self._game is None:
            self._live()
        pending = self._pending
        if isinstance(pending, DiceRequest):
            throw = tuple(outcome)  # type: ignore[arg-type]
            if len(throw) != pending.count or not all(type(f) is int and 1 <= f <= pending.sides for f in throw):
                raise UsageError(
                    f"{outcome!r} is not a throw of {pending.count} dice of {pending.sides} faces "
                    f"(each 1 to {pending.sides})"
                )
            self._answer(throw)
        elif isinstance(pending, ShuffleRequest):
            order = list(outcome)  # type: ignore[arg-type]
            if sorted(order) != list(range(pending.size)):
                raise UsageError(f"{outcome!r} is not an order of the {pending.size} cards of {pending.deck}")
            self._answer(order)
        elif isinstance(pending, DrawRequest):
            if type(outcome) is not int or outcome not in pending.cards:
                raise UsageError(f"{outcome!r} is not one of the cards {pending.deck} may draw ({list(pending.cards)})")
            self._answer(outcome)
        else:
            raise UsageError("no chance request is pending (is_chance() is False): use apply")

    # ----------------------------------------------------------------- reading
    @property
    def game(self) -> Game:
        """Return the game as it stands at the pending request (or at the end), to read as agents read the
        game they are handed. It is this state's own, and changes as answers are applied: do not change it."""
        game = self._game
        return game if game is not None else self._live()

    @property
    def log(self) -> list[tuple]:
        """Return the event log so far (events.py's tuples), as `Game.log`."""
        return self._live().log

    def log_lines(self) -> list[str]:
        """Return the event log so far as JSON lines, as `Game.log_lines`."""
        return self._live().log_lines()

    def scores(self) -> tuple[int, ...]:
        """Return every seat's score now, by the rules' score formula (Game.scores)."""
        return self._live().scores()

    # --------------------------------------------------------- what a player sees
    def observation(self, player: int) -> Observation:
        """Return what seat `player` may see now (an `Observation`): the game's public state, his own
        pending decision or bid, and of each deck the cards whose place he saw and, as a set, the cards
        whose order nobody has seen.

        :raises UsageError: `player` is not a seat of the game.
        """
        game = self._check_seat(player)
        return observe(game, self.current_player(), self._pending, player)

    def resample(self, player: int, rng: random.Random) -> State:
        """Return a clone in which what seat `player` cannot see is drawn again with `rng` (and nothing
        else): the order of every deck's cards that nobody has seen, uniformly, and, in a seeded state,
        the generator's state (so the dice to come). The clone's `observation(player)` is this state's.

        :raises UsageError: `player` is not a seat of the game.
        """
        game = self._check_seat(player)
        other = self.clone()
        drawn = redraw(game, rng)
        if drawn is not None:
            other._prefix.append(drawn)
        return other

    def _check_seat(self, player: int) -> SteppedGame:
        """Return the game played, after checking that `player` is one of its seats (else UsageError)."""
        game = self._live()
        if type(player) is not int or not 0 <= player < game.n:
            raise UsageError(f"{player!r} is not a seat of this game (0 to {game.n - 1})")
        return game

    # ----------------------------------------------------------------- copying
    def clone(self) -> State:
        """Return an independent copy: it shares the game at the last turn boundary (never run again) and
        copies the answers since, which it replays when it is first read; applying to one never changes
        the other."""
        if self._turns:  # the base is older than this turn: move it to the turn's start, once a turn
            self._boundary_base()
        other = State.__new__(State)
        other._base, other._prefix = self._base, self._prefix[:]
        other._game = other._run = other._pending = None
        other._sent = other._mark = other._turns = 0
        other._replaying = False
        return other

    def __deepcopy__(self, memo: dict) -> State:
        """Return `clone()` (`copy.deepcopy`): the Program and the turn's start are never changed."""
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple]:
        """Pickle as the Program (which pickles as the call that compiles its rules again), the game at the
        last turn boundary and the answers since (`pickle.dumps`); the unpickled state replays them."""
        if self._turns:
            self._boundary_base()
        return (_unpickled, (self._base.prog, _base_attributes(self._base), list(self._prefix)))


# What a game's attributes hold that is not its state: the rules, the seats' agents, the chance source,
# what is worked out from them, and the observers (a pickled State's base is the rest; _base_attributes).
_NOT_STATE = frozenset(
    {"prog", "agents", "_chance", "_roll", "_pair_bits", "passes", "observers", "sprog", "step_passes"}
    | {"gcount", "gcount_at", "gfull", "gkept"}  # (counted from the owners again: Cards.count_groups)
)


def _base_attributes(game: SteppedGame) -> dict[str, Any]:
    """Return the attributes of a stepped game at a turn boundary that pickle (its state, with the seeded
    generator's state as `chance_state`, or None when chance is answered outside)."""
    out = {name: value for name, value in fields_of(game).items() if name not in _NOT_STATE}
    out["log"] = list(game.log)
    out["_reserve"] = None  # (worked out again when asked)
    chance = game.chance
    out["chance_state"] = chance.get_state() if isinstance(chance, SeededChance) else None
    return out


def _unpickled(program: Program, attributes: dict[str, Any], prefix: list[Any]) -> State:
    """Return the State a pickled one was (State.__reduce__)."""
    attributes = dict(attributes)
    chance_state = attributes.pop("chance_state")
    base = SteppedGame.__new__(SteppedGame)
    put_fields(base, attributes)
    base.prog = program
    base.agents = [None] * base.n
    base.observers = []
    base.passes = [(s, dispatch) for s, dispatch in enumerate(program.on_pass) if dispatch is not None]
    if chance_state is None:
        base.chance = _OUTSIDE
    else:
        seeded = SeededChance(0)
        seeded.set_state(chance_state)
        base.chance = seeded
    base.take_program(program.stepped())
    base.count_groups()  # (the Program was compiled again: its counted groups, not the pickled ones, count)
    state = State.__new__(State)
    state._base, state._prefix = base, prefix
    state._game = state._run = state._pending = None
    state._sent = state._mark = state._turns = 0
    state._replaying = False
    return state


def new_state(
    program: Program, players: int, seed: int | None = None, turn_limit: int | None = None, draws: bool = False
) -> State:
    """Return a State at the first request of a new game of `program` between `players` seats.

    With a `seed`, dice and shuffles are answered inside the state, exactly as `Game(seed=seed)` throws
    them; with None, every throw and shuffle is a chance request for the caller, or, with `draws`, every
    throw and every card drawn from a deck's shuffled cards (State's `draws`).
    """
    return State(program, players, seed, turn_limit, draws)  # (Game refuses a number of seats the rules do not allow)
