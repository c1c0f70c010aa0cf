"""The value types of the .lg language, and the fields and names every edition has.

Types are small strings: int, bool, text, none, player, space, card, account,
group, deck, dice, payee (a player or an account), list[T], choice[NAME] (one
of the texts a choice or an option lists), table[NAME], dice[NAME] (a declared
set of dice), and a trailing '?' for "or none" (player? is an owner that may be
absent). They are made by the functions here (list_of, optional, ...) and taken
apart only by `parse_type`. `any` is used
only to stop one error from causing a cascade of others. The built-in
functions are declared, with their signatures, in landlord_dsl.checking.builtins.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

INT, BOOL, TEXT, NONE, ANY = "int", "bool", "text", "none", "any"
PLAYER, SPACE, CARD, ACCOUNT, GROUP, DECK, DICE, PAYEE = (
    "player",
    "space",
    "card",
    "account",
    "group",
    "deck",
    "dice",
    "payee",
)


class TypeParts(NamedTuple):
    """A type string taken apart (`parse_type`): `list[space]?` is (list, space, True)."""

    kind: str  # the type's name before any brackets or `?`: int, player, list, table, choice, dice, ...
    argument: str | None  # what its brackets hold: the item type of a list, the name of a table, choice or dice
    optional: bool  # "or none": a trailing `?`

    @property
    def required(self) -> str:
        """Return the type without its `?` (the type itself if it has none)."""
        return self.kind if self.argument is None else f"{self.kind}[{self.argument}]"

    def __str__(self) -> str:
        return self.required + ("?" if self.optional else "")


@functools.lru_cache(maxsize=1024)
def parse_type(type_: str) -> TypeParts:
    """Return a type string taken apart; raise ValueError if it is not one (its brackets do not close at its end)."""
    optional = type_.endswith("?")
    required = type_.removesuffix("?") if optional else type_
    kind, bracket, rest = required.partition("[")
    if not bracket:
        return TypeParts(kind, None, optional)
    argument, closing, after = rest.rpartition("]")
    if not closing or after or not kind or not argument:
        raise ValueError(f"not a type: {type_!r}")
    return TypeParts(kind, argument, optional)


def _of(kind: str, argument: str) -> str:
    return str(TypeParts(kind, argument, False))


def _argument(type_: str, kind: str) -> str | None:
    """Return what the brackets of a `kind[...]` type, or of one that may be none, hold; else None."""
    parts = parse_type(type_)
    return parts.argument if parts.kind == kind else None


def list_of(item: str) -> str:
    """Return the type of a list of `item`s."""
    return _of("list", item)


def table_of(name: str) -> str:
    """Return the type of a table value: it remembers which table, for its key and value types."""
    return _of("table", name)


def table_name(type_: str) -> str | None:
    """Return the table a table type refers to, or None."""
    return _argument(type_, "table")


def choice_of(name: str) -> str:
    """Return the type of the values of a choice (or of an option that lists its values)."""
    return _of("choice", name)


def choice_name(type_: str) -> str | None:
    """Return the choice a choice type refers to, or None."""
    return _argument(type_, "choice")


def dice_set_of(name: str) -> str:
    """Return the type of a declared set of dice (`dice NAME ...`): it remembers which set, for its faces."""
    return _of("dice", name)


def dice_set_name(type_: str) -> str | None:
    """Return the declared set of dice a type refers to, or None (the edition's own `dice` is DICE)."""
    return _argument(type_, "dice")


def element_of(type_: str) -> str | None:
    """Return the element type of an iterable type, or None."""
    if type_ == GROUP:
        return SPACE
    if type_ == ANY:
        return ANY
    return None if is_optional(type_) else _argument(type_, "list")  # a list that may be none is not iterable


def is_optional(type_: str) -> bool:
    """Return True if a type says "or none" (a trailing `?`)."""
    return parse_type(type_).optional


def optional(type_: str) -> str:
    """Return the type "or none" of a type (itself if it already may be none)."""
    return type_ if type_ in (ANY, NONE) else str(parse_type(type_)._replace(optional=True))


@functools.lru_cache(maxsize=1024)
def strip_optional(type_: str) -> str:
    """Return a type without its "or none"."""
    return parse_type(type_).required


def compatible(expected: str, actual: str) -> bool:
    """Return True if a value of type `actual` may stand where `expected` is wanted."""
    if ANY in (expected, actual) or expected == actual:
        return True
    if expected == PAYEE:
        return strip_optional(actual) in (PLAYER, ACCOUNT, PAYEE)
    if expected == TEXT and choice_name(actual) is not None:
        return True  # a choice's value is a text; a text is no choice's value (see checker's `conform`)
    if is_optional(expected):
        return actual == NONE or compatible(strip_optional(expected), strip_optional(actual))
    if expected == list_of(ANY):
        return element_of(actual) is not None
    if element_of(expected) is not None and element_of(actual) is not None:
        return compatible(element_of(expected), element_of(actual))  # type: ignore[arg-type]
    return False


def comparable(a: str, b: str) -> bool:
    """Return True if == and != between these types make sense."""
    if ANY in (a, b):
        return True
    if NONE in (a, b):
        return is_optional(a) or is_optional(b) or NONE == a == b or PAYEE in (a, b)
    a, b = strip_optional(a), strip_optional(b)
    if PAYEE in (a, b):
        return {a, b} <= {PLAYER, ACCOUNT, PAYEE}
    return a == b


_PLURAL = {
    INT: "numbers",
    BOOL: "true/false values",
    TEXT: "texts",
    NONE: "nones",
    PLAYER: "players",
    SPACE: "spaces",
    CARD: "cards",
    ACCOUNT: "accounts",
    GROUP: "groups",
    DECK: "decks",
    DICE: "dice",
    PAYEE: "players or accounts",
    ANY: "things",
}


def _plural(type_: str) -> str:
    parts = parse_type(type_)
    if parts.optional:
        return f"{_plural(parts.required)} or nones"
    if parts.kind == "list" and parts.argument is not None:
        return f"lists of {_plural(parts.argument)}"
    if parts.kind == "choice":
        return f"'{parts.argument}' values"
    return _PLURAL.get(type_) or describe(type_).removeprefix("the ") + "s"


def describe(type_: str) -> str:
    """Return a type as said in an error message."""
    parts = parse_type(type_)
    if parts.optional:
        return f"{describe(parts.required)} or none"
    if parts.argument is not None:
        return {
            "list": f"a list of {_plural(parts.argument)}",
            "table": f"the table '{parts.argument}'",
            "choice": f"a '{parts.argument}' value",
            "dice": f"the dice '{parts.argument}'",
        }.get(parts.kind, type_)
    return {
        INT: "a number",
        BOOL: "true/false",
        TEXT: "text",
        NONE: "none",
        PLAYER: "a player",
        SPACE: "a space",
        CARD: "a card",
        ACCOUNT: "an account",
        GROUP: "a group",
        DECK: "a deck",
        DICE: "the dice",
        PAYEE: "a player or an account",
        ANY: "anything",
    }.get(type_, type_)


# Fields every value of a type has, besides those an edition declares.
BUILTIN_FIELDS: dict[str, dict[str, str]] = {
    PLAYER: {"cash": INT, "space": SPACE, "seat": INT, "name": TEXT, "cards": list_of(CARD), "titles": list_of(SPACE)},
    SPACE: {"owner": optional(PLAYER), "index": INT, "name": TEXT, "kind": TEXT, "title": CARD},
    CARD: {
        "name": TEXT,
        "text": TEXT,
        "space": optional(SPACE),
        "holder": optional(PLAYER),
        "deck": DECK,
        "share_of": optional(SPACE),
    },
    DICE: {"total": INT, "double": BOOL, "first": INT, "second": INT, "count": INT, "face": TEXT},
    ACCOUNT: {"balance": INT, "name": TEXT},
}

# Names whose meaning depends on where they are used.
CONTEXT_NAMES: dict[str, str] = {
    "player": PLAYER,  # the player the rule is acting for
    "players": list_of(PLAYER),
    "player_count": INT,
    "turn_number": INT,  # turns played so far, this one included
    "here": SPACE,  # the acting player's space
    "origin": SPACE,  # where the current player's last move started
    "dice": DICE,  # the last roll of the dice
    "spaces": list_of(SPACE),
}
SHORTFALL_NAMES: dict[str, str] = {"due": INT, "creditor": PAYEE, "creditor_player": optional(PLAYER)}
