"""Implementations of the built-in functions declared in landlord_dsl.types.

Each takes the running Game first, then the already-evaluated arguments.
Groups arrive as tuples of space indices; players as seat numbers.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Callable

from .stats import gini

if TYPE_CHECKING:
    from .engine import Game


def _min(g: "Game", a: int, b: int) -> int:
    return a if a < b else b


def _max(g: "Game", a: int, b: int) -> int:
    return a if a > b else b


def _abs(g: "Game", a: int) -> int:
    return -a if a < 0 else a


def _len(g: "Game", items) -> int:
    return len(items)


def _percent(g: "Game", amount: int, pct: int) -> int:
    return amount * pct // 100


def _ahead(g: "Game", steps: int) -> int:
    return (g.pos[g.actor] + steps) % g.board_size


def _behind(g: "Game", steps: int) -> int:
    return (g.pos[g.actor] - steps) % g.board_size


def _via(g: "Game", group: tuple[int, ...], steps: int) -> int | None:
    return g.jump_target(g.pos[g.actor], steps, group)


def _next_in(g: "Game", group: tuple[int, ...]) -> int:
    here, size = g.pos[g.actor], g.board_size
    return min(group, key=lambda s: (s - here - 1) % size)


def owner_getter(group: tuple[int, ...]) -> Callable[[list], tuple]:
    """Return a function of `Game.owner` giving the owners of a group's spaces, as a tuple.

    One C call (`operator.itemgetter`) instead of a loop, for two spaces or more.
    """
    if len(group) == 1:
        (only,) = group
        return lambda owner: (owner[only],)  # itemgetter of one item gives no tuple
    return operator.itemgetter(*group) if group else (lambda owner: ())


class _OwnerGetters(dict):
    """For each group, its owner_getter: made on first use and kept, up to a
    bound, since the groups of a game are few."""

    def __missing__(self, group: tuple[int, ...]) -> Callable[[list], tuple]:
        getter = owner_getter(group)
        if len(self) < 4096:
            self[group] = getter
        return getter


_GETTERS = _OwnerGetters()


def _owners_of(g: "Game", group) -> tuple:
    """Return the owner of every space of a group (a tuple, or a list such as `filter` makes)."""
    return _GETTERS[group if group.__class__ is tuple else tuple(group)](g.owner)


def _count_owned(g: "Game", player: int, group: tuple[int, ...]) -> int:
    return _owners_of(g, group).count(player)


def _owns_all(g: "Game", player: int, group: tuple[int, ...]) -> bool:
    return len(group) > 0 and _owners_of(g, group).count(player) == len(group)


def _owners(g: "Game", group: tuple[int, ...]) -> list[int]:
    seen = set(_owners_of(g, group))
    seen.discard(None)
    return sorted(seen)


def _occupants(g: "Game", space: int) -> list[int]:
    actor, pos = g.actor, g.pos
    return [p for p in g.seats if pos[p] == space and p != actor]


def _distance(g: "Game", start: int, end: int) -> int:
    return (end - start) % g.board_size


def _gini_pct(g: "Game", values) -> int:
    return round(100 * gini(list(values)))


def _debt(g: "Game", player: int) -> int:
    return sum(p + i for lender, borrower, p, i in g.loans if borrower == player)


def _debt_lent(g: "Game", player: int) -> int:
    return sum(p for lender, borrower, p, i in g.loans if borrower == player)


def _credit(g: "Game", player: int) -> int:
    return sum(p + i for lender, borrower, p, i in g.loans if lender == player)


def _cards_left(g: "Game", deck: str) -> int:
    return len(g.decks[deck])


IMPLEMENTATIONS: dict[str, Callable] = {
    "min": _min, "max": _max, "abs": _abs, "len": _len, "percent": _percent,
    "ahead": _ahead, "behind": _behind, "via": _via, "next_in": _next_in,
    "count_owned": _count_owned, "owns_all": _owns_all, "owners": _owners,
    "occupants": _occupants, "gini_pct": _gini_pct, "distance": _distance, "debt": _debt, "credit": _credit,
    "cards_left": _cards_left,
    "debt_lent": _debt_lent,
}


# Python expressions the compiler writes in place of a call, for built-ins
# simple enough to need no function: `{0}`, `{1}` are the arguments' code,
# each used exactly once (so each argument is evaluated once, as in a call).
INLINE: dict[str, str] = {
    "min": "min({0}, {1})", "max": "max({0}, {1})", "abs": "abs({0})", "len": "len({0})",
    "percent": "({0} * {1} // 100)",
    "ahead": "((g.pos[g.actor] + {0}) % g.board_size)",
    "behind": "((g.pos[g.actor] - {0}) % g.board_size)",
    "distance": "((-({0}) + {1}) % g.board_size)",
}
