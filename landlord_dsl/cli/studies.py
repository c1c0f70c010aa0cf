"""CLI stage: the studies on common random numbers: `sensitivity`, and `diff --attribute`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..core.errors import UsageError
from .common import _parse_options, at_least, default_players
from .outputs import input_files, refuse_clashes


def _study_arguments(p: argparse.ArgumentParser, games: str) -> None:
    """Add what both studies take: --metric, --games, --players, --seed, --jobs."""
    p.add_argument(
        "--metric",
        action="append",
        metavar="M1,M2,...",
        help="what to measure: turns, rounds, prosperity, mean_score, gini_round_R, win_seat_K, score_seat_K "
        "(default: turns, gini_round_10, prosperity and every seat's win share)",
    )
    p.add_argument("--games", type=at_least(2), default=200, help=games)
    p.add_argument("--players", type=at_least(1), help="players (default 4, or the nearest allowed)")
    p.add_argument("--seed", type=int, default=0, help="first seed, the same in every cell (default 0)")
    p.add_argument("--jobs", type=at_least(1), metavar="N", help="processes to play games in (default: every core)")


def sensitivity_arguments(p: argparse.ArgumentParser) -> None:
    """Add the arguments of `landlord-dsl sensitivity`."""
    p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
    p.add_argument(
        "--over",
        default="reconstruction",
        metavar="WHAT",
        help="reconstruction (the options tagged so; the default), options (every option), "
        "or option names separated by commas",
    )
    p.add_argument(
        "--values",
        action="append",
        default=[],
        metavar="NAME=V1,V2,...",
        help="the readings to try for an option (needed for a number option; repeatable)",
    )
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="set an option in every cell (repeatable)"
    )
    _study_arguments(p, "games per reading, the same seeds for each (default 200)")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    p.add_argument("--plot", metavar="FILE", help="draw each reading's effects with their intervals (needs matplotlib)")


def _progress(what: str) -> Callable[[int, int], None] | None:
    if not sys.stderr.isatty():
        return None

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\r  {what}: {done}/{total} games")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return progress


def cmd_sensitivity(args: argparse.Namespace, out: TextIO) -> int:
    from ..checking.loader import load
    from ..compiling.compiler import compile_ruleset
    from ..studies.paired import parse_metrics
    from ..studies.sensitivity import render_markdown, render_text, sensitivity, to_json
    from ..studies.sweep import parse_grid

    if args.plot:
        from ..presentation.plots import check_path, pyplot

        refuse_clashes(input_files(args.edition), [("--plot", args.plot)])
        check_path(Path(args.plot))
        pyplot()
    rules = load(args.edition)
    players = args.players or default_players(compile_ruleset(rules))
    metrics = parse_metrics(args.metric, players)
    values = parse_grid(args.values) if args.values else None
    data = sensitivity(
        rules,
        metrics,
        args.games,
        players,
        args.over,
        values,
        args.seed,
        args.jobs,
        options=_parse_options(args.option),
        progress=_progress("readings"),
    )
    if args.format == "json":
        out.write(json.dumps(to_json(data), indent=2) + "\n")
    elif args.format == "markdown":
        out.write(render_markdown(to_json(data)))
    else:
        out.write(render_text(data))
    if args.plot:
        _plot(to_json(data), Path(args.plot))
    return 0


def _plot(data: dict[str, Any], path: Path) -> None:
    """Draw each reading's effect on each metric with its interval, one panel per metric; write it to `path`."""
    from ..presentation.plots import pyplot, save

    plt = pyplot()
    metrics = [m["metric"] for m in data["metrics"]]
    rows = [(f"{r['option']}={v['value']}", v["effects"]) for r in data["readings"] for v in r["values"]]
    fig, axes = plt.subplots(1, len(metrics), figsize=(3 * len(metrics), 0.4 * len(rows) + 1.5), sharey=True)
    axes = axes if len(metrics) > 1 else [axes]
    for ax, name in zip(axes, metrics):
        for y, (_, effects) in enumerate(rows):
            e = effects[name]
            colour = "tab:red" if e["excludes_zero"] else "tab:grey"
            ax.errorbar(
                e["mean"], y, xerr=[[e["mean"] - e["ci95_low"]], [e["ci95_high"] - e["mean"]]], fmt="o", color=colour
            )
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(name, fontsize=9)
    axes[0].set_yticks(range(len(rows)), [label for label, _ in rows], fontsize=8)
    axes[0].invert_yaxis()
    fig.suptitle(f"{data['edition']}: effect of each reading (value - default, 95 % paired CI)", fontsize=10)
    save(fig, path)


