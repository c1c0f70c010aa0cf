"""The bibliography and the citation check (issue 12, 'Sources a user can reach').

Every `source "..."` starts with a key of editions/bibliography.toml or of a
`reference` declaration; docs/sources.md is generated from the bibliography.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import attrs
import pytest

import landlord_dsl as ld
from landlord_dsl.checking.bibliography import parse_citation, render_markdown, shipped_sources
from landlord_dsl.checking.loader import format_with_base, load, load_text
from landlord_dsl.cli.main import main
from landlord_dsl.core.resources import shipped_files
from landlord_dsl.language import ast
from landlord_dsl.language.parser import parse

ROOT = Path(__file__).resolve().parents[1]

SMALL = """edition "small" {{
    players 2 to 2
    source "{header}"
}}
{extra}
kind plain {{ }}
const wages = 100 source "{cite}" secondary
board {{
    space go "Go" : plain
}}
"""


def _messages(text: str) -> list[str]:
    return [d.message for d in ld.check(text, "small.lg")]


def test_docs_sources_page_is_the_bibliography():
    """docs/sources.md is what `landlord-dsl sources` prints (regenerate: landlord-dsl sources > docs/sources.md)."""
    assert (ROOT / "docs" / "sources.md").read_text(encoding="utf-8") == render_markdown()
    assert "sources.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_sources_command_prints_the_page():
    out = io.StringIO()
    assert main(["sources"], out) == 0
    assert out.getvalue() == render_markdown()


def test_bibliography_lists_the_public_sources_the_issue_names():
    sources = shipped_sources()
    identities = {key: s.identity for key, s in sources.items()}
    assert "748,626" in identities["magie-1904"] and "1904" in identities["magie-1904"]
    assert "Economic Game Company" in identities["magie-1906"]
    assert "Parker Brothers, 1939" in identities["magie-1939"]
    assert "Anspach" in identities["anspach-1933"]
    assert "Parker Brothers, 1935" in identities["parker-1935"]
    assert "Adgame" in identities["adgame-1932"]
    for s in sources.values():
        assert s.identity and s.about
        assert all(url == "" or url.startswith(("http://", "https://")) for _, url in s.where), s.key
        # a historical source names where to find it, or says why it cannot
        assert s.where or s.kind == "project" or "could not" in s.identity, s.key


def _citations(module: ast.Module):
    """Yield every Provenance of one parsed file."""
    yield module.header.provenance
    for d in module.declarations:
        yield getattr(d, "provenance", None)
        if isinstance(d, ast.BoardDecl):
            yield from (s.provenance for s in d.spaces)
        elif isinstance(d, ast.DeckDecl):
            yield from (c.provenance for c in d.cards)


@pytest.mark.parametrize("name", sorted(shipped_files()))
def test_every_shipped_citation_names_a_shipped_source(name):
    """Each shipped file checks (so its citations resolve), and it cites only the shipped bibliography."""
    load(name)
    path = shipped_files()[name]
    module = parse(path.read_text(encoding="utf-8"), str(path))
    keys = set(shipped_sources())
    cited = [p for p in _citations(module) if p is not None]
    assert cited
    for p in cited:
        for part in parse_citation(p.source):
            assert part.key in keys, (name, p.source)


def _every_provenance(node: object):
    """Yield every citation in a parsed module, wherever it is declared (rules' handlers and cards included)."""
    if isinstance(node, ast.Provenance):
        yield node
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from _every_provenance(item)
    elif attrs.has(type(node)) and not isinstance(node, ast.Span):
        for field in attrs.fields(type(node)):
            yield from _every_provenance(getattr(node, field.name))


@pytest.mark.parametrize("name", sorted(shipped_files()))
def test_a_shipped_house_rule_is_tagged_original_as_provenance_md_defines(name):
    """docs/provenance.md: `original` is 'the author's own rule, made up rather than recovered: an original game
    or a house rule', `reconstruction` 'our own inference' about a historical edition; the 1933 house-rule
    variants were tagged `reconstruction`. A citation of `house-rule` is now tagged `original` in every shipped
    file, and `original` cites no historical source."""
    path = shipped_files()[name]
    historical = {key for key, source in shipped_sources().items() if key not in ("house-rule", "none")}
    for p in _every_provenance(parse(path.read_text(encoding="utf-8"), str(path))):
        keys = {part.key for part in parse_citation(p.source)}
        where = f"{path.name}:{p.span.line}: {p.source!r} {p.confidence}"
        if "house-rule" in keys:
            assert p.confidence == "original", where
        if p.confidence == "original":
            assert not keys & historical or "house-rule" in keys, where


def test_the_docs_tag_a_house_rule_original_as_the_shipped_files_do():
    """The pages' rule files and `diff`/`show` outputs tagged the house rules they quote `reconstruction` after the
    shipped variants were tagged `original` (the walkthrough of docs/writing-a-variant.md failed on it)."""
    cited = re.compile(r'source "house-rule[^"]*" (\w+)|\[house-rule[^\]]*\] \((\w+)\)')
    pages = sorted((ROOT / "docs").rglob("*.md"))
    found = [
        f"{page.relative_to(ROOT)}:{i}: {tag}"
        for page in pages
        if page.name != "changelog.md"  # (it says what was tagged so before)
        for i, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1)
        for match in cited.finditer(line)
        for tag in match.groups()
        if tag is not None and tag != "original"
    ]
    assert not found


