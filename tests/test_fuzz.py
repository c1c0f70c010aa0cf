"""Fuzz tests: no input text makes landlord-dsl raise anything but LandlordError.

For every generated text, `ld.check` must return a list of diagnostics (empty
when the text is a valid edition) and never raise; `load_text` must return a
RuleSet or raise LandlordError, never anything else. Every diagnostic must
render, and must point inside the text it is about.

Inputs come from four sources: arbitrary text, a soup of the language's own
tokens, strings generated from the Lark grammar itself, and mutations of the
real 1906 edition (and of the golden error files). Two more families go
through files rather than text: bytes that are not UTF-8 text (BOMs, UTF-16,
binary), and hostile folders of symlinks that `extends` must not leave.

The number of examples comes from the Hypothesis profile selected by
LANDLORD_HYPOTHESIS_PROFILE (see conftest.py): "ci" by default, "thorough" to
hunt. The xfail tests at the end are reproducers of crashes found so far.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

import landlord_dsl as ld
from landlord_dsl.checking.loader import RuleSet, load_text
from landlord_dsl.compiling.compiler import checked
from landlord_dsl.core.errors import Diagnostic, LandlordError, visible
from landlord_dsl.core.installation import shown_name
from landlord_dsl.core.resources import grammar_path
from landlord_dsl.language.grammar import lark_parser
from landlord_dsl.language.limits import MAX_INT

ROOT = Path(__file__).resolve().parent.parent
EDITION_1906 = (ROOT / "editions" / "landlords-game-1906.lg").read_text(encoding="utf-8")
GOLDEN_SOURCES = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / "golden" / "errors").glob("*.lg"))]
FILE = "fuzz.lg"
HEADER = 'edition "fuzz" { players 2 to 4 }\n'

# Characters str.splitlines() treats as line breaks although Lark does not
# (see test_eof_line_is_a_line_of_the_file below); with them in the text the
# quoted line and the columns may be off, so only the looser checks apply.
_SPLITLINES_ONLY = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


# ------------------------------------------------------------------ contract
def _file_text(name: str, text: str) -> str:
    if name == FILE:
        return text
    with open(name, encoding="utf-8", newline="") as f:  # as the parser saw it: a lone \r stays a \r
        return f.read()


def _assert_inside(d: Diagnostic, text: str) -> None:
    assert isinstance(d, Diagnostic)
    rendered = d.render()
    assert isinstance(rendered, str) and visible(d.message) in rendered
    # nothing from the input reaches the terminal raw (issue 13, item 3): only our own line breaks
    assert visible(rendered, keep="\n") == rendered, rendered
    assert d.span is not None, rendered  # every problem in a file is located, `extends` targets included
    source = _file_text(d.span.file, text)
    span = d.span
    assert 1 <= span.line <= len(source.splitlines()) + 1, rendered
    assert span.column >= 1, rendered
    assert (span.end_line, span.end_column) >= (span.line, span.column), rendered
    # (a shipped file, a base the text extends, by its file name alone)
    assert rendered.startswith(f"{shown_name(span.file)}:{span.line}:{span.column}: "), rendered
    if any(ch in source.replace("\r\n", "\n") for ch in _SPLITLINES_ONLY):
        return
    lines = source.split("\n")
    assert span.line <= len(lines), rendered
    line = lines[span.line - 1].rstrip("\r")
    assert span.column <= len(line) + 2, rendered
    if source:
        assert d.line_text == line, rendered


def assert_contract(text: str) -> None:
    """The property every input must satisfy."""
    diags = ld.check(text, FILE)  # must not raise at all
    assert isinstance(diags, list)
    for d in diags:
        _assert_inside(d, text)
    try:
        rules = checked(load_text(text, FILE))
    except LandlordError as err:
        assert err.diagnostics, "a LandlordError must carry at least one diagnostic"
        assert list(err.diagnostics) == diags
        assert str(err) == err.render()
    else:
        assert isinstance(rules, RuleSet)
        assert all(d.severity == "warning" for d in diags)  # a valid file gets at most warnings of old forms


# ----------------------------------------------------------------- (a) text
@given(st.text())
def test_arbitrary_text(text: str):
    assert_contract(text)


@given(st.text())
def test_arbitrary_text_after_a_valid_header(text: str):
    assert_contract(HEADER + text)


@pytest.mark.slow
@given(st.text(alphabet=st.characters(codec="ascii"), max_size=200))
def test_arbitrary_ascii_inside_a_valid_edition(text: str):
    # lands in the middle of a rule body, where the most grammar is reachable
    marker = "pay 10 from player to treasury as fine\n"
    at = EDITION_1906.index(marker)
    assert_contract(EDITION_1906[:at] + text + EDITION_1906[at:])


# --------------------------------------------------------------- the grammar
def _generator_lark() -> Lark:
    """The project's Lark object, or, when it was loaded from Lark's cache (which drops the
    grammar that hypothesis.extra.lark needs), the same grammar loaded afresh."""
    lark = lark_parser()
    if hasattr(lark, "grammar"):
        return lark
    return Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", maybe_placeholders=True)


GRAMMAR = _generator_lark()
_TERMINALS = list(GRAMMAR.terminals)
_KEYWORDS = sorted({t.pattern.value for t in _TERMINALS if t.pattern.type == "str"})


# ------------------------------------------------------------ token soup
_NAMES = [
    "x",
    "y",
    "go",
    "lot",
    "elm",
    "treasury",
    "tresury",
    "player",
    "players",
    "here",
    "origin",
    "dice",
    "spaces",
    "due",
    "creditor",
    "card",
    "max",
    "min",
    "len",
    "percent",
    "via",
    "owns_all",
    "count_owned",
    "price",
    "rent",
    "owner",
    "cash",
    "total",
    "double",
    "fares",
    "corners",
    "chance_cards",
    "f",
    "r",
    "s",
    "p",
    "tax",
    "pot",
]
_SOUP_TOKENS = (
    _KEYWORDS
    + _NAMES
    + [
        '"x"',
        '"landlords-game-1906"',
        "0",
        "1",
        "2",
        "4",
        "100",
        "==",
        "!=",
        "<",
        ">=",
        "+",
        "*",
        "/",
        "%",
        "-",
        "#c\n",
        "\n",
    ]
)
_SMALL_EDITION = (
    HEADER
    + """account treasury "T"
