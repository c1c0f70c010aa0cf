"""Code generation for statements: the bodies of handlers, cards, actions and triggers.

Each statement becomes lines of Python (engine calls, assignments, loops);
a `choose` or `offer` becomes the code that collects its legal options and
asks the chooser through Game.choose.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import attrs

from ..checking.narrowing import walk_statements
from ..core.dispatch import named_dispatch_table
from ..core.types import ACCOUNT, ANY, PLAYER, SPACE, is_optional, strip_optional
from ..language import ast
from ..language.limits import MAX_INT
from ..program.requests import DONE, ChoiceSite
from .codegen import Code, Compiled, made
from .codegen_expr import _CONTEXT, ExpressionCompiler
from .generated_names import Prefix


class _Option(NamedTuple):
    """An option of a `choose`, compiled for gathering its legal entries (StatementCompiler._options)."""

    k: int  # its number
    var: str  # the local its `for` binds, or "None"
    source: ast.ChoiceOption
    invariant: str | None  # code of the leading tests of its guard that do not depend on the entry
    guard: str | None  # code of the rest of its guard (None: nothing to test; "False": never legal)
    cost: Compiled
    value: Compiled
    always: bool  # offered every time: no `for`, no guard (or one the options fix to true)
    most_gain: int | None  # the greatest value - cost of an entry it can give, where known before the game
    least_cost: int | None  # the least cost of an entry it can give, where known before the game
    unless: tuple[str, Compiled, int] | None  # a value `if C then X else Y`, Y fixed: (code of C, X, Y)
    holds_when: tuple[str, str | None] | None  # where the guard's first test holds for every entry: (when, the rest)
    guard_fails: bool  # whether working out its guard's tests (`invariant` and `guard`) can fail
    guard_loops: bool  # whether they can start a loop (Compiled.loops)
    # code for the titles its `for` goes through instead of the player's titles, where its guard holds only on
    # titles of groups he owns whole: those the game keeps (`g.gfull`; None: the titles themselves)
    complete: str | None
    # for a hint `if C then X else Y` of a loop over a player's titles: C compiled, the loop's (local, player), and
    # the spaces the local can hold (what ExpressionCompiler.kept_titles needs)
    condition: Compiled | None = None
    titles_of: tuple[str, str] | None = None
    domain: frozenset[int] | None = None


_Emit = Callable[[Code, _Option], None]  # writes an option's code (StatementCompiler._legal)

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}  # `a OP b` is `b OP' a`


def _all_of(tests: list[str]) -> str | None:
    """Return code for the `and` of tests in code, in order (None if there are none)."""
    if len(tests) < 2:
        return tests[0] if tests else None
    return "(" + " and ".join(tests) + ")"


# statements an action written in place may hold (an `if`, a `set` of no local too): none binds a local
_IN_PLACE: tuple[type, ...] = (ast.Pay, ast.MoveSteps, ast.MoveTo, ast.Send, ast.Draw, ast.Give, ast.Return)
_IN_PLACE += (ast.Roll, ast.Shuffle, ast.Do, ast.EndTurn, ast.EndGame, ast.CheckEnd, ast.Switch, ast.Eliminate)
_INLINE_STATEMENTS = 3  # the most statements an action written in place may have


def _conjuncts(e: ast.Expr) -> list[ast.Expr]:
    """Return the tests of an `and` chain, left to right (the expression itself if it is no `and`)."""
    if isinstance(e, ast.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


class StatementCompiler(ExpressionCompiler):
    """Translates statements into lines of a generated function."""

    # --------------------------------------------------------- statements
    def block(self, out: Code, stmts: Sequence[ast.Stmt]) -> None:
        before = len(out.lines)
        counting = 0  # coverage counters' lines: without them the block is the same, `pass` included
        for s in stmts:
            self.note_origins(s)
            with out.at(s.span):
                counting += self.count(out, id(s))
                _STATEMENTS[type(s)](self, out, s)
        if len(out.lines) == before + counting:
            out.line("pass")

    def counted_block(self, out: Code, counted: Any, stmts: Sequence[ast.Stmt]) -> None:
        """Generate `stmts`, after the line counting a run of `counted` (coverage), if it is not None."""
        if counted is not None:
            self.count(out, id(counted))
        self.block(out, stmts)

    def note_origins(self, node: Any) -> None:
        """Record the declarations of other files (a variant's, say) whose values `node` uses, if any."""
        if len(self.sources) < 2:
            return
        file, m = node.span.file, self.m
        found: dict[ast.Span, str] = {}  # a declaration's span: how the node uses it ("constant 'x', used there")
        by_ref: dict[str, tuple[dict[str, Any], str]] = {
            "const": (m.consts, "constant"),
            "option": (m.options, "option"),
            "table": (m.tables, "table"),
            "game_var": (m.game_vars, "variable"),
            "function": (m.functions, "function"),
        }
        # a variable's starting value is followed too: `pay wages_now` with `var wages_now = wages` uses the
        # constant `wages` a variant (or with_constants) restates, though the variable is declared beside the pay
        stack: list[tuple[Any, str]] = [(node, "")]
        followed: set[int] = set()

        def follow(decl: ast.VarDecl, what: str) -> None:
            if id(decl) not in followed:
                followed.add(id(decl))
                stack.append((decl.initial, f", which {what} starts from"))

        def note(span: ast.Span, what: str, via: str) -> None:
            if not via or span not in found:  # a use of its own is said, rather than through a variable
                found[span] = what + (via or ", used there")

        while stack:
            n, via = stack.pop()
            if isinstance(n, tuple):
                stack.extend((part, via) for part in n)
                continue
            if not attrs.has(type(n)) or isinstance(n, ast.Span):
                continue
            ref: tuple[str | None, Any] = m.refs.get(id(n), (None, None))
            kind, payload = ref
            if kind in by_ref and isinstance(payload, str) and payload in by_ref[kind][0]:
                note(by_ref[kind][0][payload].span, f"{by_ref[kind][1]} '{payload}'", via)
                if kind == "game_var":
                    follow(m.game_vars[payload], f"variable '{payload}'")
            elif kind == "space":
                note(m.spaces[payload].span, f"space '{m.spaces[payload].name}'", via)
            if isinstance(n, ast.Field):
                for table, what in ((m.player_vars, "player variable"), (m.space_vars, "space variable")):
                    if n.name in table:
                        note(table[n.name].span, f"{what} '{n.name}'", via)
                        follow(table[n.name], f"{what} '{n.name}'")
                if n.name in m.space_fields:
                    setters = [sp for sp in m.spaces if sp.span.file != file and any(f == n.name for f, _ in sp.fields)]
                    for sp in setters[:3]:
                        note(sp.span, f"field '{n.name}' of space '{sp.name}'", via)
            elif isinstance(n, ast.Do) and n.action in m.actions:
                note(m.actions[n.action].span, f"action '{n.action}'", via)
            stack.extend((getattr(n, f.name), via) for f in attrs.fields(type(n)) if f.name != "span")
        notes = tuple(
            attrs.evolve(self.sources[span.file].diagnostic(f"{what}, is declared here", span), severity="note")
            for span, what in found.items()
            if span.file != file and span.file in self.sources
        )
        if notes:
            self.origins.append((node.span, notes))

    def ledger(self, e: ast.Expr) -> str:
        """Return code for the ledger index of a payer or payee."""
        t = self.type_of(e)
        compiled = self.expr(e)
        if strip_optional(t) == ACCOUNT and compiled.fixed:
            return repr(-compiled.value - 1)
        if t == PLAYER:
            return f"g.nacc + {compiled.code}"
        return f"_ledger(g, {compiled.code}, {self.span(e.span)})"

    def present(self, e: ast.Expr, what: str) -> str:
        code = self.code(e)
        if is_optional(self.type_of(e)) or self.type_of(e) == ANY:
            return f"_present(g, {code}, {self.span(e.span)}, {what!r})"
        return code

    def _s_Pay(self, out: Code, s: ast.Pay) -> None:
        payer = self.ledger(s.payer)
        payee_finite: bool | None
        reroute = self.m.reroutes.get(s.purpose) if s.purpose is not None else None
        if reroute is not None:  # the written payee is not paid, so it is not worked out either
            at = next(i for i, a in enumerate(self.m.accounts) if a.name == reroute.account)
            payee, payee_finite = repr(at), not self.m.accounts[at].unlimited
        else:
            payee, payee_finite = self.ledger(s.payee), self.finite(s.payee)
        method = "transfer"
        if self.optimize:  # where the kinds of both sides are known: a payment with fewer checks (Game.pay_within)
            method = {
                (True, True): "pay_within",
                (True, False): "pay_out",
                (False, True): "pay_in",
            }.get((self.finite(s.payer), payee_finite), "transfer")  # type: ignore[arg-type]
        out.line(f"g.{method}({self.code(s.amount)}, {payer}, {payee}, {self.span(s.span)})")

    def finite(self, e: ast.Expr) -> bool | None:
        """Return whether a payer or payee is a finite account (a player, an account not `unlimited`), or None
        if that is not known before the game."""
        if self.type_of(e) == PLAYER:
            return True
        compiled = self.expr(e)
        if strip_optional(self.type_of(e)) == ACCOUNT and compiled.fixed:
            return not self.m.accounts[-compiled.value - 1].unlimited
        return None

    def _s_Set(self, out: Code, s: ast.Set) -> None:
        kind, payload = self.resolved(s)
        value = self.kept(s.value)
        op = s.op
        if kind == "local":
            target = self.local(payload, s.target[0])
        elif kind == "game_var":
            target = f"g.gv[{self.game_var_index[payload]}]"
        else:
            field, (owner_kind, owner) = payload
            if owner_kind == "local":
                owner_code = self.local(owner, s.target[0])
            elif owner_kind == "space":
                owner_code = repr(owner)
            elif owner_kind == "game_var":
                owner_code = f"g.gv[{self.game_var_index.get(owner, 0)}]"
            else:
                owner_code = _CONTEXT[owner]
            index = (self.player_var_index if kind == "player_var" else self.space_var_index)[field]
            target = f"g.{'pv' if kind == 'player_var' else 'sv'}[{index}][{owner_code}]"
        if op == "=":
            out.line(f"{target} = {value}")
        else:  # adding again and again may leave the range even when what is added does not grow
            # worked out before it is stored: a value out of range is never kept, and the target is read once
            out.line(f"_sum = {target} {op[0]} ({value})")
            out.line(f"if not -{MAX_INT} <= _sum <= {MAX_INT}:")
            out.line(f"    _kept_int(g, _sum, {self.span(s.span)})")
            out.line(f"{target} = _sum")

    def _s_Let(self, out: Code, s: ast.Let) -> None:
        out.line(f"{self.local(self.m.refs[id(s)][1], s.name)} = {self.kept(s.value)}")

    def _s_If(self, out: Code, s: ast.If) -> None:
        condition = self.expr(s.condition)
        if condition.fixed:
            arm = "then" if condition.value else "else"
            chosen = s.then if condition.value else s.otherwise
            if chosen:
                self.count(out, (id(s), arm))
                self.block(out, chosen)
            return
        out.line(f"if {condition.code}:")
        with out.indented():
            self.count(out, (id(s), "then"))
            self.block(out, s.then)
        if s.otherwise:
            out.line("else:")
            with out.indented():
                self.count(out, (id(s), "else"))
                self.block(out, s.otherwise)

    def _s_For(self, out: Code, s: ast.For) -> None:
        var = self.local(self.m.refs[id(s)][1], s.var)
        compiled = self.expr(s.collection)
        # a copy, which the body cannot change; a fixed collection is a tuple already
        copy = compiled.code if compiled.fixed and isinstance(compiled.value, tuple) else f"list({compiled.code})"
        collection = self.counted_loop(out, s.collection, copy, s.body, s.span)
        out.line(f"for {var} in {collection}:")
        with out.indented():
            self.block(out, s.body)
            if self._stops_when_false(s, var, compiled):
                out.line("else:")
                index = self.counters.get(id(s.body[0]))
                if index is not None:  # (the tests the later items would have made, counted all the same)
                    self.counters_used.add(index)
                    out.line(f"    _cov[{index}] += {len(compiled.value) - 1} - {copy}.index({var})")
                out.line("    break")

    def _stops_when_false(self, s: ast.For, var: str, collection: Compiled) -> bool:
        """Return True if a loop may stop at the first item for which its body, one `if` without `else`, finds its
        test false: nothing has run since the test, which reads neither the loop's local nor the work budget (no
        loop of its own), so it is false for every later item too (1933's three throws of a turn stop at the
        first that is no double). Only over a fixed tuple of distinct numbers or texts, whose later items a
        coverage counter can count from the item's place."""
        items = collection.value
        if not self.optimize or len(s.body) != 1 or not collection.fixed or not isinstance(items, tuple):
            return False
        if not all(item.__class__ in (int, str) for item in items) or len(set(items)) != len(items):
            return False
        test = s.body[0]
        if not isinstance(test, ast.If) or test.otherwise:
            return False
        condition = self.expr(test.condition)
        return not condition.fixed and not condition.loops and var not in condition.reads[1]

    def _inlinable(self, body: tuple) -> bool:
        """Return True if an action's body may be written in place of its calls (`_s_Do`): a few statements
        (an `if` counts with those in its branches), none binding a local or setting one."""
        statements = list(walk_statements(body))
        return len(statements) <= _INLINE_STATEMENTS and all(
            isinstance(st, (ast.If, *_IN_PLACE)) or (isinstance(st, ast.Set) and self.resolved(st)[0] != "local")
            for st in statements
        )

    def _s_Choose(self, out: Code, s: ast.Choose) -> None:
        n = self._unique("")
        pick, chosen = f"_pick{n}", f"_k{n}"
        seat = self.code(s.chooser) if s.chooser is not None else "g.actor"
        prompt = self.text(self.m.templates.get(id(s), [s.prompt])).code
        names = [o.name for o in s.options]
        labels: list[str | None] = []
        dynamic = []  # (option number, label code, option) for labels that depend on the game
        for k, o in enumerate(s.options):
            label = self.text(self.m.templates.get(id(o), [o.label or o.name]))
            labels.append(label.value if label.fixed else None)
            if not label.fixed:
                dynamic.append((k, label.code, o))
        done = len(s.options)  # an offer's "done" is the option after the rule's own
        if s.repeat:
            names.append("done")
            labels.append("Done")
        site_names = tuple(names)
        choice_site = ChoiceSite(site_names, tuple(labels), s.prompt, s.span, done if s.repeat else None)
        site = self.ref(choice_site, Prefix.CHOICE_SITE)
        # a seat named by a local (or the acting player) is read once more, for its agent, at no risk
        fold = self.optimize and (seat == "g.actor" or self.is_local(seat))
        stable: dict[str, str] = {}  # what the rounds read of the moment that their bodies do not change
        rounds = out.fork()  # written first: what the rounds read is known once they are
        if s.repeat:
            rounds.line(f"for _round{n} in _OFFER_ROUNDS:")
        with rounds.indented() if s.repeat else contextlib.nullcontext():
            if fold:
                if not s.repeat:
                    rounds.line(f"_agent{n} = g.agents[{seat}]")
                rounds.line(f"if {f'_folded{n}' if s.repeat else f'_agent{n}.__class__ in _FOLDED'}:")
                with rounds.indented():
                    folded = lambda body: self._folded_choice(body, s, n, seat, prompt, site, site_names)  # noqa: E731
                    self._gathering(rounds, n, folded, stable)
                rounds.line("else:")
            with rounds.indented() if fold else contextlib.nullcontext():
                asked = lambda body: self._asked_choice(body, s, n, seat, prompt, site, dynamic)  # noqa: E731
                start = len(rounds.lines)
                self._gathering(rounds, n, asked, stable)
                if fold:  # only agents not folded ask here: the driven program compiles it on first use
                    rounds.asking.append((start, len(rounds.lines), n, s.repeat))
        for name, code in stable.items():
            out.line(f"{name} = {code}")
        if fold and s.repeat:  # the seat and its agent stay the same from round to round
            out.line(f"_agent{n} = g.agents[{seat}]")
            out.line(f"_folded{n} = _agent{n}.__class__ in _FOLDED")
        out.extend(rounds)
        with out.indented() if s.repeat else contextlib.nullcontext():
            out.line(f"{chosen} = {pick}[0]")
            if s.repeat:
                out.line(f"if {chosen} == {done}:")
                with out.indented():
                    self.count(out, (id(s), "done"))
                    out.line("break")
            for k, o in enumerate(s.options):
                out.line(f"{'if' if k == 0 else 'elif'} {chosen} == {k}:")
                with out.indented():
                    self.count(out, id(o))
                    if o.binding is not None:
                        out.line(f"{self.local(self.m.refs[id(o)][1], o.binding[0])} = {pick}[1]")
                    self.block(out, o.body)
        if s.repeat:
            out.line("else:")  # the loop ran out of rounds: say so in the log
            out.line(f"    g.offer_closed({site})")

    def _gathering(self, out: Code, n: str, generate: Callable[[Code], None], stable: dict[str, str]) -> None:
        """Generate, with `generate(code)`, one round of gathering a choice's legal options and picking one.

        Guards and hints change nothing, so what they read of the moment (the
        acting player, his cash, the turn number, the amount due) stays the
        same while the options are gathered: with optimisation it is read into
        locals, the player's cash at the start of the round, the others (which
        the options' bodies cannot change either) into `stable`, to be read
        once before the rounds.
        """
        if not self.optimize:
            generate(out)
            return
        body = out.fork()
        outer = self.round_reads, self.round_names
        self.round_reads = {}
        self.round_names = {what: f"_{what}{n}" for what in ("player", "cash", "turn_number", "due")}
        try:
            generate(body)
            reads, cash = self.round_reads, self.round_names["cash"]
        finally:
            self.round_reads, self.round_names = outer
        for name, code in reads.items():
            if name == cash:
                out.line(f"{name} = {code}")
            else:
                stable[name] = code
        out.extend(body)

    def _options(self, s: ast.Choose) -> list[_Option]:
        """Return the options of a choice compiled for gathering their legal entries.

        The folded bot's round and the asking round compile them alike (each from an empty set of round
        reads, under the same round names), so the second takes the first's, with the round reads
        compiling them noted.
        """
        reads, made = self.round_reads, self.options_made
        if reads != {}:  # not the first thing compiled for a round: compiled as it comes
            return self._compile_options(s)
        if made is not None and made[0] is s and made[1] == self.round_names:
            reads.update(made[3])
            return made[2]
        options = self._compile_options(s)
        self.options_made = (s, dict(self.round_names), options, dict(reads))
        return options

    def _compile_options(self, s: ast.Choose) -> list[_Option]:
        options = []
        zero = self._const(0)
        for k, o in enumerate(s.options):
            var = self.local(self.m.refs[id(o)][1], o.binding[0]) if o.binding is not None else "None"
            domain = self.domain_of(o.binding[1]) if o.binding is not None else None
            titles_of = self.holder(var, o.binding[1]) if o.binding is not None else None
            with self.narrowed([(var, domain)], True, titles_of):
                invariant, guard, holds_when, tests = self._guard(o, var)
                with self.narrowed(self._membership(o.guard)):
                    cost = self.expr(o.cost) if o.cost is not None else zero
                    value = self.expr(o.value) if o.value is not None else zero
                    domain = self.domains.get(var, domain) if o.binding is not None else None
                    unless = self._unless(o.value) if not value.fixed else None
                    condition = None
                    if unless is not None and titles_of is not None:
                        assert isinstance(o.value, ast.Conditional)
                        condition = self.expr(o.value.condition)
                        kept = self.kept_titles(condition, *titles_of, domain)
                        if kept is not None:  # C holds of the player's title where the game keeps it
                            test, then, otherwise = f"({var} in {kept})", unless[1], unless[2]
                            value = made(f"({then.code} if {test} else {otherwise!r})", then, game=True, plain=False)
                            unless = (test, then, otherwise)
                complete = self._complete_titles(var, titles_of, tests)
                whole = self._whole_group(var, titles_of, tests)
                light = not (any(test.loops for test in tests) or cost.loops or value.loops)
                loop = o.binding[1] if o.binding is not None else None
                if whole is not None and loop is not None and self.uncounted(loop, None, light):
                    # its loop goes through the titles of the groups he owns whole alone: that he owns the
                    # entry's group whole is true of every entry, so the guard is written without that test
                    # (and the entry is a space with a group under that field: what is true of all of those folds)
                    outer, self.whole_owned = self.whole_owned, self.whole_owned | {whole}
                    column = next(numbers for number, numbers in self.counted_fields.values() if number == whole[0])
                    try:
                        with self.narrowed([(var, frozenset(i for i, k in enumerate(column) if k is not None))]):
                            invariant, guard, holds_when, tests = self._guard(o, var)
                    finally:
                        self.whole_owned = outer
            spaces = sorted(domain) if o.binding is not None and domain else None
            costs = self._by_entry(cost, var, spaces)
            values = self._by_entry(value, var, spaces)
            gains = None if costs is None or values is None else [v - c for c, v in zip(costs, values)]
            if invariant is not None and o.binding is None:  # tested once anyway
                invariant, guard = None, invariant if guard is None else f"({invariant} and {guard})"
            options.append(
                _Option(
                    k,
                    var,
                    o,
                    invariant,
                    guard,
                    cost,
                    value,
                    o.binding is None and guard is None and invariant is None,
                    max(gains) if gains else None,
                    min(costs) if costs else None,
                    unless,
                    holds_when if o.binding is not None else None,
                    any(test.can_fail for test in tests),
                    any(test.loops for test in tests),
                    complete,
                    condition,
                    titles_of,
                    None if domain is None else frozenset(domain),
                )
            )
        return options

    def _complete_titles(self, var: str, titles_of: tuple[str, str] | None, tests: list[Compiled]) -> str | None:
        """Return code for the titles of the groups a player owns whole, which the game keeps (Cards.count_groups),
        for an option's loop over that player's titles (`titles_of`: the loop's local and the player's code) whose
        guard's `tests` hold only on such titles (Compiled.requires) and cannot fail; else None.

        Skipping the other titles then skips only entries whose guard is false, which the options' loops
        neither count nor record: the same legal entries in the same order (the titles' board order).
        """
        whole = self._whole_group(var, titles_of, tests)
        if whole is None:
            return None
        field, player, _ = whole
        kept = self.complete_fields.setdefault(field, len(self.complete_fields))
        return f"g.gfull[{kept}][{player}]"

    def _whole_group(
        self, var: str, titles_of: tuple[str, str] | None, tests: list[Compiled]
    ) -> tuple[int, str, str] | None:
        """Return the fact (Compiler.whole_owned) that an option's loop over a player's titles may rely on when it
        goes through the titles of the groups he owns whole (`_complete_titles`, from the same `tests`), else None."""
        if titles_of is None or any(test.can_fail for test in tests):
            return None
        for field, player, space in sorted(set().union(*(test.requires for test in tests))):
            if space == var and player == titles_of[1]:
                return field, player, space
        return None

    def _unless(self, value: ast.Expr | None) -> tuple[str, Compiled, int] | None:
        """Return (code of C, X compiled, Y) for a hint `if C then X else Y` whose Y the options fix to a whole
        number, else None."""
        if not isinstance(value, ast.Conditional):
            return None
        otherwise = self.expr(value.otherwise)
        condition = self.expr(value.condition)
        if not otherwise.fixed or otherwise.value.__class__ is not int or condition.fixed:
            return None
        return condition.code, self.expr(value.then), otherwise.value

    def _guard(
        self, o: ast.ChoiceOption, var: str
    ) -> tuple[str | None, str | None, tuple[str, str | None] | None, list[Compiled]]:
        """Return code for an option's guard as (its leading tests that do not depend on the entry and are
        worked out from the round's locals alone, tested once before the option's loop; the rest; and,
        where the rest begins with a test that a round's locals can make true for every entry, (code of
        that condition, the rest without the test)), None where there is nothing to test ("False" for a
        guard the options fix to false); and, last, the tests written into that code."""
        if o.guard is None:
            return None, None, None, []
        slot = self.m.refs[id(o)][1] if o.binding is not None else None
        leading: list[str] = []
        rest: list[str] = []
        holds_when = None
        facts: list[tuple[str, frozenset[int] | None]] = []
        written: list[Compiled] = []
        for test in _conjuncts(o.guard):  # as `and` compiles them: each narrowed by the tests before it
            with self.narrowed(facts):
                compiled = self.expr(test)
                if not rest and slot is not None and not compiled.fixed:
                    holds_when = self._holds_for_every_entry(test, var)
            facts = facts + self._membership(test)
            if compiled.fixed:
                if not compiled.value:
                    return None, "False", None, []
                continue
            written.append(compiled)
            if not rest and (slot is None or not self._reads_local(test, slot)) and self._round_local(compiled):
                leading.append(compiled.code)
                holds_when = None
            else:
                rest.append(compiled.code)
        if holds_when is not None:
            return _all_of(leading), _all_of(rest), (holds_when, _all_of(rest[1:])), written
        return _all_of(leading), _all_of(rest), None, written

    def _holds_for_every_entry(self, test: ast.Expr, var: str) -> str | None:
        """Return code for a condition on the round's locals alone under which `test`, a comparison of them
        with a number that depends on the entry's space alone (a table, see `_by_space`), holds for every
        space `var` can be: `player.cash >= house_price(s)` holds whenever the cash is at least the
        greatest house price. None if `test` is no such comparison."""
        if not (isinstance(test, ast.Binary) and test.op in _FLIP):
            return None
        left, right, op = self.expr(test.left), self.expr(test.right), test.op
        if self._round_local(right):  # the entry's number on the left: `t <= x` is `x >= t`
            left, right, op = right, left, _FLIP[op]
        domain = self.domains.get(var)
        if not (self._round_local(left) and right.by_space is not None and right.by_space[1] == var and domain):
            return None
        values = [self.ns[right.by_space[0]][space] for space in domain]
        bound = max(values) if op in (">=", ">") else min(values)
        return f"{left.code} {op} {bound}"

    def _round_local(self, compiled: Compiled) -> bool:
        """Return True if compiled code reads nothing but the round's locals and constants, and cannot fail:
        a test that may move before the loop it is made in (ExpressionCompiler.round_read)."""
        reads_game, names = compiled.reads
        return (
            self.round_reads is not None
            and compiled.never_fails
            and compiled.plain
            and not reads_game
            and names <= self.round_reads.keys()
        )

    def _reads_local(self, node: Any, slot: object) -> bool:
        """Return True if an expression reads the local in `slot`."""
        if isinstance(node, tuple):
            return any(self._reads_local(x, slot) for x in node)
        if not attrs.has(type(node)) or isinstance(node, ast.Span):
            return False
        if isinstance(node, ast.Name) and self.refs.get(id(node)) == ("local", slot):
            return True
        return any(self._reads_local(getattr(node, f.name), slot) for f in attrs.fields(type(node)) if f.name != "span")

    def _by_entry(self, hint: Compiled, var: str, spaces: list[int] | None) -> list[int] | None:
        """Return the values a hint takes over an option's entries, if they are whole numbers known before the
        game: one for each of the `spaces` its `for` can bind (if given), else its one fixed value; else None."""
        if hint.fixed:
            return None if hint.value.__class__ is not int else [hint.value] * (len(spaces) if spaces else 1)
        if not spaces:
            return None
        values = self.values_by_space(hint.code, var, frozenset(spaces))
        if values is None or any(values[space].__class__ is not int for space in spaces):
            return None
        return [values[space] for space in spaces]

    def _asked_choice(
        self,
        out: Code,
        s: ast.Choose,
        n: str,
        seat: str,
        prompt: str,
        site: str,
        dynamic: list[tuple[int, str, ast.ChoiceOption]],
    ) -> None:
        """Generate code that collects the legal entries and asks the seat's agent; `_pick{n}` is the entry taken."""
        legal, pick = f"_legal{n}", f"_pick{n}"
        done = len(s.options)

        def append(out: Code, option: _Option) -> None:
            out.line(f"{legal}.append(({option.k}, {option.var}, {option.cost.code}, {option.value.code}))")

        out.line(f"{legal} = []")
        self._legal(out, self._options(s), append)
        if s.repeat:
            out.line(f"if not {legal}:")
            out.line("    break")
            if s.done_when is None:
                out.line(f"{legal}.append(({done}, None, 0, 0))")
            else:
                out.line(f"if {self.code(s.done_when)}:")
                out.line(f"    {legal}.append(({done}, None, 0, 0))")
        describe = "None"
        if dynamic:
            # the labels people read, computed only if somebody reads them
            describe = f"_describe{n}"
            out.line(f"def {describe}(k, x):")
            with out.indented():
                for k, code, o in dynamic:
                    out.line(f"if k == {k}:")
                    with out.indented():
                        if o.binding is not None:
                            out.line(f"{self.local(self.m.refs[id(o)][1], o.binding[0])} = x")
                        out.line(f"return {code}")
        ask = f"g.choose({seat}, {prompt}, {legal}, {site}, {describe})"
        if s.repeat:
            out.line(f"{pick} = {ask}")
        else:  # one legal option is taken without asking (Game.choose does the same)
            out.line(f"{pick} = {legal}[0] if len({legal}) == 1 else {ask}")

    def _folded_choice(
        self, out: Code, s: ast.Choose, n: str, seat: str, prompt: str, site: str, names: tuple[str, ...]
    ) -> None:
        """Generate HeuristicAgent's choice worked out inside the option loops; `_pick{n}` is (option, bound value).

        The same options are tried in the same order, with the same guards and
        hints, and the answer recorded as `Game.choose` would (its index among
        the legal entries, DONE for an offer's done), but no list of entries,
        request or prompt is made unless it is needed: a menu whose answer is
        "done" costs its guards and hints. Where the answer is settled, the rest is skipped:
        - in an offer whose done is always there (its gain, 0, is the one to
          beat), an option the bot can never take (a loss whatever it binds,
          worked out before the game) is only counted, and such options at the
          end are not tried at all: they are looked for only when nothing
          before them is legal, to know whether the offer is made;
        - in such an offer, when every option costs something and the seat can
          afford none (its limit is below the least cost), only whether the
          offer is made is looked for;
        - an option whose every entry gains no more than the best found so far
          (known before the game) is not tried once the answer is recorded
          anyway (two entries are legal, or done is always there);
        - an entry's gain is worked out only if it is affordable, and, in an
          offer, a gain `if C then X else Y` whose Y never beats done only where C holds.
        The pick is the first legal entry with the greatest value - cost among those
        costing at most the seat's cash less its reserve (or nothing), else the first cheapest.
        """
        choice = _FoldedChoice(self, s, n, seat)
        choice.start(out)
        choice.search(out)
        choice.close(out, prompt, site)
        choice.record(out, names)

    def _legal(
        self,
        out: Code,
        options: list[_Option],
        emit: _Emit,
        before: _Emit | None = None,
        after: _Emit | None = None,
        which: Iterable[int] | None = None,
        settled: Callable[[int], str | None] | None = None,
    ) -> None:
        """Generate the loops over a choice's options, calling `emit(out, option)` in each guard.

        `before` and `after(out, option)`, if given, are called just before
        and after each option's code (its loop, for a `for` option).
        `which`: the option numbers to generate, in order (all of them if None).
        `settled(k)`, if given, returns code for a test that makes the code of option k skipped, or None.
        """
        for k in range(len(options)) if which is None else which:
            option = options[k]
            o = option.source
            skip = settled(k) if settled is not None else None
            if skip is not None:
                out.line(f"if not ({skip}):")
            with out.indented() if skip is not None else contextlib.nullcontext():
                if before is not None:
                    before(out, option)
                binding = o.binding
                loop = binding is not None
                hoisted = loop and option.invariant is not None  # a test of the moment alone: made once
                if binding is not None:
                    inner = (o.guard, o.cost, o.value)
                    light = not (option.guard_loops or option.cost.loops or option.value.loops)
                    titles = self.iterable(binding[1])
                    coll = self.counted_loop(out, binding[1], titles, inner, o.span, light)
                    if option.complete is not None and coll == titles:  # (a loop counted goes through them all)
                        coll = option.complete
                    if hoisted:
                        out.line(f"if {option.invariant}:")
                with out.indented() if hoisted else contextlib.nullcontext():
                    # where the guard's first test holds for every entry this round, a loop without it
                    versioned = option.holds_when is not None and loop
                    versions: list[tuple[str | None, str | None]] = [(None, option.guard)]
                    if option.holds_when is not None and loop:
                        versions.insert(0, option.holds_when)
                    for when, guard in versions:
                        if versioned:
                            out.line(f"if {when}:" if when is not None else "else:")
                        with out.indented() if versioned else contextlib.nullcontext():
                            if loop:
                                out.line(f"for {option.var} in {coll}:")
                            with out.indented() if loop else contextlib.nullcontext():
                                if guard is not None:
                                    out.line(f"if {guard}:")
                                with out.indented() if guard is not None else contextlib.nullcontext():
                                    emit(out, option)
                if after is not None:
                    after(out, option)

    def _s_Roll(self, out: Code, s: ast.Roll) -> None:
        thrower = "None" if s.thrower is None else self.present(s.thrower, "the thrower")
        if s.dice != "dice":
            out.line(f"g.roll_set({self.dice_set_number(s.dice)}, {thrower})")
        else:
            out.line("g.roll()" if s.thrower is None else f"g.roll({thrower})")

    def _s_GiveTurn(self, out: Code, s: ast.GiveTurn) -> None:
        out.line(f"g.give_turn({self.present(s.player, 'the player to play next')}, {self.span(s.span)})")

    def _s_MoveSteps(self, out: Code, s: ast.MoveSteps) -> None:
        if s.stop_at is not None:
            stops = self.groups[s.stop_at] if s.stop_at in self.groups else (self.m.space_index[s.stop_at],)
            out.line(
                f"g.move_steps({self.code(s.steps)}, {s.direction == 'forward'}, None, {self.span(s.span)}, "
                f"{self.literal(tuple(stops))})"
            )
            return
        if s.via is None and s.direction == "forward":
            out.line(f"g.advance({self.code(s.steps)}, {self.span(s.span)})")
            return
        via = self.literal(self.groups[s.via]) if s.via is not None else "None"
        out.line(f"g.move_steps({self.code(s.steps)}, {s.direction == 'forward'}, {via}, {self.span(s.span)})")

    def _s_MoveTo(self, out: Code, s: ast.MoveTo) -> None:
        out.line(f"g.move_to({self.present(s.destination, 'the destination')})")

    def _s_Send(self, out: Code, s: ast.Send) -> None:
        out.line(
            f"g.send({self.present(s.who, 'the player to send')}, {self.present(s.destination, 'the destination')})"
        )

    def _s_Draw(self, out: Code, s: ast.Draw) -> None:
        self.decks_drawn.add(s.deck)
        out.line(f"g.draw({s.deck!r})")

    def _s_Give(self, out: Code, s: ast.Give) -> None:
        out.line(
            f"g.set_holder({self.present(s.card, 'the card to give')}, "
            f"{self.present(s.recipient, 'the player to receive it')})"
        )

    def _s_Return(self, out: Code, s: ast.Return) -> None:
        card = s.card
        title = (
            isinstance(card, ast.Field) and card.name == "title" and strip_optional(self.type_of(card.subject)) == SPACE
        )
        self.decks_returned_to[s.deck] = self.decks_returned_to.get(s.deck, False) or not title
        out.line(f"g.return_card({self.present(card, 'the card to return')}, {s.deck!r})")

    def _s_Shuffle(self, out: Code, s: ast.Shuffle) -> None:
        out.line(f"g.shuffle({s.deck!r})")

    def _s_Deal(self, out: Code, s: ast.Deal) -> None:
        out.line(f"g.deal({self.code(s.count)}, {s.deck!r})")

    def _s_Auction(self, out: Code, s: ast.Auction) -> None:
        step = "1"
        if s.step is not None:
            compiled = self.expr(s.step)
            step = repr(max(1, compiled.value)) if compiled.fixed else f"max(1, {compiled.code})"
        first = self.code(s.first) if s.first is not None else "None"
        value = self.code(s.value) if s.value is not None else "None"
        space = f"_space{self._unique('')}"
        out.line(f"{space} = {self.code(s.space)}")
        # an owned title is not for sale: skip the call (and its price) at once
        out.line(f"if g.owner[{space}] is None:")
        out.line(
            f"    g.auction({space}, {self.code(s.start)}, {step}, {first}, "
            f"{self.code(s.proceeds)}, {self.span(s.span)}, {value})"
        )

    def _s_Borrow(self, out: Code, s: ast.Borrow) -> None:
        out.line(f"g.borrow({self.code(s.amount)}, {self.code(s.interest)})")

    def _s_RepayLoans(self, out: Code, s: ast.RepayLoans) -> None:
        out.line("g.repay_loans()" if s.interest else "g.repay_loans(interest=False)")

    def _s_EndTurn(self, out: Code, s: ast.EndTurn) -> None:
        out.line("raise _EndTurn()")

    def _s_EndGame(self, out: Code, s: ast.EndGame) -> None:
        out.line("_end_game(g)")

    def _s_Say(self, out: Code, s: ast.Say) -> None:
        out.line(f"g.say({self.text(self.m.templates.get(id(s), [s.text])).code})")

    def _s_CheckEnd(self, out: Code, s: ast.CheckEnd) -> None:
        out.line("_check_end(g)")

    def _s_Switch(self, out: Code, s: ast.Switch) -> None:
        out.line(f"_switch(g, {self.rule_index[s.rule]}, {s.enable})")

    def _s_Eliminate(self, out: Code, s: ast.Eliminate) -> None:
        out.line(f"g.eliminate({self.present(s.who, 'the player to eliminate')})")

    def _s_Do(self, out: Code, s: ast.Do) -> None:
        action = self.m.actions[s.action]
        if self.optimize and not action.params and s.action not in self.inlining and self._inlinable(action.body):
            # a short action without parameters or locals of its own: its statements written in place
            self.inlining.add(s.action)
            try:
                self.counted_block(out, action, action.body)
            finally:
                self.inlining.discard(s.action)
            return
        out.line(f"{Prefix.ACTION}{s.action}(g{''.join(', ' + self.kept(a) for a in s.args)})")


class _FoldedChoice:
    """HeuristicAgent's choice of one `choose` or `offer`, written out step by step (StatementCompiler's
    `_folded_choice` says what it does): `start` sets up the best entry so far, `search` goes through the
    options, `close` settles an offer's done and a menu with no legal entry, `record` logs the answer.

    Generated names end in the choice's number `n`: `_count` (the legal entries so far), `_limit` (what
    the seat can spend), the best entry's `_gain`, `_at` (its index), `_option`, `_value` (its bound
    value), and the same for the cheapest (`_cost`, `_cat`, `_coption`, `_cvalue`).
    (The shortcuts leave out or reorder the working out of guards and hints only where those cannot fail:
    when, or whether, they are worked out then changes nothing but time.)
    """

    def __init__(self, compiler: StatementCompiler, s: ast.Choose, n: str, seat: str):
        self.compiler, self.s, self.n, self.seat = compiler, s, n, seat
        self.count, self.limit = f"_count{n}", f"_limit{n}"
        self.best = (f"_gain{n}", f"_at{n}", f"_option{n}", f"_value{n}")  # gain, index, option number, bound value
        self.cheap = (f"_cost{n}", f"_cat{n}", f"_coption{n}", f"_cvalue{n}")  # the same for the cheapest
        self.done = len(s.options)
        self.options = options = compiler._options(s)
        # an offer whose done (gain 0, free) is always there: the best starts as done, at a gain just below
        # (gains are whole numbers), so an entry gaining 0 or more beats it and there is always a pick
        self.closes = closes = s.repeat and s.done_when is None
        self.tried = tried = [option.k for option in options]
        self.never = never = {
            option.k for option in options if closes and option.most_gain is not None and option.most_gain < 0
        }
        while tried and tried[-1] in never:  # the last ones need not even be counted: done is recorded as DONE
            tried.pop()
        # an option offered every time at no cost: the pick is never the cheapest of unaffordable entries
        self.always_free = any(o.always and o.cost.fixed and o.cost.value <= 0 and o.guard is None for o in options)
        # the greatest fixed gain of a free option offered every time, among those tried so far: a later
        # free option with a fixed gain no greater can never be the pick, it only counts
        self.floor: list[int] = []
        # True once an entry may be kept as the cheapest (`judge`): only then is there one to fall back on
        self.keeps_cheapest = False

    def start(self, out: Code) -> None:
        """Generate the seat's spending limit (where some option costs something) and the best entry so far
        before any is found: done for an offer whose done is always there, else none."""
        n, options, best = self.n, self.options, self.best
        if any(not (options[k].cost.fixed and options[k].cost.value <= 0) for k in self.tried):  # not all free
            # the agent's own reserve, else the rules' money scale (HeuristicAgent.reserve_for)
            out.line(f"_r{n} = _agent{n}.reserve")
            seat = self.seat
            cash = self.compiler.round_read("cash") if seat == "g.actor" else f"g.bal[g.nacc + {seat}]"
            out.line(f"{self.limit} = {cash} - (g.default_reserve if _r{n} is None else _r{n})")
        out.line(f"{self.count} = 0")
        if self.closes:
            out.line(f"{', '.join(best)} = -1, {DONE}, {self.done}, None")
        else:
            out.line(f"{best[0]} = None" if self.always_free else f"{best[0]} = {self.cheap[0]} = None")

    def judge(self, out: Code, option: _Option, at: str, var: str, where_known: bool = False) -> None:
        """Generate the comparison of the legal entry `at` (an index), bound to `var`, with the best so far
        (`where_known`: the code is written where the C of a hint `if C then X else Y` holds already)."""
        n, limit, best, cheap, closes = self.n, self.limit, self.best, self.cheap, self.closes
        cost, value, k = option.cost, option.value, option.k
        free = cost.fixed and cost.value <= 0  # always affordable: when it is legal a best entry exists
        cost_code = cost.code if cost.fixed else f"_c{n}"
        if not cost.fixed:
            out.line(f"_c{n} = {cost.code}")
        if free:
            affordable = None
        elif cost.fixed or (option.least_cost is not None and option.least_cost > 0):
            affordable = f"{cost_code} <= {limit}"  # never free: affordable only within the limit
        else:
            affordable = f"({cost_code} <= {limit} or {cost_code} <= 0)"
        # a hint that can fail is worked out whatever the cost, as when the agent is asked
        early = affordable is not None and not value.never_fails
        if early:
            self.gain(out, option, cost_code, value)
        if affordable is not None:
            out.line(f"if {affordable}:")
        with out.indented() if affordable is not None else contextlib.nullcontext():
            unless = option.unless
            # `if C then X else Y` whose Y never beats done: the entry is compared only where C holds
            where = not early and closes and cost.fixed and unless is not None and unless[2] - cost.value < 0
            if where and unless is not None:
                if not where_known:
                    out.line(f"if {unless[0]}:")
                value = unless[1]
            with out.indented() if where and not where_known else contextlib.nullcontext():
                if not early:
                    self.gain(out, option, cost_code, value)
                beats = f"_g{n} > {best[0]}" if closes else f"({best[0]} is None or _g{n} > {best[0]})"
                out.line(f"if {beats}:")
                out.line(f"    {', '.join(best)} = _g{n}, {at}, {k}, {var}")
        if not free and not (closes or self.always_free):  # else there is always an affordable entry
            out.line(f"if {cheap[0]} is None or {cost_code} < {cheap[0]}:")
            out.line(f"    {', '.join(cheap)} = {cost_code}, {at}, {k}, {var}")
            self.keeps_cheapest = True

    def gain(self, out: Code, option: _Option, cost_code: str, value: Compiled) -> None:
        """Generate `_g{n}`, the entry's gain: `value` (the option's hint, or the part of it that counts) less
        its cost."""
        n, cost = self.n, option.cost
        if cost.fixed and value.fixed:
            out.line(f"_g{n} = {value.value - cost.value!r}")
        elif cost.fixed and cost.value == 0:
            out.line(f"_g{n} = {value.code}")
        else:
            out.line(f"_g{n} = {value.code} - {cost_code}")

    def only_counts(self, option: _Option) -> bool:
        """Return True if an entry of this option can never be the pick (see `floor` and `never`)."""
        cost, value, floor = option.cost, option.value, self.floor
        free = cost.fixed and cost.value <= 0
        return option.k in self.never or (free and value.fixed and bool(floor) and value.value - cost.value <= floor[0])

    def ties(self, option: _Option) -> bool:
        """Return True if the entries of this option are many with one gain and cost: only the first can be
        the pick, so it is compared once, after the loop, and the others are only counted."""
        return option.var != "None" and option.cost.fixed and option.value.fixed and not self.only_counts(option)

    def before(self, out: Code, option: _Option) -> None:
        """Generate what comes before the option's loop: no first entry of its ties yet."""
        if self.ties(option):
            out.line(f"_first{self.n}_{option.k} = None")

    def consider(self, out: Code, option: _Option) -> None:
        """Generate what a legal entry of the option does: count it, and compare it with the best so far."""
        n, count = self.n, self.count
        k, var = option.k, option.var
        if self.only_counts(option):
            out.line(f"{count} += 1")
            return
        if self.ties(option):
            out.line(f"if _first{n}_{k} is None:")
            out.line(f"    _first{n}_{k}, _bound{n}_{k} = {count}, {var}")
            out.line(f"{count} += 1")
            return
        self.judge(out, option, count, var)
        out.line(f"{count} += 1")
        cost, value = option.cost, option.value
        if option.always and cost.fixed and cost.value <= 0 and value.fixed:
            self.floor[:] = [max(self.floor + [value.value - cost.value])]

    def after(self, out: Code, option: _Option) -> None:
        """Generate what comes after the option's loop: its ties' first entry compared."""
        n = self.n
        if self.ties(option):
            out.line(f"if _first{n}_{option.k} is not None:")
            with out.indented():
                self.judge(out, option, f"_first{n}_{option.k}", f"_bound{n}_{option.k}")

    def settled(self, k: int) -> str | None:
        """Return code testing that no entry of the options from `k` on can beat the best so far, once the
        answer is recorded anyway (None if that is not known before the game)."""
        options, tried, best, count = self.options, self.tried, self.best, self.count
        gains = [options[j].most_gain for j in tried[tried.index(k) :]]
        if k == tried[0] or options[k].var == "None" or None in gains or not self.safe(options[k]):
            return None
        most = max(gain for gain in gains if gain is not None)
        if self.closes:
            return f"{count} and {best[0]} >= {most}"
        return f"{count} > 1 and {best[0]} is not None and {best[0]} >= {most}"

    @staticmethod
    def safe(option: _Option) -> bool:
        """Return True if the option's guard and hints cannot fail."""
        return not option.guard_fails and option.cost.never_fails and option.value.never_fails

    def found(self, out: Code, option: _Option) -> None:
        """Generate what a legal entry does when only whether there is one is looked for."""
        out.line(f"{self.count} = 1")
        if option.var != "None":
            out.line("break")  # out of the option's loop

    def look_for(self, out: Code, which: Iterable[int]) -> None:
        """Generate the search for a legal entry of these options (is the offer made?), in the order of
        their guards from the shortest: any order finds the same answer."""
        options = self.options
        if all(self.safe(options[k]) for k in which):
            which = sorted(which, key=lambda k: len(options[k].guard or "") + len(options[k].invariant or ""))
        for k in which:
            out.line(f"if not {self.count}:")
            with out.indented():
                self.compiler._legal(out, options, self.found, which=[k])

    def search(self, out: Code) -> None:
        """Generate the loops over the options that find the best entry, or, in an offer whose options all
        cost more than the seat can spend, only whether the offer is made."""
        options, tried, s = self.options, self.tried, self.s
        # an offer whose options tried all cost more than something: below the least of those costs, no
        # entry is affordable, so the answer is done and only whether the offer is made is looked for
        costs = [options[k].least_cost for k in tried]
        unaffordable = self.closes and bool(costs) and all(c is not None and c > 0 for c in costs)
        unaffordable = unaffordable and all(self.safe(option) for option in options)
        if unaffordable:
            out.line(f"if {self.limit} < {min(c for c in costs if c is not None)}:")
            with out.indented():
                self.look_for(out, range(len(s.options)))
            out.line("else:")
        with out.indented() if unaffordable else contextlib.nullcontext():
            sparse = bool(tried) and self.sparse(tried[-1])
            which = tried[:-1] if sparse else tried
            self.compiler._legal(out, options, self.consider, self.before, self.after, which, self.settled)
            if sparse:
                self.sparse_search(out, options[tried[-1]])
            if s.repeat:  # is the offer made? only looked for if nothing tried was legal
                self.look_for(out, range(len(tried), len(s.options)))

    def sparse(self, k: int) -> bool:
        """Return True if option k is searched by `sparse_search`: the last option tried of an offer whose done
        is always there, with a `for`, a fixed cost and a hint `if C then X else Y` whose Y never beats done, its
        guard and hints unable to fail, and its guard narrowing no space (so that C may be worked out first)."""
        option = self.options[k]
        unless, cost, o = option.unless, option.cost, option.source
        return (
            self.closes
            and k == self.tried[-1]
            and option.var != "None"
            and option.holds_when is None
            and self.safe(option)
            and cost.fixed
            and unless is not None
            and unless[2] - cost.value < 0
            and not self.only_counts(option)
            and not self.ties(option)
            and not self.compiler._membership(o.guard)
        )

    def sparse_search(self, out: Code, option: _Option) -> None:
        """Generate the search of the last option tried (`sparse`), where an entry can be the pick only where its
        hint's C holds: the entries are gone through once for those (C first, then the guard), and counted
        only if one of them is the pick (the legal entries before it make its index) or, where nothing before
        was legal, to know whether one is (the offer is made). With done always there and nothing tried after
        it, the number of legal entries is needed for nothing else; the pick is the first entry of the
        greatest gain, so the first entry equal to it (guards and hints read the entry's value alone) is it."""
        compiler, n, k, var = self.compiler, self.n, option.k, option.var
        count, best, o = self.count, self.best, option.source
        guard, unless = option.guard, option.unless
        assert o.binding is not None and unless is not None
        skip = self.settled(k)
        if skip is not None:
            out.line(f"if not ({skip}):")
        with out.indented() if skip is not None else contextlib.nullcontext():
            light = not (option.guard_loops or option.cost.loops or option.value.loops)
            titles = compiler.iterable(o.binding[1])
            coll = compiler.counted_loop(out, o.binding[1], titles, (o.guard, o.cost, o.value), o.span, light)
            kept = None
            if option.complete is not None and coll == titles:
                coll = option.complete
            elif option.condition is not None and option.titles_of is not None:
                # the titles on which C holds, which the game keeps: the same entries in the same order
                kept = compiler.kept_titles(option.condition, *option.titles_of, option.domain)
            entries = f"_entries{n}_{k}"
            out.line(f"{entries} = {coll}")
            if option.invariant is not None:
                out.line(f"if {option.invariant}:")
            with out.indented() if option.invariant is not None else contextlib.nullcontext():
                out.line(f"for {var} in {entries if kept is None else kept}:")
                with out.indented():
                    if kept is None:
                        out.line(f"if {unless[0]}:")
                    with out.indented() if kept is None else contextlib.nullcontext():
                        if guard is not None:
                            out.line(f"if {guard}:")
                        with out.indented() if guard is not None else contextlib.nullcontext():
                            self.judge(out, option, count, var, where_known=True)
                out.line(f"if {best[2]} == {k}:")  # the pick is one of its entries: its index
                with out.indented():
                    out.line(f"for {var} in {entries}:")
                    with out.indented():
                        out.line(f"if {var} == {best[3]}:")
                        out.line("    break")
                        if guard is not None:
                            out.line(f"if {guard}:")
                        out.line(f"{'    ' if guard is not None else ''}{best[1]} += 1")
                    out.line(f"{count} += 1")
                out.line(f"elif not {count}:")  # is one of its entries legal?
                with out.indented():
                    if guard is None:
                        out.line(f"if {entries}:")
                        out.line(f"    {count} = 1")
                    else:
                        out.line(f"for {var} in {entries}:")
                        out.line(f"    if {guard}:")
                        out.line(f"        {count} = 1")
                        out.line("        break")

    def close(self, out: Code, prompt: str, site: str) -> None:
        """Generate the end of the search: an offer with no legal entry ends; its done is weighed where it is
        not always there; a menu with no legal entry goes to the engine, and one with none affordable takes
        the cheapest."""
        s, count, best, floor = self.s, self.count, self.best, self.floor
        if s.repeat:
            out.line(f"if not {count}:")
            out.line("    break")
            if not self.closes:
                if s.done_when is not None:
                    out.line(f"if {self.compiler.code(s.done_when)}:")
                with out.indented() if s.done_when is not None else contextlib.nullcontext():
                    if not (floor and floor[0] >= 0):
                        out.line(f"if {best[0]} is None or 0 > {best[0]}:")
                        out.line(f"    {', '.join(best)} = 0, {DONE}, {self.done}, None")
                    out.line(f"{count} += 1")
        elif not floor:
            out.line(f"if not {count}:")  # no legal option: the engine says so
            out.line(f"    g.choose({self.seat}, {prompt}, [], {site})")
        if self.keeps_cheapest and not floor:
            out.line(f"if {best[0]} is None:")
            out.line(f"    {', '.join(best[1:])} = {', '.join(self.cheap[1:])}")

    def record(self, out: Code, names: tuple[str, ...]) -> None:
        """Generate the answer recorded and logged as Game.choose does (one legal option is taken without
        asking; done makes two), and `_pick{n}`."""
        compiler, s, best, n = self.compiler, self.s, self.best, self.n
        if not self.closes:
            out.line(f"if {self.count} > 1:")
        with out.indented() if not self.closes else contextlib.nullcontext():
            out.line(f"g.decisions.append({best[1]})")
            chooser = compiler.round_read("player") if self.seat == "g.actor" else self.seat
            shown = compiler.text(compiler.m.templates.get(id(s), [s.prompt])).code  # reads the moment as the guards do
            # in a rule's handler (not an action or card's own code), the rule running is that one
            rule = "g.rule" if out.rule is None else str(out.rule)
            names_ref = compiler.ref(names, Prefix.OPTION_NAMES)
            out.line(f"g.log.append(('decide', g.turn, {chooser}, {shown}, {names_ref}[{best[2]}], {rule}))")
        out.line(f"_pick{n} = ({best[2]}, {best[3]})")


_STATEMENTS = named_dispatch_table(StatementCompiler, ast.Stmt, "_s_")