def attribute_arguments(p: argparse.ArgumentParser) -> None:
    """Add `diff --attribute` and what it takes to the arguments of `landlord-dsl diff`."""
    p.add_argument(
        "--attribute",
        action="store_true",
        help="split the outcome difference into each change's contribution (Shapley values on the same seeds)",
    )
    p.add_argument(
        "--metric",
        action="append",
        metavar="M1,M2,...",
        help="with --attribute: what to measure (as `sensitivity --metric`)",
    )
    p.add_argument(
        "--games",
        type=at_least(2),
        default=200,
        help="with --attribute: games per variant, the same seeds (default 200)",
    )
    p.add_argument("--jobs", type=at_least(1), metavar="N", help="with --attribute: processes (default: every core)")


def cmd_attribute(args: argparse.Namespace, out: TextIO) -> int:
    """Run `diff A B --attribute`; return 1 (the rule sets differ, as for `diff`)."""
    from ..checking.loader import load
    from ..compiling.compiler import compile_ruleset
    from ..studies.attribution import attribute, render_markdown, render_text, to_json
    from ..studies.paired import parse_metrics

    if args.outcomes:
        raise UsageError("--attribute plays its own games (--games N): leave out --outcomes")
    a, b = load(args.a), load(args.b)
    pa, pb = compile_ruleset(a), compile_ruleset(b)
    low, high = max(pa.players[0], pb.players[0]), min(pa.players[1], pb.players[1])
    players = args.players or min(max(4, low), high)
    metrics = parse_metrics(args.metric, players)
    data = attribute(a, b, metrics, args.games, players, args.seed, args.jobs, progress=_progress("variants"))
    if args.format == "json":
        out.write(json.dumps(to_json(data), indent=2) + "\n")
    elif args.format == "markdown":
        out.write(render_markdown(data))
    else:
        out.write(render_text(data))
    return 1


def skill_arguments(p: argparse.ArgumentParser) -> None:
    """Add the arguments of `landlord-dsl skill`."""
    p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
    p.add_argument(
        "--ladder",
        default="bot",
        metavar="KIND,...",
        help="the agents measured, weakest first, each against the field: bot, rollout[:N], mcts[:N] (default bot)",
    )
    p.add_argument("--field", default="random", metavar="KIND", help="the agent in the other seats (default random)")
    p.add_argument(
        "--games", type=at_least(2), default=100, help="deals per rung, each played once per seat (default 100)"
    )
    p.add_argument("--players", type=at_least(2), help="players (default 4, or the nearest allowed)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="set an edition option (repeatable)"
    )
    p.add_argument(
        "--versus",
        metavar="EDITION",
        help="also play the same study under these rules (with --versus-option) and give the differences",
    )
    p.add_argument(
        "--versus-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the --versus rules (repeatable; default: the --versus rules' own defaults)",
    )
    p.add_argument("--turn-limit", type=at_least(1), help="stop each game after this many turns")
    p.add_argument("--jobs", type=at_least(1), metavar="N", help="processes to play games in (default: every core)")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")


def cmd_skill(args: argparse.Namespace, out: TextIO) -> int:
    from ..checking.loader import load
    from ..core.terminal import colour_wanted
    from ..studies.skill import play_skill, render_markdown, render_text, skill_report

    if args.versus_option and not args.versus:
        raise UsageError("--versus-option needs --versus EDITION: the rules to compare with")
    ladder = [a for a in args.ladder.split(",") if a.strip()]
    if any(a.strip().startswith("mcts:") and a.strip().endswith("s") for a in ladder):
        sys.stderr.write(
            "warning: a budget in seconds depends on the machine: the games cannot be played again alike\n"
        )
    rules = load(args.edition)
    other = load(args.versus) if args.versus else None

    def study(on: Any, options: list[str], what: str) -> dict[str, Any]:
        return play_skill(
            on,
            ladder,
            args.field,
            args.games,
            args.players,
            args.seed,
            _parse_options(options),
            args.jobs,
            _progress(what),
            args.turn_limit,
        )

    data = study(rules, args.option, "rungs")
    report = skill_report(data, study(other, args.versus_option, "versus") if other is not None else None)
    if args.format == "json":
        out.write(json.dumps(report, indent=2) + "\n")
    elif args.format == "markdown":
        out.write(render_markdown(report))
        if "versus" in report:
            out.write("\nversus\n\n" + render_markdown(report, "versus"))
            out.write("\ndifference\n\n" + render_markdown(report, "difference", sign=True))
    else:
        out.write(render_text(report, rules.model.header.title or rules.name, colour_wanted(out)))
    return 0
