"""Files that checked under an earlier form of the language check under this one (issue 27, item 3).

`tests/data/compat/` keeps one file per change of the language, written as
users wrote before it (see its README). Each must check, and `landlord-dsl
fmt` must rewrite it to a file that checks with no warning and means what
it meant (`diff` finds no change). The shipped files are held to more:
they pass `check --strict`, which also warns of citations without a source
key and fails on any warning.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.checking.bibliography import parse_citation
from landlord_dsl.checking.loader import load_text
from landlord_dsl.cli.main import main
from landlord_dsl.core.resources import shipped_files

COMPAT = Path(__file__).parent / "data" / "compat"
CASES = sorted(COMPAT.glob("*.lg"))
ROOT = Path(__file__).parent.parent
SHIPPED = sorted(shipped_files().values()) + sorted((ROOT / "examples").glob("*.lg"))


def test_the_corpus_covers_the_changes_of_the_language():
    names = {p.stem for p in CASES}
    assert {
        "free-text-citations",
        "year-and-rule-citations",
        "citations-before-the-brace",
        "kind-fields-without-commas",
        "restated-cards-without-tags",
        "names-that-became-keywords",
        "turn-state-as-text",
    } <= names


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_an_old_file_checks_and_fmt_migrates_it(path: Path):
    text = path.read_text(encoding="utf-8")
    assert [d.render() for d in ld.check(text, str(path)) if d.severity == "error"] == []
    migrated = ld.format_source(text, str(path))
    assert ld.check(migrated, str(path)) == [], "fmt leaves something check warns of"
    changes = ld.diff(load_text(text, str(path)), load_text(migrated, str(path)))
    assert changes == [], "fmt changed what the rules mean"


def test_a_restated_card_keeps_the_tag_of_the_base():
    """6c8a3b2 made a restated card without its tag an error; 1933's Jail rules find the card by its tag."""
    path = COMPAT / "restated-cards-without-tags.lg"
    rules = load_text(path.read_text(encoding="utf-8"), str(path))
    card = next(c for d in rules.model.decks.values() for c in d.cards if c.name == "chance_jail_free")
    assert card.tags == ("jail_free",)
    (warning,) = rules.warnings
    assert warning.severity == "warning" and "tagged jail_free" in (warning.hint or "")
    assert "tagged jail_free {" in ld.format_source(path.read_text(encoding="utf-8"), str(path))


def test_free_text_citations_check_and_are_warned_of_only_when_strict():
    path = COMPAT / "free-text-citations.lg"
    text = path.read_text(encoding="utf-8")
    assert ld.check(text, path.name) == []
    strict = ld.check(text, path.name, strict=True)
    assert [(d.severity, d.message) for d in strict] == [
        ("warning", "the citation 'house rule' does not start with a source key"),
        ("warning", "the citation 'a test game' does not start with a source key"),
        ("warning", "the citation 'house rule' does not start with a source key"),
        ("warning", "the citation 'agreed at the table' does not start with a source key"),
    ]


def test_a_key_without_its_comma_is_warned_of_always():
    text = (COMPAT / "free-text-citations.lg").read_text(encoding="utf-8")
    (warning,) = ld.check(text.replace('"a test game"', '"anspach-1933 GO"'), "x.lg")
    assert warning.severity == "warning"
    assert warning.hint == 'write "anspach-1933, GO": a comma follows the key'


def test_a_year_is_no_source_key():
    """'1906, Rule 3' is how the first editions cited; it reads as free text, not as an unknown key '1906'."""
    assert [p.key for p in parse_citation("1906, Rule 3; magie-1906, Rule 3")] == [
        None,
        "magie-1906",
    ]


def test_check_strict_fails_on_a_warning(tmp_path, capsys):
    path = tmp_path / "ours.lg"
    path.write_text((COMPAT / "free-text-citations.lg").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["check", str(path)], out=io.StringIO()) == 0
    assert capsys.readouterr().err == ""
    out = io.StringIO()
    assert main(["check", "--strict", str(path)], out=out) == 1
    assert out.getvalue() == ""
    assert capsys.readouterr().err.endswith(f"{path}: 4 warnings (--strict)\n")


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_the_shipped_files_pass_check_strict(path: Path):
    assert ld.check(path.read_text(encoding="utf-8"), str(path), strict=True) == []


UNCITED = """edition "uncited" {
    extends "monopoly-1933-atlantic-city"
}

const salary = 300
"""


def test_a_file_without_a_source_fails_only_check_strict_at_its_header(tmp_path, capsys):
    """`check --strict` passed a variant citing nothing at all (the base's header source stood for it). The file's
    own header must cite a source under --strict, the citation that covers the whole file (docs/provenance.md)."""
    assert ld.check(UNCITED, "uncited.lg") == []
    (warning,) = ld.check(UNCITED, "uncited.lg", strict=True)
    assert warning.severity == "warning"
    assert warning.message == "the header of 'uncited' has no `source`, the citation that covers the whole file"
    assert (warning.span.file, warning.span.line, warning.span.column) == ("uncited.lg", 1, 1)
    cited = UNCITED.replace("}\n\nconst", '    source "house-rule: ours" original\n}\n\nconst')
    assert ld.check(cited, "uncited.lg", strict=True) == []
    path = tmp_path / "uncited.lg"
    path.write_text(UNCITED, encoding="utf-8")
    assert main(["check", "--strict", str(path)], out=io.StringIO()) == 1
    assert capsys.readouterr().err.endswith(f"{path}: 1 warning (--strict)\n")
