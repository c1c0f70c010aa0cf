"""The built-in functions of the .lg language: the one registry, BUILTINS.

Each built-in's signature (which the checker checks calls against), its
meaning (the language reference's table is generated from it), its
implementation, the Python the compiler may write in place of a call (and,
for the ownership built-ins, in place of a call over a group it can fix), and
whether its value depends only on its arguments (a "fixed" built-in may be
used in constants and other values fixed before the game).

An implementation takes the running Game first, then the already-evaluated
arguments. Groups arrive as tuples of space indices; players as seat numbers.
"""

from __future__ import annotations

import operator
import re
import sys
from collections.abc import Callable, Iterable, Sized
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ..core.measures import gini
from ..core.types import ANY, BOOL, CARD, DECK, GROUP, INT, PLAYER, SPACE, list_of, optional, parse_type

if TYPE_CHECKING:
    from ..program.game_contract import RulesGame as Game


def _min(g: Game, a: int, b: int) -> int:
    return a if a < b else b


def _max(g: Game, a: int, b: int) -> int:
    return a if a > b else b


def _abs(g: Game, a: int) -> int:
    return -a if a < 0 else a


def _len(g: Game, items: Sized) -> int:
    return len(items)


def _percent(g: Game, amount: int, pct: int) -> int:
    return amount * pct // 100


def _ahead(g: Game, steps: int) -> int:
    return (g.pos[g.actor] + steps) % g.board_size


def _behind(g: Game, steps: int) -> int:
    return (g.pos[g.actor] - steps) % g.board_size


def _via(g: Game, group: tuple[int, ...], steps: int) -> int | None:
    return g.jump_target(g.pos[g.actor], steps, group)


def _next_in(g: Game, group: tuple[int, ...]) -> int:
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


def _owners_of(g: Game, group: tuple[int, ...] | list[int]) -> tuple:
    """Return the owner of every space of a group (a tuple, or a list such as `filter` makes)."""
    return _GETTERS[group if group.__class__ is tuple else tuple(group)](g.owner)


def _count_owned(g: Game, player: int, group: tuple[int, ...]) -> int:
    return _owners_of(g, group).count(player)


def _owns_all(g: Game, player: int, group: tuple[int, ...]) -> bool:
    return len(group) > 0 and _owners_of(g, group).count(player) == len(group)


def _owners(g: Game, group: tuple[int, ...]) -> list[int]:
    seen = set(_owners_of(g, group))
    seen.discard(None)
    return sorted(seen)


def _occupants(g: Game, space: int) -> list[int]:
    actor, pos = g.actor, g.pos
    return [p for p in g.seats if pos[p] == space and p != actor]


def _distance(g: Game, start: int, end: int) -> int:
    return (end - start) % g.board_size


def _gini_pct(g: Game, values: Iterable[int]) -> int:
    return round(100 * gini(list(values)))


def _debt(g: Game, player: int) -> int:
    return sum(p + i for lender, borrower, p, i in g.loans if borrower == player)


def _debt_lent(g: Game, player: int) -> int:
    return sum(p for lender, borrower, p, i in g.loans if borrower == player)


def _credit(g: Game, player: int) -> int:
    return sum(p + i for lender, borrower, p, i in g.loans if lender == player)


def _cards_left(g: Game, deck: str) -> int:
    return len(g.decks[deck])


def _cards_in(g: Game, deck: str) -> list[int]:
    return list(g.decks[deck])


def _shares(g: Game, player: int, space: int) -> int:
    share = g.prog.card_share
    return sum(1 for card in g.hands[player] if share[card] == space)


def _shareholders(g: Game, space: int) -> list[int]:
    share, hands = g.prog.card_share, g.hands
    return [seat for seat in range(g.n) if any(share[card] == space for card in hands[seat])]


