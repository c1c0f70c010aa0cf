"""Which change between two rule sets causes which part of the difference (`landlord-dsl diff A B --attribute`).

Both rule sets are flattened (a variant merged onto its base) into one list
of declarations, and compared declaration by declaration: named declarations
by kind and name, spaces by name (and by the space before them), the header's
players, dice and turn limit as one change, any other declaration by its
kind. A citation or a note alone is no change: it plays no differently.

A change that uses a name another change adds (a rule that pays a new
constant), or whose old side uses a name another change removes, cannot be
made without it: such changes travel together as one unit, and so do a kind
that changed and the spaces of that kind that changed. For any subset of
the units, the variant is A's declarations with those units taken from B,
written out as one `.lg` text and checked like any rule set; a subset that
does not check is reported with its first problem.

Every variant plays the same seeds (common random numbers). The Shapley value
of a unit is its marginal effect averaged over the orders in which the units
could be applied, computed game by game: exactly over every subset when there
are at most `EXACT` units (so the contributions add up to B - A on every game,
in exact fractions), over sampled orders beyond (still adding up, per order).
The Shapley interaction of a pair is measured likewise in the exact case.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from ..checking.loader import RuleSet, _decl_key, _merged, load_text
from ..core.errors import LandlordError, UsageError
from ..language import ast
from ..language.formatter import format_declaration, format_module
from .paired import Interval, difference, level, metric_meaning, play_cells
from .rulesource import rule_source

EXACT = 8  # at most this many units: every subset is played
PERMUTATIONS = 32  # orders sampled beyond EXACT units
PAIRED = "95 % CI across games of the per-game value (every variant plays game i from seed + i)"
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


@attrs.frozen
class Change:
    """One declaration-level change from A to B: its key, added/removed/changed, and each side (None if absent)."""

    key: tuple[str, str]
    change: str
    old: Any
    new: Any

    @property
    def label(self) -> str:
        """Return the change as people read it, e.g. `rule wages_rule changed`."""
        what, name = self.key
        if what == "other":  # the declarations of a kind that has no names, taken as one
            return f"{name} declarations {self.change}"
        return f"{what} {name} {self.change}".replace("  ", " ")


@attrs.frozen
class Unit:
    """Changes that can only be made together (one uses a name another adds or removes)."""

    changes: tuple[Change, ...]

    @property
    def label(self) -> str:
        """Return the unit's changes, joined with ` + `."""
        return " + ".join(c.label for c in self.changes)


def _bare(node: Any) -> Any:
    """Return a syntax node without its citations (provenance and notes), for comparing what it means."""
    if isinstance(node, tuple):
        return tuple(_bare(x) for x in node)
    if not attrs.has(type(node)):
        return node
    changes: dict[str, Any] = {}
    for field in attrs.fields(type(node)):
        value = getattr(node, field.name)
        if field.name == "provenance":
            changes[field.name] = None
        elif isinstance(value, tuple) or attrs.has(type(value)):
            changes[field.name] = _bare(value)
    return attrs.evolve(node, **changes) if changes else node


def _flat(rules: RuleSet) -> tuple[ast.Header, list[ast.Declaration]]:
    """Return the header and the declarations of a rule set, its variants merged onto its base."""
    header, decls, problems, _ = _merged(list(rules.modules))
    assert not problems, problems  # a loaded rule set merged without problems
    return header, decls


def _board(decls: Sequence[ast.Declaration]) -> list[ast.SpaceDecl]:
    return [s for d in decls if isinstance(d, ast.BoardDecl) for s in d.spaces]


def _key(d: ast.Declaration) -> tuple[str, str]:
    return _decl_key(d) or ("other", type(d).__name__.removesuffix("Decl").lower())


def _keyed(decls: Sequence[ast.Declaration]) -> dict[tuple[str, str], list[ast.Declaration]]:
    """Return the declarations other than the board by key (an unnamed kind of declaration: all of it under one)."""
    out: dict[tuple[str, str], list[ast.Declaration]] = {}
    for d in decls:
        if not isinstance(d, ast.BoardDecl):
            out.setdefault(_key(d), []).append(d)
    return out


