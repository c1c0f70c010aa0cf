"""The exact analysis's classes of interchangeable cards (studies/analysis/cards.py): which cards the rules cannot
tell apart, so that the movement state holds how many of a class, and a draw asks which class turns up.

Each case is the analysis's twelve-space ring (tests/data/analysis-ring.lg) with a deck of its own and what the
case adds; the classes are given by the cards' names."""

from __future__ import annotations

from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.compiling.compiler import compile_ruleset
from landlord_dsl.studies.analysis.cards import card_classes

ROOT = Path(__file__).resolve().parent.parent
RING = ROOT / "tests" / "data" / "analysis-ring.lg"
DECK = """deck luck "Luck" returned {
    card to_start "Back to Start" { move to start }
    card to_f "Go to F" { move to f }
    card back_two "Back two" { move backward 2 }
    card jail_card "Go to jail" {
        send player to lockup
        set player.in_jail = true
    }
    card nothing "Nothing happens" { }
}
"""


def classes_of(tmp_path, deck: str, added: str = "") -> list[list[str]] | None:
    """Return the ring's classes of cards with `deck` for its deck and `added` at its end: the names of each
    class of two cards or more (a copy named once a copy), or None where each card is a class of its own."""
    text = RING.read_text(encoding="utf-8")
    assert DECK in text
    path = tmp_path / "ring.lg"
    path.write_text(text.replace(DECK, deck) + added, encoding="utf-8")
    rules = ld.load_edition(path)
    program = compile_ruleset(rules, keyed=True)
    classes = card_classes(rules.model, program, program.stepped(keyed=True).decks_read)
    if classes is None:
        return None
    members: dict[int, list[str]] = {}
    for card, first in enumerate(classes):
        members.setdefault(first, []).append(program.card_names[card])
    return [names for names in members.values() if len(names) > 1]


BLANKS = """deck luck "Luck" returned {
    card to_start "Back to Start" { move to start }
    card blank "Nothing" x 3 { }
    card empty "Nothing at all" { }
    card to_f "Go to F" { move to f }
    card also_empty "Still nothing" { }
    card keep "Keep this" tagged keepsake { give card to player }
    card keep_too "Keep this too" tagged keepsake { give card to player }
    card keep_other "Keep that" tagged other { give card to player }
}
"""


def test_consecutive_cards_of_the_same_deck_tags_and_effect_are_one_class(tmp_path):
    # the copies of `blank` and the card after them with the same (empty) effect; not `also_empty`, which a
    # card of another kind separates from them (a hand keeps its cards in their numbering's order); the two
    # keepsakes, not the card tagged otherwise
    assert classes_of(tmp_path, BLANKS) == [["blank", "blank", "blank", "empty"], ["keep", "keep_too"]]


def test_a_card_text_read_only_by_a_prompt_leaves_the_classes(tmp_path):
    added = """
rule shown "Show the cards held" {
    on turn {
        for k in player.cards {
            choose "Keep {k.text}?" {
                option yes "Yes" { }
            }
        }
    }
}
"""
    assert classes_of(tmp_path, BLANKS, added) == [["blank", "blank", "blank", "empty"], ["keep", "keep_too"]]


def test_a_card_name_read_by_a_rule_keeps_only_copies_together(tmp_path):
    added = """
function named(k: card) = k.name == "keep"
"""
    assert classes_of(tmp_path, BLANKS, added) == [["blank", "blank", "blank"]]


COMPARED = """
rule same "Compare" {
    on turn {
        for k in player.cards {
            for j in player.cards {
                if k != j {
                    pay 1 from player to bank
                }
            }
        }
    }
}
"""
LOOKED_FOR = """
rule held "Look for the cards of a deck" {
    on turn {
        for p in players {
            for k in p.cards {
                if k not in player.cards {
                    pay 1 from player to bank
                }
            }
        }
    }
}
"""


@pytest.mark.parametrize(
    "added",
    ["player var last_card: card = none\n", COMPARED, LOOKED_FOR],
    ids=["a variable holds a card", "two cards compared", "a card looked for in a list"],
)
def test_rules_that_may_tell_cards_apart_make_each_a_class_of_its_own(tmp_path, added):
    assert classes_of(tmp_path, BLANKS, "\n" + added) is None


def test_the_cards_of_a_deck_whose_order_is_read_are_each_a_class_of_their_own(tmp_path):
    added = """
rule looked "Look at the deck" {
    on turn {
        for k in cards_in(luck) {
            if k has keepsake {
                pay 1 from player to bank
            }
        }
    }
}
"""
    assert classes_of(tmp_path, BLANKS, added) is None


def test_distinct_cards_make_no_classes(tmp_path):
    assert classes_of(tmp_path, DECK) is None


def test_the_shipped_editions_classes():
    # 1933's blank cards of each attested deck; 1906's luxury cards (no effect, no tag, their texts read only by
    # prompts); 1939's placeholder cards of each size; 1904 none
    found = {}
    for name in ("landlords-game-1904", "landlords-game-1906", "landlords-game-1939", "monopoly-1933-atlantic-city"):
        rules = ld.load_edition(name)
        program = compile_ruleset(rules, keyed=True)
        classes = card_classes(rules.model, program, program.stepped(keyed=True).decks_read)
        sizes: dict[int, int] = {}
        for first in classes or ():
            sizes[first] = sizes.get(first, 0) + 1
        found[name] = sorted((program.card_names[first], n) for first, n in sizes.items() if n > 1)
    assert found == {
        "landlords-game-1904": [],
        "landlords-game-1906": [("automobile", 27)],
        "landlords-game-1939": [("placeholder_large", 4), ("placeholder_medium", 6), ("placeholder_small", 6)],
        "monopoly-1933-atlantic-city": [("chance_lost", 14), ("chest_lost", 14)],
    }
