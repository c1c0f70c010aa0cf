"""The numbers a learning agent sees and answers with: action slots, masks and observations.

Both layouts are documented in docs/rl.md. They depend on the rule file
(and its options) only, never on the number of players or the seed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
from gymnasium import spaces

from ..core.errors import LandlordError, SourceText
from ..core.types import element_of, strip_optional
from ..engine.game import starting_money
from ..engine.state import new_state
from ..language import ast
from ..program.control import DEFAULT_TURN_LIMIT
from ..program.requests import BidRequest, DecisionRequest, DiceRequest

if TYPE_CHECKING:
    from ..checking.loader import RuleSet
    from ..engine.game import Game
    from ..program.compiled import Program

LIMIT = 1e4  # observations are clipped to [-LIMIT, LIMIT] (normalised values stay far inside)

# What an option's `for X in COLLECTION` may bind and index its slots by (X's index: space, seat or card).
_INDEXED = ("space", "player", "card")


def _statements(node: Any) -> Iterator[ast.Choose]:
    """Yield every `choose`/`offer` under an AST node, in source order."""
    if isinstance(node, ast.Choose):
        yield node
    if isinstance(node, (tuple, list)):
        for item in node:
            yield from _statements(item)
    elif attrs.has(type(node)):
        for field in attrs.fields(type(node)):
            if field.name != "span":
                yield from _statements(getattr(node, field.name))


def choice_statements(rules: RuleSet) -> list[ast.Choose]:
    """Return every `choose` and `offer` of a checked rule set (rules, cards and actions), each once."""
    m = rules.model
    found: dict[ast.Span, ast.Choose] = {}
    for where in (m.rules, list(m.decks.values()), list(m.actions.values())):
        for choose in _statements(where):
            found.setdefault(choose.span, choose)
    return list(found.values())


class ActionLayout:
    """The action slots of one rule file: Discrete(`size`), the same for every request.

    A `choose`/`offer` numbers its options in the order written. An option
    without `for` takes one slot; an option `for X in COLLECTION` takes one
    slot per possible X: per space (the board's size), per seat (the rules'
    most players) or per card (the rule file's cards), X's index giving the
    slot; over a list written out (`[a, b, c]`) of other values, one slot per
    item, the n-th legal X taking the n-th. An `offer` adds `done` last.
    The engine's own questions (buy at the auction price, lend) use slots
    0 and 1. A bid uses slot 0 to pass and slots 1..`bid_levels` for
    amounts spread evenly from the minimum bid to all the bidder's cash.
    `size` is the largest of these needs.
    """

    def __init__(self, rules: RuleSet, program: Program, bid_levels: int):
        if bid_levels < 1:
            raise LandlordError(f"bid_levels must be at least 1, not {bid_levels}")
        self.bid_levels = bid_levels
        sizes = {"space": len(program.space_names), "player": program.players[1], "card": len(program.card_names)}
        self.sites: dict[ast.Span, tuple[tuple[int, str], ...]] = {}
        self.site_numbers: dict[ast.Span, int] = {}
        self.offers: set[ast.Span] = set()
        self.written: dict[ast.Span, tuple[str, tuple[str, ...]]] = {}  # prompt and option names, as written
        self.item_names = {"space": program.space_names, "card": program.card_names}
        largest = 0
        for number, choose in enumerate(choice_statements(rules), 1):
            parts, offset = [], 0
            for option in choose.options:
                kind, count = self._bound(option, rules, sizes, program)
                parts.append((offset, kind))
                offset += count
            if choose.repeat:
                parts.append((offset, "plain"))
                offset += 1
                self.offers.add(choose.span)
            self.sites[choose.span] = tuple(parts)
            self.written[choose.span] = (choose.prompt, tuple(o.name for o in choose.options) + ("done",))
            self.site_numbers[choose.span] = number
            largest = max(largest, offset)
        self.size = max(2, bid_levels + 1, largest)

    @staticmethod
    def _bound(option: ast.ChoiceOption, rules: RuleSet, sizes: dict[str, int], program: Program) -> tuple[str, int]:
        """Return (how the option's slots are indexed, how many slots it takes)."""
        if option.binding is None:
            return "plain", 1
        collection = option.binding[1]
        element = strip_optional(element_of(rules.model.types.get(id(collection), "any")) or "any")
        if element in _INDEXED:
            return element, sizes[element]
        if isinstance(collection, ast.ListLit):
            return "ordinal", len(collection.items)
        span = collection.span
        source = program.sources.get(span.file) or SourceText(span.file, "")
        raise LandlordError(
            [
                source.diagnostic(
                    f"option '{option.name}' has one choice per item of a list whose length is not known "
                    "before the game, so it cannot have a fixed number of action slots",
                    span,
                    "bind it to spaces, players or cards, or to a list written out in full",
                )
            ]
        )

    def decision_slots(self, request: DecisionRequest) -> list[int]:
        """Return the action slot of each of the request's legal entries, in order."""
        parts = self.sites.get(request.site.span)
        slots: list[int] = []
        seen: dict[int, int] = {}
        for k, x, _, _ in request.legal:
            if parts is None:  # one of the engine's own questions: options without `for`
                slots.append(k)
                continue
            offset, kind = parts[k]
            if kind == "plain":
                slots.append(offset)
            elif kind == "ordinal":
                seen[k] = seen.get(k, -1) + 1
                slots.append(offset + seen[k])
            else:
                slots.append(offset + x)
        return slots

    def bid_amounts(self, request: BidRequest) -> list[tuple[int, int | None]]:
        """Return (slot, amount) for passing (None) and each distinct bid level."""
        out: list[tuple[int, int | None]] = [(0, None)]
        low, high, levels = request.minimum, request.maximum, self.bid_levels
        seen = set()
        for j in range(levels):
            amount = low + (high - low) * j // (levels - 1) if levels > 1 else low
            if amount not in seen:
                seen.add(amount)
                out.append((j + 1, amount))
        return out

    def describe(self, slot: int, request: DecisionRequest | BidRequest | None) -> str:
        """Return what `slot` stands for at `request` (the pending question of the agent), or in general."""
        if isinstance(request, BidRequest):
            if slot == 0:
                return f"pass the auction of {request.space}"
            return (
                f"bid level {slot} of {self.bid_levels} for {request.space}"
                if slot <= self.bid_levels
                else f"slot {slot}"
            )
        span = request.site.span if request is not None else None
        if span not in self.sites:
            return f"slot {slot}" if request is None else f"{request.prompt}: slot {slot}"
        prompt, names = self.written[span]
        parts = self.sites[span]
        for index in range(len(parts) - 1, -1, -1):
            offset, kind = parts[index]
            if slot >= offset:
                item = slot - offset
                if kind == "plain":
                    return f"{prompt}: option '{names[index]}'" if item == 0 else f"{prompt}: slot {slot}"
                if kind == "player":
                    return f"{prompt}: option '{names[index]}' for seat {item + 1}"
                if kind == "ordinal":
                    return f"{prompt}: option '{names[index]}' for its item number {item + 1}"
                known = self.item_names[kind]
                shown = known[item] if item < len(known) else f"{kind} {item}"
                return f"{prompt}: option '{names[index]}' for {shown}"
        return f"{prompt}: slot {slot}"

    def answers(self, request: DecisionRequest | BidRequest) -> dict[int, int | None]:
        """Return the answer the engine takes for each legal slot (the first entry of a slot wins)."""
        if isinstance(request, BidRequest):
            return dict(self.bid_amounts(request))
        out: dict[int, int | None] = {}
        for index, slot in enumerate(self.decision_slots(request)):
            out.setdefault(slot, index)
        return out


def _var_kind(decl: ast.VarDecl, rules: RuleSet) -> str:
    """Return how a variable is shown as a number: by its declared (or inferred) type."""
    type_ = decl.type or rules.model.types.get(id(decl.initial), "any")
    type_ = strip_optional(type_)
    if type_ in ("int", "bool", "player", "space", "card"):
        return type_
    return "list" if element_of(type_) is not None else "other"


def money_scale(program: Program) -> int:
    """Return the observation's unit of money: the most a seat is given before the first turn (at least
    1), measured on the first request of a game of the rules' fewest players, seed 0."""
    state = new_state(program, program.players[0], seed=0)
    return max(1, *starting_money(state.game))


class ObservationEncoder:
    """Writes the public state of a game, seen from one seat, as `size` normalised numbers (docs/rl.md).

    `labels[i]` names number i. The layout depends on the rule file only: seat rows for the rules' most
    players, the declared variables, accounts and decks, the `choose`/`offer` statements and the
    action space.
    """

    SEAT = ("present", "playing", "cash", "titles held", "cards held")
    KINDS = ("choose", "offer", "engine question", "bid")
    BID = ("highest bid", "minimum bid", "maximum bid", "opening price", "value hint")

    def __init__(self, rules: RuleSet, program: Program, layout: ActionLayout, turn_limit: int | None = None):
        m = rules.model
        self.prog, self.layout = program, layout
        self.seats = program.players[1]
        self.board = board = len(program.space_names)
        self.cards = max(1, len(program.card_names))
        self.money = money_scale(program)
        self.turn_limit = turn_limit or program.turn_limit or DEFAULT_TURN_LIMIT
        self.sides = DiceRequest(max(1, program.dice_count)).sides * max(1, program.dice_count)
        self.game_kinds = [_var_kind(d, rules) for d in m.game_vars.values()]
        self.player_kinds = [_var_kind(d, rules) for d in m.player_vars.values()]
        self.space_kinds = [_var_kind(d, rules) for d in m.space_vars.values()]
        self.decks = list(program.deck_cards)
        self.deck_sizes = [max(1, len(program.deck_cards[d])) for d in self.decks]
        self.space_groups: dict[str, list[int]] = {}
        for index, label in enumerate(program.space_labels):
            self.space_groups.setdefault(label, []).append(index)
        self.site_index = {span: k + 1 for k, span in enumerate(layout.sites)}  # 0: the engine's own questions
        labels: list[str] = []
        spaces_ = program.space_names
        for row in range(self.seats):
            who = "observer" if row == 0 else f"seat +{row}"
            labels += [f"{who}: {what}" for what in self.SEAT]
            labels += [f"{who}: on {name}" for name in spaces_]
            labels += [f"{who}: {name}" for name in m.player_vars]
        self.seat_width = len(self.SEAT) + board + len(self.player_kinds)
        self.spaces_at = len(labels)
        for name in spaces_:
            labels += [f"{name}: owned by {'observer' if r == 0 else f'seat +{r}'}" for r in range(self.seats)]
            labels += [f"{name}: {var}" for var in m.space_vars]
        self.space_width = self.seats + len(self.space_kinds)
        self.game_at = len(labels)
        labels += ["turn / turn limit", "dice total / most", "double"]
        labels += [f"game: {name}" for name in m.game_vars]
        labels += [f"account: {name}" for name in program.account_names]
        labels += [f"deck: {name} (share left)" for name in self.decks]
        self.request_at = len(labels)
        labels += ["asked"] + [f"kind: {kind}" for kind in self.KINDS] + ["legal actions / action space"]
        labels += ["question: the engine's own"]
        labels += [f"question {k}: {layout.written[span][0]}" for k, span in enumerate(layout.sites, 1)]
        labels += [f"bid: {what}" for what in self.BID]
        labels += [f"slot {slot}: cost" for slot in range(layout.size)]
        labels += [f"slot {slot}: value" for slot in range(layout.size)]
        labels += [f"asked about: {name}" for name in spaces_]
        self.labels = labels
        self.size = len(labels)
        # numbers of unknown scale (int variables, lists' lengths): written raw, then squeezed at once,
        # sign(x) * ln(1 + |x|)
        squeezed: list[int] = []
        for k, kind in enumerate(self.player_kinds):
            if kind in ("int", "list"):
                squeezed += [row * self.seat_width + len(self.SEAT) + board + k for row in range(self.seats)]
        for k, kind in enumerate(self.space_kinds):
            if kind in ("int", "list"):
                squeezed += [self.spaces_at + s * self.space_width + self.seats + k for s in range(board)]
        squeezed += [self.game_at + 3 + k for k, kind in enumerate(self.game_kinds) if kind in ("int", "list")]
        self._squeezed = np.array(sorted(squeezed), dtype=np.intp)
        self.state_size = self.size + self.seats

    def space(self, size: int) -> spaces.Box:
        """Return the Box of `size` numbers an observation (or the global state) lies in."""
        return spaces.Box(-LIMIT, LIMIT, (size,), np.float32)

    def _numbers(self, values: Sequence[Any], kind: str, seat: int, n: int) -> list[float]:
        """Return variable values as numbers: player -> (seat after the observer + 1) / most seats,
        space/card -> (index + 1) / how many, list -> length, int -> itself (both squeezed afterwards by
        `encode`), bool -> 0/1, none -> 0."""
        if kind in ("int", "bool"):
            return [0.0 if v is None else float(v) for v in values]
        if kind == "player":
            return [0.0 if v is None else ((v - seat) % n + 1) / self.seats for v in values]
        if kind in ("space", "card"):
            room = self.board if kind == "space" else self.cards
            return [0.0 if v is None else (v + 1) / room for v in values]
        if kind == "list":
            return [0.0 if v is None else float(len(v)) for v in values]
        return [0.0] * len(values)

    def encode(
        self, game: Game, seat: int, request: DecisionRequest | BidRequest | None, everyone: bool = False
    ) -> np.ndarray:
        """Return the observation of `seat`, with the request's part filled when `request` is given."""
        obs = [0.0] * self.size  # filled as a list (far quicker than item by item in an array), then converted
        n, board, width, numbers, money = game.n, self.board, self.seat_width, self._numbers, self.money
        playing = set(game.seats)
        order = [(seat + row) % n for row in range(n)]
        for row, p in enumerate(order):
            at = row * width
            obs[at : at + 5] = (
                1.0,
                float(p in playing),
                game.cash(p) / money,
                len(game.titles[p]) / board,
                len(game.hands[p]) / self.cards,
            )
            obs[at + 5 + game.pos[p]] = 1.0
        vars_at = 5 + board
        for k, kind in enumerate(self.player_kinds):
            row_values = game.pv[k]
            for row, value in enumerate(numbers([row_values[p] for p in order], kind, seat, n)):
                obs[row * width + vars_at + k] = value
        at, sw = self.spaces_at, self.space_width
        for s, owner in enumerate(game.owner):
            if owner is not None:
                obs[at + s * sw + (owner - seat) % n] = 1.0
        for k, kind in enumerate(self.space_kinds):
            first = at + self.seats + k
            obs[first : first + board * sw : sw] = numbers(game.sv[k], kind, seat, n)
        at = self.game_at
        obs[at : at + 3] = (game.turn / self.turn_limit, game.dice_total / self.sides, float(game.dice_double))
        at += 3
        for k, kind in enumerate(self.game_kinds):
            obs[at + k] = numbers([game.gv[k]], kind, seat, n)[0]
        at += len(self.game_kinds)
        for k in range(game.nacc):
            obs[at + k] = game.bal[k] / money
        at += game.nacc
        for k, deck in enumerate(self.decks):
            obs[at + k] = len(game.decks.get(deck, ())) / self.deck_sizes[k]
        if request is not None:
            self._request(obs, request)
        raw = np.array(obs, dtype=np.float64)
        squeezed = raw[self._squeezed]
        raw[self._squeezed] = np.copysign(np.log1p(np.abs(squeezed)), squeezed)
        out = raw.astype(np.float32)
        np.clip(out, -LIMIT, LIMIT, out=out)
        return out

    def encode_state(self, game: Game, request: DecisionRequest | BidRequest | None) -> np.ndarray:
        """Return the global state: seat 0's observation with the pending request, then the asked seat one-hot."""
        asked = np.zeros(self.seats, dtype=np.float32)
        if request is not None:
            asked[request.seat] = 1.0
        return np.concatenate([self.encode(game, 0, request), asked])

    def _request(self, obs: list[float], request: DecisionRequest | BidRequest) -> None:
        at, layout, money = self.request_at, self.layout, self.money
        obs[at] = 1.0
        sites_at = at + 1 + len(self.KINDS) + 1
        bid_at = sites_at + 1 + len(layout.sites)
        costs_at = bid_at + len(self.BID)
        values_at = costs_at + layout.size
        concerned = values_at + layout.size
        if isinstance(request, BidRequest):
            amounts = layout.bid_amounts(request)
            obs[at + 4] = 1.0
            obs[at + 5] = len(amounts) / layout.size
            high = request.high_bid
            fields = (0 if high is None else high, request.minimum, request.maximum, request.start, request.value)
            obs[bid_at : bid_at + 5] = [x / money for x in fields]
            for slot, amount in amounts:
                if amount is not None:
                    obs[costs_at + slot] = amount / money
                    obs[values_at + slot] = request.value / money
            for s in self.space_groups.get(request.space, ()):
                obs[concerned + s] = 1.0
            return
        span = request.site.span
        parts = layout.sites.get(span)
        obs[at + (3 if parts is None else 2 if span in layout.offers else 1)] = 1.0
        obs[at + 5] = len(request.legal) / layout.size
        obs[sites_at + self.site_index.get(span, 0)] = 1.0
        for slot, (k, x, cost, value) in zip(layout.decision_slots(request), request.legal, strict=True):
            obs[costs_at + slot] = cost / money
            obs[values_at + slot] = value / money
            if parts is not None and parts[k][1] == "space":
                obs[concerned + x] = 1.0
