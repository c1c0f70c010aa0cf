"""The generic game state machine that runs a compiled rule set.

The engine knows mechanisms only: seats and positions, a ledger of accounts,
title deeds and decks, variables, movement along a ring of spaces, decisions
and chance. Everything a particular game does comes from the Program's
compiled rules. Money moves only through `transfer`, and every event in the
log names the rule that caused it.
"""

from __future__ import annotations

import functools
import json
import re
import traceback
from typing import TYPE_CHECKING, Any, Callable, Sequence

import attrs
import cattrs

from .errors import LandlordError, RuleRuntimeError, SourceText, did_you_mean
from .limits import MAX_INT, describe_int_limit, shown
from .requests import BidRequest, ChoiceSite, DecisionRequest, DiceRequest, SeededChance, ShuffleRequest
from .saves import ledger_problems, refuse, shape_problems, structure_state

if TYPE_CHECKING:
    from .agents import Agent
    from .compiler import Program

MAX_NESTING = 48     # handlers triggering handlers (e.g. a card moving onto a card space)
MAX_OFFER_ROUNDS = 256  # answers to one `offer` before it closes by itself (a rich 1933 turn builds 60 and more)
MAX_TRIGGER_REPEATS = 100  # firings of one `when ... repeat` trigger at one check
DEFAULT_TURN_LIMIT = 10_000

# The engine's own decisions: taking a title at the auction price, and lending.
_FIRST_REFUSAL = ChoiceSite(("buy", "decline"), (None, "Let it go"), "Buy the title at the highest bid?")
_LOAN = ChoiceSite(("lend", "refuse"), (None, "Refuse"), "Lend the money?")


@functools.lru_cache(maxsize=4096)
def _jump_points(start: int, group: tuple[int, ...], size: int) -> tuple[int, int]:
    """Return (steps to the group's first member ahead of `start`, the member after that one)."""
    first = min(group, key=lambda s: (s - start - 1) % size)
    landing = min(group, key=lambda s: (s - first - 1) % size)
    return (first - start) % size or size, landing


_RULE_MARK = re.compile(r"\s*# rule (\w+): ")


class EndTurn(Exception):
    """Raised by `end turn`: the current player's turn is over."""


class EndGame(Exception):
    """Raised by `end game`, an end condition or the turn limit."""


@attrs.define
class GameState:
    """Everything needed to continue a game from a turn boundary (saved as JSON)."""

    rules_hash: str
    options: dict[str, Any]
    players: int
    names: list[str]
    balances: list[int]
    positions: list[int]
    origin: int
    dice: list[int]
    game_vars: list[Any]
    player_vars: list[list[Any]]
    space_vars: list[list[Any]]
    holders: list[int | None]
    decks: dict[str, list[int]]
    active_rules: list[bool]
    fired: list[bool]
    loans: list[list[int]]
    seats: list[int]
    turn: int
    next_seat: int
    minted: int
    over: bool
    end_reason: str
    chance_state: Any


@attrs.frozen
class ThrowEvent:
    """A throw of the dice, reported to observers: who threw, the dice, and where the thrower stood."""

    turn: int
    seat: int
    dice: tuple[int, ...]
    total: int
    double: bool
    position: int


@attrs.frozen
class TurnEvent:
    """A finished turn, reported to observers: where the player began and ended it, and how often he threw."""

    turn: int
    seat: int
    start: int
    end: int
    throws: int
    still_playing: bool


@attrs.frozen
class GameResult:
    """How a game ended."""

    turns: int
    rounds: int
    end_reason: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]