def test_no_file_points_outside_the_repository():
    """No page, rule file, test or example cites the private notes the editions were written from."""
    private = re.compile("boards" + r"\.md|" + "shared" + "/|" + "seed" + " 00")
    roots = [ROOT / "README.md"] + [
        p
        for d in ("docs", "editions", "landlord_dsl", "tests", "examples")
        for p in (ROOT / d).rglob("*")
        if p.is_file() and p.suffix in (".md", ".lg", ".py", ".toml", ".expected")
    ]
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in roots
        for i, line in enumerate(p.read_text(encoding="utf-8").split("\n"), 1)
        if private.search(line)
    ]
    assert found == []


def test_parse_citation_splits_parts_and_finds_keys():
    parts = parse_citation("magie-1906, Rule 6; moddable-boards, 1906 board;none: a test; table 2.1; x y")
    assert [p.key for p in parts] == ["magie-1906", "moddable-boards", "none", None, None]
    text = "magie-1906, Rule 6; moddable-boards, 1906 board;none: a test; table 2.1; x y"
    assert [text[p.start : p.start + len(p.text)] for p in parts] == [p.text for p in parts]
    assert parse_citation("magie-1904")[0].key == "magie-1904"


def test_known_keys_check_clean():
    assert _messages(SMALL.format(header="magie-1906", extra="", cite="magie-1906, Rule 3; none: a test")) == []


def test_unknown_key_is_reported_at_the_key_with_a_hint():
    diags = ld.check(
        SMALL.format(header="magie-1906", extra="", cite="magie-1906, Rule 3; parker-1953, deeds"), "small.lg"
    )
    assert [d.message for d in diags] == ["unknown source key 'parker-1953'"]
    (d,) = diags
    assert d.hint == "did you mean 'parker-1935'?"
    assert d.line_text[d.span.column - 1 : d.span.end_column - 1] == "parker-1953"


def test_the_header_citation_is_checked_too():
    assert _messages(SMALL.format(header="magie-1960", extra="", cite="magie-1906")) == [
        "unknown source key 'magie-1960'"
    ]
    text = SMALL.format(header="1906 rules", extra="", cite="magie-1906")
    assert _messages(text) == []  # free text is the author's own note (issue 27)
    assert [d.message for d in ld.check(text, "small.lg", strict=True)] == [
        "the citation '1906 rules' does not start with a source key"
    ]


def test_a_reference_declares_a_key_for_the_files_citations():
    own = 'reference "club-2024" "Rules of our club, typed in 2024" at "the club binder"\n'
    assert _messages(SMALL.format(header="club-2024", extra=own, cite="club-2024, page 2")) == []
    assert _messages(SMALL.format(header="club-2024", extra="", cite="club-2024, page 2")) == [
        "unknown source key 'club-2024'",
        "unknown source key 'club-2024'",
    ]


@pytest.mark.parametrize(
    "decl,message",
    [
        ('reference "Club 2024" "Our rules"', "'Club 2024' cannot be a source key"),
        (
            'reference "magie-1906" "Our copy of the 1906 rules"',
            "'magie-1906' is already a key of the shipped bibliography",
        ),
        ('reference "club" "Our rules"\nreference "club" "Our other rules"', "reference 'club' is declared twice"),
    ],
)
def test_bad_references_are_reported(decl, message):
    assert message in _messages(SMALL.format(header="magie-1906", extra=decl + "\n", cite="magie-1906, Rule 3"))


