"""Pass 3: compile a checked Model, with chosen option values, into a Program.

The compiler generates Python source: one function per handler, card,
action, function, end condition and score, in which the .lg file's local
names are Python locals, expressions are inlined, and options, constants
and tables are folded to literals. The source is compiled once with
`compile`/`exec` into a private namespace holding only the engine's
helpers, so a running game does no lookups by name and no interpretation.
Each function reads the game's stable lists into locals at its start, as
the generator writes it (pyast_pass.lists_read_once), so the source is
compiled directly; it is kept on the Program (`python_source`), and is what
runs, but for each choice's asking block, which the driven program compiles
from it on first use (asking.py: a game of bots never asks). Only where
the generator's scan cannot follow a function's text, or a group's getter
could be called once for two calls, is the source parsed and its syntax tree
rewritten by the pass instead (pyast_pass.read_game_lists_once;
no shipped file needs it), with the same line numbers.

Nothing in a .lg file becomes code except through this translation of its
checked AST: names are the checker's resolved references, never user text.

The modules: program (the Program the engine runs), codegen (the shared
state), codegen_expr and codegen_stmt (expressions and statements),
pyast_pass (the game's lists read into locals, on the text as it is
generated, or as the pass over its syntax tree), runtime (the
helpers generated code calls); options (option values) belongs to loading.
"""

from __future__ import annotations

import ast as pyast
import collections
import contextlib
import functools
import hashlib
import linecache
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from ..checking.loader import RuleSet, load_modules, load_text, warnings_of
from ..checking.options import resolve_options
from ..core.collector import collector_paused
from ..core.errors import Diagnostic, LandlordError, RuleCheckError
from ..language import ast
from ..language.limits import too_deep
from ..language.parser import parse
from ..program.compiled import DiceSet, Program, is_reconstruction
from . import code_cache
from .asking import AskingBlocks, Block, driven_text
from .codegen import Code
from .codegen_stmt import StatementCompiler
from .generated_names import ASKING, GAME, Prefix
from .native import (
    NativeMode,
    NativeRequired,
    NativeUnavailable,
    native_functions,
    native_line_table,
    native_mode,
    required_but_unavailable,
    warn_unavailable,
)
from .pyast_pass import lists_read_once, may_share_getter_calls, read_game_lists_once
from .stepped_pass import build_stepped

if TYPE_CHECKING:
    from ..program.game_contract import RulesGame


