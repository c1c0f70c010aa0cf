"""The `landlord-dsl` command line.

Exit codes: 0 success; 1 problems found (check, fmt --check), a rule failed
while a game ran, or the output could not be written; 2 usage errors (bad
arguments, unknown edition or option, an output file that cannot be opened);
3 an internal error, which is always a bug in landlord-dsl. Errors are printed
for people, never as a Python traceback (set LANDLORD_DEBUG=1 to see one for
an internal error). A reader that goes away (`| head`) never changes the exit
status: the command finishes, its output discarded.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence, TextIO

from . import __version__
from .errors import LandlordError, RuleRuntimeError, visible

if TYPE_CHECKING:  # the modules a command needs are imported by that command: start-up stays small
    from .program import Program
    from .engine import Game


class UsageError(Exception):
    """A bad command line (exit status 2)."""


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"--option wants NAME=VALUE, not {pair!r}")
        name, value = pair.split("=", 1)
        if name.strip() in options:
            raise UsageError(f"--option {name.strip()} is given twice")
        options[name.strip()] = value.strip()
    return options


def _read(target: str) -> tuple[str, str]:
    from .sourcefile import read_source, read_stream

    if target == "-":
        return read_stream(sys.stdin, "<stdin>"), "<stdin>"
    return read_source(target), target


# ----------------------------------------------------------------- commands

def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    from .parser import header_title
    from .resources import shipped_files
    from .sourcefile import read_source

    files = shipped_files()
    width = max((len(name) for name in files), default=0) + 2
    for name, path in files.items():
        out.write(f"{name:{width}}{visible(header_title(read_source(path)) or '')}\n")
    return 0


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    from .loader import load, load_text

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
    from .formatter import format_text
    from .sourcefile import write_atomically

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
                write_atomically(target, formatted)
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
    if not kinds:
        raise UsageError("--seats names no seat: give seat kinds separated by commas, e.g. human,bot")
    return kinds


class _OutputFile:
    """A file a command writes when it is done (`play --log`, `--html`), opened first so that a bad path costs no game."""

    def __init__(self, path: str, what: str):
        self.path, self.what = path, what
        existed = os.path.lexists(path)
        try:
            self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the game
        except OSError as err:
            raise UsageError(f"cannot write the {what} {path}: {err.strerror or err}") from None
        self.created = not existed

    def write(self, text: str | None) -> None:
        """Replace the file's content with `text`; with None (no game began) remove it if this command made it."""
        try:
            if text is None:
                self.file.close()
                if self.created:
                    os.unlink(self.path)
                return
            if stat.S_ISREG(os.fstat(self.file.fileno()).st_mode):  # not a device or pipe, say /dev/stdout
                self.file.seek(0)
                self.file.truncate()
            self.file.write(text)
            self.file.close()
        except OSError as err:
            raise LandlordError(f"cannot write the {self.what} {self.path}: {err.strerror or err}") from None


def _log_text(game: Game | None, edition: str, seed: int) -> str | None:
    """Return the text of a game's log file (bound to the game, see replay.py), or None when no game began."""
    from .replay import log_text

    return None if game is None else log_text(game, edition, seed)


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    from .agents import make_agent
    from .compiler import compile_ruleset
    from .engine import Game
    from .loader import load
    from .watch import record, replay_html

    log = _OutputFile(args.log, "log") if args.log else None
    html = _OutputFile(args.html, "replay") if args.html else None
    game: Game | None = None
    recording = None
    try:
        rules = load(args.edition)
        program = compile_ruleset(rules, _parse_options(args.option))
        kinds = _seats(args, program)
        agents = [make_agent(k, args.seed, i) for i, k in enumerate(kinds)]
        names = [f"{'You' if k == 'human' else 'Player'} {i + 1}" if k == "human" else f"Player {i + 1}"
                 for i, k in enumerate(kinds)]
        game = Game(program, agents, seed=args.seed, names=names, turn_limit=args.turn_limit)
        recording = record(game, rules) if html is not None else None
        out.write(f"{visible(program.title)}, {len(kinds)} players, seed {args.seed}\n")
        _narrate_to_end(game, out, args.verbose)
    except BaseException:
        for output, text in ((log, _log_text(game, args.edition, args.seed)), (html, None)):
            if output is not None:
                try:  # the log of a game that failed is kept, but cannot hide why it failed
                    output.write(text)
                except LandlordError as err:
                    sys.stderr.write(err.render() + "\n")
        raise
    result = game.result()
    out.write("\nFinal scores:\n")
    for seat, score in enumerate(result.scores):
        mark = "  <- winner" if seat in result.winners else ""
        out.write(f"  {game.names[seat]:10} {score:>7}   (cash {game.cash(seat)}){mark}\n")
    if not game.conserved():  # pragma: no cover - an engine bug, reported loudly
        out.write("warning: money was not conserved in this game\n")
    status = 0
    for output, text in ((log, _log_text(game, args.edition, args.seed)),
                         (html, recording and replay_html(game, rules, recording))):
        if output is not None:
            try:
                output.write(text)
            except LandlordError as err:  # the game was played and told; only the file is lost
                sys.stderr.write(err.render() + "\n")
                status = 1
    return status


