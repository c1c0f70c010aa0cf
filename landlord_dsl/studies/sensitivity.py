"""Which uncertain readings change the conclusions (`landlord-dsl sensitivity`).

An edition marks a reading it had to choose by an option whose citation is
tagged `reconstruction` (the other value, or values, being the other
readings). For each such option, each of its other values is played against
the edition's defaults on the same seeds (common random numbers: game i
throws from seed + i in every cell), and its effect on each metric is the
paired difference with a 95 % interval. The readings are ranked by the size
of their largest effect, measured in standard deviations of that metric
across the baseline games. For the readings that matter (some interval
excludes zero), the interaction of each pair is measured in a 2 x 2
factorial on the same seeds: (both changed) - (first only) - (second only) +
(neither), per game.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..checking.loader import RuleSet
from ..checking.options import resolve_options
from ..core.errors import Diagnostic, UsageError, did_you_mean
from .paired import Interval, difference, level, metric_meaning, play_cells, spread
from .rulesource import rule_source
from .stats import bound, fixed
from .sweep import option_text

PAIRED = "95 % CI of the paired difference (game i plays from seed + i in every cell), mean ± 1.96 SE across games"
MAX_INTERACTING = 4  # options whose pairwise interactions are measured (those whose effects are largest)


@attrs.frozen
class Reading:
    """An option whose values are alternative readings: its default and the values played against it."""

    option: str
    label: str
    default: Any
    alternatives: tuple[Any, ...]
    reconstruction: bool
    note: str | None


def _values_of(rules: RuleSet, name: str) -> list[Any] | None:
    """Return every value a true/false or choice option may take, or None for a number or a free text."""
    d = rules.model.options[name]
    if isinstance(d.default, bool):
        return [False, True]
    if isinstance(d.default, str) and (allowed := rules.model.choices.get(d.choice or name)) is not None:
        return list(allowed)
    return None


def readings(
    rules: RuleSet, over: str = "reconstruction", values: dict[str, list[str]] | None = None
) -> tuple[list[Reading], list[tuple[str, str]]]:
    """Return the options to study and those left out, each with why.

    `over` is `reconstruction` (the options tagged so), `options` (every
    option) or option names separated by commas; `values` gives the values to
    try for an option (needed for a number option, whose values cannot be
    listed). An option without listable values and none given is left out.
    """
    decls = rules.model.options
    values = values or {}
    if over == "reconstruction":
        names = [
            n for n, d in decls.items() if d.provenance is not None and d.provenance.confidence == "reconstruction"
        ]
    elif over == "options":
        names = list(decls)
    else:
        names = [n.strip() for n in over.split(",") if n.strip()]
        unknown = [n for n in names if n not in decls]
        if unknown or not names:
            raise UsageError(
                [
                    Diagnostic(
                        f"--over: {rules.name} has no option '{n}'",
                        hint=did_you_mean(n, decls) or "options: " + ", ".join(decls),
                    )
                    for n in unknown
                ]
                or "--over wants reconstruction, options, or option names separated by commas"
            )
    for name in values:
        if name not in decls:
            raise UsageError(f"--values: {rules.name} has no option '{name}'")
        if name not in names:
            names.append(name)
    found, skipped = [], []
    for name in names:
        d = decls[name]
        if name in values:
            typed = [resolve_options(rules, {name: v})[name] for v in values[name]]
        else:
            listed = _values_of(rules, name)
            if listed is None:
                skipped.append((name, f"a number: give the readings to try with --values {name}=V1,V2"))
                continue
            typed = listed
        alternatives = tuple(v for v in dict.fromkeys(typed) if v != d.default)
        if not alternatives:
            skipped.append((name, "no value other than its default to try"))
            continue
        reconstruction = d.provenance is not None and d.provenance.confidence == "reconstruction"
        note = d.provenance.note if d.provenance is not None else None
        found.append(Reading(name, d.label or name, d.default, alternatives, reconstruction, note))
    return found, skipped


def _others(r: Reading, default: Any) -> tuple[Any, ...]:
    """Return the values of a reading other than `default` (its value in the baseline)."""
    return tuple(v for v in (r.default, *r.alternatives) if v != default)


def _size(effect: Interval, baseline: Sequence[float], differences: Sequence[float]) -> float:
    """Return an effect's size in standard deviations of the metric across the baseline games (or of the
    differences, when the baseline does not vary)."""
    scale = spread(baseline) or spread(differences) or 1.0
    return abs(effect.mean) / scale


def sensitivity(
    rules: RuleSet,
    metrics: tuple[str, ...],
    games: int,
    players: int,
    over: str = "reconstruction",
    values: dict[str, list[str]] | None = None,
    seed: int = 0,
    jobs: int | None = None,
    interactions: int = MAX_INTERACTING,
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play each reading against the defaults on common random numbers; return the ranked effects as plain data.

    The result has the baseline's means, one entry per reading (ranked, the
    largest effect first) with each value's paired effect on every metric, the
    options left out and why, and the pairwise interactions of the (at most
    `interactions`) readings that matter most. `options` sets other options
    for every cell (the baseline is the defaults with these).
    """
    found, skipped = readings(rules, over, values)
    base = resolve_options(rules, options)
    found = [attrs.evolve(r, default=base[r.option], alternatives=_others(r, base[r.option])) for r in found]
    found = [r for r in found if r.alternatives]
    cells = [rule_source(rules, base)]
    keys: list[tuple[str, Any]] = []
    for r in found:
        for v in r.alternatives:
            keys.append((r.option, v))
            cells.append(rule_source(rules, {**base, r.option: v}))
    played = play_cells(cells, games, players, metrics, seed, jobs, progress)
    baseline = played[0]

    def column(rows: Sequence[tuple[float, ...]], m: int) -> list[float]:
        return [row[m] for row in rows]

    def effects(rows: Sequence[tuple[float, ...]]) -> tuple[dict[str, Interval], float]:
        out, size = {}, 0.0
        for m, name in enumerate(metrics):
            diffs = [y - x for x, y in zip(column(baseline, m), column(rows, m))]
            out[name] = effect = difference(name, diffs)
            size = max(size, _size(effect, column(baseline, m), diffs))
        return out, size

    entries = []
    for r in found:
        rows = []
        for v in r.alternatives:
            measured, size = effects(played[1 + keys.index((r.option, v))])
            rows.append(
                {
                    "value": v,
                    "effects": measured,
                    "size": size,
                    "identical": played[1 + keys.index((r.option, v))] == baseline,
                }
            )
        entries.append(
            {
                "reading": r,
                "values": rows,
                "size": max(row["size"] for row in rows),
                "matters": any(e.excludes_zero for row in rows for e in row["effects"].values()),
            }
        )
    entries.sort(key=lambda e: (not e["matters"], -e["size"], e["reading"].option))
    pairs = _interactions(rules, entries, base, metrics, games, players, seed, jobs, played, keys, interactions)
    return {
        "edition": rules.name,
        "games": games,
        "players": players,
        "seed": seed,
        "over": over,
        "interval": PAIRED,
        "metrics": [
            {"metric": name, "meaning": metric_meaning(name), "baseline": level(name, column(baseline, m))}
            for m, name in enumerate(metrics)
        ],
        "readings": entries,
        "skipped": skipped,
        "interactions": pairs,
    }


