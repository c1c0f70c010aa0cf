"""Pass 1 (parsing): Lark's LALR parser run without a parse tree.

A tree-building parse (with propagate_positions) followed by
`AstBuilder.transform` spends most of its time making and walking Lark trees
that are thrown away. Here the grammar's parser (grammar.py: its tables, its
contextual lexer, its error handling and so the syntax-error recovery) is
given callbacks that call the AstBuilder's methods as each rule is reduced,
with the same children and the same positions, so it gives the same nodes at
the same spans. A reduction by a rule `?a: b` (ten for every operand of an
expression, through the precedence levels) only changes the parser's state.
One loop reads each token and shifts it (`_State.feed_text`), one match a
token: a pattern of only the terminals that can start with its first
character, followed by the whitespace and comments after it
(`ByFirstCharacter`). Each rule's callback is Python written for its symbols
(`_written_reduce`). `front_end` is made once per process; `build` parses
with it.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import marshal
import re
import sys
import threading
from collections.abc import Callable, Collection, Iterator
from functools import partial
from operator import itemgetter
from re import _constants as _re_constants  # (the first characters of a pattern)
from re import _parser as _re_parser
from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import UnlessCallback
from lark.parse_tree_builder import ChildFilter, ExpandSingleChild
from lark.parsers.lalr_analysis import Shift
from lark.parsers.lalr_interactive_parser import InteractiveParser
from lark.parsers.lalr_parser import ParseConf, ParserState, _Parser  # there whichever Lark module defines them
from lark.tree import Meta
from lark.visitors import _vargs_meta

from . import parser_cache
from .builder import AstBuilder
from .grammar import lark_parser


class _Reduced:
    """What one reduction leaves on the parser's stack: its value and the text it covers.

    The extent (line, column to end_line, end_column) is where Lark's
    propagate_positions would put the tree's container: a rule passed through
    by `?rule` takes the extent of its parentheses, say. It is also the meta
    an AstBuilder method taking `meta` is given. `children` is set only for
    Lark's helper rules (`x*`), which the rule around them takes in whole.
    """

    __slots__ = ("children", "column", "empty", "end_column", "end_line", "line", "value")

    def __init__(self, value: Any, children: list | None, first: Any, last: Any):
        self.value = value
        self.children = children
        if first is None:
            self.empty = True
        else:
            self.empty = False
            self.line, self.column = first.line, first.column
            self.end_line, self.end_column = last.end_line, last.end_column


# The callback of a rule `?a: b`, which hands b on as it is, extent and all: most reductions are these,
# and the parser (_State) makes them without calling it.
PASS_ON = itemgetter(0)


def _first_located(children: Any) -> Any:
    """Return the first token or non-empty reduction in `children`, or None."""
    for c in children:
        if c.__class__ is _Reduced:
            if not c.empty:
                return c
        elif isinstance(c, Token):
            return c
    return None


def reduction_callbacks(rule_builders: list, terminals: Collection[Any], current: Any) -> dict:
    """Return Lark LALR callbacks, by rule, that build the AST during the parse (each returns a _Reduced).

    The builder is `current.builder` at the time of the parse (it knows the
    file), so the callbacks are made once. `rule_builders` is Lark's list of
    (rule, wrapper chain): what the chain's child filter keeps is read from it
    once (`_include_plan`), and a rule's callback, written for its symbols
    (`_written_reduce`), keeps those children and makes their values, and
    finds the located children it spans; position propagation and
    single-child expansion are done here.
    """
    on_token = {t.name: getattr(AstBuilder, t.name) for t in terminals if hasattr(AstBuilder, t.name)}

    def values(filtered: list) -> list:
        return [
            c.value
            if c.__class__ is _Reduced
            else on_token[c.type](current.builder, c)
            if c.__class__ is Token and c.type in on_token
            else c
            for c in filtered
        ]

    def callback(rule: Any, chain: list) -> Any:
        name = rule.alias or rule.options.template_source or rule.origin.name
        kinds: list[Any] = [w.func if isinstance(w, partial) else w for w in chain]
        # Lark's own child filter, made to hand back the filtered list
        child_filter = next(
            (w(list) for w, kind in zip(chain, kinds) if isinstance(kind, type) and issubclass(kind, ChildFilter)), None
        )
        expand1 = ExpandSingleChild in chain
        if expand1 and child_filter is None and len(rule.expansion) == 1:
            return PASS_ON
        helper = name.startswith("_")
        method: Any = AstBuilder.__dict__.get(name)
        wrapper = getattr(method, "visit_wrapper", None)
        if wrapper is not None and wrapper is not _vargs_meta:
            raise TypeError(f"AstBuilder.{name}: only v_args(meta=True) is supported")
        with_meta = wrapper is _vargs_meta
        call = method.base_func if with_meta else method  # the function itself, without Lark's wrapper

        if expand1 or (call is None and not helper):
            return _generic_reduce(name, child_filter, expand1, helper, call, with_meta, values, current)
        plan, tail = _include_plan(child_filter, len(rule.expansion))
        return _written_reduce(rule, plan, tail, None if helper else call, with_meta, on_token, current)

    callbacks = {rule: callback(rule, chain) for rule, chain in rule_builders}
    for rule, made in callbacks.items():
        if made.__class__ is _Unwritten:
            made.places.append((callbacks, rule))
    return callbacks


def _generic_reduce(
    name: str, child_filter: Any, expand1: bool, helper: bool, call: Any, with_meta: bool, values: Any, current: Any
) -> Any:
    """Return the callback of a rule `?a: ...` that is not a pass-on, or of one the AstBuilder has no method for
    (which gives the tree itself, as Transformer.__default__ does)."""

    def reduce(children: list) -> Any:
        filtered = child_filter(children) if child_filter is not None else children
        if expand1 and len(filtered) == 1:
            child = filtered[0]
            if child.__class__ is not _Reduced or len(children) == 1:
                return child
            first = _first_located(children)
            if first is None:
                return child
            return _Reduced(child.value, child.children, first, _first_located(reversed(children)))
        first = _first_located(children)
        done = _Reduced(None, None, first, _first_located(reversed(children)) if first is not None else None)
        if helper:
            done.children = filtered
        elif call is None:  # what Transformer.__default__ gives: the tree itself
            meta = Meta()
            for key in ("line", "column", "end_line", "end_column", "empty"):
                if hasattr(done, key):
                    setattr(meta, key, getattr(done, key))
            done.value = Tree(name, values(filtered), meta)
        elif with_meta:
            done.value = call(current.builder, done, values(filtered))
        else:
            done.value = call(current.builder, values(filtered))
        return done

    return reduce


def _include_plan(child_filter: Any, size: int) -> tuple[tuple[tuple[int, bool, int], ...], int]:
    """Return what Lark's child filter of a rule of `size` symbols keeps: for each child kept, (its index,
    whether it is a helper rule whose children are taken in its place, the Nones put before it), and the
    Nones put after the last."""
    if child_filter is None:
        return tuple((i, False, 0) for i in range(size)), 0
    plan = tuple((entry[0], entry[1], entry[2] if len(entry) > 2 else 0) for entry in child_filter.to_include)
    return plan, getattr(child_filter, "append_none", 0)


def _value_of(builder: Any, c: Any, on_token: dict) -> Any:
    """Return the value a child of a reduction stands for: a reduction's value, a token through the builder's
    method for its terminal if it has one, else the child itself."""
    if c.__class__ is _Reduced:
        return c.value
    if c.__class__ is Token and c.type in on_token:
        return on_token[c.type](builder, c)
    return c


def _written_reduce(
    rule: Any, plan: tuple, tail: int, call: Any, with_meta: bool, on_token: dict, current: Any
) -> _Unwritten:
    """Return the callback of a rule (not a `?rule`) as Python written for its symbols, compiled on its first
    call (`_Unwritten`): its children unpacked, the values of those Lark's child filter keeps (`plan`,
    `tail`: `_include_plan`) in one list display, the first and the last located child (`_first_located`)
    found by tests of the children that can be empty reductions, up to the first token from each end (a
    token is always located), and then the builder's method `call` made on them, or, for a helper rule
    (`call` None: Lark's `x*`), the kept children themselves left for the rule around it, which takes
    them in whole.

    Straight-line code for each rule, where a loop over the plan took about twice the interpreter's
    steps; the parses of every file are held to the tree-building parse by the tests.
    """
    symbols = rule.expansion
    size = len(symbols)
    names: dict[str, Any] = {
        "_Reduced": _Reduced,
        "Token": Token,
        "_new": object.__new__,
        "_value_of": _value_of,
        "_on_token": on_token,
        "_current": current,
        "_call": call,
    }
    lines = ["def reduce(children):"]
    if size:
        lines.append(f"    {''.join(f'c{i}, ' for i in range(size))}= children")
    uses_builder = call is not None
    kept: list[str] = []
    for i, expand, nones in plan:
        kept += ["None"] * nones
        symbol = symbols[i]
        if call is None:  # a helper rule keeps its children as they are
            kept.append(f"*c{i}.children" if expand else f"c{i}")
        elif expand:
            kept.append(f"*[_value_of(builder, c, _on_token) for c in c{i}.children]")
        elif symbol.is_term and symbol.name in on_token:
            names[f"_convert{i}"] = on_token[symbol.name]
            kept.append(f"(_convert{i}(builder, c{i}) if c{i}.__class__ is Token else c{i})")
        elif symbol.is_term:
            kept.append(f"c{i}")
        else:
            kept.append(f"(c{i}.value if c{i}.__class__ is _Reduced else _value_of(builder, c{i}, _on_token))")
    kept += ["None"] * tail
    if uses_builder:
        lines.append("    builder = _current.builder")
    lines.append(f"    kept = [{', '.join(kept)}]")
    lines.append("    done = _new(_Reduced)")

    def located(order: list[int], name: str, indent: str) -> list[str]:
        """The lines that set `name` to the first located child in `order` (None if there is none)."""
        out: list[str] = []
        for k, i in enumerate(order):
            if symbols[i].is_term:
                out.append(f"{indent}else:\n{indent}    {name} = c{i}" if k else f"{indent}{name} = c{i}")
                return out
            test = f"c{i}.__class__ is not _Reduced or not c{i}.empty"
            out.append(f"{indent}{'elif' if k else 'if'} {test}:\n{indent}    {name} = c{i}")
        out.append(f"{indent}else:\n{indent}    {name} = None" if out else f"{indent}{name} = None")
        return out

    every = list(range(size))
    extent = ["empty = False", "line = first.line", "column = first.column"]
    extent += ["end_line = last.end_line", "end_column = last.end_column"]
    lines += located(every, "first", "    ")
    if any(symbol.is_term for symbol in symbols):  # (then a child is located, and so is the reduction)
        lines += located(every[::-1], "last", "    ")
        lines += [f"    done.{field}" for field in extent]
    else:
        lines.append("    if first is None:\n        done.empty = True\n    else:")
        lines += located(every[::-1], "last", "        ")
        lines += [f"        done.{field}" for field in extent]
    if call is None:
        lines.append("    done.value = None\n    done.children = kept")
    else:
        lines.append("    done.children = None")
        arguments = "builder, done, kept" if with_meta else "builder, kept"
        lines.append(f"    done.value = _call({arguments})")
    lines.append("    return done")
    return _Unwritten("\n".join(lines) + "\n", names)


class _Unwritten:
    """A rule's callback as Python source not compiled yet: compiled when the rule is first reduced.

    A file uses about a third of the grammar's rules, and compiling all of them took about 70 ms of a
    process's first parse; so each is compiled on its first call (rules written alike share one code
    object), and then takes this object's place wherever the parser reads the callback (`places`: the
    rows of `fast_actions`' table and the callbacks by rule), so later reductions call it directly.
    """

    __slots__ = ("names", "places", "reduce", "source")

    def __init__(self, source: str, names: dict[str, Any]):
        self.source, self.names = source, names
        self.places: list[tuple[dict, Any]] = []  # (a dict, its key): this object, or an action ending with it
        self.reduce: Callable[[list], _Reduced] | None = None

    def __call__(self, children: list) -> _Reduced:
        reduce = self.reduce
        if reduce is None:
            reduce = self.written()
        return reduce(children)

    def written(self) -> Callable[[list], _Reduced]:
        """Return the callback compiled (once), put in every place this object held."""
        code = _WRITTEN.get(self.source)
        if code is None:
            code = _WRITTEN[self.source] = compile(self.source, "<reduction>", "exec")
        exec(code, self.names)
        reduce = self.reduce = self.names["reduce"]
        reduce.source = self.source  # (for the curious reader: what was written)
        for where, key in self.places:
            held = where[key]
            where[key] = reduce if held is self else (*held[:-1], reduce)
        return reduce


_WRITTEN: dict[str, Any] = {}  # the code of each rule's callback by its source (rules written alike share it)


def _callbacks_compiled(callbacks: dict) -> dict[str, Any]:
    """Return the code of every unwritten callback among `callbacks` by its source, as the private parser cache
    keeps it (compiled and stored there the first time), or an empty dict where there is no such cache or
    its file is damaged (each callback is then compiled on its first call)."""
    sources = sorted({c.source for c in callbacks.values() if c.__class__ is _Unwritten})
    key = hashlib.sha256("\0".join(sources).encode("utf-8")).hexdigest()[:32]
    name = f"reductions-{key}-{sys.implementation.cache_tag}.marshal"
    data = parser_cache.remembered(name, lambda: marshal.dumps([compile(s, "<reduction>", "exec") for s in sources]))
    if data is None:
        return {}
    try:
        codes = marshal.loads(data)
    except Exception:  # a damaged cache file: the callbacks are compiled as they are first called
        return {}
    if not isinstance(codes, list) or len(codes) != len(sources):
        return {}
    return dict(zip(sources, codes, strict=True))


_ASCII = frozenset(map(chr, range(128)))
# what each category of a character class holds among the ASCII characters
_CATEGORIES = {
    getattr(_re_constants, f"CATEGORY_{name}"): frozenset(c for c in _ASCII if re.match(escape, c))
    for name, escape in (
        ("DIGIT", r"\d"),
        ("NOT_DIGIT", r"\D"),
        ("SPACE", r"\s"),
        ("NOT_SPACE", r"\S"),
        ("WORD", r"\w"),
        ("NOT_WORD", r"\W"),
    )
}


def _starts(items: Any) -> tuple[frozenset[str] | None, bool]:
    """Return the ASCII characters a match of a parsed regular expression's items can start with (None: any
    character, as far as this analysis can tell) and whether the items can match the empty string."""
    chars: frozenset[str] = frozenset()
    for op, arg in items:
        first, empty = _starts_of(op, arg)
        if first is None:
            return None, False
        chars |= first
        if not empty:
            return chars, False
    return chars, True


def _starts_of(op: Any, arg: Any) -> tuple[frozenset[str] | None, bool]:
    """`_starts` of one item of a parsed regular expression."""
    if op is _re_constants.LITERAL:
        return frozenset([chr(arg)]) & _ASCII, False
    if op is _re_constants.NOT_LITERAL:
        return _ASCII - {chr(arg)}, False
    if op is _re_constants.IN:
        chars: set[str] = set()
        negated = False
        for kind, value in arg:
            if kind is _re_constants.NEGATE:
                negated = True
            elif kind is _re_constants.LITERAL:
                chars.add(chr(value))
            elif kind is _re_constants.RANGE:
                chars.update(chr(c) for c in range(value[0], min(value[1], 127) + 1))
            elif kind is _re_constants.CATEGORY and value in _CATEGORIES:
                chars |= _CATEGORIES[value]
            else:
                return None, False
        return (_ASCII - chars if negated else frozenset(chars) & _ASCII), False
    if op is _re_constants.SUBPATTERN:
        _, add_flags, del_flags, items = arg
        return (None, False) if add_flags or del_flags else _starts(items)
    if op is _re_constants.BRANCH:
        union: frozenset[str] = frozenset()
        can_be_empty = False
        for items in arg[1]:
            first, empty = _starts(items)
            if first is None:
                return None, False
            union, can_be_empty = union | first, can_be_empty or empty
        return union, can_be_empty
    if op in (_re_constants.MAX_REPEAT, _re_constants.MIN_REPEAT):
        least, _, items = arg
        first, empty = _starts(items)
        return first, least == 0 or empty
    return None, False  # anchors, look-arounds, back-references, any character...


def first_characters(pattern: Any) -> frozenset[str] | None:
    """Return the ASCII characters a token of a Lark terminal's `pattern` can start with, or None if that is
    not known (it may start with any: a pattern with flags, one that matches the empty string, ...)."""
    if pattern.flags:
        return None
    if pattern.type == "str":
        return frozenset(pattern.value[:1]) & _ASCII if pattern.value else None
    try:
        first, empty = _starts(_re_parser.parse(pattern.value).data)
    except Exception:  # (a pattern the analysis does not follow: every character kept)
        return None
    return None if empty else first


# the pattern of a character no token can start with: Lark's lexer then reads (and reports) what is there
_NEVER = re.compile("(?!)")


class ByFirstCharacter(dict):
    """A contextual lexer's pattern split by the character a token starts with, each followed by the skipped text.

    For an ASCII character, the pattern of the lexer's terminals whose
    tokens can start with it, in the lexer's order, or `_NEVER` if none can:
    Python's regular expressions take the first alternative that matches, so
    leaving out those that cannot match there changes no match, and it saves
    entering every other terminal's group, a token's dearest step. Any other
    character takes the whole pattern, and the end of the text `_NEVER`. Each
    is made when its character is first met.

    Every pattern ends with `skip`, the whitespace and comments (the lexer's
    ignored terminals): a match reads the token, its group, and then what is
    skipped before the next token, so the text takes one match a token. The
    skipped text can always be empty, so it changes neither which alternative
    matches nor how much of the text it takes. The ignored terminals are left
    out of the alternatives: a token's pattern is matched where `skip` has
    read all it could, so none of them could match there.
    """

    def __init__(self, lexer: Any, made: dict[tuple, re.Pattern], skip: str):
        scanner = lexer.scanner
        self.lexer = lexer
        self.special = special_kinds(lexer)
        self.skip = skip
        self.made = made  # patterns of the same terminals, shared by every lexer
        self.terminals = [
            (t.name, t.pattern.to_regexp(), first_characters(t.pattern))
            for t in scanner.terminals
            if t.name not in lexer.ignore_types
        ]

    def _made(self, kept: tuple) -> re.Pattern:
        """Return the pattern of the terminals `kept` ((name, regexp) in the lexer's order), then `skip`."""
        if not kept:
            return _NEVER
        pattern = self.made.get(kept)
        if pattern is None:
            alternatives = "|".join(f"(?P<{name}>{regexp})" for name, regexp in kept)
            pattern = self.made[kept] = re.compile(f"(?:{alternatives}){self.skip}")
        return pattern

    @functools.cached_property
    def whole(self) -> re.Pattern:
        """Return the pattern of all the lexer's terminals (made when first needed: a big pattern, and most
        parses never meet a character outside ASCII)."""
        return self._made(tuple((name, regexp) for name, regexp, _ in self.terminals))

    def __missing__(self, char: str) -> re.Pattern:
        if not char:  # the end of the text: no token matches there (Lark refuses a terminal that can be empty)
            pattern = _NEVER
        elif char not in _ASCII:
            pattern = self.whole
        else:
            pattern = self._made(
                tuple((name, regexp) for name, regexp, first in self.terminals if first is None or char in first)
            )
        self[char] = pattern
        return pattern


class _LarkReads(dict):
    """The patterns of a lexer whose every token Lark's lexer reads: `_NEVER` at every character."""

    def __init__(self, lexer: Any):
        self.lexer = lexer
        self.special = special_kinds(lexer)

    def __missing__(self, char: str) -> re.Pattern:
        return _NEVER


def special_kinds(lexer: Any) -> dict[str, tuple[bool, dict[str, str] | None]]:
    """Return the lexer's terminals whose tokens need more than a match, each with (whether its tokens may
    hold a newline, the keywords that Lark's callback of the terminal gives another terminal or None).

    The keywords: Lark's `UnlessCallback` gives a word the terminal NAME also matches (a keyword) the
    keyword's terminal; read here as a dict of those words, each with its terminal. Where the terminal's
    callback is not only that, the dict is None, and `feed_text` calls the callback.
    """
    special: dict[str, tuple[bool, dict[str, str] | None]] = {}
    for name in lexer.newline_types:
        special[name] = (True, {})
    for name, callback in lexer.callback.items():
        words: dict[str, str] | None = None
        if type(callback) is UnlessCallback and not callback.scanner.g_regex_flags:
            terminals = callback.scanner.terminals
            if all(t.pattern.type == "str" and not t.pattern.flags for t in terminals):
                words = {}
                for t in terminals:
                    words.setdefault(t.pattern.value, t.name)  # (the first that matches, as its fullmatch)
        special[name] = (name in lexer.newline_types, words)
    return special


class SkippingLexer:
    """The parser state's lexers as `_State.feed_text` reads with them: the whitespace and comments before
    the first token in one match, then each token with the state's lexer's pattern for its first character,
    which also reads the whitespace and comments after it (`ByFirstCharacter`).

    The ignored terminals (the same in every state) are read with one
    pattern, `skip`; where a token's pattern gives anything but a token,
    Lark's lexer takes over from the end of the token before and reads (or
    reports) exactly as it would have. The grammar is strict, so no terminal
    can match where an ignored one does, and taking those first changes
    nothing. Lark's own paths that ask for tokens (`lex`) get them from Lark's
    contextual lexer.
    """

    def __init__(self, contextual: Any):
        self.contextual = contextual
        self.root_lexer = root = contextual.root_lexer
        ignored = [t for t in root.terminals if t.name in root.ignore_types]
        self.skip_text = "(?:" + "|".join(t.pattern.to_regexp() for t in ignored) + ")*"
        self.skip = re.compile(self.skip_text)
        self.lexers = _Lexers(self)  # by parser state, its lexer's patterns by first character
        self.made: dict[tuple, re.Pattern] = {}  # (ByFirstCharacter's, shared by every lexer)

    def patterns(self, lexer: Any) -> ByFirstCharacter | _LarkReads:
        """Return the lexer's one pattern (its alternatives) by first character (`ByFirstCharacter`), or
        `_LarkReads` if Lark's lexer must read every token (a pattern split in several, an ignored terminal
        with a callback, or flags that the skipped text would be read with too)."""
        scanner = lexer.scanner
        one = len(scanner._mres) == 1 and not any(t in lexer.callback for t in lexer.ignore_types)
        if one and not scanner.g_regex_flags:
            return ByFirstCharacter(lexer, self.made, self.skip_text)
        return _LarkReads(lexer)

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Token]:
        """Yield the tokens from where `lexer_state` is, as Lark's contextual lexer reads them."""
        return self.contextual.lex(lexer_state, parser_state)


