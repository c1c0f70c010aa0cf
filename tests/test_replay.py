"""Game logs are bound to their game and verified by replaying them (issue 13, item 15).

`play --log` writes a header (rules hash, options, seed, names, turn limit),
the events, and a closing line (the decisions and a running hash); `replay`
plays the game again from it and reports the first place where the replay
and the log part, naming the decision.
"""

from __future__ import annotations

import io
import json

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.presentation.replay import read_log, replay
from landlord_dsl.program.requests import DONE


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """A logged 1906 game with a random player (so it has decisions of both answers) and its lines."""
    path = tmp_path_factory.mktemp("logs") / "game.jsonl"
    code, _ = run("play", "landlords-game-1906", "--seed", "3", "--seats", "random,bot,bot", "--log", str(path))
    assert code == 0
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _write(tmp_path, lines: list[str]) -> str:
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _decision_lines(lines: list[str]) -> list[int]:
    """Return the 0-based file line of every recorded decision (decide and bid events), in order."""
    return [i for i, line in enumerate(lines) if line.startswith(('["decide"', '["bid"'))]


def test_a_logged_game_replays_and_verifies(logged, tmp_path):
    header, closing = json.loads(logged[0]), json.loads(logged[-1])
    assert header["seed"] == 3 and header["rules_hash"] and header["options"]["faster_game"] is False
    assert closing["events"] == len(logged) - 2 and len(closing["decisions"]) == len(_decision_lines(logged))
    code, out = run("replay", _write(tmp_path, logged))
    assert code == 0 and f"{len(logged) - 2} events" in out


def test_an_edited_decision_is_reported_at_that_decision(logged, tmp_path, capsys):
    closing = json.loads(logged[-1])
    at = next(k for k, answer in enumerate(closing["decisions"]) if answer in (0, 1) and k >= 4)
    closing["decisions"][at] = 1 - closing["decisions"][at]
    code, _ = run("replay", _write(tmp_path, logged[:-1] + [json.dumps(closing)]))
    err = capsys.readouterr().err
    line = _decision_lines(logged)[at] + 1
    assert code == 1
    assert "changed after it was written" in err
    assert f"edited.jsonl:{line}: the replay parts from the log at decision {at + 1}:" in err


def test_an_edited_decision_event_is_reported_at_that_decision(logged, tmp_path, capsys):
    lines = list(logged)
    index = _decision_lines(lines)[2]
    event = json.loads(lines[index])
    assert event[0] == "decide"
    event[4] = "something else"
    lines[index] = json.dumps(event, separators=(",", ":"))
    assert run("replay", _write(tmp_path, lines))[0] == 1
    err = capsys.readouterr().err
    assert f":{index + 1}: the replay parts from the log at decision 3:" in err and "something else" in err


def test_an_edited_seed_is_reported_before_any_decision(logged, tmp_path, capsys):
    header = json.loads(logged[0])
    header["seed"] = 4
    assert run("replay", _write(tmp_path, [json.dumps(header, sort_keys=True)] + logged[1:]))[0] == 1
    err = capsys.readouterr().err
    assert "changed after it was written" in err and ":2: the replay parts from the log before any decision" in err


def test_an_edited_payment_is_reported_after_the_decision_before_it(logged, tmp_path, capsys):
    lines = list(logged)
    index = next(i for i in range(_decision_lines(lines)[3], len(lines)) if lines[i].startswith('["pay"'))
    event = json.loads(lines[index])
    event[2] += 1
    lines[index] = json.dumps(event, separators=(",", ":"))
    assert run("replay", _write(tmp_path, lines))[0] == 1
    err = capsys.readouterr().err
    decisions_before = sum(1 for i in _decision_lines(lines) if i < index)
    assert f":{index + 1}: the replay parts from the log after decision {decisions_before} " in err


def test_rules_changed_since_the_game_was_logged(logged, tmp_path, capsys):
    code, _ = run("replay", _write(tmp_path, logged), "--edition", "landlords-game-1906-prolonged-game")
    assert code == 1 and "have changed since this game was logged" in capsys.readouterr().err