def _interactions(
    rules: RuleSet,
    entries: list[dict[str, Any]],
    base: dict[str, Any],
    metrics: tuple[str, ...],
    games: int,
    players: int,
    seed: int,
    jobs: int | None,
    played: list[list[tuple[float, ...]]],
    keys: list[tuple[str, Any]],
    limit: int,
) -> list[dict[str, Any]]:
    """Return the 2 x 2 interaction of every pair of values of the (at most `limit`) readings that matter."""
    chosen = [e["reading"] for e in entries if e["matters"]][:limit]
    combos = [
        ((a.option, va), (b.option, vb))
        for a, b in itertools.combinations(chosen, 2)
        for va in a.alternatives
        for vb in b.alternatives
    ]
    if not combos:
        return []
    both = play_cells(
        [rule_source(rules, {**base, a: va, b: vb}) for (a, va), (b, vb) in combos], games, players, metrics, seed, jobs
    )
    out = []
    for ((a, va), (b, vb)), rows in zip(combos, both):
        first, second, neither = played[1 + keys.index((a, va))], played[1 + keys.index((b, vb))], played[0]
        measured = {
            name: difference(
                name,
                [y11[m] - y10[m] - y01[m] + y00[m] for y11, y10, y01, y00 in zip(rows, first, second, neither)],
                terms=2,
            )
            for m, name in enumerate(metrics)
        }
        out.append({"options": (a, b), "values": (va, vb), "effects": measured})
    return out


def to_json(data: dict[str, Any]) -> dict[str, Any]:
    """Return a sensitivity study as JSON-ready data (`--format json`)."""

    def effects(measured: dict[str, Interval]) -> dict[str, Any]:
        return {name: {**e.to_json(), "excludes_zero": e.excludes_zero} for name, e in measured.items()}

    return {
        **{k: data[k] for k in ("edition", "games", "players", "seed", "over", "interval")},
        "metrics": [{**m, "baseline": m["baseline"].to_json()} for m in data["metrics"]],
        "readings": [
            {
                "rank": i + 1,
                "option": e["reading"].option,
                "label": e["reading"].label,
                "reconstruction": e["reading"].reconstruction,
                "default": e["reading"].default,
                "matters": e["matters"],
                "size_sd": round(e["size"], 3),
                "values": [
                    {"value": row["value"], "identical": row["identical"], "effects": effects(row["effects"])}
                    for row in e["values"]
                ],
            }
            for i, e in enumerate(data["readings"])
        ],
        "skipped": [{"option": name, "why": why} for name, why in data["skipped"]],
        "interactions": [
            {"options": list(p["options"]), "values": list(p["values"]), "effects": effects(p["effects"])}
            for p in data["interactions"]
        ],
    }


