"""General dice: sets declared with `dice NAME COUNT [sides N | faces [...]]` and thrown by `roll NAME`,
each die by index (`dice[0]`), and the speed-die house rule of the 1933 edition built on them.

The language's side (parse, check, format, compile, run, save, replay) is tested on small editions
written here; the speed die (editions/variants/monopoly-1933-speed-die.lg) by the scenarios of
tests/test_variants.py.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.engine.saves import state_from_json, state_to_json
from landlord_dsl.language.formatter import format_module
from landlord_dsl.language.parser import parse
from landlord_dsl.program.requests import DiceRequest, SeededChance

SPEED_DIE = "monopoly-1933-speed-die"


def small(dice_decl: str, body: str, header_dice: str = "dice 2") -> str:
    """Return a complete small edition: a ring of eight plain spaces, `dice_decl`, and one turn rule `body`."""
    spaces = "\n".join(f'    space s{i} "S{i}" : plain' for i in range(8))
    return f"""edition "dice-test" {{
    players 2 to 2
    {header_dice}
    turn limit 40
}}
kind plain "Plain" {{ }}
var seen = 0
var shown = ""
board {{
{spaces}
}}
{dice_decl}
rule turns "A turn" {{
    on turn {{
{body}
    }}
}}
"""


def play_scripted(text: str, throws, turns: int = 1) -> ld.Game:
    program = ld.compile_rules(ld.load_text(text, "dice-test.lg"))
    game = ld.new_game(program, agents=[ld.ScriptedAgent([]), ld.ScriptedAgent([])], chance=ld.ScriptedChance(throws))
    game.setup()
    for _ in range(turns):
        game.play_turn()
    return game


def check_messages(text: str) -> list[str]:
    with pytest.raises(ld.LandlordError) as caught:
        ld.load_text(text, "dice-test.lg")
    return [d.message for d in caught.value.diagnostics]


# ------------------------------------------------------------------ the language


def test_a_declared_set_is_thrown_on_its_own_and_its_faces_act():
    """`roll NAME` asks the chance source for that set alone (its own request, after the pair's), and
    the set's number faces count their pips, its text faces none."""
    text = small(
        'dice speed "the speed die" 1 faces [1, 2, 3, "Mr. Monopoly", "Mr. Monopoly", "Bus"]',
        """        roll dice
        roll speed
        set shown = speed.face
        move forward dice.total + speed.total""",
    )
    game = play_scripted(text, [(1, 2), (3,)])
    assert [e[0] for e in game.log if e[0] in ("roll", "throw")] == ["roll", "throw"]
    assert ("throw", 1, 0, "speed", (3,), 0) in game.log
    assert game.pos[0] == 6 and game.game_var("shown") == "3"
    game = play_scripted(text, [(1, 2), (6,)])
    assert game.pos[0] == 3 and game.game_var("shown") == "Bus"


def test_the_chance_source_is_asked_for_the_declared_faces():
    seen: list[DiceRequest] = []

    class Recording(SeededChance):
        def roll(self, request):
            seen.append(request)
            return super().roll(request)

    text = small("dice red 3 sides 8", "        roll dice\n        roll red\n        move forward red.total")
    program = ld.compile_rules(ld.load_text(text, "dice-test.lg"))
    game = ld.new_game(program, players=2, chance=Recording(4))
    game.setup()
    game.play_turn()
    assert seen == [DiceRequest(2), DiceRequest(3, 8, "red")]
    thrown = next(e for e in game.log if e[0] == "throw")
    assert all(1 <= face <= 8 for face in thrown[4]) and game.pos[0] == sum(thrown[4]) % 8


def test_each_die_by_index_count_and_double_on_the_set_named():
    """`dice[i]` is die i of the edition's dice (from 0), `.count` how many a set throws, and
    `.double` is a double of the set the rule names: a double of the pair is none of a third die's."""
    text = small(
        "dice extra 2 faces [1, 1, 2]",
        """        roll dice
        roll extra
        if dice.double and not extra.double and dice.count == 3 and extra.count == 2 {
            set seen = dice[0] * 100 + dice[2] * 10 + extra[1]
        }""",
        header_dice="dice 3",
    )
    game = play_scripted(text, [(4, 4, 4), (1, 3)])
    assert game.game_var("seen") == 442
    # faces 1 and 2 both show one pip: a double of what the dice show, not of the face numbers
    game = play_scripted(text, [(4, 4, 4), (1, 2)])
    assert game.game_var("seen") == 0


def test_roll_dice_by_a_player_names_the_thrower_of_a_set():
    text = small("dice red 1", "        roll red by players[1]")
    game = play_scripted(text, [(5,)])
    assert next(e for e in game.log if e[0] == "throw")[2] == 1


@pytest.mark.parametrize(
    ("dice_decl", "body", "message"),
    [
        ("dice speed 1", "        roll sped", "unknown dice 'sped'"),
        ("dice speed 1", "        set seen = speed[1]", "there is no die [1]: 'speed' throws 1 die"),
        ("", "        set seen = dice[2]", "there is no die [2]: the edition throws 2 dice"),
        ("dice speed 1", '        set seen = speed["a"]', "a die is picked by its number, not text"),
        ("dice speed 1", "        set seen = speed.faces", "the dice 'speed' has no field 'faces'"),
        ("dice speed 0", "", "a set of dice holds from 1 to 10 dice"),
        ("dice speed 1 sides 0", "", "a die has from 1 to 100 faces"),
        ('dice speed 1 faces [1, ""]', "", "a face of this die shows an empty text"),
        ("dice dice 1", "", "'dice' is a built-in name and cannot be declared"),
        ("dice speed 1", '        choose "{speed}" { option a { } }', "'speed' is the dice 'speed'"),
    ],
)
def test_checker_errors_on_dice(dice_decl, body, message):
    assert any(message in m for m in check_messages(small(dice_decl, body or "        end turn")))


def test_dice_declarations_and_throws_format_and_read_back_the_same():
    text = small(
        'dice speed "the speed die" 1 faces [1, 2, 3, "Mr. Monopoly", "Bus"] source "house-rule: test" '
        "reconstruction\ndice d8 2 sides 8\ndice plain 1 sides 6",
        "        roll speed by player\n        roll d8\n        set seen = d8[1] + speed.first",
    )
    module = parse(text, "dice-test.lg")
    out = format_module(module)
    assert "dice d8 2 sides 8\n" in out and "dice plain 1\n" in out and "roll speed by player" in out
    assert 'faces [1, 2, 3, "Mr. Monopoly", "Bus"]' in out
    assert parse(out, "dice-test.lg") == module
    assert format_module(parse(out, "dice-test.lg")) == out


def test_a_variant_may_remove_or_restate_a_set_of_dice():
    base = ld.load_edition(SPEED_DIE)
    assert list(base.model.dice_sets) == ["speed"]
    text = """edition "no-bus" {
    extends "monopoly-1933-speed-die"
}
dice speed "the speed die" 1 faces [1, 2, 3, "Mr. Monopoly", "Mr. Monopoly", "Mr. Monopoly"]
"""
    restated = ld.load_text(text, "no-bus.lg")
    assert restated.model.dice_sets["speed"].faces[-1] == "Mr. Monopoly"
    removed = text.replace('dice speed "the speed die" 1 faces', "remove dice speed\n#")
    assert any("cannot remove dice 'speed': the base still uses it" in m for m in check_messages(removed))


def test_saved_game_keeps_what_a_set_shows_and_refuses_a_face_it_has_not():
    text = small('dice speed 1 faces [1, 2, "Bus"]', "        roll dice\n        roll speed\n        move forward 1")
    game = play_scripted(text, [(1, 1), (3,)])
    state = state_from_json(state_to_json(game.save()))
    assert state.dice_sets == {"speed": [3]}
    fresh = ld.new_game(game.prog, agents=[ld.ScriptedAgent([])] * 2, chance=ld.ScriptedChance([]))
    fresh.restore(state)
    assert fresh.set_shown == [("Bus",)] and fresh.set_pips == [(0,)]
    bad = json.loads(state_to_json(game.save()))
    bad["dice_sets"] = {"speed": [4]}
    with pytest.raises(ld.LandlordError, match="dice_sets: wanted speed: 1 of 1 to 3"):
        fresh.restore(state_from_json(json.dumps(bad)))
    assert fresh.set_shown == [("Bus",)]  # a refused state leaves the game as it was


def test_a_chance_source_answering_a_face_the_set_has_not_is_a_clear_error():
    text = small("dice speed 1 sides 3", "        roll speed")
    with pytest.raises(ld.LandlordError, match="answered \\(4,\\) to a throw of 1 'speed' die of 3 faces"):
        play_scripted(text, [(4,)])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(1, 3),
    faces=st.lists(st.one_of(st.integers(0, 9), st.sampled_from(["Bus", "Mr. Monopoly", "x"])), min_size=1, max_size=7),
    seed=st.integers(0, 10**6),
)
def test_general_dice_show_declared_faces_and_replay_exactly(count, faces, seed):
    """Every throw of a declared set shows faces it declares; a game with it replays exactly from its
    seed, and a game saved half-way and restored goes on as the one that was not."""
    listed = ", ".join(json.dumps(f) for f in faces)
    text = small(
        f"dice extra {count} faces [{listed}]",
        """        roll dice
        roll extra
        if extra.double { set seen += 1 }
        move forward dice.total + extra.total + extra[0]""",
    )
    program = ld.compile_rules(ld.load_text(text, "dice-test.lg"))

    def game_of() -> ld.Game:
        return ld.new_game(program, players=2, seed=seed)

    first = game_of()
    first.play()
    throws = [e for e in first.log if e[0] == "throw"]
    assert len(throws) == first.turn
    for entry in throws:
        assert len(entry[4]) == count and all(1 <= face <= len(faces) for face in entry[4])
    last = [faces[face - 1] for face in throws[-1][4]]
    assert list(first.set_shown[0]) == [str(f) for f in last]
    assert list(first.set_pips[0]) == [f if isinstance(f, int) else 0 for f in last]
    again = game_of()
    again.play()
    assert again.log_lines() == first.log_lines()
    halfway = game_of()
    halfway.setup()
    for _ in range(first.turn // 2):
        halfway.play_turn()
    state = state_from_json(state_to_json(halfway.save()))
    resumed = game_of()
    resumed.restore(state)
    halfway.play()
    resumed.play()
    assert resumed.log_lines() == halfway.log_lines()[-len(resumed.log_lines()) :]
    assert resumed.set_faces == halfway.set_faces and resumed.result() == first.result()


def test_exact_analysis_refuses_rules_with_declared_dice_saying_where():
    with pytest.raises(ld.LandlordError) as caught:
        ld.analyze(ld.load_edition(SPEED_DIE))
    diagnostic = caught.value.diagnostics[0]
    assert "exact analysis follows only the edition's own dice" in diagnostic.message
    assert "'speed'" in diagnostic.message and diagnostic.span.file.endswith("monopoly-1933-speed-die.lg")


def test_exact_analysis_refusal_on_the_command_line_is_an_error_not_a_traceback(capsys):
    from landlord_dsl.cli.main import main

    code = main(["analyze", SPEED_DIE])
    err = capsys.readouterr().err
    assert code != 0 and "exact analysis follows only" in err and "Traceback" not in err


def test_a_logged_speed_die_game_replays_and_an_edited_face_is_caught(tmp_path, capsys):
    """`play --log` records every throw of the speed die; `replay` verifies them, and a face edited in
    the log (a 1 made a 2) is reported, as any other edited event is."""
    import io

    from landlord_dsl.cli.main import main

    path = tmp_path / "speed.jsonl"
    assert main(["play", SPEED_DIE, "--seed", "2", "--log", str(path)], out=io.StringIO()) == 0
    lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    assert main(["replay", str(path)], out=io.StringIO()) == 0
    at = next(i for i, line in enumerate(lines) if line.startswith('["throw"'))
    event = json.loads(lines[at])
    event[4] = [event[4][0] % 6 + 1]
    lines[at] = json.dumps(event, separators=(",", ":"))
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(edited)], out=io.StringIO()) == 1
    assert 'replayed ["throw"' in capsys.readouterr().err


def test_the_narration_of_a_declared_set_gives_its_total_and_a_double():
    """Issue 27: `throws Two four-sided dice: 1, 2.` gave neither total nor double; a declared set is told
    as the edition's dice are (`1 + 2 = 3`, `(a double)`), a face with a mark counting no pips."""
    from landlord_dsl.presentation.narrate import describe_event

    text = small(
        'dice tetra "Two four-sided dice" 2 sides 4\ndice odd "Two odd dice" 2 faces [1, "Bus"]',
        "        roll tetra\n        roll tetra\n        roll odd",
    )
    game = play_scripted(text, [(1, 2), (3, 3), (2, 1)])
    told = [describe_event(game, e) for e in game.log if e[0] == "throw"]
    assert told == [
        "Player 1 throws Two four-sided dice: 1 + 2 = 3.",
        "Player 1 throws Two four-sided dice: 3 + 3 = 6 (a double).",
        "Player 1 throws Two odd dice: Bus + 1 = 1.",
    ]
