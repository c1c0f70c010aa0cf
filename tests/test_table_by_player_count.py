"""A table looked up by `player_count` without an entry for a number of players the header allows: `check`
warns of it at the lookup, and the file still checks (docs/language/types-and-errors.md, "Warnings")."""

from __future__ import annotations

import pytest

import landlord_dsl as ld
from landlord_dsl.core.errors import LandlordError

RULES = """edition "x" { players 2 to 4 }

account bank "The bank" unlimited

table start_cash "Starting cash" { TABLE }

kind start "Start" { }

board {
    space go "Go" : start
}

rule setup_cash "Starting cash" {
    on setup {
        for p in players {
            pay start_cash[player_count] from bank to p
        }
    }
}
"""


def _rules(entries: str) -> ld.RuleSet:
    return ld.load_text(RULES.replace("TABLE", entries), "x.lg")


def test_a_missing_entry_is_warned_of_at_the_lookup_and_the_file_still_checks():
    rules = _rules("2: 600, 3: 500")
    [warning] = rules.warnings
    assert warning.severity == "warning"
    assert warning.message.startswith("table 'start_cash' is looked up by the number of players, and has no entry 4")
    assert (warning.span.line, warning.span.column) == (16, 28)
    assert "start_cash[player_count]" in warning.line_text
    # the games it has entries for go on as before; one of 4 players stops at the lookup, as the warning says
    assert ld.new_game(rules, players=3, seed=1, turn_limit=1).play() is not None
    with pytest.raises(LandlordError, match="no entry 4"):
        ld.new_game(rules, players=4, seed=1, turn_limit=1).play()


def test_a_table_with_every_number_of_players_is_not_warned_of():
    assert _rules("2: 600, 3: 500, 4: 400").warnings == ()


@pytest.mark.parametrize("name", ld.shipped_editions())
def test_no_shipped_file_is_warned_of(name):
    rules = ld.load_edition(name)
    assert not [w for w in rules.warnings if "looked up by the number of players" in w.message]


def test_a_variant_that_drops_an_entry_is_warned_of_at_its_own_table(tmp_path):
    variant = tmp_path / "rich-start.lg"
    variant.write_text(
        'edition "rich-start" {\n    title "A richer start"\n    extends "landlords-game-1906"\n}\n\n'
        'table start_cash "Starting cash by number of players" { 2: 900, 3: 750 }\n',
        encoding="utf-8",
    )
    [warning] = [w for w in ld.load_edition(str(variant)).warnings if "number of players" in w.message]
    assert warning.span.file == str(variant) and warning.span.line == 6
    assert "(landlords-game-1906.lg, line 425)" in warning.message and "no entry 4" in warning.message
