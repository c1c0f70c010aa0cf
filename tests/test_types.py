"""The language's types are strings made by core/types.py's functions and taken apart by `parse_type` alone."""

from __future__ import annotations

import pytest

from landlord_dsl.core.types import (
    ANY,
    GROUP,
    INT,
    NONE,
    PLAYER,
    SPACE,
    TEXT,
    TypeParts,
    choice_name,
    choice_of,
    compatible,
    describe,
    dice_set_name,
    dice_set_of,
    element_of,
    is_optional,
    list_of,
    optional,
    parse_type,
    strip_optional,
    table_name,
    table_of,
)


@pytest.mark.parametrize(
    ("type_", "parts"),
    [
        (INT, TypeParts("int", None, False)),
        (optional(PLAYER), TypeParts("player", None, True)),
        (list_of(SPACE), TypeParts("list", "space", False)),
        (optional(list_of(optional(PLAYER))), TypeParts("list", "player?", True)),
        (list_of(list_of(INT)), TypeParts("list", "list[int]", False)),
        (table_of("rent"), TypeParts("table", "rent", False)),
        (choice_of("colour"), TypeParts("choice", "colour", False)),
        (dice_set_of("speed"), TypeParts("dice", "speed", False)),
    ],
)
def test_a_type_taken_apart_and_put_back_is_itself(type_: str, parts: TypeParts):
    assert parse_type(type_) == parts
    assert str(parts) == type_
    assert strip_optional(type_) == str(parts._replace(optional=False))


@pytest.mark.parametrize("text", ["list[int", "list[]", "[int]", "list[int]x", "table[rent]]x"])
def test_a_string_whose_brackets_do_not_close_at_its_end_is_no_type(text: str):
    with pytest.raises(ValueError, match="not a type"):
        parse_type(text)


def test_the_parts_of_a_type_are_read_through_the_parser():
    assert element_of(list_of(INT)) == INT and element_of(GROUP) == SPACE and element_of(ANY) == ANY
    assert element_of(optional(list_of(INT))) is None  # a list that may be none is not looped over
    assert element_of(list_of(list_of(INT))) == list_of(INT)
    assert table_name(table_of("rent")) == "rent" and table_name(list_of(INT)) is None
    assert choice_name(optional(choice_of("colour"))) == "colour"  # (it was 'colour]': a slice one too short)
    assert dice_set_name(dice_set_of("speed")) == "speed" and dice_set_name("dice") is None
    assert optional(optional(INT)) == optional(INT) and optional(ANY) == ANY and optional(NONE) == NONE
    assert is_optional(optional(SPACE)) and not is_optional(list_of(optional(SPACE)))
    assert compatible(optional(list_of(INT)), list_of(INT)) and not compatible(list_of(INT), optional(list_of(INT)))
    assert compatible(TEXT, choice_of("colour")) and compatible(list_of(ANY), list_of(SPACE))
    assert describe(optional(list_of(optional(PLAYER)))) == "a list of players or nones or none"
    assert describe(table_of("rent")) == "the table 'rent'" and describe(dice_set_of("speed")) == "the dice 'speed'"