def _shown(name: str, e: Interval) -> str:
    """Return an effect as text, in the metric's own unit (percentage points for shares)."""
    share = name.startswith("win_seat_") or name == "prosperity"
    digits = 4 if name.startswith("gini_round_") else 1
    scale = 100 if share else 1
    unit = " pts" if share else ""
    mark = " *" if e.excludes_zero else ""
    low, high = bound(scale * e.low, digits, e.excludes_zero), bound(scale * e.high, digits, e.excludes_zero)
    return f"{fixed(scale * e.mean, digits, sign=True)} [{low}, {high}]{unit}{mark}"


def render_text(data: dict[str, Any]) -> str:
    """Return a sensitivity study as text: the legend, the readings ranked, the interactions, what was left out."""
    lines = [
        f"sensitivity of {data['edition']} to its readings ({data['games']} games per reading, "
        f"{data['players']} players, seeds {data['seed']}..{data['seed'] + data['games'] - 1})",
        f"every effect is value minus default, with its {data['interval']}; * marks an interval that excludes zero",
        "",
        "metrics (mean with the defaults):",
    ]
    for m in data["metrics"]:
        lines.append(f"  {m['metric']:16} {_baseline(m['metric'], m['baseline'])}  {m['meaning']}")
    lines += ["", "readings, the largest effect first (size: in standard deviations of the metric across games):"]
    for i, e in enumerate(data["readings"], 1):
        r = e["reading"]
        verdict = "matters" if e["matters"] else "no effect shown"
        lines.append(f"{i:3}. {r.option} (default {option_text(r.default)}): size {e['size']:.2f}, {verdict}")
        for row in e["values"]:
            if row["identical"]:
                lines.append(f"       = {option_text(row['value'])}: every game the same as with the default")
                continue
            lines.append(f"       = {option_text(row['value'])}")
            for name, effect in row["effects"].items():
                lines.append(f"         {name:16} {_shown(name, effect)}")
    if data["interactions"]:
        lines += ["", "interactions of the readings that matter (both - first only - second only + neither):"]
        for p in data["interactions"]:
            (a, b), (va, vb) = p["options"], p["values"]
            shown = [f"{n} {_shown(n, x)}" for n, x in p["effects"].items() if x.excludes_zero]
            lines.append(
                f"  {a}={option_text(va)} x {b}={option_text(vb)}: " + ("; ".join(shown) or "none excludes zero")
            )
    if not data["readings"]:
        lines.append("  (none)")
    for name, why in data["skipped"]:
        lines.append(f"left out: {name}: {why}")
    return "\n".join(lines) + "\n"


def _baseline(name: str, e: Interval) -> str:
    if name.startswith("win_seat_") or name == "prosperity":
        return f"{100 * e.mean:6.1f}%"
    return f"{e.mean:7.3f}" if name.startswith("gini_round_") else f"{e.mean:7.1f}"


def render_markdown(data: dict[str, Any], heading: bool = True) -> str:
    """Return a sensitivity study (as `to_json` gives it) as Markdown: a table with one row per reading and value,
    one column per metric, the interactions that exclude zero, and what was left out."""
    metrics = [m["metric"] for m in data["metrics"]]

    def cell(name: str, e: dict[str, Any]) -> str:
        text = _shown(name, Interval(e["mean"], e["ci95_low"], e["ci95_high"])).removesuffix(" *")
        return f"**{text}**" if e["excludes_zero"] else text

    lines = []
    if heading:
        lines += [
            f"Effect of each reading on {data['edition']}, value minus default ({data['games']} games per reading, "
            f"{data['players']} players, seeds {data['seed']}..{data['seed'] + data['games'] - 1}; {data['interval']}; "
            "**bold**: the interval excludes zero; shares in percentage points).",
            "",
        ]
    lines += [
        "| Rank | Option | Value | " + " | ".join(f"`{m}`" for m in metrics) + " |",
        "|---:|---|---|" + "---:|" * len(metrics),
    ]
    for r in data["readings"]:
        for row in r["values"]:
            if row["identical"]:  # the reading never came into play: say so rather than print zeros
                cells = " | ".join(["every game the same as with the default"] + [""] * (len(metrics) - 1))
            else:
                cells = " | ".join(cell(name, row["effects"][name]) for name in metrics)
            lines.append(f"| {r['rank']} | `{r['option']}` | `{option_text(row['value'])}` | {cells} |")
    shown = [(p, name, e) for p in data["interactions"] for name, e in p["effects"].items() if e["excludes_zero"]]
    if shown:
        lines += ["", "Interactions that exclude zero (both - first only - second only + neither, game by game):", ""]
        for p, name, e in shown:
            (a, b), (va, vb) = p["options"], p["values"]
            lines.append(f"* `{a} = {option_text(va)}` with `{b} = {option_text(vb)}`: `{name}` {cell(name, e)}")
    if data["skipped"]:
        lines += ["", "Left out: " + "; ".join(f"`{s['option']}` ({s['why']})" for s in data["skipped"]) + "."]
    return "\n".join(lines) + "\n"
