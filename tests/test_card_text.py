"""A card's text may show options, constants and tables in `{...}` holes: it follows the options chosen."""

from __future__ import annotations

import pytest

import landlord_dsl as ld
from landlord_dsl.presentation.show import show_text

SOURCE = """edition "x" {{ players 2 to 2 }}
option fine = 5
option strict = false
const doubled = fine * 2
account pot
kind start "Start" {{ }}
board {{
    space go "Go" : start
}}
function mood() = if strict then "strictly" else "kindly"
deck chance "Chance" returned size 1 {{
    card pay_fine "{text}" {{
        pay fine from player to pot
    }}
}}
"""


def card_text(text: str, **options) -> str:
    program = ld.compile_rules(ld.load_text(SOURCE.format(text=text)), options)
    return program.card_texts[program.card_names.index("pay_fine")]


@pytest.mark.parametrize(
    "options, shown",
    [
        ({}, "Pay 5 (10 if doubled), kindly, at Go {sic}"),
        ({"fine": 7, "strict": True}, "Pay 7 (14 if doubled), strictly, at Go {sic}"),
    ],
)
def test_a_card_text_shows_the_options_in_force(options, shown):
    assert card_text("Pay {fine} ({doubled} if doubled), {mood()}, at {go} {{sic}}", **options) == shown


def test_show_gives_a_card_text_under_the_options_chosen():
    rules = ld.load_text(SOURCE.format(text="Pay {fine}"))
    assert "pay_fine: Pay 9" in show_text(rules, {"fine": 9})


@pytest.mark.parametrize("hole", ["player", "turn_number"])
def test_a_card_text_hole_that_changes_during_a_game_is_a_located_error(hole):
    problems = [d for d in ld.check(SOURCE.format(text="Pay {" + hole + "}")) if d.severity == "error"]
    assert problems and problems[0].message == f"'{hole}' changes during a game and cannot be used here"
    assert (problems[0].span.line, problems[0].span.column) == (12, 24)