class _Lexers(dict):
    """The patterns by first character of each parser state's lexer, made when the state is first met, since
    Lark builds each lexer then (few states are ever used); states with one lexer share them."""

    def __init__(self, lexing: SkippingLexer):
        self.lexing = lexing
        self.made: dict[int, ByFirstCharacter | _LarkReads] = {}  # by the lexer's id

    def __missing__(self, state: Any) -> ByFirstCharacter | _LarkReads:
        lexer = self.lexing.contextual.lexers[state]  # (KeyError for a state that has none, as Lark)
        patterns = self.made.get(id(lexer))
        if patterns is None:
            patterns = self.made[id(lexer)] = self.lexing.patterns(lexer)
        self[state] = patterns
        return patterns


class _Conf(ParseConf):
    """Lark's parse configuration with its table as `_State.feed_text` reads it fastest (`actions`), made for
    the callbacks `fast_for` (a copy given other callbacks, as Lark's `accepts()` makes, is fed from Lark's
    table by `feed_token`)."""

    __slots__ = ("actions", "chains", "fast_for", "on_token")
    actions: dict
    on_token: dict  # (the callbacks by a terminal's name: the value shifted for its tokens)
    chains: dict  # (the state below, the state on top, the token's type): the top after a run of PASS_ON reductions
    fast_for: dict


