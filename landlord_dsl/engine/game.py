"""Engine stage: the generic game state machine that runs a compiled rule set.

The engine knows mechanisms only: seats and positions, a ledger of accounts,
title deeds and decks, variables, movement along a ring of spaces, decisions
and chance. Everything a particular game does comes from the Program's
compiled rules. Money moves only through `transfer`, and every event in the
log names the rule that caused it.

`Game` holds the state and drives play (setup, turns, triggers, the end);
its moves are in movement.py, its cards and decks in cards.py, its decisions, auctions and loans in
decisions.py, saving and restoring in saves.py, the invariants in
invariants.py and the observers' events in events.py.
"""

from __future__ import annotations

import bisect
import copy
import operator
import os
import sysconfig
import traceback
import weakref
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import attrs

from ..core.errors import LandlordError, RuleRuntimeError, SourceText, UsageError, did_you_mean
from ..core.span import Span
from ..language.limits import MAX_INT, MAX_TURN_LIMIT, describe_int_limit, shown
from ..program.control import DEFAULT_TURN_LIMIT, MAX_TRIGGER_REPEATS, EndGame, EndTurn
from ..program.requests import BidRequest, ChanceSource, DecisionRequest, DiceRequest, SeededChance, ShuffleRequest
from .cards import Cards
from .decisions import Decisions
from .dicesets import DiceSets, is_double
from .events import LogPay, LogRoll, LogTurn, ThrowEvent, TurnEvent, decode, log_event_json
from .fields import copy_fields
from .invariants import invariant_problems
from .movement import Movement
from .saves import GameState, restore_game, save_game, seat_names

if TYPE_CHECKING:
    from ..program.compiled import Program
    from ..program.game_contract import RulesGame


# The Python errors that, raised inside the compiled rules, are the rules' failures (Game.rule_failure).
RULE_FAILURES = (RecursionError, ZeroDivisionError, TypeError, IndexError, KeyError, ValueError)


@attrs.frozen
class GameResult:
    """How a game ended."""

    turns: int
    rounds: int
    end_reason: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]


def whole_argument(value: Any, name: str) -> int:
    """Return `value`, an argument called `name`, as an int: an int or another integer type, not a bool.

    :raises UsageError: anything else (a text, a float, True), naming the argument.
    """
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    text = shown(value)
    raise UsageError(f"{name} is a whole number, not {text if len(text) <= 60 else text[:57] + '...'}")