class Game:
    """One game of a compiled Program between `players` seats.

    Randomness comes only from `chance` (a ChanceSource) and choices only from
    `agents` (one per seat), so a game is fixed by (rules, seed, decisions).
    """

    def __init__(self, program: "Program", agents: Sequence["Agent"], chance=None, seed: int = 0,
                 names: Sequence[str] | None = None, turn_limit: int | None = None):
        n = len(agents)
        lo, hi = program.players
        if not lo <= n <= hi:
            raise LandlordError(f"{program.title} is for {lo} to {hi} players, not {n}")
        self.prog = program
        self.n = n
        self.agents = list(agents)
        self.chance = chance if chance is not None else SeededChance(seed)
        self.names = list(names) if names else [f"Player {i + 1}" for i in range(n)]
        self.turn_limit = turn_limit or program.turn_limit or DEFAULT_TURN_LIMIT
        self.board_size = len(program.space_names)
        self.pass_spaces = [s for s, dispatch in enumerate(program.on_pass) if dispatch is not None]
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
        self.decks = {name: list(cards) for name, cards in program.deck_cards.items()}
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
        self.log: list[tuple] = []
        self.decisions: list[int | None] = []
        self.dice_request = DiceRequest(program.dice_count)
        self.observers: list[Any] = []  # objects with on_throw(ThrowEvent) and/or on_turn(TurnEvent)

    @property
    def chance(self):
        """The chance source that answers this game's dice and shuffles."""
        return self._chance

    @chance.setter
    def chance(self, source) -> None:
        self._chance = source
        self._roll = source.roll  # bound once: dice are thrown a few times every turn

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

    def finite_total(self) -> int:
        """Return the money held by all finite accounts (players included)."""
        return sum(b for b, f in zip(self.bal, self.finite) if f)

    def conserved(self) -> bool:
        """Return True if finite money changed only through unlimited accounts."""
        return self.finite_total() == self.minted

    def invariant_problems(self) -> list[str]:
        """Return every broken invariant of the state (an empty list when all hold).

        Money is conserved; no finite account is negative; every title deed's
        holder is its space's owner and each seat's title list matches; every
        card is either in exactly one deck or held, never both, and no card
        that started in a deck has been lost; positions are on the board; the
        seats still playing are real seats.
        """
        problems = []
        if not self.conserved():
            problems.append(f"money not conserved: finite accounts hold {self.finite_total()}, "
                            f"{self.minted} came in from unlimited accounts")
        for index, (balance, finite) in enumerate(zip(self.bal, self.finite)):
            if finite and balance < 0:
                name = self.names[index - self.nacc] if index >= self.nacc else self.prog.account_labels[index]
                problems.append(f"{name} has a negative balance ({balance})")
        for space, card in enumerate(self.prog.title_card):
            if card is not None and self.owner[space] != self.holder[card]:
                problems.append(f"{self.space_name(space)}: owner {self.owner[space]} but deed held by "
                                f"{self.holder[card]}")
        for seat in range(self.n):
            owned = sorted(s for s, o in enumerate(self.owner) if o == seat)
            if self.titles[seat] != owned:
                problems.append(f"seat {seat + 1}'s title list {self.titles[seat]} is not what it owns {owned}")
            held = [card for card, holder in enumerate(self.holder) if holder == seat]
            if self.hands[seat] != held:
                problems.append(f"seat {seat + 1}'s hand {self.hands[seat]} is not the cards it holds {held}")
        placed: dict[int, str] = {}
        for deck, cards in self.decks.items():
            for card in cards:
                if card in placed:
                    problems.append(f"card {self.prog.card_names[card]} is in {placed[card]} and {deck}")
                placed[card] = deck
                if self.holder[card] is not None:
                    problems.append(f"card {self.prog.card_names[card]} is in deck {deck} and held by a player")
        for cards in self.prog.deck_cards.values():
            for card in cards:
                if card not in placed and self.holder[card] is None:
                    problems.append(f"card {self.prog.card_names[card]} is in no deck and held by nobody: lost")
        if any(not 0 <= p < self.board_size for p in self.pos):
            problems.append(f"a position is off the board: {self.pos}")
        if any(not 0 <= s < self.n for s in self.seats):
            problems.append(f"unknown seats in play: {self.seats}")
        return problems

    def rule_name(self, index: int | None = None) -> str:
        index = self.rule if index is None else index
        return self.prog.rule_names[index] if index >= 0 else "-"

    # -------------------------------------------------------- failures
    def fail(self, message: str, span=None, hint: str | None = None) -> RuleRuntimeError:
        """Return a RuleRuntimeError located at `span` (or at the running rule)."""
        if span is None and self.rule >= 0:
            span = self.prog.rule_spans[self.rule]
        source = self.prog.sources.get(span.file) if span is not None else None
        where = f" (rule '{self.rule_name()}', turn {self.turn})"
        diag = (source or SourceText("", "")).diagnostic(message + where, span, hint)
        return RuleRuntimeError([diag, *self._origins(span)])

    def _origins(self, span) -> tuple:
        """Return notes naming the declarations of other files (a variant's) that the failing code at `span` uses."""
        if span is None:
            return ()
        inside = [(start, notes) for start, notes in self.prog.origins if start.file == span.file
                  and (start.line, start.column) <= (span.line, span.column)
                  and (span.end_line, span.end_column) <= (start.end_line, start.end_column)]
        if not inside:
            return ()
        return min(inside, key=lambda item: (item[0].end_line - item[0].line, item[0].end_column - item[0].column))[1]

    # ------------------------------------------------------------- ledger
    def account_index(self, payee: int) -> int:
        """Map a payee value (seat >= 0, account < 0) to its ledger index."""
        return self.nacc + payee if payee >= 0 else -payee - 1

    def transfer(self, amount: int, src: int, dst: int, span=None) -> int:
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
        bal = self.bal
        if self.finite[src] and bal[src] < amount:
            if src >= self.nacc:
                self.shortfalls += 1
                try:
                    self._shortfall(src - self.nacc, amount, dst)
                finally:
                    self.shortfalls -= 1
            if bal[src] < amount:
                paid = max(bal[src], 0)
                if src < self.nacc:
                    raise self.fail(f"{self.prog.account_labels[src]} holds {bal[src]} and cannot pay {amount}",
                                    span)
                self.log.append(("unpaid", self.turn, src - self.nacc, amount - paid, dst, self.rule))
                amount = paid
                if amount == 0:
                    if len(self.seats) < self.n:
                        self._left_during_payment(src)
                    return 0
        finite = self.finite
        # Finite balances are never negative and add up to `minted`: bounding it bounds each of them.
        if not (finite[src] and finite[dst]) and (bal[dst] + amount > MAX_INT or bal[src] - amount < -MAX_INT
                                                   or finite[dst] and self.minted + amount > MAX_INT):
            raise self._beyond_range(amount, span)
        bal[src] -= amount
        bal[dst] += amount
        if finite[src] != finite[dst]:
            self.minted += amount if finite[dst] else -amount
        self.log.append(("pay", self.turn, amount, src, dst, self.rule))
        if len(self.seats) < self.n:
            self._left_during_payment(src)
        return amount

    def _beyond_range(self, amount: int, span) -> RuleRuntimeError:
        """Return the error for a payment that would take an amount or balance outside the integer range."""
        return self.fail(f"this payment of {shown(amount)} would take the money in the game outside the numbers "
                         f"landlord-dsl keeps ({describe_int_limit()})", span,
                         "an amount that grows every time soon leaves any range; bound it")

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

    # ----------------------------------------------------------- handlers
    # ----------------------------------------------------------- movement
    def jump_target(self, start: int, steps: int, group: tuple[int, ...]) -> int | None:
        """Return where a move of `steps` ends if it jumps once along `group`, or None.

        The mover counts to the first member of the group ahead; if steps are
        left there, one step jumps to the next member, and the rest are
        counted on from it. None if the count runs out at or before the first
        member (or the group has fewer than two members).
        """
        size = self.board_size
        if len(group) < 2:
            return None
        reach, landing = _jump_points(start, group, size)
        if reach >= steps:
            return None
        return (landing + steps - reach - 1) % size

    def move_steps(self, steps: int, forward: bool, via: tuple[int, ...] | None = None, span=None) -> None:
        """Move the acting player: forward (optionally jumping along `via`) or backward."""
        if steps < 0:
            raise self.fail(f"cannot move a negative number of steps ({shown(steps)})", span)
        start, size = self.pos[self.actor], self.board_size
        if via is not None:
            dest = self.jump_target(start, steps, via)
            if dest is None:
                raise self.fail("this move cannot jump: the count ends before the first jump point", span,
                                "guard the option with `via(group, steps) != none`")
            # a jump travels along the track: the spaces it skips are passed, not landed on
            self.advance((dest - start) % size or size)
        elif forward:
            self.advance(steps)
        else:
            self._relocate((start - steps) % size)

    def move_to(self, dest: int) -> None:
        """Move the acting player forward to `dest`, passing what lies between."""
        distance = (dest - self.pos[self.actor]) % self.board_size
        if distance:
            self.advance(distance)
        else:
            self._relocate(dest)

    def _relocate(self, dest: int) -> None:
        """Move the acting player to `dest` without passing anything, then land."""
        seat = self.actor
        self.origin = start = self.pos[seat]
        self.pos[seat] = dest
        self.log.append(("move", self.turn, seat, start, dest, self.rule))
        self.land()

    def advance(self, steps: int, span=None) -> None:
        """Move the acting player `steps` forward along the track, passing and then landing.

        `on pass` handlers fire, in the order reached, for every space the
        move reaches or goes past (each once per move), the landing space
        included; then the landing handlers of the space the player is on.
        """
        if steps < 0:
            raise self.fail(f"cannot move a negative number of steps ({shown(steps)})", span)
        seat = self.actor
        pos = self.pos
        start = pos[seat]
        size = self.board_size
        self.origin = start
        dest = (start + steps) % size
        pos[seat] = dest
        self.log.append(("move", self.turn, seat, start, dest, self.rule))
        prog = self.prog
        pass_spaces = self.pass_spaces
        if len(pass_spaces) == 1:
            if ((pass_spaces[0] - start) % size or size) <= steps:
                prog.on_pass[pass_spaces[0]](self)
        elif pass_spaces:
            passed = sorted((distance, s) for s in pass_spaces if (distance := (s - start) % size or size) <= steps)
            passes = prog.on_pass
            for _, s in passed:
                passes[s](self)
        dispatch = prog.on_land[pos[self.actor]]  # where he is now: a pass may have moved him
        if dispatch is not None:
            dispatch(self)

    def send(self, seat: int, dest: int) -> None:
        self.log.append(("send", self.turn, seat, self.pos[seat], dest, self.rule))
        self.pos[seat] = dest

    def land(self) -> None:
        dispatch = self.prog.on_land[self.pos[self.actor]]
        if dispatch is not None:
            dispatch(self)

    # -------------------------------------------------------------- chance
    def roll(self, seat: int | None = None) -> None:
        """Throw the dice: by `seat` (for the log), the acting player if None."""
        dice = self.dice = self._roll(self.dice_request)
        if len(dice) == 2:  # the usual pair, without the general sums
            first, second = dice
            self.dice_total, self.dice_double = first + second, first == second
        else:
            self.dice_total = sum(dice)
            self.dice_double = len(dice) > 1 and dice.count(dice[0]) == len(dice)
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

    # ------------------------------------------------------------- cards
    def set_holder(self, card: int, seat: int | None) -> None:
        """Give a card to a player (None: to nobody), taking it out of any deck."""
        previous = self.holder[card]
        self.holder[card] = seat
        if previous is not None:
            self.hands[previous].remove(card)
        if seat is not None:
            hand = self.hands[seat]
            hand.append(card)
            if len(hand) > 1 and hand[-2] > card:
                hand.sort()
        space = self.prog.card_space[card]
        if space is not None:
            self.owner[space] = seat
            if previous is not None:
                self.titles[previous].remove(space)
            if seat is not None:
                self.titles[seat].append(space)
                self.titles[seat].sort()
        if previous is None and seat is not None:
            for deck in self.decks.values():  # wherever it was returned to
                if card in deck:
                    deck.remove(card)
                    break
        self.log.append(("card", self.turn, card, previous, seat, self.rule))

    def return_card(self, card: int, deck: str) -> None:
        if self.holder[card] is not None:
            self.set_holder(card, None)
        cards = self.decks[deck]
        if card in cards:
            cards.remove(card)
        cards.append(card)

    def draw(self, deck: str) -> None:
        cards = self.decks[deck]
        if not self.prog.deck_enabled[deck](self):
            return
        if not cards:
            self.log.append(("empty", self.turn, deck, self.rule))
            return
        card = cards.pop(0)
        self.log.append(("draw", self.turn, self.actor, card, self.rule))
        effect = self.prog.card_effects[card]
        saved_card = self.card
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.fail("rules trigger each other too deeply (an endless chain of moves or draws?)")
        try:
            self.card = card
            effect(self)
        finally:
            # Also when the effect ends the turn (the drawer went bankrupt, or `end turn`):
            # the card is put away before the turn unwinds, never lost.
            self.depth -= 1
            self.card = saved_card
            if self.holder[card] is None and card not in cards:
                if self.prog.deck_kept[deck] and self.actor in self.seats:
                    self.set_holder(card, self.actor)
                else:
                    cards.append(card)

    def deal(self, count: int, deck: str) -> None:
        cards = self.decks[deck]
        for i in range(min(count, len(cards))):
            self.set_holder(cards[0], self.seats[i % len(self.seats)])

    # ----------------------------------------------------------- decisions
    def choose(self, seat: int, prompt: str, legal: list[tuple], site: ChoiceSite,
               describe: Callable[[int, Any], str] | None = None) -> tuple:
        """Ask `seat` to pick one of a choice's `legal` entries; return the entry picked.

        Entries are `(option number, bound value, cost, value)`. A single
        legal option is taken without asking; none at all is a fault of the rules.
        """
        count = len(legal)
        if count < 2:
            if count:
                return legal[0]
            raise self.fail(f"no option of '{site.prompt}' is allowed here", site.span,
                            "add an option without a `when`, so there is always a way on")
        rule = self.rule
        answer = self.agents[seat].choose(
            self, DecisionRequest(seat, prompt, legal, site, describe, rule, self.prog.rule_names))
        if not isinstance(answer, int) or not 0 <= answer < count:
            raise LandlordError(f"the agent for seat {seat + 1} answered {answer!r}, "
                                f"not one of the {count} options of '{prompt}'")
        entry = legal[answer]
        self.decisions.append(answer)
        self.log.append(("decide", self.turn, seat, prompt, site.names[entry[0]], rule))
        return entry

    def offer_closed(self, site: ChoiceSite) -> None:
        """Log that an `offer` closed by itself after MAX_OFFER_ROUNDS answers (a rule or bot that never says done)."""
        self.log.append(("offer_closed", self.turn, self.actor, site.prompt, self.rule))

    def ask_bid(self, request: BidRequest) -> int | None:
        answer = self.agents[request.seat].bid(self, request)
        if answer is not None and (not isinstance(answer, int) or not request.minimum <= answer <= request.maximum):
            raise LandlordError(f"the agent for seat {request.seat + 1} bid {answer!r}, outside "
                                f"{request.minimum}..{request.maximum}")
        self.decisions.append(answer)
        self.log.append(("bid", self.turn, request.seat, request.space, answer, self.rule))
        return answer

    def auction(self, space: int, start: int, step: int, first: int | None, proceeds: int, span=None,
                value: int | None = None) -> None:
        """Sell a space's title to the highest bidder; `first` may then buy at that price.

        Players still in the game are asked in turn from the current player
        (except `first`) to bid at least `step` over the high bid, until one
        bidder is left. `value` is the rules' hint of the title's worth.
        """
        card = self.prog.title_card[space]
        if card is None:
            raise self.fail(f"{self.space_name(space)} has no title deed to auction", span)
        if self.holder[card] is not None:
            return
        value = start + start // 4 if value is None else value
        label = self.space_name(space)
        rule = self.rule_name()
        bidders = [s for s in self._in_seat_order(self.current) if s != first]
        high, high_bidder = None, None
        active = list(bidders)
        rounds = 0
        while active and rounds < 1000:
            rounds += 1
            still = []
            for seat in active:
                if seat == high_bidder:
                    still.append(seat)
                    continue
                minimum = start if high is None else high + step
                maximum = self.cash(seat)
                if minimum > maximum:
                    continue
                answer = self.ask_bid(BidRequest(seat, rule, label, high, minimum, maximum, start, value))
                if answer is not None:
                    high, high_bidder = answer, seat
                    still.append(seat)
            active = still
            if len(active) <= 1:
                break
        price = high if high is not None else start
        buyer = high_bidder
        if first is not None and self.cash(first) >= price:
            entry = self.choose(first, f"Buy {label} for {price}?", [(0, None, price, value), (1, None, 0, 0)],
                                _FIRST_REFUSAL, lambda k, x: f"Buy {label} for {price}")
            if entry[0] == 0:
                buyer = first
        if buyer is not None:
            self.transfer(price, self.nacc + buyer, self.account_index(proceeds), span)
            self.set_holder(card, buyer)

    def give_turn(self, seat: int, span=None) -> None:
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
        return any(active[rule] and (repeat or not fired[index])
                   for index, (rule, _, _, repeat) in enumerate(self.prog.triggers))

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
                    self.rule = rule  # the failure is this rule's, whatever rule ran the check
                    raise self.fail(f"a `when ... repeat` trigger fired {firings} times at one check; "
                                    "its body must make its condition false", self.prog.rule_spans[rule])

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

    # --------------------------------------------------------------- loans
    def borrow(self, amount: int, interest_pct: int) -> None:
        borrower = self.actor
        if amount <= 0:
            return
        interest = amount * interest_pct // 100
        for lender in self._in_seat_order(borrower):
            if lender == borrower:
                continue
            if self.cash(lender) < amount:
                continue
            entry = self.choose(lender, f"Lend {amount} to {self.names[borrower]} at {interest_pct}%?",
                                [(0, None, amount, amount + interest), (1, None, 0, 0)], _LOAN,
                                lambda k, x: f"Lend {amount}")
            if entry[0] == 0:
                self.transfer(amount, self.nacc + lender, self.nacc + borrower)
                self.loans.append([lender, borrower, amount, interest])
                return

    def repay_loans(self, interest: bool = True) -> None:
        """Settle every loan of the acting player that his cash covers: what was lent, plus the interest if `interest`."""
        seat = self.actor
        for loan in [l for l in self.loans if l[1] == seat]:
            owed = loan[2] + (loan[3] if interest else 0)
            if self.cash(seat) >= owed:
                self.transfer(owed, self.nacc + seat, self.nacc + loan[0])
                self.loans.remove(loan)

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
        if self.turn_after is not None:
            self.next_seat = self._take_turn_after()
        elif self.next_seat not in self.seats and self.seats:  # the first player left during the setup
            self.next_seat = self._seat_after(self.next_seat)
        if self.wealth_history is not None:
            self.wealth_history.append(self.scores())

    def play_turn(self) -> None:
        """Play one player's turn and check whether the game has ended."""
        if self.over:
            return
        seat = self.next_seat
        turn = self.turn = self.turn + 1
        self.work = 0
        self.current = self.actor = seat
        self.log.append(("turn", turn, seat))
        prog = self.prog
        watched = (self.pos[seat], len(self.log)) if self.observers else None
        try:
            try:
                if prog.on_turn is not None:
                    prog.on_turn(self)
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
            throws = sum(1 for e in self.log[watched[1]:] if e[0] == "roll" and e[2] == seat)
            event = TurnEvent(turn, seat, watched[0], self.pos[seat], throws, seat in self.seats)
            for observer in self.observers:
                if hasattr(observer, "on_turn"):
                    observer.on_turn(event)
        next_seat = self._take_turn_after() if self.turn_after is not None else self._seat_after(seat)
        self.next_seat = next_seat
        if self.wealth_history is not None and next_seat <= seat:
            self.wealth_history.append(self.scores())
        if not self.over:
            for check, name in prog.end_conditions:
                if check(self):
                    self.over, self.end_reason = True, f"end condition ({name})"
                    break
            else:
                if turn >= self.turn_limit:
                    self.over, self.end_reason = True, f"turn limit ({self.turn_limit})"

    def _take_turn_after(self) -> int:
        """Return the seat a rule gave the next turn to, if he is still playing (else the next one after him)."""
        seat, self.turn_after = self.turn_after, None
        return seat if seat in self.seats else self._seat_after(seat)

    def _in_seat_order(self, first: int) -> list[int]:
        """Return the players still in the game, starting from `first` (or the next one) round the table."""
        return sorted(self.seats, key=lambda s: (s - first) % self.n)

    def _seat_after(self, seat: int) -> int:
        """Return the next seat still in the game after `seat`, in seat order."""
        if len(self.seats) == self.n:
            return (seat + 1) % self.n
        for step in range(1, self.n + 1):
            candidate = (seat + step) % self.n
            if candidate in self.seats:
                return candidate
        return seat

    def play(self, on_turn: Callable[["Game"], None] | None = None) -> GameResult:
        """Play to the end; return the result. Rule bugs raise RuleRuntimeError.

        `on_turn`, if given, is called with the game after every turn (observe.follow uses it);
        what it raises comes out unchanged, never as a failure of the rules.
        """
        self._as_rule_failure(self.setup)
        while not self.over:
            self._as_rule_failure(self.play_turn)
            if on_turn is not None:
                on_turn(self)
        self.log.append(("end", self.turn, self.end_reason))
        return self.result()

    def _as_rule_failure(self, step: Callable[[], None]) -> None:
        """Run a step of play; a Python error inside the compiled rules becomes a located RuleRuntimeError."""
        try:
            step()
        except LandlordError:
            raise
        except (RecursionError, ZeroDivisionError, TypeError, IndexError, KeyError, ValueError) as err:
            rule = self._rule_in_traceback(err.__traceback__)
            if rule is not None:  # the handlers' `finally`s have put back the rule before this one
                self.rule = rule
            raise self.fail(f"the rules failed at run time: {type(err).__name__}: {err}") from None

    def _rule_in_traceback(self, tb) -> int | None:
        """Return the rule whose compiled handler was running where a traceback ends, or None.

        The generated source marks each handler with `# rule NAME: ...` and
        runs with its line numbers: the innermost compiled frame under such a
        mark, within its function, names the rule.
        """
        lines = self.prog.python_source.splitlines()
        for frame, line in reversed(list(traceback.walk_tb(tb))):
            if not frame.f_code.co_filename.startswith("<compiled "):
                continue
            for text in reversed(lines[:line]):
                mark = _RULE_MARK.match(text)
                if mark and mark.group(1) in self.prog.rule_names:
                    return self.prog.rule_names.index(mark.group(1))
                if text.startswith("def "):
                    break
        return None

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
        get_state = getattr(self.chance, "get_state", None)
        return GameState(
            rules_hash=self.prog.rules_hash, options=dict(self.prog.options), players=self.n,
            names=list(self.names), balances=list(self.bal), positions=list(self.pos), origin=self.origin,
            dice=list(self.dice), game_vars=list(self.gv), player_vars=[list(v) for v in self.pv],
            space_vars=[list(v) for v in self.sv], holders=list(self.holder),
            decks={k: list(v) for k, v in self.decks.items()}, active_rules=list(self.active),
            fired=list(self.fired),
            loans=[list(l) for l in self.loans], seats=list(self.seats), turn=self.turn, next_seat=self.next_seat,
            minted=self.minted, over=self.over, end_reason=self.end_reason,
            chance_state=_jsonable(get_state()) if get_state else None,
        )

    def restore(self, state: GameState) -> None:
        """Continue from a saved state (same rules, same options); call between turns.

        This is the one place that replaces the game's lists (owners, balances,
        variables...) rather than changing them in place: compiled rules read
        each into a local once per call (compiler.read_game_lists_once).
        A state that does not fit the rules or breaks an invariant (money not
        conserved, a card lost or in two places...) raises LandlordError and
        leaves the game as it was.
        """
        if state.rules_hash != self.prog.rules_hash or state.options != self.prog.options:
            raise LandlordError("the saved game was played under other rules or options")
        if state.players != self.n:
            raise LandlordError(f"the saved game has {state.players} players, not {self.n}")
        problems = shape_problems(self, state)
        if problems:
            raise refuse(problems)
        before = dict(self.__dict__)  # every field below is rebound, never changed in place
        chance_before = self.chance.get_state() if hasattr(self.chance, "get_state") else None
        if state.chance_state is not None and hasattr(self.chance, "set_state"):
            try:
                self.chance.set_state(_tupled(state.chance_state))
            except (TypeError, ValueError, OverflowError, IndexError, KeyError, AttributeError) as err:
                raise refuse([f"chance_state: not a state of the dice ({err})"]) from None
        self._apply(state)
        problems = ledger_problems(state) + self.invariant_problems()
        if problems:
            self.__dict__.update(before)
            if chance_before is not None:
                self.chance.set_state(chance_before)
            raise refuse(problems)

    def _apply(self, state: GameState) -> None:
        """Take every value of a checked saved state."""
        self.names = list(state.names)
        self.bal, self.pos, self.origin = list(state.balances), list(state.positions), state.origin
        self.dice = tuple(state.dice)
        self.dice_total, self.dice_double = sum(self.dice), len(self.dice) > 1 and len(set(self.dice)) == 1
        self.gv, self.pv, self.sv = list(state.game_vars), [list(v) for v in state.player_vars], [
            list(v) for v in state.space_vars]
        self.holder = list(state.holders)
        self.owner = [None] * self.board_size
        self.titles = [[] for _ in range(self.n)]
        self.hands = [[] for _ in range(self.n)]
        for card, seat in enumerate(self.holder):
            if seat is not None:
                self.hands[seat].append(card)
            space = self.prog.card_space[card]
            if space is not None:
                self.owner[space] = seat
                if seat is not None:
                    self.titles[seat].append(space)
        for owned in self.titles:
            owned.sort()
        self.decks = {k: list(v) for k, v in state.decks.items()}
        self.active = list(state.active_rules)
        self.fired = list(state.fired)
        self.triggers_live = self._triggers_live()
        self.loans = [list(l) for l in state.loans]
        self.seats = list(state.seats)
        self.turn, self.next_seat, self.minted = state.turn, state.next_seat, state.minted
        self.over, self.end_reason, self.started = state.over, state.end_reason, True

    def log_lines(self, start: int = 0) -> list[str]:
        """Return the event log from event `start` on as JSON lines (byte-identical for identical games)."""
        return [json.dumps(event, separators=(",", ":")) for event in self.log[start:]]


def _var_index(names: list[str], name: str, scope: str) -> int:
    """Return the position of a declared variable, or raise LandlordError naming the declared ones."""
    try:
        return names.index(name)
    except ValueError:
        hint = did_you_mean(name, names)
        known = ", ".join(names) or "none"
        raise LandlordError(f"no {scope} variable '{name}'{f' ({hint})' if hint else ''} in these rules "
                            f"(declared: {known})") from None


_converter = cattrs.Converter()


def state_to_json(state: GameState) -> str:
    """Serialise a GameState to JSON text."""
    return json.dumps(_converter.unstructure(state), sort_keys=True)


def state_from_json(text: str) -> GameState:
    """Read a GameState from JSON text; malformed input raises LandlordError."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise LandlordError(f"not a saved landlord-dsl game: {err}") from None
    return structure_state(data)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value
