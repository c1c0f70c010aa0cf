"""Pass 2b (checking): the body pass.

`BodyPass` checks what declarations compute and do: constants, tables and
starting values, functions (their result types, and that none is recursive),
actions, cards, rules, end conditions and the score, statement by statement,
with a frame slot for every local. It is a part of `checker.Checker`; the
expressions are typed by `check_exprs.ExpressionPass`.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import attrs

from ..core.errors import did_you_mean
from ..core.types import ANY, INT, NONE, compatible, describe, optional
from ..language import ast
from .builtins import BUILTINS
from .check_stmts import StatementPass
from .model import Annotations, Scope, declared_type, param_type
from .narrowing import LANDED_ON, walk_statements


class BodyPass(StatementPass):
    """The checker's methods that check bodies and statements."""

    # -------------------------------------------------------------- bodies
    def _check_bodies(self) -> None:
        m = self.m
        for d in list(m.consts.values()):
            self.annotations.set_type(d, self.expr(d.value, Scope([0]), constant=True))
        for t in m.tables.values():
            keys = {self.expr(k, Scope([0]), constant=True) for k, _ in t.entries}
            values = {self.expr(v, Scope([0]), constant=True) for _, v in t.entries}
            seen_keys: list[object] = []
            for k, _ in t.entries:
                if isinstance(k, (ast.IntLit, ast.TextLit)):
                    if k.value in seen_keys:
                        self.error(f"table '{t.name}' has the key {k.value!r} twice", k.span, None)
                    seen_keys.append(k.value)
            if len(keys - {ANY}) > 1:
                self.error(f"the keys of table '{t.name}' mix types", t.span, "use all numbers or all names")
            if len(values - {ANY}) > 1:
                self.error(
                    f"the values of table '{t.name}' mix types: " + ", ".join(describe(v) for v in sorted(values)),
                    t.span,
                    None,
                )
            m.table_types[t.name] = (next(iter(keys - {ANY}), ANY), next(iter(values - {ANY}), ANY))
            if t.rising:
                self._check_rising(t)
        for table in (m.game_vars, m.player_vars, m.space_vars):
            for v in table.values():
                initial = self.expr(v.initial, Scope([0]), constant=True)
                declared = declared_type(v.type) if v.type else initial
                initial = self.conform(declared, v.initial, initial)
                if v.type and initial == NONE:
                    declared = optional(declared)
                if not compatible(declared, initial):
                    self.error(
                        f"variable '{v.name}' holds {describe(declared)} but starts as {describe(initial)}",
                        v.initial.span,
                        None,
                    )
                elif declared == NONE:
                    self.error(
                        f"variable '{v.name}' starts as none: declare its type, e.g. `var {v.name}: player = none`",
                        v.span,
                        None,
                    )
                self.annotations.set_type(v, declared)
        self._check_functions()
        for deck in m.decks.values():
            if deck.titles_in is not None and deck.titles_in not in m.groups:
                self.error(
                    f"unknown group or kind '{deck.titles_in}'",
                    deck.span,
                    did_you_mean(deck.titles_in, m.groups),
                    code="unknown-group-or-kind",
                    subject=deck.titles_in,
                )
            if deck.enabled is not None:
                frame = [0]
                self.condition(deck.enabled, Scope(frame), "a deck's `when`")
                self.annotations.set_frame(deck, frame[0])
            for card in deck.cards:
                # a card's text is fixed once the options are: its holes show options, constants and tables
                self.annotations.set_template(card, self.template(card.text, card.span, Scope([0]), constant=True))
                if card.share_of is not None and card.share_of not in m.space_index:
                    self.error(
                        f"unknown space '{card.share_of}'",
                        card.share_span,
                        did_you_mean(card.share_of, m.space_index) or "a card is a share `of` a space of the board",
                        code="unknown-space",
                        subject=card.share_of,
                    )
                frame = [0]
                scope = Scope(frame, in_card=True)
                self.block(card.body, scope)
                self.annotations.set_frame(card, frame[0])
        self._check_actions()
        rule_names = [r.name for r in m.rules]
        for rule in m.rules:
            for h in rule.handlers:
                self._check_handler(h)
            for t in rule.triggers:  # type: ignore[assignment]
                frame = [0]
                self.condition(t.condition, Scope(frame), "a trigger's condition")  # type: ignore[attr-defined]
                self.block(t.body, Scope(frame))  # type: ignore[attr-defined]
                self.annotations.set_frame(t, frame[0])
            for replaced in rule.replaces:
                if replaced not in rule_names:
                    self.error(
                        f"rule '{rule.name}' replaces an unknown rule '{replaced}'",
                        rule.span,
                        did_you_mean(replaced, rule_names),
                        code="unknown-rule",
                        subject=replaced,
                    )
                elif replaced == rule.name:
                    self.error(f"rule '{rule.name}' cannot replace itself", rule.span, None)
        for e in m.ends:
            frame = [0]
            self.condition(e.condition, Scope(frame), "an end condition")
            self.annotations.set_frame(e, frame[0])
        if m.score is not None:
            frame = [0]
            t = self.expr(m.score.formula, Scope(frame))  # type: ignore[assignment]
            self.annotations.set_frame(m.score, frame[0])
            if not compatible(INT, t):  # type: ignore[arg-type]
                self.error(f"the score must be a number, not {describe(t)}", m.score.formula.span, None)  # type: ignore[arg-type]

    def _check_rising(self, t: ast.TableDecl) -> None:
        """A `rising` table's values, in key order, must never fall (literal entries are checked)."""
        pairs = [(k.value, v.value) for k, v in t.entries if isinstance(k, ast.IntLit) and isinstance(v, ast.IntLit)]
        if len(pairs) != len(t.entries):
            self.error(f"table '{t.name}' is `rising`, so its keys and values must be plain numbers", t.span, None)
            return
        ordered = sorted(pairs)
        for (k0, v0), (k1, v1) in pairwise(ordered):
            if v1 < v0:
                entry = next(v for k, v in t.entries if isinstance(k, ast.IntLit) and k.value == k1)
                self.error(
                    f"table '{t.name}' is `rising` but falls from {v0} at {k0} to {v1} at {k1}",
                    entry.span,
                    "fix the value, or drop `rising` if the table is not meant to rise",
                )

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
                scope = Scope(frame)
                saved = len(self.diagnostics)
                for p in f.params:
                    self.define(scope, p.name, param_type(p.type), p.span)
                m.function_types[f.name] = self.expr(f.body, scope)
                self.annotations.set_frame(f, frame[0])
                if not final:
                    del self.diagnostics[saved:]
        for f in m.functions.values():
            calls[f.name] = {n.function for n in _walk_calls(f.body) if n.function in m.functions}
        # which functions read the game (directly or through other functions)
        self.game_functions = {f.name for f in m.functions.values() if _reads_game(f.body, self.annotations)}
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
                        self.error(
                            f"function '{start}' calls itself (through '{cur}')",
                            f.span,
                            "functions may not be recursive, so that every game ends",
                        )
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
            scope = Scope(frame)
            for p in a.params:
                self.annotations.set_ref(p, ("local", self.define(scope, p.name, param_type(p.type), p.span)))
            self.block(a.body, scope)
            self.annotations.set_frame(a, frame[0])
            calls[a.name] = {s.action for s in walk_statements(a.body) if isinstance(s, ast.Do)}
        for start in m.actions:
            stack, seen = [start], set()
            while stack:
                for nxt in calls.get(stack.pop(), ()):
                    if nxt == start:
                        self.error(
                            f"action '{start}' runs itself (directly or through others)",
                            m.actions[start].span,
                            "actions may not be recursive, so that every game ends",
                        )
                        stack = []
                        break
                    if nxt not in seen and nxt in calls:
                        seen.add(nxt)
                        stack.append(nxt)

    def _check_handler(self, h: ast.Handler) -> None:
        m = self.m
        if h.event in ("land", "pass"):
            if h.selector is not None and h.selector not in m.space_index and h.selector not in m.groups:
                self.error(
                    f"unknown space, kind or group '{h.selector}'",
                    h.selector_span,
                    did_you_mean(h.selector, list(m.space_index) + list(m.groups))
                    or "the kinds and groups: " + ", ".join(sorted(m.groups)) + "; or a space by its name",
                    code="unknown-space-kind-or-group",
                    subject=h.selector,
                )
        elif h.selector is not None:
            self.error(f"`on {h.event}` takes no space", h.selector_span, f"write `on {h.event} {{ ... }}`")
        frame = [0]
        landed = frozenset({LANDED_ON + h.selector}) if h.event == "land" and h.selector is not None else frozenset()
        scope = Scope(frame, shortfall=h.event == "shortfall", narrowed=landed)
        self.block(h.body, scope)
        self.annotations.set_frame(h, frame[0])


