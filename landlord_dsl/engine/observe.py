"""Following a game: typed events, throws and turns, read from the engine's log.

The engine logs plain tuples (they are what `log_lines()` writes, byte for
byte, and what replays compare), laid out as events.py's classes say. This
module resolves them further without changing them: `event(game, entry)`
turns one log tuple into one of the NamedTuples below (with names for
accounts, cards and rules), `events(game)` does it for a whole log, and
`turns(game)` / `follow(game, ...)` cut the log into turns and throws and
say where the tokens stood. A seat is a number from 0; a party to a payment
is a seat number or the name of a declared account; a rule is its name, or
None for the engine's own doing (a turn starting, the game ending).

A *throw* is a throw of any dice: the edition's (`roll dice`, a `roll`
event) or a declared set's (`roll NAME`, a `throw` event). It starts at
such an event and ends at the next one, the next turn or the end of the
game; the thrower's position then is where the throw ended (in Jail, say,
if the rules sent him there or kept him there). A set thrown by the same
player before his token has moved, and not already in the throw, is thrown
with it (the pair and the speed die are one throw); throwing a set again
starts a new throw. It is a *movement* throw when it is the turn's first or
the thrower's token moved or was sent during it; a later roll that moved
nothing was made for another purpose (a utility's rent, say). A *turn* ends
where the next one starts (or the game ends); the current player's position
then is where the turn ended. What the rules do during
the setup belongs to no turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, Union

import attrs

from .events import (
    LogBid,
    LogCard,
    LogDecide,
    LogDraw,
    LogEmpty,
    LogEnd,
    LogEvent,
    LogMove,
    LogNext,
    LogOfferClosed,
    LogOut,
    LogPay,
    LogRoll,
    LogRule,
    LogSay,
    LogSend,
    LogShuffle,
    LogThrow,
    LogTurn,
    LogUnpaid,
    decode,
)

if TYPE_CHECKING:
    from .game import Game, GameResult


class TurnStarted(NamedTuple):
    turn: int
    seat: int


class Rolled(NamedTuple):
    turn: int
    seat: int
    dice: tuple[int, ...]
    rule: str | None


class ThrewSet(NamedTuple):
    """A throw of a set of dice declared with `dice NAME ...` (`roll NAME`): what each die shows, as text."""

    turn: int
    seat: int
    dice: str
    shown: tuple[str, ...]
    rule: str | None


class Moved(NamedTuple):
    """A move along the track (`move`): passes and lands."""

    turn: int
    seat: int
    start: int
    dest: int
    rule: str | None


class Sent(NamedTuple):
    """A token put on a space directly (`send`): no passing, no landing."""

    turn: int
    seat: int
    start: int
    dest: int
    rule: str | None


class Paid(NamedTuple):
    turn: int
    amount: int
    payer: int | str  # a seat, or a declared account's name
    payee: int | str
    rule: str | None


class Unpaid(NamedTuple):
    """The part of a payment a player could not pay."""

    turn: int
    seat: int
    amount: int
    payee: int | str
    rule: str | None


class CardMoved(NamedTuple):
    """A card (a title deed included) changed hands; None is no player (a deck)."""

    turn: int
    card: str
    space: int | None  # the space a title deed stands for
    previous: int | None
    holder: int | None
    rule: str | None


class Drew(NamedTuple):
    turn: int
    seat: int
    card: str
    rule: str | None


class Shuffled(NamedTuple):
    turn: int
    deck: str
    rule: str | None


class DeckEmpty(NamedTuple):
    turn: int
    deck: str
    rule: str | None


class Decided(NamedTuple):
    turn: int
    seat: int
    prompt: str
    option: str
    rule: str | None


class Bid(NamedTuple):
    turn: int
    seat: int
    space: str  # the label of the space auctioned
    amount: int | None  # None: no bid
    rule: str | None


class OfferClosed(NamedTuple):
    turn: int
    seat: int
    prompt: str
    rule: str | None


class TurnGiven(NamedTuple):
    turn: int
    seat: int
    rule: str | None


class RuleSwitched(NamedTuple):
    turn: int
    switched: str
    enabled: bool
    rule: str | None


class Eliminated(NamedTuple):
    turn: int
    seat: int
    rule: str | None


class Said(NamedTuple):
    turn: int
    text: str
    rule: str | None


class GameEnded(NamedTuple):
    turn: int
    reason: str


Event = Union[
    TurnStarted,
    Rolled,
    ThrewSet,
    Moved,
    Sent,
    Paid,
    Unpaid,
    CardMoved,
    Drew,
    Shuffled,
    DeckEmpty,
    Decided,
    Bid,
    OfferClosed,
    TurnGiven,
    RuleSwitched,
    Eliminated,
    Said,
    GameEnded,
]


def event(game: Game, entry: tuple) -> Event:
    """Return the typed event for one log tuple of `game` (the tuple itself is left as it is)."""
    return _resolved(game, decode(entry))


def _resolved(game: Game, logged: LogEvent) -> Event:
    """Return the typed event of a decoded log event, with names for the accounts, cards and rules it names."""
    prog = game.prog

    def rule(index: int) -> str | None:
        return prog.rule_names[index] if index >= 0 else None

    def party(index: int) -> int | str:
        return index - game.nacc if index >= game.nacc else prog.account_names[index]

    match logged:
        case LogTurn(turn=turn, seat=seat):
            return TurnStarted(turn, seat)
        case LogRoll(turn=turn, seat=seat, dice=dice, rule=r):
            return Rolled(turn, seat, tuple(dice), rule(r))
        case LogThrow(turn=turn, seat=seat, dice=dice, faces=faces, rule=r):
            thrown = prog.dice_set(dice)
            return ThrewSet(turn, seat, dice, tuple(thrown.shown(face) for face in faces), rule(r))
        case LogMove(turn=turn, seat=seat, start=start, dest=dest, rule=r):
            return Moved(turn, seat, start, dest, rule(r))
        case LogSend(turn=turn, seat=seat, start=start, dest=dest, rule=r):
            return Sent(turn, seat, start, dest, rule(r))
        case LogPay(turn=turn, amount=amount, src=src, dst=dst, rule=r):
            return Paid(turn, amount, party(src), party(dst), rule(r))
        case LogUnpaid(turn=turn, seat=seat, amount=amount, dst=dst, rule=r):
            return Unpaid(turn, seat, amount, party(dst), rule(r))
        case LogCard(turn=turn, card=card, previous=previous, holder=holder, rule=r):
            return CardMoved(turn, prog.card_names[card], prog.card_space[card], previous, holder, rule(r))
        case LogDraw(turn=turn, seat=seat, card=card, rule=r):
            return Drew(turn, seat, prog.card_names[card], rule(r))
        case LogShuffle(turn=turn, deck=deck, rule=r):
            return Shuffled(turn, deck, rule(r))
        case LogEmpty(turn=turn, deck=deck, rule=r):
            return DeckEmpty(turn, deck, rule(r))
        case LogDecide(turn=turn, seat=seat, prompt=prompt, option=option, rule=r):
            return Decided(turn, seat, prompt, option, rule(r))
        case LogBid(turn=turn, seat=seat, space=space, amount=amount, rule=r):
            return Bid(turn, seat, space, amount, rule(r))
        case LogOfferClosed(turn=turn, seat=seat, prompt=prompt, rule=r):
            return OfferClosed(turn, seat, prompt, rule(r))
        case LogNext(turn=turn, seat=seat, rule=r):
            return TurnGiven(turn, seat, rule(r))
        case LogRule(turn=turn, switched=switched, enabled=enabled, rule=r):
            return RuleSwitched(turn, prog.rule_names[switched], enabled, rule(r))
        case LogOut(turn=turn, seat=seat, rule=r):
            return Eliminated(turn, seat, rule(r))
        case LogSay(turn=turn, text=text, rule=r):
            return Said(turn, text, rule(r))
        case LogEnd(turn=turn, reason=reason):
            return GameEnded(turn, reason)
    raise ValueError(f"unknown log entry {logged!r}")


def events(game: Game, start: int = 0) -> Iterator[Event]:
    """Yield the typed events of the game's log from index `start` on."""
    for entry in game.log[start:]:
        yield event(game, entry)


