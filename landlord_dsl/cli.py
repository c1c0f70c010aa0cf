"""The `landlord-dsl` command line.

Exit codes: 0 success; 1 problems found (check, fmt --check) or a rule failed
while a game ran; 2 usage errors (bad arguments, unknown edition or option).
Errors are printed for people, never as a Python traceback (set
LANDLORD_DEBUG=1 to see one for an internal error).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Sequence, TextIO

from . import __version__
from .agents import make_agent
from .bibliography import render_markdown
from .compiler import RECONSTRUCTED_CARD, Program, compile_ruleset, is_reconstruction
from .engine import Game
from .errors import LandlordError, RuleRuntimeError
from .formatter import format_text
from .loader import load, load_text
from .narrate import narrate
from .resources import shipped_files
from .simulate import render_summary
from .watch import record, replay_html


class UsageError(Exception):
    """A bad command line (exit status 2)."""


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"--option wants NAME=VALUE, not {pair!r}")
        name, value = pair.split("=", 1)
        options[name.strip()] = value.strip()
    return options


def _program(edition: str, options: Sequence[str]) -> Program:
    return compile_ruleset(load(edition), _parse_options(options))


def _read(target: str) -> tuple[str, str]:
    if target == "-":
        return sys.stdin.read(), "<stdin>"
    path = Path(target)
    try:
        return path.read_text(encoding="utf-8"), target
    except OSError as err:
        raise LandlordError(f"cannot read {target}: {err.strerror}") from None


# ----------------------------------------------------------------- commands

def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    files = shipped_files()
    width = max((len(name) for name in files), default=0) + 2
    for name, path in files.items():
        try:
            title = load(path).model.header.title or ""
        except LandlordError:
            title = "(does not check)"
        out.write(f"{name:{width}}{title}\n")
    return 0


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    failed = 0
    for target in args.files:
        try:
            if target == "-":
                text, name = _read(target)
                load_text(text, name)
            else:
                load(target)
            if not args.quiet:
                out.write(f"{target}: ok\n")
        except LandlordError as err:
            failed += 1
            sys.stderr.write(err.render() + "\n")
            count = sum(1 for d in err.diagnostics if d.severity == "error")
            sys.stderr.write(f"{target}: {count} problem{'s' if count != 1 else ''}\n")
    return 1 if failed else 0


def cmd_fmt(args: argparse.Namespace, out: TextIO) -> int:
    changed = 0
    for target in args.files:
        text, name = _read(target)
        formatted = format_text(text, name)
        if target == "-":
            out.write(formatted)
            changed += formatted != text
            continue
        if formatted != text:
            changed += 1
            if args.check:
                out.write(f"would reformat {target}\n")
            else:
                Path(target).write_text(formatted, encoding="utf-8")
                out.write(f"reformatted {target}\n")
    if args.check:
        return 1 if changed else 0
    return 0


def default_players(program: Program) -> int:
    """Return four players, or the nearest number the edition allows."""
    low, high = program.players
    return min(max(4, low), high)


def _seats(args: argparse.Namespace, program: Program) -> list[str]:
    if args.seats:
        kinds = [s.strip() for s in args.seats.split(",") if s.strip()]
    else:
        kinds = ["bot"] * (args.players or default_players(program))
    return kinds


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    rules = load(args.edition)
    program = compile_ruleset(rules, _parse_options(args.option))
    kinds = _seats(args, program)
    agents = [make_agent(k, args.seed, i) for i, k in enumerate(kinds)]
    names = [f"{'You' if k == 'human' else 'Player'} {i + 1}" if k == "human" else f"Player {i + 1}"
             for i, k in enumerate(kinds)]
    game = Game(program, agents, seed=args.seed, names=names, turn_limit=args.turn_limit)
    out.write(f"{program.title}, {len(kinds)} players, seed {args.seed}\n")
    printed = 0
    recording = record(game, rules) if args.html else None

    def flush() -> None:
        nonlocal printed
        for text in narrate(game, printed, args.verbose):
            out.write(text + "\n")
        printed = len(game.log)

    try:
        game.setup()
        flush()
        while not game.over:
            game.play_turn()
            flush()
        game.log.append(("end", game.turn, game.end_reason))
        flush()
    finally:
        if args.log:
            Path(args.log).write_text("\n".join(game.log_lines()) + "\n", encoding="utf-8")
    if recording is not None:
        Path(args.html).write_text(replay_html(game, rules, recording), encoding="utf-8")
    result = game.result()
    out.write("\nFinal scores:\n")
    for seat, score in enumerate(result.scores):
        mark = "  <- winner" if seat in result.winners else ""
        out.write(f"  {game.names[seat]:10} {score:>7}   (cash {game.cash(seat)}){mark}\n")
    if not game.conserved():  # pragma: no cover - an engine bug, reported loudly
        out.write("warning: money was not conserved in this game\n")
    return 0


def _progress_bar(what: str):
    """Return a progress callback drawing a bar on standard error, or None when it is not a terminal."""
    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return progress


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    from .parallel import simulate_many

    rules = load(args.edition)
    options = _parse_options(args.option)
    program = compile_ruleset(rules, options)
    players = args.players or default_players(program)
    show_progress = not args.no_progress and sys.stderr.isatty()
    stats = args.stats or bool(args.plot)
    if args.plot:  # before the games are played, not after
        from .plots import check_path, pyplot

        check_path(Path(args.plot))
        pyplot()
    result = simulate_many(rules, args.games, players, args.seed, options, args.jobs, args.backend, args.scheduler,
                           _progress_bar("games") if show_progress else None, stats=stats)
    summary = result.result()
    summary["edition"] = program.name
    summary["options"] = program.options
    summary["seed"] = args.seed
    if args.plot:
        from .plots import simulation_figure

        simulation_figure(summary, program, Path(args.plot))
    if not args.stats:
        summary.pop("stats", None)
    if args.json:
        out.write(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    else:
        out.write(render_summary(summary, program.title) + "\n")
        if args.stats:
            from .stats import render_stats

            out.write(render_stats(summary["stats"]) + "\n")
    return 0 if summary["money_conserved_in_all_games"] else 1


def cmd_sweep(args: argparse.Namespace, out: TextIO) -> int:
    from .sweep import parse_grid, plot, render_table, run_sweep

    rules = load(args.edition)
    grid = parse_grid(args.option)
    try:
        players = [int(p) for p in args.players.split(",")] if args.players else [
            default_players(compile_ruleset(rules))]
    except ValueError:
        raise UsageError(f"--players wants numbers separated by commas, not {args.players!r}") from None
    if any(p < 1 for p in players):
        raise UsageError("--players must be at least 1")
    show_progress = not args.no_progress and sys.stderr.isatty()

    def progress(i: int, n: int, cell: dict, reused: bool) -> None:
        what = ", ".join(f"{k}={v}" for k, v in cell["options"].items()) or "defaults"
        sys.stderr.write(f"  cell {i}/{n}: {what}, {cell['players']} players"
                         f"{' (already in ' + args.out + ')' if reused else ''}\n")
        sys.stderr.flush()

    records = run_sweep(rules, grid, players, args.games, args.seed, args.jobs, args.backend, args.scheduler,
                        Path(args.out) if args.out else None, progress if show_progress else None)
    if args.json:
        out.write(json.dumps(records, indent=2, sort_keys=True) + "\n")
    else:
        out.write(f"{rules.model.header.title or rules.name}: {args.games} games per cell, seeds "
                  f"{args.seed} to {args.seed + args.games - 1} in every cell\n\n")
        out.write(render_table(records))
    if args.plot:
        plot(records, Path(args.plot), rules.model.header.title or rules.name)
    return 0 if all(r["summary"]["money_conserved_in_all_games"] for r in records) else 1


def cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    from .compare import diff, outcomes, render_markdown, render_outcomes, render_text, to_json

    a, b = load(args.a), load(args.b)
    changes = diff(a, b, sources=args.sources)
    result = None
    if args.outcomes:
        result = outcomes(a, b, args.outcomes, args.players, args.seed)
    if args.format == "json":
        out.write(json.dumps(to_json(changes, a.name, b.name, result), indent=2) + "\n")
    elif args.format == "markdown":
        out.write(render_markdown(changes, a.name, b.name))
        if result is not None:
            out.write("\n```text" + render_outcomes(result, args.all) + "```\n")
    else:
        colour = args.color == "always" or (args.color == "auto" and out is sys.stdout and sys.stdout.isatty())
        out.write(render_text(changes, a.name, b.name, colour))
        if result is not None:
            out.write(render_outcomes(result, args.all))
    return 1 if changes else 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    rules = load(args.edition)
    m = rules.model
    h = m.header

    def cite(p) -> str:
        if p is None:
            return ""
        # the confidence stands outside the brackets: a citation has commas of its own
        return f"  [{p.source}]" + (f" ({p.confidence})" if p.confidence else "")

    out.write(f"{h.title or h.name}  ({h.name}, rules hash {rules.rules_hash})\n")
    if h.players:
        out.write(f"players: {h.players[0]} to {h.players[1]}\n")
    out.write("\nOptions:\n")
    for o in m.options.values():
        out.write(f"  {o.name} = {o.default!r}: {o.label or ''}{cite(o.provenance)}\n")
    out.write("\nAccounts:\n")
    for a in m.accounts:
        out.write(f"  {a.name}{' (unlimited)' if a.unlimited else ''}: {a.label or ''}{cite(a.provenance)}\n")
    out.write("\nBoard:\n")
    for i, s in enumerate(m.spaces):
        fields = ", ".join(f"{n} {_show_expr(v)}" for n, v in s.fields)
        out.write(f"  {i:>3}  {s.label:32} {s.kind:12} {fields}{cite(s.provenance)}\n")
    out.write("\nDecks:\n")
    for d in m.decks.values():
        size = f" ({d.size} cards)" if d.size is not None else ""
        out.write(f"  {d.name}{size}: {d.label or ''}{cite(d.provenance)}\n")
        for c in d.cards:
            invented = is_reconstruction(d) or is_reconstruction(c)
            mark = f"  [{RECONSTRUCTED_CARD}]" if invented else cite(c.provenance)
            out.write(f"    {c.name}: {c.text}{mark}\n")
    out.write("\nRules:\n")
    for r in m.rules:
        state = " (off at the start)" if r.off else ""
        out.write(f"  {r.name}: {r.label or ''}{state}{cite(r.provenance)}\n")
    return 0


def cmd_sources(args: argparse.Namespace, out: TextIO) -> int:
    out.write(render_markdown())
    return 0


def cmd_board(args: argparse.Namespace, out: TextIO) -> int:
    from .board import board_svg

    rules = load(args.edition)
    svg = board_svg(rules, _parse_options(args.option))
    if args.svg in (None, "-"):
        out.write(svg)
        return 0
    Path(args.svg).write_text(svg, encoding="utf-8")
    out.write(f"wrote {args.svg}\n")
    return 0


def _show_expr(e) -> str:
    from .formatter import expr

    return expr(e)


# --------------------------------------------------------------------- main

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="landlord-dsl",
        description="Rules of The Landlord's Game and early Monopoly as data: check, format, play and simulate .lg files.",
    )
    parser.add_argument("--version", action="version", version=f"landlord-dsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("list", help="list the shipped editions and variants")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("check", help="check .lg files and print every problem")
    p.add_argument("files", nargs="+", metavar="FILE_OR_NAME", help="a .lg file, a shipped name, or - for stdin")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing for files without problems")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("fmt", help="rewrite .lg files in canonical layout")
    p.add_argument("files", nargs="+", metavar="FILE", help="a .lg file, or - to format stdin to stdout")
    p.add_argument("--check", action="store_true", help="only report files that would change (exit 1 if any)")
    p.set_defaults(func=cmd_fmt)

    def parallel_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--jobs", type=int, metavar="N", help="processes to play games in (default: every core)")
        p.add_argument("--backend", choices=("local", "dask"), default="local",
                       help="local processes, or a Dask cluster (needs the distributed extra)")
        p.add_argument("--scheduler", metavar="ADDRESS",
                       help="with --backend dask: the scheduler (default: a local cluster of --jobs workers)")

    def game_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
        p.add_argument("--seed", type=int, default=1, help="seed for the dice (default 1)")
        p.add_argument("--players", type=int, help="number of players (default 4, or the nearest the edition allows)")
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="set an edition option (repeatable)")

    p = sub.add_parser("play", help="play one narrated game")
    game_options(p)
    p.add_argument("--seats", help="comma-separated seat kinds: bot, random, human (e.g. human,bot,bot)")
    p.add_argument("--turn-limit", type=int, help="stop after this many turns")
    p.add_argument("--log", metavar="FILE", help="write the event log as JSON lines")
    p.add_argument("--html", metavar="FILE", help="write a replay of the game to watch in a browser (one HTML file)")
    p.add_argument("-v", "--verbose", action="store_true", help="also narrate bids and card movements")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="simulate many games with heuristic bots")
    game_options(p)
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--stats", action="store_true",
                   help="also landings, rent, win rates, game length and eliminations, with their uncertainty")
    p.add_argument("--plot", metavar="FILE", help="draw the statistics (a .png, .svg or .pdf; needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    parallel_options(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("sweep", help="simulate a grid of option values and player counts on the same seeds")
    p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
    p.add_argument("--option", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="an option and the values to try (repeatable: the grid is every combination)")
    p.add_argument("--players", metavar="N1,N2,...", help="player counts to try (default 4, or the nearest allowed)")
    p.add_argument("--games", type=int, default=100, help="games per cell (default 100)")
    p.add_argument("--seed", type=int, default=0, help="first seed, the same in every cell (default 0)")
    p.add_argument("--out", metavar="FILE", help="append each finished cell to FILE (JSON lines); "
                   "cells already in FILE are not played again")
    p.add_argument("--json", action="store_true", help="print every cell's summary as JSON")
    p.add_argument("--plot", metavar="FILE", help="draw the cells' mean Gini and game length (needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="no progress lines")
    parallel_options(p)
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("diff", help="semantic differences between two editions or variants (exit 0 same, 1 different)")
    p.add_argument("a", metavar="A", help="edition/variant name or .lg file")
    p.add_argument("b", metavar="B", help="edition/variant name or .lg file")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.add_argument("--outcomes", type=int, metavar="N", default=0,
                   help="also simulate N paired games per side (same dice seeds) and compare outcomes")
    p.add_argument("--all", action="store_true",
                   help="with --outcomes: every space's landing change, not only those whose interval excludes zero")
    p.add_argument("--players", type=int, help="players in the outcome simulations (default 4, or the nearest allowed)")
    p.add_argument("--seed", type=int, default=0, help="first seed of the outcome simulations")
    p.add_argument("--sources", action="store_true", help="also list declarations whose citation alone changed")
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("show", help="show an edition's board, accounts, options and rules")
    p.add_argument("edition", metavar="EDITION")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("sources", help="print the bibliography citations may name (the text of docs/sources.md)")
    p.set_defaults(func=cmd_sources)

    p = sub.add_parser("board", help="draw an edition's board as an SVG picture")
    p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
    p.add_argument("--svg", metavar="FILE", help="write the picture to FILE (default: standard output)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="set an edition option (repeatable)")
    p.set_defaults(func=cmd_board)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; return the exit status."""
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(out)
        return 2
    try:
        for name in ("games", "jobs", "players"):
            value = getattr(args, name, None)
            if isinstance(value, int) and value < 1:
                raise UsageError(f"--{name} must be at least 1")
        return args.func(args, out)
    except UsageError as err:
        sys.stderr.write(f"landlord-dsl: {err}\n")
        return 2
    except RuleRuntimeError as err:
        sys.stderr.write(err.render() + "\n")
        return 1
    except LandlordError as err:
        sys.stderr.write(err.render() + "\n")
        return 2 if args.command in ("play", "simulate", "sweep", "show", "diff", "board") else 1
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as err:  # noqa: BLE001 - last line of defence: no tracebacks for users
        if os.environ.get("LANDLORD_DEBUG"):
            raise
        sys.stderr.write(f"landlord-dsl: internal error: {type(err).__name__}: {err}\n"
                         "Please report it; set LANDLORD_DEBUG=1 to see the traceback.\n")
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
