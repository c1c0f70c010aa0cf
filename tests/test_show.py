"""`landlord-dsl show`: everything a player would want to know of a rule set, and `show --python`.

Golden files (tests/golden/show/NAME.txt) keep `show` of each shipped edition;
a change meant to change them regenerates them with

    LANDLORD_UPDATE_GOLDEN=1 python -m pytest tests/test_show.py

(the rules hash is written as <hash> there, so a change of a rule file's text
alone, such as its layout, does not touch them).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import landlord_dsl as ld
from golden_files import assert_matches_golden
from landlord_dsl.cli.main import main
from landlord_dsl.compiling.compiler import compile_ruleset
from landlord_dsl.core.resources import editions_dir
from landlord_dsl.presentation.show import python_listing, show_text

GOLDEN_DIR = Path(__file__).parent / "golden" / "show"
EDITIONS = sorted(p.stem for p in editions_dir().glob("*.lg"))
FILES = sorted(editions_dir().rglob("*.lg"))

SMALL = """edition "small" {
    title "Small"
    players 2 to 3
}
option big "Big numbers" = false
account bank unlimited
const base = 10
const fee = if big then base * 3 else base
kind plain { price: int }
board {
    space a "A" : plain { price = fee * 2 }
    space b "B" : plain { price = 5 }
}
rule r {
    on land {
        let cost = here.price
        for p in players {
            if p == player {
                pay cost from p to bank
            }
        }
    }
}
"""


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.mark.parametrize("name", EDITIONS)
def test_show_of_each_edition_matches_its_golden_file(name):
    code, out = run("show", name)
    assert code == 0
    out = re.sub(r"rules hash [0-9a-f]{16}", "rules hash <hash>", out)
    assert_matches_golden(out, GOLDEN_DIR / f"{name}.txt")


def test_show_has_the_sections_a_player_needs():
    """Issue 18 item 10: constants, tables (the 1933 rents, the 1906 wages), end, score, dice and turn limit."""
    _, out1933 = run("show", "monopoly-1933-atlantic-city")
    assert "\nConstants:\n" in out1933 and "  salary = 200  [anspach-1933" in out1933
    assert "  rent_schedule: Rent on the title card" in out1933
    assert "    boardwalk: [50, 200, 600, 1400, 1700, 2000]\n" in out1933
    assert "\nThe game ends:\n  last_player_standing: when len(players) == 1" in out1933
    assert "\nScore:\n  net_worth(player)" in out1933
    assert "\ndice: 2\n" in out1933 and "\nturn limit: 1000 turns\n" in out1933
    _, out1906 = run("show", "landlords-game-1906")
    assert "  wages = 100  [magie-1906, Rule 3]" in out1906
    assert "  opportunity_wages: Wages of the natural opportunities" in out1906
    # a starting value worked out from a constant shows both
    assert "  wages_now = 100  (= wages)" in out1906


def test_show_prints_no_empty_heading(tmp_path):
    """The old `show` printed `Options:` with nothing under it for a file without options."""
    path = tmp_path / "bare.lg"
    path.write_text('edition "bare" { }\nkind k { }\nboard { space a "A" : k }\n')
    code, out = run("show", str(path))
    assert code == 0
    headings = re.findall(r"^(\S.*):$", out, re.MULTILINE)
    assert headings == ["Board"]
    for heading in headings:
        assert not re.search(rf"^{heading}:\n(\n|$)", out, re.MULTILINE)


def test_show_prints_no_colon_for_an_option_without_a_label(tmp_path):
    """`option wage_bonus = 0` (no label) was shown as `  wage_bonus = 0:   [house-rule: ours] (original)`."""
    path = tmp_path / "bonus.lg"
    path.write_text('edition "bonus" { }\noption wage_bonus = 0\nkind k { }\nboard { space a "A" : k }\n')
    code, out = run("show", str(path), "--option", "wage_bonus=5")
    assert code == 0
    assert "\n  wage_bonus = 5 (default 0)\n" in out


def test_show_works_out_values_under_the_chosen_options(tmp_path):
    path = tmp_path / "small.lg"
    path.write_text(SMALL)
    _, default = run("show", str(path))
    assert "  big = false: Big numbers\n" in default
    assert "  fee = 10  (= if big then base * 3 else base)\n" in default
    assert re.search(r"A +plain +price 20\n", default)
    code, chosen = run("show", str(path), "--option", "big=true")
    assert code == 0
    assert "  big = true (default false): Big numbers\n" in chosen
    assert "  fee = 30  (= if big then base * 3 else base)\n" in chosen
    assert re.search(r"A +plain +price 60\n", chosen)


def test_show_refuses_an_unknown_option(capsys):
    assert run("show", "landlords-game-1906", "--option", "faster=1")[0] == 2
    assert "did you mean 'faster_game'?" in capsys.readouterr().err


def test_show_of_a_table_renders_spaces_by_name():
    text = show_text(ld.load_edition("landlords-game-1906"))
    assert '    mother_earth: "Timberland"\n    jail: "Farmlands"\n' in text  # space keys, text values
    assert "    1: soakum_lighting\n" in text  # space values


# ---------------------------------------------------------------- show --python


def _marks(listing: str) -> list[tuple[str, str, int]]:
    """Return (the code before the mark, file name, line) of every `# FILE:LINE` mark in a listing."""
    found = []
    for line in listing.splitlines():
        m = re.fullmatch(r"(.*\S)  # ([\w.+-]+\.lg):(\d+)", line)
        if m:
            found.append((m.group(1), m.group(2), int(m.group(3))))
    return found


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_python_listing_compiles_and_marks_real_lines_of_every_rule(path: Path):
    rules = ld.load_edition(path)
    listing = python_listing(rules)
    compile(listing, "<listing>", "exec")
    texts = {Path(m.source_name).name: m.source_text.split("\n") for m in rules.modules}
    marks = _marks(listing)
    assert len(marks) > 50
    for _, file, line in marks:
        code = texts[file][line - 1].strip()
        assert code and not code.startswith("#"), (file, line)
    # every rule with a handler or a trigger in force has its code marked inside it
    program = compile_ruleset(rules)
    for rule, span in zip(rules.model.rules, program.rule_spans):
        if not (rule.handlers or rule.triggers):
            continue
        inside = [
            line for _, file, line in marks if file == Path(span.file).name and span.line <= line <= span.end_line
        ]
        assert inside, rule.name


def test_python_listing_names_locals_after_the_rules(tmp_path):
    path = tmp_path / "small.lg"
    path.write_text(SMALL)
    code, listing = run("show", str(path), "--python")
    assert code == 0
    compile(listing, "<listing>", "exec")
    lines = listing.splitlines()
    let = next(line for line in lines if re.match(r" +cost_v\d+ = ", line))
    assert let.endswith("  # small.lg:16")  # let cost = here.price
    assert any(re.match(r" +for p_v\d+ in ", line) for line in lines)
    # the loop's first line is marked: its items are counted against the work budget before it starts
    (marked,) = [line for line in lines if line.endswith("  # small.lg:17")]
    assert "g.seats" in marked
    assert not any(re.search(r"\bv\d+\b", line) for line in lines)  # no slot name left bare
    assert "# options: big=false" in listing
    assert "# options: big=true" in run("show", str(path), "--python", "--option", "big=true")[1]


@pytest.mark.parametrize("name", EDITIONS)
def test_readable_names_play_the_same_games(name):
    """The readable compilation `show --python` prints is the same program: the same games, move for move."""
    rules = ld.load_edition(name)
    plain, readable = compile_ruleset(rules), compile_ruleset(rules, readable=True)
    assert plain.python_source != readable.python_source
    assert re.sub(r"\b\w+_(v\d+)\b", r"\1", readable.python_source) == plain.python_source
    for seed in (1, 2):
        logs = []
        for program in (plain, readable):
            game = ld.new_game(program, players=3, seed=seed)
            game.play()
            logs.append(game.log_lines())
        assert logs[0] == logs[1]
