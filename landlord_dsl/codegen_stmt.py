"""Code generation for statements: the bodies of handlers, cards, actions and triggers.

Each statement becomes lines of Python (engine calls, assignments, loops);
a `choose` or `offer` becomes the code that collects its legal options and
asks the chooser through Game.choose.
"""

from __future__ import annotations

import contextlib
from typing import Any

import attrs

from . import ast
from .codegen import Code, Compiled
from .codegen_expr import _CONTEXT, ExpressionCompiler
from .limits import MAX_INT
from .requests import DONE, ChoiceSite
from .types import ACCOUNT, PLAYER, strip_optional


class StatementCompiler(ExpressionCompiler):
    """Translates statements into lines of a generated function."""

    # --------------------------------------------------------- statements
    def block(self, out: Code, stmts) -> None:
        before = len(out.lines)
        for s in stmts:
            self.note_origins(s)
            with out.at(s.span):
                getattr(self, "_s_" + type(s).__name__)(out, s)
        if len(out.lines) == before:
            out.line("pass")

    def note_origins(self, node: Any) -> None:
        """Record the declarations of other files (a variant's, say) whose values `node` uses, if any."""
        if len(self.sources) < 2:
            return
        file, m = node.span.file, self.m
        found: dict[ast.Span, str] = {}
        by_ref: dict[str, tuple[dict[str, Any], str]] = {
            "const": (m.consts, "constant"),
            "option": (m.options, "option"),
            "table": (m.tables, "table"),
            "game_var": (m.game_vars, "variable"),
            "function": (m.functions, "function"),
        }
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, tuple):
                stack.extend(n)
                continue
            if not attrs.has(type(n)) or isinstance(n, ast.Span):
                continue
            ref: tuple[str | None, Any] = m.refs.get(id(n), (None, None))
            kind, payload = ref
            if kind in by_ref and isinstance(payload, str) and payload in by_ref[kind][0]:
                found[by_ref[kind][0][payload].span] = f"{by_ref[kind][1]} '{payload}'"
            elif kind == "space":
                found[m.spaces[payload].span] = f"space '{m.spaces[payload].name}'"
            if isinstance(n, ast.Field):
                for table, what in ((m.player_vars, "player variable"), (m.space_vars, "space variable")):
                    if n.name in table:
                        found[table[n.name].span] = f"{what} '{n.name}'"
                if n.name in m.space_fields:
                    setters = [sp for sp in m.spaces if sp.span.file != file and any(f == n.name for f, _ in sp.fields)]
                    for sp in setters[:3]:
                        found[sp.span] = f"field '{n.name}' of space '{sp.name}'"
            elif isinstance(n, ast.Do) and n.action in m.actions:
                found[m.actions[n.action].span] = f"action '{n.action}'"
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)) if f.name != "span")
        notes = tuple(
            attrs.evolve(
                self.sources[span.file].diagnostic(f"{what}, used there, is declared here", span), severity="note"
            )
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
        if self.type_of(e).endswith("?") or self.type_of(e) == "any":
            return f"_present(g, {code}, {self.span(e.span)}, {what!r})"
        return code

    def _s_Pay(self, out, s):
        out.line(
            f"g.transfer({self.code(s.amount)}, {self.ledger(s.payer)}, {self.ledger(s.payee)}, {self.span(s.span)})"
        )

    def _s_Set(self, out, s):
        kind, payload = self.resolved(s)
        value = self.kept(s.value)
        op = s.op
        if kind == "local":
            target = self.local(payload, s.target[0])
        elif kind == "game_var":
            target = f"g.gv[{self.game_var_index[payload]}]"
        else:
            field, (owner_kind, owner) = payload
            owner_code = {
                "local": lambda: self.local(owner, s.target[0]),
                "space": lambda: repr(owner),
                "game_var": lambda: f"g.gv[{self.game_var_index.get(owner, 0)}]",
                "context": lambda: _CONTEXT[owner],
            }[owner_kind]()
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

    def _s_Let(self, out, s):
        out.line(f"{self.local(self.m.refs[id(s)][1], s.name)} = {self.kept(s.value)}")

    def _s_If(self, out, s):
        condition = self.expr(s.condition)
        if condition.fixed:
            chosen = s.then if condition.value else s.otherwise
            if chosen:
                self.block(out, chosen)
            return
        out.line(f"if {condition.code}:")
        with out.indented():
            self.block(out, s.then)
        if s.otherwise:
            out.line("else:")
            with out.indented():
                self.block(out, s.otherwise)

    def _s_For(self, out, s):
        var = self.local(self.m.refs[id(s)][1], s.var)
        collection = self.counted_loop(out, s.collection, f"list({self.code(s.collection)})", s.body, s.span)
        out.line(f"for {var} in {collection}:")
        with out.indented():
            self.block(out, s.body)

    def _s_Choose(self, out, s):
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
        site = self.ref(ChoiceSite(tuple(names), tuple(labels), s.prompt, s.span, done if s.repeat else None), "_site")
        # a seat named by a local (or the acting player) is read once more, for its agent, at no risk
        fold = self.optimize and (seat == "g.actor" or self.is_local(seat))
        if s.repeat:
            out.line(f"for _round{n} in _OFFER_ROUNDS:")
        with out.indented() if s.repeat else contextlib.nullcontext():
            if fold:
                out.line(f"_agent{n} = g.agents[{seat}]")
                out.line(f"if _agent{n}.__class__ in _FOLDED:")
                with out.indented():
                    self._folded_choice(out, s, n, seat, prompt, site)
                out.line("else:")
            with out.indented() if fold else contextlib.nullcontext():
                self._asked_choice(out, s, n, seat, prompt, site, dynamic)
            out.line(f"{chosen} = {pick}[0]")
            if s.repeat:
                out.line(f"if {chosen} == {done}:")
                out.line("    break")
            for k, o in enumerate(s.options):
                out.line(f"{'if' if k == 0 else 'elif'} {chosen} == {k}:")
                with out.indented():
                    if o.binding is not None:
                        out.line(f"{self.local(self.m.refs[id(o)][1], o.binding[0])} = {pick}[1]")
                    self.block(out, o.body)
        if s.repeat:
            out.line("else:")  # the loop ran out of rounds: say so in the log
            out.line(f"    g.offer_closed({site})")

    def _asked_choice(self, out: Code, s: ast.Choose, n: str, seat: str, prompt: str, site: str, dynamic) -> None:
        """Generate code that collects the legal entries and asks the seat's agent; `_pick{n}` is the entry taken."""
        legal, pick = f"_legal{n}", f"_pick{n}"
        done = len(s.options)

        def append(out: Code, k: int, var: str, cost: Compiled, value: Compiled, always: bool) -> None:
            out.line(f"{legal}.append(({k}, {var}, {cost.code}, {value.code}))")

        out.line(f"{legal} = []")
        self._legal(out, s, append)
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

    def _folded_choice(self, out: Code, s: ast.Choose, n: str, seat: str, prompt: str, site: str) -> None:
        """Generate HeuristicAgent's choice worked out inside the option loops; `_pick{n}` is (option, bound value).

        The same options are tried in the same order, with the same guards and
        hints, and the answer recorded as `Game.choose` would (its index among
        the legal entries, DONE for an offer's done), but no list of entries,
        request or prompt is made unless it is needed: a menu whose answer is
        "done" costs its guards and hints. In an offer whose done is always
        there, an option the bot can never take (`_never_taken`) is only
        counted, and such options at the end are not tried at all: they are
        looked for only when nothing before them is legal, to know whether the
        offer is made.
        The pick is the first legal entry with the greatest value - cost among those
        costing at most the seat's cash less its reserve (or nothing), else the first cheapest.
        """
        count, limit = f"_count{n}", f"_limit{n}"
        best = (f"_gain{n}", f"_at{n}", f"_option{n}", f"_value{n}")  # gain, index, option number, bound value
        cheap = (f"_cost{n}", f"_cat{n}", f"_coption{n}", f"_cvalue{n}")  # the same for the cheapest
        # the agent's own reserve, else the rules' money scale (HeuristicAgent.reserve_for)
        out.line(f"_r{n} = _agent{n}.reserve")
        out.line(f"{limit} = g.bal[g.nacc + {seat}] - (g.default_reserve if _r{n} is None else _r{n})")
        out.line(f"{count} = 0")
        out.line(f"{best[0]} = {cheap[0]} = None")

        # the greatest fixed gain of a free option offered every time, among those tried so far: a later
        # free option with a fixed gain no greater can never be the pick, it only counts
        floor: list[int] = []

        def judge(out: Code, k: int, at: str, var: str, cost: Compiled, value: Compiled) -> None:
            """Generate the comparison of the legal entry `at` (an index), bound to `var`, with the best so far."""
            free = cost.fixed and cost.value <= 0  # always affordable: when it is legal a best entry exists
            cost_code = cost.code if cost.fixed else f"_c{n}"
            if not cost.fixed:
                out.line(f"_c{n} = {cost.code}")
            if cost.fixed and value.fixed:
                out.line(f"_g{n} = {value.value - cost.value!r}")
            else:
                out.line(
                    f"_g{n} = {value.code}" if cost.fixed and cost.value == 0 else f"_g{n} = {value.code} - {cost_code}"
                )
            if free:
                affordable = ""
            elif cost.fixed:  # a fixed cost above nothing: affordable when within the limit
                affordable = f"{cost_code} <= {limit} and "
            else:
                affordable = f"({cost_code} <= {limit} or {cost_code} <= 0) and "
            out.line(f"if {affordable}({best[0]} is None or _g{n} > {best[0]}):")
            out.line(f"    {', '.join(best)} = _g{n}, {at}, {k}, {var}")
            if not free:
                out.line(f"if {cheap[0]} is None or {cost_code} < {cheap[0]}:")
                out.line(f"    {', '.join(cheap)} = {cost_code}, {at}, {k}, {var}")

        # an offer whose done (gain 0, free) is always there: an option that is a loss whatever it binds never wins
        closes = s.repeat and s.done_when is None
        never = {k for k, o in enumerate(s.options) if closes and self._never_taken(o)}

        def only_counts(k: int, cost: Compiled, value: Compiled) -> bool:
            """Return True if an entry of this option can never be the pick (see `floor` and `never`)."""
            free = cost.fixed and cost.value <= 0
            return k in never or (free and value.fixed and bool(floor) and value.value - cost.value <= floor[0])

        def ties(k: int, var: str, cost: Compiled, value: Compiled) -> bool:
            """Return True if the entries of this option are many with one gain and cost: only the first can be
            the pick, so it is compared once, after the loop, and the others are only counted."""
            return var != "None" and cost.fixed and value.fixed and not only_counts(k, cost, value)

        def before(out: Code, k: int, var: str, cost: Compiled, value: Compiled) -> None:
            if ties(k, var, cost, value):
                out.line(f"_first{n}_{k} = None")

        def consider(out: Code, k: int, var: str, cost: Compiled, value: Compiled, always: bool) -> None:
            if only_counts(k, cost, value):
                out.line(f"{count} += 1")
                return
            if ties(k, var, cost, value):
                out.line(f"if _first{n}_{k} is None:")
                out.line(f"    _first{n}_{k}, _bound{n}_{k} = {count}, {var}")
                out.line(f"{count} += 1")
                return
            judge(out, k, count, var, cost, value)
            out.line(f"{count} += 1")
            if always and cost.fixed and cost.value <= 0 and value.fixed:
                floor[:] = [max(floor + [value.value - cost.value])]

        def after(out: Code, k: int, var: str, cost: Compiled, value: Compiled) -> None:
            if ties(k, var, cost, value):
                out.line(f"if _first{n}_{k} is not None:")
                with out.indented():
                    judge(out, k, f"_first{n}_{k}", f"_bound{n}_{k}", cost, value)

        tried = list(range(len(s.options)))
        while tried and tried[-1] in never:  # the last ones need not even be counted: done is recorded as DONE
            tried.pop()
        self._legal(out, s, consider, before, after, tried)
        if s.repeat:

            def found(out: Code, k: int, var: str, cost: Compiled, value: Compiled, always: bool) -> None:
                out.line(f"{count} = 1")
                if var != "None":
                    out.line("break")  # out of the option's loop

            for k in range(len(tried), len(s.options)):  # is the offer made? only if nothing tried was legal
                out.line(f"if not {count}:")
                with out.indented():
                    self._legal(out, s, found, options=[k])
            out.line(f"if not {count}:")
            out.line("    break")
            done = len(s.options)
            if s.done_when is not None:
                out.line(f"if {self.code(s.done_when)}:")
            with out.indented() if s.done_when is not None else contextlib.nullcontext():
                if not (floor and floor[0] >= 0):
                    out.line(f"if {best[0]} is None or 0 > {best[0]}:")
                    out.line(f"    {', '.join(best)} = 0, {DONE}, {done}, None")
                out.line(f"{count} += 1")
        elif not floor:
            out.line(f"if not {count}:")  # no legal option: the engine says so
            out.line(f"    g.choose({seat}, {prompt}, [], {site})")
        if not floor:
            out.line(f"if {best[0]} is None:")
            out.line(f"    {', '.join(best[1:])} = {', '.join(cheap[1:])}")
        out.line(f"if {count} > 1:")  # one legal option is taken without asking; else recorded as Game.choose does
        out.line(f"    g.decisions.append({best[1]})")
        out.line(f"    g.log.append(('decide', g.turn, {seat}, {prompt}, {site}.names[{best[2]}], g.rule))")
        out.line(f"_pick{n} = ({best[2]}, {best[3]})")

    def _never_taken(self, o: ast.ChoiceOption) -> bool:
        """Return True if the option's value - cost is below 0 for every entry it can give, as worked out now.

        The hints are worked out once, or, if they depend on the space the
        option's `for` binds, once for every space it can bind; that holds only
        for hints that read nothing of the game (a read of the game, or any
        other failure while working them out, makes the answer False).
        """
        var = self.local(self.m.refs[id(o)][1], o.binding[0]) if o.binding is not None else None
        domain = self.domain_of(o.binding[1]) if o.binding is not None else None
        zero = self._const(0)
        # (the guard's `s in lot and ...` narrows the spaces, once the first block has bound `var` anew)
        with (
            self.narrowed([(var, domain)] if var is not None else [], fresh=True),
            self.narrowed(self._membership(o.guard)),
        ):
            hints = [self.expr(h) if h is not None else zero for h in (o.cost, o.value)]
            domain = self.domains.get(var, domain) if var is not None else None
        codes = [None if h.fixed else compile(h.code, "<hint>", "eval") for h in hints]
        each_space = var is not None and any(codes)
        if each_space and not domain:
            return False
        spaces = sorted(domain) if each_space and domain else [None]
        scope = dict(self.ns, g=self.fixed)  # our own code (never user text), with a game that has no state to read
        for space in spaces:
            scope[var or "_"] = space
            try:
                cost, value = (h.value if code is None else eval(code, scope) for h, code in zip(hints, codes))
            except Exception:
                return False
            if cost.__class__ is not int or value.__class__ is not int or value - cost >= 0:
                return False
        return True

    def _legal(self, out: Code, s: ast.Choose, emit, before=None, after=None, options=None) -> None:
        """Generate the loops over a choice's options, calling `emit(out, k, var, cost, value, always)` in each guard.

        `var` is the code of the option's bound value (or "None"), `cost` and
        `value` the compiled hints (0 where the option gives none), `always`
        whether the option is offered every time (no `for`, no `when` or one fixed true).
        `before` and `after(out, k, var, cost, value)`, if given, are called just
        before and after each option's code (its loop, for a `for` option).
        `options`: the option numbers to generate, in order (all of them if None).
        """
        zero = self._const(0)
        for k in range(len(s.options)) if options is None else options:
            o = s.options[k]
            var = self.local(self.m.refs[id(o)][1], o.binding[0]) if o.binding is not None else "None"
            domain = self.domain_of(o.binding[1]) if o.binding is not None else None
            with self.narrowed([(var, domain)], fresh=True):
                compiled_guard = self.expr(o.guard) if o.guard is not None else None
                with self.narrowed(self._membership(o.guard)):
                    cost = self.expr(o.cost) if o.cost is not None else zero
                    value = self.expr(o.value) if o.value is not None else zero
            if before is not None:
                before(out, k, var, cost, value)
            if o.binding is not None:
                coll = self.iterable(o.binding[1])
                coll = self.counted_loop(out, o.binding[1], coll, (o.guard, o.cost, o.value), o.span)
                out.line(f"for {var} in {coll}:")
            # a guard the options fix to true tests nothing
            guard = None if compiled_guard is None or compiled_guard.value is True else compiled_guard.code
            with out.indented() if o.binding is not None else contextlib.nullcontext():
                if guard is not None:
                    out.line(f"if {guard}:")
                with out.indented() if guard is not None else contextlib.nullcontext():
                    emit(out, k, var, cost, value, o.binding is None and guard is None)
            if after is not None:
                after(out, k, var, cost, value)

    def _s_Roll(self, out, s):
        thrower = "None" if s.thrower is None else self.present(s.thrower, "the thrower")
        if s.dice != "dice":
            out.line(f"g.roll_set({self.dice_set_number(s.dice)}, {thrower})")
        else:
            out.line("g.roll()" if s.thrower is None else f"g.roll({thrower})")

    def _s_GiveTurn(self, out, s):
        out.line(f"g.give_turn({self.present(s.player, 'the player to play next')}, {self.span(s.span)})")

    def _s_MoveSteps(self, out, s):
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

    def _s_MoveTo(self, out, s):
        out.line(f"g.move_to({self.present(s.destination, 'the destination')})")

    def _s_Send(self, out, s):
        out.line(
            f"g.send({self.present(s.who, 'the player to send')}, {self.present(s.destination, 'the destination')})"
        )

    def _s_Draw(self, out, s):
        out.line(f"g.draw({s.deck!r})")

    def _s_Give(self, out, s):
        out.line(
            f"g.set_holder({self.present(s.card, 'the card to give')}, "
            f"{self.present(s.recipient, 'the player to receive it')})"
        )

    def _s_Return(self, out, s):
        out.line(f"g.return_card({self.present(s.card, 'the card to return')}, {s.deck!r})")

    def _s_Shuffle(self, out, s):
        out.line(f"g.shuffle({s.deck!r})")

    def _s_Deal(self, out, s):
        out.line(f"g.deal({self.code(s.count)}, {s.deck!r})")

    def _s_Auction(self, out, s):
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

    def _s_Borrow(self, out, s):
        out.line(f"g.borrow({self.code(s.amount)}, {self.code(s.interest)})")

    def _s_RepayLoans(self, out, s):
        out.line("g.repay_loans()" if s.interest else "g.repay_loans(interest=False)")

    def _s_EndTurn(self, out, s):
        out.line("raise _EndTurn()")

    def _s_EndGame(self, out, s):
        out.line("_end_game(g)")

    def _s_Switch(self, out, s):
        out.line(f"_switch(g, {self.rule_index[s.rule]}, {s.enable})")

    def _s_Eliminate(self, out, s):
        out.line(f"g.eliminate({self.present(s.who, 'the player to eliminate')})")

    def _s_Do(self, out, s):
        out.line(f"_a_{s.action}(g{''.join(', ' + self.kept(a) for a in s.args)})")
