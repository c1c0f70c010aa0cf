"""Pass 2b (checking), statements: every statement of a body, with its frame slots and narrowing.

`StatementPass` checks one statement at a time (dispatched by node class) and the
text templates statements carry; `check_bodies.BodyPass` builds on it for whole
declarations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..core.dispatch import dispatch_table, handles
from ..core.errors import did_you_mean
from ..core.installation import shown_name
from ..core.types import (
    ANY,
    BOOL,
    BUILTIN_FIELDS,
    CARD,
    CONTEXT_NAMES,
    DECK,
    DICE,
    GROUP,
    INT,
    NONE,
    PAYEE,
    PLAYER,
    SHORTFALL_NAMES,
    SPACE,
    compatible,
    describe,
    dice_set_name,
    element_of,
    is_optional,
    strip_optional,
    table_name,
)
from ..language import ast
from ..language.parser import parse_hole
from .check_base import PassBase
from .model import LITERAL_NAMES, SET_FILE, Scope, param_type
from .narrowing import narrowings, still_narrowed


class StatementPass(PassBase):
    """The checker's methods that check statements, one per statement class."""

    # ---------------------------------------------------------- statements
    def define(self, scope: Scope, name: str, type_: str, span: ast.Span) -> int:
        """Define a local name; refuse one that would hide a declared or built-in name."""
        m = self.m
        hidden = (
            "a space"
            if name in m.space_index
            else "a kind"
            if name in m.kinds
            else "a group"
            if name in m.groups
            else "an option"
            if name in m.options
            else "a constant"
            if name in m.consts
            else "a table"
            if name in m.tables
            else "a deck"
            if name in m.decks
            else "a variable"
            if name in m.game_vars
            else "an account"
            if any(a.name == name for a in m.accounts)
            else "a built-in name"
            if name in CONTEXT_NAMES or name in SHORTFALL_NAMES or name == "card" or name in LITERAL_NAMES
            else None
        )
        if hidden is not None:
            self.error(
                f"the local name '{name}' would hide {hidden} of the same name",
                span,
                "choose another name for the local",
            )
        return scope.define(name, type_)

    def block(self, stmts: Iterable[ast.Stmt], scope: Scope) -> None:
        for s in stmts:
            self.stmt(s, scope)
            if scope.narrowed:
                scope.narrowed = still_narrowed(scope.narrowed, [s], scope)

    def condition(self, e: ast.Expr, scope: Scope, where: str) -> None:
        t = self.expr(e, scope)
        if not compatible(BOOL, t):
            self.error(
                f"{where} must be true/false, not {describe(t)}", e.span, "compare it, e.g. `x > 0` or `owner != none`"
            )

    def expect(self, e: ast.Expr, scope: Scope, want: str, what: str) -> str:
        if want == PAYEE and isinstance(e, ast.Name) and self._unknown_payee(e, scope):
            return ANY
        t = self.expr(e, scope)
        if not compatible(want, t):
            self.error(f"{what} must be {describe(want)}, not {describe(t)}", e.span, self.mismatch_hint(want, t, e))
        return t

    def _unknown_payee(self, e: ast.Name, scope: Scope) -> bool:
        """Report a name that pays or is paid but names nothing, with the accounts as the hint; return True if so.

        The generic "did you mean" would offer any close name (a kind for `pot`),
        where only a player or an account can pay.
        """
        if self._name_type(e, scope, report=False) != ANY or self.annotations.ref(e) is not None:
            return False
        accounts = [a.name for a in self.m.accounts]
        players = ["player", *scope.visible()]
        close = did_you_mean(e.name, accounts + players)
        listed = (
            "the accounts: " + ", ".join(accounts)
            if accounts
            else 'the rules declare no account (`account NAME "LABEL"` adds one)'
        )
        self.error(
            f"unknown name '{e.name}'",
            e.span,
            close or f"{listed}; or a player, e.g. `player`",
            code="unknown-name",
            subject=e.name,
        )
        return True

    def _deck(self, name: str, span: ast.Span) -> None:
        if name not in self.m.decks:
            self.error(
                f"unknown deck '{name}'",
                span,
                did_you_mean(name, self.m.decks) or "declare it with `deck`",
                code="unknown-deck",
                subject=name,
            )

    def stmt(self, s: ast.Stmt, scope: Scope) -> None:
        """Check one statement with the method for its node class, defining the locals it introduces."""
        _STATEMENTS[type(s)](self, s, scope)

    @handles(ast.Pay)
    def _pay(self, s: ast.Pay, scope: Scope) -> None:
        m = self.m
        self.expect(s.amount, scope, INT, "an amount")
        self._not_negative(s.amount, "an amount paid")
        if isinstance(s.amount, ast.Field) and s.amount.name in m.space_fields:
            self.paid_fields.setdefault(s.amount.name, s.amount.span)
        self.expect(s.payer, scope, PAYEE, "who pays")
        self.expect(s.payee, scope, PAYEE, "who is paid")
        if s.purpose is not None:
            self._purpose(s, s.purpose)

    def _purpose(self, s: ast.Pay, purpose: str) -> None:
        """Report a payment for an undeclared purpose, or one its purpose's `reroute` would make to its own payer."""
        m = self.m
        if purpose not in m.purposes:
            self.error(
                f"unknown purpose '{purpose}'",
                s.purpose_span,
                self._purpose_hint(purpose),
                code="unknown-purpose",
                subject=purpose,
            )
            return
        reroute = m.reroutes.get(purpose)
        if (
            reroute is not None
            and isinstance(s.payer, ast.Name)
            and s.payer.name == reroute.account
            and any(a.name == reroute.account for a in m.accounts)  # (a reroute to a non-account is its own error)
        ):
            self.error(
                f"{reroute.account} would pay itself: this payment is made `as {purpose}`, "
                f"which the reroute at {reroute.span.file}:{reroute.span.line} sends to {reroute.account}",
                s.payer.span,
                f"drop `as {purpose}` here (a payment out of {reroute.account} is not one into it), "
                f"or reroute {purpose} to another account",
            )

    @handles(ast.Let)
    def _let(self, s: ast.Let, scope: Scope) -> None:
        t = self.expr(s.value, scope)
        self.annotations.set_ref(s, ("local", self.define(scope, s.name, t, s.span)))

    @handles(ast.If)
    def _if(self, s: ast.If, scope: Scope) -> None:
        self.condition(s.condition, scope, "an `if` condition")
        self.block(s.then, scope.child(narrowings(s.condition, True)))
        if s.otherwise is not None:
            self.block(s.otherwise, scope.child(narrowings(s.condition, False)))

    @handles(ast.For)
    def _for(self, s: ast.For, scope: Scope) -> None:
        t = self.expr(s.collection, scope)
        elem = element_of(t)
        if elem is None:
            self.error(f"cannot loop over {describe(t)}", s.collection.span, "loop over a list or a group")
            elem = ANY
        inner = scope.child()
        # the second time round comes after what the body did the first time
        inner.narrowed = still_narrowed(inner.narrowed, s.body, scope)
        self.annotations.set_ref(s, ("local", self.define(inner, s.var, elem, s.span)))
        self.block(s.body, inner)

    @handles(ast.Choose)
    def _choose(self, s: ast.Choose, scope: Scope) -> None:
        if s.chooser is not None:
            self.expect(s.chooser, scope, PLAYER, "who chooses")
        self.annotations.set_template(s, self.template(s.prompt, s.span, scope))
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
                inner.narrowed = still_narrowed(inner.narrowed, every_body, scope)
            if o.binding is not None:
                t = self.expr(o.binding[1], scope)
                elem = element_of(t)
                if elem is None:
                    self.error(f"cannot offer one option per item of {describe(t)}", o.binding[1].span, None)
                    elem = ANY
                self.annotations.set_ref(o, ("local", self.define(inner, o.binding[0], elem, o.span)))
            if o.guard is not None:
                self.condition(o.guard, inner, "an option's `when`")
                inner = inner.child(narrowings(o.guard, True))
            if o.label is not None:
                self.annotations.set_template(o, self.template(o.label, o.span, inner))
            if o.cost is not None:
                self.expect(o.cost, inner, INT, "an option's cost")
                self._not_negative(o.cost, "an option's cost")
            if o.value is not None:
                self.expect(o.value, inner, INT, "an option's value")
            self.block(o.body, inner)
        if s.done_when is not None:
            if not s.repeat:
                self.error(
                    "only an `offer` has a 'done' to guard", s.done_when.span, "write `offer`, or drop `done when`"
                )
            inner = scope.child()
            inner.narrowed = still_narrowed(inner.narrowed, every_body, scope)
            self.condition(s.done_when, inner, "an offer's `done when`")

    @handles(ast.Roll)
    def _roll(self, s: ast.Roll, scope: Scope) -> None:
        if s.dice != "dice" and s.dice not in self.m.dice_sets:
            self.error(
                f"unknown dice '{s.dice}'",
                s.name_span,
                did_you_mean(s.dice, ["dice", *self.m.dice_sets]) or f"declare them, e.g. `dice {s.dice} 1 sides 6`",
                code="unknown-dice",
                subject=s.dice,
            )
        if s.thrower is not None:
            self.expect(s.thrower, scope, PLAYER, "who throws")

    @handles(ast.MoveSteps)
    def _move_steps(self, s: ast.MoveSteps, scope: Scope) -> None:
        m = self.m
        self.expect(s.steps, scope, INT, "the number of steps")
        self._not_negative(s.steps, "the number of steps")
        if s.via is not None and s.direction == "backward":
            self.error("a jump `via` a group works only forward", s.span, "write `move forward ... via ...`")
        elif s.via is not None and s.via not in m.groups:
            self.error(
                f"unknown group '{s.via}'",
                s.name_span,
                did_you_mean(s.via, m.groups),
                code="unknown-group",
                subject=s.via,
            )
        if s.stop_at is not None and s.via is not None:
            self.error(
                "a move cannot both jump `via` a group and stop `stopping at`", s.stop_span, "drop one of the two"
            )
        elif s.stop_at is not None and s.stop_at not in m.groups and s.stop_at not in m.space_index:
            self.error(
                f"unknown space or group '{s.stop_at}'",
                s.stop_span,
                did_you_mean(s.stop_at, [*m.space_index, *m.groups]),
                code="unknown-space-or-group",
                subject=s.stop_at,
            )

    @handles(ast.MoveTo)
    def _move_to(self, s: ast.MoveTo, scope: Scope) -> None:
        self.expect(s.destination, scope, SPACE, "where to move")

    @handles(ast.Send)
    def _send(self, s: ast.Send, scope: Scope) -> None:
        self.expect(s.who, scope, PLAYER, "who is sent")
        self.expect(s.destination, scope, SPACE, "where to send")

    @handles(ast.Draw)
    def _draw(self, s: ast.Draw, scope: Scope) -> None:
        self._deck(s.deck, s.name_span)

    @handles(ast.GiveTurn)
    def _give_turn(self, s: ast.GiveTurn, scope: Scope) -> None:
        self.expect(s.player, scope, PLAYER, "whose turn is next")

    @handles(ast.Give)
    def _give(self, s: ast.Give, scope: Scope) -> None:
        self.expect(s.card, scope, CARD, "what is given")
        self.expect(s.recipient, scope, PLAYER, "who receives it")

    @handles(ast.Return)
    def _return(self, s: ast.Return, scope: Scope) -> None:
        self.expect(s.card, scope, CARD, "what is returned")
        self._deck(s.deck, s.name_span)

    @handles(ast.Shuffle)
    def _shuffle(self, s: ast.Shuffle, scope: Scope) -> None:
        self._deck(s.deck, s.name_span)

    @handles(ast.Deal)
    def _deal(self, s: ast.Deal, scope: Scope) -> None:
        self.expect(s.count, scope, INT, "how many cards")
        self._not_negative(s.count, "the number of cards")
        self._deck(s.deck, s.name_span)

    @handles(ast.Auction)
    def _auction(self, s: ast.Auction, scope: Scope) -> None:
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

    @handles(ast.Borrow)
    def _borrow(self, s: ast.Borrow, scope: Scope) -> None:
        self.expect(s.amount, scope, INT, "the amount to borrow")
        self.expect(s.interest, scope, INT, "the interest in percent")
        self._not_negative(s.amount, "the amount to borrow")
        self._not_negative(s.interest, "the interest")

    @handles(ast.Switch)
    def _switch(self, s: ast.Switch, scope: Scope) -> None:
        m = self.m
        if not any(r.name == s.rule for r in m.rules):
            self.error(
                f"unknown rule '{s.rule}'",
                s.name_span,
                did_you_mean(s.rule, [r.name for r in m.rules]),
                code="unknown-rule",
                subject=s.rule,
            )

    @handles(ast.Do)
    def _do(self, s: ast.Do, scope: Scope) -> None:
        m = self.m
        action = m.actions.get(s.action)
        arg_types = [self.expr(a, scope) for a in s.args]
        if action is None:
            self.error(
                f"unknown action '{s.action}'",
                s.span,
                did_you_mean(s.action, m.actions) or "declare it with `action NAME(...) { ... }`",
                code="unknown-action",
                subject=s.action,
            )
            return
        if len(arg_types) != len(action.params):
            self.error(
                f"action '{s.action}' takes {len(action.params)} argument"
                f"{'s' if len(action.params) != 1 else ''}, not {len(arg_types)}",
                s.span,
                None,
            )
            return
        for i, (p, got) in enumerate(zip(action.params, arg_types)):
            got = self.conform(param_type(p.type), s.args[i], got)
            if not compatible(param_type(p.type), got):
                self.error(
                    f"argument {i + 1} of '{s.action}' must be {describe(param_type(p.type))}, not {describe(got)}",
                    s.args[i].span,
                    self.mismatch_hint(param_type(p.type), got, s.args[i]),
                )

    @handles(ast.Eliminate)
    def _eliminate(self, s: ast.Eliminate, scope: Scope) -> None:
        self.expect(s.who, scope, PLAYER, "who leaves the game")

    @handles(ast.Say)
    def _say(self, s: ast.Say, scope: Scope) -> None:
        self.annotations.set_template(s, self.template(s.text, s.span, scope))

    @handles(ast.RepayLoans, ast.EndTurn, ast.EndGame, ast.CheckEnd)
    def _needs_no_check(self, s: ast.Stmt, scope: Scope) -> None:
        """Check nothing: these statements hold no expression and name nothing."""

    def _not_negative(self, e: ast.Expr, what: str) -> None:
        """Report a negative number written where the engine takes only amounts and counts from 0 up, or a constant
        used there whose value is one (as a variant or `with_constants` may restate it); return nothing."""
        value = _literal_int(e)
        if value is not None and value < 0:
            self.error(
                f"{what} cannot be negative ({value})",
                e.span,
                "to move money the other way, swap `from` and `to`" if what == "an amount paid" else None,
            )
            return
        const = self.m.consts.get(e.name) if isinstance(e, ast.Name) else None
        if const is None or self.annotations.ref(e) != ("const", const.name):
            return
        value = _literal_int(const.value)
        if value is not None and value < 0:
            # located at the value, the cause, wherever it was set: the use is right for any value from 0 up.
            # An error for a value set from outside (`--set`, with_constants), refused before any game; a warning
            # for one a rule file declares: a file that checked must still check (a game fails only if it
            # reaches the use)
            message = f"constant '{const.name}' is negative ({value}), but it is used as {what}"
            hint = f"it is used at {shown_name(e.span.file)}:{e.span.line}"
            if const.value.span.file == SET_FILE:
                self.error(message, const.value.span, hint)
            else:
                self.warn(message, const.value.span, hint)

    def _check_paid_fields(self) -> None:
        """Report a board field that some `pay` pays as it stands and that a space sets to a negative number."""
        for s in self.m.spaces:
            for name, value in s.fields:
                number = _literal_int(value)
                if name in self.paid_fields and number is not None and number < 0:
                    paid = self.paid_fields[name]
                    self.error(
                        f"field '{name}' of '{s.name}' is negative ({number}), but it is paid as an amount",
                        value.span,
                        f"it is paid at {shown_name(paid.file)}:{paid.line}",
                    )

    @handles(ast.Set)
    def _set(self, s: ast.Set, scope: Scope) -> None:
        m = self.m
        value_t = self.expr(s.value, scope)
        if len(s.target) == 1:
            name = s.target[0]
            local = scope.lookup(name)
            if local is not None:
                self.annotations.set_ref(s, ("local", local[1]))
                target_t = local[0]
            elif name in m.game_vars:
                self.annotations.set_ref(s, ("game_var", name))
                target_t = self.annotations.type_of(m.game_vars[name])
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
            owner_ref = self.annotations.forget_ref(owner_node)
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
                        f"declare `{base} var {field} = ...`" if table is not None else None
                    )
                self.error(f"cannot set '{owner_name}.{field}'", s.span, hint)
                return
            if owner_ref is None or owner_ref[0] not in ("local", "context", "space", "game_var"):
                self.error(f"cannot set a field of '{owner_name}'", s.span, None)
                return
            self.annotations.set_ref(s, (f"{base}_var", (field, owner_ref)))
            target_t = self.annotations.type_of(table[field])
        else:
            self.error("only `name` or `thing.field` can be set", s.span, None)
            return
        if s.op != "=" and not compatible(INT, target_t):
            self.error(f"`{s.op}` needs a number variable", s.span, None)
        value_t = self.conform(target_t, s.value, value_t)
        if not compatible(target_t, value_t) and not (is_optional(target_t) or (value_t == NONE and target_t != INT)):
            self.error(f"cannot set a variable holding {describe(target_t)} to {describe(value_t)}", s.value.span, None)

    def template(self, text: str, span: ast.Span, scope: Scope, constant: bool = False) -> list:
        """Split a prompt or label into text and the expressions of its `{...}` holes, checking each.

        `{{` and `}}` stand for literal braces. With `constant` the holes may
        use only what is fixed before a game (options, constants, tables).
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
                self.error(
                    f"a '{{' in the text {text!r} is never closed",
                    at,
                    "close the hole with '}', or write '{{' for a brace",
                )
                continue
            hole = parse_hole(piece[1:-1], at)
            if isinstance(hole, str):
                self.error(
                    f"cannot read the hole {piece} in the text {text!r}: {hole}",
                    at,
                    "a hole holds an expression, like {player} or {house_price(s)}",
                )
                continue
            self.in_template += 1
            try:
                t = self.expr(hole, scope, constant)
            finally:
                self.in_template -= 1
            if t != ANY and (
                strip_optional(t) in (GROUP, DECK, DICE)
                or table_name(t)
                or dice_set_name(t)
                or element_of(t) is not None
            ):
                self.error(
                    f"'{piece[1:-1]}' is {describe(t)}, which cannot be shown in a text",
                    at,
                    "show a player, space, card, account, number or text",
                )
            if literal:
                parts.append(literal)
                literal = ""
            parts.append(hole)
        if literal:
            parts.append(literal)
        return parts


# The pieces of a text: an escaped brace, a hole (to its '}' or the end), or plain text.
_TEMPLATE = re.compile(r"\{\{|\}\}|\{[^{}]*\}?|[^{}]+|\}")


def _literal_int(e: ast.Expr) -> int | None:
    """Return the number an expression writes out (`5`, `-5`), or None if it is not a written number."""
    if isinstance(e, ast.IntLit) and not isinstance(e.value, bool):
        return e.value
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.IntLit):
        return -e.operand.value
    return None


_STATEMENTS = dispatch_table(StatementPass, ast.Stmt)
