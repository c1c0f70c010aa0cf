"""What `landlord-dsl show` prints: a rule set as a player reads it, and its generated Python.

`show_text` lists the header (players, dice, turn limit), then every section
that has something in it: options with the values in force, accounts,
the purposes payments are made for (and where a `reroute` sends them),
constants and tables with their values worked out under those options,
variables with their starting values, groups, the board, decks, rules, the
end conditions and the score, each declaration with its citation.
`python_listing` is the Python the compiler generates for those options,
with its locals named after the .lg names they hold and each line marked
with the .lg line it translates.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..checking.extensions import extension_point_lines
from ..checking.loader import RuleSet
from ..checking.model import Model
from ..checking.narrowing import purposes_paid
from ..checking.options import resolve_options
from ..compiling.compiler import Compiler, compile_ruleset
from ..core.errors import visible
from ..core.types import ACCOUNT, BOOL, GROUP, SPACE, element_of, strip_optional
from ..language import ast
from ..language.formatter import expr, quote
from ..program.compiled import RECONSTRUCTED_CARD, is_reconstruction


def _cite(p: ast.Provenance | None) -> str:
    """Return a declaration's citation as `show` prints it after the declaration ('' if none)."""
    if p is None:
        return ""
    # the confidence stands outside the brackets: a citation has commas of its own
    return f"  [{p.source}]" + (f" ({p.confidence})" if p.confidence else "")