def changes(a: RuleSet, b: RuleSet) -> list[Change]:
    """Return the declaration-level changes from A to B, in B's order (then A's removals)."""
    (ha, da), (hb, db) = _flat(a), _flat(b)
    found = []
    header = lambda h: (h.players, h.dice, h.turn_limit)  # noqa: E731
    if header(ha) != header(hb):
        found.append(Change(("header", ""), "changed", ha, hb))
    ka, kb = _keyed(da), _keyed(db)
    for key in list(kb) + [k for k in ka if k not in kb]:
        old, new = ka.get(key), kb.get(key)
        if old is None:
            found.append(Change(key, "added", None, tuple(new or ())))
        elif new is None:
            found.append(Change(key, "removed", tuple(old), None))
        elif _bare(tuple(old)) != _bare(tuple(new)):
            found.append(Change(key, "changed", tuple(old), tuple(new)))
    sa, sb = _board(da), _board(db)
    before_a = {s.name: (sa[i - 1].name if i else None) for i, s in enumerate(sa)}
    before_b = {s.name: (sb[i - 1].name if i else None) for i, s in enumerate(sb)}
    by_a = {s.name: s for s in sa}
    for s in sb:
        was = by_a.get(s.name)
        if was is None:
            found.append(Change(("space", s.name), "added", None, s))
        elif _bare(was) != _bare(s) or before_a[s.name] != before_b[s.name]:
            found.append(Change(("space", s.name), "changed", was, s))
    for s in sa:
        if s.name not in before_b:
            found.append(Change(("space", s.name), "removed", s, None))
    return found


def _names_in(side: Any) -> set[str]:
    """Return the identifiers a declaration (or several, or a space) uses, its texts left out."""
    if side is None:
        return set()
    items = side if isinstance(side, tuple) else (side,)
    words: set[str] = set()
    for d in items:
        if isinstance(d, ast.Header):
            continue
        text = format_declaration(ast.BoardDecl((d,)) if isinstance(d, ast.SpaceDecl) else d)
        words |= set(_IDENT.findall(_STRING.sub('""', text)))
    return words


def units(found: Sequence[Change]) -> list[Unit]:
    """Return the changes grouped into the units that can be made alone (see the module's docstring)."""
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    added = {c.key[1]: i for i, c in enumerate(found) if c.change == "added" and c.key[0] != "space"}
    removed = {c.key[1]: i for i, c in enumerate(found) if c.change == "removed" and c.key[0] != "space"}
    kinds = {c.key[1]: i for i, c in enumerate(found) if c.key[0] == "kind"}
    for i, c in enumerate(found):
        links = [added[n] for n in _names_in(c.new) if n in added]
        links += [removed[n] for n in _names_in(c.old) if n in removed]
        if c.key[0] == "space":
            links += [kinds[s.kind] for s in (c.old, c.new) if s is not None and s.kind in kinds]
        for j in links:
            parent[root(i)] = root(j)
    groups: dict[int, list[Change]] = {}
    for i, c in enumerate(found):
        groups.setdefault(root(i), []).append(c)
    return [Unit(tuple(g)) for g in groups.values()]