def fast_actions(states: dict, callbacks: dict) -> dict:
    """Return Lark's LALR table `states` (by state, by terminal or rule name: (Shift, state) or (Reduce, rule))
    as values that need no attribute or hash of a Rule, told apart by their class: a shift, the state
    alone (an int); a reduction by a rule whose callback is PASS_ON, the rule's name (a str); any other
    reduction, (the rule's name, its length, its callback)."""
    actions: dict = {}
    for state, row in states.items():
        made = actions[state] = {}
        for name, (action, arg) in row.items():
            if action is Shift:
                made[name] = arg
            elif callbacks[arg] is PASS_ON:
                made[name] = str(arg.origin.name)  # (a plain str: in a grammar built afresh, Lark's names are Tokens)
            else:
                callback = callbacks[arg]
                made[name] = (arg.origin.name, len(arg.expansion), callback)
                if callback.__class__ is _Unwritten:
                    callback.places.append((made, name))
    return actions


class _State(ParserState):
    """Lark's LALR parser state, reading the text in one loop (`feed_text`) and reducing by a PASS_ON rule in
    place (it changes the state, not the value)."""

    __slots__ = ()

    def feed_text(self, lexing: SkippingLexer, lexer_state: Any) -> Token | None:
        """Read every token of the text from where `lexer_state` is and shift it, as `lexing.lex` and
        `feed_token` would one after the other; return the last token read, or None if there was none.

        One loop for both, without a generator to resume or a call per token: the lexer's and the
        parser's steps are those of `SkippingLexer.lex` and `feed_token` (which the tests hold it to).
        The line counter and the state on top of the stack are kept in locals; the counter is put back
        in `lexer_state` whenever Lark's lexer reads, and when the loop ends (an error's report and the
        recovery read it).
        """
        conf = self.parse_conf
        assert isinstance(conf, _Conf)  # (parse_from_state calls this for no other)
        actions, chains = conf.actions, conf.chains
        on_token = conf.on_token
        state_stack, value_stack = self.state_stack, self.value_stack
        lexers, skip, make = lexing.lexers, lexing.skip, str.__new__
        line_ctr = lexer_state.line_ctr
        text = lexer_state.text
        source, stop, newline = text.text, text.end, line_ctr.newline_char
        # the counter: the end of the last token read, its line, where that line starts
        pos, line, line_start = line_ctr.char_pos, line_ctr.line, line_ctr.line_start_pos
        # where the next token starts, when the last token's pattern read what is skipped after it; else -1,
        # and the counter's locals are lexer_state's (Lark's lexer read last, or nothing was read)
        start = -1
        state = state_stack[-1]
        token = None
        shift = int  # (an action of this class is a shift)
        pass_on = str  # (and of this class, a reduction by a PASS_ON rule)
        try:
            while True:
                starts = lexers[state]
                if start < 0:
                    start = skip.match(source, pos, stop).end()  # type: ignore[union-attr] # `*` always matches
                try:
                    pattern = starts[source[start]]
                except IndexError:  # (the end of the text)
                    pattern = starts[""]
                m = pattern.match(source, start, stop)
                if m is None:
                    line_ctr.char_pos, line_ctr.line, line_ctr.line_start_pos = pos, line, line_start
                    line_ctr.column = pos - line_start + 1
                    start = -1
                    token = starts.lexer.next_token(lexer_state, self)  # (it may end the loop: EOFError, an error)
                    pos, line, line_start = line_ctr.char_pos, line_ctr.line, line_ctr.line_start_pos
                    kind = token.type
                else:
                    kind = m.lastgroup
                    if start != pos:
                        lines = source.count(newline, pos, start)
                        if lines:
                            line += lines
                            line_start = source.rindex(newline, pos, start) + 1
                    pos = m.end(kind)
                    value = source[start:pos]
                    token = make(Token, value)
                    token.type = kind
                    token.start_pos = start
                    token.value = value
                    token.line = line
                    token.column = start - line_start + 1
                    special = starts.special
                    if kind in special:
                        newlines, words = special[kind]
                        if newlines:
                            lines = source.count(newline, start, pos)
                            if lines:
                                line += lines
                                line_start = source.rindex(newline, start, pos) + 1
                        if words is None:
                            token.end_line, token.end_column, token.end_pos = line, pos - line_start + 1, pos
                            token = starts.lexer.callback[kind](token)
                            kind = token.type
                        elif value in words:
                            kind = token.type = words[value]
                    token.end_line = line
                    token.end_column = pos - line_start + 1
                    token.end_pos = pos
                    start = m.end()
                    lexer_state.last_token = token
                # the token shifted, after the reductions it calls for (feed_token's loop, never at the end)
                while True:
                    try:
                        entry = actions[state][kind]
                    except KeyError:
                        expected = {s for s in conf.states[state] if s.isupper()}
                        raise UnexpectedToken(token, expected, state=self, interactive_parser=None) from None
                    if entry.__class__ is shift:
                        state = entry
                        state_stack.append(state)
                        value_stack.append(on_token[kind](token) if on_token and kind in on_token else token)
                        break
                    if entry.__class__ is pass_on:
                        below = state_stack[-2]
                        key = (below, state, kind)
                        after = chains.get(key)
                        if after is None:
                            after = actions[below][entry]
                            while (then := actions[after].get(kind)).__class__ is pass_on:
                                after = actions[below][then]
                            chains[key] = after
                        state = state_stack[-1] = after
                    else:
                        origin, size, callback = entry
                        if size:
                            children = value_stack[-size:]
                            del state_stack[-size:]
                            del value_stack[-size:]
                        else:
                            children = []
                        value = callback(children)
                        state = actions[state_stack[-1]][origin]
                        state_stack.append(state)
                        value_stack.append(value)
        except EOFError:
            return token
        except UnexpectedCharacters as e:  # as Lark's ContextualLexer.lex: a token of another context is named
            try:
                last_token = lexer_state.last_token
                named = lexing.root_lexer.next_token(lexer_state, self)
                raise UnexpectedToken(
                    named,
                    e.allowed,
                    state=self,
                    token_history=[last_token],
                    terminals_by_name=lexing.root_lexer.terminals_by_name,
                ) from None
            except UnexpectedCharacters:
                raise e from None
        finally:
            if start >= 0:
                line_ctr.char_pos, line_ctr.line, line_ctr.line_start_pos = pos, line, line_start
                line_ctr.column = pos - line_start + 1

    def feed_token(self, token: Token, is_end: bool = False) -> Any:
        """Shift the token after every reduction it calls for, as Lark's ParserState.feed_token does, a
        reduction by a PASS_ON rule in place: for the end of the text, and for Lark's own paths (its
        `accepts()` feeds tokens to a copy of the state with no callbacks)."""
        state_stack, value_stack = self.state_stack, self.value_stack
        states, end_state, callbacks = self.parse_conf.states, self.parse_conf.end_state, self.parse_conf.callbacks
        while True:
            state = state_stack[-1]
            try:
                action, arg = states[state][token.type]
            except KeyError:
                expected = {s for s in states[state] if s.isupper()}
                raise UnexpectedToken(token, expected, state=self, interactive_parser=None) from None
            if action is Shift:
                assert not is_end
                state_stack.append(arg)
                value_stack.append(token if token.type not in callbacks else callbacks[token.type](token))
                return None
            # no callbacks at all: Lark's `accepts()` trying tokens, for which the value is the children list
            callback = callbacks[arg] if callbacks else list
            if callback is PASS_ON:
                state_stack[-1] = states[state_stack[-2]][arg.origin.name][1]
            else:
                size = len(arg.expansion)
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value = callback(children)
                state_stack.append(states[state_stack[-1]][arg.origin.name][1])
                value_stack.append(value)
            if is_end and state_stack[-1] == end_state:
                return value_stack[-1]


