"""Pass 1 (parsing): Lark's LALR parser run without a parse tree.

A tree-building parse (with propagate_positions) followed by
`AstBuilder.transform` spends most of its time making and walking Lark trees
that are thrown away. Here the grammar's parser (grammar.py: its tables, its
contextual lexer, its error handling and so the syntax-error recovery) is
given callbacks that call the AstBuilder's methods as each rule is reduced,
with the same children and the same positions, so it gives the same nodes at
the same spans. A reduction by a rule `?a: b` (ten for every operand of an
expression, through the precedence levels) only changes the parser's state.
One loop reads each token and shifts it (`_State.feed_text`): whitespace and
comments in one match, then the token with a pattern of only the terminals
that can start with its first character (`ByFirstCharacter`). `front_end` is
made once per process; `build` parses with it.
"""

from __future__ import annotations

import copy
import functools
import re
import threading
from collections.abc import Collection, Iterator
from functools import partial
from operator import itemgetter
from re import _constants as _re_constants  # (the first characters of a pattern)
from re import _parser as _re_parser
from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.parse_tree_builder import ChildFilter, ExpandSingleChild
from lark.parsers.lalr_analysis import Shift
from lark.parsers.lalr_interactive_parser import InteractiveParser
from lark.parsers.lalr_parser import ParseConf, ParserState, _Parser  # there whichever Lark module defines them
from lark.tree import Meta
from lark.visitors import _vargs_meta

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
    once (`_include_plan`), and a rule's callback keeps those children and
    makes their values in one loop, finding the located children it spans
    from the rule's symbols (`_located_finders`); position propagation and
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
        first_of, last_of = _located_finders([sym.is_term for sym in rule.expansion])
        if helper:

            def reduce_helper(children: list) -> Any:
                first = first_of(children)
                done = _Reduced(None, None, first, last_of(children) if first is not None else None)
                done.children = _raw(plan, tail, children)
                return done

            return reduce_helper
        get_token = on_token.get

        def reduce(children: list) -> Any:
            # the filtered children's values, as Lark's child filter and `values` would give them
            filtered: list = []
            for i, expand, nones in plan:
                if nones:
                    filtered += [None] * nones
                for c in children[i].children if expand else (children[i],):
                    if c.__class__ is _Reduced:
                        filtered.append(c.value)
                    elif c.__class__ is Token and (convert := get_token(c.type)) is not None:
                        filtered.append(convert(current.builder, c))
                    else:
                        filtered.append(c)
            if tail:
                filtered += [None] * tail
            first = first_of(children)
            done = _Reduced(None, None, first, last_of(children) if first is not None else None)
            done.value = call(current.builder, done, filtered) if with_meta else call(current.builder, filtered)
            return done

        return reduce

    return {rule: callback(rule, chain) for rule, chain in rule_builders}


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


def _raw(plan: tuple, tail: int, children: list) -> list:
    """Return the children Lark's child filter keeps by `plan` and `tail` (`_include_plan`): a helper rule's,
    taken whole by the rule around it."""
    filtered: list = []
    for i, expand, nones in plan:
        if nones:
            filtered += [None] * nones
        if expand:
            filtered += children[i].children
        else:
            filtered.append(children[i])
    if tail:
        filtered += [None] * tail
    return filtered


def _located_finders(terminal: list[bool]) -> tuple[Any, Any]:
    """Return the functions that give the first and the last located child (`_first_located`) of a rule's
    children, for a rule whose symbols are terminals where `terminal` says so (a token is always located, so
    the search stops at one)."""

    def finder(order: list[int]) -> Any:
        upto = next((k for k, i in enumerate(order) if terminal[i]), None)
        if upto == 0:
            return itemgetter(order[0])
        scanned = tuple(order if upto is None else order[: upto + 1])

        def located(children: list) -> Any:
            for i in scanned:
                c = children[i]
                if c.__class__ is not _Reduced or not c.empty:
                    return c
            return None

        return located

    every = list(range(len(terminal)))
    return finder(every), finder(every[::-1])


_UNMADE = object()
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


