"""Golden tests for the diagnostics of common authoring mistakes.

Every `tests/golden/errors/NN-name.lg` is a small, complete edition with one
mistake (one of them has several). Its `NN-name.expected` holds exactly what
users see:

    "\\n\\n".join(d.render() for d in ld.check(text, "NN-name.lg")) + "\\n"

The file is checked under its base name, so the goldens do not depend on where
the repository lives. To regenerate every .expected file after a deliberate
change to a message, run

    LANDLORD_UPDATE_GOLDEN=1 python -m pytest tests/test_errors_golden.py

and review the diff.

The tests marked xfail at the end are reproducers of wrong, misplaced or
unhelpful messages found while writing these goldens; each passes once the
library is fixed (strict=True then reports an XPASS, a cue to drop the mark).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import landlord_dsl as ld
from golden_files import assert_matches_golden
from landlord_dsl.checking.loader import load
from landlord_dsl.compiling.compiler import checked
from landlord_dsl.core.errors import LandlordError

GOLDEN_DIR = Path(__file__).parent / "golden" / "errors"
CASES = sorted(GOLDEN_DIR.glob("*.lg"))
HEAD_RE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: ", re.MULTILINE)


def _render(diags) -> str:
    return "\n\n".join(d.render() for d in diags) + "\n"


def _diagnose(path: Path):
    return ld.check(path.read_text(encoding="utf-8"), path.name)


def test_golden_directory_is_populated():
    assert len(CASES) >= 18
    orphans = sorted(p.name for p in GOLDEN_DIR.glob("*.expected") if not p.with_suffix(".lg").exists())
    assert not orphans, f"expected files without a .lg file: {orphans}"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden(path: Path):
    diags = _diagnose(path)
    assert diags, f"{path.name} is meant to hold a mistake, but it checks clean"
    assert_matches_golden(_render(diags), path.with_suffix(".expected"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_diagnostics_point_into_the_file(path: Path):
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    for d in _diagnose(path):
        assert d.span is not None, d.render()
        assert d.span.file == path.name
        assert 1 <= d.span.line <= len(lines), d.render()
        line = lines[d.span.line - 1]
        assert 1 <= d.span.column <= len(line) + 1, d.render()
        assert (d.span.end_line, d.span.end_column) >= (d.span.line, d.span.column), d.render()
        assert d.line_text == line, d.render()
        rendered = d.render().splitlines()
        assert rendered[0].startswith(f"{path.name}:{d.span.line}:{d.span.column}: {d.severity}: ")
        assert d.severity in ("error", "note")
        caret_lines = [r for r in rendered if re.fullmatch(r" +\| *\^+", r)]
        assert len(caret_lines) == 1, d.render()
        # the caret sits under the reported column of the quoted line
        assert caret_lines[0].index("^") - caret_lines[0].index("|") - 2 == d.span.column - 1


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_check_raises_the_same_diagnostics(path: Path):
    """Loading the file and checking what it fixes (`checked`, what `landlord-dsl check` does) raises
    LandlordError carrying what check() returns (file names aside)."""
    with pytest.raises(LandlordError) as info:
        checked(load(path))
    err = info.value
    expected = _diagnose(path)
    assert [(d.message, d.span.line, d.span.column, d.hint) for d in err.diagnostics] == [
        (d.message, d.span.line, d.span.column, d.hint) for d in expected
    ]
    assert str(err) == err.render()


def test_several_mistakes_are_all_reported_in_file_order():
    path = GOLDEN_DIR / "24-several-mistakes.lg"
    with pytest.raises(LandlordError) as info:
        load(path)
    rendered = info.value.render()  # what the command line prints
    heads = [(m["file"], int(m["line"]), int(m["col"])) for m in HEAD_RE.finditer(rendered)]
    assert len(heads) == len(info.value.diagnostics) == 6
    assert {f for f, _, _ in heads} == {str(path)}
    positions = [(line, col) for _, line, col in heads]
    assert positions == sorted(positions)
    assert len(set(positions)) == len(positions)
    # one mistake per kind of problem, all present together
    for needle in (
        "missing field 'rent'",
        "unknown kind 'lto'",
        "no field 'rnet'",
        "unknown name 'tresury'",
        "cannot set 'wages'",
        "cannot set 'player.cash'",
    ):
        assert needle in rendered
    # blocks are separated by exactly one blank line
    assert rendered.count("\n\n") == len(heads) - 1


# --------------------------------------------------------------------------
# Reproducers of wrong, misplaced or unhelpful messages (library bugs).

BASE = """edition "x" { players 2 to 4 }
account treasury "Public treasury"
kind start "Start" { }
kind lot "Lot" titled { price: int rent: int }
board {
    space go "Go" : start
    space elm "Elm Street" : lot { price = 60, rent = 4 }
}
"""


def _only(text: str, file: str = "bug.lg"):
    diags = ld.check(text, file)
    assert len(diags) == 1, "\n\n".join(d.render() for d in diags)
    return diags[0]


def _caret_column(rendered: str) -> int:
    """Return the 1-based column of the caret under the quoted source line."""
    caret = next(r for r in rendered.splitlines() if re.fullmatch(r" +\| *\^+", r))
    return caret.index("^") - caret.index("|") - 1


def test_caret_under_the_mistake_on_tab_indented_lines():
    text = BASE + 'rule rent "Rent" {\n\ton land lot {\n\t\tpay here.rnet from player to treasury\n\t}\n}\n'
    d = _only(text)
    rendered = d.render()
    quoted = next(r for r in rendered.splitlines() if "pay here.rnet" in r)
    assert _caret_column(rendered) == quoted.index("here.rnet") - quoted.index("|") - 1


@pytest.mark.parametrize("breaker", ["\x0c", "\r", "\u2028", "\x85"])
def test_quoted_line_is_the_line_of_the_mistake(breaker: str):
    text = (
        BASE
        + f"# a comment with a {breaker} inside\n"
        + 'rule rent "Rent" { on land lot { pay here.rnet from player to treasury } }\n'
    )
    d = _only(text)
    assert d.span.line == 10
    assert d.line_text is not None and "here.rnet" in d.line_text


def test_unclosed_rule_brace_is_reported_at_that_brace():
    # was "unexpected end of file" at the last line (issue 13, item 16)
    text = BASE + 'rule rent "Rent" {\n    on land lot {\n        pay here.rent from player to treasury\n'
    d = _only(text)
    assert d.message == "this '{' is never closed"
    assert (d.span.line, d.span.column) == (9, 18)


def test_missing_to_before_a_closing_brace_does_not_blame_the_braces():
    text = BASE + 'rule fine "Fine" {\n    on turn {\n        pay 10 from player\n    }\n}\n'
    d = _only(text)
    assert "'to'" in (d.hint or "")
    assert "pair up" not in (d.hint or "")


@pytest.mark.parametrize(
    "expr, fragment",
    [
        ("players", "a list of a players"),
        ("[[1], [2]]", "numberss"),
    ],
)
def test_list_types_are_described_in_plain_english(expr: str, fragment: str):
    d = _only(BASE + f"rule r {{ on turn {{ pay {expr} from player to treasury }} }}\n")
    assert fragment not in d.message
    assert "list of a " not in d.message


def test_len_of_a_table_message():
    text = BASE + "table fares { 1: 5 }\nrule r { on turn { pay len(fares) from player to treasury } }\n"
    d = _only(text)
    assert "anythings" not in d.message


# was 'unexpected a number' / 'unexpected a quoted string' / 'unexpected a comparison'; fixed
@pytest.mark.parametrize("line", ["option 3 = 1", 'const c = "a" "b"', "rule r { on turn { == } }"])
def test_unexpected_token_message_is_grammatical(line: str):
    d = _only(BASE + line + "\n")
    assert not d.message.startswith("unexpected a ")


def test_unterminated_string_is_named_as_such():
    text = BASE + 'group corners "The corners\nrule r { on turn { roll dice } }\n'
    d = _only(text)
    assert "string" in (d.message + " " + (d.hint or "")).lower()


def test_duplicate_rule_hint_names_the_first_declaration():
    text = BASE + 'rule rent "A" { on turn { roll dice } }\nrule rent "B" { on turn { roll dice } }\n'
    d = _only(text)
    assert "line 9" in (d.hint or "")


@pytest.mark.parametrize(
    "stmt, name",
    [
        ("draw chance_crads", "chance_crads"),
        ("move forward 3 via cornres", "cornres"),
        ("enable rnet", "rnet"),
    ],
)
def test_unknown_name_in_a_statement_is_underlined(stmt: str, name: str):
    text = (
        BASE.replace('space go "Go" : start', 'space go "Go" : start in corners')
        + 'group corners "Corners"\ndeck chance_cards "Chance" returned { card a "A" { } }\n'
        + 'rule rent "Rent" {\n    on turn {\n        '
        + stmt
        + "\n    }\n}\n"
    )
    d = _only(text)
    assert d.span.column == d.line_text.index(name) + 1
    assert d.span.end_column - d.span.column == len(name)


def test_option_default_not_a_choice_points_at_the_default():
    text = BASE + 'option ante_to "Ante" = "bank" choices "treasury" | "broker"\n'
    d = _only(text)
    assert d.span.column == d.line_text.index('"bank"') + 1


def test_huge_number_literal_is_located():
    d = _only(BASE + "const big = " + "9" * 5000 + "\n")
    assert d.span is not None and d.span.line == 9
    assert "internal error" not in d.message


def test_unknown_extends_target_is_located_in_check():
    d = _only('edition "v" { extends "landlords-game-196" }\nconst wages = 3\n')
    assert d.span is not None and d.span.line == 1
    assert d.hint == "did you mean 'landlords-game-1906'?"


def test_variant_reports_every_mistake_together():
    text = (
        'edition "v" { extends "landlords-game-1906" }\n'
        "remove rule no_such_rule\n"
        'rule taxes "Taxes" { on land necessity { pay 10 from player to tresury } }\n'
    )
    diags = ld.check(text, "variant.lg")
    messages = [d.message for d in diags]
    assert any("no_such_rule" in m for m in messages), messages
    assert any("tresury" in m for m in messages), messages


def test_check_does_not_quote_arbitrary_files(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-TOKEN=hunter2\n", encoding="utf-8")
    diags = ld.check(f'edition "v" {{ extends "{secret}" }}\n', "untrusted.lg")
    assert diags
    assert "hunter2" not in "\n".join(d.render() for d in diags)


def test_each_problem_is_reported_once():
    text = BASE + "function bonus(go: int) = go + 1\n"
    diags = ld.check(text, "bug.lg")
    rendered = [d.render() for d in diags]
    assert len(rendered) == len(set(rendered)), "\n\n".join(rendered)


def test_a_bracket_left_open_mid_file_is_noted_after_the_error_it_causes():
    """A '{' or '(' never closed is reported where the parser gave up, then a note at the opener."""
    for name, opener, line in (("57-brace-not-closed-mid-file.lg", "{", 13), ("58-paren-not-closed.lg", "(", 12)):
        error, note = _diagnose(GOLDEN_DIR / name)
        assert error.severity == "error" and error.message.startswith("unexpected")
        assert (note.severity, note.message) == ("note", f"this '{opener}' may be the one never closed")
        assert note.span is not None and note.span.line == line
        assert note.line_text is not None and note.line_text[note.span.column - 1] == opener


def test_a_brace_opened_on_the_errors_own_line_gets_no_note():
    text = 'edition "x" { players 2 to 4 }\nrule r { on turn { == } }\n'
    assert [d.severity for d in ld.check(text, "x.lg")] == ["error"]


@pytest.mark.parametrize(
    "text, message",
    [("", "the file is empty"), ("\n  \n", "the file is empty"), ("# notes\n", "the file holds no rules")],
)
def test_a_file_without_rules_says_so(text, message):
    # was "unexpected end of file", hint "expected 'edition'"
    d = _only(text)
    assert d.message == message
    assert d.hint is not None and 'edition "NAME" { ... }' in d.hint