@attrs.frozen
class Builtin:
    """A built-in function: its signature, meaning and implementation, and what the compiler may do with it."""

    params: tuple[str, ...]  # the parameters' types (types.py strings)
    result: str
    doc: str  # what it gives, as the language reference says
    implementation: Callable[..., Any]
    # Python written in place of a call, for built-ins simple enough to need no function: `{0}`,
    # `{1}` are the arguments' code, each used exactly once (so each is evaluated once, as in a call)
    inline: str | None = None
    # for a built-in whose last argument is a group: Python written in place of a call when the compiler can
    # fix the group's spaces, `{owners}` being the tuple of their owners (one C call), `{n}` its size (never 0)
    inline_over_group: str | None = None
    # the same for `len` of this built-in's result (a list of distinct items, whose order `len` ignores): code
    # that cannot fail
    len_over_group: str | None = None
    # the same two, preferred where given, over the counts of the group's owners that the game keeps
    # (`{counts}`, a list: by seat the group's spaces it owns, then the number of distinct owners, then of
    # spaces nobody owns; engine Cards.count_groups): code that cannot fail and reads no space's owner
    inline_over_counts: str | None = None
    len_over_counts: str | None = None
    # whether that code over counts (`inline_over_counts`), where true, says that the player (`{0}`) owns every
    # space of the group: a loop over the player's titles whose guard requires it goes through only the titles
    # of groups the player owns whole, which the game keeps (engine Cards.count_groups, `gfull`)
    owns_whole_group: bool = False
    # What the compiler may assume of `inline` (or `inline_over_group`) code beyond its arguments' code
    # (compiling/codegen.py, Compiled; tests/test_compiler.py checks each against the code):
    # it cannot fail where its arguments cannot (it divides nothing and calls only `len`, an owner getter or
    # the `count` of what a getter gives)
    inline_never_fails: bool = False
    inline_reads_game: bool = False  # it reads the game's state itself (`g.`); code over a group always does
    inline_plain: bool = False  # it is the arguments and operators alone: no call, subscript or attribute
    fixed: bool = False  # its value depends only on its arguments: usable in values fixed before the game
    grows: bool = False  # may give a number beyond the range of its arguments (so a kept result is checked)


BUILTINS: dict[str, Builtin] = {
    "min": Builtin((INT, INT), INT, "the smaller of two numbers", _min, "min({0}, {1})", fixed=True),
    "max": Builtin((INT, INT), INT, "the larger of two numbers", _max, "max({0}, {1})", fixed=True),
    "abs": Builtin((INT,), INT, "the absolute value", _abs, "abs({0})", fixed=True),
    "len": Builtin(
        (list_of(ANY),),
        INT,
        "the number of items in a list or group",
        _len,
        "len({0})",
        fixed=True,
        inline_never_fails=True,
    ),
    "percent": Builtin(
        (INT, INT),
        INT,
        "percent(a, p): p percent of a, rounded down",
        _percent,
        "({0} * {1} // 100)",
        fixed=True,
        grows=True,
        inline_plain=True,
    ),
    "ahead": Builtin(
        (INT,),
        SPACE,
        "the space n steps ahead of the acting player",
        _ahead,
        "((g.pos[g.actor] + {0}) % g.board_size)",
        inline_reads_game=True,
    ),
    "behind": Builtin(
        (INT,),
        SPACE,
        "the space n steps behind the acting player",
        _behind,
        "((g.pos[g.actor] - {0}) % g.board_size)",
        inline_reads_game=True,
    ),
    "via": Builtin(
        (GROUP, INT),
        optional(SPACE),
        "where a move of n steps ends if it jumps once between members of the group, or none when the move cannot jump",
        _via,
    ),
    "next_in": Builtin((GROUP,), SPACE, "the first member of the group ahead of the acting player", _next_in),
    "count_owned": Builtin(
        (PLAYER, GROUP),
        INT,
        "how many spaces of the group the player owns",
        _count_owned,
        inline_over_group="{owners}.count({0})",
        inline_over_counts="{counts}[{0}]",
        inline_never_fails=True,
    ),
    "owns_all": Builtin(
        (PLAYER, GROUP),
        BOOL,
        "whether the player owns every space of the group",
        _owns_all,
        inline_over_group="({owners}.count({0}) == {n})",
        inline_over_counts="({counts}[{0}] == {n})",
        owns_whole_group=True,
        inline_never_fails=True,
    ),
    "owners": Builtin(
        (GROUP,),
        list_of(PLAYER),
        "the distinct players owning spaces of the group",
        _owners,
        inline_over_group="sorted(set({owners}) - {{None}})",
        len_over_group="(len({{*{owners}, None}}) - 1)",
        len_over_counts="{counts}[-2]",
    ),
    "occupants": Builtin(
        (SPACE,), list_of(PLAYER), "the players other than the acting one whose checkers stand on the space", _occupants
    ),
    "distance": Builtin(
        (SPACE, SPACE),
        INT,
        "how many steps forward from the first space to the second",
        _distance,
        "((-({0}) + {1}) % g.board_size)",
        inline_reads_game=True,
    ),
    "gini_pct": Builtin(
        (list_of(INT),),
        INT,
        "the Gini coefficient of a list of numbers, in percent (0 = all equal, near 100 = one holds all)",
        _gini_pct,
        fixed=True,
    ),
    "debt": Builtin((PLAYER,), INT, "what the player owes other players on loans, interest included", _debt),
    "debt_lent": Builtin(
        (PLAYER,), INT, "what other players lent the player and he has not repaid, interest left out", _debt_lent
    ),
    "credit": Builtin((PLAYER,), INT, "what other players owe the player on loans, interest included", _credit),
    "cards_left": Builtin(
        (DECK,), INT, "how many cards the deck holds now (drawn cards kept by players are not in it)", _cards_left
    ),
    "cards_in": Builtin((DECK,), list_of(CARD), "the cards the deck holds now, top card first", _cards_in),
    "shares": Builtin(
        (PLAYER, SPACE),
        INT,
        "how many share cards of the space (cards declared `share of` it) the player holds",
        _shares,
    ),
    "shareholders": Builtin(
        (SPACE,), list_of(PLAYER), "the distinct players holding share cards of the space, in seat order", _shareholders
    ),
}


