"""What a new user writing rules of their own hit (issue 27, item 5): a confidence for an original game, and
the checker's hints that did not say what to do."""

from __future__ import annotations

import io

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.presentation.narrate import describe_event
from landlord_dsl.presentation.show import show_text

ORIGINAL = """edition "our-game" {
    title "Our game"
    players 2 to 2
    dice 2
    turn limit 30
    source "house-rule: a game of our own" original
}

account bank "The bank" unlimited

kind start "Start" { }
kind chance "Chance" { }

board {
    space go "Go" : start
    space chance_1 "Chance" : chance
    space chance_2 "Chance" : chance
}

deck chances "Chance cards" returned {
    card dividend "Collect $50" {
        pay 50 from bank to player
    }
} source "house-rule: our own cards" original

rule moving "Throw and move" {
    on turn {
        roll dice
        move forward dice.total
    }
}

rule chance_rule "Chance" {
    on land chance {
        draw chances
    }
}
"""


def _variant(base: str, body: str) -> str:
    return f'edition "v" {{\n    extends "{base}"\n    source "house-rule" reconstruction\n}}\n{body}\n'


def _rule(statement: str) -> str:
    return f'rule r "R" {{\n    on turn {{\n        {statement}\n    }}\n}}'


def _only_error(text: str) -> ld.Diagnostic:
    (error,) = [d for d in ld.check(text, "v.lg") if d.severity == "error"]
    return error


def test_an_original_game_is_tagged_original_and_its_cards_are_not_called_reconstructed():
    rules = ld.load_text(ORIGINAL, "our-game.lg")
    assert rules.model.header.provenance.confidence == "original"
    assert rules.model.decks["chances"].provenance.confidence == "original"
    game = ld.new_game(rules, players=2, seed=1)
    game.play()
    draws = [text for e in game.log if (text := describe_event(game, e)) and " draws: " in text]
    assert draws and all(d.endswith('draws: "Collect $50".') for d in draws)
    assert "reconstructed" not in show_text(rules)
    assert ld.format_source(ORIGINAL, "our-game.lg") == ORIGINAL


def test_a_player_or_none_where_a_player_is_wanted_says_how_to_rule_none_out():
    error = _only_error(
        _variant("monopoly-1933-atlantic-city", _rule("pay count_owned(here.owner, lot) from player to bank"))
    )
    assert error.message == "argument 1 of 'count_owned' must be a player, not a player or none"
    assert error.hint == (
        "it may be none: rule none out first, e.g. `if here.owner != none { ... }`; inside, it is a player"
    )


def test_an_unknown_selector_lists_the_kinds_and_groups():
    text = _variant(
        "monopoly-1933-atlantic-city",
        'rule r "R" {\n    on land titled_spaces {\n        pay 1 from player to bank\n    }\n}',
    )
    error = _only_error(text)
    assert error.message == "unknown space, kind or group 'titled_spaces'"
    assert error.hint is not None and error.hint.startswith("the kinds and groups: chance, chest, ")
    assert "railroad" in error.hint and "utility" in error.hint


@pytest.mark.parametrize(
    ("base", "payee", "hint"),
    [
        ("monopoly-1933-atlantic-city", "pot", "the accounts: bank; or a player, e.g. `player`"),
        ("landlords-game-1906", "bank", "the accounts: miscellaneous, treasury; or a player, e.g. `player`"),
    ],
)
def test_an_unknown_payee_is_offered_the_accounts(base: str, payee: str, hint: str):
    """`pot` got "did you mean 'lot'?" (a kind, which cannot be paid); 1906's `bank` got no hint at all."""
    error = _only_error(_variant(base, _rule(f"pay 5 from player to {payee}")))
    assert (error.message, error.hint) == (f"unknown name '{payee}'", hint)


def test_a_statement_as_a_function_body_says_use_an_action():
    error = _only_error(_variant("monopoly-1933-atlantic-city", "function charge(p: player) = pay 5 from p to bank"))
    assert error.message == "`pay` is a statement, and a function only gives a value"
    assert error.line_text[error.span.column - 1 : error.span.end_column - 1] == "pay"
    assert (
        error.hint == "write it in an action, `action charge(p: player) { pay ... }`, and run it with `do charge(...)`"
    )


def test_moving_by_the_dice_says_dice_total():
    error = _only_error(_variant("monopoly-1933-atlantic-city", _rule("move forward dice")))
    assert error.message == "the number of steps must be a number, not the dice"
    assert error.hint is not None and error.hint.startswith("`dice.total` is the sum of the throw")


def test_the_start_of_an_editions_name_suggests_the_edition_before_its_variants(capsys):
    assert main(["simulate", "monopoly-1933"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "did you mean 'monopoly-1933-atlantic-city'?" in err
    assert "paupers" not in err