class Throw(NamedTuple):
    """One throw of the dice and what followed it until the next throw or turn."""

    turn: int
    seat: int
    dice: tuple[int, ...]  # the edition's dice; () when only declared sets were thrown
    start: int  # where the thrower stood when he threw
    end: int  # where he stood when the throw was over
    events: tuple[Event, ...]
    movement: bool = True  # see the module's docstring
    sets: tuple[str, ...] = ("dice",)  # the sets thrown: "dice" for the edition's, else a declared set's name


class Turn(NamedTuple):
    """One player's turn: its events, its throws, and where his token started and ended."""

    turn: int
    seat: int
    start: int
    end: int
    throws: tuple[Throw, ...]
    events: tuple[Event, ...]


@attrs.define
class _OpenThrow:
    """A throw not yet over: who threw, what, from where, and the index of its first event."""

    turn: int
    seat: int
    dice: tuple[int, ...]
    start: int
    first: int
    sets: list[str]
    moved: bool = False  # the thrower's token has moved or been sent since


class Tracker:
    """Reads a log from its beginning and keeps what it implies: positions, owners, cuts into turns.

    `feed(entry)` takes log tuples in order and returns the Turns that entry
    closed (one, or none); `close()` returns the last turn when the log ends.
    """

    def __init__(self, game: Game):
        self.game = game
        self.pos = [game.prog.start_space] * game.n
        self.owner: list[int | None] = [None] * game.board_size
        # Rent, by space: every payment from a player to the player who owns the space the
        # payer stands on (whatever rule made it), so it needs no edition's notion of rent.
        self.rent: list[int] = [0] * game.board_size
        self._turn: tuple[int, int, int] | None = None  # turn number, seat, start position
        self._events: list[Event] = []
        self._throws: list[Throw] = []
        self._throw: _OpenThrow | None = None

    def feed(self, entry: tuple) -> list[Turn]:
        """Take the next log tuple; return the turns it closed."""
        kind = entry[0]
        closed: list[Turn] = []
        logged = decode(entry)
        joins = isinstance(logged, LogThrow) and self._joins(logged.seat, logged.dice)
        if kind in ("turn", "end", "roll") or (kind == "throw" and not joins):
            self._close_throw()
        if kind in ("turn", "end"):
            closed = self._close_turn()
        if isinstance(logged, LogTurn):
            self._turn = (logged.turn, logged.seat, self.pos[logged.seat])
        elif isinstance(logged, (LogMove, LogSend)):
            self.pos[logged.seat] = logged.dest
            if self._throw is not None and self._throw.seat == logged.seat:
                self._throw.moved = True
        elif isinstance(logged, LogPay) and logged.src >= self.game.nacc and logged.dst >= self.game.nacc:
            payer, payee = logged.src - self.game.nacc, logged.dst - self.game.nacc
            here = self.pos[payer]
            if payer != payee and self.owner[here] == payee:
                self.rent[here] += logged.amount
        elif isinstance(logged, LogCard):
            space = self.game.prog.card_space[logged.card]
            if space is not None:
                self.owner[space] = logged.holder
        if self._turn is not None and kind != "end":
            self._events.append(_resolved(self.game, logged))
            if isinstance(logged, LogRoll):
                self._throw = _OpenThrow(
                    logged.turn, logged.seat, tuple(logged.dice), self.pos[logged.seat], len(self._events) - 1, ["dice"]
                )
            elif isinstance(logged, LogThrow):
                if joins:
                    assert self._throw is not None
                    self._throw.sets.append(logged.dice)
                else:
                    self._throw = _OpenThrow(
                        logged.turn, logged.seat, (), self.pos[logged.seat], len(self._events) - 1, [logged.dice]
                    )
        return closed

    def _joins(self, seat: int, dice: str) -> bool:
        """Return whether a throw of declared set `dice` by `seat` is part of the throw still open."""
        open_throw = self._throw
        return (
            open_throw is not None and open_throw.seat == seat and not open_throw.moved and dice not in open_throw.sets
        )

    def close(self) -> list[Turn]:
        """Return the turn still open when the log ends (the game was stopped, not ended)."""
        self._close_throw()
        return self._close_turn()

    def _close_throw(self) -> None:
        if self._throw is not None:
            t = self._throw
            events = tuple(self._events[t.first :])
            movement = not self._throws or any(isinstance(e, (Moved, Sent)) and e.seat == t.seat for e in events)
            self._throws.append(
                Throw(t.turn, t.seat, t.dice, t.start, self.pos[t.seat], events, movement, tuple(t.sets))
            )
            self._throw = None

    def _close_turn(self) -> list[Turn]:
        if self._turn is None:
            return []
        turn, seat, start = self._turn
        done = Turn(turn, seat, start, self.pos[seat], tuple(self._throws), tuple(self._events))
        self._turn, self._events, self._throws = None, [], []
        return [done]