def _narrate_to_end(game: Game, out: TextIO, verbose: bool) -> None:
    """Play `game` to its end, writing the narration of each step as it happens."""
    from .narrate import narrate

    printed = 0

    def flush() -> None:
        nonlocal printed
        for text in narrate(game, printed, verbose):
            out.write(text + "\n")
        printed = len(game.log)

    game.setup()
    flush()
    while not game.over:
        game.play_turn()
        flush()
    game.log.append(("end", game.turn, game.end_reason))
    flush()


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
    from .compiler import compile_ruleset
    from .loader import load
    from .simulate import render_summary
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
    from .compiler import compile_ruleset
    from .loader import load
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
    from .loader import load
    from .compare import diff, outcomes, render_markdown, render_outcomes, render_text, to_json

    a, b = load(args.a), load(args.b)
    changes = diff(a, b, sources=args.sources)
    result = None
    if args.outcomes:
        result = outcomes(a, b, args.outcomes, args.players, args.seed)
    if args.format == "json":
        out.write(json.dumps(to_json(changes, a.name, b.name, result), indent=2) + "\n")
    elif args.format == "markdown":
        out.write(visible(render_markdown(changes, a.name, b.name), keep="\n"))
        if result is not None:
            out.write("\n```text" + visible(render_outcomes(result, args.all), keep="\n") + "```\n")
    else:
        colour = args.color == "always" or (args.color == "auto" and out is sys.stdout and sys.stdout.isatty())
        out.write(render_text(changes, a.name, b.name, colour))
        if result is not None:
            out.write(visible(render_outcomes(result, args.all), keep="\n"))
    return 1 if changes else 0


def cmd_analyze(args: argparse.Namespace, out: TextIO) -> int:
    from .loader import load
    from .analysis import analyze

    if args.plot:  # before the analysis runs, not after
        from .plots import check_path, pyplot

        try:
            check_path(Path(args.plot))
        except LandlordError as err:  # a bad file name is a bad command line (exit 2)
            raise UsageError(err.diagnostics[0].message) from None
        pyplot()
    buildings = None
    if args.buildings:
        name, _, top = args.buildings.partition(":")
        if not top.isdigit() or int(top) < 1:
            raise UsageError(f"--buildings wants VAR:TOP (e.g. houses:5), not {args.buildings!r}")
        buildings = (name, int(top))
    result = analyze(load(args.edition), players=args.players, prefer=args.prefer, options=_parse_options(args.option),
                     seed=args.seed, buildings=buildings, check_economy=not args.no_economy_check,
                     rents=not args.no_rents)
    if args.format == "json":
        out.write(json.dumps(result.to_json(), indent=2) + "\n")
    elif args.format == "markdown":
        out.write(result.render_markdown())
    else:
        out.write(result.render_text())
    if args.plot:
        from .plots import analysis_figure

        analysis_figure(result, Path(args.plot))
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    from .loader import load

    rules = load(args.edition)
    m = rules.model
    h = m.header

    def cite(p) -> str:
        if p is None:
            return ""
        # the confidence stands outside the brackets: a citation has commas of its own
        return f"  [{p.source}]" + (f" ({p.confidence})" if p.confidence else "")

    def line(text: str = "") -> None:
        out.write(visible(text) + "\n")  # titles, labels and sources come from the rule file

    line(f"{h.title or h.name}  ({h.name}, rules hash {rules.rules_hash})")
    if h.players:
        line(f"players: {h.players[0]} to {h.players[1]}")
    for heading, rows in (
        ("Options", [f"  {o.name} = {o.default!r}: {o.label or ''}{cite(o.provenance)}" for o in m.options.values()]),
        ("Accounts", [f"  {a.name}{' (unlimited)' if a.unlimited else ''}: {a.label or ''}{cite(a.provenance)}"
                      for a in m.accounts]),
        ("Board", [f"  {i:>3}  {s.label:32} {s.kind:12} {', '.join(f'{n} {_show_expr(v)}' for n, v in s.fields)}"
                   f"{cite(s.provenance)}" for i, s in enumerate(m.spaces)]),
        ("Decks", [row for d in m.decks.values() for row in _deck_rows(d, cite)]),
        ("Rules", [f"  {r.name}: {r.label or ''}{' (off at the start)' if r.off else ''}{cite(r.provenance)}"
                   for r in m.rules]),
    ):
        line()
        line(f"{heading}:")
        for row in rows:
            line(row)
    return 0