class ByFirstCharacter(dict):
    """A contextual lexer's pattern split by the character a token starts with.

    For an ASCII character, the pattern of the lexer's terminals whose
    tokens can start with it, in the lexer's order, or None if none can:
    Python's regular expressions take the first alternative that matches, so
    leaving out the alternatives that cannot match there changes no match,
    and a pattern of many keywords tried one after the other is the lexer's
    dearest step. Any other character (and the end of the text) takes the
    whole pattern. Each is made when its character is first met.
    """

    def __init__(self, lexer: Any, made: dict[tuple, re.Pattern]):
        scanner = lexer.scanner
        self.whole = scanner._mres[0]
        self.flags = scanner.g_regex_flags
        self.made = made  # patterns of the same terminals, shared by every lexer
        self.terminals = [(t.name, t.pattern.to_regexp(), first_characters(t.pattern)) for t in scanner.terminals]

    def __missing__(self, char: str) -> re.Pattern | None:
        if char not in _ASCII or self.flags & re.IGNORECASE:
            pattern: re.Pattern | None = self.whole
        else:
            kept = tuple((name, regexp) for name, regexp, first in self.terminals if first is None or char in first)
            pattern = self.made.get(kept) if kept else None
            if kept and pattern is None:
                pattern = self.made[kept] = re.compile(
                    "|".join(f"(?P<{name}>{regexp})" for name, regexp in kept), self.flags
                )
        self[char] = pattern
        return pattern


class SkippingLexer:
    """The parser state's lexers as `_State.feed_text` reads with them: the whitespace and comments before
    a token in one match, then the token with the state's lexer's pattern for its first character.

    The ignored terminals (the same in every state) are read with one
    pattern, then the token; where that gives anything but a token, Lark's
    lexer takes over from the same place and reads (or reports) exactly as it
    would have. The grammar is strict, so no terminal can match where an
    ignored one does, and taking those first changes nothing. Lark's own
    paths that ask for tokens (`lex`) get them from Lark's contextual lexer.
    """

    def __init__(self, contextual: Any):
        self.contextual = contextual
        self.root_lexer = root = contextual.root_lexer
        ignored = [t for t in root.terminals if t.name in root.ignore_types]
        self.skip = re.compile("(?:" + "|".join(t.pattern.to_regexp() for t in ignored) + ")*")
        # per parser state, [its lexer, its pattern by first character]; states with one lexer share the list,
        # and the patterns are made when first needed, since Lark builds each lexer then (few states are ever used)
        shared: dict[int, list] = {}
        self.lexers = {
            state: shared.setdefault(id(lexer), [lexer, _UNMADE]) for state, lexer in contextual.lexers.items()
        }
        self.made: dict[tuple, re.Pattern] = {}  # (ByFirstCharacter's, shared by every lexer)

    def _pattern(self, lexer: Any) -> ByFirstCharacter | None:
        """Return the lexer's one pattern (its alternatives) by first character, or None if Lark's lexer must
        read every token."""
        mres = lexer.scanner._mres
        one = len(mres) == 1 and not any(t in lexer.callback for t in lexer.ignore_types)
        return ByFirstCharacter(lexer, self.made) if one else None

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Token]:
        """Yield the tokens from where `lexer_state` is, as Lark's contextual lexer reads them."""
        return self.contextual.lex(lexer_state, parser_state)


class _Conf(ParseConf):
    """Lark's parse configuration with its table as `_State.feed_text` reads it fastest (`actions`), made for
    the callbacks `fast_for` (a copy given other callbacks, as Lark's `accepts()` makes, is fed from Lark's
    table by `feed_token`)."""

    __slots__ = ("actions", "chains", "fast_for")
    actions: dict
    chains: dict  # (the state below, the state on top, the token's type): the top after a run of PASS_ON reductions
    fast_for: dict


_SHIFT, _PASS_ON, _REDUCE = 0, 1, 2


