"""Pass 2: resolve every name, infer every type, collect every problem.

`check_declarations` walks the merged declarations of an edition (and its
variants) once. It never stops at the first problem: every diagnostic is
collected and raised together as one LandlordError. What it returns, a
Model, is what the compiler needs: declarations by name, the board, and for
every expression node its type and what each name refers to.
"""

from __future__ import annotations

from typing import Iterable

import re

import attrs

from . import ast
from .bibliography import KEY, parse_citation, shipped_sources
from .builtins import BUILTINS
from .errors import Diagnostic, LandlordError, SourceText, did_you_mean
from .parser import parse_hole
from .types import (
    ACCOUNT, ANY, BOOL, BUILTIN_FIELDS, CARD, CONTEXT_NAMES, DECK, DICE, GROUP, INT,
    NONE, PAYEE, PLAYER, SHORTFALL_NAMES, SPACE, TEXT, comparable, compatible, describe,
    element_of, list_of, optional, strip_optional, table_name, table_of,
)

MAX_NUMBER = 10 ** 15  # amounts, counts and thresholds; larger is surely a typing slip
MAX_PLAYERS = 100
LITERAL_NAMES = ("true", "false", "none")  # written as names, read as values: never declarable
AGGREGATES = ("sum", "count", "all", "any", "filter", "map")  # a function of one of these names could not be called

# The value types of declared types; a `player` or `card` variable may hold none.
FIELD_TYPES = {"int": INT, "bool": BOOL, "text": TEXT, "space": SPACE, "group": GROUP, "player": optional(PLAYER),
               "card": optional(CARD)}


@attrs.define
class Model:
    """A checked rule set: everything resolved, nothing left to look up by string at run time."""

    header: ast.Header
    options: dict[str, ast.OptionDecl]
    accounts: list[ast.AccountDecl]
    consts: dict[str, ast.ConstDecl]
    tables: dict[str, ast.TableDecl]
    groups: dict[str, list[int]]
    group_labels: dict[str, str]
    kinds: dict[str, ast.KindDecl]
    game_vars: dict[str, ast.VarDecl]
    player_vars: dict[str, ast.VarDecl]
    space_vars: dict[str, ast.VarDecl]
    spaces: list[ast.SpaceDecl]
    space_index: dict[str, int]
    space_fields: dict[str, str]
    decks: dict[str, ast.DeckDecl]
    functions: dict[str, ast.FunctionDecl]
    actions: dict[str, ast.ActionDecl]
    rules: list[ast.RuleDecl]
    ends: list[ast.EndDecl]
    score: ast.ScoreDecl | None
    types: dict[int, str]
    refs: dict[int, tuple[str, object]]
    frames: dict[int, int]
    function_types: dict[str, str]
    templates: dict[int, list]
    table_types: dict[str, tuple[str, str]]


class _Scope:
    """Local names of one handler, card or function body, with frame slots."""

    def __init__(self, frame: list[int], parent: "_Scope | None" = None, shortfall: bool = False,
                 in_card: bool = False, narrowed: frozenset[str] = frozenset()):
        self.names: dict[str, tuple[str, int]] = {}
        self.parent = parent
        # names and field paths known not to be none here (flow narrowing)
        self.narrowed = narrowed | (parent.narrowed if parent else frozenset())
        self.frame = frame  # one-element list: next free slot, shared by nested scopes
        self.shortfall = shortfall or (parent.shortfall if parent else False)
        self.in_card = in_card or (parent.in_card if parent else False)

    def child(self, narrowed: frozenset[str] = frozenset()) -> "_Scope":
        return _Scope(self.frame, self, narrowed=narrowed)

    def define(self, name: str, type_: str) -> int:
        slot = self.frame[0]
        self.frame[0] += 1
        self.names[name] = (type_, slot)
        return slot

    def lookup(self, name: str) -> tuple[str, int] | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def visible(self) -> list[str]:
        out: list[str] = []
        scope: _Scope | None = self
        while scope is not None:
            out.extend(scope.names)
            scope = scope.parent
        return out