def variant_text(a: RuleSet, b: RuleSet, chosen: Sequence[Unit], name: str) -> str:
    """Return the `.lg` text of A with the changes of the `chosen` units taken from B (one file, no `extends`)."""
    (ha, da), (_, db) = _flat(a), _flat(b)
    picked = {c.key: c for u in chosen for c in u.changes}
    header = ha
    if ("header", "") in picked:
        hb = picked[("header", "")].new
        header = attrs.evolve(header, players=hb.players, dice=hb.dice, turn_limit=hb.turn_limit)
    header = attrs.evolve(header, name=name, extends=None)
    order_b = [_key(d) for d in db if not isinstance(d, ast.BoardDecl)]
    out: list[ast.Declaration] = []
    placed: set[tuple[str, str]] = set()
    for d in da:
        key = _key(d) if not isinstance(d, ast.BoardDecl) else ("board", "")
        if key in picked and key not in placed:
            out.extend(picked[key].new or ())
            placed.add(key)
        elif key not in picked:
            out.append(d)
    for key, c in picked.items():  # additions: after the declaration B has before them
        if c.change != "added" or key[0] in ("space", "header"):
            continue
        at = order_b.index(key)
        previous = next(
            (k for k in reversed(order_b[:at]) if any(_key(d) == k for d in out if not isinstance(d, ast.BoardDecl))),
            None,
        )
        where = max(
            (i for i, d in enumerate(out) if not isinstance(d, ast.BoardDecl) and _key(d) == previous), default=-1
        )
        out[where + 1 : where + 1] = list(c.new)
    spaces = _board(da)
    for key, c in picked.items():
        if key[0] != "space":
            continue
        spaces = [s for s in spaces if s.name != key[1]]
        if c.new is not None:
            sb = _board(db)
            at = next(i for i, s in enumerate(sb) if s.name == key[1])
            before = sb[at - 1].name if at else None
            where = next(
                (i + 1 for i, s in enumerate(spaces) if s.name == before), 0 if before is None else len(spaces)
            )
            spaces.insert(where, c.new)
    if spaces:
        index = next((i for i, d in enumerate(out) if isinstance(d, ast.BoardDecl)), len(out))
        out = [d for d in out if not isinstance(d, ast.BoardDecl)]
        out.insert(index, ast.BoardDecl(tuple(spaces)))
    return format_module(ast.Module(header, tuple(out)))


def build(a: RuleSet, b: RuleSet, chosen: Sequence[Unit], name: str) -> RuleSet:
    """Return the checked rule set of A with the `chosen` units from B; a LandlordError says which units failed."""
    text = variant_text(a, b, chosen, name)
    try:
        return load_text(text, f"{name}.lg")
    except LandlordError as err:
        what = ", ".join(u.label for u in chosen) or "no change"
        first = err.diagnostics[0].message if err.diagnostics else str(err)
        raise LandlordError(
            f"{a.name} with only these changes from {b.name} does not check: {what}: {first} "
            "(the attribution needs every subset of the changes to be a rule set)"
        ) from None


def _subsets(n: int, seed: int, permutations: int) -> tuple[list[int], list[list[int]] | None]:
    """Return the subsets (as bit masks) to play and, when sampling, the orders sampled."""
    if n <= EXACT:
        return list(range(1 << n)), None
    rng = random.Random(seed)
    orders = [rng.sample(range(n), n) for _ in range(permutations)]
    masks = {0}
    for order in orders:
        mask = 0
        for i in order:
            mask |= 1 << i
            masks.add(mask)
    return sorted(masks), orders