@pytest.mark.parametrize(
    "edit, says",
    [
        (lambda lines: lines[:-3], "the last line is not its closing line"),
        (lambda lines: lines[:5] + lines[6:], "records"),
        (lambda lines: ["{}"] + lines[1:], "the first line is not its header"),
        (lambda lines: ["not json"] + lines[1:], "not a landlord-dsl game log"),
        (lambda lines: lines[:1], "needs a header line and a closing line"),
    ],
    ids=["cut short", "a line removed", "no header", "garbage", "only a header"],
)
def test_a_malformed_log_is_a_clear_error(logged, tmp_path, capsys, edit, says):
    assert run("replay", _write(tmp_path, edit(list(logged))))[0] == 1
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and "internal error" not in err


def test_a_recorded_answer_outside_the_options_is_reported(logged):
    closing = json.loads(logged[-1])
    closing["decisions"][0] = 7
    log = read_log("\n".join(logged[:-1] + [json.dumps(closing)]), "x.jsonl")
    report = replay(log, ld.load)
    assert not report.ok
    assert any("decision 1 (" in p and "recorded as 7, not one of its" in p for p in report.problems)


def test_too_few_recorded_decisions_are_reported(logged):
    closing = json.loads(logged[-1])
    closing["decisions"] = closing["decisions"][:10]
    report = replay(read_log("\n".join(logged[:-1] + [json.dumps(closing)]), "x.jsonl"), ld.load)
    assert any("asks decision 11" in p and "records only 10" in p for p in report.problems)


def test_an_offers_done_is_recorded_as_DONE_and_replays(logged):
    """Closing an offer is recorded as -1 (requests.DONE), whatever the menu's length; other answers as indices."""
    closing = json.loads(logged[-1])
    lines = [logged[i] for i in _decision_lines(logged)]
    decided = [json.loads(line) for line in lines]
    for event, answer in zip(decided, closing["decisions"]):
        if event[0] == "decide":
            assert (answer == DONE) == (event[4] == "done"), (event, answer)
    assert DONE in closing["decisions"]
    assert replay(read_log("\n".join(logged), "x.jsonl"), ld.load).ok


def test_a_recorded_DONE_where_no_done_is_offered_is_reported(logged):
    """-1 stands for an offer's done only: at a `choose`, or replaced by another negative number, it is reported."""
    closing = json.loads(logged[-1])
    decided = [json.loads(logged[i]) for i in _decision_lines(logged)]
    at = closing["decisions"].index(DONE)
    closing["decisions"][at] = -2
    report = replay(read_log("\n".join(logged[:-1] + [json.dumps(closing)]), "x.jsonl"), ld.load)
    said = [p for p in report.problems if f"decision {at + 1} (" in p and "recorded as -2" in p]
    assert said and "(or -1, for done)" in said[0]
    closing = json.loads(logged[-1])
    answers = closing["decisions"]
    choice = next(k for k, e in enumerate(decided) if e[0] == "decide" and e[4] != "done" and answers[k] == 0)
    closing["decisions"][choice] = DONE
    report = replay(read_log("\n".join(logged[:-1] + [json.dumps(closing)]), "x.jsonl"), ld.load)
    assert not report.ok


def test_a_log_that_records_done_by_its_index_still_replays():
    """Logs written before DONE recorded an offer's done as its index, the menu's length less one: still valid."""
    from landlord_dsl.agents import HeuristicAgent
    from landlord_dsl.engine.game import Game
    from landlord_dsl.presentation.replay import log_text

    class Counting(HeuristicAgent):  # a subclass is asked through Game.choose, with the whole menu
        def choose(self, game, request):
            lengths.append(len(request.legal))
            return super().choose(game, request)

    lengths: list[int] = []
    name, seed = "monopoly-1933-atlantic-city", 5
    game = Game(ld.compile_rules(ld.load_edition(name)), [Counting() for _ in range(3)], seed=seed)
    game.play()
    asked = iter(lengths)
    old = []
    for event, answer in zip((e for e in game.log if e[0] in ("decide", "bid")), game.decisions):
        length = next(asked) if event[0] == "decide" else None
        old.append(length - 1 if answer == DONE else answer)
    assert DONE in game.decisions and DONE not in old
    game.decisions[:] = old
    report = replay(read_log(log_text(game, name, seed), "old.jsonl"), ld.load)
    assert report.ok, report.problems
    assert report.decisions == len(old)