def _shown_type(type_: str) -> str:
    """Return a type as the language reference writes it."""
    if type_ == list_of(ANY):
        return "list or group"
    parts = parse_type(type_)
    if parts.optional:
        return f"{_shown_type(parts.required)} or none"
    if parts.kind == "list" and parts.argument is not None:
        return f"list of {_shown_type(parts.argument)}s"
    return type_


TABLE_START = "<!-- BEGIN BUILTINS (generated from landlord_dsl.checking.builtins.BUILTINS) -->"
TABLE_END = "<!-- END BUILTINS -->"


def reference_table() -> str:
    """Return the language reference's built-in functions table, from TABLE_START to TABLE_END."""
    rows = [
        f"| `{name}` | `{name}({', '.join(map(_shown_type, b.params))})` → {_shown_type(b.result)} | {b.doc} |"
        for name, b in BUILTINS.items()
    ]
    fixed = [f"`{name}`" for name, b in BUILTINS.items() if b.fixed]
    return "\n".join(
        [
            TABLE_START,
            "",
            "| Function | Signature | Meaning |",
            "|---|---|---|",
            *rows,
            "",
            f"Only {', '.join(fixed[:-1])} and {fixed[-1]} may be used in constants and other fixed values.",
            "",
            TABLE_END,
        ]
    )


def with_reference_table(page: str) -> str:
    """Return a documentation page with its built-in functions table replaced by reference_table()."""
    pattern = re.compile(re.escape(TABLE_START.split(" (")[0]) + r".*?" + re.escape(TABLE_END), re.S)
    if not pattern.search(page):
        raise ValueError(f"the page has no {TABLE_START!r} ... {TABLE_END!r} block")
    return pattern.sub(lambda _: reference_table(), page, count=1)


if __name__ == "__main__":  # python -m landlord_dsl.checking.builtins PAGE.md: regenerate the page's table
    for name in sys.argv[1:]:
        page = Path(name)
        page.write_text(with_reference_table(page.read_text(encoding="utf-8")), encoding="utf-8")
