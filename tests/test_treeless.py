"""The parse without a parse tree (treeless.py) reads every text as the tree-building parse did (issue 17, loading).

Before, a file was parsed into a Lark tree with propagate_positions and
then transformed by the AstBuilder, two thirds of the parse's time. Now the
builder's methods run in Lark's reductions and a lexer reads whitespace with
the token after it. These tests hold the new path to the old one, kept here
as the reference: the same nodes with the same spans for every .lg file in
the repository and for mutated ones, and the same errors at the same places.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Tree
from lark.exceptions import UnexpectedInput
from lark.lexer import PatternRE

from landlord_dsl.language import ast, parser, treeless
from landlord_dsl.language.builder import AstBuilder
from landlord_dsl.language.grammar import lark_parser
from test_fuzz import mutated

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for p in ROOT.rglob("*.lg") if ".venv" not in p.parts and ".git" not in p.parts)
SOURCES = [p.read_text(encoding="utf-8") for p in FILES if p.parent.name in ("editions", "variants")]


def _same(a: Any, b: Any, where: str = "module") -> None:
    """Assert that a and b are the same nodes, compared field by field with their spans (which == leaves out)."""
    assert type(a) is type(b), where
    if attrs.has(type(a)):
        for f in attrs.fields(type(a)):
            _same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, tuple | list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def _with_tree(text: str, start: str = "start", at: Any = None) -> Any:
    """Return what the tree-building parse and AstBuilder.transform make of the text (the old path)."""
    return AstBuilder("f.lg", at).transform(lark_parser().parse(text, start=start))


def _outcome(read) -> Any:
    """Return what `read()` gives, or the syntax error it raises as (class, line, column, expected)."""
    try:
        return read()
    except UnexpectedInput as err:
        return type(err).__name__, err.line, err.column, sorted(getattr(err, "expected", None) or [])


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_in_the_repository_gives_the_same_nodes_at_the_same_spans(path):
    text = path.read_text(encoding="utf-8")
    _same(_outcome(lambda: treeless.build(AstBuilder("f.lg"), text, "start")), _outcome(lambda: _with_tree(text)))


@settings(max_examples=max(25, settings.default.max_examples // 4), deadline=None)
@given(mutated(SOURCES))
def test_mutated_files_give_the_same_nodes_or_the_same_error(text):
    _same(_outcome(lambda: treeless.build(AstBuilder("f.lg"), text, "start")), _outcome(lambda: _with_tree(text)))


@given(st.text(alphabet=' \n\t#"\\()[]{}+-*/%<>=!.,:abcdefinorstxy019_', max_size=60))
def test_any_expression_text_is_read_the_same(text):
    at = ast.Span("f.lg", 3, 4, 3, 9)
    _same(
        _outcome(lambda: treeless.build(AstBuilder("f.lg", at), text, "hole")),
        _outcome(lambda: _with_tree(text, "hole", at)),
    )


def test_a_file_is_parsed_without_making_a_lark_tree(monkeypatch):
    """The point of the change: no parse tree is built (the old parse made one node per rule reduced)."""
    text = (ROOT / "editions" / "landlords-game-1906.lg").read_text(encoding="utf-8")
    parser.parse(text, "warm.lg")  # the grammar and the callbacks are made before the count

    def no_tree(*args, **kwargs):
        raise AssertionError("a Lark tree was made")

    monkeypatch.setattr(Tree, "__init__", no_tree)
    assert parser.parse(text, "f.lg").header.name == "landlords-game-1906"


def test_a_rule_without_a_builder_method_still_gives_a_located_tree():
    """`without_interest` has no AstBuilder method: like Transformer.__default__, it stays a tree (with its meta)."""
    text = 'edition "x" { } rule r { on turn { repay loans without interest } }'
    module = parser.parse(text, "f.lg")
    _same(module.declarations, _with_tree(text)[1])
    assert module.declarations[0].handlers[0].body[0].interest is False


def test_after_a_syntax_error_the_parser_lists_what_it_accepts_as_lark_does():
    """Lark's `accepts()` feeds tokens to a copy of the parser state with no callbacks at all."""
    text = 'edition "x" { } const a = 1 1'

    def accepted(read) -> set[str]:
        with pytest.raises(UnexpectedInput) as info:
            read()
        return info.value.interactive_parser.accepts()

    ours = accepted(lambda: treeless.build(AstBuilder("f.lg"), text, "start"))
    assert ours == accepted(lambda: lark_parser().parse(text, start="start"))
    assert {"ADD_OP", "MUL_OP", "SOURCE", "RULE", "$END"} <= ours  # each reduces the 1 before it is taken


_PATTERNS = [
    r"[a-z_][a-z0-9_]*",
    r"-?\d+",
    r'"([^"\\\n]|\\.)*"',
    r"#[^\n]*",
    r"(?:[ \t\n])+",
    r"[^a-c]x",
    r"a|bc?|\w+",
    r"x*y",
]


