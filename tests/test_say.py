"""`say "TEXT"`: a rule tells the narration something no other event shows; the game is the same."""

from __future__ import annotations

import landlord_dsl as ld
from landlord_dsl.engine import observe
from landlord_dsl.engine.events import log_event_from_json
from landlord_dsl.presentation.narrate import narrate

SOURCE = """edition "x" {{ players 2 to 2 }}
account pot
player var laps = 0
kind start "Start" {{ }}
board {{
    space go "Go" : start
}}
rule count "Count the turns" {{
    on turn {{
        set player.laps += 1
        {say}
    }}
}}
end when turn_number >= 2
"""


def play(say: str):
    game = ld.new_game(ld.compile_rules(ld.load_text(SOURCE.format(say=say))), players=2, seed=1)
    game.play()
    return game


def test_say_is_narrated_with_its_rule_and_logged():
    game = play('say "{player} has played {player.laps} turn"')
    lines = list(narrate(game))
    assert "Player 1 has played 1 turn [count]." in lines and "Player 2 has played 1 turn [count]." in lines
    said = [e for e in observe.events(game) if isinstance(e, observe.Said)]
    assert [(e.turn, e.text, e.rule) for e in said] == [
        (1, "Player 1 has played 1 turn", "count"),
        (2, "Player 2 has played 1 turn", "count"),
    ]


def test_say_changes_nothing_but_the_log():
    told, silent = play('say "{player}"'), play("")
    assert [e for e in told.log if e[0] != "say"] == silent.log
    assert told.result() == silent.result()


def test_say_reads_back_from_a_log_file_and_formats_as_written():
    game = play('say "{player}"')
    said = [log_event_from_json(line) for line in game.log_lines() if line.startswith('["say"')]
    assert [(e.kind, e.turn, e.text) for e in said] == [("say", 1, "Player 1"), ("say", 2, "Player 2")]
    source = SOURCE.format(say='say "{player} ends a turn"')
    assert 'say "{player} ends a turn"' in ld.format_source(source)


def test_a_bad_hole_in_say_is_a_located_error():
    problems = [d for d in ld.check(SOURCE.format(say='say "{nobody}"')) if d.severity == "error"]
    assert problems[0].message == "unknown name 'nobody'"
    assert (problems[0].span.line, problems[0].span.column) == (11, 14)