def turns(game: Game, tracker: Tracker | None = None) -> Iterator[Turn]:
    """Yield the turns of a game already played (or stopped), each with its throws, from its log.

    Pass a fresh `tracker` to read what it keeps (owners, rent) once the turns are read.
    """
    tracker = tracker or Tracker(game)
    for entry in game.log:
        yield from tracker.feed(entry)
    yield from tracker.close()


def follow(
    game: Game, on_turn: Callable[[Turn], Any] | None = None, on_throw: Callable[[Throw], Any] | None = None
) -> GameResult:
    """Play the game to its end, calling `on_throw` for every throw and `on_turn` for every turn
    as soon as the turn is over; return the GameResult (the game is the same as with `play()`)."""
    tracker = Tracker(game)
    read = 0

    def report(done: list[Turn]) -> None:
        for turn in done:
            if on_throw is not None:
                for throw in turn.throws:
                    on_throw(throw)
            if on_turn is not None:
                on_turn(turn)

    def after_turn(g: Game) -> None:
        nonlocal read
        log = g.log
        for entry in log[read:]:
            report(tracker.feed(entry))
        read = len(log)
        report(tracker.close())  # the turn is over: report it now, not when the next one starts

    result = game.play(on_turn=after_turn)
    for entry in game.log[read:]:
        report(tracker.feed(entry))
    return result
