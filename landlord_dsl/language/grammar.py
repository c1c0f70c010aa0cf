"""Pass 1 (parsing): the grammar, loaded once per process.

`lark_parser` builds the LALR parser of grammar/landlord.lark (strict, with
positions), kept in parser_cache; `keyword_terminals` lists the grammar's
word keywords, which the syntax-error hints and the recovery look for;
`grammar_words` and `event_names` read the grammar's text for the tools
that must not fall behind it (the Pygments lexer, the editor's completion).
"""

from __future__ import annotations

import functools
import re

from lark import Lark

from ..core.resources import grammar_path
from . import parser_cache

# strict=True proves the grammar free of conflicts and terminal collisions, an analysis that takes half a
# second; the built parser is kept in a cache only this user can write (parser_cache), keyed by the grammar's hash.
_OPTIONS: dict = {
    "parser": "lalr",
    "start": ["start", "hole"],
    "strict": True,
    "propagate_positions": True,
    "maybe_placeholders": True,
}


@functools.lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """Return the LALR parser of the grammar (starts `start` for a file, `hole` for a text's `{...}`)."""
    return parser_cache.build(grammar_path().read_text(encoding="utf-8"), **_OPTIONS)


def prepared_tables(python: tuple[int, int] | None = None) -> tuple[str, bytes]:
    """Return the grammar's parser tables, built here, for an installation of this lark on this Python
    (or the `python` given, (3, 13) say): the file name to give them in its parser cache folder
    (parser_cache.cache_dir()) and their bytes. There `lark_parser` loads them instead of building the
    parser (about 1.6 s under Pyodide): the Play page ships them (docs/play-in-browser.md)."""
    return parser_cache.prepared(grammar_path().read_text(encoding="utf-8"), python, **_OPTIONS)


@functools.lru_cache(maxsize=1)
def keyword_terminals() -> dict[str, str]:
    """Return the grammar's word keywords, each with its terminal's name."""
    return {
        t.pattern.value: t.name
        for t in lark_parser().terminals
        if t.pattern.type == "str" and t.pattern.value.isalpha()
    }


_LITERAL = re.compile(r'"([a-z_]+)"')
_DECLARATION = re.compile(r'^(?:\w+_decl|header):\s*(?:\[\w+\]\s*)?"([a-z_]+)"', re.MULTILINE)
_EVENT_RULE = re.compile(r"^!?event:(.*)$", re.MULTILINE)
_COMMENT = re.compile(r"//[^\n]*")


def _grammar_rules() -> str:
    """Return the grammar's text without its comments (whose quoted examples are not keywords)."""
    return _COMMENT.sub("", grammar_path().read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def grammar_words() -> tuple[frozenset[str], frozenset[str]]:
    """Return (every keyword of the grammar, the words that open a declaration), read from its text."""
    text = _grammar_rules()
    return frozenset(_LITERAL.findall(text)), frozenset(_DECLARATION.findall(text))


@functools.lru_cache(maxsize=1)
def event_names() -> tuple[str, ...]:
    """Return the events a handler's `on` takes (`setup`, `turn`, ...), in the grammar's order."""
    event = _EVENT_RULE.search(_grammar_rules())
    return tuple(_LITERAL.findall(event.group(1))) if event else ()