def _literal(value: int | str | bool) -> str:
    """Return an option value as a .lg literal."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return quote(value) if isinstance(value, str) else str(value)


class _Values:
    """Renders values worked out before a game (constants, table entries, starting values) as .lg text."""

    def __init__(self, rules: RuleSet):
        m = rules.model
        self.spaces = [s.name for s in m.spaces]
        self.accounts = [a.name for a in m.accounts]
        self.groups = {tuple(members): name for name, members in m.groups.items()}

    def __call__(self, value: Any, type_: str) -> str:
        """Return `value`, of the .lg type `type_`, as the .lg text that denotes it."""
        t = strip_optional(type_)
        if value is None:
            return "none"
        if t == BOOL or isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return quote(value)
        if t == SPACE and isinstance(value, int) and 0 <= value < len(self.spaces):
            return self.spaces[value]
        if t == ACCOUNT and isinstance(value, int) and 0 < -value <= len(self.accounts):
            return self.accounts[-value - 1]
        if isinstance(value, (tuple, list)):
            if t == GROUP and tuple(value) in self.groups:
                return self.groups[tuple(value)]
            item = element_of(t) or "any"
            return "[" + ", ".join(self(v, item) for v in value) + "]"
        return str(value)


def show_text(rules: RuleSet, chosen: dict[str, Any] | None = None) -> str:
    """Return `show`'s text for a rule set under the chosen option values (the defaults for the rest).

    Raises UsageError for an unknown option or a value of the wrong type, and a
    located LandlordError if a constant or table cannot be worked out.
    """
    m = rules.model
    h = m.header
    options = resolve_options(rules, chosen)
    compiler = Compiler(rules, options)
    render = _Values(rules)
    lines: list[str] = [f"{h.title or h.name}  ({h.name}, rules hash {rules.rules_hash})"]
    if h.players:
        lines.append(f"players: {h.players[0]} to {h.players[1]}")
    lines.append(f"dice: {h.dice or 2}")
    if h.turn_limit is not None:
        lines.append(f"turn limit: {h.turn_limit} turns")

    def fixed(e: ast.Expr, type_: str) -> str:
        """Return the value of `e` under the options, and the expression when it is not a plain literal."""
        text = render(compiler.constant(e), type_)
        written = expr(e)
        return text if written == text else f"{text}  (= {written})"

    sections: list[tuple[str, list[str]]] = [
        ("Options", [_option_row(o, options[o.name]) for o in m.options.values()]),
        (
            "Accounts",
            [
                f"  {a.name}{' (unlimited)' if a.unlimited else ''}: {a.label or ''}{_cite(a.provenance)}"
                for a in m.accounts
            ],
        ),
        ("Purposes (`pay ... as NAME`)", _purpose_rows(m)),
        (
            "Constants",
            [
                f"  {c.name} = {fixed(c.value, m.types.get(id(c), 'any'))}{_cite(c.provenance)}"
                for c in m.consts.values()
            ],
        ),
        (
            "Choices",
            [
                f"  {name}: {', '.join(quote(v) for v in values)}"
                for name, values in m.choices.items()
                if name not in m.options  # an option's own choices are shown with it
            ],
        ),
        ("Dice sets (thrown by `roll NAME`)", [_dice_row(d) for d in m.dice_sets.values()]),
        ("Tables", [row for t in m.tables.values() for row in _table_rows(t, m.table_types[t.name], compiler, render)]),
        ("Variables", _variable_rows(m, fixed)),
        (
            "Groups",
            [
                f"  {name}: {m.group_labels.get(name) or ''}  ({', '.join(render.spaces[i] for i in members)})"
                for name, members in m.groups.items()
                if name not in m.kinds  # a kind is a group of its spaces too; the board shows those
            ],
        ),
        ("Board", _board_rows(m, compiler, render)),
        ("Decks", [row for d in m.decks.values() for row in _deck_rows(d, compiler)]),
        (
            "Rules",
            [
                f"  {r.name}: {r.label or ''}{' (off at the start)' if r.off else ''}{_cite(r.provenance)}"
                for r in m.rules
            ],
        ),
        (
            "The game ends",
            [f"  {e.name + ': ' if e.name else ''}when {expr(e.condition)}{_cite(e.provenance)}" for e in m.ends]
            + ([] if h.turn_limit is None else [f"  after {h.turn_limit} turns (the turn limit)"]),
        ),
        ("Score", [] if m.score is None else [f"  {expr(m.score.formula)}{_cite(m.score.provenance)}"]),
        ("Extension points (a variant replaces these by declaring the same name)", extension_point_lines(m)),
    ]
    for heading, rows in sections:
        if rows:  # a heading with nothing under it says nothing
            lines += ["", f"{heading}:", *rows]
    return "".join(visible(line) + "\n" for line in lines)  # titles, labels and sources come from the rule file


def payments_by_purpose(m: Model) -> dict[str, list[str]]:
    """Return, for each purpose, the rules, cards and actions with a payment made for it (`pay ... as NAME`)."""
    bodies: list[tuple[str, tuple[ast.Stmt, ...]]] = [(r.name, h.body) for r in m.rules for h in r.handlers] + [
        (r.name, t.body) for r in m.rules for t in r.triggers
    ]
    bodies += [(c.name, c.body) for d in m.decks.values() for c in d.cards]
    bodies += [(a.name, a.body) for a in m.actions.values()]
    found: dict[str, list[str]] = {p: [] for p in m.purposes}
    for name, body in bodies:
        for purpose in purposes_paid([body]) & found.keys():
            if name not in found[purpose]:
                found[purpose].append(name)
    return found


def _purpose_rows(m: Model) -> list[str]:
    """Return `show`'s lines for the purposes: label, where a `reroute` sends them, and what pays for each."""
    rows = []
    paid = payments_by_purpose(m)
    for p in m.purposes.values():
        reroute = m.reroutes.get(p.name)
        where = "" if reroute is None else f"  -> rerouted to {reroute.account}{_cite(reroute.provenance)}"
        rows.append(f"  {p.name}: {p.label or ''}{_cite(p.provenance)}{where}")
        rows.append(f"    paid in: {', '.join(paid[p.name]) or '(nothing)'}")
    return rows


def _dice_row(d: ast.DiceDecl) -> str:
    """Return `show`'s line for a declared set of dice: how many, and the faces of each die."""
    faces = ", ".join(str(f) if isinstance(f, int) else quote(f) for f in d.faces)
    dice = f"{d.count} {'die' if d.count == 1 else 'dice'}"
    return f"  {d.name}: {d.label + ', ' if d.label else ''}{dice}, faces {faces}{_cite(d.provenance)}"


