"""Code generation for expressions: a checked .lg expression to Python expression text.

Each expression gives its code and, when the options fix it, its value,
so constants fold, short fixed aggregates unroll, small functions inline,
and reads that cannot fail are written without checks.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable
from typing import Any

import attrs

from ..checking.builtins import BUILTINS, owner_getter
from ..core.dispatch import named_dispatch_table
from ..core.types import ACCOUNT, BOOL, CARD, DICE, INT, PLAYER, SPACE, TEXT, dice_set_name, strip_optional
from ..language import ast
from ..language.limits import MAX_INT
from ..program.runtime import Fixed, show_value
from .codegen import _NOTHING, CodeGenerator, Compiled, made
from .generated_names import Prefix

_UNROLLED = ("sum", "count", "all", "any")
_UNROLL_LIMIT = 8
_UNROLL_MEMBERS = 4  # the largest group of a space's field that `all`/`any` over it are written out for
_INLINE_LIMIT = 400  # characters of generated code a function body may have to be written in place


def _has_aggregate(e: Any) -> bool:
    """Return True if an expression contains an aggregate (sum, count, all, any, filter, map)."""
    if isinstance(e, ast.Aggregate):
        return True
    if isinstance(e, tuple):
        return any(_has_aggregate(x) for x in e)
    if not attrs.has(type(e)):
        return False
    return any(_has_aggregate(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name != "span")


@functools.lru_cache(maxsize=4096)
def _compiled_once(code: str) -> Any:
    """Return generated expression code compiled (the same code recurs across compilations of a file)."""
    return compile(code, "<by space>", "eval")


class _NoSeat:
    """The player of a kept test while it is worked out (ExpressionCompiler.kept_titles): equal to no seat, it
    indexes nothing but the counts the probe gives."""

    __slots__ = ()


class _CountsProbe(Fixed):
    """What a kept test's code sees as the game while it is worked out (ExpressionCompiler.kept_titles): no state
    but the counts of one space's group's owners under one counted field (dicts: any other read fails)."""

    def __init__(self, fixed: Fixed, counts: dict[int, dict[int, dict[Any, int]]]) -> None:
        self.sources, self.prog, self.work = fixed.sources, fixed.prog, 0
        self.gcount_at = counts


def _unvalued(compiled: Compiled) -> Compiled:
    """Return `compiled` with no value known (`_replace(value=_NOTHING)`, without its keyword handling)."""
    if compiled.value is _NOTHING:
        return compiled
    return tuple.__new__(Compiled, (compiled.code, _NOTHING, *compiled[2:]))


# the acting player: like a local, cheap and safe to evaluate twice (and so is his space)
_ACTOR = made("g.actor", game=True, plain=False, cheap=True)

_REFLEXIVE = {"==": True, "<=": True, ">=": True, "!=": False, "<": False, ">": False}  # x OP x, for a number


class ExpressionCompiler(CodeGenerator):
    """Translates expressions; the statement and program passes build on it."""

    # -------------------------------------------------------- expressions
    def expr(self, e: ast.Expr) -> Compiled:
        """Return the Python expression for `e` with what is known of it (its value, if fixed)."""
        compiled = _EXPRESSIONS[type(e)](self, e)
        if self.domains and self.optimize and compiled.value is _NOTHING and not compiled.cheap:
            return self._by_space(compiled)
        return compiled

    def _by_space(self, compiled: Compiled) -> Compiled:
        """Return `compiled` as a lookup in a table made now, if its value depends on nothing but one local
        space variable whose spaces are known (`narrowed`): `house_price(s) / 2` in the hint of an option
        `for s in player.titles` becomes `_tab3[v0]`. Else (it reads the game, or fails or gives something
        other than a number or a truth value for one of those spaces) return it as it is."""
        code = compiled.code
        reads_game, names = compiled.reads
        if reads_game:
            return compiled
        found = [name for name in names if name in self.domains]
        if len(found) != 1 or any(self.is_local(name) for name in names if name != found[0]):
            return compiled
        var = found[0]
        values = self.values_by_space(code, var, self.domains[var])
        if values is None:
            return compiled
        if len({values[space] for space in self.domains[var]}) == 1:  # the same for each of those spaces
            return self._const(values[next(iter(self.domains[var]))])
        name = self.space_tables.get(values)
        if name is None:
            name = self.space_tables[values] = self.ref(values, Prefix.BY_SPACE)
        return made(
            f"{name}[{var}]", names=frozenset([var]), plain=False, cheap=True, bounded=True, by_space=(name, var)
        )

    def values_by_space(self, code: str, var: str, domain: frozenset[int]) -> tuple | None:
        """Return the values of generated code for each space `var` can hold (by space index, None for the
        others), worked out now with a game that has no state to read; None if, for one of those spaces,
        it reads the game, fails, or gives anything but a number within the limits or a truth value."""
        key = (code, var, domain)
        if key not in self.space_values:
            self.space_values[key] = self._values_by_space(code, var, domain)
        return self.space_values[key]

    def _values_by_space(self, code: str, var: str, domain: frozenset[int]) -> tuple | None:
        table: list[Any] = [None] * len(self.m.spaces)
        work = self.fixed.work  # a loop worked out here is not the folding's: it spends none of its budget
        try:
            worked = _compiled_once(code)
            for space in domain:
                # our own code (never user text); its loops see only the globals, so one over `var` fails here
                value = eval(worked, self.ns, {"g": self.fixed, var: space})
                if not (value.__class__ is bool or (value.__class__ is int and -MAX_INT <= value <= MAX_INT)):
                    return None
                table[space] = value
        except Exception:
            return None
        finally:
            self.fixed.work = work
        return tuple(table)

    def kept_titles(self, condition: Compiled, var: str, player: str, domain: Iterable[int] | None) -> str | None:
        """Return code for the player's titles on which a test holds, which the game keeps (Program.kept_tests,
        `g.gkept`), for a loop over the player's titles binding `var` (its spaces: `domain`, None for any) that
        looks for those first; None where the test's value could depend on more than the entry's space and the
        counts of its group's owners under one counted field (the player's, the distinct owners', the spaces
        nobody owns; the entry is the player's title) or could fail.

        The test's code is worked out before the game for every space the entry can be and every count its
        group's owners can have, with a game whose only state is those counts and the player a token that is
        no seat: any other read fails, and the test is not kept."""
        reads_game, names = condition.reads
        if condition.can_fail or not reads_game or not player.isidentifier() or not names <= {var, player}:
            return None
        spaces = range(len(self.m.spaces)) if domain is None else domain
        groups = {number: len(group) for group, number in self.counted_groups.items()}
        for field, column in self.counted_fields.values():
            tests = self._kept_tests(condition.code, var, player, field, column, groups, frozenset(spaces))
            if tests is not None:
                kept = self.kept_tests.setdefault((field, tests), len(self.kept_tests))
                return f"g.gkept[{kept}][{player}]"
        return None

    def _kept_tests(
        self,
        code: str,
        var: str,
        player: str,
        field: int,
        column: tuple[int | None, ...],
        sizes: dict[int, int],
        domain: frozenset[int],
    ) -> tuple[frozenset[tuple[int, int, int]] | bool, ...] | None:
        """Return, by space, the counts (the player's, the distinct owners', nobody's) of the space's group under
        the counted field under which the test's code holds (its value where the space has no group; none, or
        False, for a space outside the domain), or None if it reads anything else, fails, or gives other than a
        truth value."""
        worked, seat = _compiled_once(code), _NoSeat()
        tests: list[frozenset[tuple[int, int, int]] | bool] = []
        try:
            for space in range(len(self.m.spaces)):
                k = column[space]
                if space not in domain:  # (never an entry; but the engine reads a group's tests by member)
                    tests.append(False if k is None else frozenset())
                elif k is None:
                    value = eval(worked, self.ns, {"g": _CountsProbe(self.fixed, {}), var: space, player: seat})
                    if value.__class__ is not bool:
                        return None
                    tests.append(value)
                else:
                    size, holds = sizes[k], []
                    for own in range(1, size + 1):
                        for nobody in range(size - own + 1):
                            others = size - own - nobody  # (spaces the other seats own: one to each, or fewer)
                            for distinct in range(1 if not others else 2, others + 2):
                                counts = {field: {space: {seat: own, -2: distinct, -1: nobody}}}
                                value = eval(
                                    worked, self.ns, {"g": _CountsProbe(self.fixed, counts), var: space, player: seat}
                                )
                                if value.__class__ is not bool:
                                    return None
                                if value:
                                    holds.append((own, distinct, nobody))
                    tests.append(frozenset(holds))
        except Exception:
            return None
        return tuple(tests)

    def code(self, e: ast.Expr) -> str:
        """Return the Python expression text for `e`."""
        return self.expr(e).code

    def _const(self, value: Any) -> Compiled:
        """Return a fixed value as code: a number within the range is a literal, cheap to repeat."""
        kind = value.__class__
        simple = kind is int or kind is str or kind is bool or value is None
        if simple:  # (by its class too: 1 and True are equal keys, and are written apart)
            known = self.consts_made.get((kind, value))
            if known is not None:
                return known
        cheap = kind is int and -MAX_INT <= value <= MAX_INT
        literal = self.is_literal(value)
        compiled = made(repr(value) if literal else self.ref(value), plain=literal, value=value, cheap=cheap)
        if simple and literal:  # a literal's code made nothing: the same every time
            self.consts_made[(kind, value)] = compiled
        return compiled

    def _e_IntLit(self, e: ast.IntLit | ast.TextLit | ast.BoolLit) -> Compiled:
        return self._const(e.value)

    _e_TextLit = _e_BoolLit = _e_IntLit

    def _e_NoneLit(self, e: ast.NoneLit) -> Compiled:
        return self._const(None)

    def _e_ListLit(self, e: ast.ListLit) -> Compiled:
        parts = [self.expr(i) for i in e.items]
        if all(part.fixed for part in parts):
            return self._const(tuple(part.value for part in parts))
        # a list's items are kept: a loop or a local may hold them
        kept = [self.kept_compiled(i, part) for i, part in zip(e.items, parts)]
        return made(f"[{', '.join(part.code for part in kept)}]", *kept, fails=True)  # (it makes a list)

    def _dice_field(self, name: str) -> Compiled:
        """Return the code of a field of the edition's dice (noting whether it reads them one by one)."""
        if name == "count":
            return self._const(self.m.header.dice or 2)
        self.reads_dice_faces |= name not in ("total", "double")
        return made(
            {
                "total": "g.dice_total",
                "double": "g.dice_double",
                "first": "g.dice[0]",
                "second": "(g.dice[1] if len(g.dice) > 1 else 0)",
                "face": "(str(g.dice[0]) if g.dice[0] else '')",
            }[name],
            fails=name == "face",  # str() is a call
            game=True,
            plain=False,
        )

    def _e_Name(self, e: ast.Name) -> Compiled:
        kind, payload = self.refs[id(e)]
        if kind == "local":
            if payload in self.bound:
                return self.bound[payload]
            key = (payload, e.name)
            local = self.locals_made.get(key)
            if local is None:
                name = self.local(payload, e.name)
                local = self.locals_made[key] = made(name, names=frozenset([name]), cheap=True, local=True)
            return local
        if kind == "option":
            return self._const(self.options[payload])
        if kind == "const":
            if payload not in self.consts:
                with self.folding(("const", payload), e.span, f"constant '{payload}'"):
                    self.consts[payload] = self.constant(self.m.consts[payload].value)
            return self._const(self.consts[payload])
        if kind == "space":
            return self._const(payload)
        if kind == "group":
            return self._const(self.groups[payload])
        if kind == "account":
            return self._const(-self.account_index[payload] - 1)
        if kind == "deck":
            return self._const(payload)
        if kind == "table":
            return made(self.ref(self._table(payload, e.span), Prefix.TABLE), plain=False, value=self._table(payload))
        if kind == "dice_set":  # the pips of its last throw
            return made(f"g.set_pips[{self.dice_set_number(payload)}]", game=True, plain=False)
        if kind == "game_var":
            return made(f"g.gv[{self.game_var_index[payload]}]", game=True, plain=False)
        if kind == "context":
            if payload in _ROUND_READS and self.round_reads is not None:
                name = self.round_read(payload)
                return made(name, names=frozenset([name]), cheap=True)
            if payload == "player":
                return _ACTOR
            fails = payload == "spaces"  # range() is a call
            self.reads_dice_faces |= payload == "dice"  # the dice as a value: its faces may be read anywhere
            return made(_CONTEXT[payload], fails=fails, game=True, plain=False, cheap=payload == "here")
        raise AssertionError(kind)  # pragma: no cover

    def round_read(self, what: str) -> str:
        """Return the local that holds `what` (a key of _ROUND_READS) while a choice's options are gathered,
        noting that the round must bind it (the acting player first: his cash is read with him)."""
        assert self.round_reads is not None
        name = self.round_names[what]
        if name not in self.round_reads:
            code = _ROUND_READS[what]
            if "{player}" in code:
                code = code.format(player=self.round_read("player"))
            self.round_reads[name] = code
        return name

    def _e_Field(self, e: ast.Field) -> Compiled:
        t = strip_optional(self.type_of(e.subject))
        if t == DICE:  # the edition's dice, read from the game whatever names them
            return self._dice_field(e.name)
        subject = self.expr(e.subject)
        sub, value = subject.code, subject.value
        name = e.name
        if t == PLAYER:
            if name in self.player_var_index:
                return made(f"g.pv[{self.player_var_index[name]}][{sub}]", subject, game=True, plain=False)
            if name == "space":
                actor = subject == _ACTOR or (self.round_reads is not None and sub == self.round_names["player"])
                return made(f"g.pos[{sub}]", subject, game=True, plain=False, cheap=actor)
            if name == "cash" and self.round_reads is not None and sub == self.round_names["player"]:
                cash = self.round_read("cash")
                return made(cash, names=frozenset([cash]), cheap=True)
            if name == "seat":
                return made(f"({sub} + 1)", subject)
            return made(
                {
                    "cash": f"g.bal[g.nacc + {sub}]",
                    "name": f"g.names[{sub}]",
                    "cards": f"list(g.hands[{sub}])",
                    "titles": f"list(g.titles[{sub}])",
                }[name],
                subject,
                fails=name in ("cards", "titles"),  # list() is a call
                game=True,
                plain=False,
            )
        if t == SPACE:
            if name in self.space_var_index:
                return made(
                    f"g.sv[{self.space_var_index[name]}][{sub}]", subject, game=True, plain=False, space_read=sub
                )
            if name in self.m.space_fields:
                column = self._column(name, e.span)
                if subject.fixed and column[value] is not None:
                    return self._const(column[value])
                col = self.ref(column, Prefix.COLUMN)
                domain = self.domains.get(sub) if self.optimize else None
                if self._everywhere(name, column, domain):
                    return made(f"{col}[{sub}]", subject, plain=False)
                checked = f"_field(g, {col}, {sub}, {name!r}, {self.span(e.span)})"
                if self.optimize and subject.cheap:  # look twice rather than call: the common case has the field
                    return made(
                        f"({col}[{sub}] if {col}[{sub}] is not None else {checked})", subject, fails=True, plain=False
                    )
                return made(checked, subject, fails=True, plain=False)
            if name == "index":
                return subject
            if name == "title":
                return made(f"{self.ref(self.title_card, Prefix.TITLE_CARDS)}[{sub}]", subject, plain=False)
            return made(
                {
                    "owner": f"g.owner[{sub}]",
                    "name": f"g.prog.space_labels[{sub}]",
                    "kind": f"g.prog.space_kinds[{sub}]",
                }[name],
                subject,
                game=True,
                plain=False,
            )
        if t == CARD:
            return made(
                {
                    "name": f"g.prog.card_names[{sub}]",
                    "text": f"g.prog.card_texts[{sub}]",
                    "space": f"g.prog.card_space[{sub}]",
                    "holder": f"g.holder[{sub}]",
                    "deck": f"g.prog.card_deck[{sub}]",  # a deck's value is its name
                    "share_of": f"g.prog.card_share[{sub}]",
                }[name],
                subject,
                game=True,
                plain=False,
            )
        thrown = dice_set_name(t)
        if thrown is not None:
            decl, k = self.m.dice_sets[thrown], self.dice_set_number(thrown)
            if name == "count":
                return self._const(decl.count)
            if name == "second" and decl.count == 1:
                return self._const(0)
            return made(
                {
                    "total": f"sum(g.set_pips[{k}])",
                    "double": f"g.set_double[{k}]",
                    "first": f"g.set_pips[{k}][0]",
                    "second": f"g.set_pips[{k}][1]",
                    "face": f"g.set_shown[{k}][0]",
                }[name],
                fails=name == "total",  # sum() is a call
                game=True,
                plain=False,
            )
        if t == ACCOUNT:
            if name == "balance":
                return made(f"g.bal[-({sub}) - 1]", subject, game=True, plain=False)
            return made(f"g.prog.account_labels[-({sub}) - 1]", subject, game=True, plain=False)
        raise AssertionError((t, name))  # pragma: no cover

    def _everywhere(self, name: str, column: list, domain: frozenset[int] | None) -> bool:
        """Return True if every space of `domain` (None: the board) has the space field `name`, whose values
        by space are `column` (worked out once a field and domain)."""
        key = (name, domain)
        known = self.fields_everywhere.get(key)
        if known is None:
            spaces = range(len(column)) if domain is None else domain
            known = self.fields_everywhere[key] = all(column[i] is not None for i in spaces)
        return known

    def _grouped_everywhere(self, name: str, column: list, domain: frozenset[int] | None) -> bool:
        """Return True if every space of `domain` (None: the board) has a group with members under the space
        field `name`, whose values by space are `column` (worked out once a field and domain)."""
        key = (name, domain)
        known = self.groups_everywhere.get(key)
        if known is None:
            spaces = range(len(column)) if domain is None else domain
            known = self.groups_everywhere[key] = all(isinstance(column[i], tuple) and column[i] for i in spaces)
        return known

    def dice_set_number(self, name: str) -> int:
        """Return the number of a declared set of dice, as `Program.dice_sets` and `Game.roll_set` count them."""
        return list(self.m.dice_sets).index(name)

    def _e_Index(self, e: ast.Index) -> Compiled:
        sub, key = self.expr(e.subject), self.expr(e.key)
        if sub.fixed and key.fixed:
            try:
                return self._const(sub.value[key.value])
            except (KeyError, IndexError, TypeError):
                pass
        return made(f"_lookup(g, {sub.code}, {key.code}, {self.span(e.span)})", sub, key, fails=True, plain=False)

    def _e_Call(self, e: ast.Call) -> Compiled:
        kind, name = self.resolved(e)
        parts = [self.expr(a) for a in e.args]
        args = [part.code for part in parts]
        if kind == "builtin":
            builtin = BUILTINS[name]
            if name == "len" and self.optimize:  # the size of a list a built-in makes over a fixed group
                counted = self._len_over_group(e.args[0])
                if counted is not None:
                    return counted
            if builtin.inline_over_counts is not None and self.optimize:
                fixed = self._fixed_group_owners(e.args[-1], parts[-1], counted=True)
                if fixed is not None:
                    counts, size, group = fixed
                    code = made(
                        builtin.inline_over_counts.format(*args[:-1], counts=counts, n=size),
                        *parts[:-1],
                        *group,
                        game=True,  # the counts (which cannot fail: an index below the players, -1 or -2)
                        plain=False,
                    )
                    field = e.args[-1]
                    if builtin.owns_whole_group and group and isinstance(field, ast.Field):  # a field's group
                        owned = (self.counted_fields[field.name][0], args[0], group[0].code)
                        if owned in self.whole_owned:  # known true of every space the variable takes here
                            return self._const(True)
                        code = code._replace(requires=frozenset((owned,)))
                    return code
            if builtin.inline_over_group is not None and self.optimize:
                fixed = self._fixed_group_owners(e.args[-1], parts[-1])
                if fixed is not None:
                    owners, size, group = fixed
                    return made(
                        builtin.inline_over_group.format(*args[:-1], owners=owners, n=size),
                        *parts[:-1],
                        *group,
                        fails=not builtin.inline_never_fails,
                        game=True,  # the owners
                        plain=False,
                    )
            if builtin.inline is not None and self.optimize:
                return made(
                    builtin.inline.format(*args),
                    *parts,
                    fails=not builtin.inline_never_fails,
                    game=builtin.inline_reads_game,
                    plain=builtin.inline_plain,
                )
            return made(f"{Prefix.BUILTIN}{name}(g{''.join(', ' + a for a in args)})", *parts, fails=True, plain=False)
        decl = self.m.functions[name]
        # a function whose value the options fix (say, a multiplier that is 1 unless
        # a faster game is chosen) is that value: arguments change nothing, so skip them,
        # provided none of them could fail (a missing field is a rule bug to report)
        if self.optimize and all(part.fixed or part.cheap for part in parts):
            value = self._value_without_arguments(decl)
            if value is not _NOTHING:
                return self._const(value)
        if self.optimize and all(part.cheap for part in parts):
            # the arguments stand for the parameters by their code: their values are not folded into the body
            outer, self.bound = self.bound, {i: _unvalued(part) for i, part in enumerate(parts)}
            try:
                body = self.expr(decl.body)
            finally:
                self.bound = outer
            # an aggregate written as a loop could hide the caller's local an argument is written with
            hides = bool(parts) and self._has_aggregate(decl) and any(body.binds & part.reads[1] for part in parts)
            if self.plain_length(body.code) <= _INLINE_LIMIT and not hides:
                return body
        return made(
            f"{Prefix.FUNCTION}{name}(g{''.join(', ' + a for a in args)})",
            *parts,
            fails=True,
            loops=not self.light_function(name),
            plain=False,
        )

    def _has_aggregate(self, decl: ast.FunctionDecl) -> bool:
        """Return True if the function's body contains an aggregate (looked for once per function: every
        call written in place asks)."""
        if decl.name not in self.bodies_with_aggregates:
            self.bodies_with_aggregates[decl.name] = _has_aggregate(decl.body)
        return self.bodies_with_aggregates[decl.name]

    def _value_without_arguments(self, decl: ast.FunctionDecl) -> Any:
        """Return the value of a function's body if the options alone fix it, else _NOTHING.

        The body's locals are its own: none of the caller's bindings (its
        arguments, an unrolled item), narrowings of its locals or reads of a
        choice's round may stand for them, so the body is worked out without
        them, and its value is the same at every call.
        """
        key = id(decl)
        if key in self.values_without_arguments:
            return self.values_without_arguments[key]
        outer = self.bound, self.domains, self.owned_by, self.whole_owned, self.round_reads
        self.bound, self.domains, self.owned_by, self.whole_owned, self.round_reads = {}, {}, {}, frozenset(), None
        try:
            return self.function_body(decl).value
        finally:
            self.bound, self.domains, self.owned_by, self.whole_owned, self.round_reads = outer

    def function_body(self, decl: ast.FunctionDecl) -> Compiled:
        """Return the body of a function of the rules compiled as its own function's (`_f_NAME`) is: with none of
        a caller's bindings, narrowings or round reads. Where compiling it made no name, table or count, doing
        it again would give the same and make nothing, so it is not done again: the function's own compilation
        and `_value_without_arguments` share it."""
        key = id(decl)
        known = self.bodies_compiled.get(key)
        if known is not None:
            return known
        if self.bound or self.domains or self.owned_by or self.whole_owned or self.round_reads is not None:
            return self.expr(decl.body)  # (in a caller's context: not the function's own)
        made_before = self._made_so_far()
        compiled = self.expr(decl.body)
        if self._made_so_far() == made_before:
            self.bodies_compiled[key] = compiled
            self.values_without_arguments[key] = compiled.value
        return compiled

    def _made_so_far(self) -> tuple[int, ...]:
        """Return how much the generator has made that generated code can see: names, owner getters, counted
        groups, and the reads of a round."""
        reads = -1 if self.round_reads is None else len(self.round_reads)
        return self.counter, len(self.owner_getters), len(self.counted_groups), len(self.counted_fields), reads

    def _len_over_group(self, e: ast.Expr) -> Compiled | None:
        """Return `len(e)` if `e` calls a built-in with `len_over_group` over a fixed group, else None."""
        if not isinstance(e, ast.Call) or self.resolved(e)[0] != "builtin":
            return None
        builtin = BUILTINS[self.resolved(e)[1]]
        if builtin.len_over_group is None:
            return None
        parts = [self.expr(a) for a in e.args]
        counted = builtin.len_over_counts is not None
        fixed = self._fixed_group_owners(e.args[-1], parts[-1], counted=counted)
        if fixed is None:
            return None
        owners, size, group = fixed
        over = builtin.len_over_counts if counted else builtin.len_over_group
        assert over is not None
        code = over.format(*(part.code for part in parts[:-1]), owners=owners, counts=owners, n=size)
        return made(code, *parts[:-1], *group, game=True, plain=False)  # (len_over_group's code cannot fail)

    def _fixed_group_owners(
        self, group: ast.Expr, compiled: Compiled, counted: bool = False
    ) -> tuple[str, str, tuple[Compiled, ...]] | None:
        """Return code for (the owners of a group's spaces, the group's size) and the parts that code is written
        from (the space whose field the group is), or None. With `counted`, the code is of the counts of the
        group's owners the game keeps instead (Cards.count_groups), reading no space's owner.

        Only where the group is fixed before the game: a constant group (its
        value, already worked out in `compiled`), or a group-valued field of a space
        variable every space of whose domain has the field, with members. Its
        owner getter (or its place among the counted groups) is then made once,
        here. (Calling a getter, `_og...`, cannot fail; nor can reading counts.)
        """
        value = compiled.value
        if compiled.fixed:
            if not (isinstance(value, tuple) and value):
                return None
            if counted:
                return f"g.gcount[{self.counted_group(value)}]", str(len(value)), ()
            if value not in self.owner_getters:
                self.owner_getters[value] = (self.ref(owner_getter(value), Prefix.OWNER_GETTER), str(len(value)))
            getter, size = self.owner_getters[value]
            return f"{getter}(g.owner)", size, ()
        if not (
            isinstance(group, ast.Field)
            and group.name in self.m.space_fields
            and group.name not in self.space_var_index
            and strip_optional(self.type_of(group.subject)) == SPACE
        ):
            return None
        subject = self.expr(group.subject)
        sub = subject.code
        column = self._column(group.name, group.span)
        domain = self.domains.get(sub)
        if not subject.cheap or not self._grouped_everywhere(group.name, column, domain):
            return None
        if group.name not in self.owner_getters:
            getters = [owner_getter(t) if isinstance(t, tuple) else None for t in column]
            sizes = [len(t) if isinstance(t, tuple) else 0 for t in column]
            getters_name = self.ref(getters, Prefix.OWNER_GETTERS)
            self.owner_getters[group.name] = (getters_name, self.ref(sizes, Prefix.GROUP_SIZES))
        getters_name, sizes_name = self.owner_getters[group.name]
        if counted:
            if group.name not in self.counted_fields:
                numbers = tuple(self.counted_group(t) if isinstance(t, tuple) and t else None for t in column)
                self.counted_fields[group.name] = (len(self.counted_fields), numbers)
            return f"g.gcount_at[{self.counted_fields[group.name][0]}][{sub}]", f"{sizes_name}[{sub}]", (subject,)
        return f"{getters_name}[{sub}](g.owner)", f"{sizes_name}[{sub}]", (subject,)

    def counted_group(self, spaces: tuple[int, ...]) -> int:
        """Return the number of a group among those whose owners the game keeps counted (Program.counted_groups),
        counting it from now on if it was not yet."""
        return self.counted_groups.setdefault(spaces, len(self.counted_groups))

    def _e_Unary(self, e: ast.Unary) -> Compiled:
        x = self.expr(e.operand)
        if e.op == "-":
            return self._const(-x.value) if x.fixed else made(f"(-{x.code})", x)
        return self._const(not x.value) if x.fixed else made(f"(not {x.code})", x)

    def _e_Binary(self, e: ast.Binary) -> Compiled:
        op = e.op
        left = self.expr(e.left)
        a, av = left.code, left.value
        if op == "has":
            assert isinstance(e.right, ast.Name)  # a tag (the checker's)
            return made(f"({a} in {self.ref(self.tagged[e.right.name], Prefix.TAGGED)})", left, plain=False)
        if left.fixed and op in ("and", "or") and bool(av) == (op == "or"):
            return self._const(op == "or")  # decided on the left: the right is never worked out, nor compiled
        if op == "and":  # on the right of `s in lots and ...`, s is one of the lots
            with self.narrowed(self._membership(e.left)):
                right = self.expr(e.right)
        else:
            right = self.expr(e.right)
        b, bv = right.code, right.value
        # Expressions have no side effects, so a constant on either side folds; but a constant on the
        # right may drop the left only where the left cannot fail (as CPython's own optimiser does), or
        # a missing field would go unreported, and only for some option values.
        if op == "and":
            if left.fixed:
                return right if av else self._const(False)
            if right.fixed:
                if bv:
                    return left
                return self._const(False) if left.never_fails else made(f"({a} and False)", left)
            both = made(f"({a} and {b})", left, right)
            if left.requires or right.requires:  # (true only where both are)
                return both._replace(requires=left.requires | right.requires)
            return both
        if op == "or":
            if left.fixed:
                return self._const(True) if av else right
            if right.fixed:
                if not bv:
                    return left
                return self._const(True) if left.never_fails else made(f"({a} or True)", left)
            return made(f"({a} or {b})", left, right)

        if op in ("in", "not in"):
            if isinstance(e.right, ast.Name) and self.refs[id(e.right)][0] == "group":
                group = e.right.name
                if group not in self.group_sets:  # (one set a group: `ref` names an object, not its value)
                    self.group_sets[group] = self.ref(frozenset(self.groups[group]), Prefix.SPACE_SET)
                b = self.group_sets[group]
                return made(f"({a} {op} {b})", left, plain=False)
            return made(f"({a} {op} {b})", left, right)
        if op in ("/", "%"):
            if right.fixed and bv == 0:
                raise self.fixed.fail(
                    "division by zero: this divisor is 0 before the game starts (with these option values)",
                    e.right.span,
                    "guard it (`if D > 0 then ... else ...`), or give its constant or option a value other than 0",
                )
            if left.fixed and right.fixed:
                return self._const(av // bv if op == "/" else av % bv)
            if right.fixed:
                return made(f"({a} {'//' if op == '/' else '%'} {b})", left, right, fails=True)  # (it divides)
            return made(f"_divide(g, {a}, {b}, {self.span(e.span)}, {op == '%'})", left, right, fails=True, plain=False)
        if op in ("==", "!=") and self.owned_by and {a, b} & {f"g.owner[{var}]" for var in self.owned_by}:
            for var, player in self.owned_by.items():  # one of the player's titles: he owns it
                if {a, b} == {f"g.owner[{var}]", player}:
                    return self._const(op == "==")
        if op in ("==", "!=") and (av is None or bv is None) and not (left.fixed and right.fixed):
            is_ = "is" if op == "==" else "is not"
            return made(f"({a} {is_} {b})", left, right)  # comparing with none
        if a == b and op in _REFLEXIVE and self.type_of(e.left) == INT and self._space_read(left):
            return self._const(_REFLEXIVE[op])  # the same number on both sides
        if left.fixed and right.fixed:
            py = {
                "+": operator.add,
                "-": operator.sub,
                "*": operator.mul,
                "==": operator.eq,
                "!=": operator.ne,
                "<": operator.lt,
                "<=": operator.le,
                ">": operator.gt,
                ">=": operator.ge,
            }[op]
            return self._const(py(av, bv))
        return made(f"({a} {op} {b})", left, right)

    def _space_read(self, compiled: Compiled) -> bool:
        """Return True if compiled code reads a space variable of a space local whose spaces are known
        (`narrowed`): a read that cannot fail."""
        return compiled.space_read is not None and compiled.space_read in self.domains

    def _e_Conditional(self, e: ast.Conditional) -> Compiled:
        condition = self.expr(e.condition)
        if condition.fixed:  # (the arm never taken is not compiled: a division by 0 there is no error)
            return self.expr(e.then if condition.value else e.otherwise)
        then, otherwise = self.expr(e.then), self.expr(e.otherwise)
        return made(f"({then.code} if {condition.code} else {otherwise.code})", condition, then, otherwise)

    def _e_Aggregate(self, e: ast.Aggregate) -> Compiled:
        _, slot = self.resolved(e)
        var = self.local(slot, e.var)
        items = self.expr(e.collection).value
        if self.optimize and e.op in _UNROLLED and isinstance(items, tuple) and len(items) <= _UNROLL_LIMIT:
            return self._unrolled(e, slot, items)
        iterable = self.iterable_compiled(e.collection)
        coll = self.counted(e.collection, iterable.code, e.body, e.span)
        if self.optimize and coll == iterable.code:  # a loop not counted against the budget
            owned = self._all_owned(e, slot)
            if owned is not None:
                return owned
            members = self._over_members(e, slot)
            if members is not None:
                return members
        else:  # counted: `_work(g, ITEMS, SPAN)`
            iterable = made(coll, iterable, fails=True, loops=True, plain=False)
        with self.narrowed([(var, self.domain_of(e.collection))], True, self.holder(var, e.collection)):
            kept = self.kept_compiled(e.body) if e.op == "map" else self.expr(e.body)
        body = kept.code
        return made(
            {
                # (a list rather than a generator: every item is worked out anyway, and a list is made faster)
                "sum": f"sum([{body} for {var} in {coll}])",
                "count": f"len([1 for {var} in {coll} if {body}])",
                "all": f"all({body} for {var} in {coll})",
                "any": f"any({body} for {var} in {coll})",
                "filter": f"[{var} for {var} in {coll} if {body}]",
                "map": f"[{body} for {var} in {coll}]",
            }[e.op],
            iterable,
            kept,
            fails=True,  # (it makes a list, or calls sum, len, all or any)
            names=frozenset([var]),
            loops=True,
            binds=frozenset([var]),
            plain=e.op in ("filter", "map"),
        )

    def _all_owned(self, e: ast.Aggregate, slot: int) -> Compiled | None:
        """Return code for `all(x in G: x.owner != none)` (or `any(x in G: x.owner == none)`) over a group
        the compiler can fix, as one test of the group's owners; else None."""
        body = e.body
        wanted = {"all": "!=", "any": "=="}.get(e.op)
        if not (isinstance(body, ast.Binary) and body.op == wanted):
            return None
        sides = (body.left, body.right) if isinstance(body.right, ast.NoneLit) else (body.right, body.left)
        field, nothing = sides
        if not (
            isinstance(nothing, ast.NoneLit)
            and isinstance(field, ast.Field)
            and field.name == "owner"
            and isinstance(field.subject, ast.Name)
            and self.resolved(field.subject) == ("local", slot)
            and slot not in self.bound
        ):
            return None
        fixed = self._fixed_group_owners(e.collection, self.expr(e.collection), counted=True)
        if fixed is None:
            return None
        counts, _, group = fixed  # (the last count: the group's spaces nobody owns)
        return made(f"({counts}[-1] {'==' if e.op == 'all' else '!='} 0)", *group, game=True, plain=False)

    def _unrolled(self, e: ast.Aggregate, slot: int, items: tuple) -> Compiled:
        """Return an aggregate over a short fixed collection written out item by item.

        `all(r in railroads: r.owner != none)` becomes one `and` of four
        tests with the spaces as constants, which also lets their fields fold.
        """
        return self._item_by_item(e, slot, [self._const(item) for item in items])

    def _over_members(self, e: ast.Aggregate, slot: int) -> Compiled | None:
        """Return `all`/`any` over the group a space's field names written out member by member, where every
        space the subject can be has a group of at most _UNROLL_MEMBERS: the i-th member is read from a
        table by space (a smaller group's last member again, which changes neither `all` nor `any`).
        `all(l in s.color: s.houses <= l.houses)` becomes `(g.sv[0][s] <= g.sv[0][_member3[s]] and ...)`."""
        group = e.collection
        if not (
            e.op in ("all", "any")
            and isinstance(group, ast.Field)
            and group.name in self.m.space_fields
            and group.name not in self.space_var_index
            and strip_optional(self.type_of(group.subject)) == SPACE
        ):
            return None
        subject = self.expr(group.subject)
        column = self._column(group.name, group.span)
        domain = self.domains.get(subject.code)
        spaces = range(len(column)) if domain is None else domain
        if subject.fixed or not subject.cheap or not self._grouped_everywhere(group.name, column, domain):
            return None
        # where each space is one of its own group and the test cannot fail (so its order does not matter),
        # the subject comes first, its test may fold (`s.houses <= s.houses` does), then the others
        for own in (True, False) if all(i in column[i] for i in spaces) else (False,):
            written = self._members_written(e, slot, subject, group.name, column, spaces, own)
            if written is not None and (not own or written.never_fails):
                return written
        return None

    def _members_written(
        self,
        e: ast.Aggregate,
        slot: int,
        subject: Compiled,
        field: str,
        column: list[Any],
        spaces: Iterable[int],
        own: bool,
    ) -> Compiled | None:
        """Return `_over_members`'s aggregate with the subject first (`own`) or in the group's own order,
        or None where a group is too large to write out."""

        def others(k: int) -> tuple:
            return tuple(m for m in column[k] if m != k) if own else column[k]

        size = max(len(others(i)) for i in spaces)
        if size > _UNROLL_MEMBERS:
            return None
        members = [subject] if own else []
        for i in range(size):
            key = (field, own, i)
            if key not in self.member_tables:
                table = tuple(
                    (others(k)[min(i, len(others(k)) - 1)] if others(k) else k) if isinstance(t, tuple) and t else None
                    for k, t in enumerate(column)
                )
                self.member_tables[key] = self.ref(table, Prefix.MEMBERS)
            members.append(made(f"{self.member_tables[key]}[{subject.code}]", subject, plain=False, cheap=True))
        return self._item_by_item(e, slot, members)

    def _item_by_item(self, e: ast.Aggregate, slot: int, items: list[Compiled]) -> Compiled:
        """Return an aggregate written out with its item standing for each of `items` (code) in turn."""
        parts = []
        outer = self.bound.get(slot)
        for item in items:
            self.bound[slot] = item
            parts.append(self.expr(e.body))
        if outer is None:
            del self.bound[slot]
        else:
            self.bound[slot] = outer
        if e.op in ("all", "any"):
            decided = e.op == "any"  # the value one item can settle the whole at
            codes = []
            written = []  # the parts written as code
            for part in parts:
                if not part.fixed:
                    codes.append(part.code)
                    written.append(part)
                elif bool(part.value) == decided:
                    if not codes:
                        return self._const(decided)
                    codes.append(repr(decided))
                    break
            if not codes:
                return self._const(not decided)
            called = self.type_of(e.body) != BOOL  # `and`/`or` give an operand, `all`/`any` a bool
            if called:
                codes = [f"bool({c})" for c in codes]
            return made(
                "(" + f" {'or' if decided else 'and'} ".join(codes) + ")", *written, fails=called, plain=not called
            )
        if all(part.fixed for part in parts):
            return self._const(sum(p.value if e.op == "sum" else 1 if p.value else 0 for p in parts))
        terms = [p.code if e.op == "sum" else f"(1 if {p.code} else 0)" for p in parts]
        return made("(0 + " + " + ".join(terms) + ")", *parts)

    def domain_of(self, e: ast.Expr) -> frozenset[int] | None:
        """Return the spaces a collection of spaces can hold (None if that is not known here)."""
        if self._holdings(e) == "titles":
            return self.titled
        value = self.expr(e).value
        if not isinstance(value, tuple):
            return None
        known = self.space_sets.get(id(value))
        if known is None:
            spaces = all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            known = self.space_sets[id(value)] = (value, frozenset(value) if spaces else None)  # (value kept: its id)
        return known[1]

    def _membership(self, test: ast.Expr | None) -> list[tuple[str, frozenset[int] | None]]:
        """Return (variable code, spaces) for every `VARIABLE in COLLECTION` that `test` requires.

        `test` requires its own membership tests, and those of every operand
        of an `and` at its top.
        """
        if isinstance(test, ast.Binary) and test.op == "and":
            return self._membership(test.left) + self._membership(test.right)
        if (
            isinstance(test, ast.Binary)
            and test.op == "in"
            and isinstance(test.left, ast.Name)
            and strip_optional(self.type_of(test.left)) == SPACE
        ):
            var = self.expr(test.left)
            if var.local:
                return [(var.code, self.domain_of(test.right))]
        return []

    def narrowed(
        self,
        facts: list[tuple[str, frozenset[int] | None]],
        fresh: bool = False,
        titles_of: tuple[str, str] | None = None,
    ) -> _Narrowed:
        """Return a context manager within which generated code may rely on each local `var` holding one of its
        spaces.

        Used only where nothing can assign the variable (expressions and the
        guards and hints of options), so a fact about its value cannot go stale.
        `fresh`: the variables are bound here, anew (a loop's), so what was
        known of a variable of that name outside does not apply.
        `titles_of`: (var, code of a player), for a variable bound to one of that player's titles (see `holder`).
        """
        return _Narrowed(self, facts, fresh, titles_of)

    def holder(self, var: str, e: ast.Expr) -> tuple[str, str] | None:
        """Return (var, code of the player) if `e`, the collection a loop binds `var` to, is a player's titles
        read by code that stays the same while the loop runs (`narrowed`'s `titles_of`), else None."""
        if self.optimize and self._holdings(e) == "titles" and isinstance(e, ast.Field):
            player = self.expr(e.subject)
            if player.cheap and not player.fixed:
                return var, player.code
        return None

    def iterable(self, e: ast.Expr) -> str:
        """Return code for a collection that is only read while it is looped over (`iterable_compiled`'s)."""
        return self.iterable_compiled(e).code

    def iterable_compiled(self, e: ast.Expr) -> Compiled:
        """Return a collection that is only read while it is looped over.

        Expressions change nothing, so an aggregate or the options of a
        `choose` can loop over the engine's own lists of a player's titles
        and cards instead of the copies `player.titles` and `player.cards`
        give everywhere else.
        """
        holdings = self._holdings(e)
        if holdings is not None and isinstance(e, ast.Field):  # _holdings gives None for anything else
            player = self.expr(e.subject)
            return made(f"g.{holdings}[{player.code}]", player, game=True, plain=False)
        return self.expr(e)

    def text(self, parts: list) -> Compiled:
        """Return Python code building a prompt or label from a checked template.

        A text whose holes the options fix is a single string literal, and its
        value is known; otherwise, with optimisation, an f-string where its
        code allows one (it is built two to three times faster than by `+`).
        """
        pieces: list[tuple[bool, str]] = []  # (a hole?, its code or the text)
        holes: list[Compiled] = []
        literal = ""  # text known now: constant holes are shown once, here
        for p in parts:
            if not isinstance(p, str):
                compiled = self.expr(p)
                kept, value = self.kept_compiled(p, compiled), compiled.value
                kind = strip_optional(self.type_of(p))
                if not compiled.fixed or kind in (PLAYER, SPACE, CARD, ACCOUNT) or not self.optimize:
                    if literal:
                        pieces.append((False, literal))
                        literal = ""
                    shown = _SHOWN.get(self.type_of(p)) if self.optimize else None  # never none: read directly
                    if shown is None:
                        hole = made(f"_show(g, {kept.code}, {kind!r})", kept, fails=True, plain=False)
                    else:
                        template, called, game = shown
                        hole = made(template.format(kept.code), kept, fails=called, game=game, plain=template == "{}")
                    pieces.append((True, hole.code))
                    holes.append(hole)
                    continue
                p = show_value(None, value, kind)
            literal += p
        if not pieces:
            return self._const(literal)
        if literal:
            pieces.append((False, literal))
        if self.optimize and all(_in_fstring(text, hole) for hole, text in pieces):
            fstring = 'f"' + "".join(_fstring_part(text, hole) for hole, text in pieces) + '"'
            return made(fstring, *holes, fails=True, plain=False)  # (facts of an f-string are not worked out)
        return made(" + ".join(text if hole else repr(text) for hole, text in pieces), *holes)


# A value that is never none, as text (runtime.show_value): an int is never a bool here
# (its code; whether that calls something, and reads the game)
_SHOWN = {
    INT: ("str({})", True, False),
    TEXT: ("{}", False, False),
    PLAYER: ("g.names[{}]", False, True),
    SPACE: ("g.prog.space_labels[{}]", False, True),
}


def _in_fstring(text: str, hole: bool) -> bool:
    """Return True if a hole's code, or a literal piece, can be written inside f"..." (Python 3.11)."""
    if hole:
        return '"' not in text and "\\" not in text and "#" not in text
    return text.isprintable()


def _fstring_part(text: str, hole: bool) -> str:
    """Return a hole's code, or printable literal text, as a part of an f"..." string."""
    if hole:  # (`str(x)` of an int is what the f-string makes of x anyway)
        return "{(" + (text[4:-1] if text.startswith("str(") else text) + ")}"
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("{", "{{").replace("}", "}}")


# What the guards and hints of a choice may read once a round, into locals (ExpressionCompiler.round_read):
# nothing changes them while the options are gathered.
_ROUND_READS: dict[str, str] = {
    "player": "g.actor",
    "cash": "g.bal[g.nacc + {player}]",  # the acting player's
    "turn_number": "g.turn",
    "due": "g.due",
}

# Python code for the names whose value depends on the moment (types.CONTEXT_NAMES).
_CONTEXT: dict[str, str] = {
    "player": "g.actor",
    "players": "g.seats",
    "player_count": "g.n",
    "turn_number": "g.turn",
    "here": "g.pos[g.actor]",
    "origin": "g.origin",
    "dice": "g.dice",
    "spaces": "range(g.board_size)",
    "due": "g.due",
    "creditor": "g.creditor",
    "creditor_player": "(g.creditor if g.creditor is not None and g.creditor >= 0 else None)",
    "card": "g.card",
}


_EXPRESSIONS = named_dispatch_table(ExpressionCompiler, ast.Expr, "_e_")


class _Narrowed:
    """ExpressionCompiler.narrowed's context manager (a class: the compiler enters hundreds a compilation)."""

    __slots__ = ("compiler", "facts", "fresh", "saved", "titles_of")

    def __init__(
        self,
        compiler: ExpressionCompiler,
        facts: list[tuple[str, frozenset[int] | None]],
        fresh: bool,
        titles_of: tuple[str, str] | None,
    ):
        self.compiler, self.facts, self.fresh, self.titles_of = compiler, facts, fresh, titles_of

    def __enter__(self) -> None:
        compiler, fresh = self.compiler, self.fresh
        domains, owned_by = compiler.domains, compiler.owned_by
        self.saved = dict(domains), dict(owned_by)
        for var, domain in self.facts:
            outer = None if fresh else domains.get(var)
            if fresh:
                owned_by.pop(var, None)
            if domain is None:
                if fresh:
                    domains.pop(var, None)
            else:
                domains[var] = domain if outer is None else outer & domain
        if self.titles_of is not None:
            owned_by[self.titles_of[0]] = self.titles_of[1]

    def __exit__(self, *exc: object) -> None:
        self.compiler.domains, self.compiler.owned_by = self.saved