class Checker:
    def __init__(self, sources: dict[str, SourceText]):
        self.sources = sources
        self.diagnostics: list[Diagnostic] = []
        self.types: dict[int, str] = {}
        self.refs: dict[int, tuple[str, object]] = {}
        self.frames: dict[int, int] = {}
        self.templates: dict[int, list] = {}
        self.game_functions: set[str] = set()
        self.references: dict[str, ast.ReferenceDecl] = {}
        self.paid_fields: dict[str, ast.Span] = {}  # board fields some `pay` pays as they stand, with the first

    # ------------------------------------------------------------ reporting
    def error(self, message: str, span: ast.Span | None, hint: str | None = None) -> None:
        source = self.sources.get(span.file) if span is not None else None
        line = source.line(span.line) if source and span else None
        self.diagnostics.append(Diagnostic(message, span, line, hint))

    # ---------------------------------------------------------- top level
    def check(self, header: ast.Header, decls: Iterable[ast.Declaration]) -> Model:
        decls = list(decls)
        m = Model(
            header=header, options={}, accounts=[], consts={}, tables={}, groups={}, group_labels={},
            kinds={}, game_vars={}, player_vars={}, space_vars={}, spaces=[], space_index={},
            space_fields={}, decks={}, functions={}, actions={}, rules=[], ends=[], score=None,
            types=self.types, refs=self.refs, frames=self.frames, function_types={}, templates=self.templates,
            table_types={},
        )
        self.m = m
        if header.players is not None and not (1 <= header.players[0] <= header.players[1] <= MAX_PLAYERS):
            self.error(f"the player range must go from a smaller to a larger number, at most {MAX_PLAYERS}",
                       header.span, "write e.g. `players 2 to 4`")
        if header.dice is not None and not 1 <= header.dice <= 10:
            self.error("an edition throws from 1 to 10 dice", header.span, "write e.g. `dice 2`")
        if header.turn_limit is not None and not 1 <= header.turn_limit <= MAX_NUMBER:
            self.error("the turn limit must be at least 1", header.span, None)
        self._collect(decls)
        self._check_citations(header, decls)
        self._check_board()
        self._check_groups(decls)
        self._check_title_decks()
        self._check_bodies()
        self._check_paid_fields()
        if not m.spaces:
            self.error("the edition has no board", header.span, "add a `board { space ... }` block")
        if self.diagnostics:
            self.diagnostics.sort(key=lambda d: (d.span.file, d.span.line, d.span.column) if d.span else ("", 0, 0))
            raise LandlordError(self.diagnostics)
        return m

    def _declared(self, table: dict, name: str, decl, what: str) -> bool:
        if name in table:
            self.error(f"{what} '{name}' is declared twice", decl.span,
                       f"the first declaration is at line {table[name].span.line}")
            return False
        return True

    def _collect(self, decls: list[ast.Declaration]) -> None:
        m = self.m
        names_seen: dict[str, ast.Span] = {}

        reserved = set(CONTEXT_NAMES) | set(SHORTFALL_NAMES) | {"card"} | set(LITERAL_NAMES)

        def global_name(name: str, decl) -> bool:
            """Claim a top-level name; return False (after reporting) if it cannot be had."""
            if name in reserved:
                self.error(f"'{name}' is a built-in name and cannot be declared", decl.span, "choose another name")
                return False
            if name in names_seen:
                prev = names_seen[name]
                self.error(f"the name '{name}' is already used", decl.span,
                           f"it is declared at {prev.file}:{prev.line}; every top-level name must be unique")
                return False
            names_seen[name] = decl.span
            return True

        # declarations that only claim their name and are filed by it
        filed: dict[type, dict] = {ast.ConstDecl: m.consts, ast.TableDecl: m.tables, ast.ActionDecl: m.actions}
        for d in decls:
            if type(d) in filed:
                if global_name(d.name, d):
                    filed[type(d)][d.name] = d
            elif isinstance(d, ast.OptionDecl):
                if not global_name(d.name, d):
                    continue
                m.options[d.name] = d
                if isinstance(d.default, int) and not isinstance(d.default, bool) and abs(d.default) > MAX_NUMBER:
                    self.error("this number is too large", d.default_span,
                               f"numbers may have at most {len(str(MAX_NUMBER)) - 1} digits")
                if d.choices is not None and d.default not in d.choices:
                    self.error(f"option '{d.name}' defaults to {d.default!r}, which is not one of its choices",
                               d.default_span, "choices: " + ", ".join(repr(c) for c in d.choices))
            elif isinstance(d, ast.AccountDecl):
                if not global_name(d.name, d):
                    continue
                m.accounts.append(d)
            elif isinstance(d, ast.GroupDecl):
                if not global_name(d.name, d):
                    continue
                m.groups[d.name] = []
                m.group_labels[d.name] = d.label or d.name
            elif isinstance(d, ast.KindDecl):
                if not global_name(d.name, d):
                    continue
                m.kinds[d.name] = d
                m.groups.setdefault(d.name, [])
                m.group_labels[d.name] = d.label or d.name
                for f in d.fields:
                    t = FIELD_TYPES[f.type]
                    if f.type == "card":
                        self.error(f"field '{f.name}' cannot hold a card: a space's fields are fixed values", f.span,
                                   "use a `space var NAME: card = none` for a card kept on a space")
                    elif f.name in BUILTIN_FIELDS[SPACE]:
                        self.error(f"'{f.name}' is a built-in field of every space", f.span, "choose another name")
                    elif m.space_fields.get(f.name, t) != t:
                        self.error(f"field '{f.name}' has another type in another kind", f.span,
                                   "a field name must mean the same thing on every kind")
                    else:
                        m.space_fields[f.name] = t
            elif isinstance(d, ast.VarDecl):
                table = {"game": m.game_vars, "player": m.player_vars, "space": m.space_vars}[d.scope]
                if d.scope == "game":
                    if not global_name(d.name, d):
                        continue
                builtin = BUILTIN_FIELDS.get(d.scope, {})
                if d.name in builtin:
                    self.error(f"'{d.name}' is a built-in field of every {d.scope}", d.span, "choose another name")
                elif d.name in LITERAL_NAMES:
                    self.error(f"'{d.name}' is a value and cannot be declared", d.span, "choose another name")
                elif self._declared(table, d.name, d, f"{d.scope} variable"):
                    table[d.name] = d
            elif isinstance(d, ast.BoardDecl):
                for s in d.spaces:
                    if s.name in m.space_index:
                        self.error(f"space '{s.name}' is declared twice", s.span,
                                   f"the first is at line {m.spaces[m.space_index[s.name]].span.line}")
                        continue
                    if not global_name(s.name, s):
                        continue
                    m.space_index[s.name] = len(m.spaces)
                    m.spaces.append(s)
            elif isinstance(d, ast.DeckDecl):
                if not global_name(d.name, d):
                    continue
                m.decks[d.name] = d
                seen: set[str] = set()
                for c in d.cards:
                    if not 1 <= c.copies <= 1000:
                        self.error(f"card '{c.name}' must have 1 to 1000 copies", c.span, None)
                    if c.name in seen:
                        self.error(f"card '{c.name}' appears twice in deck '{d.name}'", c.span,
                                   "use `x N` after the card text for several copies")
                    seen.add(c.name)
                if d.of_titles and d.cards:
                    self.error(f"deck '{d.name}' is made of the title deeds and cannot list cards", d.span, None)
                count = sum(c.copies for c in d.cards)
                if d.size is not None and not d.of_titles and count != d.size:
                    self.error(f"deck '{d.name}' declares size {d.size} but has {count} card{'s' if count != 1 else ''}",
                               d.span, "add or remove cards, or correct the size")
            elif isinstance(d, ast.FunctionDecl):
                if not global_name(d.name, d):
                    continue
                if d.name in BUILTINS or d.name in AGGREGATES:
                    self.error(f"'{d.name}' is a built-in function", d.span, "choose another name")
                m.functions[d.name] = d
            elif isinstance(d, ast.RuleDecl):
                first = next((r for r in m.rules if r.name == d.name), None)
                if first is not None:
                    where = f"line {first.span.line}" + (f" of {first.span.file}" if first.span.file != d.span.file else "")
                    self.error(f"rule '{d.name}' is declared twice", d.span,
                               f"the first is at {where}; give each rule its own name")
                    continue
                m.rules.append(d)
            elif isinstance(d, ast.EndDecl):
                if d.name is not None and any(e.name == d.name for e in m.ends):
                    self.error(f"end condition '{d.name}' is declared twice", d.span, None)
                    continue
                m.ends.append(d)
            elif isinstance(d, ast.ScoreDecl):
                if m.score is not None:
                    self.error("the score is declared twice", d.span, "an edition has one score formula")
                m.score = d
            elif isinstance(d, ast.RemoveDecl):
                self.error(f"`remove {d.what} {d.name}` only makes sense in a variant", d.span,
                           "add `extends \"edition-name\"` to the header")
            elif isinstance(d, ast.ReferenceDecl):
                self._reference(d)
        for v in m.space_vars.values():
            kinds = [k.name for k in m.kinds.values() if any(f.name == v.name for f in k.fields)]
            if kinds:
                self.error(f"space variable '{v.name}' has the name of a field of kind '{kinds[0]}'", v.span,
                           "it would hide that field on every space: choose another name")
        title_decks = [d for d in m.decks.values() if d.of_titles]
        if len(title_decks) > 1 and any(d.titles_in is None for d in title_decks):
            self.error("only one deck can hold all the title deeds", title_decks[1].span,
                       "restrict each with `of titles in GROUP`")

    # ------------------------------------------------------------ citations
    def _reference(self, d: ast.ReferenceDecl) -> None:
        shipped = shipped_sources()
        if KEY.fullmatch(d.key) is None:
            self.error(f"'{d.key}' cannot be a source key", d.span,
                       "a key is lower-case letters, digits and '-', e.g. \"club-rules-2024\"")
        elif d.key in shipped:
            self.error(f"'{d.key}' is already a key of the shipped bibliography", d.span,
                       "cite it as it is, or give your source another key")
        elif d.key in self.references:
            self.error(f"reference '{d.key}' is declared twice", d.span,
                       f"the first is at line {self.references[d.key].span.line}")
        else:
            self.references[d.key] = d

    def _check_citations(self, header: ast.Header, decls: list[ast.Declaration]) -> None:
        """Report every citation part that does not start with a key of the bibliography or of a `reference`."""
        cited: list[ast.Provenance | None] = [header.provenance]
        for d in decls:
            cited.append(getattr(d, "provenance", None))
            if isinstance(d, ast.BoardDecl):
                cited.extend(s.provenance for s in d.spaces)
            elif isinstance(d, ast.DeckDecl):
                cited.extend(c.provenance for c in d.cards)
        known = list(shipped_sources()) + list(self.references)
        for prov in cited:
            if prov is None:
                continue
            for part in parse_citation(prov.source):
                if part.key in known:
                    continue
                word = part.key or part.text.split(",")[0].split(":")[0].strip()
                at = self._span_in_text(prov.span, prov.source, part.start, max(1, len(word)))
                if part.key is None:
                    self.error(f"the citation '{part.text}' does not start with a source key", at,
                               did_you_mean(word, known) or "write KEY, LOCATOR as in \"magie-1906, Rule 4\"; "
                               "the keys are listed by `landlord-dsl sources`")
                else:
                    containing = [k for k in known if part.key in k.split("-")]
                    hint = did_you_mean(part.key, known) or (f"did you mean '{containing[0]}'?" if containing else
                                                             "the keys are listed by `landlord-dsl sources`; add "
                                                             "your own with `reference \"KEY\" \"what it is\"`")
                    self.error(f"unknown source key '{part.key}'", at, hint)

    # --------------------------------------------------------------- board
    def _check_board(self) -> None:
        m = self.m
        for i, s in enumerate(m.spaces):
            kind = m.kinds.get(s.kind)
            if kind is None:
                self.error(f"unknown kind '{s.kind}' for space '{s.name}'", s.kind_span,
                           did_you_mean(s.kind, m.kinds) or "declare it with `kind NAME { ... }`")
            else:
                m.groups[s.kind].append(i)
                given = {name for name, _ in s.fields}
                for f in kind.fields:
                    if f.name not in given:
                        self.error(f"space '{s.name}' is missing field '{f.name}' of kind '{kind.name}'", s.span,
                                   f"add `{f.name} = ...` to its {{ }} block")
                for (name, value), span in zip(s.fields, s.field_spans or [s.span] * len(s.fields)):
                    decl = next((f for f in kind.fields if f.name == name), None)
                    if decl is None:
                        self.error(f"kind '{kind.name}' has no field '{name}'", span,
                                   did_you_mean(name, [f.name for f in kind.fields])
                                   or f"its fields are: {', '.join(f.name for f in kind.fields) or 'none'}")
                        continue
                    t = self.expr(value, _Scope([0]), constant=True)
                    want = FIELD_TYPES[decl.type]
                    if not compatible(want, t):
                        self.error(f"field '{name}' of '{s.name}' should be {describe(want)}, not {describe(t)}",
                                   value.span, None)
                    elif t == GROUP and isinstance(value, ast.Name) and value.name in m.groups:
                        # a group-valued field (a lot's section, say) makes the space a member
                        if i not in m.groups[value.name]:
                            m.groups[value.name].append(i)
            for g in s.groups:
                if g not in m.groups or g in m.kinds:
                    self.error(f"unknown group '{g}' for space '{s.name}'", s.group_span,
                               did_you_mean(g, [n for n in m.groups if n not in m.kinds])
                               or "declare it with `group NAME`")
                elif i not in m.groups[g]:  # `in` may repeat what a group-valued field says
                    m.groups[g].append(i)

    def _check_title_decks(self) -> None:
        m = self.m
        for d in m.decks.values():
            if d.of_titles and d.size is not None:
                members = m.groups.get(d.titles_in, []) if d.titles_in else range(len(m.spaces))
                count = sum(1 for i in members if m.spaces[i].kind in m.kinds and m.kinds[m.spaces[i].kind].titled)
                if count != d.size:
                    self.error(f"deck '{d.name}' declares size {d.size} but the board has {count} title deeds for it",
                               d.span, "correct the size or the board")

    def _check_groups(self, decls: list[ast.Declaration]) -> None:
        reported: set[str] = set()
        for d in decls:
            if isinstance(d, ast.GroupDecl) and not self.m.groups.get(d.name) and d.name not in reported:
                reported.add(d.name)
                self.error(f"group '{d.name}' has no spaces", d.span,
                           f"add `in {d.name}` to its spaces, or give them a group field set to {d.name}")

    # -------------------------------------------------------------- bodies
    def _check_bodies(self) -> None:
        m = self.m
        for d in list(m.consts.values()):
            self.types[id(d)] = self.expr(d.value, _Scope([0]), constant=True)
        for d in m.options.values():
            pass
        for t in m.tables.values():
            keys = {self.expr(k, _Scope([0]), constant=True) for k, _ in t.entries}
            values = {self.expr(v, _Scope([0]), constant=True) for _, v in t.entries}
            seen_keys: list[object] = []
            for k, _ in t.entries:
                if isinstance(k, (ast.IntLit, ast.TextLit)):
                    if k.value in seen_keys:
                        self.error(f"table '{t.name}' has the key {k.value!r} twice", k.span, None)
                    seen_keys.append(k.value)
            if len(keys - {ANY}) > 1:
                self.error(f"the keys of table '{t.name}' mix types", t.span, "use all numbers or all names")
            if len(values - {ANY}) > 1:
                self.error(f"the values of table '{t.name}' mix types: "
                           + ", ".join(describe(v) for v in sorted(values)), t.span, None)
            m.table_types[t.name] = (next(iter(keys - {ANY}), ANY), next(iter(values - {ANY}), ANY))
            if t.rising:
                self._check_rising(t)
        for table in (m.game_vars, m.player_vars, m.space_vars):
            for v in table.values():
                initial = self.expr(v.initial, _Scope([0]), constant=True)
                declared = FIELD_TYPES[v.type] if v.type else initial
                if v.type and initial == NONE:
                    declared = optional(declared)
                if not compatible(declared, initial):
                    self.error(f"variable '{v.name}' holds {describe(declared)} but starts as {describe(initial)}",
                               v.initial.span, None)
                elif declared == NONE:
                    self.error(f"variable '{v.name}' starts as none: declare its type, e.g. `var {v.name}: player = none`",
                               v.span, None)
                self.types[id(v)] = declared
        self._check_functions()
        for deck in m.decks.values():
            if deck.titles_in is not None and deck.titles_in not in m.groups:
                self.error(f"unknown group or kind '{deck.titles_in}'", deck.span, did_you_mean(deck.titles_in, m.groups))
            if deck.enabled is not None:
                frame = [0]
                self.condition(deck.enabled, _Scope(frame), "a deck's `when`")
                self.frames[id(deck)] = frame[0]
            for card in deck.cards:
                frame = [0]
                scope = _Scope(frame, in_card=True)
                self.block(card.body, scope)
                self.frames[id(card)] = frame[0]
        self._check_actions()
        rule_names = [r.name for r in m.rules]
        for rule in m.rules:
            for h in rule.handlers:
                self._check_handler(h)
            for t in rule.triggers:
                frame = [0]
                self.condition(t.condition, _Scope(frame), "a trigger's condition")
                self.block(t.body, _Scope(frame))
                self.frames[id(t)] = frame[0]
            for replaced in rule.replaces:
                if replaced not in rule_names:
                    self.error(f"rule '{rule.name}' replaces an unknown rule '{replaced}'", rule.span,
                               did_you_mean(replaced, rule_names))
                elif replaced == rule.name:
                    self.error(f"rule '{rule.name}' cannot replace itself", rule.span, None)
        for e in m.ends:
            frame = [0]
            self.condition(e.condition, _Scope(frame), "an end condition")
            self.frames[id(e)] = frame[0]
        if m.score is not None:
            frame = [0]
            t = self.expr(m.score.formula, _Scope(frame))
            self.frames[id(m.score)] = frame[0]
            if not compatible(INT, t):
                self.error(f"the score must be a number, not {describe(t)}", m.score.formula.span, None)

    def _check_rising(self, t: ast.TableDecl) -> None:
        """A `rising` table's values, in key order, must never fall (literal entries are checked)."""
        pairs = [(k.value, v.value) for k, v in t.entries
                 if isinstance(k, ast.IntLit) and isinstance(v, ast.IntLit)]
        if len(pairs) != len(t.entries):
            self.error(f"table '{t.name}' is `rising`, so its keys and values must be plain numbers", t.span, None)
            return
        ordered = sorted(pairs)
        for (k0, v0), (k1, v1) in zip(ordered, ordered[1:]):
            if v1 < v0:
                entry = next(v for k, v in t.entries if isinstance(k, ast.IntLit) and k.value == k1)
                self.error(f"table '{t.name}' is `rising` but falls from {v0} at {k0} to {v1} at {k1}", entry.span,
                           "fix the value, or drop `rising` if the table is not meant to rise")

    def _check_functions(self) -> None:
        m = self.m
        calls: dict[str, set[str]] = {}
        for f in m.functions.values():
            m.function_types[f.name] = ANY  # provisional, so functions may use later ones
        # Infer twice: the first pass learns the result types (its diagnostics are
        # dropped), the second checks every call against them.
        for final in (False, True):
            for f in m.functions.values():
                frame = [0]
                scope = _Scope(frame)
                saved = len(self.diagnostics)
                for p in f.params:
                    self.define(scope, p.name, _param_type(p.type), p.span)
                m.function_types[f.name] = self.expr(f.body, scope)
                self.frames[id(f)] = frame[0]
                if not final:
                    del self.diagnostics[saved:]
                calls[f.name] = {n.function for n in _walk_calls(f.body) if n.function in m.functions}
        # which functions read the game (directly or through other functions)
        self.game_functions = {f.name for f in m.functions.values() if _reads_game(f.body, self.refs)}
        changed = True
        while changed:
            changed = False
            for name, called in calls.items():
                if name not in self.game_functions and called & self.game_functions:
                    self.game_functions.add(name)
                    changed = True
        # no recursion: a .lg file must not be able to loop forever
        for start in m.functions:
            stack, seen = [start], set()
            while stack:
                cur = stack.pop()
                for nxt in calls.get(cur, ()):
                    if nxt == start:
                        f = m.functions[start]
                        self.error(f"function '{start}' calls itself (through '{cur}')", f.span,
                                   "functions may not be recursive, so that every game ends")
                        stack = []
                        break
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)

    def _check_actions(self) -> None:
        m = self.m
        calls: dict[str, set[str]] = {}
        for a in m.actions.values():
            frame = [0]
            scope = _Scope(frame)
            for p in a.params:
                self.refs[id(p)] = ("local", self.define(scope, p.name, _param_type(p.type), p.span))
            self.block(a.body, scope)
            self.frames[id(a)] = frame[0]
            calls[a.name] = {s.action for s in _walk_statements(a.body) if isinstance(s, ast.Do)}
        for start in m.actions:
            stack, seen = [start], set()
            while stack:
                for nxt in calls.get(stack.pop(), ()):
                    if nxt == start:
                        self.error(f"action '{start}' runs itself (directly or through others)",
                                   m.actions[start].span, "actions may not be recursive, so that every game ends")
                        stack = []
                        break
                    if nxt not in seen and nxt in calls:
                        seen.add(nxt)
                        stack.append(nxt)

    def _check_handler(self, h: ast.Handler) -> None:
        m = self.m
        if h.event in ("land", "pass"):
            if h.selector is not None and h.selector not in m.space_index and h.selector not in m.groups:
                self.error(f"unknown space, kind or group '{h.selector}'", h.selector_span,
                           did_you_mean(h.selector, list(m.space_index) + list(m.groups)))
        elif h.selector is not None:
            self.error(f"`on {h.event}` takes no space", h.selector_span, f"write `on {h.event} {{ ... }}`")
        frame = [0]
        scope = _Scope(frame, shortfall=h.event == "shortfall")
        self.block(h.body, scope)
        self.frames[id(h)] = frame[0]

    # ---------------------------------------------------------- statements
    def define(self, scope: _Scope, name: str, type_: str, span: ast.Span) -> int:
        """Define a local name; refuse one that would hide a declared or built-in name."""
        m = self.m
        hidden = ("a space" if name in m.space_index else "a kind" if name in m.kinds
                  else "a group" if name in m.groups else "an option" if name in m.options
                  else "a constant" if name in m.consts else "a table" if name in m.tables
                  else "a deck" if name in m.decks else "a variable" if name in m.game_vars
                  else "an account" if any(a.name == name for a in m.accounts)
                  else "a built-in name" if name in CONTEXT_NAMES or name in SHORTFALL_NAMES or name == "card"
                  or name in LITERAL_NAMES
                  else None)
        if hidden is not None:
            self.error(f"the local name '{name}' would hide {hidden} of the same name", span,
                       "choose another name for the local")
        return scope.define(name, type_)

    def block(self, stmts: Iterable[ast.Stmt], scope: _Scope) -> None:
        for s in stmts:
            self.stmt(s, scope)
            if scope.narrowed:
                scope.narrowed = _still_narrowed(scope.narrowed, [s], scope)

    def condition(self, e: ast.Expr, scope: _Scope, where: str) -> None:
        t = self.expr(e, scope)
        if not compatible(BOOL, t):
            self.error(f"{where} must be true/false, not {describe(t)}", e.span,
                       "compare it, e.g. `x > 0` or `owner != none`")

    def expect(self, e: ast.Expr, scope: _Scope, want: str, what: str) -> str:
        t = self.expr(e, scope)
        if not compatible(want, t):
            self.error(f"{what} must be {describe(want)}, not {describe(t)}", e.span, None)
        return t

    def _deck(self, name: str, span: ast.Span) -> None:
        if name not in self.m.decks:
            self.error(f"unknown deck '{name}'", span, did_you_mean(name, self.m.decks) or "declare it with `deck`")

    def stmt(self, s: ast.Stmt, scope: _Scope) -> None:
        m = self.m
        if isinstance(s, ast.Pay):
            self.expect(s.amount, scope, INT, "an amount")
            self._not_negative(s.amount, "an amount paid")
            if isinstance(s.amount, ast.Field) and s.amount.name in m.space_fields:
                self.paid_fields.setdefault(s.amount.name, s.amount.span)
            self.expect(s.payer, scope, PAYEE, "who pays")
            self.expect(s.payee, scope, PAYEE, "who is paid")
        elif isinstance(s, ast.Set):
            self._set(s, scope)
        elif isinstance(s, ast.Let):
            t = self.expr(s.value, scope)
            self.refs[id(s)] = ("local", self.define(scope, s.name, t, s.span))
        elif isinstance(s, ast.If):
            self.condition(s.condition, scope, "an `if` condition")
            self.block(s.then, scope.child(_narrowings(s.condition, True)))
            if s.otherwise is not None:
                self.block(s.otherwise, scope.child(_narrowings(s.condition, False)))
        elif isinstance(s, ast.For):
            t = self.expr(s.collection, scope)
            elem = element_of(t)
            if elem is None:
                self.error(f"cannot loop over {describe(t)}", s.collection.span, "loop over a list or a group")
                elem = ANY
            inner = scope.child()
            # the second time round comes after what the body did the first time
            inner.narrowed = _still_narrowed(inner.narrowed, s.body, scope)
            self.refs[id(s)] = ("local", self.define(inner, s.var, elem, s.span))
            self.block(s.body, inner)
        elif isinstance(s, ast.Choose):
            if s.chooser is not None:
                self.expect(s.chooser, scope, PLAYER, "who chooses")
            self.templates[id(s)] = self.template(s.prompt, s.span, scope)
            names: set[str] = set()
            every_body = [x for o in s.options for x in o.body]
            for o in s.options:
                if o.name in names:
                    self.error(f"option '{o.name}' appears twice", o.span, None)
                if s.repeat and o.name == "done":
                    self.error("`offer` adds the option 'done' itself", o.span, "rename this option")
                names.add(o.name)
                inner = scope.child()
                if s.repeat:  # an offer's later rounds come after what the chosen options did
                    inner.narrowed = _still_narrowed(inner.narrowed, every_body, scope)
                if o.binding is not None:
                    t = self.expr(o.binding[1], scope)
                    elem = element_of(t)
                    if elem is None:
                        self.error(f"cannot offer one option per item of {describe(t)}", o.binding[1].span, None)
                        elem = ANY
                    self.refs[id(o)] = ("local", self.define(inner, o.binding[0], elem, o.span))
                if o.guard is not None:
                    self.condition(o.guard, inner, "an option's `when`")
                    inner = inner.child(_narrowings(o.guard, True))
                if o.label is not None:
                    self.templates[id(o)] = self.template(o.label, o.span, inner)
                if o.cost is not None:
                    self.expect(o.cost, inner, INT, "an option's cost")
                    self._not_negative(o.cost, "an option's cost")
                if o.value is not None:
                    self.expect(o.value, inner, INT, "an option's value")
                self.block(o.body, inner)
            if s.done_when is not None:
                if not s.repeat:
                    self.error("only an `offer` has a 'done' to guard", s.done_when.span,
                               "write `offer`, or drop `done when`")
                inner = scope.child()
                inner.narrowed = _still_narrowed(inner.narrowed, every_body, scope)
                self.condition(s.done_when, inner, "an offer's `done when`")
        elif isinstance(s, ast.Roll):
            if s.thrower is not None:
                self.expect(s.thrower, scope, PLAYER, "who throws")
        elif isinstance(s, ast.MoveSteps):
            self.expect(s.steps, scope, INT, "the number of steps")
            self._not_negative(s.steps, "the number of steps")
            if s.via is not None and s.direction == "backward":
                self.error("a jump `via` a group works only forward", s.span, "write `move forward ... via ...`")
            elif s.via is not None and s.via not in m.groups:
                self.error(f"unknown group '{s.via}'", s.name_span, did_you_mean(s.via, m.groups))
        elif isinstance(s, ast.MoveTo):
            self.expect(s.destination, scope, SPACE, "where to move")
        elif isinstance(s, ast.Send):
            self.expect(s.who, scope, PLAYER, "who is sent")
            self.expect(s.destination, scope, SPACE, "where to send")
        elif isinstance(s, ast.Draw):
            self._deck(s.deck, s.name_span)
        elif isinstance(s, ast.GiveTurn):
            self.expect(s.player, scope, PLAYER, "whose turn is next")
        elif isinstance(s, ast.Give):
            self.expect(s.card, scope, CARD, "what is given")
            self.expect(s.recipient, scope, PLAYER, "who receives it")
        elif isinstance(s, ast.Return):
            self.expect(s.card, scope, CARD, "what is returned")
            self._deck(s.deck, s.name_span)
        elif isinstance(s, ast.Shuffle):
            self._deck(s.deck, s.name_span)
        elif isinstance(s, ast.Deal):
            self.expect(s.count, scope, INT, "how many cards")
            self._not_negative(s.count, "the number of cards")
            self._deck(s.deck, s.name_span)
        elif isinstance(s, ast.Auction):
            self.expect(s.space, scope, SPACE, "what is auctioned")
            self.expect(s.start, scope, INT, "the opening price")
            self._not_negative(s.start, "the opening price")
            if s.step is not None:
                self.expect(s.step, scope, INT, "the smallest raise")
                self._not_negative(s.step, "the smallest raise")
            if s.first is not None:
                self.expect(s.first, scope, PLAYER, "who has the first option")
            if s.value is not None:
                self.expect(s.value, scope, INT, "the value hint for bidders")
            self.expect(s.proceeds, scope, PAYEE, "who receives the price")
        elif isinstance(s, ast.Borrow):
            self.expect(s.amount, scope, INT, "the amount to borrow")
            self.expect(s.interest, scope, INT, "the interest in percent")
            self._not_negative(s.amount, "the amount to borrow")
            self._not_negative(s.interest, "the interest")
        elif isinstance(s, ast.Switch):
            if not any(r.name == s.rule for r in m.rules):
                self.error(f"unknown rule '{s.rule}'", s.name_span, did_you_mean(s.rule, [r.name for r in m.rules]))
        elif isinstance(s, ast.Do):
            action = m.actions.get(s.action)
            arg_types = [self.expr(a, scope) for a in s.args]
            if action is None:
                self.error(f"unknown action '{s.action}'", s.span,
                           did_you_mean(s.action, m.actions) or "declare it with `action NAME(...) { ... }`")
                return
            if len(arg_types) != len(action.params):
                self.error(f"action '{s.action}' takes {len(action.params)} argument"
                           f"{'s' if len(action.params) != 1 else ''}, not {len(arg_types)}", s.span, None)
                return
            for i, (p, got) in enumerate(zip(action.params, arg_types)):
                if not compatible(_param_type(p.type), got):
                    self.error(f"argument {i + 1} of '{s.action}' must be {describe(_param_type(p.type))}, "
                               f"not {describe(got)}", s.args[i].span, None)
        elif isinstance(s, ast.Eliminate):
            self.expect(s.who, scope, PLAYER, "who leaves the game")
        elif isinstance(s, (ast.RepayLoans, ast.EndTurn, ast.EndGame)):
            pass
        else:  # pragma: no cover
            raise AssertionError(s)

    def _not_negative(self, e: ast.Expr, what: str) -> None:
        """Report a negative number written where the engine takes only amounts and counts from 0 up."""
        value = _literal_int(e)
        if value is not None and value < 0:
            self.error(f"{what} cannot be negative ({value})", e.span,
                       "to move money the other way, swap `from` and `to`" if what == "an amount paid" else None)

    def _check_paid_fields(self) -> None:
        """Report a board field that some `pay` pays as it stands and that a space sets to a negative number."""
        for s in self.m.spaces:
            for (name, value), span in zip(s.fields, s.field_spans or [s.span] * len(s.fields)):
                number = _literal_int(value)
                if name in self.paid_fields and number is not None and number < 0:
                    paid = self.paid_fields[name]
                    self.error(f"field '{name}' of '{s.name}' is negative ({number}), but it is paid as an amount",
                               value.span, f"it is paid at {paid.file}:{paid.line}")

    def _set(self, s: ast.Set, scope: _Scope) -> None:
        m = self.m
        value_t = self.expr(s.value, scope)
        if len(s.target) == 1:
            name = s.target[0]
            local = scope.lookup(name)
            if local is not None:
                self.refs[id(s)] = ("local", local[1])
                target_t = local[0]
            elif name in m.game_vars:
                self.refs[id(s)] = ("game_var", name)
                target_t = self.types.get(id(m.game_vars[name]), ANY)
            else:
                hint = did_you_mean(name, list(m.game_vars) + scope.visible())
                if name in m.consts or name in m.options:
                    hint = f"'{name}' is a constant; declare `var {name} = ...` to change it during a game"
                self.error(f"cannot set '{name}': it is not a variable", s.span, hint)
                return
        elif len(s.target) == 2:
            owner_name, field = s.target
            owner_node = ast.Name(owner_name, span=s.span)
            owner_t = self._name_type(owner_node, scope, report=True)
            owner_ref = self.refs.pop(id(owner_node), None)
            base = strip_optional(owner_t)
            table = {PLAYER: m.player_vars, SPACE: m.space_vars}.get(base)
            if owner_t == ANY:
                return
            if table is None or field not in table:
                builtin = BUILTIN_FIELDS.get(base, {})
                if field in builtin:
                    hint = "money moves only with `pay`" if field == "cash" else "built-in fields cannot be set"
                else:
                    hint = did_you_mean(field, list(table or {})) or (
                        f"declare `{base} var {field} = ...`" if table is not None else None)
                self.error(f"cannot set '{owner_name}.{field}'", s.span, hint)
                return
            if owner_ref is None or owner_ref[0] not in ("local", "context", "space", "game_var"):
                self.error(f"cannot set a field of '{owner_name}'", s.span, None)
                return
            self.refs[id(s)] = (f"{base}_var", (field, owner_ref))
            target_t = self.types.get(id(table[field]), ANY)
        else:
            self.error("only `name` or `thing.field` can be set", s.span, None)
            return
        if s.op != "=" and not compatible(INT, target_t):
            self.error(f"`{s.op}` needs a number variable", s.span, None)
        if not compatible(target_t, value_t) and not (target_t.endswith("?") or value_t == NONE and target_t != INT):
            self.error(f"cannot set a variable holding {describe(target_t)} to {describe(value_t)}", s.value.span, None)

    def template(self, text: str, span: ast.Span, scope: _Scope) -> list:
        """Split a prompt or label into text and the expressions of its `{...}` holes, checking each.

        `{{` and `}}` stand for literal braces.
        """
        parts: list = []
        literal = ""
        for match in _TEMPLATE.finditer(text):
            piece = match.group(0)
            if piece in ("{{", "}}"):
                literal += piece[0]
                continue
            if piece[0] != "{":
                literal += piece
                continue
            at = self._span_in_text(span, text, match.start(), len(piece))
            if piece == "{" or not piece.endswith("}"):
                self.error(f"a '{{' in the text {text!r} is never closed", at,
                           "close the hole with '}', or write '{{' for a brace")
                continue
            hole = parse_hole(piece[1:-1], at)
            if isinstance(hole, str):
                self.error(f"cannot read the hole {piece} in the text {text!r}: {hole}", at,
                           "a hole holds an expression, like {player} or {house_price(s)}")
                continue
            t = self.expr(hole, scope)
            if t != ANY and (strip_optional(t) in (GROUP, DECK, DICE) or table_name(t) or element_of(t) is not None):
                self.error(f"'{piece[1:-1]}' is {describe(t)}, which cannot be shown in a text", at,
                           "show a player, space, card, account, number or text")
            if literal:
                parts.append(literal)
                literal = ""
            parts.append(hole)
        if literal:
            parts.append(literal)
        return parts

    def _span_in_text(self, span: ast.Span, text: str, start: int, length: int) -> ast.Span:
        """Return the span of text[start:start + length] in the file, or `span` if it cannot be found.

        The text is the first string literal on the line of `span` after its
        start (a `choose` prompt, an option label); with escapes before the
        piece the columns would not match, so the statement's span is kept.
        """
        source = self.sources.get(span.file)
        line = source.line(span.line) if source is not None else None
        quote = line.find('"', span.column - 1) if line else -1
        if quote < 0 or "\\" in line[quote + 1:quote + 1 + start] or line[quote + 1:quote + 1 + len(text)] != text:
            return span
        column = quote + 2 + start
        return ast.Span(span.file, span.line, column, span.line, column + length)

    # --------------------------------------------------------- expressions
    def _name_type(self, e: ast.Name, scope: _Scope, constant: bool = False, report: bool = True) -> str:
        m = self.m
        n = e.name
        local = scope.lookup(n)
        if local is not None:
            self.refs[id(e)] = ("local", local[1])
            return local[0]
        if n in m.options:
            self.refs[id(e)] = ("option", n)
            d = m.options[n].default
            return BOOL if isinstance(d, bool) else INT if isinstance(d, int) else TEXT
        if n in m.consts:
            self.refs[id(e)] = ("const", n)
            return self.types.get(id(m.consts[n]), ANY)
        if n in m.space_index:
            self.refs[id(e)] = ("space", m.space_index[n])
            return SPACE
        if n in m.groups:
            self.refs[id(e)] = ("group", n)
            return GROUP
        if any(a.name == n for a in m.accounts):
            self.refs[id(e)] = ("account", n)
            return ACCOUNT
        if n in m.decks:
            self.refs[id(e)] = ("deck", n)
            return DECK
        if n in m.tables:
            self.refs[id(e)] = ("table", n)
            return table_of(n)
        if n in m.game_vars and not constant:
            self.refs[id(e)] = ("game_var", n)
            return self.types.get(id(m.game_vars[n]), ANY)
        if n in CONTEXT_NAMES and not constant:
            self.refs[id(e)] = ("context", n)
            return CONTEXT_NAMES[n]
        if n in SHORTFALL_NAMES and scope.shortfall:
            self.refs[id(e)] = ("context", n)
            return SHORTFALL_NAMES[n]
        if n == "card" and scope.in_card:
            self.refs[id(e)] = ("context", n)
            return CARD
        if report:
            if constant and (n in CONTEXT_NAMES or n in m.game_vars):
                self.error(f"'{n}' changes during a game and cannot be used here", e.span,
                           "board fields, tables, constants and starting values must be fixed")
            elif n in SHORTFALL_NAMES:
                self.error(f"'{n}' exists only inside `on shortfall`", e.span, None)
            elif n == "card":
                self.error("'card' exists only inside a card's effect", e.span, None)
            else:
                everything = (list(m.options) + list(m.consts) + list(m.space_index) + list(m.groups)
                              + [a.name for a in m.accounts] + list(m.decks) + list(m.tables)
                              + list(m.game_vars) + list(CONTEXT_NAMES) + scope.visible())
                self.error(f"unknown name '{n}'", e.span, did_you_mean(n, everything))
        return ANY

    def expr(self, e: ast.Expr, scope: _Scope, constant: bool = False) -> str:
        t = self._expr(e, scope, constant)
        if t.endswith("?") and _path(e) in scope.narrowed:
            t = strip_optional(t)
        self.types[id(e)] = t
        return t

    def _expr(self, e: ast.Expr, scope: _Scope, constant: bool) -> str:
        m = self.m
        if isinstance(e, ast.IntLit):
            if abs(e.value) > MAX_NUMBER:
                self.error("this number is too large", e.span, f"numbers may have at most {len(str(MAX_NUMBER)) - 1} digits")
            return INT
        if isinstance(e, ast.TextLit):
            return TEXT
        if isinstance(e, ast.BoolLit):
            return BOOL
        if isinstance(e, ast.NoneLit):
            return NONE
        if isinstance(e, ast.Name):
            return self._name_type(e, scope, constant)
        if isinstance(e, ast.ListLit):
            items = {self.expr(i, scope, constant) for i in e.items} - {ANY}
            if len(items) > 1:
                self.error("a list must hold one type of thing", e.span,
                           "found " + ", ".join(describe(t) for t in sorted(items)))
            return list_of(next(iter(items)) if items else ANY)
        if isinstance(e, ast.Field):
            return self._field(e, scope, constant)
        if isinstance(e, ast.Index):
            subject_t = self.expr(e.subject, scope, constant)
            key_t = self.expr(e.key, scope, constant)
            name = table_name(subject_t)
            if name is not None:
                want, value_t = m.table_types.get(name, (ANY, ANY))
                if not compatible(want, key_t):
                    self.error(f"table '{name}' is looked up by {describe(want)}, not {describe(key_t)}",
                               e.key.span, None)
                return value_t
            elem = element_of(subject_t)
            if elem is not None and subject_t != GROUP:
                if not compatible(INT, key_t):
                    self.error("a list is indexed by a number", e.key.span, None)
                return elem
            if subject_t != ANY:
                self.error(f"cannot index {describe(subject_t)}", e.span, "only tables and lists have [ ]")
            return ANY
        if isinstance(e, ast.Call):
            return self._call(e, scope, constant)
        if isinstance(e, ast.Unary):
            t = self.expr(e.operand, scope, constant)
            want = INT if e.op == "-" else BOOL
            if not compatible(want, t):
                self.error(f"`{e.op}` needs {describe(want)}, not {describe(t)}", e.operand.span, None)
            return want
        if isinstance(e, ast.Binary):
            return self._binary(e, scope, constant)
        if isinstance(e, ast.Conditional):
            ct = self.expr(e.condition, scope, constant)
            if not compatible(BOOL, ct):
                self.error(f"the condition must be true/false, not {describe(ct)}", e.condition.span, None)
            a = self.expr(e.then, scope.child(_narrowings(e.condition, True)), constant)
            b = self.expr(e.otherwise, scope.child(_narrowings(e.condition, False)), constant)
            if a == NONE and b != NONE:
                return optional(b)
            if b == NONE and a != NONE:
                return optional(a)
            if not (compatible(a, b) or compatible(b, a)):
                self.error(f"both branches must give the same type ({describe(a)} vs {describe(b)})", e.span, None)
            return a if a != ANY else b
        if isinstance(e, ast.Aggregate):
            ct = self.expr(e.collection, scope, constant)
            elem = element_of(ct)
            if elem is None:
                self.error(f"cannot go through {describe(ct)}", e.collection.span, "use a list or a group")
                elem = ANY
            inner = scope.child()
            self.refs[id(e)] = ("local", self.define(inner, e.var, elem, e.span))
            bt = self.expr(e.body, inner, constant)
            if e.op == "sum":
                if not compatible(INT, bt):
                    self.error(f"`sum` adds numbers, not {describe(bt)}", e.body.span, None)
                return INT
            if e.op == "map":
                return list_of(bt)
            if not compatible(BOOL, bt):
                self.error(f"`{e.op}` needs a true/false test after ':'", e.body.span, None)
            return INT if e.op == "count" else list_of(elem) if e.op == "filter" else BOOL
        raise AssertionError(e)  # pragma: no cover

    def _field(self, e: ast.Field, scope: _Scope, constant: bool) -> str:
        m = self.m
        subject_t = self.expr(e.subject, scope, constant)
        if subject_t == ANY:
            return ANY
        base = strip_optional(subject_t)
        fields = dict(BUILTIN_FIELDS.get(base, {}))
        if base == PLAYER:
            fields.update({n: self.types.get(id(v), ANY) for n, v in m.player_vars.items()})
        elif base == SPACE:
            fields.update(m.space_fields)
            fields.update({n: self.types.get(id(v), ANY) for n, v in m.space_vars.items()})
        if e.name not in fields:
            if not fields:
                self.error(f"{describe(subject_t)} has no fields", e.span, None)
            else:
                self.error(f"{describe(base)} has no field '{e.name}'", e.span,
                           did_you_mean(e.name, fields) or "fields: " + ", ".join(sorted(fields)))
            return ANY
        if subject_t.endswith("?"):
            self.error(f"'{e.name}' of something that may be none", e.span,
                       "check it first, e.g. `if x != none { ... }`")
        return fields[e.name]

    def _call(self, e: ast.Call, scope: _Scope, constant: bool) -> str:
        m = self.m
        arg_types = [self.expr(a, scope, constant) for a in e.args]
        if e.function in m.functions:
            f = m.functions[e.function]
            params = tuple(_param_type(p.type) for p in f.params)
            result = m.function_types.get(e.function, ANY)
            self.refs[id(e)] = ("function", e.function)
            if constant and e.function in self.game_functions:
                self.error(f"'{e.function}' reads the game and cannot be used here", e.span,
                           "board fields, tables, constants and starting values must be fixed")
        elif e.function in BUILTINS:
            sig = BUILTINS[e.function]
            params, result = sig.params, sig.result
            self.refs[id(e)] = ("builtin", e.function)
            if constant and not sig.fixed:
                self.error(f"'{e.function}' depends on the game and cannot be used here", e.span, None)
        else:
            self.error(f"unknown function '{e.function}'", e.span,
                       did_you_mean(e.function, list(BUILTINS) + list(m.functions)))
            return ANY
        if len(arg_types) != len(params):
            self.error(f"'{e.function}' takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                       f"not {len(arg_types)}", e.span, None)
            return result
        for i, (want, got) in enumerate(zip(params, arg_types)):
            if not compatible(want, got):
                self.error(f"argument {i + 1} of '{e.function}' must be {describe(want)}, not {describe(got)}",
                           e.args[i].span, None)
        return result

    def _binary(self, e: ast.Binary, scope: _Scope, constant: bool) -> str:
        a = self.expr(e.left, scope, constant)
        if e.op == "has":
            if not compatible(CARD, a):
                self.error(f"`has` tests a card's tags, not {describe(a)}", e.left.span,
                           "test a card that cannot be none, e.g. `c != none and c has ...`"
                           if strip_optional(a) == CARD else None)
            tags = {t for d in self.m.decks.values() for c in d.cards for t in c.tags}
            if e.right.name not in tags:
                self.error(f"no card is tagged '{e.right.name}'", e.right.span,
                           did_you_mean(e.right.name, tags) or "tag a card with `tagged NAME` after its text")
            return BOOL
        if e.op in ("and", "or"):
            b = self.expr(e.right, scope.child(_narrowings(e.left, e.op == "and")), constant)
        else:
            b = self.expr(e.right, scope, constant)
        op = e.op
        if op in ("and", "or"):
            for t, side in ((a, e.left), (b, e.right)):
                if not compatible(BOOL, t):
                    self.error(f"`{op}` needs true/false, not {describe(t)}", side.span, None)
            return BOOL
        if op in ("+", "-", "*", "/", "%"):
            if op == "+" and a == TEXT and b == TEXT:
                return TEXT
            for t, side in ((a, e.left), (b, e.right)):
                if not compatible(INT, t):
                    self.error(f"`{op}` needs numbers, not {describe(t)}", side.span, None)
            return INT
        if op in ("<", "<=", ">", ">="):
            for t, side in ((a, e.left), (b, e.right)):
                if not compatible(INT, t):
                    self.error(f"`{op}` compares numbers, not {describe(t)}", side.span, None)
            return BOOL
        if op in ("==", "!="):
            if not comparable(a, b):
                self.error(f"cannot compare {describe(a)} with {describe(b)}", e.span, None)
            return BOOL
        if op in ("in", "not in"):
            elem = element_of(b)
            if elem is None:
                self.error(f"`{op}` needs a list or group on the right, not {describe(b)}", e.right.span, None)
            elif not comparable(elem, a):
                self.error(f"cannot look for {describe(a)} among {describe(b)}", e.span, None)
            return BOOL
        raise AssertionError(op)  # pragma: no cover


# The pieces of a text: an escaped brace, a hole (to its '}' or the end), or plain text.
_TEMPLATE = re.compile(r"\{\{|\}\}|\{[^{}]*\}?|[^{}]+|\}")


def _path(e: ast.Expr) -> str | None:
    """Return the canonical text of a name, field, index or call: the key of flow narrowing.

    Expressions have no side effects, so the same text means the same value
    within a condition and, unless a statement changes the game, after it.
    """
    if isinstance(e, (ast.Name, ast.Field, ast.Index, ast.Call)):
        from .formatter import expr as canonical

        return canonical(e)
    return None


def _still_narrowed(narrowed: frozenset[str], stmts: Iterable[ast.Stmt], scope: "_Scope") -> frozenset[str]:
    """Return the narrowings that still hold once `stmts` have run.

    A statement that changes the game (a payment, a card given, a variable
    set...) may make any field, variable or call none again; only local
    names it does not `set` stay known not to be none.
    """
    assigned: set[str] = set()
    changes_game = False
    for s in _walk_statements(list(stmts)):
        if isinstance(s, ast.Set) and len(s.target) == 1 and scope.lookup(s.target[0]) is not None:
            assigned.add(s.target[0])
        elif not isinstance(s, (ast.Let, ast.If, ast.For)):
            changes_game = True
    if not changes_game and not assigned:
        return narrowed
    return frozenset(p for p in narrowed if p.isidentifier() and scope.lookup(p) is not None and p not in assigned)


def _narrowings(cond: ast.Expr, holds: bool) -> frozenset[str]:
    """Return the paths known not to be none when `cond` is `holds`."""
    if isinstance(cond, ast.Binary):
        if cond.op in ("==", "!=") and (isinstance(cond.left, ast.NoneLit) or isinstance(cond.right, ast.NoneLit)):
            other = cond.right if isinstance(cond.left, ast.NoneLit) else cond.left
            path = _path(other)
            if path is not None and holds == (cond.op == "!="):
                return frozenset({path})
            return frozenset()
        if cond.op == "and" and holds:
            return _narrowings(cond.left, True) | _narrowings(cond.right, True)
        if cond.op == "or" and not holds:
            return _narrowings(cond.left, False) | _narrowings(cond.right, False)
    if isinstance(cond, ast.Unary) and cond.op == "not":
        return _narrowings(cond.operand, not holds)
    return frozenset()


def _literal_int(e: ast.Expr) -> int | None:
    """Return the number an expression writes out (`5`, `-5`), or None if it is not a written number."""
    if isinstance(e, ast.IntLit) and not isinstance(e.value, bool):
        return e.value
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.IntLit):
        return -e.operand.value
    return None


