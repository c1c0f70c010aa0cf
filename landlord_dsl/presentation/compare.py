"""Semantic differences between two rule sets (`landlord-dsl diff`).

Declarations are compared by what they mean, not by their text: expressions
and rules are normalised with the formatter, spaces are matched by name and
then by board position (a renamed or re-kinded space is one change, not a
removal and an addition), tables are compared entry by entry. Every change
carries the provenance of both sides.

What the changes do to games (`diff --outcomes`) is measured in outcomes.py.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from ..checking.loader import RuleSet
from ..checking.model import Model
from ..core.errors import visible
from ..core.installation import shown_name
from ..core.terminal import painter
from ..language import ast
from ..language.formatter import expr, format_declaration, quote
from .notebook import Changes
from .show import payments_by_purpose

CATEGORIES = (
    "header",
    "option",
    "choice",
    "account",
    "purpose",
    "reroute",
    "const",
    "table",
    "group",
    "kind",
    "variable",
    "space",
    "deck",
    "card",
    "dice set",
    "function",
    "action",
    "rule",
    "end",
    "score",
)


@attrs.frozen
class Change:
    """One difference: what kind of thing, which one, and the two sides.

    `change` is one of added, removed, changed, renamed, moved. `old`/`new`
    are normalised texts (None on the side where the thing is absent);
    `details` lists sub-changes as (what, old, new), e.g. ("price", "10", "25").
    """

    category: str
    change: str
    name: str
    old: str | None = None
    new: str | None = None
    old_source: str | None = None
    new_source: str | None = None
    old_location: str | None = None
    new_location: str | None = None
    details: tuple[tuple[str, str | None, str | None], ...] = ()
    new_name: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the change as a JSON object, as `landlord-dsl diff --json` prints it (details as objects)."""
        data = attrs.asdict(self)
        data["details"] = [{"what": w, "old": o, "new": n} for w, o, n in self.details]
        return data


def _source(p: ast.Provenance | None) -> str | None:
    if p is None:
        return None
    return p.source + (f" ({p.confidence})" if p.confidence else "")


def _cited(d: Any) -> str | None:
    """Return a declaration's citation as diff shows it: its own, then, for a rule, that of each handler a
    variant put in with `replace handler` (the rule keeps the base's citation)."""
    own = _source(getattr(d, "provenance", None))
    if not isinstance(d, ast.RuleDecl):
        return own
    put = [f"{h.heading}: {_source(h.provenance)}" for h in d.handlers if h.provenance is not None]
    return "; ".join(([own] if own else []) + put) or None


def _where(node: Any) -> str | None:
    """Return `file:line` of a declaration (of a rule, of its first handler a variant put in), or None."""
    if isinstance(node, ast.RuleDecl):
        node = next((h for h in node.handlers if h.provenance is not None), node)
    span = getattr(node, "span", None)
    return f"{shown_name(span.file)}:{span.line}" if span is not None and span.file != "<none>" else None


def _pair(
    category: str,
    name: str,
    a: Any,
    b: Any,
    text_a: str | None,
    text_b: str | None,
    details: Iterable[tuple[str, str | None, str | None]] = (),
) -> Change | None:
    details = tuple(details)
    if a is None and b is None:
        return None
    if a is None:
        return Change(category, "added", name, None, text_b, None, _cited(b), None, _where(b))
    if b is None:
        return Change(category, "removed", name, text_a, None, _cited(a), None, _where(a))
    if text_a == text_b and not details:
        return None
    return Change(
        category,
        "changed",
        name,
        text_a,
        text_b,
        _cited(a),
        _cited(b),
        _where(a),
        _where(b),
        details,
    )


def _by_name(items: Iterable[Any], key: Callable[[Any], str] = lambda d: d.name) -> dict[str, Any]:
    return {key(i): i for i in items}


def _without_provenance(d: Any) -> Any:
    """Return a declaration with its citation removed, so a change of source alone shows as such."""
    if attrs.has(type(d)) and "provenance" in attrs.fields_dict(type(d)):
        return attrs.evolve(d, provenance=None)
    return d


def _compare_named(category: str, a: dict[str, Any], b: dict[str, Any], sources: bool) -> list[Change]:
    out = []
    for name in list(a) + [n for n in b if n not in a]:
        da, db = a.get(name), b.get(name)
        ta = format_declaration(_without_provenance(da)) if da is not None else None
        tb = format_declaration(_without_provenance(db)) if db is not None else None
        details = []
        if sources and da is not None and db is not None and _cited(da) != _cited(db):
            details.append(("source", _cited(da), _cited(db)))
        change = _pair(category, name, da, db, ta, tb, details)
        if change is not None:
            out.append(change)
    return out