def attribute(
    a: RuleSet,
    b: RuleSet,
    metrics: tuple[str, ...],
    games: int,
    players: int,
    seed: int = 0,
    jobs: int | None = None,
    permutations: int = PERMUTATIONS,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Split B - A on each metric into the Shapley contribution of each unit of change; return it as plain data.

    Per metric: the total difference and each unit's contribution (per-game
    values, exact fractions, with their mean and 95 % interval), and in the
    exact case each pair's Shapley interaction. The per-game contributions add
    up to the per-game total exactly."""
    grouped = units(changes(a, b))
    if not grouped:
        raise UsageError(f"{a.name} and {b.name} have no declaration-level change to attribute")
    n = len(grouped)
    masks, orders = _subsets(n, seed, permutations)
    rule_sets = [
        build(a, b, [u for i, u in enumerate(grouped) if mask >> i & 1], f"{a.name}-with-{mask}") for mask in masks
    ]
    sources = [rule_source(r) for r in rule_sets] + [rule_source(a), rule_source(b)]
    played = play_cells(sources, games, players, metrics, seed, jobs, progress)
    value = {mask: rows for mask, rows in zip(masks, played)}
    full = (1 << n) - 1
    # the variants with no change and with every change should play as A and B do, game for game; they may not
    # when B also puts declarations in another order (the order of rules on one event), which no change carries
    faithful = value[0] == played[-2] and value[full] == played[-1]
    out = []
    for m, name in enumerate(metrics):
        per_game = [[Fraction(0)] * games for _ in range(n)]
        pairs: dict[tuple[int, int], list[Fraction]] = {}
        if orders is None:
            weights = [Fraction(math.factorial(s) * math.factorial(n - s - 1), math.factorial(n)) for s in range(n)]
            for mask in masks:
                size = bin(mask).count("1")
                for i in range(n):
                    if mask >> i & 1:
                        continue
                    w = weights[size]
                    with_i, without = value[mask | 1 << i], value[mask]
                    for g in range(games):
                        per_game[i][g] += w * (Fraction(with_i[g][m]) - Fraction(without[g][m]))
            if n > 1:
                pw = [
                    Fraction(math.factorial(s) * math.factorial(n - s - 2), math.factorial(n - 1)) for s in range(n - 1)
                ]
                for i in range(n):
                    for j in range(i + 1, n):
                        total = [Fraction(0)] * games
                        for mask in masks:
                            if mask >> i & 1 or mask >> j & 1:
                                continue
                            w = pw[bin(mask).count("1")]
                            both, first, second, neither = (
                                value[mask | 1 << i | 1 << j],
                                value[mask | 1 << i],
                                value[mask | 1 << j],
                                value[mask],
                            )
                            for g in range(games):
                                total[g] += w * (
                                    Fraction(both[g][m])
                                    - Fraction(first[g][m])
                                    - Fraction(second[g][m])
                                    + Fraction(neither[g][m])
                                )
                        pairs[(i, j)] = total
        else:
            share = Fraction(1, len(orders))
            for order in orders:
                mask = 0
                for i in order:
                    after = mask | 1 << i
                    for g in range(games):
                        per_game[i][g] += share * (Fraction(value[after][g][m]) - Fraction(value[mask][g][m]))
                    mask = after
        totals = [Fraction(value[full][g][m]) - Fraction(value[0][g][m]) for g in range(games)]
        out.append(
            {
                "metric": name,
                "meaning": metric_meaning(name),
                "a": level(name, [row[m] for row in value[0]]),
                "b": level(name, [row[m] for row in value[full]]),
                "total": difference(name, totals),
                "total_per_game": totals,
                "contributions": [
                    {"unit": grouped[i], "effect": difference(name, per_game[i]), "per_game": per_game[i]}
                    for i in range(n)
                ],
                "interactions": [
                    {"units": (grouped[i], grouped[j]), "effect": difference(name, v, terms=2)}
                    for (i, j), v in sorted(pairs.items())
                ],
            }
        )
    return {
        "a": a.name,
        "b": b.name,
        "games": games,
        "players": players,
        "seed": seed,
        "method": "exact Shapley values over every subset of the changes"
        if orders is None
        else f"Shapley values over {len(orders)} sampled orders of the changes (seeded by --seed)",
        "variants_played": len(masks),
        "faithful": faithful,
        "interval": PAIRED,
        "units": grouped,
        "metrics": out,
    }


def to_json(data: dict[str, Any]) -> dict[str, Any]:
    """Return an attribution as JSON-ready data (the per-game values left out)."""

    def shown(e: Interval) -> dict[str, Any]:
        return {**e.to_json(), "excludes_zero": e.excludes_zero}

    return {
        **{
            k: data[k]
            for k in ("a", "b", "games", "players", "seed", "method", "variants_played", "faithful", "interval")
        },
        "changes": [{"unit": i + 1, "changes": [c.label for c in u.changes]} for i, u in enumerate(data["units"])],
        "metrics": [
            {
                "metric": m["metric"],
                "meaning": m["meaning"],
                "a": m["a"].to_json(),
                "b": m["b"].to_json(),
                "total": shown(m["total"]),
                "contributions": [
                    {"unit": data["units"].index(c["unit"]) + 1, "label": c["unit"].label, "effect": shown(c["effect"])}
                    for c in m["contributions"]
                ],
                "interactions": [
                    {"units": [data["units"].index(u) + 1 for u in p["units"]], "effect": shown(p["effect"])}
                    for p in m["interactions"]
                ],
            }
            for m in data["metrics"]
        ],
    }


def _fmt(name: str, e: Interval) -> str:
    from .stats import bound, fixed

    share = name.startswith("win_seat_") or name == "prosperity"
    digits = 4 if name.startswith("gini_round_") else 1
    k = 100 if share else 1
    mark = " *" if e.excludes_zero else ""
    low, high = bound(k * e.low, digits, e.excludes_zero), bound(k * e.high, digits, e.excludes_zero)
    return f"{fixed(k * e.mean, digits, True)} [{low}, {high}]{' pts' if share else ''}{mark}"


_UNFAITHFUL = (
    "warning: the variants with none and with all of the changes do not play every game as A and B do "
    "(B also orders its declarations otherwise); the total below is between those two variants"
)


def render_text(data: dict[str, Any]) -> str:
    """Return an attribution as text: the units of change, then per metric the total and each unit's share."""
    lines = [
        f"attribution of {data['b']} - {data['a']} ({data['games']} games per variant, {data['players']} players, "
        f"seeds {data['seed']}..{data['seed'] + data['games'] - 1}; {data['variants_played']} variants played)",
        f"{data['method']}; every [low, high] is a {data['interval']}; * marks an interval that excludes zero",
        "",
        "changes (made together when one needs another):",
    ]
    for i, u in enumerate(data["units"], 1):
        lines.append(f"  [{i}] {u.label}")
    if not data["faithful"]:
        lines.append(_UNFAITHFUL)
    for m in data["metrics"]:
        name = m["metric"]
        lines += ["", f"{name}: {m['meaning']}", f"  total (b - a)    {_fmt(name, m['total'])}"]
        for c in sorted(m["contributions"], key=lambda c: -abs(c["effect"].mean)):
            number = f"[{data['units'].index(c['unit']) + 1}]"
            lines.append(f"  {number:16} {_fmt(name, c['effect'])}")
        shown = [p for p in m["interactions"] if p["effect"].excludes_zero]
        for p in shown:
            i, j = (data["units"].index(u) + 1 for u in p["units"])
            lines.append(f"  interaction [{i}] x [{j}] {_fmt(name, p['effect'])}")
        if m["interactions"] and not shown:
            lines.append("  (no pair's interaction excludes zero)")
    return "\n".join(lines) + "\n"