def _deck_rows(d, cite) -> list[str]:
    """Return `show`'s lines for a deck: the deck, then each card, a reconstructed one marked as such."""
    from .program import RECONSTRUCTED_CARD, is_reconstruction

    size = f" ({d.size} cards)" if d.size is not None else ""
    rows = [f"  {d.name}{size}: {d.label or ''}{cite(d.provenance)}"]
    for c in d.cards:
        mark = f"  [{RECONSTRUCTED_CARD}]" if is_reconstruction(d) or is_reconstruction(c) else cite(c.provenance)
        rows.append(f"    {c.name}: {c.text}{mark}")
    return rows


def cmd_sources(args: argparse.Namespace, out: TextIO) -> int:
    from .bibliography import render_markdown

    out.write(render_markdown())
    return 0


def cmd_board(args: argparse.Namespace, out: TextIO) -> int:
    from .loader import load
    from .sourcefile import write_atomically
    from .board import board_svg

    rules = load(args.edition)
    svg = board_svg(rules, _parse_options(args.option))
    if args.svg in (None, "-"):
        out.write(svg)
        return 0
    write_atomically(Path(args.svg), svg)
    out.write(f"wrote {visible(args.svg)}\n")
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from .loader import load
    from .replay import read_log, replay
    from .watch import record, replay_html

    html = _OutputFile(args.html, "replay") if args.html else None
    text, name = _read(args.file)
    log = read_log(text, name)
    watched: list = []

    def prepare(game: Game, rules) -> None:
        if html is not None:
            watched.append((game, rules, record(game, rules)))

    report = replay(log, lambda edition: load(args.edition or edition), prepare)
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


def _show_expr(e) -> str:
    from .formatter import expr

    return expr(e)


# --------------------------------------------------------------------- main