def _table_changes(a: dict[str, ast.TableDecl], b: dict[str, ast.TableDecl], sources: bool) -> list[Change]:
    out = []
    for name in list(a) + [n for n in b if n not in a]:
        ta, tb = a.get(name), b.get(name)
        if ta is None or tb is None:
            change = _pair(
                "table", name, ta, tb, format_declaration(ta) if ta else None, format_declaration(tb) if tb else None
            )
            if change:
                out.append(change)
            continue
        ea = {expr(k): expr(v) for k, v in ta.entries}
        eb = {expr(k): expr(v) for k, v in tb.entries}
        details = [
            (f"[{k}]", ea.get(k), eb.get(k))
            for k in list(ea) + [k for k in eb if k not in ea]
            if ea.get(k) != eb.get(k)
        ]
        if ta.label != tb.label:
            details.append(("label", ta.label, tb.label))
        if sources and _source(ta.provenance) != _source(tb.provenance):
            details.append(("source", _source(ta.provenance), _source(tb.provenance)))
        if details:
            out.append(
                Change(
                    "table",
                    "changed",
                    name,
                    None,
                    None,
                    _source(ta.provenance),
                    _source(tb.provenance),
                    _where(ta),
                    _where(tb),
                    tuple(details),
                )
            )
    return out


def _space_summary(s: ast.SpaceDecl) -> str:
    fields = ", ".join(f"{n} = {expr(v)}" for n, v in s.fields)
    text = f"{quote(s.label)} : {s.kind}" + (f" {{ {fields} }}" if fields else "")
    return text + (f" in {', '.join(s.groups)}" if s.groups else "")


def _space_details(
    a: ast.SpaceDecl, b: ast.SpaceDecl, pa: int, pb: int, sources: bool
) -> list[tuple[str, str | None, str | None]]:
    details: list[tuple[str, str | None, str | None]] = []
    if pa != pb:
        details.append(("position", str(pa), str(pb)))
    if a.label != b.label:
        details.append(("label", a.label, b.label))
    if a.kind != b.kind:
        details.append(("kind", a.kind, b.kind))
    fa = {n: expr(v) for n, v in a.fields}
    fb = {n: expr(v) for n, v in b.fields}
    for n in list(fa) + [n for n in fb if n not in fa]:
        if fa.get(n) != fb.get(n):
            details.append((n, fa.get(n), fb.get(n)))
    if set(a.groups) != set(b.groups):
        details.append(("groups", ", ".join(a.groups) or None, ", ".join(b.groups) or None))
    if sources and _source(a.provenance) != _source(b.provenance):
        details.append(("source", _source(a.provenance), _source(b.provenance)))
    return details


def _space_change(kind: str, sa: ast.SpaceDecl, sb: ast.SpaceDecl, details: list, **extra: Any) -> Change:
    """Return the Change of `kind` between two matched spaces, with their summaries, sources and places."""
    return Change(
        "space",
        kind,
        sa.name,
        _space_summary(sa),
        _space_summary(sb),
        _source(sa.provenance),
        _source(sb.provenance),
        _where(sa),
        _where(sb),
        tuple(details),
        **extra,
    )


def _space_changes(a: list[ast.SpaceDecl], b: list[ast.SpaceDecl], sources: bool) -> list[Change]:
    pos_a = {s.name: i for i, s in enumerate(a)}
    pos_b = {s.name: i for i, s in enumerate(b)}
    matched: list[tuple[ast.SpaceDecl, ast.SpaceDecl]] = [(s, b[pos_b[s.name]]) for s in a if s.name in pos_b]
    left = [s for s in a if s.name not in pos_b]
    right = {pos_b[s.name]: s for s in b if s.name not in pos_a}
    renamed: list[tuple[ast.SpaceDecl, ast.SpaceDecl]] = []
    for s in list(left):
        # a space that lost its name but kept its place on the board was renamed
        twin = right.get(pos_a[s.name])
        if twin is not None:
            renamed.append((s, twin))
            left.remove(s)
            del right[pos_a[s.name]]
    out: list[Change] = []
    for sa, sb in matched:
        details = _space_details(sa, sb, pos_a[sa.name], pos_b[sb.name], sources)
        if details:
            kind = "moved" if details[0][0] == "position" and len(details) == 1 else "changed"
            out.append(_space_change(kind, sa, sb, details))
    for sa, sb in renamed:
        details = _space_details(sa, sb, pos_a[sa.name], pos_b[sb.name], sources)
        out.append(_space_change("renamed", sa, sb, details, new_name=sb.name))
    for s in left:
        out.append(
            Change(
                "space",
                "removed",
                s.name,
                _space_summary(s),
                None,
                _source(s.provenance),
                None,
                _where(s),
                None,
                (("position", str(pos_a[s.name]), None),),
            )
        )
    for i, s in sorted(right.items()):
        out.append(
            Change(
                "space",
                "added",
                s.name,
                None,
                _space_summary(s),
                None,
                _source(s.provenance),
                None,
                _where(s),
                (("position", None, str(i)),),
            )
        )
    return out


