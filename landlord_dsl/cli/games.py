"""CLI stage: the commands that play games: play (narrated), simulate, sweep and replay."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..core.errors import LandlordError, UsageError, visible
from .common import _parse_options, default_players, load_rules
from .outputs import HTML_SUFFIXES, NOT_A_LOG, OutputFile, check_suffix, input_files, refuse_clashes

if TYPE_CHECKING:
    from ..checking.loader import RuleSet
    from ..engine.game import Game
    from ..program.compiled import Program


def _seats(args: argparse.Namespace, program: Program) -> list[str]:
    """Return the seat specs of `--seats` (checked: agents.seats; --players, if given, must agree, as `simulate`
    asks), else a bot for each of --players."""
    seats = _agreeing_table(args)
    return list(seats) if seats else ["bot"] * (args.players or default_players(program))


def _table(args: argparse.Namespace) -> tuple[str, ...] | None:
    """Return the seat specs of a study's `--seats` (checked), or None for a table of heuristic bots."""
    from ..agents.seats import parse_seats

    return tuple(str(spec) for spec in parse_seats(args.seats)) if args.seats else None


def _agreeing_table(args: argparse.Namespace) -> tuple[str, ...] | None:
    """Return `_table(args)`; raise UsageError if --players is given and is not the number of seats named."""
    seats = _table(args)
    if seats and args.players is not None and args.players != len(seats):
        raise UsageError(f"--seats names {len(seats)} seats but --players is {args.players}: name one a seat")
    return seats


def _names(args: argparse.Namespace, kinds: list[str]) -> list[str]:
    """Return the seats' names: --names, else "Player N", a lone human seat's marked "(you)"."""
    if args.names is not None:
        return [name.strip() for name in args.names.split(",")]  # Game checks their number and that they differ
    alone = kinds.count("human") == 1
    return [f"Player {i + 1}{' (you)' if alone and kind == 'human' else ''}" for i, kind in enumerate(kinds)]


def _outputs(inputs: list[str], log: str | None, html: str | None) -> tuple[OutputFile | None, OutputFile | None]:
    """Return the `--log` and `--html` files of play or replay (None if not asked for), checked before any work.

    Each is refused (UsageError) if it is one of the `inputs`, the same file as the other, or has the wrong suffix."""
    refuse_clashes(inputs, [("--log", log), ("--html", html)])
    if log:
        check_suffix("--log", log, refused=NOT_A_LOG)
    if html:
        check_suffix("--html", html, wanted=HTML_SUFFIXES)
    return (OutputFile(log, "log") if log else None, OutputFile(html, "replay") if html else None)


