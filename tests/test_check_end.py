"""`check end`: the `end when` conditions checked at a moment a rule names, not only after the turn.

The 1939 rules end the game "when the last player to begin has completed his second round and paid his
Taxes" (magie-1939, THE WINNER OF THE GAME IS), in the middle of his turn; `check end` says so.
"""

from __future__ import annotations

import landlord_dsl as ld

SOURCE = """edition "x" {{ players 2 to 4 }}
reference "rules-x" "the rules of x"
account pot
var steps = 0
var later = 0
kind start "Start" {{ }}
board {{
    space go "Go" : start
}}
rule count "Count, then maybe check the end, then count again" {{
    on turn {{
        set steps += 1
        {check}
        set later += 1
    }}
}}
end enough when steps >= 3 source "rules-x" reconstruction
"""


def play(check: str):
    game = ld.new_game(ld.compile_rules(ld.load_text(SOURCE.format(check=check))), players=2, seed=1)
    return game, game.play()


def test_check_end_ends_the_game_at_once_with_the_condition_as_the_reason():
    game, result = play("check end")
    assert result.turns == 3 and result.end_reason == "end condition (rules-x)"
    assert game.game_var("steps") == 3 and game.game_var("later") == 2


def test_without_check_end_the_turn_runs_to_its_end_first():
    game, result = play("")
    assert result.turns == 3 and result.end_reason == "end condition (rules-x)"
    assert game.game_var("later") == 3


def test_check_end_while_no_condition_holds_does_nothing():
    game, result = play("if steps > 100 { check end }")
    assert game.game_var("later") == 3 and result.turns == 3


def test_check_end_formats_as_written():
    source = SOURCE.format(check="check end")
    assert ld.format_source(ld.format_source(source)) == ld.format_source(source)
    assert "        check end\n" in ld.format_source(source)
