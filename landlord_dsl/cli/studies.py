"""CLI stage: the studies on common random numbers: `sensitivity`, `diff --attribute` and `optimise`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..core.errors import UsageError
from .common import _parse_options, at_least, default_players, load_rules, set_argument
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
    set_argument(p)
    _study_arguments(p, "games per reading, the same seeds for each (default 200)")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    p.add_argument("--plot", metavar="FILE", help="draw each reading's effects with their intervals (needs matplotlib)")


def _progress(what: str, unit: str = " games") -> Callable[[int, int], None] | None:
    """Return a progress callback that counts `what` done on a terminal's stderr (None when it is not one)."""
    if not sys.stderr.isatty():
        return None

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\r  {what}: {done}/{total}{unit}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return progress


def cmd_sensitivity(args: argparse.Namespace, out: TextIO) -> int:
    from ..compiling.compiler import compile_ruleset
    from ..studies.paired import parse_metrics
    from ..studies.sensitivity import render_markdown, render_text, sensitivity, to_json
    from ..studies.sweep import parse_grid

    if args.plot:
        from ..presentation.plots import check_path, pyplot

        refuse_clashes(input_files(args.edition), [("--plot", args.plot)])
        check_path(Path(args.plot))
        pyplot()
    rules = load_rules(args.edition, args.set)
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
        from ..presentation.plots import sensitivity_figure

        sensitivity_figure(to_json(data), Path(args.plot))
    return 0


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
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="with --attribute: draw each change's contribution with its interval (a .png, .svg or .pdf; needs "
        "matplotlib)",
    )


def cmd_attribute(args: argparse.Namespace, out: TextIO) -> int:
    """Run `diff A B --attribute`; return 1 (the rule sets differ, as for `diff`)."""
    from ..compiling.compiler import compile_ruleset
    from ..studies.attribution import attribute, render_markdown, render_text, to_json
    from ..studies.paired import parse_metrics

    if args.outcomes:
        raise UsageError("--attribute plays its own games (--games N): leave out --outcomes")
    if args.plot:  # before the games are played, not after
        from ..presentation.plots import check_path, pyplot

        refuse_clashes(input_files(args.a, args.b), [("--plot", args.plot)])
        check_path(Path(args.plot))
        pyplot()
    a, b = load_rules(args.a, args.set), load_rules(args.b, args.set)
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
    if args.plot:
        from ..presentation.plots import attribution_figure

        attribution_figure(to_json(data), Path(args.plot))
    return 1


def optimise_arguments(p: argparse.ArgumentParser) -> None:
    """Add the arguments of `landlord-dsl optimise`."""
    p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
    p.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="NAME=LO..HI[,STEP]",
        help="an option or constant to vary: a whole-number range, NAME=V1,V2,... values, or NAME alone for "
        "every value of a true/false or choice option (repeatable)",
    )
    p.add_argument(
        "--objective",
        action="append",
        default=[],
        metavar="'minimise METRIC'",
        help="minimise or maximise a metric's mean (as `sensitivity --metric`); several: NSGA-II, a Pareto front",
    )
    p.add_argument(
        "--constraint",
        action="append",
        default=[],
        metavar="'METRIC <= BOUND'",
        help="a bound on a metric's mean that the chosen rules must keep (repeatable)",
    )
    p.add_argument("--trials", type=at_least(1), default=40, help="trials the study has when done (default 40)")
    p.add_argument("--study-seed", type=int, default=0, help="the optimiser's seed (default 0)")
    p.add_argument(
        "--storage",
        metavar="FILE",
        help="keep the study in this SQLite file: run again to continue it (it refuses another question)",
    )
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="set an option in every trial (repeatable)"
    )
    set_argument(p)
    p.add_argument("--games", type=at_least(2), default=100, help="games per trial, the same seeds (default 100)")
    p.add_argument("--players", type=at_least(1), help="players (default 4, or the nearest allowed)")
    p.add_argument("--seed", type=int, default=0, help="first seed of every trial's games (default 0)")
    p.add_argument("--jobs", type=at_least(1), metavar="N", help="processes to play games in (default: every core)")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    p.add_argument(
        "--write",
        metavar="FILE.lg",
        help="write the best rules as a variant that extends EDITION and cites the study",
    )
    p.add_argument("--pick", type=at_least(1), metavar="K", help="with several objectives: --write the front's K-th")
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="draw each trial's objective against each varied value, or the Pareto front (needs matplotlib)",
    )
    p.add_argument(
        "--confirm",
        type=at_least(2),
        metavar="N",
        help="play the chosen rules and the rules as given on N fresh seeds, after the study's, and compare them",
    )