def _log_text(game: Game | None, edition: str, seed: int, constants: dict[str, Any]) -> str | None:
    """Return the text of a game's log file (bound to the game, see replay.py), or None when no game began."""
    from ..presentation.replay import log_text

    return None if game is None else log_text(game, edition, seed, constants)


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    from ..agents import make_agent
    from ..agents.seats import any_search, make_seats
    from ..agents.stepped import play_stepped
    from ..compiling.compiler import compile_ruleset
    from ..engine.game import Game
    from ..presentation.narrate import live_narration
    from ..presentation.watch import record, replay_html

    log, html = _outputs(input_files(args.edition), args.log, args.html)
    game: Game | None = None
    recording = None
    constants: dict[str, Any] = {}
    try:
        rules = load_rules(args.edition, args.set)
        constants = dict(rules.constants)
        program = compile_ruleset(rules, _parse_options(args.option))
        kinds = _seats(args, program)
        if any_search(kinds):
            if html is not None:
                raise UsageError("--html cannot record a game with a searching seat yet: leave out --html")
            table = Game(
                program, [make_agent("bot", args.seed, i) for i in range(len(kinds))], names=_names(args, kinds)
            )
            out.write(f"{visible(program.title)}, {len(kinds)} players, seed {args.seed}\n")
            players = make_seats(kinds, args.seed, args.bot_reserve)
            # the searchers' game is stepped; it is told with the seats' names as it goes
            tell = live_narration(table, out.write, args.verbose)
            game = play_stepped(program, players, args.seed, args.turn_limit, tell).game
            game.names = table.names
        else:
            agents = [make_agent(k, args.seed, i, args.bot_reserve) for i, k in enumerate(kinds)]
            game = Game(program, agents, seed=args.seed, names=_names(args, kinds), turn_limit=args.turn_limit)
            recording = record(game, rules) if html is not None else None
            out.write(f"{visible(program.title)}, {len(kinds)} players, seed {args.seed}\n")
            game.listen(live_narration(game, out.write, args.verbose))
            game.play()
    except BaseException:
        for output, text in ((log, _log_text(game, args.edition, args.seed, constants)), (html, None)):
            if output is not None:
                try:  # the log of a game that failed is kept, but cannot hide why it failed
                    output.write(text)
                except LandlordError as err:
                    sys.stderr.write(err.render() + "\n")
        raise
    result = game.result()
    out.write("\nFinal scores:\n")
    width = max(10, *map(len, game.names))
    for seat, score in enumerate(result.scores):
        mark = "  <- winner" if seat in result.winners else ""
        out.write(f"  {visible(game.names[seat]):{width}} {score:>7}   (cash {game.cash(seat)}){mark}\n")
    if not game.conserved():  # pragma: no cover - an engine bug, reported loudly
        out.write("warning: money was not conserved in this game\n")
    status = 0
    for output, text in (  # type: ignore[assignment]
        (log, _log_text(game, args.edition, args.seed, constants)),
        (html, recording and replay_html(game, rules, recording)),
    ):
        if output is not None:
            try:
                output.write(text)
            except LandlordError as err:  # the game was played and told; only the file is lost
                sys.stderr.write(err.render() + "\n")
                status = 1
            else:
                if output is html:  # as `replay --html` says it
                    out.write(f"wrote {visible(args.html)}\n")
    return status


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    from ..compiling.compiler import compile_ruleset
    from ..core.terminal import progress
    from ..studies.parallel import simulate_many
    from ..studies.simulate import render_summary

    refuse_clashes(input_files(args.edition), [("--plot", args.plot)])
    rules = load_rules(args.edition, args.set)
    options = _parse_options(args.option)
    program = compile_ruleset(rules, options)
    seats = _agreeing_table(args)
    players = len(seats) if seats else args.players or default_players(program)
    stats = args.stats or bool(args.plot)
    if args.plot:  # before the games are played, not after
        from ..presentation.plots import check_path, pyplot

        check_path(Path(args.plot))
        pyplot()
    with progress(sys.stderr, "games", not args.no_progress) as shown:
        result = simulate_many(
            rules,
            args.games,
            players,
            args.seed,
            options,
            args.jobs,
            args.backend,
            args.scheduler,
            shown,
            stats=stats,
            bot_reserve=args.bot_reserve,
            seats=_table(args),
        )
    summary = result.result()
    for warning in summary["warnings"]:
        sys.stderr.write(f"warning: {visible(warning)}\n")
    summary["edition"] = program.name
    summary["options"] = program.options
    summary["seed"] = args.seed
    summary["bot_reserve"] = result.bot_reserve
    if seats:
        summary["seats"] = list(seats)
    if args.plot:
        from ..presentation.plots import simulation_figure

        simulation_figure(summary, program, Path(args.plot))
    if not args.stats:
        summary.pop("stats", None)
    if args.json:
        out.write(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    else:
        out.write(render_summary(summary, program.title) + "\n")
        if args.stats:
            from ..studies.stats import render_stats

            out.write(render_stats(summary["stats"]) + "\n")
    return 0 if summary["money_conserved_in_all_games"] else 1


def cmd_coverage(args: argparse.Namespace, out: TextIO) -> int:
    from ..core.terminal import progress
    from ..studies.rule_coverage import FORMATS, coverage

    rules = load_rules(args.edition, args.set)
    with progress(sys.stderr, "games", not args.no_progress) as shown:
        report = coverage(
            rules, args.games, args.players, _parse_options(args.option), args.seed, args.bot_reserve, shown
        )
    out.write(FORMATS[args.format](report) + "\n")
    return 0


def cmd_sweep(args: argparse.Namespace, out: TextIO) -> int:
    from ..compiling.compiler import compile_ruleset
    from ..core.terminal import colour_wanted
    from ..studies.sweep import option_text, parse_grid, render_table, run_sweep

    refuse_clashes(input_files(args.edition), [("--out", args.out), ("--plot", args.plot)])
    rules = load_rules(args.edition, args.set)
    grid = parse_grid(args.option)
    seats = _table(args)
    try:
        players = (
            [int(p) for p in args.players.split(",")]
            if args.players
            else [len(seats) if seats else default_players(compile_ruleset(rules))]
        )
    except ValueError:
        raise UsageError(f"--players wants numbers separated by commas, not {args.players!r}") from None
    if seats and players != [len(seats)]:
        raise UsageError(f"--seats names {len(seats)} seats: --players can only be {len(seats)}")
    if any(p < 1 for p in players):
        raise UsageError("--players must be at least 1")
    if args.plot:  # before the sweep is played, not after (as `simulate --plot`)
        from ..presentation.plots import check_path, pyplot, sweep_figure

        check_path(Path(args.plot))
        pyplot()
    show_progress = not args.no_progress and sys.stderr.isatty()

    def progress(i: int, n: int, cell: dict, reused: bool) -> None:
        what = ", ".join(f"{k}={option_text(v)}" for k, v in cell["options"].items()) or "defaults"
        sys.stderr.write(
            f"  cell {i}/{n}: {what}, {cell['players']} players{' (already in ' + args.out + ')' if reused else ''}\n"
        )
        sys.stderr.flush()

    records = run_sweep(
        rules,
        grid,
        players,
        args.games,
        args.seed,
        args.jobs,
        args.backend,
        args.scheduler,
        Path(args.out) if args.out else None,
        progress if show_progress else None,
        args.bot_reserve,
        seats,
    )
    for record in records:
        where = ", ".join(f"{k}={option_text(v)}" for k, v in record["options"].items()) or "defaults"
        for warning in record["summary"].get("warnings", ()):
            sys.stderr.write(f"warning: {visible(where)}, {record['players']} players: {visible(warning)}\n")
    if args.json:
        out.write(json.dumps(records, indent=2, sort_keys=True) + "\n")
    else:
        out.write(
            f"{rules.model.header.title or rules.name}: {args.games} games per cell, seeds "
            f"{args.seed} to {args.seed + args.games - 1} in every cell\n\n"
        )
        out.write(render_table(records, colour_wanted(out, args.color)))
    if args.plot:
        sweep_figure(records, Path(args.plot), rules.model.header.title or rules.name)
    return 0 if all(r["summary"]["money_conserved_in_all_games"] for r in records) else 1


def cmd_tournament(args: argparse.Namespace, out: TextIO) -> int:
    from ..core.terminal import colour_wanted, progress
    from ..studies.tournament import render, run_tournament

    refuse_clashes(input_files(args.edition), [("--out", args.out)])
    rules = load_rules(args.edition, args.set)
    agents = [a for a in args.agents.split(",") if a.strip()]
    if any(a.strip().startswith("mcts:") and a.strip().endswith("s") for a in agents):
        sys.stderr.write(
            "warning: a budget in seconds depends on the machine: the games cannot be played again alike\n"
        )
    with progress(sys.stderr, "games", not args.no_progress) as shown:
        data = run_tournament(
            rules,
            agents,
            args.games,
            args.players,
            args.seed,
            _parse_options(args.option),
            args.jobs,
            Path(args.out) if args.out else None,
            shown,
            args.turn_limit,
        )
    if args.json:
        out.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
    else:
        title = rules.model.header.title or rules.name
        out.write(visible(render(data, title, colour_wanted(out, args.color)), keep="\n"))
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from ..checking.loader import load
    from ..presentation.replay import edition_of_log, read_log_file, replay
    from ..presentation.watch import record, replay_html

    _, html = _outputs(input_files(args.file, args.edition), None, args.html)
    log = read_log_file(args.file)
    name = log.name
    watched: list = []

    def prepare(game: Game, rules: RuleSet) -> None:
        if html is not None:
            watched.append((game, rules, record(game, rules)))

    report = replay(log, lambda _: load(args.edition or edition_of_log(log)), prepare)
    if report.ok:
        out.write(f"{name}: ok, {report.events} events and {report.decisions} decisions replayed as recorded\n")
        if html is not None:
            html.write(replay_html(*watched[0]))
            out.write(f"wrote {visible(args.html)}\n")
        return 0
    if html is not None:
        html.write(None)  # a game that is not the recorded one is not worth watching
    for problem in report.problems:
        sys.stderr.write(f"{visible(problem)}\n")
    return 1