account pot "P"
purpose tax "Taxes"
reroute tax to pot
group corners "C"
kind start "S" { }
kind lot "Lot" titled { price: int rent: int }
table fares { 1: 5, 2: 10 }
board {
    space go "Go" : start in corners
    space elm "Elm" : lot { price = 60, rent = 4 }
}
deck chance_cards "Chance" returned { card a "A" { } }
"""
)


@given(st.lists(st.sampled_from(_SOUP_TOKENS), max_size=60))
def test_token_soup(tokens: list[str]):
    assert_contract(_SMALL_EDITION + " ".join(tokens))


@given(st.lists(st.sampled_from(_SOUP_TOKENS), max_size=40))
def test_token_soup_inside_a_rule(tokens: list[str]):
    assert_contract(_SMALL_EDITION + "rule r {\n on land lot {\n" + " ".join(tokens) + "\n }\n}\n")


# ------------------------------------------------------- (b) from the grammar
def _spaced(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return strategy.map(lambda s: s + " ")


_NAME = st.one_of(st.sampled_from(_NAMES), st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True))
_STRING = st.one_of(
    st.sampled_from(['"x"', '""', '"A label"', '"landlords-game-1906"', '"broker"', '"a \\" quote"']),
    st.from_regex(r'"[a-z ]{0,10}"', fullmatch=True),
)
_INT = st.one_of(st.sampled_from(["0", "1", "2", "4", "100"]), st.integers(0, 10**6).map(str))


def _reachable_terminals(start: str) -> set[str]:
    _, rules, ignore = GRAMMAR.grammar.compile([start], ())
    used = {sym.name for rule in rules for sym in rule.expansion if sym.is_term}
    return used | set(ignore)


def _explicit(
    spaced: bool, start: str = "start", name: st.SearchStrategy[str] = _NAME
) -> dict[str, st.SearchStrategy[str]]:
    """Sane strategies for the terminals; with `spaced`, each token is followed by a space,
    so that keywords never run into each other ("players2") and most strings parse."""
    wrap = _spaced if spaced else (lambda s: s)
    explicit = {
        "NAME": wrap(name),
        "STRING": wrap(_STRING),
        "INT": wrap(_INT),
        "COMMENT": st.just("# comment\n"),
        "WS": st.sampled_from([" ", "\n", "  ", "\n    ", "\t"]),
    }
    if spaced:
        for t in _TERMINALS:
            if t.pattern.type == "str":
                explicit[t.name] = st.just(t.pattern.value + " ")
        explicit["COMPARE"] = st.sampled_from(["==", "!=", "<=", ">=", "<", ">"]).map(lambda s: s + " ")
        explicit["ADD_OP"] = st.sampled_from(["+ ", "- "])
        explicit["MUL_OP"] = st.sampled_from(["* ", "/ ", "% "])
    reachable = _reachable_terminals(start)
    return {k: v for k, v in explicit.items() if k in reachable}


@given(from_lark(GRAMMAR, explicit=_explicit(spaced=True)))
def test_grammar_generated(text: str):
    assert_contract(text)


@given(from_lark(GRAMMAR, explicit=_explicit(spaced=False)))
def test_grammar_generated_unspaced(text: str):
    assert_contract(text)


# Statements and expressions generated from the grammar, using only names the
# small edition declares (and the context names), so that most of them get past
# name resolution and exercise the type checker.
_DECLARED_NAMES = st.sampled_from(
    [
        "treasury",
        "corners",
        "go",
        "elm",
        "lot",
        "start",
        "fares",
        "chance_cards",
        "wages",
        "houses",
        "f",
        "r",
        "player",
        "players",
        "player_count",
        "here",
        "origin",
        "dice",
        "spaces",
        "due",
        "creditor",
        "card",
        "x",
        "max",
        "min",
        "len",
        "percent",
        "ahead",
        "via",
        "owns_all",
        "owners",
        "debt",
        "price",
        "rent",
        "owner",
        "cash",
        "total",
        "double",
        "seat",
        "titles",
        "cards",
        "title",
        "space",
        "name",
        "index",
        "balance",
    ]
)
_TYPED_EDITION = (
    _SMALL_EDITION
    + """const wages = 100
