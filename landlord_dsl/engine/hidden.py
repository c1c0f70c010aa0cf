"""Engine stage: what a player of a stepped game may see, and redrawing what he may not (issue 29; docs/state.md).

A `State`'s `observation(player)` is an `Observation`: everything of the game the rules' declarations
make public (positions, money, variables, who holds each card, the rules in force, the last throw) and,
of each deck, the cards whose place every player saw (`DeckView.known`, the cards put under it since
its last shuffle) and, as a set, the cards above them whose order nobody has seen (`DeckView.hidden`).
It is read from the game generically, from the Program's declarations: nothing here names an edition.

`State.resample(player, rng)` returns a clone in which what the player cannot see is drawn again: the
order of each deck's hidden cards, and the state of a seeded state's generator (the dice to come). It
does so by a `Redrawn` entry in the clone's answers, which the clone applies to its game where it stands
when it replays them, so that clones of clones, rebasing and pickling carry it as they carry answers.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import attrs

from ..program.requests import BidRequest, DecisionRequest, Option, SeededChance

if TYPE_CHECKING:
    from .stepping import SteppedGame


@attrs.frozen
class DeckView:
    """What every player sees of a deck.

    `hidden` are the cards on top whose order nobody has seen (the deck's last shuffle's, not drawn since):
    which cards they are is known, not their order. `known` are the cards under them, top first, in the
    order every player saw them put there.
    """

    name: str
    hidden: frozenset[int]
    known: tuple[int, ...]

    @property
    def size(self) -> int:
        """Return the number of cards in the deck."""
        return len(self.hidden) + len(self.known)


@attrs.frozen
class Pending:
    """The observing player's own pending decision or bid: its prompt, rule and options (a bid's
    `BidRequest`), and the request itself, as his Agent is handed it (not compared)."""

    seat: int
    prompt: str
    rule: str
    options: tuple[Option, ...]
    bid: BidRequest | None
    request: DecisionRequest | BidRequest = attrs.field(eq=False, repr=False)


@attrs.frozen
class Observation:
    """What one player of a stepped game may see now (`State.observation`); equal observations are the
    same information. Indices are the Program's: seats from 0, spaces, cards, accounts, variables and
    rules in declaration order.

    `to_act` is the seat whose decision or bid is pending, or CHANCE (-1), or TERMINAL (-4); `pending`
    is that request when it is the observing player's own. `accounts` are the rules' accounts' balances
    and `cash` the seats'. `game_vars`, `player_vars` (one tuple a variable, a value a seat) and
    `space_vars` (one tuple a space, a value a variable) hold the declared variables, lists as tuples.
    `holders` gives, for each card, the seat holding it or None. `decks` are in declaration order.
    """

    player: int
    turn: int
    current: int
    to_act: int
    over: bool
    seats: tuple[int, ...]
    positions: tuple[int, ...]
    accounts: tuple[int, ...]
    cash: tuple[int, ...]
    game_vars: tuple[Any, ...]
    player_vars: tuple[tuple[Any, ...], ...]
    space_vars: tuple[tuple[Any, ...], ...]
    holders: tuple[int | None, ...]
    decks: tuple[DeckView, ...]
    loans: tuple[tuple[int, ...], ...]
    rules_in_force: tuple[bool, ...]
    dice: tuple[int, ...]
    dice_sets: tuple[tuple[int, ...], ...]
    pending: Pending | None

    def deck(self, name: str) -> DeckView:
        """Return the view of the deck called `name` (KeyError if the rules declare none)."""
        for view in self.decks:
            if view.name == name:
                return view
        raise KeyError(name)


def _frozen(value: Any) -> Any:
    """Return `value` with its lists (a variable of a list type) as tuples, to compare and hash."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def observe(game: SteppedGame, to_act: int, request: Any, player: int) -> Observation:
    """Return what `player` may see of `game`, paused at `request` (pending for `to_act`)."""
    nacc = game.nacc
    pending = None
    if to_act == player and isinstance(request, DecisionRequest):
        pending = Pending(player, request.prompt, request.rule, request.options, None, request)
    elif to_act == player and isinstance(request, BidRequest):
        pending = Pending(player, f"Bid for {request.space}", request.rule, (), request, request)
    decks = []
    for name, cards in game.decks.items():
        count = game.unseen[name]
        decks.append(DeckView(name, frozenset(cards[:count]), tuple(cards[count:])))
    return Observation(
        player=player,
        turn=game.turn,
        current=game.current,
        to_act=to_act,
        over=game.over,
        seats=tuple(game.seats),
        positions=tuple(game.pos),
        accounts=tuple(game.bal[:nacc]),
        cash=tuple(game.bal[nacc:]),
        game_vars=_frozen(game.gv),
        player_vars=_frozen(game.pv),
        space_vars=_frozen(game.sv),
        holders=tuple(game.holder),
        decks=tuple(decks),
        loans=_frozen(game.loans),
        rules_in_force=tuple(game.active),
        dice=tuple(game.dice),
        dice_sets=_frozen(game.set_faces),
        pending=pending,
    )


@attrs.frozen
class Redrawn:
    """What `State.resample` drew again, kept among a state's answers: the new order of the hidden cards
    of some decks (deck, cards top first), and a new seed for a seeded state's generator (or None)."""

    orders: tuple[tuple[str, tuple[int, ...]], ...]
    seed: int | None

    def apply(self, game: SteppedGame) -> None:
        """Put the drawn orders on the game's decks (in place: the running rules hold the lists) and seed
        its generator afresh."""
        for deck, order in self.orders:
            cards = game.decks[deck]
            assert sorted(cards[: len(order)]) == sorted(order), "a redrawn order is not the hidden cards'"
            cards[: len(order)] = order
        if self.seed is not None:
            game.chance = SeededChance(self.seed)


def redraw(game: SteppedGame, rng: random.Random) -> Redrawn | None:
    """Return a `Redrawn` of `game` drawn with `rng` (each deck's hidden cards in a uniformly random order,
    and a new seed if chance is answered inside), or None when nothing is hidden."""
    orders = []
    for deck, count in game.unseen.items():
        if count > 1:
            block = game.decks[deck][:count]
            rng.shuffle(block)
            orders.append((deck, tuple(block)))
    seed = rng.getrandbits(64) if game.chance_inside else None
    if not orders and seed is None:
        return None
    return Redrawn(tuple(orders), seed)
