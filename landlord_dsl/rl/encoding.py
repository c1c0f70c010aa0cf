"""The numbers a learning agent sees and answers with: action slots, masks and observations.

Both layouts are documented in docs/rl.md; the constants here are the
capacities the observation reserves, so that every rule file with the same
board size gives the same layout.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from ..core.errors import LandlordError, SourceText
from ..core.types import element_of, strip_optional
from ..language import ast
from ..program.requests import BidRequest, DecisionRequest

if TYPE_CHECKING:
    from ..checking.loader import RuleSet
    from ..engine.game import Game
    from ..program.compiled import Program

MAX_SEATS = 8  # seat rows in the observation (the observer's first)
GAME_VARS = 8  # game variables, in declaration order
PLAYER_VARS = 12  # player variables per seat
SPACE_VARS = 6  # space variables per space
ACCOUNTS = 4  # declared accounts' balances
LIMIT = 1e9  # observations are clipped to [-LIMIT, LIMIT]

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


class ObservationEncoder:
    """Writes the public state of a game, seen from one seat, as a vector of `size` numbers."""

    SEAT = 5  # present, playing, cash, titles held, cards held (then position one-hot, then player vars)
    REQUEST = 12

    def __init__(self, rules: RuleSet, program: Program, players: int, layout: ActionLayout):
        m = rules.model
        for what, declared, room in (
            ("game variables", m.game_vars, GAME_VARS),
            ("player variables", m.player_vars, PLAYER_VARS),
            ("space variables", m.space_vars, SPACE_VARS),
            ("accounts", m.accounts, ACCOUNTS),
        ):
            if len(declared) > room:
                raise LandlordError(
                    f"{program.title} declares {len(declared)} {what}; the observation "
                    f"has room for {room} (landlord_dsl.rl.encoding)"
                )
        if players > MAX_SEATS:
            raise LandlordError(f"the observation has room for {MAX_SEATS} seats, not {players}")
        self.prog, self.n, self.layout = program, players, layout
        self.board = board = len(program.space_names)
        self.game_kinds = [_var_kind(d, rules) for d in m.game_vars.values()]
        self.player_kinds = [_var_kind(d, rules) for d in m.player_vars.values()]
        self.space_kinds = [_var_kind(d, rules) for d in m.space_vars.values()]
        self.labels: dict[str, list[int]] = {}
        for index, label in enumerate(program.space_labels):
            self.labels.setdefault(label, []).append(index)
        self.rule_numbers = {name: k + 1 for k, name in enumerate(program.rule_names)}
        self.seat_width = self.SEAT + board + PLAYER_VARS
        self.space_width = MAX_SEATS + SPACE_VARS
        self.spaces_at = MAX_SEATS * self.seat_width
        self.game_at = self.spaces_at + board * self.space_width
        self.request_at = self.game_at + 3 + GAME_VARS + ACCOUNTS
        self.size = self.request_at + self.REQUEST + board

    def _numbers(self, values: Sequence[Any], kind: str, seat: int) -> list[float]:
        """Return variable values as numbers: player -> seat after the observer + 1, space/card -> index + 1,
        list -> length, int/bool -> itself, none and anything else -> 0."""
        if kind in ("int", "bool"):
            return [0.0 if v is None else float(v) for v in values]
        if kind == "player":
            n = self.n
            return [0.0 if v is None else float((v - seat) % n + 1) for v in values]
        if kind in ("space", "card"):
            return [0.0 if v is None else float(v + 1) for v in values]
        if kind == "list":
            return [0.0 if v is None else float(len(v)) for v in values]
        return [0.0] * len(values)

    def encode(self, game: Game, seat: int, request: DecisionRequest | BidRequest | None) -> np.ndarray:
        """Return the observation of `seat` (with the request's context when it is `seat`'s to answer)."""
        obs = [0.0] * self.size  # filled as a list (far quicker than item by item in an array), then converted
        n, board, width, numbers = self.n, self.board, self.seat_width, self._numbers
        playing = set(game.seats)
        order = [(seat + row) % n for row in range(n)]
        for row, p in enumerate(order):
            at = row * width
            obs[at : at + self.SEAT] = (1.0, float(p in playing), game.cash(p), len(game.titles[p]), len(game.hands[p]))
            obs[at + self.SEAT + game.pos[p]] = 1.0
        vars_at = self.SEAT + board
        for k, kind in enumerate(self.player_kinds):
            row_values = game.pv[k]
            for row, value in enumerate(numbers([row_values[p] for p in order], kind, seat)):
                obs[row * width + vars_at + k] = value
        at, sw = self.spaces_at, self.space_width
        for s, owner in enumerate(game.owner):
            if owner is not None:
                obs[at + s * sw + (owner - seat) % n] = 1.0
        for k, kind in enumerate(self.space_kinds):
            first = at + MAX_SEATS + k
            obs[first : first + board * sw : sw] = numbers(game.sv[k], kind, seat)
        at = self.game_at
        obs[at : at + 3] = (game.turn, game.dice_total, float(game.dice_double))
        obs[at + 3 : at + 3 + len(self.game_kinds)] = [
            numbers([game.gv[k]], kind, seat)[0] for k, kind in enumerate(self.game_kinds)
        ]
        obs[at + 3 + GAME_VARS : at + 3 + GAME_VARS + game.nacc] = game.bal[: game.nacc]
        if request is not None and request.seat == seat:
            self._request(obs, request)
        out = np.array(obs, dtype=np.float32)
        np.clip(out, -LIMIT, LIMIT, out=out)
        return out

    def _request(self, obs: list[float], request: DecisionRequest | BidRequest) -> None:
        at, concerned = self.request_at, self.request_at + self.REQUEST
        obs[at] = 1.0
        if isinstance(request, BidRequest):
            obs[at + 3] = 1.0
            obs[at + 4] = len(self.layout.bid_amounts(request))
            obs[at + 6] = self.rule_numbers.get(request.rule, 0)
            high = request.high_bid
            obs[at + 7 : at + 12] = (
                0 if high is None else high,
                request.minimum,
                request.maximum,
                request.start,
                request.value,
            )
            for s in self.labels.get(request.space, ()):
                obs[concerned + s] = 1.0
            return
        span = request.site.span
        parts = self.layout.sites.get(span)
        obs[at + (2 if span in self.layout.offers else 1)] = 1.0
        obs[at + 4] = len(request.legal)
        obs[at + 5] = self.layout.site_numbers.get(span, 0)
        obs[at + 6] = self.rule_numbers.get(request.rule, 0)
        if parts is not None:
            for k, x, _, _ in request.legal:
                if parts[k][1] == "space":
                    obs[concerned + x] = 1.0
