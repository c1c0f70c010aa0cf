"""Exact analysis, interchangeable cards: the cards of a deck the rules cannot tell apart, one class each.

Stage: used by `explore` (landlord_dsl.studies.analysis). The language names no card in an
expression: a rule sees a card only as one it holds, draws or iterates, through its deck,
tags, share, text and name, and its effect. Two cards whose deck, tags, share and effect
(the same statements) are the same, whose text and name nothing reads but a prompt's
holes, and between which no card of another kind lies in the program's numbering (a
hand keeps its cards in that order, so a rule taking "the first card that ..." never
chooses between the two kinds differently), cannot be told apart by the rules, as long
as no variable holds a card and no expression compares two cards: swapping them
everywhere changes nothing a turn does but the names its log writes. The analysis then
keeps how many cards of each class the token holds and each deck holds, not which, and
a draw asks which class turns up (with the probability of its share of the deck),
instead of which card: the fourteen blank cards of each of 1933's attested decks are
one outcome, and a token keeping 1906's luxury cards holds a number of them, not one of
2^27 hands.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import attrs

from ...core.span import Span
from ...core.types import CARD

if TYPE_CHECKING:
    from ...checking.model import Model
    from ...program.compiled import Program

_CARD_TYPE = re.compile(rf"\b{CARD}\b")  # a type that is, may be, or holds a card ("card?", "list[card]")


def card_classes(model: Model, program: Program, ordered_decks: frozenset[str]) -> tuple[int, ...] | None:
    """Return, for each card of `program` (by number), the first card of its class of interchangeable cards
    (the module's docstring says which those are); None when each card is a class of its own, or when the
    rules may tell any two cards apart (a variable that holds cards, an expression that compares cards: what
    the checker found, `Annotations`). The cards of the decks in `ordered_decks` (whose order the rules read)
    are each a class of their own."""
    annotations = model.annotations
    if annotations.cards_compared:
        return None
    for table in (model.game_vars, model.player_vars, model.space_vars):
        if any(_CARD_TYPE.search(annotations.type_of(v)) for v in table.values()):
            return None
    # (the title deeds come first, each a class of its own; then each deck's cards, in order, each copy one card)
    keys: list[Any] = [("title", c) for c in range(len(program.card_names))]
    number = sum(1 for space in program.card_space if space is not None)
    for deck in model.decks.values():
        if deck.of_titles:
            continue
        for card in deck.cards:
            shape = _shape(card.body)
            for _ in range(card.copies):
                if number >= len(keys) or program.card_names[number] != card.name:
                    return None  # (numbered otherwise than the compiler is known to: nothing assumed)
                named = (card.name, program.card_texts[number]) if annotations.card_names_read else None
                ordered = number if deck.name in ordered_decks else None
                keys[number] = (deck.name, card.tags, card.share_of, shape, named, ordered)
                number += 1
    classes: list[int] = []
    for _, run in itertools.groupby(range(len(keys)), keys.__getitem__):
        members = list(run)
        classes += [members[0]] * len(members)
    return tuple(classes) if any(c != i for i, c in enumerate(classes)) else None


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(node: Any) -> Iterator[Any]:
    """Yield the values of a syntax node's fields (their names read once per class)."""
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in attrs.fields(kind)) if attrs.has(kind) else ()
    return (getattr(node, name) for name in names)


def _shape(value: Any) -> Any:
    """Return a syntax tree (or part of one) as nested tuples without its spans: equal for the same
    statements written in two places."""
    if isinstance(value, Span):
        return None
    if isinstance(value, tuple | list):
        return tuple(_shape(v) for v in value)
    if attrs.has(type(value)):
        return (type(value).__name__, *(_shape(v) for v in _fields(value)))
    return value