class Game(Movement, Cards, Decisions, DiceSets):
    """One game of a compiled Program, one seat for each of its `agents`.

    Randomness comes only from `chance` (a ChanceSource) and choices only from
    `agents` (one per seat), so a game is fixed by (rules, seed, decisions).
    `new_game` makes one from a rule set or an edition's name.

    Example:

        >>> program = ld.compile_rules(ld.load_edition("landlords-game-1906"))
        >>> game = Game(program, [ld.HeuristicAgent(), ld.RandomAgent(seed=1)], seed=7)
        >>> game.play().turns > 0, len(game.scores())
        (True, 2)

    :param program: the compiled rules (from `compile_rules`).
    :param agents: one Agent a seat, in seat order; their number is the number of players.
    :param chance: what answers every throw and shuffle (default: `SeededChance(seed)`).
    :param seed: the seed of the dice and shuffles, when `chance` is not given.
    :param names: the seats' names, in seat order (default "Player 1", ...).
    :param turn_limit: the turns after which the game stops (default: the rules', else the engine's).
    :raises UsageError: the rules are not for that many players, the turn limit is out of range,
        or `names` are not one a seat, none blank, no two alike.
    """

    # Every field a game has, declared: an attribute read is then a slot's, which the interpreter makes
    # faster than a read from a dictionary of more keys than it shares between instances (benchmarks/README.md,
    # "A game's fields declared"). A subclass declares its own (`fields_of` finds them all).
    __slots__ = (
        "__weakref__",
        "_chance",
        "_pair_bits",
        "_reserve",
        "_roll",
        "active",
        "actor",
        "agents",
        "bal",
        "board_size",
        "card",
        "creditor",
        "current",
        "decisions",
        "decks",
        "depth",
        "dice",
        "dice_double",
        "dice_request",
        "dice_total",
        "due",
        "end_reason",
        "finite",
        "fired",
        "gcount",
        "gcount_at",
        "gfull",
        "gkept",
        "gv",
        "hands",
        "holder",
        "loans",
        "log",
        "minted",
        "n",
        "nacc",
        "names",
        "next_seat",
        "observers",
        "origin",
        "over",
        "owner",
        "passes",
        "pos",
        "prog",
        "pv",
        "returns",
        "rule",
        "seats",
        "set_double",
        "set_faces",
        "set_pips",
        "set_requests",
        "set_shown",
        "short",
        "shortfalls",
        "started",
        "sv",
        "titles",
        "triggers_live",
        "turn",
        "turn_after",
        "turn_limit",
        "wealth_history",
        "work",
    )

    def __init__(
        self,
        program: Program,
        agents: Sequence[Agent],
        chance: ChanceSource | None = None,
        seed: int = 0,
        names: Sequence[str] | None = None,
        turn_limit: int | None = None,
    ):
        n = len(agents)
        lo, hi = program.players
        if not lo <= n <= hi:
            raise UsageError(f"{program.title} is for {lo} to {hi} players, not {n}")
        self.prog = program
        self.n = n
        self.agents = list(agents)
        self.chance = chance if chance is not None else SeededChance(whole_argument(seed, "seed"))
        self.names = seat_names(names, n) if names else [f"Player {i + 1}" for i in range(n)]
        if turn_limit is None:
            self.turn_limit = program.turn_limit or DEFAULT_TURN_LIMIT
        else:  # a limit of 0 is refused below, not read as "the rules' limit"
            self.turn_limit = whole_argument(turn_limit, "turn_limit")
        if not 1 <= self.turn_limit <= MAX_TURN_LIMIT:
            raise UsageError(f"the turn limit must be from 1 to {MAX_TURN_LIMIT:,}, not {self.turn_limit:,}")
        self.board_size = len(program.space_names)
        self.passes = [(s, dispatch) for s, dispatch in enumerate(program.on_pass) if dispatch is not None]
        self.nacc = len(program.account_names)
        self.bal = [0] * (self.nacc + n)
        self.finite = [not u for u in program.account_unlimited] + [True] * n
        self.pos = [program.start_space] * n
        self.origin = program.start_space
        self.dice: tuple[int, ...] = (0,) * program.dice_count
        self.dice_total = 0
        self.dice_double = False
        self.gv = [v for v in program.game_var_init]
        self.pv = [[v] * n for v in program.player_var_init]
        self.sv = [list(vs) for vs in program.space_var_init]
        self.holder: list[int | None] = [None] * len(program.card_names)
        self.owner: list[int | None] = [None] * self.board_size
        self.titles: list[list[int]] = [[] for _ in range(n)]  # spaces each seat owns, in board order
        self.hands: list[list[int]] = [[] for _ in range(n)]  # cards each seat holds, in card order
        self.count_groups()
        self.decks = {name: list(cards) for name, cards in program.deck_cards.items()}
        self.returns = 0
        self.active = [not off for off in program.rule_off]
        for rule, replaced in enumerate(program.rule_replaces):
            if self.active[rule]:
                for other in replaced:
                    self.active[other] = False
        self.fired = [False] * len(program.triggers)
        self.triggers_live = self._triggers_live()
        self.wealth_history: list[tuple[int, ...]] | None = None
        self.loans: list[list[int]] = []
        self.seats = list(range(n))
        self.turn = 0
        self.next_seat = 0
        self.turn_after: int | None = None  # who plays next, when a rule said so (`give turn to`)
        self.current = 0
        self.actor = 0
        self.rule = -1
        self.depth = 0
        self.work = 0  # items gone through by the rules' loops this turn (limits.MAX_WORK)
        self.shortfalls = 0  # payments being settled by `on shortfall` rules right now
        self.short: set[int] = set()  # seats whose shortfall is being settled
        self.minted = 0
        self.due = 0
        self.creditor: int | None = None
        self.over = False
        self.end_reason = ""
        self.started = False
        self.card: int | None = None
        self.log: list[tuple] = []  # entries as the classes of events.py describe them (events.decode)
        self.decisions: list[int | None] = []
        self.dice_request = DiceRequest(program.dice_count)
        self._start_dice_sets()
        self.observers: list[Any] = []  # objects with on_throw(ThrowEvent) and/or on_turn(TurnEvent)
        self._reserve: int | None = None  # (default_reserve, worked out when first asked)

    @property
    def default_reserve(self) -> int:
        """The cash a heuristic bot without a reserve of its own keeps back in this game: the rules' money
        scale (`default_reserve` of the rules and the number of seats), worked out when first asked."""
        reserve = self._reserve
        if reserve is None:
            reserve = self._reserve = default_reserve(self.prog, self.n)
        return reserve

    @property
    def chance(self) -> ChanceSource:
        """The chance source that answers this game's dice and shuffles."""
        return self._chance

    @chance.setter
    def chance(self, source: ChanceSource) -> None:
        self._chance = source
        self._roll = source.roll  # bound once: dice are thrown a few times every turn
        # the usual pair of six-sided dice from the seeded generator, without a request: thrown by `roll` itself
        # from the generator's bits, as SeededChance.two_dice throws them
        self._pair_bits: Callable[[int], int] | None = None
        if type(source) is SeededChance and source.pairs_from_bits and self.prog.dice_count == 2:
            self._pair_bits = source.rng.getrandbits

    # ------------------------------------------------------------ queries
    def cash(self, seat: int) -> int:
        """Return a player's cash."""
        return self.bal[self.nacc + seat]

    def cards_of(self, seat: int) -> list[int]:
        """Return the cards a player holds, title deeds included, in card order (a new list)."""
        return list(self.hands[seat])

    def account_balance(self, name: str) -> int:
        """Return the balance of a declared account."""
        return self.bal[self.prog.account_names.index(name)]

    def game_var(self, name: str) -> Any:
        """Return the current value of a game variable, by its declared name."""
        return self.gv[_var_index(self.prog.game_var_names, name, "game")]

    def player_var(self, seat: int, name: str) -> Any:
        """Return the current value of a player variable of `seat` (0-based), by its declared name."""
        if not 0 <= seat < self.n:
            raise LandlordError(f"there is no seat {seat} in a game of {self.n} players (seats count from 0)")
        return self.pv[_var_index(self.prog.player_var_names, name, "player")][seat]

    def space_var(self, space: int | str, name: str) -> Any:
        """Return the current value of a space variable on `space` (its index or its name), by its declared name."""
        if isinstance(space, str):
            if space not in self.prog.space_names:
                raise LandlordError(f"there is no space '{space}' on the board")
            space = self.prog.space_names.index(space)
        if not 0 <= space < self.board_size:
            raise LandlordError(f"there is no space {space} on a board of {self.board_size} spaces")
        return self.sv[_var_index(self.prog.space_var_names, name, "space")][space]

    def space_name(self, index: int) -> str:
        """Return the label of the space at a board position."""
        return self.prog.space_labels[index]

    def observe(self, observer: Any) -> None:
        """Report every throw (`observer.on_throw(ThrowEvent)`) and turn (`observer.on_turn(TurnEvent)`) from now on.

        Either method may be missing. Observers only watch: the game is the
        same with or without them.
        """
        self.observers.append(observer)

    def listen(self, listener: Callable[[tuple], None]) -> None:
        """Call `listener(event)` with every event from now on, the moment it is logged; returns nothing.

        Live narration (`play`) and the replay page (watch.record) listen. A game
        nobody listens to keeps a plain list as its log, so listening costs nothing
        until it is asked for. Listeners only watch: the game is the same with or without them.
        """
        if not isinstance(self.log, _ListenedLog):
            self.log = _ListenedLog(self.log)
        self.log.listeners.append(listener)

    def finite_total(self) -> int:
        """Return the money held by all finite accounts (players included)."""
        return sum(b for b, f in zip(self.bal, self.finite) if f)

    def conserved(self) -> bool:
        """Return True if finite money changed only through unlimited accounts."""
        return self.finite_total() == self.minted

    def invariant_problems(self) -> list[str]:
        """Return every broken invariant of the state (an empty list when all hold); see invariants.py."""
        return invariant_problems(self)

    def rule_name(self, index: int | None = None) -> str:
        index = self.rule if index is None else index
        return self.prog.rule_names[index] if index >= 0 else "-"

    # -------------------------------------------------------- failures
    def fail(self, message: str, span: Span | None = None, hint: str | None = None) -> RuleRuntimeError:
        """Return a RuleRuntimeError located at `span` (or at the running rule)."""
        if span is None and self.rule >= 0:
            span = self.prog.rule_spans[self.rule]
        source = self.prog.sources.get(span.file) if span is not None else None
        where = f" (rule '{self.rule_name()}', turn {self.turn})"
        diag = (source or SourceText("", "")).diagnostic(message + where, span, hint)
        return RuleRuntimeError([diag, *self._origins(span)])

    def _origins(self, span: Span | None) -> tuple:
        """Return notes naming the declarations of other files (a variant's) that the failing code at `span` uses."""
        if span is None:
            return ()
        inside = [
            (start, notes)
            for start, notes in self.prog.origins
            if start.file == span.file
            and (start.line, start.column) <= (span.line, span.column)
            and (span.end_line, span.end_column) <= (start.end_line, start.end_column)
        ]
        if not inside:
            return ()
        return min(inside, key=lambda item: (item[0].end_line - item[0].line, item[0].end_column - item[0].column))[1]

    # ------------------------------------------------------------- ledger
    def account_index(self, payee: int) -> int:
        """Map a payee value (seat >= 0, account < 0) to its ledger index."""
        return self.nacc + payee if payee >= 0 else -payee - 1

    def transfer(self, amount: int, src: int, dst: int, span: Span | None = None) -> int:
        """Move `amount` between ledger indices; return what was actually paid.

        A player who cannot pay triggers the `on shortfall` rules first; what
        is still missing afterwards is not paid and is logged as unpaid.
        """
        if not 0 < amount <= MAX_INT or src == dst:
            if amount < 0:
                raise self.fail(f"a payment of a negative amount ({shown(amount)})", span)
            if amount > MAX_INT:
                raise self._beyond_range(amount, span)
            return 0
        if self.finite[src] and self.bal[src] < amount and src >= self.nacc:
            self.shortfalls += 1
            try:
                self._shortfall(src - self.nacc, amount, dst)
            finally:
                self.shortfalls -= 1
        return self._settle(amount, src, dst, span)

    def _settle(self, amount: int, src: int, dst: int, span: Span | None) -> int:
        """`transfer` once the payer's shortfall, if any, has been settled (a positive amount between two
        accounts); return what was paid."""
        bal = self.bal
        if self.finite[src] and bal[src] < amount:  # still short once his shortfall rules have run
            paid = max(bal[src], 0)
            if src < self.nacc:
                raise self.fail(f"{self.prog.account_labels[src]} holds {bal[src]} and cannot pay {amount}", span)
            self.log.append(("unpaid", self.turn, src - self.nacc, amount - paid, dst, self.rule))
            amount = paid
            if amount == 0:
                if len(self.seats) < self.n:
                    self._left_during_payment(src)
                return 0
        finite = self.finite
        # Finite balances are never negative and add up to `minted`: bounding it bounds each of them.
        if not (finite[src] and finite[dst]) and (
            bal[dst] + amount > MAX_INT
            or bal[src] - amount < -MAX_INT
            or (finite[dst] and self.minted + amount > MAX_INT)
        ):
            raise self._beyond_range(amount, span)
        bal[src] -= amount
        bal[dst] += amount
        if finite[src] != finite[dst]:
            self.minted += amount if finite[dst] else -amount
        self.log.append(("pay", self.turn, amount, src, dst, self.rule))
        if len(self.seats) < self.n:
            self._left_during_payment(src)
        return amount

    # What the compiler writes for a payment whose two sides it knows to be finite (a player, a pile) or
    # unlimited (a bank): `transfer`, with only the checks those kinds need while the payer has the money
    # (else `transfer` itself, shortfall and all). Finite balances add up to `minted` <= MAX_INT, so a
    # finite side cannot leave the range.
    def pay_within(self, amount: int, src: int, dst: int, span: Span | None = None) -> int:
        """`transfer` between two finite accounts; return what was paid."""
        bal = self.bal
        if not 0 < amount <= bal[src] or src == dst:
            return self.transfer(amount, src, dst, span)
        bal[src] -= amount
        bal[dst] += amount
        self.log.append(("pay", self.turn, amount, src, dst, self.rule))
        if len(self.seats) < self.n and src - self.nacc not in self.seats:
            self._left_during_payment(src)
        return amount

    def pay_out(self, amount: int, src: int, dst: int, span: Span | None = None) -> int:
        """`transfer` from a finite account to an unlimited one; return what was paid."""
        bal = self.bal
        if not 0 < amount <= bal[src] or bal[dst] + amount > MAX_INT:
            return self.transfer(amount, src, dst, span)
        bal[src] -= amount
        bal[dst] += amount
        self.minted -= amount
        self.log.append(("pay", self.turn, amount, src, dst, self.rule))
        if len(self.seats) < self.n and src - self.nacc not in self.seats:
            self._left_during_payment(src)
        return amount

    def pay_in(self, amount: int, src: int, dst: int, span: Span | None = None) -> int:
        """`transfer` from an unlimited account to a finite one; return what was paid."""
        bal = self.bal
        if not 0 < amount <= MAX_INT - self.minted or bal[src] - amount < -MAX_INT:
            return self.transfer(amount, src, dst, span)
        bal[src] -= amount
        bal[dst] += amount
        self.minted += amount
        self.log.append(("pay", self.turn, amount, src, dst, self.rule))  # (an account paid: nobody left)
        return amount

    def _beyond_range(self, amount: int, span: Span | None) -> RuleRuntimeError:
        """Return the error for a payment that would take an amount or balance outside the integer range."""
        return self.fail(
            f"this payment of {shown(amount)} would take the money in the game outside the numbers "
            f"landlord-dsl keeps ({describe_int_limit()})",
            span,
            "an amount that grows every time soon leaves any range; bound it",
        )

    def _left_during_payment(self, src: int) -> None:
        """End the turn of a current player who left the game while this payment was settled."""
        if src >= self.nacc and not self.shortfalls and self.turn > 0:  # during setup nobody has a turn to end
            seat = src - self.nacc
            if seat == self.current and seat not in self.seats:
                raise EndTurn()

    def _shortfall(self, seat: int, amount: int, creditor_index: int) -> None:
        handlers = self.prog.on_shortfall
        if handlers is None or seat in self.short:
            return  # a payment that fails while a shortfall is being settled is simply short
        self.short.add(seat)
        saved = (self.actor, self.due, self.creditor)
        self.actor, self.due = seat, amount
        self.creditor = creditor_index - self.nacc if creditor_index >= self.nacc else -creditor_index - 1
        try:
            handlers(self)
        finally:
            self.actor, self.due, self.creditor = saved
            self.short.discard(seat)

    # -------------------------------------------------------------- chance
    def roll(self, seat: int | None = None) -> None:
        """Throw the dice: by `seat` (for the log), the acting player if None."""
        bits = self._pair_bits
        dice: tuple[int, ...]
        if bits is not None:  # the usual pair from the seeded generator, without a request (SeededChance.two_dice)
            first = bits(3)
            while first >= 6:
                first = bits(3)
            second = bits(3)
            while second >= 6:
                second = bits(3)
            dice, self.dice_total, self.dice_double = _PAIRS[first][second]
            self.dice = dice
        else:
            dice = self.dice = self._roll(self.dice_request)
            if len(dice) == 2:  # a pair, without the general sums
                first, second = dice
                self.dice_total, self.dice_double = first + second, first == second
            else:
                self.dice_total = sum(dice)
                self.dice_double = is_double(dice)
        self.log.append(("roll", self.turn, self.actor if seat is None else seat, dice, self.rule))
        if self.observers:
            thrower = self.actor if seat is None else seat
            event = ThrowEvent(self.turn, thrower, tuple(dice), self.dice_total, self.dice_double, self.pos[thrower])
            for observer in self.observers:
                if hasattr(observer, "on_throw"):
                    observer.on_throw(event)

    def shuffle(self, deck: str) -> None:
        cards = self.decks[deck]
        order = self.chance.shuffle(ShuffleRequest(deck, len(cards)))
        cards[:] = [cards[i] for i in order]  # in place: a `draw` running meanwhile holds this list
        self.log.append(("shuffle", self.turn, deck, self.rule))

    def say(self, text: str) -> None:
        """Log a sentence a rule tells the narration (`say`)."""
        self.log.append(("say", self.turn, text, self.rule))

    # ------------------------------------------------- turns, rules, players
    def give_turn(self, seat: int, span: Span | None = None) -> None:
        """Make `seat` play the next turn (the first, during setup); the order goes on from him."""
        if seat not in self.seats:
            raise self.fail(f"{self.names[seat]} has left the game and cannot have the next turn", span)
        self.turn_after = seat
        self.log.append(("next", self.turn, seat, self.rule))

    def switch_rule(self, rule: int, enable: bool) -> None:
        """Put a rule in force (and the rules it replaces out of force), or the reverse."""
        if self.active[rule] == enable:
            return
        self.active[rule] = enable
        for other in self.prog.rule_replaces[rule]:
            self.active[other] = not enable
        self.triggers_live = self._triggers_live()
        self.log.append(("rule", self.turn, rule, enable, self.rule))

    def _triggers_live(self) -> bool:
        """Return True if some `when` trigger of a rule in force may still fire."""
        active, fired = self.active, self.fired
        return any(
            active[rule] and (repeat or not fired[index])
            for index, (rule, _, _, repeat) in enumerate(self.prog.triggers)
        )

    def run_triggers(self) -> None:
        """Fire the `when` triggers of the rules in force whose conditions hold."""
        for index, (rule, condition, body, repeat) in enumerate(self.prog.triggers):
            if not self.active[rule] or (self.fired[index] and not repeat):
                continue
            firings = 0
            while self.active[rule] and condition(self):
                saved = self.rule
                self.rule = rule
                try:
                    body(self)
                finally:
                    self.rule = saved
                if not self.fired[index]:
                    self.fired[index] = True
                    self.triggers_live = self._triggers_live()
                firings += 1
                if not repeat:
                    break
                if firings >= MAX_TRIGGER_REPEATS:
                    raise self._fired_too_often(rule, firings)

    def _fired_too_often(self, rule: int, firings: int) -> RuleRuntimeError:
        """Return the failure of a `when ... repeat` trigger of `rule` that fired `firings` times at one check."""
        self.rule = rule  # the failure is this rule's, whatever rule ran the check
        return self.fail(
            f"a `when ... repeat` trigger fired {firings} times at one check; its body must make its condition false",
            self.prog.rule_spans[rule],
        )

    def track_wealth(self) -> None:
        """Record every seat's score (its wealth) after setup and after every round from now on."""
        self.wealth_history = []

    def eliminate(self, seat: int) -> None:
        """Take a player out of the game: no more turns, bids, loans or decisions."""
        if seat in self.seats:
            self.seats = [s for s in self.seats if s != seat]
            self.log.append(("out", self.turn, seat, self.rule))
            if not self.seats:
                self.over, self.end_reason = True, "every player has left the game"
            # A player who has left takes no further part in his own turn: at once, or,
            # when he leaves while short of money, once that payment is settled. During
            # the setup (turn 0) nobody has a turn: every setup handler runs on.
            if seat == self.current and self.turn > 0 and not self.shortfalls:
                raise EndTurn()

    # ---------------------------------------------------------- game loop
    def setup(self) -> None:
        """Run the `on setup` rules once (done by `play` if not done yet)."""
        if self.started:
            return
        self.started = True
        self.actor = self.current = 0
        self.work = 0
        try:
            if self.prog.on_setup is not None:
                self.prog.on_setup(self)
            self.run_triggers()
        except EndTurn:
            pass
        except EndGame:
            self.over, self.end_reason = True, self.end_reason or "ended during setup"
        self._after_setup()

    def _after_setup(self) -> None:
        """Who plays first, once the setup's rules have run (`setup` and the stepped `setup_s`)."""
        if self.turn_after is not None:
            self.next_seat = self._take_turn_after()
        elif self.next_seat not in self.seats and self.seats:  # the first player left during the setup
            self.next_seat = self._seat_after(self.next_seat)
        if self.wealth_history is not None:
            self.wealth_history.append(self.scores())

    def play_turn(self) -> None:
        """Play one player's turn and check whether the game has ended; returns nothing.

        The setup is played first if it has not been; `result()` is not None once the game has ended.

        :raises RuleRuntimeError: a rule failed while it ran (a bug in the .lg file), located in it.
        """
        if self.over:
            return
        seat = self.next_seat
        turn = self.turn = self.turn + 1
        self.work = 0
        self.current = self.actor = seat
        self.log.append(("turn", turn, seat))
        watched = (self.pos[seat], len(self.log)) if self.observers else None
        on_turn = self.prog.on_turn
        try:
            try:
                if on_turn is not None:
                    on_turn(self)
            except EndTurn:
                pass
            self.actor = seat
            if self.triggers_live:
                self.run_triggers()
        except EndTurn:
            pass
        except EndGame:
            self.over = True
            self.end_reason = self.end_reason or f"ended by rule '{self.rule_name()}'"
        self.actor = seat
        if watched is not None:
            throws = sum(1 for e in map(decode, self.log[watched[1] :]) if isinstance(e, LogRoll) and e.seat == seat)
            event = TurnEvent(turn, seat, watched[0], self.pos[seat], throws, seat in self.seats)
            for observer in self.observers:
                if hasattr(observer, "on_turn"):
                    observer.on_turn(event)
        self._after_turn(seat, turn)

    def _after_turn(self, seat: int, turn: int) -> None:
        """Who plays next, and whether the game has ended, once `seat` has played turn `turn` (`play_turn`
        and the stepped `play_turn_s`)."""
        if self.turn_after is not None:
            next_seat = self._take_turn_after()
        elif len(self.seats) == self.n:  # everybody still plays: the next seat (as _seat_after says)
            next_seat = (seat + 1) % self.n
        else:
            next_seat = self._seat_after(seat)
        self.next_seat = next_seat
        if self.wealth_history is not None and next_seat <= seat:
            self.wealth_history.append(self.scores())
        if not self.over:
            for check, name in self.prog.end_conditions:  # (end_condition_met, without its call every turn)
                if check(self):
                    self.over, self.end_reason = True, f"end condition ({name})"
                    return
            if turn >= self.turn_limit:
                self.over, self.end_reason = True, f"turn limit ({self.turn_limit})"

    def end_condition_met(self) -> str | None:
        """Return the citation (or line) of the first `end when` condition that holds now, or None."""
        for check, name in self.prog.end_conditions:
            if check(self):
                return name
        return None

    def _take_turn_after(self) -> int:
        """Return the seat a rule gave the next turn to, if he is still playing (else the next one after him)."""
        seat, self.turn_after = self.turn_after, None
        return seat if seat in self.seats else self._seat_after(seat)  # type: ignore[arg-type]

    def _in_seat_order(self, first: int) -> list[int]:
        """Return the players still in the game, starting from `first` (or the next one) round the table."""
        seats = self.seats  # in seat order: those from `first` on come first, then the others
        at = bisect.bisect_left(seats, first)
        return seats[at:] + seats[:at]

    def _seat_after(self, seat: int) -> int:
        """Return the next seat still in the game after `seat`, in seat order."""
        seats = self.seats  # in seat order: the first after `seat`, else the first of all (round the table)
        if len(seats) == self.n:
            return (seat + 1) % self.n
        if not seats:
            return seat
        at = bisect.bisect_right(seats, seat)
        return seats[at] if at < len(seats) else seats[0]

    def play(
        self, on_turn: Callable[[Game], None] | None = None, on_setup: Callable[[Game], None] | None = None
    ) -> GameResult:
        """Play to the end; return the result. Rule bugs raise RuleRuntimeError.

        `on_turn`, if given, is called with the game after every turn (observe.follow uses it),
        `on_setup` once after the setup (the narrated `play` command uses both); what they raise
        comes out unchanged, never as a failure of the rules.

        :param on_turn: called with the game after every turn.
        :param on_setup: called with the game once, after the setup.
        :returns: the turns and rounds played, why the game ended, the scores and the winners.
        :raises RuleRuntimeError: a rule failed while it ran (a bug in the .lg file), located in it.
        """
        self._as_rule_failure(self.setup)
        if on_setup is not None:
            on_setup(self)
        if on_turn is None:
            self._as_rule_failure(self._play_turns)
        else:
            while not self.over:
                self._as_rule_failure(self.play_turn)
                on_turn(self)
        self.log_end()
        return self.result()

    def log_end(self) -> None:
        """Record the end of the game in the log (after its last turn, as `play` and a stepped State do)."""
        self.log.append(("end", self.turn, self.end_reason))

    def _play_turns(self) -> None:
        """Play turns until the game is over (one step for `_as_rule_failure`, not one a turn); return nothing.

        A turn nobody watches, with no turn given by a rule and no wealth recorded, is `play_turn` and
        `_after_turn` written out here: two calls a turn fewer. Any other turn is theirs, and every turn where
        `play_turn` is not Game's own (a subclass's, or one put in its place)."""
        if type(self).play_turn is not _PLAY_TURN:
            while not self.over:
                self.play_turn()
            return
        on_turn = self.prog.on_turn
        conditions = self.prog.end_conditions
        n = self.n
        while not self.over:
            if self.observers or self.turn_after is not None or self.wealth_history is not None:
                self.play_turn()
                continue
            seat = self.next_seat
            turn = self.turn = self.turn + 1
            self.work = 0
            self.current = self.actor = seat
            self.log.append(("turn", turn, seat))
            try:
                try:
                    if on_turn is not None:
                        on_turn(self)
                except EndTurn:
                    pass
                self.actor = seat
                if self.triggers_live:
                    self.run_triggers()
            except EndTurn:
                pass
            except EndGame:
                self.over = True
                self.end_reason = self.end_reason or f"ended by rule '{self.rule_name()}'"
            self.actor = seat
            if self.turn_after is not None or self.wealth_history is not None:
                self._after_turn(seat, turn)
                continue
            self.next_seat = (seat + 1) % n if len(self.seats) == n else self._seat_after(seat)
            if not self.over:
                for check, name in conditions:
                    if check(self):
                        self.over, self.end_reason = True, f"end condition ({name})"
                        break
                else:
                    if turn >= self.turn_limit:
                        self.over, self.end_reason = True, f"turn limit ({self.turn_limit})"

    def _as_rule_failure(self, step: Callable[[], None]) -> None:
        """Run a step of play; a Python error inside the compiled rules becomes a located RuleRuntimeError."""
        try:
            step()
        except LandlordError:
            raise
        except RULE_FAILURES as err:
            failure = self.rule_failure(err)
            if failure is None:
                raise
            raise failure from None

    def rule_failure(self, err: BaseException) -> RuleRuntimeError | None:
        """Return the located RuleRuntimeError for a Python error (one of RULE_FAILURES) raised inside the
        compiled rules, or None if an agent, a chance source or a listener raised it (their own bug)."""
        if _raised_by_the_caller(err.__traceback__):
            return None
        rule, span = self._where_in_traceback(err.__traceback__)
        if rule is not None:  # the handlers' `finally`s have put back the rule before this one
            self.rule = rule
        return self.fail(f"the rules failed at run time: {type(err).__name__}: {err}", span)

    def _where_in_traceback(self, tb: TracebackType | None) -> tuple[int | None, Any]:
        """Return (the rule whose compiled handler was running where a traceback ends, the span of the
        .lg code the innermost compiled frame there was running), each None if not known.

        The compiled rules run with the generated source's line numbers, which
        Program.line_table maps to both.
        """
        table, span = self.prog.line_table, None
        for frame, line in reversed(list(traceback.walk_tb(tb))):
            if not frame.f_code.co_filename.startswith("<compiled ") or not 0 < line <= len(table):
                continue
            rule, where = table[line - 1]
            span = span or where
            if rule is not None:
                return rule, span
        return None, span

    def scores(self) -> tuple[int, ...]:
        """Return every seat's score by the edition's score formula (cash if none)."""
        out = []
        saved = self.actor
        try:
            for seat in range(self.n):
                self.actor = seat
                out.append(self.prog.score(self) if self.prog.score else self.cash(seat))
        finally:
            self.actor = saved
        return tuple(out)

    def result(self) -> GameResult:
        """Return the game's result so far: turns, rounds, why it ended, scores and winners (the best score)."""
        scores = self.scores()
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best)
        return GameResult(self.turn, (self.turn + self.n - 1) // self.n, self.end_reason, scores, winners)

    # --------------------------------------------------------- save / load
    def save(self) -> GameState:
        """Return the state at a turn boundary (call between turns)."""
        return save_game(self)

    def restore(self, state: GameState) -> None:
        """Continue from a saved state (same rules, same options); call between turns.

        A state that does not fit the rules or breaks an invariant raises
        LandlordError and leaves the game as it was (saves.restore_game).

        :param state: a saved game (from `save`, or `state_from_json`).
        :raises SaveError: the state does not fit these rules or breaks an invariant.
        """
        restore_game(self, state)

    def fork(self, agents: Sequence[Agent] | None = None) -> Self:
        """Return an independent copy of this game that plays on exactly as this one would (call between
        turns: before `setup`, or after a turn, as from `play`'s `on_turn`; not from inside an agent).

        The copy shares the immutable Program and copies every mutable attribute: balances, positions,
        variables, deeds, hands, decks, loans, the log and the decisions, and the chance source (a
        SeededChance by its generator's state, any other source by `copy.deepcopy`). With the same
        answers both games then log the same events, and playing one never changes the other.

        `agents` are the fork's seats; by default each agent's own `fork()` (Agent.fork: a deep copy,
        the agent itself for the stateless HeuristicAgent and for HumanAgent), or `copy.deepcopy` of an
        agent without one; an agent playing several seats stays one agent in the fork. Listeners
        (`listen`) and observers (`observe`) are not copied: the fork's log is a plain list.
        """
        if agents is None:
            forked: dict[int, Any] = {}
            for agent in self.agents:
                if id(agent) not in forked:
                    fork = getattr(agent, "fork", None)
                    forked[id(agent)] = fork() if fork is not None else copy.deepcopy(agent)
            agents = [forked[id(agent)] for agent in self.agents]
        elif len(agents) != self.n:
            raise UsageError(f"a fork of a game of {self.n} players needs {self.n} agents, not {len(agents)}")
        other = object.__new__(type(self))
        copy_fields(self, other)
        for name in _FORK_FLAT:
            setattr(other, name, getattr(self, name)[:])
        for name in _FORK_ROWS:
            setattr(other, name, [row[:] for row in getattr(self, name)])
        other.log = list(self.log)
        other.decks = {name: cards[:] for name, cards in self.decks.items()}
        other.short = set(self.short)
        if self.wealth_history is not None:
            other.wealth_history = self.wealth_history[:]
        other.observers = []
        other.agents = list(agents)
        other.count_groups()  # (from the fork's own owners: its counts are lists of its own)
        other.chance = fork_chance(self._chance)
        return other

    def log_lines(self, start: int = 0) -> list[str]:
        """Return the event log from event `start` on as JSON lines (byte-identical for identical games)."""
        return [log_event_json(event) for event in self.log[start:]]


# The attributes of a Game that rules change in place (Game.fork copies them): lists of immutable
# values, and lists of such lists. tests/test_fork.py checks that every list, dict or set of a played
# game is one of these, `log`, `decks`, `short`, `wealth_history`, or never changed after `__init__`.
_FORK_FLAT: tuple[str, ...] = ("bal", "pos", "gv", "holder", "owner", "active", "fired", "seats", "decisions")
_FORK_FLAT += ("set_faces", "set_pips", "set_shown", "set_double")
_PLAY_TURN = Game.play_turn  # (Game._play_turns writes it out only for Game's own)

# a pair thrown, by its two faces less one: the pips, their total, whether they are a double (Game.roll)
_PAIRS = tuple(tuple(((a + 1, b + 1), a + b + 2, a == b) for b in range(6)) for a in range(6))
_FORK_ROWS = ("pv", "sv", "titles", "hands", "loans")


def fork_chance(source: Any) -> Any:
    """Return a copy of a chance source that answers from now on as `source` will: a SeededChance with
    its generator's state copied (not reseeded), any other source by `copy.deepcopy`."""
    if type(source) is SeededChance:
        return source.fork()
    return copy.deepcopy(source)


class _ListenedLog(list):
    """A game's event log that hands each event to the game's listeners as it is appended (Game.listen)."""

    __slots__ = ("listeners",)

    def __init__(self, events: Sequence[tuple]) -> None:
        super().__init__(events)
        self.listeners: list[Callable[[tuple], None]] = []

    def append(self, event: tuple) -> None:
        super().append(event)
        for listener in self.listeners:
            listener(event)


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # landlord_dsl/
_CALLERS_IN_PACKAGE = tuple(os.path.join(_PACKAGE, part) for part in ("agents" + os.sep, "rl" + os.sep))
_STANDARD_LIBRARY = os.path.abspath(sysconfig.get_paths()["stdlib"]) + os.sep


def _raised_by_the_caller(tb: TracebackType | None) -> bool:
    """Return True if the innermost frame of a traceback that is neither the engine's nor the standard
    library's belongs to the caller (an agent, a chance source, a listener), not to the compiled rules.

    Agents are called by the engine from inside the rules, and may call the rules back (a hint), so the
    question is which of the two ran last, not which appears in the traceback at all.
    """
    for frame, _ in reversed(list(traceback.walk_tb(tb))):
        filename = frame.f_code.co_filename
        if filename.startswith("<compiled "):
            return False
        if filename.startswith((_STANDARD_LIBRARY, "<attrs generated ")):
            continue
        if not filename.startswith(_PACKAGE) or filename.startswith(_CALLERS_IN_PACKAGE):
            return True
    return False


def _var_index(names: list[str], name: str, scope: str) -> int:
    """Return the position of a declared variable, or raise LandlordError naming the declared ones."""
    try:
        return names.index(name)
    except ValueError:
        hint = did_you_mean(name, names)
        known = ", ".join(names) or "none"
        raise LandlordError(
            f"no {scope} variable '{name}'{f' ({hint})' if hint else ''} in these rules (declared: {known})"
        ) from None


if TYPE_CHECKING:

    def _game_keeps_the_contract(game: Game) -> RulesGame:
        """(For type checkers only: a Game is what generated rule code may assume; game_contract.py.)"""
        return game


class Agent:
    """The interface: pick an option index, or bid an amount (None passes)."""

    def choose(self, game: Game, request: DecisionRequest) -> int:
        """Return the index, in `request.legal`, of the option this seat takes."""
        raise NotImplementedError(
            f"{type(self).__name__} does not answer decisions: an Agent writes choose(game, request) as well as bid"
        )

    def bid(self, game: Game, request: BidRequest) -> int | None:
        """Return a bid in `[request.minimum, request.maximum]`, or None to pass."""
        raise NotImplementedError(
            f"{type(self).__name__} does not answer bids: an Agent writes bid(game, request) as well as choose"
        )

    def fork(self) -> Agent:
        """Return the agent that plays this one's seats in a fork of the game (Game.fork): by default a
        deep copy, so an agent with state (a generator, a script) answers in the fork as it would have
        here, and independently. An agent without state may return itself."""
        return copy.deepcopy(self)


# The reserve the bots were tuned with on the shipped editions, in each of which a quarter
# of the starting money is at least this much (so their games are the same as before the
# reserve followed the rules' money scale).
RESERVE_CAP = 100

_DEFAULT_RESERVES: dict[tuple[int, int], tuple[weakref.ref, int]] = {}


def default_reserve(program: Program, players: int) -> int:
    """Return the heuristic bot's reserve for a game of `players` seats: a quarter of the least money
    a seat is given before the first turn, and at most RESERVE_CAP (docs/engine.md, "The heuristic bot").

    The starting money is measured on a setup played aside (seed 0, every decision its first
    option, no bids), so a game restored from a save gets the same reserve as the one saved.
    """
    key = (id(program), players)
    known = _DEFAULT_RESERVES.get(key)
    if known is not None and known[0]() is program:
        return known[1]
    aside = Game(program, [_FirstOption()] * players, seed=0)
    aside.setup()
    reserve = min(RESERVE_CAP, min(starting_money(aside)) // 4)
    _DEFAULT_RESERVES[key] = (weakref.ref(program), reserve)
    return reserve


class _FirstOption(Agent):
    """Takes the first option and never bids: the seats of the setup `default_reserve` plays aside."""

    def choose(self, game: Game, request: DecisionRequest) -> int:
        return 0

    def bid(self, game: Game, request: BidRequest) -> int | None:
        return None


def starting_money(game: Game) -> list[int]:
    """Return what each seat received from unlimited accounts before the first turn."""
    money = [0] * game.n
    for entry in game.log:
        logged = decode(entry)
        if isinstance(logged, LogTurn):
            break
        if isinstance(logged, LogPay) and not game.finite[logged.src] and logged.dst >= game.nacc:
            money[logged.dst - game.nacc] += logged.amount
    return money