def _card_text(deck: ast.DeckDecl | None, c: ast.CardDecl | None) -> str | None:
    """Return the card's text as the deck `deck` would print it, without its source; None for no card."""
    if c is None or deck is None:
        return None
    holder = attrs.evolve(deck, cards=(attrs.evolve(c, provenance=None),), provenance=None, label=None, enabled=None)
    return "\n".join(format_declaration(holder).splitlines()[1:-1]).strip()


def _deck_changes(a: dict[str, ast.DeckDecl], b: dict[str, ast.DeckDecl]) -> list[Change]:
    out = []
    for name in list(a) + [n for n in b if n not in a]:
        da, db = a.get(name), b.get(name)
        header_a = format_declaration(attrs.evolve(da, cards=(), provenance=None)) if da else None
        header_b = format_declaration(attrs.evolve(db, cards=(), provenance=None)) if db else None
        change = _pair("deck", name, da, db, header_a, header_b)
        if change is not None:
            out.append(change)
        ca = {c.name: c for c in da.cards} if da else {}
        cb = {c.name: c for c in db.cards} if db else {}
        deck = da or db
        for card in list(ca) + [n for n in cb if n not in ca]:
            change = _pair(
                "card",
                f"{name}.{card}",
                ca.get(card),
                cb.get(card),
                _card_text(deck, ca.get(card)),
                _card_text(deck, cb.get(card)),
            )
            if change is not None:
                out.append(change)
    return out


def _header_changes(a: ast.Header, b: ast.Header) -> list[Change]:
    out = []
    for field in ("title", "players", "dice", "turn_limit"):
        va, vb = getattr(a, field), getattr(b, field)
        if va != vb:
            show = lambda v: None if v is None else (f"{v[0]} to {v[1]}" if isinstance(v, tuple) else str(v))  # noqa: E731
            out.append(
                Change(
                    "header",
                    "changed",
                    field,
                    show(va),
                    show(vb),
                    _source(a.provenance),
                    _source(b.provenance),
                    _where(a),
                    _where(b),
                )
            )
    return out


def diff(a: RuleSet, b: RuleSet, sources: bool = False) -> Changes:
    """Return the semantic changes that turn rule set `a` into rule set `b`.

    A declaration whose citation alone differs is reported only when
    `sources` is true; real changes always carry both sides' provenance.
    """
    ma, mb = a.model, b.model
    changes: list[Change] = []
    changes += _header_changes(ma.header, mb.header)
    changes += _compare_named("option", ma.options, mb.options, sources)
    changes += _compare_named("choice", ma.choice_decls, mb.choice_decls, sources)
    changes += _compare_named("account", _by_name(ma.accounts), _by_name(mb.accounts), sources)
    changes += _compare_named("purpose", ma.purposes, mb.purposes, sources)
    changes += _reroute_changes(ma, mb, sources)
    changes += _compare_named("const", ma.consts, mb.consts, sources)
    changes += _table_changes(ma.tables, mb.tables, sources)
    changes += _compare_named("group", _groups(a), _groups(b), sources)
    changes += _compare_named("kind", ma.kinds, mb.kinds, sources)
    var_a = {f"{d.scope} {n}": d for table in (ma.game_vars, ma.player_vars, ma.space_vars) for n, d in table.items()}
    var_b = {f"{d.scope} {n}": d for table in (mb.game_vars, mb.player_vars, mb.space_vars) for n, d in table.items()}
    changes += _compare_named("variable", var_a, var_b, sources)
    changes += _space_changes(ma.spaces, mb.spaces, sources)
    changes += _deck_changes(ma.decks, mb.decks)
    changes += _compare_named("dice set", ma.dice_sets, mb.dice_sets, sources)
    changes += _compare_named("function", ma.functions, mb.functions, sources)
    changes += _compare_named("action", ma.actions, mb.actions, sources)
    changes += _compare_named("rule", _by_name(ma.rules), _by_name(mb.rules), sources)
    ends_a = {e.name or f"end {i + 1}": e for i, e in enumerate(ma.ends)}
    ends_b = {e.name or f"end {i + 1}": e for i, e in enumerate(mb.ends)}
    changes += _compare_named("end", ends_a, ends_b, sources)
    score_a = {"score": ma.score} if ma.score else {}
    score_b = {"score": mb.score} if mb.score else {}
    changes += _compare_named("score", score_a, score_b, sources)
    return Changes(changes)  # a list that a notebook shows as a table