space var houses = 0
player var in_jail = false
function f(x: int) = x + 1
"""
)


@pytest.mark.slow
@given(
    from_lark(GRAMMAR, start="block", explicit=_explicit(spaced=True, start="block", name=_DECLARED_NAMES)),
    st.sampled_from(["land lot", "pass go", "turn", "shortfall", "setup"]),
)
def test_grammar_generated_rule_bodies(block: str, event: str):
    assert_contract(_TYPED_EDITION + f"rule r {{\n    on {event} " + block + "\n}\n")


# from_lark(start="expr") overruns its data budget on most draws (the expression
# rules are very recursive), so expressions come from a size-bounded strategy
# that follows the same grammar.
_FIELDS = st.sampled_from(
    [
        "price",
        "rent",
        "owner",
        "cash",
        "total",
        "double",
        "seat",
        "titles",
        "cards",
        "title",
        "space",
        "name",
        "index",
        "balance",
        "houses",
        "in_jail",
        "holder",
    ]
)
_LEAVES = st.one_of(_DECLARED_NAMES, st.sampled_from(["0", "1", "-3", "100", '"x"', '""', "true", "false", "none"]))


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(
            inner, st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "and", "or", "in", "not in"]), inner
        ).map(" ".join),
        st.tuples(st.sampled_from(["not ", "-"]), inner).map("".join),
        st.tuples(inner, _FIELDS).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(_DECLARED_NAMES, st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        st.lists(inner, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
        st.tuples(st.sampled_from(["sum", "count", "all", "any", "filter"]), inner, inner).map(
            lambda t: f"{t[0]}(x in {t[1]}: {t[2]})"
        ),
        inner.map(lambda e: f"({e})"),
    )


EXPRESSIONS = st.recursive(_LEAVES, lambda inner: _extend(inner), max_leaves=12)


@given(
    EXPRESSIONS,
    st.sampled_from(
        [
            "const c = {}\n",
            "function g(y: int) = {}\n",
            "end when {}\n",
            "score {}\n",
            "table t2 {{ 1: {} }}\n",
            "player var v = {}\n",
            "rule q {{ on turn {{ let y = {}\n pay y from player to treasury }} }}\n",
            "rule q {{ on land lot {{ if {} {{ roll dice }} }} }}\n",
            "rule q {{ on shortfall {{ for y in {} {{ pay due from player to y }} }} }}\n",
            "rule q {{ on turn {{ set houses = {} }} }}\n",
        ]
    ),
)
def test_generated_expressions(expr: str, where: str):
    assert_contract(_TYPED_EDITION + where.format(expr))


def test_grammar_generated_strings_mostly_parse():
    """Guard the generator itself: spaced grammar strings must usually get past the parser,
    or test_grammar_generated would only exercise syntax errors."""
    from hypothesis import HealthCheck, settings

    parsed, total = 0, 0

    @settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(from_lark(GRAMMAR, explicit=_explicit(spaced=True)))
    def sample(text: str):
        nonlocal parsed, total
        total += 1
        try:
            ld.parse(text, FILE)
            parsed += 1
        except LandlordError:
            pass

    sample()
    assert total and parsed / total > 0.5, (parsed, total)


# --------------------------------------------------- (c) mutations of sources
_WORD = re.compile(r"[a-z_][a-z0-9_]*")
_INSERTABLE = list('{}()[]":=,.|#-+<>\n \t0x') + ["if", "else", "on", "rule", "none", "player", "to"]


@st.composite
def mutated(draw, sources: list[str]) -> str:
    text = draw(st.sampled_from(sources))
    vocabulary = sorted(set(_WORD.findall(text)))
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        op = draw(
            st.sampled_from(
                [
                    "del_line",
                    "dup_line",
                    "swap_lines",
                    "move_line",
                    "del_char",
                    "dup_char",
                    "swap_chars",
                    "insert",
                    "del_range",
                    "replace_word",
                ]
            )
        )
        if op in ("del_line", "dup_line", "swap_lines", "move_line"):
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if op == "del_line":
                del lines[i]
            elif op == "dup_line":
                lines.insert(j, lines[i])
            elif op == "swap_lines":
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines.insert(j, lines.pop(i))
            text = "\n".join(lines)
        elif not text:
            text = draw(st.sampled_from(_INSERTABLE))
        elif op == "replace_word":
            matches = list(_WORD.finditer(text))
            if matches and vocabulary:
                m = matches[draw(st.integers(0, len(matches) - 1))]
                text = text[: m.start()] + draw(st.sampled_from(vocabulary)) + text[m.end() :]
        else:
            i = draw(st.integers(0, len(text) - 1))
            if op == "del_char":
                text = text[:i] + text[i + 1 :]
            elif op == "dup_char":
                text = text[:i] + text[i] + text[i:]
            elif op == "swap_chars":
                j = min(i + 1, len(text) - 1)
                text = text[:i] + text[j] + text[i] + text[j + 1 :]
            elif op == "insert":
                text = text[:i] + draw(st.sampled_from(_INSERTABLE)) + text[i:]
            else:
                n = draw(st.integers(1, 200))
                text = text[:i] + text[i + n :]
    return text


@pytest.mark.slow
@given(mutated([EDITION_1906]))
def test_mutations_of_the_1906_edition(text: str):
    assert_contract(text)


@given(mutated(GOLDEN_SOURCES))
def test_mutations_of_the_golden_error_files(text: str):
    assert_contract(text)


@pytest.mark.slow
@given(
    mutated(
        [
            'edition "v" { extends "landlords-game-1906" }\n'
            "remove rule central_park\n"
            "const wages = 200\n"
            'board { space fuel "Fuel" : necessity in two_way }\n'
            'rule taxes "Taxes" { on land necessity { pay 2 * tax_due() from player to treasury } }\n'
        ]
    )
)
def test_mutations_of_a_variant(text: str):
    assert_contract(text)


def test_unmutated_sources_satisfy_the_contract():
    assert_contract(EDITION_1906)
    assert ld.check(EDITION_1906, FILE) == []
    for source in GOLDEN_SOURCES:
        assert_contract(source)


# ------------------------------------------------ crashes found (reproducers)
_TABLE_EDITION = (
    HEADER
    + """account treasury "T"