def _option_row(o: ast.OptionDecl, value: int | str | bool) -> str:
    """Return `show`'s line for an option: the value in force, the default if it differs, the choices."""
    row = f"  {o.name} = {_literal(value)}"
    if value != o.default:
        row += f" (default {_literal(o.default)})"
    if o.label:
        row += f": {o.label}"
    if o.choices is not None:
        row += "  (choices " + " | ".join(quote(c) for c in o.choices) + ")"
    return row + _cite(o.provenance)


def _board_rows(m: Any, compiler: Compiler, render: _Values) -> list[str]:
    """Return `show`'s lines for the board: each space's number, label, kind and fields (worked out)."""
    label_width = max((len(s.label) for s in m.spaces), default=0)
    kind_width = max((len(s.kind) for s in m.spaces), default=0)
    rows = []
    for i, s in enumerate(m.spaces):
        fields = ", ".join(f"{n} {render(compiler._column(n)[i], m.space_fields[n])}" for n, _ in s.fields)
        rows.append(
            f"  {i:>3}  {s.label:{label_width}}  {s.kind:{kind_width}}  {fields}".rstrip() + _cite(s.provenance)
        )
    return rows


def _table_rows(t: ast.TableDecl, types: tuple[str, str], compiler: Compiler, render: _Values) -> list[str]:
    """Return `show`'s lines for a table: its name and label, then each entry worked out."""
    key_type, value_type = types
    rows = [f"  {t.name}{' (rising)' if t.rising else ''}: {t.label or ''}{_cite(t.provenance)}"]
    for k, v in t.entries:
        rows.append(f"    {render(compiler.constant(k), key_type)}: {render(compiler.constant(v), value_type)}")
    return rows


def _variable_rows(m: Any, fixed: Callable[[ast.Expr, str], str]) -> list[str]:
    """Return `show`'s lines for the game, player and space variables: each with its starting value."""
    rows = []
    for scope, table in (("", m.game_vars), ("player ", m.player_vars), ("space ", m.space_vars)):
        for v in table.values():
            rows.append(f"  {scope}{v.name} = {fixed(v.initial, m.types.get(id(v), 'any'))}{_cite(v.provenance)}")
    return rows


def _deck_rows(d: ast.DeckDecl, compiler: Compiler) -> list[str]:
    """Return `show`'s lines for a deck: the deck, then each card (its text under the options), a reconstructed
    one marked as such."""
    size = f" ({d.size} cards)" if d.size is not None else ""
    rows = [f"  {d.name}{size}: {d.label or ''}{_cite(d.provenance)}"]
    for c in d.cards:
        mark = f"  [{RECONSTRUCTED_CARD}]" if is_reconstruction(d) or is_reconstruction(c) else _cite(c.provenance)
        copies = f" (x {c.copies})" if c.copies != 1 else ""
        rows.append(f"    {c.name}{copies}: {compiler.fixed_text(c, c.text)}{mark}")
    return rows


def python_listing(rules: RuleSet, chosen: dict[str, Any] | None = None) -> str:
    """Return the Python the compiler generates for a rule set under the chosen option values, for reading.

    Locals are named after the .lg names they hold (`owner_v3`); each line
    that starts translating another .lg line ends with a `# FILE:LINE` mark
    naming it (the file's name without its directories). The text compiles.
    """
    options = resolve_options(rules, chosen)
    program = compile_ruleset(rules, options, readable=True)
    chosen_text = ", ".join(f"{name}={_literal(value)}" for name, value in options.items())
    out = [
        f"# {program.title} ({program.name}, rules hash {program.rules_hash}): the generated Python",
        f"# options: {chosen_text or '(none)'}",
        "# each line that starts translating a line of the rules is marked with it (FILE:LINE);",
        "# names like owner_v3 are the rules' local names; _k..., _t... name values worked out before the game",
        "",
    ]
    previous: tuple[str, int] | None = None
    for text, (_, span) in zip(program.python_source.splitlines(), program.line_table):
        place = (Path(span.file).name, span.line) if span is not None else None
        if place is not None and place != previous and text.strip():
            text += f"  # {place[0]}:{place[1]}"
        previous = place if text.strip() else previous
        out.append(text)
    return "".join(visible(line) + "\n" for line in out)