def _reroute_changes(a: Model, b: Model, sources: bool) -> list[Change]:
    """Return one change for each purpose whose payments go to another account in `b` than in `a`, with the
    rules, cards and actions that make them."""

    def text(d: ast.RerouteDecl | None, purpose: str) -> str | None:
        return None if d is None else f"reroute {purpose} to {d.account}"

    out = []
    paid = payments_by_purpose(b)
    for purpose in list(a.reroutes) + [p for p in b.reroutes if p not in a.reroutes]:
        da, db = a.reroutes.get(purpose), b.reroutes.get(purpose)
        details = []
        if sources and da is not None and db is not None and _cited(da) != _cited(db):
            details.append(("source", _cited(da), _cited(db)))
        change = _pair("reroute", purpose, da, db, text(da, purpose), text(db, purpose), details)
        if change is not None:  # which payments change payee, the variant's own text does not say
            paid_in = ("paid in", None, ", ".join(paid.get(purpose, [])) or "(nothing)")
            out.append(attrs.evolve(change, details=(paid_in, *change.details)))
    return out


def _groups(rs: RuleSet) -> dict[str, ast.GroupDecl]:
    found: dict[str, ast.GroupDecl] = {}
    for module in rs.modules:
        for d in module.declarations:
            if isinstance(d, ast.GroupDecl):
                found[d.name] = d
    return {n: d for n, d in found.items() if n in rs.model.groups}


# ------------------------------------------------------------------ rendering

_STYLES = {"added": "green", "removed": "red", "changed": "yellow", "renamed": "cyan", "moved": "cyan"}
_SIGN = {"added": "+", "removed": "-", "changed": "~", "renamed": "~", "moved": "~"}


def _cite(c: Change) -> str:
    if c.old_source == c.new_source:
        return f"[{c.old_source}]" if c.old_source else ""
    return f"[{c.old_source or '-'} -> {c.new_source or '-'}]"


def render_text(changes: Sequence[Change], a: str, b: str, colour: bool = False) -> str:
    """Return changes grouped by category, for a terminal ("no differences" when there are none)."""
    if not changes:
        return f"no differences between {visible(a)} and {visible(b)}\n"
    # names, texts and citations come from rule files: their control characters are shown as escapes
    styled = painter(colour)

    def paint(text: str, kind: str) -> str:
        return styled(visible(text), _STYLES[kind])

    def bold(text: str) -> str:
        return styled(visible(text), "bold")

    lines = [f"--- {a}", f"+++ {b}"]
    for category in CATEGORIES:
        group = [c for c in changes if c.category == category]
        if not group:
            continue
        lines.append("")
        lines.append(bold(f"{category}s ({len(group)})" if not category.endswith("s") else category))
        for c in group:
            title = c.name + (f" -> {c.new_name}" if c.new_name else "")
            cited = _cite(c)
            lines.append(
                paint(f"  {_SIGN[c.change]} {c.change} {title}", c.change) + (f"  {visible(cited)}" if cited else "")
            )
            for what, old, new in c.details:
                lines.append(
                    visible(
                        f"      {what}: {old if old is not None else '(none)'} -> "
                        f"{new if new is not None else '(none)'}"
                    )
                )
            if c.category == "space" and c.change not in ("added", "removed"):
                continue  # a space's details already say what changed
            if c.old != c.new:
                lines.extend(_text_lines(c.old, c.new, paint))
    return "\n".join(lines) + "\n"


