"""Diagnostics for syntax slips, unreadable files and their neighbours (issue 13, item 16).

Each test checks one promise: several syntax errors per file, a did-you-mean
for a misspelt keyword, an unclosed '{' reported at that brace, targeted hints
for other languages' spellings, files that are not UTF-8 text named as such,
one plain error per bad text hole, a `when ... repeat` failure that names its
rule, and a circular `extends` named as a cycle.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.checking.loader import load
from landlord_dsl.core.errors import LandlordError, RuleRuntimeError
from landlord_dsl.language.sourcefile import decode

BASE = """edition "x" { players 2 to 4 }
account treasury "Public treasury"
kind start "Start" { }
board {
    space go "Go" : start
}
"""  # 6 lines: what follows starts at line 7


def _diags(text: str):
    return ld.check(BASE + text, "d.lg")


def _rule(body: str, name: str = "r") -> str:
    return f'rule {name} "R" {{\n    on turn {{\n        {body}\n    }}\n}}\n'


def test_every_syntax_error_is_reported_not_only_the_first():
    text = (
        _rule("pya 10 from player to treasury")
        + _rule("pay 1 from player to treasury", "q")
        + "rulle z {\n}\n"
        + _rule("if False { end game }", "w")
    )
    diags = _diags(text)
    assert [(d.span.line, d.message) for d in diags] == [
        (9, "unexpected 'pya'"),
        (17, "unexpected 'rulle'"),
        (21, "unexpected 'False'"),
    ]


def test_a_syntax_error_does_not_hide_the_checkers_findings_elsewhere():
    diags = _diags(_rule("pay 10 form player to treasury") + _rule("pay 10 from player to tresury", "q"))
    assert [d.message for d in diags] == ["unexpected 'form'", "unknown name 'tresury'"]


def test_what_refers_to_a_broken_declaration_is_not_reported_as_unknown():
    diags = _diags(
        "const wages = 100 +\n"
        + _rule("pay wages from treasury to player")
        + _rule("pay 1 from player to treasury", "q")
    )
    assert [d.message for d in diags] == ["this line ends in the middle of an expression"]
    assert diags[0].span.line == 7 and "'rule' on line 8" in diags[0].hint


def test_a_broken_board_stops_at_the_syntax_errors():
    text = 'edition "x" { players 2 to 4 }\nboard {\n    space go "Go" start\n}\n' + _rule("pay 1 from player to bank")
    assert [d.message for d in ld.check(text, "d.lg")] == ["unexpected 'start'"]


@pytest.mark.parametrize("typo, meant", [("pya", "pay"), ("rulle", "rule"), ("opton", "option"), ("end_", None)])
def test_a_misspelt_keyword_gets_a_did_you_mean(typo, meant):
    if typo == "opton":
        text = 'opton fast "Fast" = false\n'
    elif typo == "rulle":
        text = _rule("end game").replace("rule", "rulle", 1)
    else:
        text = _rule(f"{typo} 10 from player to treasury")
    [d] = _diags(text)
    assert d.message == f"unexpected '{typo}'"
    if meant:
        assert d.hint == f"did you mean '{meant}'?"


@pytest.mark.parametrize(
    "body, hint",
    [
        ("if turn_number = 3 { end game }", "to compare, write '=='; a single '=' only gives a value"),
        ("if true { end game } elif false { end game }", "write 'else if' instead of 'elif'"),
        ("if true && false { end game }", "write 'and' instead of '&&'"),
        ("if true || false { end game }", "write 'or' instead of '||'"),
        ("if False { end game }", "write 'false' instead of 'False'"),
        ("if True { end game }", "write 'true' instead of 'True'"),
    ],
)
def test_other_languages_spellings_get_a_targeted_hint(body, hint):
    [d] = _diags(_rule(body))
    assert d.hint == hint and d.span.line == 9


@pytest.mark.parametrize(
    "line, label",
    [
        ("group corners The corners\n", "The corners"),
        ("rule fine A fine {\n    on turn { end game }\n}\n", "A fine"),
        ("rule fine fine {\n    on turn { end game }\n}\n", "fine"),
    ],
)
def test_an_unquoted_label_gets_a_hint_to_quote_it(line, label):
    [d] = _diags(line)
    assert d.hint == f'a label is written in quotes: "{label}"'


def test_an_unclosed_brace_is_reported_at_that_brace_at_the_end_of_the_file():
    [d] = _diags('rule r "R" {\n    on turn {\n        end game\n    }\n')
    assert d.message == "this '{' is never closed"
    assert (d.span.line, d.span.column) == (7, 12)


def test_an_unclosed_inner_brace_is_reported_at_that_brace_and_the_next_rule_is_read():
    text = 'rule r "R" {\n    on turn {\n        if true {\n            end game\n    }\n}\n' + _rule(
        "pay 1 from player to tresury", "q"
    )
    diags = _diags(text)
    assert [(d.message, d.span.line, d.span.column) for d in diags] == [
        ("this '{' is never closed", 9, 17),
        ("unknown name 'tresury'", 15, 30),
    ]


@pytest.mark.parametrize(
    "data, says",
    [
        ("edition".encode("utf-16"), "is UTF-16 text"),
        ("edition".encode("utf-16-be"), "is UTF-16 text"),
        (b"\x7fELF\x02\x01\x01\x00\x00", "is binary data, not a text file"),
        (b"edition \xe9t\xe9", "is not UTF-8 text: byte 0xe9"),
    ],
)
def test_files_that_are_not_utf8_text_are_named_as_such(tmp_path: Path, data: bytes, says: str):
    path = tmp_path / "f.lg"
    path.write_bytes(data)
    with pytest.raises(LandlordError) as caught:
        load(path)
    assert says in caught.value.render() and "codec" not in caught.value.render()


def test_a_utf8_byte_order_mark_is_named(tmp_path: Path):
    path = tmp_path / "bom.lg"
    path.write_bytes(b"\xef\xbb\xbf" + BASE.encode())
    with pytest.raises(LandlordError, match="byte-order mark"):
        load(path)
    with pytest.raises(LandlordError, match="byte-order mark"):
        decode(b"\xef\xbb\xbfa", "x")


def test_a_byte_order_mark_in_text_is_named():
    [d] = ld.check("\ufeff" + BASE, "d.lg")
    assert "byte-order mark" in d.message


def test_a_directory_named_like_a_rule_file_is_named_as_such(tmp_path: Path):
    folder = tmp_path / "x.lg"
    folder.mkdir()
    with pytest.raises(LandlordError, match=r"is a directory, not a \.lg file"):
        load(folder)


def test_each_bad_hole_is_one_error_in_plain_words():
    text = (
        'rule r "R" {\n    on turn {\n        choose "Go to {here.prise} or {1 2} or {$x}?" {\n'
        '            option a "A" { }\n            option b "B" { }\n        }\n    }\n}\n'
    )
    messages = [d.message for d in _diags(text)]
    assert len(messages) == 3, messages
    assert messages[0] == "a space has no field 'prise'"
    assert messages[1].endswith("'2' cannot follow '1'")
    assert messages[2].endswith("the character '$' has no meaning there")


def test_a_when_repeat_failure_names_its_rule():
    rules = ld.load_text(
        BASE + 'var n = 0\nrule loop "Loop" {\n    when n == 0 repeat {\n'
        "        pay 0 from player to treasury\n    }\n    on turn { end game }\n}\n",
        "w.lg",
    )
    with pytest.raises(RuleRuntimeError) as caught:
        ld.new_game(rules, players=2).play()
    assert "(rule 'loop', turn 0)" in caught.value.render()


def test_circular_extends_is_reported_as_a_cycle_with_its_members(tmp_path: Path):
    for name, base in (("a", "b"), ("b", "c"), ("c", "a")):
        (tmp_path / f"{name}.lg").write_text(f'edition "{name}" {{ extends "{base}.lg" }}\n', encoding="utf-8")
    with pytest.raises(LandlordError) as caught:
        load(tmp_path / "a.lg")
    [d] = caught.value.diagnostics
    assert d.message == "circular `extends`: a.lg extends b.lg extends c.lg extends a.lg"
    assert d.span.file.endswith("c.lg") and d.span.line == 1


def test_a_variants_header_item_out_of_range_is_refused_at_its_line(tmp_path: Path):
    """A variant's `turn limit 0` or `dice 0` was dropped unsaid (the base's value played on), being false."""
    (tmp_path / "v.lg").write_text(
        'edition "v" {\n    extends "landlords-game-1906"\n    turn limit 0\n    dice 0\n}\n', encoding="utf-8"
    )
    with pytest.raises(LandlordError) as caught:
        load(tmp_path / "v.lg")
    found = [(d.message, d.span.file.endswith("v.lg"), d.span.line, d.span.column) for d in caught.value.diagnostics]
    assert ("the turn limit must be from 1 to 100,000", True, 3, 5) in found
    assert ("an edition throws from 1 to 10 dice", True, 4, 5) in found


def test_a_file_extending_itself_is_a_cycle(tmp_path: Path):
    (tmp_path / "self.lg").write_text('edition "s" { extends "self.lg" }\n', encoding="utf-8")
    with pytest.raises(LandlordError, match=r"circular `extends`: self\.lg extends self\.lg"):
        load(tmp_path / "self.lg")


# one mistake for each code a diagnostic of a name nothing declares carries (core/errors.py, Diagnostic),
# the misspelt name in each being its subject
UNKNOWN_NAMES = {
    "unknown-name": _rule("pay 10 from player to tresury"),
    "unknown-function": _rule("pay precent(10) from player to treasury"),
    "unknown-action": _rule("do jial(player)"),
    "unknown-rule": 'rule q "Q" replaces r_missing {\n    on turn { end game }\n}\n',
    "unknown-type": 'var state: standng = "free"\n',
    "unknown-purpose": _rule("pay 10 from player to treasury as fien"),
    "unknown-source-key": 'const wages = 100 source "magie-1960, Rule 3" secondary\n',
    "unknown-group-or-kind": 'deck titles "T" returned of titles in lotz {\n}\n',
    "unknown-space-kind-or-group": 'rule q "Q" {\n    on land og { end game }\n}\n',
    "unknown-space-or-group": _rule("move forward 2 stopping at og"),
    "unknown-deck": _rule("draw chance_crads"),
    "unknown-dice": _rule("roll sped"),
}
SUBJECTS = {
    "unknown-name": "tresury",
    "unknown-function": "precent",
    "unknown-action": "jial",
    "unknown-rule": "r_missing",
    "unknown-type": "standng",
    "unknown-purpose": "fien",
    "unknown-source-key": "magie-1960",
    "unknown-group-or-kind": "lotz",
    "unknown-space-kind-or-group": "og",
    "unknown-space-or-group": "og",
    "unknown-deck": "chance_crads",
    "unknown-dice": "sped",
}


@pytest.mark.parametrize("code", sorted(UNKNOWN_NAMES))
def test_a_diagnostic_of_an_unknown_name_carries_its_code_and_the_name(code: str):
    diags = [d for d in _diags(UNKNOWN_NAMES[code]) if d.severity == "error"]
    assert [(d.code, d.subject) for d in diags] == [(code, SUBJECTS[code])], [d.render() for d in diags]


def test_the_board_and_placements_carry_codes_too():
    board = """edition "x" { players 2 to 4 }
