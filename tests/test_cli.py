"""The `landlord-dsl` command line: exit codes, output streams, every command."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.agents import MAX_INVALID_ANSWERS
from landlord_dsl.cli.main import main
from scenario_helpers import engine_function

ROOT = Path(__file__).resolve().parents[1]
MISTAKES = """edition "bad" { players 2 to 4 }
account bank unlimited
kind plain { }
board { space a "A" : plain space b "B" : plane }
rule r {
    on turn { pay 5 from player to bnk }
    on land a { set player.cash = 3 }
}
"""


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_check_ok_edition_by_name():
    code, out = run("check", "landlords-game-1906")
    assert code == 0 and "ok" in out


def test_check_reports_every_problem_and_exits_1(tmp_path, capsys):
    path = tmp_path / "bad.lg"
    path.write_text(MISTAKES)
    code, _ = run("check", str(path))
    err = capsys.readouterr().err
    assert code == 1
    assert f"{path}:4:43: error: unknown kind 'plane'" in err
    assert "did you mean 'plain'?" in err
    assert f"{path}:6:36: error: unknown name 'bnk'" in err
    assert "did you mean 'bank'?" in err
    assert "cannot set 'player.cash'" in err and "money moves only with `pay`" in err
    assert "3 problems" in err
    assert "Traceback" not in err


def test_check_syntax_error_has_caret(tmp_path, capsys):
    path = tmp_path / "syntax.lg"
    path.write_text('edition "x" { }\nrule r { on turn { pay 1 from player } }\n')
    assert run("check", str(path))[0] == 1
    err = capsys.readouterr().err
    assert ":2:" in err and "^" in err and "expected 'to'" in err


def test_check_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(MISTAKES))
    assert run("check", "-")[0] == 1
    assert "<stdin>:4:43" in capsys.readouterr().err


def test_check_missing_file(capsys):
    assert run("check", "no/such/file.lg")[0] == 1
    assert "no such file" in capsys.readouterr().err


def test_unknown_edition_is_a_usage_error(capsys):
    assert run("simulate", "landlords-game-1960")[0] == 2
    assert "did you mean 'landlords-game-1906'?" in capsys.readouterr().err


def test_fmt_check_and_rewrite(tmp_path):
    path = tmp_path / "x.lg"
    path.write_text('edition "x" {players 2 to 3}\nkind k {}\nboard { space a "A":k }\n')
    code, out = run("fmt", "--check", str(path))
    assert code == 1 and "would reformat" in out
    assert run("fmt", str(path))[0] == 0
    assert run("fmt", "--check", str(path))[0] == 0
    assert path.read_text().startswith('edition "x" {\n    players 2 to 3\n}\n')


def test_fmt_diff_prints_a_unified_diff_and_rewrites_nothing(tmp_path, monkeypatch):
    """Issue 18 item 14: `fmt --check` said only 'would reformat'; `--diff` shows what would change."""
    monkeypatch.chdir(tmp_path)
    source = 'edition "x" {\n    players 2 to 3\n}\nkind k {}\nboard {\n    space a "A" : k\n}\n'
    Path("x.lg").write_text(source)
    expected = (
        '--- a/x.lg\n+++ b/x.lg\n@@ -1,7 +1,7 @@\n edition "x" {\n     players 2 to 3\n }\n'
        '-kind k {}\n+kind k { }\n board {\n     space a "A" : k\n }\n'
    )
    assert run("fmt", "--check", "--diff", "x.lg") == (1, expected)
    assert run("fmt", "--diff", "x.lg") == (0, expected)
    assert Path("x.lg").read_text() == source
    assert run("fmt", "x.lg")[0] == 0
    assert run("fmt", "--check", "--diff", "x.lg") == (0, "")
    # a last line without a newline is marked, so that `patch` restores the file exactly
    Path("y.lg").write_text('edition "y" { }')
    assert run("fmt", "--diff", "y.lg")[1].endswith(
        '-edition "y" { }\n\\ No newline at end of file\n+edition "y" {\n+}\n'
    )


def test_fmt_stdin_to_stdout(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO('edition "x" {}  kind k {} board{space a "A":k}'))
    code, out = run("fmt", "-")
    assert code == 0 and out == 'edition "x" {\n}\nkind k { }\nboard {\n    space a "A" : k\n}\n'


def test_fmt_width_breaks_lines_to_fit(monkeypatch, capsys):
    """Issue 36: `fmt --width N` lays a file out for N columns (the docs show .lg examples at 80)."""
    source = 'edition "x" { players 2 to 3 }\nconst fine = 50 source "magie-1906, Rule 6 (the jail fine)" secondary\n'
    monkeypatch.setattr(sys, "stdin", io.StringIO(source))
    code, out = run("fmt", "--width", "40", "-")
    assert code == 0
    assert out.endswith('const fine = 50\n    source "magie-1906, Rule 6 (the jail fine)" secondary\n')
    monkeypatch.setattr(sys, "stdin", io.StringIO(source))
    assert run("fmt", "-")[1].endswith('const fine = 50 source "magie-1906, Rule 6 (the jail fine)" secondary\n')
    monkeypatch.setattr(sys, "stdin", io.StringIO(source))
    assert run("fmt", "--width", "12", "-")[0] == 2
    assert "too narrow for .lg code: 20 at least" in capsys.readouterr().err


def test_simulate_json():
    code, out = run("simulate", "landlords-game-1906", "--games", "20", "--seed", "3", "--json", "--no-progress")
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 20 and summary["players"] == 4
    assert summary["money_conserved_in_all_games"] is True
    assert len(summary["wins_by_seat"]) == 4 and abs(sum(summary["wins_by_seat"]) - 20) < 1e-6
    assert set(summary["turns_per_game"]) == {"mean", "median", "min", "max"}


def test_simulate_table_and_options():
    code, out = run(
        "simulate",
        "landlords-game-1906",
        "--games",
        "5",
        "--players",
        "3",
        "--option",
        "faster_game=true",
        "--no-progress",
    )
    assert code == 0 and "5 games, 3 players" in out and "wins by seat" in out


def test_simulate_bad_option_is_usage_error(capsys):
    assert run("simulate", "landlords-game-1906", "--option", "nonsense")[0] == 2
    assert run("simulate", "landlords-game-1906", "--option", "faster=1")[0] == 2
    assert "did you mean 'faster_game'" in capsys.readouterr().err


def test_play_narrates_and_logs(tmp_path):
    log = tmp_path / "game.jsonl"
    code, out = run("play", "landlords-game-1906", "--seed", "7", "--log", str(log))
    assert code == 0
    # 1906: the opening throws decide who plays first (seed 7: Player 2 throws highest)
    assert "Player 2 has the next turn [first_player]." in out
    assert "-- Turn 1: Player 2 --" in out and "Final scores:" in out and "winner" in out
    lines = log.read_text().splitlines()
    # a header line and a closing line bind the events to their game (see test_replay.py)
    assert json.loads(lines[1])[0] == "roll" and json.loads(lines[-2])[0] == "end"
    code2, out2 = run("play", "landlords-game-1906", "--seed", "7")
    assert code2 == 0 and out2 == out


def test_play_reports_a_python_error_in_the_rules_as_a_rule_failure(monkeypatch, capsys):
    """`play` runs the game through Game.play, so a failure inside the rules is located, exit 1, not a crash."""
    from landlord_dsl.engine.game import Game

    failing_turn = engine_function(  # an engine bug: a caller's own error would reach the caller unchanged
        "def failing_turn(game):\n"
        "    played(game)\n"
        "    if game.turn == 3:\n"
        "        raise ZeroDivisionError('division by zero')\n",
        "failing_turn",
        played=Game.play_turn,
    )
    monkeypatch.setattr(Game, "play_turn", failing_turn)
    code, out = run("play", "landlords-game-1906", "--seed", "7")
    err = capsys.readouterr().err
    assert code == 1, err
    assert "the rules failed at run time: ZeroDivisionError" in err and "internal error" not in err
    assert "-- Turn 2:" in out and "Final scores" not in out


def test_play_with_a_human_at_the_terminal(monkeypatch, capsys):
    """A human seat is asked at the terminal; out-of-range answers are asked again."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("9\n1\n" * 400))
    code, out = run("play", "landlords-game-1906", "--seats", "human,bot", "--seed", "2", "--turn-limit", "30")
    assert code == 0 and "Final scores" in out
    prompts = capsys.readouterr().out
    assert "Player 1 (you): cash" in prompts and "please answer with a number from 1 to 2\n" in prompts