class Compiler(StatementCompiler):
    """Compiles a checked rule set, for chosen option values, into a Program."""

    # True to build the keyed stepped compilation (Program.stepped(keyed=True)) with the driven one
    build_keyed = False
    native: NativeMode = "off"  # whether to build the generated code natively (compile_ruleset's `native`)
    built_natively = False
    # False: the functions are written as generated, and the pass (pyast_pass) reads their game lists into
    # locals, as it did before the generator wrote them (the oracle of tests/test_pyast_pass.py)
    lists_once = True
    lists_read_by_pass = False  # True once a function is written whose lists only the pass can read once
    # False: the driven program compiles the asking blocks with the rest (the oracle of tests/test_asking.py)
    lazy_asking = True

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # the driven program's text of the functions with asking blocks (by their index in `source`), and the
        # blocks by the line that calls them there (compiling/asking.py)
        self.driven: dict[int, str] = {}
        self.asking_blocks: dict[int, Block] = {}
        self.asking_callers: dict[str, tuple[int, str]] = {}  # by name: its lines before it, its driven text

    # ------------------------------------------------------------ program
    def function(self, name: str, params: list[str], body: Callable[[Code], None]) -> str:
        """Generate `def name(g, params): body` into the program source; return its name."""
        out = Code()
        out.line(f"def {name}({', '.join([GAME] + params)}):")
        with out.indented():
            body(out)
        if self.source:
            self.line_table.append((None, None))  # the blank line between two functions
        text = "\n".join(out.lines)
        read_once = lists_read_once(text) if self.optimize and self.lists_once else None
        if read_once is not None:
            bindings, text = read_once
            if bindings:  # (the def's line and place, as the pass located them)
                head, text = text.split("\n", 1)
                text = "\n".join([head, *bindings, text])
                out.where[1:1] = [out.where[0]] * len(bindings)
        elif self.optimize:
            self.lists_read_by_pass = True
        if out.asking and self.lazy_asking:
            shift = len(read_once[0]) if read_once is not None else 0  # (the bindings after the def)
            blocks = [Block(start + shift, end + shift, n, offer, name) for start, end, n, offer in out.asking]
            lines = text.split("\n")
            self.asking_blocks.update(driven_text(lines, blocks, len(self.line_table)))
            self.driven[len(self.source)] = "\n".join(lines)
            self.asking_callers[name] = (len(self.line_table), self.driven[len(self.source)])
        self.line_table.extend(out.where)
        self.source.append(text)
        return name

    def statements_function(self, prefix: str, stmts: Sequence[ast.Stmt], counted: Any = None) -> str:
        """Generate a function running `stmts` (each run of `counted`, a card or trigger, counted for coverage)."""
        return self.function(self._unique(prefix), [], lambda out: self.counted_block(out, counted, stmts))

    def expression_function(self, prefix: str, e: ast.Expr) -> str:
        self.note_origins(e)
        return self.function(self._unique(prefix), [], lambda out: self.return_expression(out, e))

    def return_expression(self, out: Code, e: ast.Expr, function: ast.FunctionDecl | None = None) -> None:
        """Generate `return e`; an `any`/`all` at the top becomes a loop (end conditions run every turn).
        `function`: the function of the rules whose body `e` is, if it is one."""
        with out.at(e.span):
            if self.optimize and isinstance(e, ast.Aggregate) and e.op in ("any", "all"):
                var = self.local(self.m.refs[id(e)][1], e.var)
                found = e.op == "any"
                out.line(f"for {var} in {self.counted(e.collection, self.code(e.collection), e.body, e.span)}:")
                body = self.code(e.body)
                out.line(f"    if {body if found else f'not ({body})'}:")
                out.line(f"        return {found}")
                out.line(f"return {not found}")
            else:
                out.line(f"return {self.kept(e, None if function is None else self.function_body(function))}")

    def dispatcher(self, entries: list[tuple[int, ast.Handler]], made: dict[tuple, str]) -> str | None:
        """Generate (once per distinct list) a function running these handlers of the rules in force.

        The handlers' bodies are written into the dispatcher itself, one after
        another, each under the test that its rule is in force: a turn runs
        many handlers, and a call per handler is most of what they cost.
        """
        if not entries:
            return None
        key = tuple((rule, id(handler)) for rule, handler in entries)
        if key not in made:

            def body(out: Code) -> None:
                out.line("saved = g.rule")
                out.line("depth = g.depth = g.depth + 1")
                out.line("if depth > _MAX_NESTING:")
                out.line("    _too_deep(g)")
                out.line("try:")
                with out.indented():
                    for rule, handler in entries:
                        with out.at(handler.span, rule):
                            out.line(
                                f"# rule {self.m.rules[rule].name}: on {handler.event} "
                                f"{handler.selector or ''}".rstrip()
                            )
                            out.line(f"if g.active[{rule}]:")
                            with out.indented():
                                self.count(out, id(handler))
                                out.line(f"g.rule = {rule}")
                                self._handler_body(out, handler)
                out.line("finally:")
                out.line("    g.depth = depth - 1")
                out.line("    g.rule = saved")

            made[key] = self.function(self._unique("_dispatch"), [], body)
        return made[key]

    def _handler_body(self, out: Code, handler: ast.Handler) -> None:
        """Generate a handler's body into a dispatcher: a handler in several dispatchers (a rule `on land` of
        a group with a rule of its own for some of its spaces, say) is generated once, its lines repeated."""
        made = self.handler_lines.get(id(handler))
        if made is None or made.depth != out.depth:
            made = out.fork()
            self.block(made, handler.body)
            self.handler_lines[id(handler)] = made
        out.extend(made)

    def compile(self, build: bool = True) -> Program | None:
        """Return the Program; with `build=False` only generate its source (folding every fixed value), return None.

        The steps, in the order their functions are written into the source:
        the title deeds, the rules' functions and actions, the decks' cards,
        the dispatchers of events, then the triggers, ends, score and decks'
        conditions; the source is then run, and the Program made of it all.
        """
        cards = self._title_deeds()
        self._functions_and_actions()
        self._deck_cards(cards)
        entries = self._entry_points()
        source = "\n\n".join(self.source) + "\n"
        if not build:  # Python's own limits (parentheses nested too deeply, say) are met here too
            compile(source, f"<compiled {self.rs.name}>", "exec")
            return None
        # the generator has read the game's lists into locals (lists_read_once), unless told not to or where its
        # scan could not; the syntax tree is made and rewritten only where it has not, or where a getter's
        # call could be shared (no shipped file has such code: the source is then compiled directly)
        needs_pass = self.lists_read_by_pass or not self.lists_once or may_share_getter_calls(self.source)
        tree = read_game_lists_once(source) if self.optimize and needs_pass else None
        filename = _registered(self.rs.name, source)
        if not self._natively(tree or source, filename):
            # (the syntax tree has the asking blocks in place; the source's code is taken from the private cache
            # when it keeps it, as a module's from its .pyc)
            driven = (
                compile(tree, filename, "exec")
                if tree is not None
                else code_cache.compiled(self.driven_source(), filename)
            )
            asking = (
                None
                if tree is not None
                else AskingBlocks(source, filename, self.ns, self.asking_blocks, self.asking_callers)
            )
            self.ns[ASKING] = asking
            exec(driven, self.ns)  # generated from the checked AST only
            if asking is not None:
                asking.bind()
        for index, card in cards.texts_to_fill:  # a hole may call a function the plain translation does not fold
            cards.texts[index] = self.fixed_text(card, card.text)
        program = self._program(source, filename, cards, entries, self.optimize and needs_pass)
        if self.build_keyed:
            # from the syntax tree just run if there is one (rewritten in place: nothing reads it after this)
            program.keyed_built = build_stepped(
                program, source, self.ns, filename, self.optimize and needs_pass, keyed=True, parsed=tree
            )
        return program

    def driven_source(self) -> str:
        """Return the source the driven program compiles: the generated source with each asking block
        replaced by its call (compiling/asking.py), every line where it is in the full source."""
        if not self.driven:
            return "\n\n".join(self.source) + "\n"
        return "\n\n".join([self.driven.get(k, text) for k, text in enumerate(self.source)]) + "\n"

    def _natively(self, code: pyast.Module | str, filename: str) -> bool:
        """Put the native build's functions into the namespace and return True, if `native` asks for them and
        they can be had (else warn, or raise LandlordError if they are required, and return False)."""
        if self.native == "off":
            return False
        tree = code if isinstance(code, pyast.Module) else pyast.parse(code)
        try:
            made, pyx, origin = native_functions(tree, filename, self.ns)
        except NativeUnavailable as why:
            if self.native == "require":
                raise NativeRequired(str(why)) from None
            warn_unavailable(str(why), stacklevel=5)
            return False
        self.ns.update(made)
        self.line_table[:] = native_line_table(tuple(self.line_table), origin, pyx.count("\n"))
        self.built_natively = True
        return True

    def _title_deeds(self) -> _Cards:
        """Return the cards with the title deeds alone, first, one for each titled space in board order (and
        set `title_card` and `titled`)."""
        m, spaces = self.m, self.m.spaces
        cards = _Cards()
        self.title_card = [None] * len(spaces)
        self.titled = frozenset(i for i, s in enumerate(spaces) if m.kinds[s.kind].titled)
        title_decks = [d for d in m.decks.values() if d.of_titles]

        def title_deck_of(space: int) -> str:
            for d in title_decks:
                if d.titles_in is None or space in m.groups[d.titles_in]:
                    return d.name
            return ""

        for i, s in enumerate(spaces):
            if m.kinds[s.kind].titled:
                self.title_card[i] = len(cards.names)
                deck = title_deck_of(i)
                cards.add(s.name, s.label, i, deck, is_reconstruction(m.decks[deck]) if deck else False, None, None)
        return cards

    def _functions_and_actions(self) -> None:
        """Generate a Python function for each function and action of the rules (`_f_NAME`, `_a_NAME`)."""
        for f in self.m.functions.values():
            # the checker gives a function's parameters the first slots of its own frame
            self.note_origins(f.body)
            self.function(
                f"{Prefix.FUNCTION}{f.name}",
                [self.local(i, p.name) for i, p in enumerate(f.params)],
                lambda out, f=f: self.return_expression(out, f.body, f),  # type: ignore[misc]
            )
        for a in self.m.actions.values():
            self.function(
                f"{Prefix.ACTION}{a.name}",
                [self.local(self.m.refs[id(p)][1], p.name) for p in a.params],
                lambda out, a=a: self.counted_block(out, a, a.body),  # type: ignore[misc]
            )

    def _deck_cards(self, cards: _Cards) -> None:
        """Add the decks' cards (each copy one card) after the title deeds, generating a function for each
        card's effect, and list each deck's cards (a deck of titles holds its title deeds)."""
        for d in self.m.decks.values():
            if d.of_titles:
                cards.deck_cards[d.name] = [c for c in self.title_card if c is not None and cards.deck[c] == d.name]
                continue
            cards.deck_cards[d.name] = []
            for c in d.cards:
                with self._uncounted(self._switched_off(d)):
                    name = self.statements_function("_card", c.body, c)
                share = self.m.space_index[c.share_of] if c.share_of is not None else None
                for _ in range(c.copies):
                    cards.deck_cards[d.name].append(len(cards.names))
                    cards.texts_to_fill.append((len(cards.names), c))
                    # its text's holes are worked out once the functions exist (compile)
                    cards.add(c.name, c.text, None, d.name, is_reconstruction(d) or is_reconstruction(c), share, name)

    def _switched_off(self, deck: ast.DeckDecl) -> bool:
        """Return True when coverage is counted and the options make the deck's `when` false, so no card of it
        can be drawn (only worked out with counters: it compiles the condition once more)."""
        return bool(self.counters) and deck.enabled is not None and self.expr(deck.enabled).value is False

    @contextlib.contextmanager
    def _uncounted(self, uncounted: bool) -> Iterator[None]:
        """Within the block, when `uncounted`, generate no coverage counting lines: what it generates is
        left out by the options (rule_coverage reports its items so, not as never fired)."""
        if not uncounted:
            yield
            return
        counters, self.counters = self.counters, {}
        try:
            yield
        finally:
            self.counters = counters

    def _entry_points(self) -> _EntryPoints:
        """Generate the functions the engine calls: the dispatchers of each event's handlers (one per
        distinct list), the triggers whose condition the options do not make false, the ends, the score,
        and the decks' conditions; return their names."""
        m, spaces = self.m, self.m.spaces
        events: dict[str, list] = {"setup": [], "turn": [], "shortfall": []}
        land: list[list] = [[] for _ in spaces]
        passing: list[list] = [[] for _ in spaces]
        for ri, h in ((ri, h) for ri, rule in enumerate(m.rules) for h in rule.handlers):
            if h.event in events:
                events[h.event].append((ri, h))
                continue
            target = land if h.event == "land" else passing
            members: Iterable[int]
            if h.selector is None:
                members = range(len(spaces))
            elif h.selector in m.space_index:
                members = [m.space_index[h.selector]]
            else:
                members = m.groups[h.selector]
            for space in members:
                target[space].append((ri, h))
        dispatchers: dict[tuple, str] = {}
        event_names = {event: self.dispatcher(entries, dispatchers) for event, entries in events.items()}
        land_names = [self.dispatcher(entries, dispatchers) for entries in land]
        pass_names = [self.dispatcher(entries, dispatchers) for entries in passing]
        # a trigger whose condition is false under these options can never fire: leave it out
        trigger_names = [
            (
                ri,
                self.expression_function("_when", t.condition),
                self.statements_function(f"_rule{ri}_when_", t.body, t),
                t.repeat,
            )
            for ri, rule in enumerate(m.rules)
            for t in rule.triggers
            if self.expr(t.condition).value is not False
        ]
        end_names = [(self.expression_function("_end", e.condition), e) for e in m.ends]
        score_name = self.expression_function("_score", m.score.formula) if m.score is not None else None
        enabled_names = {
            d.name: self.expression_function("_enabled", d.enabled) for d in m.decks.values() if d.enabled is not None
        }
        return _EntryPoints(event_names, land_names, pass_names, trigger_names, end_names, score_name, enabled_names)

    def _complete_of(self, spaces: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        """Return, by space, what decides whether a title of it changing hands changes the complete titles of
        the seats concerned (Program.complete_of): (group, its size, 1 if the space is in it else 0) for each
        group of a complete field that the space is in, and the group the space has under a complete field."""
        numbers = list(self.counted_groups)
        fields = [numbers_by_space for _, numbers_by_space in self.counted_fields.values()]
        whole = {k for field in self.complete_fields for k in fields[field] if k is not None}
        by_space = []
        for space in range(spaces):
            decides = {k: 1 for k in sorted(whole) if space in numbers[k]}
            for field in self.complete_fields:
                own = fields[field][space]
                if own is not None:
                    decides.setdefault(own, 0)
            by_space.append(tuple((k, len(numbers[k]), member) for k, member in decides.items()))
        return tuple(by_space) if self.complete_fields else ()

    def _kept_of(self, spaces: int) -> tuple[tuple[tuple[int, int | None, tuple[int, ...], tuple[Any, ...]], ...], ...]:
        """Return, by space, what a title of it changing hands makes the game test again (Program.kept_of): for each
        kept test, its number, the counted group the space has under its field (None if none), that group's
        spaces, and the test's counts by space."""
        if not self.kept_tests:
            return ()
        groups = list(self.counted_groups)
        columns = [numbers for _, numbers in sorted(self.counted_fields.values())]
        return tuple(
            tuple(
                (j, k := columns[field][space], () if k is None else groups[k], tests)
                for (field, tests), j in self.kept_tests.items()
            )
            for space in range(spaces)
        )

    def _program(
        self, source: str, filename: str, cards: _Cards, entries: _EntryPoints, read_lists_once: bool
    ) -> Program:
        """Return the Program of the generated source, once run into the namespace under `filename` (which its
        stepped twin runs under too, rewritten by pyast_pass first if `read_lists_once`, as the driven one was)."""
        m, rs, ns, spaces = self.m, self.rs, self.ns, self.m.spaces

        def no_effect(g: RulesGame) -> None:
            return None

        card_effects = [ns[name] if name else no_effect for name in cards.effect_names]
        function = lambda name: ns[name] if name else None  # noqa: E731
        header = m.header
        return Program(
            title=header.title or header.name,
            name=header.name,
            players=header.players or (2, 8),
            turn_limit=header.turn_limit,
            dice_count=header.dice or 2,
            options=dict(self.options),
            rules_hash=rs.rules_hash,
            sources=dict(self.sources),
            account_names=[a.name for a in m.accounts],
            account_labels=[a.label or a.name for a in m.accounts],
            account_unlimited=[a.unlimited for a in m.accounts],
            space_names=[s.name for s in spaces],
            space_labels=[s.label for s in spaces],
            space_kinds=[s.kind for s in spaces],
            start_space=0,
            game_var_init=[self.constant(v.initial) for v in m.game_vars.values()],
            player_var_init=[self.constant(v.initial) for v in m.player_vars.values()],
            space_var_init=[[self.constant(v.initial)] * len(spaces) for v in m.space_vars.values()],
            card_names=cards.names,
            card_texts=cards.texts,
            card_space=cards.space,
            card_deck=cards.deck,
            title_card=self.title_card,
            card_effects=card_effects,
            deck_cards=cards.deck_cards,
            deck_kept={d.name: d.kept for d in m.decks.values()},
            deck_enabled={
                d.name: (ns[entries.enabled[d.name]] if d.name in entries.enabled else (lambda g: True))
                for d in m.decks.values()
            },
            rule_names=[r.name for r in m.rules],
            rule_off=[r.off for r in m.rules],
            rule_replaces=[tuple(self.rule_index[x] for x in r.replaces) for r in m.rules],
            triggers=[(ri, ns[cond], ns[body], repeat) for ri, cond, body, repeat in entries.triggers],
            rule_spans=[r.span for r in m.rules],
            on_setup=function(entries.events["setup"]),
            on_turn=function(entries.events["turn"]),
            on_shortfall=function(entries.events["shortfall"]),
            on_land=[function(name) for name in entries.land],
            on_pass=[function(name) for name in entries.passing],
            end_conditions=[
                (ns[name], e.provenance.source if e.provenance else f"line {e.span.line}") for name, e in entries.ends
            ],
            score=ns[entries.score] if entries.score else None,
            python_source=source,
            line_table=tuple(self.line_table),
            native=self.built_natively,
            card_reconstructed=cards.reconstructed,
            card_share=cards.share,
            space_fields={name: list(self._column(name)) for name in self.m.space_fields},
            origins=self.origins,
            var_types=tuple(
                tuple(m.types.get(id(v), "any") for v in table.values())
                for table in (m.game_vars, m.player_vars, m.space_vars)
            ),
            choices=dict(m.choices),
            game_var_names=list(m.game_vars),
            player_var_names=list(m.player_vars),
            space_var_names=list(m.space_vars),
            dice_sets=tuple(DiceSet(d.name, d.label or d.name, d.count, d.faces) for d in m.dice_sets.values()),
            reads_dice_faces=self.reads_dice_faces,
            decks_returned_to=dict(self.decks_returned_to),
            decks_drawn=frozenset(self.decks_drawn),
            counted_groups=tuple(self.counted_groups),
            counted_fields=tuple(numbers for _, numbers in self.counted_fields.values()),
            complete_fields=tuple(self.complete_fields),
            kept_tests=tuple(self.kept_tests),
            keeps_titles=bool(self.complete_fields or self.kept_tests),
            kept_of=self._kept_of(len(spaces)),
            counted_of=tuple(
                tuple(k for k, group in enumerate(self.counted_groups) if space in group)
                for space in range(len(spaces))
            ),
            complete_of=self._complete_of(len(spaces)),
            rules=rs,
            remake=functools.partial(
                remade,
                tuple((module.source_name, module.source_text) for module in rs.modules),
                tuple(self.options.items()),
                self.optimize,
                rs.rules_hash,
                *(("on",) if self.built_natively else ()),
            ),
            stepper=functools.partial(
                build_stepped, source=source, namespace=ns, filename=filename, optimize=read_lists_once
            ),
        )


@attrs.define
class _Cards:
    """The cards of a program as Compiler.compile gathers them, by card number: the title deeds first, then
    each deck's cards, a card of n copies n times."""

    names: list[str] = attrs.Factory(list)
    texts: list[str] = attrs.Factory(list)
    space: list[int | None] = attrs.Factory(list)  # a title deed's space
    deck: list[str] = attrs.Factory(list)  # its deck's name ("" for a title deed in no deck)
    reconstructed: list[bool] = attrs.Factory(list)
    share: list[int | None] = attrs.Factory(list)  # the space a share card is a share of
    effect_names: list[str | None] = attrs.Factory(list)  # the generated function of its effect
    deck_cards: dict[str, list[int]] = attrs.Factory(dict)  # by deck: its cards' numbers
    texts_to_fill: list[tuple[int, ast.CardDecl]] = attrs.Factory(list)  # cards whose text has holes to fill

    def add(
        self,
        name: str,
        text: str,
        space: int | None,
        deck: str,
        reconstructed: bool,
        share: int | None,
        effect: str | None,
    ) -> None:
        """Add one card, numbered len(names)."""
        self.names.append(name)
        self.texts.append(text)
        self.space.append(space)
        self.deck.append(deck)
        self.reconstructed.append(reconstructed)
        self.share.append(share)
        self.effect_names.append(effect)


class _EntryPoints(NamedTuple):
    """The names of the generated functions the engine calls (None where nothing is to be run)."""

    events: dict[str, str | None]  # setup, turn, shortfall
    land: list[str | None]  # by space
    passing: list[str | None]  # by space
    triggers: list[tuple[int, str, str, bool]]  # (rule, condition, body, repeat)
    ends: list[tuple[str, ast.EndDecl]]
    score: str | None
    enabled: dict[str, str]  # by deck


def fixed_value_problems(ruleset: RuleSet, options: dict[str, Any] | None = None) -> list[Diagnostic]:
    """Return the problems met working out, under the option values (None: the defaults), what is fixed
    before a game.

    Every constant, table entry, board field and starting value is worked
    out (each problem reported, located), then, if they all can be, the
    rules' source is generated, which folds the fixed parts of their
    expressions. An empty list: the rule set compiles.
    """
    compiler = Compiler(ruleset, resolve_options(ruleset, options))
    compiler.lists_once = False  # (nothing runs the source: its lists need not be read into locals)
    return _compiled(compiler, build=False)[1]


def checked(ruleset: RuleSet) -> RuleSet:
    """Return the rule set once what it fixes before a game works out under the options' defaults; raise
    RuleCheckError with every problem otherwise (what `landlord-dsl check` adds to loading a file)."""
    problems = fixed_value_problems(ruleset)
    if problems:
        raise RuleCheckError(problems)
    return ruleset


def diagnose(text: str, file: str = "<string>", strict: bool = False) -> list[Diagnostic]:
    """Return what `landlord-dsl check` reports for .lg source text: its errors (loading it and working out
    what it fixes), or when it has none its warnings (with `strict`, as `check --strict`); never raises for
    a problem in the text."""
    try:
        return warnings_of(checked(load_text(text, file)), strict)
    except LandlordError as err:
        return list(err.diagnostics)


def compile_ruleset(
    ruleset: RuleSet,
    options: dict[str, Any] | None = None,
    optimize: bool = True,
    readable: bool = False,
    keyed: bool = False,
    native: bool | str | None = None,
) -> Program:
    """Compile a checked RuleSet with the given option values into a Program; raise RuleCheckError with
    every problem of what is fixed before a game (`fixed_value_problems`) if there are any.

    `optimize=False` gives a plain translation (no inlining, unrolling or
    proofs that field reads cannot fail): slower, and playing the same games.
    `readable=True` names the generated code's locals after the .lg names they
    hold (`owner_v3` for `v3`), for reading it (`show --python`); the code is otherwise the same.
    `keyed=True` also builds the keyed stepped compilation (`Program.stepped(keyed=True)`, the exact
    analysis's) from the syntax tree the driven one ran, instead of parsing the source again.
    `native` (compiling/native.py): True builds the generated code as a C extension (cached), or
    warns and runs it in pure Python when it cannot be built; "require" raises LandlordError then;
    False runs pure Python; None (the default) takes the LANDLORD_NATIVE environment variable (unset: False;
    with `readable`, False).
    The games are the same whichever runs.
    """
    compiler = Compiler(ruleset, resolve_options(ruleset, options), optimize, readable)
    compiler.build_keyed = keyed
    # a listing to read (`show --python`) is never built natively unless asked for by name
    compiler.native = "off" if readable and native is None else native_mode(native)
    try:
        with collector_paused():
            program, problems = _compiled(compiler)
    except NativeRequired as why:
        raise required_but_unavailable(str(why)) from None
    if problems:
        raise RuleCheckError(problems)
    assert program is not None
    return program


def program_for(ruleset: RuleSet, options: dict[str, Any] | None = None) -> Program:
    """Return `compile_ruleset(ruleset, options)`, compiled the first time these option values (and the
    LANDLORD_NATIVE mode) are asked for and kept on the RuleSet (`RuleSet.programs`): starting many games
    from one RuleSet (`ld.new_game`, `ld.new_state`) compiles its rules once."""
    values = resolve_options(ruleset, options)
    try:
        key: tuple | None = (tuple(sorted(values.items())), native_mode(None))
        kept = ruleset.programs.get(key)  # type: ignore[arg-type]
    except TypeError:  # (an option value that cannot be hashed: compiled every time)
        key = kept = None
    if kept is None:
        kept = compile_ruleset(ruleset, values)
        if key is not None:
            ruleset.programs[key] = kept
    return kept


def _compiled(compiler: Compiler, build: bool = True) -> tuple[Program | None, list[Diagnostic]]:
    """Return the compiler's Program (None when not `build`) and the problems met, in file order, making it.

    The fixed values are worked out first, each problem collected; only if
    they all work out is the rules' source generated.
    """
    m = compiler.m
    fixed = [c.value for c in m.consts.values()]
    fixed += [e for t in m.tables.values() for pair in t.entries for e in pair]
    fixed += [value for s in m.spaces for _, value in s.fields]
    fixed += [v.initial for table in (m.game_vars, m.player_vars, m.space_vars) for v in table.values()]
    problems: list[Diagnostic] = []
    program = None
    try:
        with _within_pythons_limits(compiler.rs):
            for e in fixed:
                try:
                    compiler.constant(e)
                except LandlordError as err:
                    problems.extend(d for d in err.diagnostics if d not in problems)  # a constant fails wherever used
            if not problems:
                program = compiler.compile(build=build)
    except LandlordError as err:
        problems.extend(err.diagnostics)
    problems.sort(key=lambda d: (d.span.file, d.span.line, d.span.column) if d.span else ("", 0, 0))
    return program, problems


def remade(
    files: tuple[tuple[str, str], ...],
    options: tuple[tuple[str, Any], ...],
    optimize: bool,
    rules_hash: str,
    native: str = "off",
) -> Program:
    """Return the Program of rules given as their files' (name, text), the base edition first, compiled
    with the option values `options` (how a pickled Program is unpickled: Program.remake); raise
    LandlordError if those texts no longer make the rules whose hash is `rules_hash`.

    The last few Programs remade are kept: unpickling many states of the same rules in one process
    compiles them once (a Program is never changed, so they share it)."""
    try:
        hash(options)
    except TypeError:  # (an option value that is not hashable: compiled every time)
        return _remade.__wrapped__(files, options, optimize, rules_hash, native)
    return _remade(files, options, optimize, rules_hash, native)


@functools.lru_cache(maxsize=8)
def _remade(
    files: tuple[tuple[str, str], ...],
    options: tuple[tuple[str, Any], ...],
    optimize: bool,
    rules_hash: str,
    native: str = "off",
) -> Program:
    ruleset = load_modules([parse(text, name) for name, text in files])
    if ruleset.rules_hash != rules_hash:
        raise LandlordError(f"the pickled rules {ruleset.name} do not load as they did (their hash differs)")
    return compile_ruleset(ruleset, dict(options), optimize, native=native == "on")


def compile_counted(
    ruleset: RuleSet, options: dict[str, Any] | None, counters: dict[Any, int]
) -> tuple[Program, list[int], frozenset[int]]:
    """Compile a checked RuleSet with coverage counters (rule_coverage.py): return the Program, the list of
    counts its runs add to (index: the counter), and the counters some line of it adds to.

    `counters` gives, by .lg node (its `id`, or `(id, "then")`/`(id, "else")` for an `if`'s arms and
    `(id, "done")` for an offer's "done"), the counter its runs add to. The program plays the same
    games as `compile_ruleset`'s: its code is that code with the counting lines added, and nothing else.
    """
    with _within_pythons_limits(ruleset):
        compiler = Compiler(ruleset, resolve_options(ruleset, options), counters=counters)
        program = compiler.compile()
    assert program is not None
    return program, compiler.ns["_cov"], frozenset(compiler.counters_used)


@contextlib.contextmanager
def _within_pythons_limits(ruleset: RuleSet) -> Iterator[None]:
    """Within the block, Python's own limits met by rules nested too deeply (its recursion, memory, or
    parentheses nested in the generated code: a SyntaxError) raise a LandlordError naming the rule set."""
    try:
        yield
    except (RecursionError, MemoryError, SyntaxError):
        raise too_deep(ruleset.name) from None


_REGISTERED: collections.OrderedDict[str, None] = collections.OrderedDict()
_REGISTERED_KEPT = 32  # the generated sources tracebacks can show; older ones are dropped, to bound memory


def _registered(name: str, source: str) -> str:
    """Return the file name generated code runs under (`<compiled NAME HASH>`: the engine finds the rules'
    frames by its start), with the source put in `linecache`, so that tracebacks, debuggers and profilers
    show the generated lines, as for attrs' generated methods."""
    filename = f"<compiled {name} {hashlib.sha1(source.encode()).hexdigest()[:10]}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    _REGISTERED[filename] = None
    _REGISTERED.move_to_end(filename)
    while len(_REGISTERED) > _REGISTERED_KEPT:
        linecache.cache.pop(_REGISTERED.popitem(last=False)[0], None)
    return filename