def render_markdown(data: dict[str, Any]) -> str:
    """Return an attribution as Markdown: the changes, then a table per metric of the total and each contribution."""
    lines = [
        f"Attribution of {data['b']} - {data['a']} ({data['games']} games per variant, {data['players']} players; "
        f"{data['method']}; {data['interval']}; **bold**: the interval excludes zero).",
        "",
    ]
    if not data["faithful"]:
        lines += [f"**{_UNFAITHFUL[0].upper()}{_UNFAITHFUL[1:]}.**", ""]
    for m in data["metrics"]:
        name = m["metric"]
        lines += [f"`{name}` ({m['meaning']}):", "", "| Change | Contribution |", "|---|---:|"]

        def cell(e: Interval, name: str = name) -> str:
            text = _fmt(name, e).removesuffix(" *")
            return f"**{text}**" if e.excludes_zero else text

        for c in sorted(m["contributions"], key=lambda c: -abs(c["effect"].mean)):
            lines.append(f"| {c['unit'].label} | {cell(c['effect'])} |")
        lines.append(f"| total ({data['b']} - {data['a']}) | {cell(m['total'])} |")
        for p in m["interactions"]:
            if p["effect"].excludes_zero:
                lines.append(f"| interaction: {p['units'][0].label} x {p['units'][1].label} | {cell(p['effect'])} |")
        lines.append("")
    return "\n".join(lines)