def _param_type(type_name: str) -> str:
    """Return the value type of a declared parameter (a `player` or `card` parameter is never none)."""
    return strip_optional(FIELD_TYPES[type_name])


def _walk_statements(stmts):
    """Yield every statement in a block, nested ones included."""
    stack = list(stmts)
    while stack:
        s = stack.pop()
        yield s
        if isinstance(s, ast.If):
            stack.extend(s.then)
            stack.extend(s.otherwise or ())
        elif isinstance(s, ast.For):
            stack.extend(s.body)
        elif isinstance(s, ast.Choose):
            for o in s.options:
                stack.extend(o.body)


def _reads_game(e: ast.Expr, refs: dict) -> bool:
    """Return True if an expression reads the running game (context names, variables, game built-ins)."""
    stack = [e]
    while stack:
        node = stack.pop()
        ref = refs.get(id(node))
        if ref is not None and ref[0] in ("context", "game_var"):
            return True
        if isinstance(node, ast.Call) and ref is not None and ref[0] == "builtin" and not BUILTINS[node.function].fixed:
            return True
        if isinstance(node, ast.Field) and node.name not in ("index", "name", "kind"):
            return True  # fields of players and spaces change during a game
        for value in attrs.astuple(node, recurse=False) if attrs.has(type(node)) else ():
            if isinstance(value, tuple):
                stack.extend(v for v in value if attrs.has(type(v)))
            elif attrs.has(type(value)) and not isinstance(value, ast.Span):
                stack.append(value)
    return False


def _walk_calls(e: ast.Expr):
    """Yield every Call node inside an expression."""
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            yield node
        for value in attrs.astuple(node, recurse=False) if attrs.has(type(node)) else ():
            if isinstance(value, tuple):
                stack.extend(v for v in value if attrs.has(type(v)))
            elif attrs.has(type(value)) and not isinstance(value, ast.Span):
                stack.append(value)


def check_declarations(header: ast.Header, decls: Iterable[ast.Declaration],
                       sources: dict[str, SourceText]) -> Model:
    """Check merged declarations; return the Model or raise LandlordError with every problem."""
    return Checker(sources).check(header, decls)