def _extends(edition: str, rules: Any, target: Path) -> str:
    """Return what the written variant `extends`: the shipped name, or the edition's file beside the variant."""
    from ..core.resources import shipped_files

    if "+" in rules.name and not Path(edition).exists():
        raise UsageError(
            "--write: a variant extends one edition, not several combined with '+': write a variant that "
            "combines them first, and optimise that"
        )
    if rules.path is None or str(rules.path) in {str(p) for p in shipped_files().values()}:
        return rules.name
    folder = target.resolve().parent
    try:
        return rules.path.resolve().relative_to(folder).as_posix()
    except ValueError:
        raise UsageError(
            f"--write {target}: a variant can extend only a .lg file in its own folder (or below), "
            f"and {edition} is not: write the variant beside it"
        ) from None


def cmd_optimise(args: argparse.Namespace, out: TextIO) -> int:
    from ..checking.loader import load
    from ..checking.options import resolve_options
    from ..compiling.compiler import compile_ruleset
    from ..core.errors import LandlordError
    from ..studies.optimise import (
        Question,
        confirm,
        optuna_module,
        parse_constraints,
        parse_objectives,
        parse_vary,
        render_markdown,
        render_text,
        run_study,
        to_json,
        variant_text,
    )

    optuna_module()
    target = Path(args.write) if args.write else None
    if target is not None:
        if target.suffix != ".lg":
            raise UsageError(f"--write {args.write}: the variant is a rule file, so its name must end in .lg")
        refuse_clashes(input_files(args.edition), [("--write", args.write)])
    if args.storage:
        refuse_clashes(input_files(args.edition), [("--storage", args.storage)])
    if args.plot:
        from ..presentation.plots import check_path, pyplot

        refuse_clashes(input_files(args.edition), [("--plot", args.plot)])
        check_path(Path(args.plot))
        pyplot()
    rules = load_rules(args.edition, args.set)
    options = _parse_options(args.option)
    resolve_options(rules, options)  # checked before any game
    players = args.players or default_players(compile_ruleset(rules))
    dims = parse_vary(rules, args.vary, [*options, *dict(rules.constants)])
    q = Question(
        rules,
        dims,
        parse_objectives(args.objective, players),
        parse_constraints(args.constraint, players),
        args.games,
        players,
        args.seed,
        args.study_seed,
        tuple(sorted(options.items())),
    )
    extends = _extends(args.edition, rules, target) if target is not None else ""
    data = run_study(q, args.trials, args.storage, args.jobs, progress=_progress("trials", unit=""))
    if args.confirm and data["best"] is not None:
        confirm(q, data, args.confirm, args.jobs, args.pick)
    if args.format == "json":
        out.write(json.dumps(to_json(data), indent=2) + "\n")
    elif args.format == "markdown":
        out.write(render_markdown(to_json(data)))
    else:
        out.write(render_text(data))
    if args.plot:
        from ..presentation.plots import study_figure

        study_figure(to_json(data), Path(args.plot))
    if target is not None:
        text = variant_text(q, data, target.stem, extends, _command(args), args.pick)
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as err:
            raise LandlordError(f"cannot write {args.write}: {err.strerror}") from None
        load(target)  # the variant written must check: a problem here is a bug, shown at the file's lines
        out.write(f"wrote {args.write}\n")
    return 0


def _command(args: argparse.Namespace) -> str:
    """Return the command line of a study as `landlord-dsl optimise` would be given it."""
    import shlex

    words = ["landlord-dsl", "optimise", args.edition]
    for flag, values in (
        ("--vary", args.vary),
        ("--objective", args.objective),
        ("--constraint", args.constraint),
        ("--option", args.option),
        ("--set", args.set),
    ):
        for value in values:
            words += [flag, value]
    words += ["--trials", str(args.trials), "--games", str(args.games), "--seed", str(args.seed)]
    words += ["--study-seed", str(args.study_seed)]
    if args.confirm:
        words += ["--confirm", str(args.confirm)]
    if args.players:
        words += ["--players", str(args.players)]
    return shlex.join(words)


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
    set_argument(p)
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
    from ..core.terminal import colour_wanted
    from ..studies.skill import play_skill, render_markdown, render_text, skill_report

    if args.versus_option and not args.versus:
        raise UsageError("--versus-option needs --versus EDITION: the rules to compare with")
    ladder = [a for a in args.ladder.split(",") if a.strip()]
    if any(a.strip().startswith("mcts:") and a.strip().endswith("s") for a in ladder):
        sys.stderr.write(
            "warning: a budget in seconds depends on the machine: the games cannot be played again alike\n"
        )
    rules = load_rules(args.edition, args.set)
    other = load_rules(args.versus, args.set) if args.versus else None

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
