"""`--set CONST=VALUE`: a constant set from outside, as a variant restating it would (checking.constants)."""

from __future__ import annotations

import io
import json

import pytest

from landlord_dsl.checking.constants import SET_FILE, with_constants
from landlord_dsl.checking.loader import load, load_text
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import RuleCheckError, RuleRuntimeError, UsageError
from landlord_dsl.studies.parallel import replay_command, simulate_many
from landlord_dsl.studies.rulesource import rebuild, rule_source


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_landlords_game_1906_wages_set_plays_as_a_variant_restating_them():
    """1906 Rule 3's wages set to 200 play game for game as the written variant that restates `const wages`."""
    rules = with_constants(load("landlords-game-1906"), {"wages": "200"})
    variant = load_text(
        'edition "landlords-game-1906" {\n    extends "landlords-game-1906"\n}\nconst wages = 200\n', "v.lg"
    )
    assert rules.name == "landlords-game-1906" and rules.constants == (("wages", 200),)
    assert rules.model.consts["wages"].value.value == 200
    ours = simulate_many(rules, 6, 4, jobs=1)
    theirs = simulate_many(variant, 6, 4, jobs=1)
    plain = simulate_many(load("landlords-game-1906"), 6, 4, jobs=1)
    assert ours.result() == theirs.result() != plain.result()


def test_set_constants_ship_to_workers_and_into_the_replay_command():
    rules = with_constants(load("landlords-game-1906"), {"wages": 150, "jail_fine": "20"})
    source = rule_source(rules)
    assert source.constants == (("wages", 150), ("jail_fine", 20))
    assert rebuild(source).rules_hash == rules.rules_hash != load("landlords-game-1906").rules_hash
    assert "--set wages=150 --set jail_fine=20" in replay_command(source, 4, 7, None)
    assert simulate_many(rules, 4, 4, jobs=2).result() == simulate_many(rules, 4, 4, jobs=1).result()


def test_setting_again_overrides_and_keeps_the_earlier_values():
    once = with_constants(load("landlords-game-1906"), {"wages": 150})
    twice = with_constants(once, {"jail_fine": 20, "wages": 175})
    assert dict(twice.constants) == {"wages": 175, "jail_fine": 20}
    assert len(twice.modules) == len(once.modules)


def test_set_on_combined_variants_of_1933():
    rules = with_constants(load("monopoly-1933-atlantic-city+monopoly-1933-no-auctions"), {"salary": "300"})
    assert rules.name == "monopoly-1933-atlantic-city+monopoly-1933-no-auctions"
    assert rebuild(rule_source(rules)).rules_hash == rules.rules_hash


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        ({"wagez": "1"}, "landlords-game-1906 has no constant 'wagez'"),
        ({"wages": "lots"}, "constant 'wages' is a whole number"),
        ({"wages": "true"}, "constant 'wages' is a whole number"),
    ],
)
def test_bad_set_is_a_usage_error_naming_the_constant(chosen, message):
    with pytest.raises(UsageError) as err:
        with_constants(load("landlords-game-1906"), chosen)
    assert message in err.value.render()
    assert "--set" not in err.value.render()  # a library call names no flag of the command line
    if "wagez" in chosen:
        assert "did you mean 'wages'" in err.value.render()


def test_the_cli_says_a_bad_constant_came_from_set(capsys):
    """The library's words name no flag; the command line adds that the constant was given with `--set`."""
    code, _ = run("simulate", "landlords-game-1906", "--set", "wagez=1", "--set", "wages=lots", "--games", "1")
    err = capsys.readouterr().err
    assert code == 2
    assert "error: --set: landlords-game-1906 has no constant 'wagez'" in err and "did you mean 'wages'" in err
    assert "error: --set: constant 'wages' is a whole number, not 'lots'" in err


SMALL = """edition "small" {
    players 2 to 4
}
account bank "Bank" unlimited
kind lane "Lane" { }
const generous = false
const motto = "thrift"
end when turn_number >= 4
board {
    space start "Start" : lane
    space road "Road" : lane
}
rule paid "Paid" {
    on turn {
        if generous {
            pay 1 from bank to player
        }
    }
}
"""


