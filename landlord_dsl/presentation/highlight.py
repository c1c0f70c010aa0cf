"""A Pygments lexer for `.lg` rule files (alias `lg`, file pattern `*.lg`).

Registered as a Pygments plugin (the `pygments.lexers` entry point), so any
tool that highlights through Pygments -- mkdocs-material, Jupyter, `rich`,
`pygmentize -l lg` -- highlights `.lg` once landlord-dsl is installed.

The keyword lists are read from the grammar itself (every quoted word of
grammar/landlord.lark) and the built-in function names from the built-in
registry, so the lexer cannot fall behind the language. Pygments is needed
only by this module: `pip install 'landlord-dsl[highlight]'`.
"""

from __future__ import annotations

from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Generic, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from ..checking.builtins import BUILTINS
from ..language.grammar import grammar_words

CONSTANTS = ("true", "false", "none")
WORD_OPERATORS = ("and", "or", "not", "in")
CONFIDENCE = ("primary", "secondary", "code", "reconstruction", "original")


_ALL_WORDS, _DECLARATION_WORDS = grammar_words()
_OTHER_KEYWORDS = sorted(_ALL_WORDS - _DECLARATION_WORDS - set(CONSTANTS + WORD_OPERATORS + CONFIDENCE))


class LandlordLexer(RegexLexer):
    """Highlights the .lg rule language of landlord-dsl."""

    name = "Landlord rules"
    aliases = ["lg", "landlord"]
    filenames = ["*.lg"]
    url = "https://pypi.org/project/landlord-dsl/"

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "string"),
            (r"[0-9]+", Number.Integer),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(WORD_OPERATORS, suffix=r"\b"), Operator.Word),
            (words(CONFIDENCE, suffix=r"\b"), Keyword.Pseudo),
            (words(sorted(_DECLARATION_WORDS), suffix=r"\b"), Keyword.Declaration),
            (words(_OTHER_KEYWORDS, suffix=r"\b"), Keyword),
            (r"(" + "|".join(sorted(BUILTINS)) + r")(\s*)(?=\()", bygroups(Name.Builtin, Text)),
            (r"[a-z_][a-z0-9_]*(?=\s*\()", Name.Function),
            (r"[a-z_][a-z0-9_]*", Name),
            (r"==|!=|<=|>=|\+=|-=|[<>=+\-*/%]", Operator),
            (r"[{}()\[\].,:|]", Punctuation),
            (r".", Text),
        ],
        # A string's {holes} are expressions: highlight them as code.
        "string": [
            (r"\\.", String.Escape),
            (r"\{", String.Interpol, "hole"),
            (r'"', String.Double, "#pop"),
            (r'[^"\\{]+', String.Double),
        ],
        "hole": [
            (r"\}", String.Interpol, "#pop"),
            (r'"', String.Double, "string"),
            (r"[0-9]+", Number.Integer),
            (words(CONSTANTS + WORD_OPERATORS, suffix=r"\b"), Keyword),
            (r"[a-z_][a-z0-9_]*", Name),
            (r"[^}\"a-z_0-9]+", Operator),
        ],
    }


class LandlordDiffLexer(RegexLexer):
    """Pygments lexer for the text output of `landlord-dsl diff` (alias `lg-diff`), coloured as the terminal does.

    Removed lines are Generic.Deleted, added lines Generic.Inserted, changed
    declarations Generic.Subheading, sections (`consts (1)`) Generic.Strong;
    a first line `$ landlord-dsl diff ...` is a prompt and its command.
    """

    name = "landlord-dsl diff"
    aliases = ["lg-diff"]
    filenames: ClassVar[list[str]] = []

    tokens = {
        "root": [
            (r"(\$ )(.*\n)", bygroups(Generic.Prompt, Text)),
            (r"(---|\+\+\+) .*\n", Generic.Heading),
            (r"[a-z][a-z ]* \(\d+\)\n", Generic.Strong),
            (r" *~ .*\n", Generic.Subheading),
            (r" *- .*\n", Generic.Deleted),
            (r" *\+ .*\n", Generic.Inserted),
            (r".*\n", Text),
        ],
    }