# The pieces of a text: an escaped brace, a hole (to its '}' or the end), or plain text.


def _reads_game(e: ast.Expr, annotations: Annotations) -> bool:
    """Return True if an expression reads the running game (context names, variables, game built-ins)."""
    stack = [e]
    while stack:
        node = stack.pop()
        ref = annotations.ref(node)
        if ref is not None and ref[0] in ("context", "game_var"):
            return True
        if isinstance(node, ast.Call) and ref is not None and ref[0] == "builtin" and not BUILTINS[node.function].fixed:
            return True
        if isinstance(node, ast.Field) and node.name not in ("index", "name", "kind"):
            return True  # fields of players and spaces change during a game
        stack.extend(_inner_nodes(node))
    return False


def _inner_nodes(node: object) -> list:
    """Return the syntax nodes directly inside a node: its fields' nodes and the nodes of its tuple fields,
    spans left out (the node's field names read once per class)."""
    kind = type(node)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in attrs.fields(kind)) if attrs.has(kind) else ()
    inner: list = []
    for name in names:
        value = getattr(node, name)
        if isinstance(value, tuple):
            inner.extend(v for v in value if attrs.has(type(v)))
        elif attrs.has(type(value)) and not isinstance(value, ast.Span):
            inner.append(value)
    return inner


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _walk_calls(e: ast.Expr) -> Iterator[ast.Call]:
    """Yield every Call node inside an expression."""
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            yield node
        stack.extend(_inner_nodes(node))