def _text_lines(old: str | None, new: str | None, paint: Callable[[str, str], str]) -> list[str]:
    """Return -/+ lines for two normalised texts: whole texts when short, else a unified diff."""
    old_lines = old.splitlines() if old is not None else []
    new_lines = new.splitlines() if new is not None else []
    if len(old_lines) <= 2 and len(new_lines) == len(old_lines):  # line by line: a line kept is shown as kept
        out = []
        for was, now in zip(old_lines, new_lines, strict=True):
            out.extend(
                [visible(f"        {was}")]
                if was == now
                else [paint(f"      - {was}", "removed"), paint(f"      + {now}", "added")]
            )
        return out
    if (len(old_lines) <= 2 and len(new_lines) <= 2) or not old_lines or not new_lines:
        return [paint(f"      - {t}", "removed") for t in old_lines] + [
            paint(f"      + {t}", "added") for t in new_lines
        ]
    out = []
    for line in list(difflib.unified_diff(old_lines, new_lines, lineterm="", n=1))[2:]:
        if line.startswith("@@"):
            out.append("      ...")
        elif line.startswith("-"):
            out.append(paint(f"      - {line[1:]}", "removed"))
        elif line.startswith("+"):
            out.append(paint(f"      + {line[1:]}", "added"))
        else:
            out.append(visible(f"        {line[1:]}"))
    return out


def render_markdown(changes: Sequence[Change], a: str, b: str) -> str:
    """Return changes as a Markdown document: one section per category, one entry per change.

    A change whose texts are one line each reads `old` → `new` inline; a longer one
    (a rule, a deck) is a `diff` code block of the changed lines with a little
    context, so a reader sees what changed rather than two whole bodies.
    """
    if not changes:
        return f"No differences between `{a}` and `{b}`.\n"
    out = [f"# Differences: `{a}` → `{b}`", ""]
    for category in CATEGORIES:
        group = [c for c in changes if c.category == category]
        if not group:
            continue
        out += [f"## {category.capitalize()}", ""]
        for c in group:
            name = c.name + (f" → {c.new_name}" if c.new_name else "")
            cite = _cite(c)
            sources = f" · sources: {_md_escape(cite[1:-1].replace(' -> ', ' → '))}" if cite else ""
            out += [f"**{c.change}** `{name}`{sources}", ""]
            if c.details:
                out += ["| what | old | new |", "|---|---|---|"]
                out += [f"| {_md_escape(w)} | {_md_code(o)} | {_md_code(n)} |" for w, o, n in c.details]
                out.append("")
                if c.category == "space" and c.change not in ("added", "removed"):
                    continue  # a space's details already say what changed
            if c.old == c.new:
                continue
            old_lines = c.old.splitlines() if c.old is not None else []
            new_lines = c.new.splitlines() if c.new is not None else []
            if len(old_lines) <= 1 and len(new_lines) <= 1:
                sides = [_md_code(t[0]) if t else "(none)" for t in (old_lines, new_lines)]
                out.append(sides[1] if not old_lines else sides[0] if not new_lines else " → ".join(sides))
            else:
                out.append("```diff")
                if old_lines and new_lines:
                    out += list(difflib.unified_diff(old_lines, new_lines, lineterm="", n=2))[2:]
                else:
                    out += [("+" if new_lines else "-") + line for line in new_lines or old_lines]
                out.append("```")
            out.append("")
    return "\n".join(out)


def _md_escape(text: str) -> str:
    """Return text with the characters Markdown would read as markup escaped."""
    return re.sub(r"([|*_\\`<])", r"\\\1", text)


def _md_code(text: str | None) -> str:
    """Return text as inline code, fenced with more backticks than it contains, or "(none)"."""
    if text is None:
        return "(none)"
    fence = "`" * (max(map(len, re.findall(r"`+", text)), default=0) + 1)
    pad = " " if len(fence) > 1 else ""
    return f"{fence}{pad}{text.replace('|', '&#124;')}{pad}{fence}"


def to_json(changes: Sequence[Change], a: str, b: str, outcomes: dict | None = None) -> dict[str, Any]:
    """Return the documented JSON form: {"a", "b", "equal", "changes": [...], "outcomes"?}."""
    data: dict[str, Any] = {"a": a, "b": b, "equal": not changes, "changes": [c.to_json() for c in changes]}
    if outcomes is not None:
        data["outcomes"] = outcomes
    return data