def _at_least(low: int):
    """Return an argparse type: a whole number no smaller than `low`."""
    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value
    return number


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
        p.add_argument("--jobs", type=_at_least(1), metavar="N", help="processes to play games in (default: every core)")
        p.add_argument("--backend", choices=("local", "dask"), default="local",
                       help="local processes, or a Dask cluster (needs the distributed extra)")
        p.add_argument("--scheduler", metavar="ADDRESS",
                       help="with --backend dask: the scheduler (default: a local cluster of --jobs workers)")

    def game_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
        p.add_argument("--seed", type=int, default=1, help="seed for the dice (default 1)")
        p.add_argument("--players", type=_at_least(1),
                       help="number of players (default 4, or the nearest the edition allows)")
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="set an edition option (repeatable)")

    p = sub.add_parser("play", help="play one narrated game")
    game_options(p)
    p.add_argument("--seats", help="comma-separated seat kinds: bot, random, human (e.g. human,bot,bot)")
    p.add_argument("--turn-limit", type=_at_least(1), help="stop after this many turns")
    p.add_argument("--log", metavar="FILE", help="write the event log as JSON lines")
    p.add_argument("--html", metavar="FILE", help="write a replay of the game to watch in a browser (one HTML file)")
    p.add_argument("-v", "--verbose", action="store_true", help="also narrate bids and card movements")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="simulate many games with heuristic bots")
    game_options(p)
    p.add_argument("--games", type=_at_least(1), default=100, help="number of games (default 100)")
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
    p.add_argument("--games", type=_at_least(1), default=100, help="games per cell (default 100)")
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
    p.add_argument("--outcomes", type=_at_least(0), metavar="N", default=0,
                   help="also simulate N paired games per side (same dice seeds) and compare outcomes")
    p.add_argument("--all", action="store_true",
                   help="with --outcomes: every space's landing change, not only those whose interval excludes zero")
    p.add_argument("--players", type=_at_least(1),
                   help="players in the outcome simulations (default 4, or the nearest allowed)")
    p.add_argument("--seed", type=int, default=0, help="first seed of the outcome simulations")
    p.add_argument("--sources", action="store_true", help="also list declarations whose citation alone changed")
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("replay", help="replay a `play --log` file and verify it (exit 0 same game, 1 not)")
    p.add_argument("file", metavar="FILE", help="a log written by `play --log`, or - for stdin")
    p.add_argument("--edition", metavar="EDITION", help="the rules to replay with, if not where the log says")
    p.add_argument("--html", metavar="FILE", help="also write the replayed game as a page to watch in a browser")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("analyze", help="exact long-run landing probabilities and rents of one token, from the rules")
    p.add_argument("edition", metavar="EDITION", help="edition/variant name or .lg file")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="set a rule option")
    p.add_argument("--players", type=int, help="players at the table (default: the edition's minimum)")
    p.add_argument("--prefer", action="append", default=[], metavar="OPTION",
                   help="take this option whenever a decision offers it (repeatable, first wins); "
                        "other decisions get the heuristic bot's answer")
    p.add_argument("--buildings", metavar="VAR:TOP",
                   help="also rent rows for each building level 1..TOP of space variable VAR (e.g. houses:5)")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.add_argument("--seed", type=int, default=0, help="seed of the setup (opening throws, shuffles)")
    p.add_argument("--no-rents", action="store_true", help="leave out the rent table")
    p.add_argument("--no-economy-check", action="store_true",
                   help="do not check the movement against a game played on for a while")
    p.add_argument("--plot", metavar="FILE",
                   help="draw the board shaded by where throws and turns end (.png, .svg or .pdf; needs matplotlib)")
    p.set_defaults(func=cmd_analyze)

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


class _Output:
    """A text stream that records its first failed write instead of raising it, and drops what follows.

    A command whose reader has gone (a closed pipe) or whose output cannot be
    written (a full disk) still runs to its end, so its exit status is its own.
    """

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.error: OSError | None = None

    def write(self, text: str) -> int:
        if self.error is None:
            try:
                self.stream.write(text)
            except OSError as err:
                self._failed(err)
        return len(text)

    def flush(self) -> None:
        if self.error is None:
            try:
                self.stream.flush()
            except OSError as err:
                self._failed(err)

    def _failed(self, err: OSError) -> None:
        self.error = err
        # what is left in the stream's buffer would fail again as Python exits: send it nowhere
        try:
            fd = self.stream.fileno()
        except (OSError, ValueError, AttributeError):
            return
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr = _Output(saved[0]), _Output(saved[1])
    target = stdout if out is None else _Output(out)
    try:
        status = _run(parser, args, target)
        for stream in (target, stdout, stderr):
            stream.flush()
    finally:
        sys.stdout, sys.stderr = saved
    lost = next((s.error for s in (target, stdout, stderr) if s.error and s.error.errno != errno.EPIPE), None)
    if lost is None:
        return status
    try:
        saved[1].write(f"landlord-dsl: cannot write the output: {lost.strerror or lost}\n")
    except OSError:
        pass
    return status or 1


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace, out: TextIO) -> int:
    """Run the chosen command; return its exit status, every error reported on stderr."""
    if args.command is None:
        parser.print_help(out)
        return 2
    try:
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
    except BrokenPipeError:  # a pipe written outside the guarded streams: the work was cut short
        return 1
    except Exception as err:  # noqa: BLE001 - last line of defence: no tracebacks for users
        if os.environ.get("LANDLORD_DEBUG"):
            raise
        sys.stderr.write(f"landlord-dsl: internal error: {type(err).__name__}: {err}\n"
                         "Please report it; set LANDLORD_DEBUG=1 to see the traceback.\n")
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
