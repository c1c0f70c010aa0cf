"""The Pygments lexer for .lg files: registered, complete, and in step with the grammar."""

from __future__ import annotations

import re

import pytest

pygments = pytest.importorskip("pygments")

from pygments.lexers import get_lexer_by_name, get_lexer_for_filename  # noqa: E402
from pygments.token import Comment, Error, Keyword, Name, Operator, String  # noqa: E402

from landlord_dsl.checking.builtins import BUILTINS  # noqa: E402
from landlord_dsl.core.resources import shipped_files  # noqa: E402
from landlord_dsl.language.grammar import keyword_terminals  # noqa: E402
from landlord_dsl.presentation.highlight import LandlordLexer, grammar_words  # noqa: E402


def _tokens(text: str) -> list[tuple]:
    return list(LandlordLexer().get_tokens(text))


def test_the_lexer_is_found_by_alias_and_by_file_name():
    # the pygments.lexers entry point in pyproject.toml is what mkdocs and Jupyter use
    assert isinstance(get_lexer_by_name("lg"), LandlordLexer)
    assert isinstance(get_lexer_for_filename("house-rules.lg"), LandlordLexer)


@pytest.mark.parametrize("name", sorted(shipped_files()))
def test_every_shipped_file_lexes_without_error_tokens_and_loses_nothing(name):
    text = shipped_files()[name].read_text(encoding="utf-8")
    tokens = _tokens(text)
    assert [value for kind, value in tokens if kind is Error] == []
    assert "".join(value for _, value in tokens) == text + ("" if text.endswith("\n") else "\n")


def test_every_quoted_word_of_the_grammar_is_a_keyword_of_the_lexer():
    words, declarations = grammar_words()
    # the words of the parser's own keyword terminals: a quoted example in a comment of the grammar
    # (`choices "a" | "b"`) is not one, and must not colour a variable named `a`
    assert words == set(keyword_terminals())
    assert not {"a", "b", "lalr"} & words
    assert {"rule", "edition", "const", "deck", "card", "space", "var", "remove"} <= declarations
    for word in sorted(words):
        (kind, value), *_ = _tokens(word)
        assert (value == word and kind in Keyword) or kind is Operator.Word, word


def test_the_parts_of_a_rule_get_their_own_token_kinds():
    text = (
        'rule r "A rule" source "none: a test" secondary {\n'
        "  on land lot { pay max(here.price, 5) from player to bank }  # rent\n}\n"
    )
    kinds = {value: kind for kind, value in _tokens(text) if value.strip()}
    assert kinds["rule"] is Keyword.Declaration
    assert kinds["on"] is Keyword and kinds["pay"] is Keyword
    assert kinds["secondary"] is Keyword.Pseudo
    assert kinds["max"] is Name.Builtin and "max" in BUILTINS
    assert kinds["here"] is Name
    assert kinds["# rent"] in Comment
    assert kinds["A rule"] is String.Double


def test_a_text_hole_is_highlighted_as_an_expression():
    kinds = [(kind, value) for kind, value in _tokens('"Pay {here.price} to {owner}?"') if value.strip()]
    assert (String.Interpol, "{") in kinds and (Name, "price") in kinds and (Name, "owner") in kinds


def test_every_rule_code_block_in_the_docs_is_marked_lg():
    """A fenced block whose first word opens a declaration or statement is .lg code: it is fenced ```lg."""
    from pathlib import Path

    words, _ = grammar_words()
    root = Path(__file__).resolve().parents[1]
    unmarked = []
    for page in sorted((root / "docs").rglob("*.md")):
        for block in re.findall(r"```text\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            first = next(
                (line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith("#")), ""
            )
            word = re.match(r"[a-z_]+", first)
            if word and word.group(0) in words and not first.startswith("landlord-dsl"):
                unmarked.append(f"{page.name}: {first[:60]}")
    assert unmarked == []


def test_the_diff_lexer_colours_each_line_as_the_terminal_does():
    """`lg-diff`, the docs' fence for `landlord-dsl diff` output, colours each line as --color always does."""
    import io

    from pygments.token import Generic

    from landlord_dsl.cli.main import main
    from landlord_dsl.presentation.highlight import LandlordDiffLexer

    assert isinstance(get_lexer_by_name("lg-diff"), LandlordDiffLexer)
    runs = {}
    for colour in ("never", "always"):
        out = io.StringIO()
        main(
            ["diff", "landlords-game-1906", "landlords-game-1906-monopolist-demonstration", "--color", colour], out=out
        )
        runs[colour] = out.getvalue().splitlines()
    kinds = {}
    for token, value in LandlordDiffLexer().get_tokens("\n".join(runs["never"]) + "\n"):
        kinds.setdefault(value.rstrip("\n"), token)
    expected = {
        "\x1b[31m": Generic.Deleted,
        "\x1b[32m": Generic.Inserted,
        "\x1b[33m": Generic.Subheading,
        "\x1b[1m": Generic.Strong,
    }
    checked = 0
    for plain, coloured in zip(runs["never"], runs["always"]):
        want = next((kind for code, kind in expected.items() if coloured.startswith(code)), None)
        if want is not None:
            assert kinds[plain] == want, plain
            checked += 1
    assert checked > 10