def test_play_human_input_ends(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, _ = run("play", "landlords-game-1906", "--seats", "human,bot", "--seed", "2")
    assert code == 2 and "input ended" in capsys.readouterr().err


class _EndlessWrongAnswers(io.StringIO):
    """Input that answers "9" to every question, for ever (a script stuck in a loop); it counts the reads."""

    reads = 0

    def readline(self, size: int = -1) -> str:
        self.reads += 1
        if self.reads > 10_000:
            raise AssertionError("the human seat asked 10,000 times and would ask for ever")
        return "9\n"


def test_a_human_seat_fed_endless_invalid_input_gives_up(monkeypatch, capsys):
    """Issue 35, item 14: a pipe that answers wrongly for ever was asked for ever; input that is not a
    terminal now gets MAX_INVALID_ANSWERS tries, a person at a terminal as many as he needs."""
    stdin = _EndlessWrongAnswers()
    monkeypatch.setattr(sys, "stdin", stdin)
    code, _ = run("play", "landlords-game-1906", "--seats", "human,bot", "--seed", "2")
    err = capsys.readouterr().err
    assert code == 2, err
    assert "10 answers in a row were not valid (the last: '9'), and input is not a terminal" in err
    assert "hint: the last question takes a number from" in err and stdin.reads == MAX_INVALID_ANSWERS


def test_a_human_at_a_terminal_is_asked_until_he_answers(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal("9\n" * 50 + "1\n" * 400))
    assert run("play", "landlords-game-1906", "--seats", "human,bot", "--seed", "2", "--turn-limit", "5")[0] == 0


def test_show_lists_board_and_provenance():
    code, out = run("show", "landlords-game-1906")
    assert code == 0
    assert "Wall Street" in out and "magie-1906, Rule 7" in out and "faster_game" in out


def test_list_names_shipped_editions():
    code, out = run("list")
    assert code == 0 and "landlords-game-1906" in out
    # the titles come from the headers alone, and are the titles the loaded rules have
    for line in out.splitlines():
        name, title = line.split(maxsplit=1)
        assert title == ld.load_edition(name).modules[-1].header.title


def test_no_command_prints_help():
    code, out = run()
    assert code == 2 and "usage" in out.lower()


def test_console_script_from_another_directory(tmp_path):
    """The installed `landlord-dsl` finds its grammar and editions without the source tree."""
    exe = shutil.which("landlord-dsl")
    if exe is None:
        pytest.fail("the landlord-dsl console script is not installed (pip install .)")
    proc = subprocess.run(
        [exe, "check", "landlords-game-1906"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([exe, "--help"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0 and "simulate" in proc.stdout


@pytest.mark.parametrize(
    ("argv", "status", "says"),
    [
        # a rule file with problems is status 1 whatever command read it (play, show and simulate used to give 2)
        (("play", "{bad}", "--seed", "1"), 1, "unknown kind 'plane'"),
        (("show", "{bad}"), 1, "unknown kind 'plane'"),
        (("simulate", "{syntax}", "--games", "1"), 1, "syntax.lg:2"),
        # an unknown edition or file is a usage error, 2, whatever command was given it (analyze and fmt used to give 1)
        (("analyze", "landlords-game-1960"), 2, "unknown edition or variant 'landlords-game-1960'"),
        (("fmt", "{missing}"), 2, "no such file: "),
        (("play", "landlords-game-1906", "--players", "9"), 2, "is for 2 to"),
    ],
)
def test_the_exit_status_comes_from_the_kind_of_error(tmp_path, capsys, argv, status, says):
    (tmp_path / "bad.lg").write_text(MISTAKES)
    (tmp_path / "syntax.lg").write_text('edition "x" { }\nrule r { on turn { pay 1 from player } }\n')
    files = {"bad": tmp_path / "bad.lg", "syntax": tmp_path / "syntax.lg", "missing": tmp_path / "missing.lg"}
    code, _ = run(*(arg.format(**files) for arg in argv))
    err = capsys.readouterr().err
    assert code == status, err
    assert says in err and "Traceback" not in err


def test_each_stage_raises_its_own_kind_of_error(tmp_path):
    with pytest.raises(ld.RuleSyntaxError):
        ld.load_text('edition "x" { }\nrule r { on turn { pay 1 from player } }\n')
    with pytest.raises(ld.RuleCheckError):
        ld.load_text(MISTAKES)
    with pytest.raises(ld.UsageError):
        ld.load_edition("landlords-game-1960")
    with pytest.raises(ld.UsageError):
        ld.compile_rules(ld.load_edition("landlords-game-1906"), {"faster": "1"})
    with pytest.raises(ld.SaveError):
        ld.state_from_json("{}")
    from landlord_dsl.presentation.replay import read_log

    with pytest.raises(ld.GameLogError):
        read_log("not a log\n")
    assert all(issubclass(cls, ld.LandlordError) for cls in (ld.RuleSourceError, ld.OutputError, ld.RuleRuntimeError))
    assert ld.UsageError.exit_status == 2 and ld.RuleSourceError.exit_status == ld.LandlordError.exit_status == 1


def test_a_rule_failing_in_simulate_names_the_game_and_its_seed(tmp_path, monkeypatch, capsys):
    """A rule that fails during `simulate` names the game of the run and its seed, and the `play`
    command it gives fails the same way (issue 27: the turn alone could not be reproduced)."""
    text = (ROOT / "examples" / "four-sided-ring.lg").read_text(encoding="utf-8")
    broken = text.replace(
        "pay here.amount from player to bank", "pay here.amount / (here.amount - 30) from player to bank"
    )
    (tmp_path / "broken.lg").write_text(broken, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _ = run("simulate", "broken.lg", "--games", "10", "--jobs", "1", "--no-progress", "--seed", "5")
    err = capsys.readouterr().err
    assert code == 1 and "a payment of a negative amount" in err
    note = err.strip().splitlines()[-1]
    assert note.startswith("note: in game ")
    game = int(note.split("in game ")[1].split()[0])
    command = note.split("to play it again: ")[1]
    assert command == f"landlord-dsl play broken.lg --seed {5 + game - 1} --players 4"
    code, _ = run(*command.split()[1:])
    assert code == 1 and "a payment of a negative amount" in capsys.readouterr().err


# ---------------------------------------------------------------- what a new user hit (issue 27, section 5)


def test_sweep_plot_without_matplotlib_fails_before_playing(tmp_path, monkeypatch, capsys):
    """As `simulate --plot`: the missing extra is named before a single game is played."""
    import landlord_dsl.studies.sweep

    def played(*args, **kwargs):
        raise AssertionError("the sweep was played")

    monkeypatch.setattr(landlord_dsl.studies.sweep, "run_sweep", played)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _ = run("sweep", "landlords-game-1906", "--games", "2", "--plot", str(tmp_path / "s.png"))
    assert code == 1 and "pip install 'landlord-dsl[plot]'" in capsys.readouterr().err
    code, _ = run("sweep", "landlords-game-1906", "--games", "2", "--plot", str(tmp_path / "s.txt"))
    assert code == 2 and "must end in .png" in capsys.readouterr().err


def test_sweep_prints_option_values_as_the_rules_write_them():
    code, out = run("sweep", "landlords-game-1906", "--option", "faster_game=false,true", "--games", "1", "--jobs", "1")
    assert code == 0
    rows = [line.split()[0] for line in out.splitlines()[-2:]]
    assert rows == ["false", "true"] and "True" not in out and "False" not in out


def test_board_refuses_a_file_name_that_is_not_svg(tmp_path, capsys):
    code, _ = run("board", "landlords-game-1904", "--svg", str(tmp_path / "b.png"))
    assert code == 2 and "must end in .svg" in capsys.readouterr().err
    assert not (tmp_path / "b.png").exists()
    code, out = run("board", "landlords-game-1904", "--svg", str(tmp_path / "b.SVG"))
    assert code == 0 and "wrote" in out


def test_color_always_without_rich_says_there_is_no_colour(monkeypatch, capsys):
    from landlord_dsl.core import terminal

    monkeypatch.setattr(terminal, "rich_installed", lambda: False)
    code, out = run("diff", "landlords-game-1904", "landlords-game-1904-without-lot-tickets", "--color", "always")
    assert code == 1 and "\x1b[" not in out
    assert "--color always needs rich" in capsys.readouterr().err


def test_play_html_says_what_it_wrote(tmp_path):
    page = tmp_path / "game.html"
    code, out = run("play", "landlords-game-1904", "--html", str(page))
    assert code == 0 and out.endswith(f"wrote {page}\n") and page.is_file()


def test_one_default_seed_everywhere():
    """Issue 27: `play` and `simulate` started at seed 1, `sweep`, `diff --outcomes`, `ld.new_game` and
    `simulate()` at 0, so 1939 showed 70.56 turns in `simulate` and 70.515 in `diff`. Every default is 0
    (the seeds of the published figures), and `simulate` with no seed is `simulate --seed 0`."""
    import inspect

    from landlord_dsl.cli.main import build_parser
    from landlord_dsl.studies import analysis, outcomes, parallel, simulate, sweep

    parser = build_parser()
    commands = {
        "play": ["play", "landlords-game-1904"],
        "simulate": ["simulate", "landlords-game-1904"],
        "sweep": ["sweep", "landlords-game-1904"],
        "diff": ["diff", "landlords-game-1904", "landlords-game-1906"],
        "analyze": ["analyze", "landlords-game-1904"],
        "coverage": ["coverage", "landlords-game-1904"],
    }
    assert {name: parser.parse_args(argv).seed for name, argv in commands.items()} == dict.fromkeys(commands, 0)
    for function in (ld.new_game, simulate.simulate, parallel.simulate_many, outcomes.outcomes, sweep.run_sweep):
        assert inspect.signature(function).parameters["seed"].default == 0, function
    assert inspect.signature(analysis.analyze).parameters["seed"].default == 0
    assert inspect.signature(ld.coverage).parameters["seed"].default == 0
    _, plain = run("simulate", "landlords-game-1939", "--games", "3", "--jobs", "1", "--json", "--no-progress")
    _, zero = run(
        "simulate", "landlords-game-1939", "--games", "3", "--jobs", "1", "--json", "--no-progress", "--seed", "0"
    )
    assert plain == zero


def test_the_cli_page_lists_every_command_in_its_synopsis_and_a_section_each():
    """Issue 36: the synopsis of docs/cli.md omitted commands; each command of the parser is in it, with
    every long flag the command takes, and has a section of its own."""
    from landlord_dsl.cli.main import _COMMANDS, build_parser

    page = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    synopsis = page[page.index("```text\nlandlord-dsl list") : page.index("landlord-dsl --version\n```")]
    parsers = next(a for a in build_parser()._actions if a.dest == "command").choices
    for command in _COMMANDS:
        entry = synopsis[synopsis.index(f"landlord-dsl {command.name}") :].split("\nlandlord-dsl ")[0]
        missing = [
            a.option_strings
            for a in parsers[command.name]._actions
            if a.option_strings
            and a.dest != "help"
            and not any(f"{o} " in entry or f"{o}]" in entry for o in a.option_strings)
        ]
        assert not missing, (command.name, missing)
        assert f"\n## {command.name}\n" in page, command.name


def test_unknown_flag_is_reported_by_its_command_with_the_flag_it_likely_meant(capsys):
    """A misspelt flag showed the top parser's usage (`landlord-dsl [-h] [--version] COMMAND ...`) and no hint."""
    with pytest.raises(SystemExit) as exit_:
        run("simulate", "landlords-game-1906", "--gmes", "5")
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert "usage: landlord-dsl simulate" in err
    assert "landlord-dsl simulate: error: unrecognized arguments: --gmes 5; did you mean --games?" in err
    with pytest.raises(SystemExit):
        run("show", "landlords-game-1906", "--frobnicate")
    assert "unrecognized arguments: --frobnicate; `landlord-dsl show --help` lists the options" in (
        capsys.readouterr().err
    )


def test_misspelt_command_is_told_the_command_it_likely_names(capsys):
    with pytest.raises(SystemExit) as exit_:
        run("simulat", "landlords-game-1906")
    assert exit_.value.code == 2
    assert "unknown command 'simulat': did you mean 'simulate'?" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ("simulate", "landlords-game-1906", "--games", "2"),
        ("sweep", "landlords-game-1906", "--games", "2"),
        ("analyze", "landlords-game-1904-without-lot-tickets"),
    ],
)
def test_plot_into_a_missing_folder_is_a_usage_error_before_the_work(tmp_path, capsys, argv):
    """`--plot no/such/folder/s.png` ran every game, then failed with status 1; docs/cli.md says a `--plot` file
    that cannot be opened is a usage error (2), and it is now found before a game is played."""
    pytest.importorskip("matplotlib")
    code, out = run(*argv, "--plot", str(tmp_path / "missing" / "s.png"))
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert f"cannot draw to {tmp_path / 'missing' / 's.png'}: there is no folder {tmp_path / 'missing'}" in err


def test_play_refuses_seats_and_a_player_count_that_disagree(capsys):
    """`play --seats bot,bot --players 3` played 2 players without a word; `simulate` refused it already."""
    code, out = run("play", "landlords-game-1906", "--seats", "bot,bot", "--players", "3")
    assert code == 2 and out == ""
    assert "--seats names 2 seats but --players is 3: name one a seat" in capsys.readouterr().err
    assert run("play", "landlords-game-1906", "--seats", "bot,bot", "--players", "2", "--turn-limit", "2")[0] == 0


def test_fmt_of_a_shipped_name_says_it_is_no_file_and_where_the_file_is(capsys):
    """`fmt landlords-game-1906` said only 'cannot read landlords-game-1906: No such file or directory'."""
    from landlord_dsl.core.resources import shipped_files

    assert run("fmt", "--check", "landlords-game-1906")[0] == 2
    err = capsys.readouterr().err
    assert "fmt rewrites .lg files, and 'landlords-game-1906' is the name of a shipped edition, not a file" in err
    assert f"its file is {shipped_files()['landlords-game-1906']}" in err


def test_a_name_that_almost_names_a_rule_file_says_which(tmp_path, monkeypatch, capsys):
    """`play my-rules` (the .lg left off), `play my-rules.txt` and `play .` all said only
    "unknown edition or variant ... run `landlord-dsl list` to see the shipped editions"."""
    monkeypatch.chdir(tmp_path)
    Path("my-rules.lg").write_text('edition "my-rules" { }\n')
    Path("notes.txt").write_text("")
    for name, hint in [
        ("my-rules", "did you mean the file 'my-rules.lg'?"),
        ("notes.txt", "notes.txt is a file, but a rule file's name ends in .lg: rename it to notes.lg"),
        (".", ". is a folder; give a .lg file in it"),
        ("landlords-game-196", "did you mean 'landlords-game-1906'?"),
    ]:
        assert run("play", name)[0] == 2
        err = capsys.readouterr().err
        assert f"error: unknown edition or variant '{name}'" in err and hint in err, err
    # a rule file's `extends` learns nothing of the files around the process
    Path("v.lg").write_text('edition "v" {\n    extends "notes.txt"\n}\n')
    assert run("check", "v.lg")[0] == 1
    assert "rename it" not in capsys.readouterr().err


def test_board_svg_into_a_missing_folder_is_a_usage_error_as_log_and_html_are(tmp_path, capsys):
    """`board --svg no/such/b.svg` drew the board, then failed with status 1; `--log`, `--html` and `--plot` into a
    missing folder are usage errors (2), found before the work, and so is `--svg` now."""
    target = tmp_path / "missing" / "b.svg"
    code, out = run("board", "landlords-game-1904", "--svg", str(target))
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert f"cannot write the board picture {target}: No such file or directory" in err
    code, _ = run("board", "landlords-game-1904", "--svg", str(tmp_path / "folder.svg" / ".."))
    assert code == 2


@pytest.mark.parametrize(
    "argv",
    [
        ("play", "{missing}", "--seed", "1"),
        ("check", "{missing}"),
        ("fmt", "{missing}"),
        ("fmt", "--check", "{missing}"),
        ("show", "{missing}"),
        ("board", "{missing}"),
        ("simulate", "{missing}", "--games", "1"),
        ("analyze", "{missing}"),
        ("diff", "landlords-game-1906", "{missing}"),
        ("replay", "{missing}"),
    ],
)
def test_a_missing_file_is_worded_the_same_by_every_command(tmp_path, capsys, argv):
    """`play nosuch.lg` said 'no such file: nosuch.lg' and `fmt nosuch.lg` 'cannot read nosuch.lg: No such file or
    directory'; every command that reads a file now says it one way (core.errors.unreadable)."""
    missing = tmp_path / "nosuch.lg"
    run(*(arg.format(missing=missing) for arg in argv))
    err = capsys.readouterr().err
    assert f"error: no such file: {missing}\n" in err and "cannot read" not in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (
            ("tournament", "landlords-game-1906", "--seats", "bot,random"),
            "unrecognized argument --seats; use --agents: tournament names its players with --agents",
        ),
        (
            ("tournament", "landlords-game-1906", "--agents", "bot,random", "--seats=bot,random"),
            "use --agents: tournament names its players with --agents",
        ),
        (
            ("skill", "landlords-game-1906", "--agents", "bot"),
            "use --ladder: skill names the players it measures with --ladder",
        ),
        (
            ("simulate", "landlords-game-1906", "--agents", "bot,bot"),
            "use --seats: simulate names its players, one a seat, with --seats",
        ),
        (("play", "landlords-game-1906", "--ladder", "bot"), "use --seats: play names its players, one a seat,"),
    ],
)
def test_a_flag_another_command_spells_differently_is_told_this_commands_own(capsys, argv, says):
    """`tournament --seats` was answered 'did you mean --set?' (or that --agents is required): --seats, --agents
    and --ladder name the same thing in different commands (main.FLAG_SYNONYMS), and each is kept."""
    with pytest.raises(SystemExit) as exit_:
        run(*argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and says in err
    assert "did you mean" not in err and "required" not in err


def test_the_flag_synonyms_are_flags_of_some_command():
    from landlord_dsl.cli.main import FLAG_SYNONYMS, build_parser

    commands = build_parser()._subparsers._group_actions[0].choices.values()  # type: ignore[union-attr]
    spelt = {option for command in commands for action in command._actions for option in action.option_strings}
    for group in FLAG_SYNONYMS:
        assert set(group) <= spelt
