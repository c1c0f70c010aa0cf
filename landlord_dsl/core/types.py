"""The value types of the .lg language, and the fields and names every edition has.

Types are small strings: int, bool, text, none, player, space, card, account,
group, deck, dice, payee (a player or an account), list[T], choice[NAME] (one
of the texts a choice or an option lists), and a trailing
'?' for "or none" (player? is an owner that may be absent). `any` is used
only to stop one error from causing a cascade of others. The built-in
functions are declared, with their signatures, in landlord_dsl.checking.builtins.
"""

from __future__ import annotations

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


def list_of(item: str) -> str:
    return f"list[{item}]"


def table_of(name: str) -> str:
    """Return the type of a table value: it remembers which table, for its key and value types."""
    return f"table[{name}]"


def table_name(type_: str) -> str | None:
    """Return the table a table type refers to, or None."""
    return type_[6:-1] if type_.startswith("table[") else None


def choice_of(name: str) -> str:
    """Return the type of the values of a choice (or of an option that lists its values)."""
    return f"choice[{name}]"


def choice_name(type_: str) -> str | None:
    """Return the choice a choice type refers to, or None."""
    return type_[7:-1] if type_.startswith("choice[") else None


def dice_set_of(name: str) -> str:
    """Return the type of a declared set of dice (`dice NAME ...`): it remembers which set, for its faces."""
    return f"dice[{name}]"


def dice_set_name(type_: str) -> str | None:
    """Return the declared set of dice a type refers to, or None (the edition's own `dice` is DICE)."""
    return type_[5:-1] if type_.startswith("dice[") else None


def element_of(type_: str) -> str | None:
    """Return the element type of an iterable type, or None."""
    if type_ == GROUP:
        return SPACE
    if type_.startswith("list[") and type_.endswith("]"):
        return type_[5:-1]
    if type_ == ANY:
        return ANY
    return None


def optional(type_: str) -> str:
    return type_ if type_.endswith("?") or type_ in (ANY, NONE) else type_ + "?"


def strip_optional(type_: str) -> str:
    return type_[:-1] if type_.endswith("?") else type_


def compatible(expected: str, actual: str) -> bool:
    """Return True if a value of type `actual` may stand where `expected` is wanted."""
    if ANY in (expected, actual) or expected == actual:
        return True
    if expected == PAYEE:
        return strip_optional(actual) in (PLAYER, ACCOUNT, PAYEE)
    if expected == TEXT and choice_name(actual) is not None:
        return True  # a choice's value is a text; a text is no choice's value (see checker's `conform`)
    if expected.endswith("?"):
        return actual == NONE or compatible(expected[:-1], strip_optional(actual))
    if expected == "list[any]":
        return element_of(actual) is not None
    if element_of(expected) is not None and element_of(actual) is not None:
        return compatible(element_of(expected), element_of(actual))  # type: ignore[arg-type]
    return False


def comparable(a: str, b: str) -> bool:
    """Return True if == and != between these types make sense."""
    if ANY in (a, b):
        return True
    if NONE in (a, b):
        return a.endswith("?") or b.endswith("?") or NONE == a == b or PAYEE in (a, b)
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
    if type_.startswith("list["):
        return f"lists of {_plural(type_[5:-1])}"
    if type_.endswith("?"):
        return f"{_plural(type_[:-1])} or nones"
    if type_.startswith("choice["):
        return f"'{choice_name(type_)}' values"
    return _PLURAL.get(type_) or describe(type_).removeprefix("the ") + "s"


def describe(type_: str) -> str:
    """Return a type as said in an error message."""
    if type_.endswith("?"):
        return f"{describe(type_[:-1])} or none"
    if type_.startswith("list["):
        return f"a list of {_plural(type_[5:-1])}"
    if type_.startswith("table["):
        return f"the table '{table_name(type_)}'"
    if type_.startswith("choice["):
        return f"a '{choice_name(type_)}' value"
    if type_.startswith("dice["):
        return f"the dice '{dice_set_name(type_)}'"
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