class _TreelessParser(_Parser):
    """Lark's LALR parser, with the state above and its table made once as the state reads it."""

    def __init__(self, parse_table: Any, callbacks: dict, debug: bool = False):
        super().__init__(parse_table, callbacks, debug)
        self.actions = fast_actions(parse_table.states, callbacks)
        self.on_token = {name: call for name, call in callbacks.items() if isinstance(name, str)}
        self.chains: dict = {}

    def parse(
        self, lexer: Any, start: str, value_stack: Any = None, state_stack: Any = None, start_interactive: bool = False
    ) -> Any:
        """Parse as Lark's _Parser.parse does (or return the interactive parser)."""
        conf = _Conf(self.parse_table, self.callbacks, start)
        conf.actions, conf.chains, conf.fast_for = self.actions, self.chains, self.callbacks
        conf.on_token = self.on_token
        parser_state = _State(conf, lexer, state_stack, value_stack)
        if start_interactive:
            return InteractiveParser(self, parser_state, parser_state.lexer)
        return self.parse_from_state(parser_state)

    def parse_from_state(self, state: Any, last_token: Token | None = None) -> Any:
        """Run the parser to the end of the text, as Lark's `_Parser.parse_from_state` does (and from where a
        syntax error's interactive parser resumes), reading and shifting the tokens in one loop where it can."""
        thread = state.lexer
        lexing = getattr(thread, "lexer", None)
        conf = state.parse_conf
        if not (isinstance(lexing, SkippingLexer) and isinstance(conf, _Conf) and conf.callbacks is conf.fast_for):
            return super().parse_from_state(state, last_token)
        try:
            token = state.feed_text(lexing, thread.state) or last_token
            end_token = Token.new_borrow_pos("$END", "", token) if token else Token("$END", "", 0, 1, 1)
            return state.feed_token(end_token, True)
        except UnexpectedInput as e:
            e.interactive_parser = InteractiveParser(self, state, thread)
            raise e


@functools.lru_cache(maxsize=1)
def front_end() -> tuple[Any, threading.local]:
    """Return the grammar's parsing front end with AST-building callbacks and the skipping lexer, and where
    the callbacks find the builder of the parse under way (per thread)."""
    lark = lark_parser()
    current = threading.local()
    frontend = copy.copy(lark.parser)
    frontend.lexer = SkippingLexer(frontend.lexer)
    frontend.parser = copy.copy(frontend.parser)
    callbacks = reduction_callbacks(lark._parse_tree_builder.rule_builders, lark.terminals, current)
    _WRITTEN.update(_callbacks_compiled(callbacks))
    frontend.parser.parser = _TreelessParser(frontend.parser._parse_table, callbacks)
    return frontend, current


def build(builder: AstBuilder, text: str, start: str, on_error: Any = None) -> Any:
    """Return what `builder` makes of the text read from rule `start` (Lark's exceptions pass through)."""
    frontend, current = front_end()
    outer = getattr(current, "builder", None)
    current.builder = builder
    try:
        return frontend.parse(text, start, on_error).value
    finally:
        current.builder = outer