kind start "Start" { }
kind share "Share" { }
board {
    space go "Go" : start in croners
    space s "S" : lto
}
deck d "D" returned {
    card c "C" share of elm { }
}
rule q "Q" after nowhere {
    on turn { enable elsewhere }
}
"""
    diags = ld.check(board, "b.lg")
    assert sorted((d.code, d.subject) for d in diags) == [
        ("unknown-group", "croners"),
        ("unknown-kind", "lto"),
        ("unknown-rule", "elsewhere"),
        ("unknown-rule", "nowhere"),
        ("unknown-space", "elm"),
    ], [d.render() for d in diags]


def test_an_unknown_option_carries_its_code():
    rules = ld.load_text(BASE + 'option chance_deck "Chance" = true\n', "o.lg")
    with pytest.raises(LandlordError) as caught:
        ld.compile_rules(rules, {"chance_dekc": True})
    assert [(d.code, d.subject) for d in caught.value.diagnostics] == [("unknown-option", "chance_dekc")]


def test_a_problem_without_a_code_has_none():
    (diag,) = _diags(_rule("pay 10 from player to treasury", "r") + _rule("pay 1 from player to treasury", "r"))
    assert diag.code is None and diag.subject is None


def test_check_of_a_path_instead_of_text_hints_at_the_files_text(tmp_path: Path):
    """`ld.check("my.lg")` parses "my.lg" as rules; the hint says to pass the file's text or load the file."""
    (error,) = ld.check("my.lg")
    assert error.message == "unexpected 'my'"
    assert error.hint is not None
    assert "ld.check(Path('my.lg').read_text(), 'my.lg')" in error.hint
    assert "ld.load_edition('my.lg')" in error.hint
    existing = tmp_path / "rules.txt"
    existing.write_text("x", encoding="utf-8")
    (error,) = ld.check(str(existing))
    assert error.hint is not None and "load_edition" in error.hint


@pytest.mark.parametrize("function", ["parse", "load_text", "format_source"])
def test_a_path_passed_for_text_elsewhere_raises_with_the_hint(function: str):
    """The façade's other functions taking .lg text raise their syntax error with the same hint, naming them."""
    with pytest.raises(LandlordError) as caught:
        getattr(ld, function)("house.lg")
    (error,) = caught.value.diagnostics
    assert error.message == "unexpected 'house'"
    assert error.hint is not None and f"ld.{function}(Path('house.lg').read_text(), 'house.lg')" in error.hint
    assert "hint: 'house.lg' looks like a file's path" in str(caught.value)
    with pytest.raises(LandlordError) as caught:
        getattr(ld, function)('edition "x" {')
    assert all("path" not in (d.hint or "") for d in caught.value.diagnostics)


def test_check_of_rules_text_gets_no_path_hint():
    (error,) = ld.check('edition "x" {')
    assert error.hint == "the file ends before its '}'"
    assert all("path" not in (d.hint or "") for d in ld.check("rule x"))