def fast_actions(states: dict, callbacks: dict) -> dict:
    """Return Lark's LALR table `states` (by state, by terminal or rule name: (Shift, state) or (Reduce, rule))
    as tuples that need no attribute or hash of a Rule: (_SHIFT, state), (_PASS_ON, the rule's name) for a
    rule whose callback is PASS_ON, else (_REDUCE, the rule's name, its length, its callback)."""
    actions: dict = {}
    for state, row in states.items():
        made = actions[state] = {}
        for name, (action, arg) in row.items():
            if action is Shift:
                made[name] = (_SHIFT, arg)
            elif callbacks[arg] is PASS_ON:
                made[name] = (_PASS_ON, arg.origin.name)
            else:
                made[name] = (_REDUCE, arg.origin.name, len(arg.expansion), callbacks[arg])
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
        """
        conf = self.parse_conf
        assert isinstance(conf, _Conf)  # (parse_from_state calls this for no other)
        callbacks, actions, chains = conf.callbacks, conf.actions, conf.chains
        state_stack, value_stack = self.state_stack, self.value_stack
        lexers, skip, make = lexing.lexers, lexing.skip, str.__new__
        line_ctr = lexer_state.line_ctr
        text = lexer_state.text
        source, stop, newline = text.text, text.end, line_ctr.newline_char
        token = None
        try:
            while True:
                entry = lexers[state_stack[-1]]
                lexer, starts = entry
                if starts is _UNMADE:
                    starts = entry[1] = lexing._pattern(lexer)
                pos = line_ctr.char_pos
                start = skip.match(source, pos, stop).end()  # type: ignore[union-attr] # `*` always matches
                pattern = starts[source[start : start + 1]] if starts is not None else None
                m = pattern.match(source, start, stop) if pattern is not None else None
                kind = m.lastgroup if m is not None else None
                if m is None or kind is None or kind in lexer.ignore_types:
                    token = lexer.next_token(lexer_state, self)
                    kind = token.type
                else:
                    if start != pos:
                        lines = source.count(newline, pos, start)
                        if lines:
                            line_ctr.line += lines
                            line_ctr.line_start_pos = source.rindex(newline, pos, start) + 1
                        line_ctr.char_pos = start
                        line_ctr.column = start - line_ctr.line_start_pos + 1
                    value, end = m.group(0), m.end()
                    line, column = line_ctr.line, line_ctr.column
                    if kind in lexer.newline_types:
                        lines = source.count(newline, start, end)
                        if lines:
                            line_ctr.line += lines
                            line_ctr.line_start_pos = source.rindex(newline, start, end) + 1
                    line_ctr.char_pos = end
                    line_ctr.column = end_column = end - line_ctr.line_start_pos + 1
                    token = make(Token, value)
                    token.type, token.start_pos, token.value, token.line, token.column = (
                        kind,
                        start,
                        value,
                        line,
                        column,
                    )
                    token.end_line, token.end_column, token.end_pos = line_ctr.line, end_column, end
                    if kind in lexer.callback:
                        token = lexer.callback[kind](token)
                        kind = token.type
                    lexer_state.last_token = token
                # the token shifted, after the reductions it calls for (feed_token's loop, never at the end)
                while True:
                    try:
                        entry = actions[state_stack[-1]][kind]
                    except KeyError:
                        expected = {s for s in conf.states[state_stack[-1]] if s.isupper()}
                        raise UnexpectedToken(token, expected, state=self, interactive_parser=None) from None
                    step = entry[0]
                    if step == _SHIFT:
                        state_stack.append(entry[1])
                        value_stack.append(token if kind not in callbacks else callbacks[kind](token))
                        break
                    if step == _PASS_ON:
                        below, top = state_stack[-2], state_stack[-1]
                        key = (below, top, kind)
                        after = chains.get(key)
                        if after is None:
                            after = actions[below][entry[1]][1]
                            while (then := actions[after].get(kind)) is not None and then[0] == _PASS_ON:
                                after = actions[below][then[1]][1]
                            chains[key] = after
                        state_stack[-1] = after
                    else:
                        _, origin, size, callback = entry
                        if size:
                            children = value_stack[-size:]
                            del state_stack[-size:]
                            del value_stack[-size:]
                        else:
                            children = []
                        value = callback(children)
                        state_stack.append(actions[state_stack[-1]][origin][1])
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
        self.chains: dict = {}

    def parse(
        self, lexer: Any, start: str, value_stack: Any = None, state_stack: Any = None, start_interactive: bool = False
    ) -> Any:
        """Parse as Lark's _Parser.parse does (or return the interactive parser)."""
        conf = _Conf(self.parse_table, self.callbacks, start)
        conf.actions, conf.chains, conf.fast_for = self.actions, self.chains, self.callbacks
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