@pytest.mark.parametrize(
    ("given", "expected"),
    [("true", True), ("Yes", True), (" 1 ", True), (True, True), ("no", False), ("FALSE", False), ("0", False)],
)
def test_a_true_or_false_constant_takes_what_an_option_of_that_type_takes(given, expected):
    rules = with_constants(load_text(SMALL, "small.lg"), {"generous": given})
    assert rules.constants == (("generous", expected),)


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        ({"generous": "maybe"}, "constant 'generous' is true or false, not 'maybe'"),
        ({"generous": 2}, "constant 'generous' is true or false, not 2"),
        ({"motto": 7}, "constant 'motto' is a text, not 7"),
        ({"mottto": "x"}, "did you mean 'motto'"),
    ],
)
def test_bad_values_of_other_types(chosen, message):
    with pytest.raises(UsageError) as err:
        with_constants(load_text(SMALL, "small.lg"), chosen)
    assert message in err.value.render() and "--set" not in err.value.render()


def test_a_text_constant_quoted_or_not():
    assert with_constants(load_text(SMALL, "small.lg"), {"motto": '"thrift & toil"'}).constants == (
        ("motto", "thrift & toil"),
    )
    assert with_constants(load_text(SMALL, "small.lg"), {"motto": "toil"}).constants == (("motto", "toil"),)


def test_cli_set_on_simulate_and_a_missing_equals_sign(capsys):
    code, out = run("simulate", "landlords-game-1906", "--set", "wages=200", "--games", "4", "--jobs", "1", "--json")
    assert code == 0 and json.loads(out)["games"] == 4
    code, _ = run("simulate", "landlords-game-1906", "--set", "wages", "--games", "2")
    assert code == 2 and "--set wants NAME=VALUE" in capsys.readouterr().err


def test_play_log_with_set_constants_replays(tmp_path):
    log = tmp_path / "game.jsonl"
    code, _ = run("play", "landlords-game-1906", "--set", "wages=150", "--log", str(log))
    assert code == 0
    assert json.loads(log.read_text().splitlines()[0])["constants"] == {"wages": 150}
    code, out = run("replay", str(log))
    assert code == 0 and "replayed as recorded" in out


@pytest.mark.parametrize("command", ["play", "simulate", "sweep", "tournament", "diff", "sensitivity", "analyze"])
def test_every_command_that_plays_takes_set(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"], out=io.StringIO())
    assert done.value.code == 0
    assert "--set CONST=VALUE" in capsys.readouterr().out


PAID = """edition "paid" {
    players 2 to 4
}
account bank "Bank" unlimited
kind lane "Lane" { }
const fee = 5
end when turn_number >= 4
board {
    space start "Start" : lane
    space road "Road" : lane
}
rule paid "Paid" {
    on turn {
        pay fee from player to bank
    }
}
"""


def test_a_constant_paid_as_it_stands_cannot_be_set_negative():
    """`--set fee=-3` for a constant paid as it is was taken, and the first game failed at its first payment; the
    value is now refused up front, located at the value set. The same constant written negative in a rule file
    is warned of there (a file that checked must still check)."""
    with pytest.raises(RuleCheckError) as err:
        with_constants(load_text(PAID, "paid.lg"), {"fee": -3})
    (problem,) = err.value.diagnostics
    assert problem.message == "constant 'fee' is negative (-3), but it is used as an amount paid"
    assert problem.span.file == SET_FILE and problem.hint == "it is used at paid.lg:14"
    written = load_text(PAID.replace("fee = 5", "fee = -5"), "paid.lg")
    warned = [w.message for w in written.warnings]
    assert warned == ["constant 'fee' is negative (-5), but it is used as an amount paid"]
    assert with_constants(load_text(PAID, "paid.lg"), {"fee": 0}).constants == (("fee", 0),)


def test_the_cli_says_a_negative_constant_came_from_set(tmp_path, capsys):
    (tmp_path / "paid.lg").write_text(PAID)
    code, _ = run("simulate", str(tmp_path / "paid.lg"), "--set", "fee=-3", "--games", "1")
    assert code == 1
    assert "error: --set: constant 'fee' is negative (-3), but it is used as an amount paid" in capsys.readouterr().err


def test_a_run_time_failure_from_a_constant_set_points_at_the_value_set():
    """1906's wages are paid through a variable (`var wages_now = wages`, which the Single Tax changes), so a
    negative value cannot be refused by the checker; `--set wages=-50` failed at turn 6 naming only the payment.
    The failure now notes the constant the variable starts from, where it was set."""
    rules = with_constants(load("landlords-game-1906"), {"wages": -50})
    with pytest.raises(RuleRuntimeError) as err:
        simulate_many(rules, 1, 4, jobs=1).result()
    failure, *notes = err.value.diagnostics
    assert "a payment of a negative amount (-50)" in failure.message
    (note,) = [n for n in notes if n.span is not None and n.span.file == SET_FILE]
    assert note.severity == "note" and note.line_text == "const wages = -50"
    assert note.message == "constant 'wages', which variable 'wages_now' starts from, is declared here"