@given(st.sampled_from(_PATTERNS), st.text(alphabet=' \n\t#"\\-_abcxyz019~é', min_size=1, max_size=6))
def test_a_terminal_matches_only_text_starting_with_one_of_its_first_characters(regexp, text):
    """The lexer leaves out, at a character, the terminals that cannot start with it (ByFirstCharacter)."""
    first = treeless.first_characters(PatternRE(regexp))
    if first is not None and text[0] < "\x80" and re.match(regexp, text):
        assert text[0] in first


def test_each_first_character_takes_the_terminals_a_token_can_start_with_in_the_lexers_order():
    parser.parse((ROOT / "editions" / "monopoly-1933-atlantic-city.lg").read_text(encoding="utf-8"), "f.lg")
    lexing = treeless.front_end()[0].lexer
    by_first = [starts for starts in lexing.lexers.values() if isinstance(starts, treeless.ByFirstCharacter)]
    assert by_first, "the parse used none"
    for starts in by_first:
        names = [name for name, _, _ in starts.terminals]
        for char, pattern in list(starts.items()):
            if pattern is treeless._NEVER or pattern is starts.whole:
                continue
            kept = [name for name in pattern.groupindex if name in names]
            assert kept == sorted(kept, key=names.index)  # the lexer's order, which decides between two matches
            assert "NAME" not in names or char not in "abcdefghijklmnopqrstuvwxyz_" or "NAME" in kept
    assert treeless.first_characters(type("P", (), {"flags": frozenset("i"), "type": "str", "value": "x"})()) is None


def test_a_grammar_built_afresh_gives_the_same_nodes(monkeypatch):
    """In a grammar built afresh, not read from the parser cache, Lark's rule names are Tokens, not str."""
    from lark import Lark

    from landlord_dsl.language import grammar

    fresh = Lark(grammar.grammar_path().read_text(encoding="utf-8"), **grammar._OPTIONS)
    text = (ROOT / "editions" / "landlords-game-1904.lg").read_text(encoding="utf-8")
    monkeypatch.setattr(treeless, "lark_parser", lambda: fresh)
    treeless.front_end.cache_clear()
    try:
        _same(parser.parse(text, "f.lg"), parser.parse(text, "f.lg"))
        module = parser.parse(text, "f.lg")
    finally:
        monkeypatch.undo()
        treeless.front_end.cache_clear()
    _same(module, parser.parse(text, "f.lg"))


_OLD_STRING = r'"([^"\\\n]|\\.)*"'  # the grammar's STRING until it was written unrolled (issue 31)


@given(st.text(alphabet='"\\\nab ', max_size=12))
def test_the_string_terminal_matches_what_it_matched_before_it_was_unrolled(text):
    (string,) = [t for t in lark_parser().terminals if t.name == "STRING"]
    now, before = re.match(string.pattern.value, text), re.match(_OLD_STRING, text)
    assert (now and now.group(0)) == (before and before.group(0))


def _fresh_callbacks() -> dict:
    """Return the grammar's reduction callbacks made afresh, none of them compiled yet."""
    import threading

    lark = lark_parser()
    return treeless.reduction_callbacks(lark._parse_tree_builder.rule_builders, lark.terminals, threading.local())


def test_a_rules_callback_is_compiled_on_its_first_call_and_then_called_directly():
    """A file uses about a third of the grammar's rules: each callback is compiled when first reduced, and then
    stands in the parser's table in place of the object that compiled it."""
    frontend, _ = treeless.front_end()
    table, callbacks = frontend.parser.parser.actions, frontend.parser.parser.callbacks
    parser.parse((ROOT / "editions" / "monopoly-1933-atlantic-city.lg").read_text(encoding="utf-8"), "m.lg")
    written = [c for c in callbacks.values() if callable(c) and hasattr(c, "source")]
    unwritten = [c for c in callbacks.values() if c.__class__ is treeless._Unwritten]
    assert written and unwritten  # (no file needs every rule)
    in_table = {id(entry[-1]) for row in table.values() for entry in row.values() if isinstance(entry, tuple)}
    assert {id(c) for c in written} <= in_table
    assert not any(c.reduce is not None for c in unwritten)


def test_the_callbacks_code_is_kept_in_the_private_cache_and_a_damaged_file_is_not_read(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    callbacks = _fresh_callbacks()
    codes = treeless._callbacks_compiled(callbacks)
    sources = {c.source for c in callbacks.values() if c.__class__ is treeless._Unwritten}
    assert set(codes) == sources
    [kept] = (tmp_path / "landlord-dsl").glob("reductions-*.marshal")
    assert (kept.stat().st_mode & 0o777) == 0o600
    again = treeless._callbacks_compiled(_fresh_callbacks())
    assert {s: c.co_code for s, c in again.items()} == {s: c.co_code for s, c in codes.items()}
    kept.write_bytes(b"not marshal data")
    assert treeless._callbacks_compiled(_fresh_callbacks()) == {}  # (each then compiled on its first call)
    callbacks = _fresh_callbacks()
    some = next(c for c in callbacks.values() if c.__class__ is treeless._Unwritten)
    assert callable(some.written()) and some.reduce is not None