kind start "S" { }
table fares { 1: 5, 2: 10 }
board { space go "Go" : start }
"""
)


@pytest.mark.parametrize(
    "decl, use",
    [
        ("", "let t = fares\n        pay t[1] from player to treasury"),
        ("const c = fares\n", "pay c[1] from player to treasury"),
    ],
    ids=["local", "const"],
)
def test_table_through_a_name_is_no_crash(decl: str, use: str):
    # was a KeyError in the checker (m.tables[<the local's name>]); fixed
    assert_contract(_TABLE_EDITION + decl + "rule r {\n    on turn {\n        " + use + "\n    }\n}\n")


@pytest.mark.parametrize(
    "decl, expr",
    [
        ("function f() = fares\n", "f()[1]"),
        ("", "(if true then fares else fares)[1]"),
    ],
    ids=["call", "conditional"],
)
def test_table_through_an_expression_is_no_crash(decl: str, expr: str):
    assert_contract(_TABLE_EDITION + decl + f"rule r {{ on turn {{ pay {expr} from player to treasury }} }}\n")


@pytest.mark.parametrize(
    "expr",
    [
        "+".join(["1"] * 400),
        " and ".join(["true"] * 400),
        "not " * 600 + "true",
        "- " * 600 + "1",
    ],
    ids=["sum-400", "and-400", "not-600", "negate-600"],
)
def test_long_expressions_are_no_crash(expr: str):
    assert sys.getrecursionlimit() <= 10_000
    try:
        assert_contract(_TABLE_EDITION + f"const c = {expr}\n")
    except RecursionError as err:
        # re-raised without its thousand frames, which pytest would take seconds to format
        raise RecursionError(str(err)) from None


def test_long_extends_target_is_no_crash():
    assert_contract('edition "v" { extends "' + "a" * 300 + '" }\n')


def test_eof_line_is_a_line_of_the_file():
    text = 'edition "x" {\x0c\x0c'
    (d,) = ld.check(text, FILE)
    assert d.span.line == 1


# ---------------------------------------------------------------- formatting


def _round_trips(text: str) -> None:
    """Whatever parses formats to text that parses to the same tree, and formatting is idempotent."""
    try:
        module = ld.parse(text, "fmt.lg")
    except LandlordError:
        return
    out = ld.format_source(text, "fmt.lg")
    assert ld.parse(out, "fmt.lg") == module, out
    assert ld.format_source(out, "fmt.lg") == out


@given(from_lark(GRAMMAR, explicit=_explicit(spaced=True)))
def test_format_round_trip_on_generated_files(text: str):
    _round_trips(text)


@given(mutated([EDITION_1906] + GOLDEN_SOURCES))
def test_format_round_trip_on_mutated_editions(text: str):
    _round_trips(text)


# several expressions side by side, so that most lines are wider than the width before formatting
_LONG_EXPRESSIONS = st.lists(st.recursive(_LEAVES, _extend, max_leaves=20), min_size=2, max_size=8).flatmap(
    lambda items: st.sampled_from([" or ", " and ", " + ", " == ", ", "]).map(
        lambda op: f"max({op.join(items)})" if op == ", " else f"{op.join(items)}"
    )
)


@given(
    _LONG_EXPRESSIONS,
    st.sampled_from(
        [
            "const c = {}\n",
            "function g(y: int) = {}\n",
            "end when {}\n",
            "score {}\n",
            "rule q {{ on turn {{ let y = {}\n pay y from player to treasury }} }}\n",
            "rule q {{ on land lot {{ if {} {{ roll dice }} }} }}\n",
            "rule q {{ on turn {{ pay {} from player to treasury }} }}\n",
            "rule q {{ on turn {{ for p in players {{ if p != player {{ set houses = {} }} }} }} }}\n",
            'rule q {{ on turn {{ choose "C" {{ option a when {} cost 1 {{ }} }} }} }}\n',
        ]
    ),
)
def test_formatted_lines_fit_the_width(expr: str, where: str):
    """Issue 18 item 14: every formatted line fits the width (no token here is long), and formatting
    still keeps the meaning and is idempotent."""
    from landlord_dsl.language.formatter import WIDTH

    text = _TYPED_EDITION + where.format(expr)
    try:
        ld.parse(text, "fmt.lg")
    except LandlordError:
        return
    _round_trips(text)
    out = ld.format_source(text, "fmt.lg")
    assert all(len(line) <= WIDTH for line in out.splitlines()), out


# ------------------------------------- fixed values and numbers without bound
# A file that checks must also compile and play without a Python error: values
# fixed before the game that cannot be worked out (a division by zero, a
# missing key, a number past the range, a value defined from itself) are check
# errors, and numbers or texts that grow as the game runs stop at the limits
# with a located run-time error (see "Limits" in docs/language/types-and-errors.md).
_FIXED_EDITION = """edition "fuzz" {{ players 2 to 4 turn limit 12 }}
account bank "Bank" unlimited
option opt "O" = 0
kind start "Start" {{ }}
kind lot "Lot" titled {{ price: int }}
group pair
board {{
    space go "Go" : start in pair
    space elm "Elm" : lot {{ price = {0} }} in pair
}}
const big = 1000000000000000
const c = {1}
table t {{ 1: {2}, 2: 5 }}
var v = {3}
rule r "R" {{ on turn {{ pay max(0, min(c + t[2] + v + elm.price, 1000)) from bank to player }} }}
"""
_NUMBERS = st.sampled_from(
    [
        "0",
        "1",
        "-1",
        "7",
        "big",
        "opt",
        "c",
        "t[1]",
        "t[2]",
        "t[0]",
        "[1, 2][0]",
        "[1, 2][2]",
        "elm.price",
        "go.price",
        "len(pair)",
        "count(s in pair: s == go)",
    ]
)


def _arithmetic(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%"]), inner).map(lambda t: f"({' '.join(t)})"),
        inner.map(lambda e: f"-{e}"),
        st.tuples(st.sampled_from(["min", "max", "percent"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        inner.map(lambda e: f"sum(s in pair: {e})"),
    )


FIXED_NUMBERS = st.recursive(_NUMBERS, _arithmetic, max_leaves=10)


def _plays_or_fails_located(text: str, turns_at_most: int) -> None:
    """A file that checks compiles and plays a game to its end, or stops with a located LandlordError."""
    try:
        rules = load_text(text, FILE)
    except LandlordError:
        return
    try:
        game = ld.new_game(rules, players=2, seed=0)
        game.play()
    except LandlordError as err:
        assert err.diagnostics and err.render()
        return
    assert game.turn <= turns_at_most
    assert all(abs(v) <= MAX_INT for v in game.gv if isinstance(v, int)) and game.conserved()


@given(FIXED_NUMBERS, FIXED_NUMBERS, FIXED_NUMBERS, FIXED_NUMBERS)
def test_generated_fixed_values(field: str, const: str, entry: str, initial: str):
    text = _FIXED_EDITION.format(field, const, entry, initial)
    assert_contract(text)
    _plays_or_fails_located(text, 12)


_GROWING_EDITION = """edition "fuzz" {{ players 2 to 4 turn limit 40 }}
account bank "Bank" unlimited
account pool "Pool"
purpose dues "Dues"
reroute dues to pool
kind start "Start" {{ }}
board {{
    space go "Go" : start
    space elsewhere "Elsewhere" : start
}}
var v = 3
var w = 2
var words: text = "ab"
function f(n: int) = {0}
action a(n: int) {{
    set w = {1}
}}
rule r "R" {{ on turn {{
    {2}
}} }}
"""
_GROWING_LEAVES = st.sampled_from(
    ["v", "w", "n", "2", "1000000000000000", "player.cash", "bank.balance", "turn_number"]
)
GROWING_NUMBERS = st.recursive(
    _GROWING_LEAVES,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "*", "/"]), inner).map(lambda t: f"({' '.join(t)})"),
        inner.map(lambda e: f"f({e})"),
        inner.map(lambda e: f"percent({e}, 300)"),
        inner.map(lambda e: f"sum(s in spaces: {e})"),
    ),
    max_leaves=6,
)


def _statement(e: str) -> st.SearchStrategy[str]:
    e = re.sub(r"\bn\b", "v", e)  # `n` is a parameter of f and a: elsewhere it is v
    return st.sampled_from(
        [
            f"set v = {e}",
            f"set v += {e}",
            f"set w = {e}",
            f"do a({e})",
            f"let x = {e}\n set v = x",
            f"for s in spaces {{ set v = {e} }}",
            f"for p in players {{ for s in spaces {{ set w += {e} }} }}",
            "set words = words + words",
            f"pay abs({e}) from bank to player",
            "pay abs(v) from bank to players[0]",
            f"pay abs({e}) from player to bank as dues",
            "pay pool.balance from pool to player",
            f"for x in [{e}, 1] {{ set v = x }}",
            f"let l = [{e}]\n set v = sum(x in l: x)",
        ]
    )


@given(GROWING_NUMBERS, GROWING_NUMBERS, st.lists(GROWING_NUMBERS.flatmap(_statement), min_size=1, max_size=4))
def test_generated_growing_numbers(function_body: str, action_value: str, statements: list[str]):
    """Squaring, doubling, adding to itself, through functions, actions, loops and payments: the game
    ends or stops at a limit with a located error, never with a Python error or without end."""
    if re.search(r"\bf\(", function_body):
        function_body = "n * n"  # f may not call itself
    text = _GROWING_EDITION.format(function_body, action_value, "\n    ".join(statements))
    assert_contract(text)
    _plays_or_fails_located(text, 40)


# ------------------------------------------- (d) bytes that are not UTF-8 text
_VALID_HEAD = 'edition "x" {\n    players 2 to 4\n}\nkind k "K" { }\nboard { space a "A" : k }\n'
_ENCODED = st.one_of(
    st.binary(max_size=400),
    st.tuples(
        st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00"]),
        st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "cp1252"]),
        st.text(max_size=80),
    ).map(lambda t: t[0] + (_VALID_HEAD + t[2]).encode(t[1], "replace")),
    st.tuples(st.binary(max_size=8), st.integers(0, len(_VALID_HEAD))).map(
        lambda t: _VALID_HEAD.encode()[: t[1]] + t[0] + _VALID_HEAD.encode()[t[1] :]
    ),
)


@given(_ENCODED)
def test_files_that_are_not_utf8_text(data: bytes):
    """Whatever bytes a .lg file holds, check and fmt give a LandlordError or a result, never a crash,
    and a file that is not UTF-8 text is named for what it is, at a place inside it."""
    import tempfile

    from landlord_dsl.checking.loader import load
    from landlord_dsl.language.sourcefile import read_source

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.lg"
        path.write_bytes(data)
        try:
            text = read_source(path)
        except LandlordError as err:
            (d,) = err.diagnostics
            assert d.span is not None and d.span.file == str(path) and d.span.line <= data.count(b"\n") + 1
            assert d.message.startswith("the file "), d.message
            assert visible(d.render(), keep="\n") == d.render()
            return
        assert text == data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # universal newlines
        try:
            load(path)
        except LandlordError as err:
            for d in err.diagnostics:
                _assert_inside(d, text) if d.span is not None and d.span.file == str(path) else d.render()


# -------------------------------------------- (e) hostile folders and symlinks
_SECRET = "secret-root:x:0:0"
_ENTRY = st.sampled_from(["a.lg", "b.lg", "sub/c.lg", "sub", "loop.lg", "up.lg"])
# links out of the folder are drawn as often as all the others together
_LINK_TARGET = st.one_of(
    st.sampled_from(["OUT/secret.lg", "OUT"]),
    st.sampled_from(
        ["a.lg", "b.lg", "sub/c.lg", "sub", "loop.lg", "/", "/etc/passwd", "../x.lg", "MISSING.lg", "SHIPPED"]
    ),
)
_EXTENDS = st.one_of(
    st.sampled_from(
        [
            "a.lg",
            "b.lg",
            "sub/c.lg",
            "loop.lg",
            "up.lg",
            "../outside/secret.lg",
            "/etc/passwd.lg",
            "sub/../a.lg",
            "./a.lg",
            "landlords-game-1906",
            "sub",
            "",
            "a.lg/",
        ]
    ),
    st.from_regex(r"[a-z./]{1,12}\.lg", fullmatch=True),
)


@st.composite
def _hostile_folder(draw) -> tuple[list, str, str]:
    """Return folder entries (name, symlink target or None for a file), an `extends` target, the file to load."""
    entries = draw(st.lists(st.tuples(_ENTRY, st.one_of(st.none(), _LINK_TARGET)), max_size=6))
    start = draw(st.sampled_from(["a.lg", "b.lg", "sub/c.lg"]))
    named = [name for name, _ in entries if name != start]
    # most often extend one of the entries, where the symlinks are
    extends = draw(st.sampled_from(named) if named and draw(st.booleans()) else _EXTENDS)
    return entries, extends, start


@given(_hostile_folder())
def test_hostile_folders_of_symlinks(folder_layout):
    """However a variant's folder is laid out with symlinks (to files outside it, to folders, to
    themselves), loading gives a result or a LandlordError, and never reads a file outside."""
    import tempfile

    entries, extends, start = folder_layout

    from landlord_dsl.checking.loader import load
    from landlord_dsl.core.resources import editions_dir

    with tempfile.TemporaryDirectory() as top:
        top_path = Path(top)
        outside, folder = top_path / "outside", top_path / "variant"
        outside.mkdir()
        for name in ("secret.lg", "c.lg"):  # c.lg: what sub/c.lg finds when sub leads outside
            (outside / name).write_text(_SECRET + "\n")
        (folder / "sub").mkdir(parents=True)
        shipped = editions_dir() / "landlords-game-1906.lg"
        entry = folder / start  # the file the user names is a real file in the folder; the rest is hostile
        entry.write_text(f'edition "v" {{\n    extends "{extends}"\n}}\n')
        for name, target in entries:
            path = folder / name
            if path.is_symlink() or path.exists():
                continue
            if target is None:
                path.write_text(f'edition "{path.stem}" {{\n    extends "{extends}"\n}}\n')
            else:
                real = {"OUT/secret.lg": outside / "secret.lg", "OUT": outside, "SHIPPED": shipped}.get(target)
                path.symlink_to(real if real is not None else target)
        try:
            rules = load(entry)
        except LandlordError as err:
            assert _SECRET not in err.render() and "root" not in err.render()
            return
        for module in (
            rules.modules[1:] if Path(rules.modules[0].source_name).resolve() == shipped.resolve() else rules.modules
        ):
            assert _SECRET not in module.source_text