def test_a_variant_cites_its_own_reference_and_its_bases_keys():
    variant = (
        'edition "club-1933" {\n    extends "monopoly-1933-atlantic-city"\n    source "club-2024"\n}\n'
        'reference "club-2024" "Rules of our club, typed in 2024"\n'
        'const start_cash = 2000 source "club-2024, page 1; anspach-1933, set-up" reconstruction\n'
    )
    rules = load_text(variant, "club-1933.lg")
    assert rules.model.consts["start_cash"].provenance.source.startswith("club-2024")
    with pytest.raises(ld.LandlordError, match="unknown source key 'club-2024'"):
        load_text(variant.replace('reference "club-2024" "Rules of our club, typed in 2024"\n', ""), "club-1933.lg")


def test_reference_survives_formatting():
    text = (
        'edition "x" { }\nreference   "club-2024"  "Rules of our club" at  "the binder"\n'
        'reference "notes" "' + "A very long description of our notes " * 3 + '" at "' + "a shelf " * 6 + '"\n'
    )
    formatted = format_with_base(text)
    assert 'reference "club-2024" "Rules of our club" at "the binder"\n' in formatted
    assert parse(formatted) == parse(text)
    assert format_with_base(formatted) == formatted


def test_show_prints_each_citation_whole_with_its_confidence_after_it(tmp_path):
    path = tmp_path / "small.lg"
    path.write_text(
        SMALL.format(header="magie-1906", extra="", cite="magie-1906, Rules 2, 8 and 17").replace(
            'space go "Go" : plain', 'space go "Go" : plain source "moddable-boards, 1906 board" code'
        ),
        encoding="utf-8",
    )
    out = io.StringIO()
    assert main(["show", str(path)], out) == 0
    assert "[moddable-boards, 1906 board] (code)" in out.getvalue()


# ------------------------------------------------------------ a malformed bibliography (issue 35, item 13)
GOOD_ENTRY = (
    '[[source]]\nkey = "a-source"\nsection = "S"\nidentity = "Someone, 1900"\nkind = "primary"\n'
    'about = "What we take"\nwhere = [["A copy", "https://example.org"]]\n'
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            GOOD_ENTRY.replace('section = "S"\n', ""),
            r"bibliography.toml:1:1: error: entry 1 \('a-source'\) .*"
            r"the field 'section' is missing",
        ),
        (GOOD_ENTRY.replace('about = "What we take"', "about = 3"), r"entry 1 \('a-source'\).*'about' must be a text"),
        (
            GOOD_ENTRY.replace('[["A copy", "https://example.org"]]', '"https://example.org"'),
            r"entry 1 \('a-source'\).*where must be a list of \[text, url\] pairs",
        ),
        (GOOD_ENTRY.replace('[["A copy", "https://example.org"]]', '[["A copy"]]'), r"where must be a list of"),
        (GOOD_ENTRY.replace('[["A copy", "https://example.org"]]', "[[1, 2]]"), r"where must be a list of"),
        (GOOD_ENTRY.replace("[[source]]", "[source]"), r"bibliography.toml is malformed: 'source' must be an array"),
        ('source = ["a-source"]\n', r"is malformed: an entry must be a table of fields"),
        (GOOD_ENTRY + GOOD_ENTRY, r"bibliography.toml:8:1: error: entry 2 .*already an earlier entry's"),
        (GOOD_ENTRY.replace('kind = "primary"', 'kind = "rumour"'), r"the kind 'rumour' is not one of primary"),
        (GOOD_ENTRY.replace('key = "a-source"', "key = 7"), r"entry 1 of the bibliography.*'key' must be a text"),
        (GOOD_ENTRY + 'colour = "red"\n', r"unknown field 'colour'"),
        ("title = 'x'\n" + GOOD_ENTRY, r"may hold only \[\[source\]\] entries, not 'title'"),
    ],
)
def test_a_malformed_bibliography_is_a_clear_error_naming_the_file_and_entry(tmp_path, monkeypatch, text, message):
    import landlord_dsl.checking.bibliography as bibliography

    (tmp_path / "bibliography.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(bibliography, "editions_dir", lambda: tmp_path)
    shipped_sources.cache_clear()
    try:
        with pytest.raises(ld.LandlordError, match=message) as caught:
            shipped_sources()
        assert str(tmp_path / "bibliography.toml") in str(caught.value)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            assert main(["sources"], io.StringIO()) == 1  # a user's error status, not 3 (internal)
    finally:
        shipped_sources.cache_clear()
