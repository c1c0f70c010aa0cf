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
from .compiler import Program, compile_ruleset
from .engine import Game
from .errors import LandlordError, RuleRuntimeError
from .formatter import format_text
from .loader import load, load_text
from .narrate import narrate
from .resources import shipped_files
from .simulate import render_summary, simulate, summarise


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
    program = _program(args.edition, args.option)
    kinds = _seats(args, program)
    agents = [make_agent(k, args.seed, i) for i, k in enumerate(kinds)]
    names = [f"{'You' if k == 'human' else 'Player'} {i + 1}" if k == "human" else f"Player {i + 1}"
             for i, k in enumerate(kinds)]
    game = Game(program, agents, seed=args.seed, names=names, turn_limit=args.turn_limit)
    out.write(f"{program.title}, {len(kinds)} players, seed {args.seed}\n")
    printed = 0

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
    result = game.result()
    out.write("\nFinal scores:\n")
    for seat, score in enumerate(result.scores):
        mark = "  <- winner" if seat in result.winners else ""
        out.write(f"  {game.names[seat]:10} {score:>7}   (cash {game.cash(seat)}){mark}\n")
    if not game.conserved():  # pragma: no cover - an engine bug, reported loudly
        out.write("warning: money was not conserved in this game\n")
    return 0


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    program = _program(args.edition, args.option)
    players = args.players or default_players(program)
    show_progress = not args.no_progress and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    records = simulate(program, args.games, players, args.seed, progress if show_progress else None)
    summary = summarise(records, players)
    summary["edition"] = program.name
    summary["options"] = program.options
    summary["seed"] = args.seed
    if args.json:
        out.write(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    else:
        out.write(render_summary(summary, program.title) + "\n")
    return 0 if summary["money_conserved_in_all_games"] else 1


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
            out.write("\n```text" + render_outcomes(result) + "```\n")
    else:
        colour = args.color == "always" or (args.color == "auto" and out is sys.stdout and sys.stdout.isatty())
        out.write(render_text(changes, a.name, b.name, colour))
        if result is not None:
            out.write(render_outcomes(result))
    return 1 if changes else 0


def cmd_analyze(args: argparse.Namespace, out: TextIO) -> int:
    from .analysis import analyze

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
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    rules = load(args.edition)
    m = rules.model
    h = m.header

    def cite(p) -> str:
        if p is None:
            return ""
        return f"  [{p.source}{', ' + p.confidence if p.confidence else ''}]"

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
    out.write("\nRules:\n")
    for r in m.rules:
        state = " (off at the start)" if r.off else ""
        out.write(f"  {r.name}: {r.label or ''}{state}{cite(r.provenance)}\n")
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
    p.add_argument("-v", "--verbose", action="store_true", help="also narrate bids and card movements")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="simulate many games with heuristic bots")
    game_options(p)
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("diff", help="semantic differences between two editions or variants (exit 0 same, 1 different)")
    p.add_argument("a", metavar="A", help="edition/variant name or .lg file")
    p.add_argument("b", metavar="B", help="edition/variant name or .lg file")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.add_argument("--outcomes", type=int, metavar="N", default=0,
                   help="also simulate N paired games per side (same dice seeds) and compare outcomes")
    p.add_argument("--players", type=int, help="players in the outcome simulations")
    p.add_argument("--seed", type=int, default=0, help="first seed of the outcome simulations")
    p.add_argument("--sources", action="store_true", help="also list declarations whose citation alone changed")
    p.set_defaults(func=cmd_diff)

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
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("show", help="show an edition's board, accounts, options and rules")
    p.add_argument("edition", metavar="EDITION")
    p.set_defaults(func=cmd_show)
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
        if getattr(args, "games", 1) < 1 or (getattr(args, "players", None) or 1) < 1:
            raise UsageError("--games and --players must be at least 1")
        return args.func(args, out)
    except UsageError as err:
        sys.stderr.write(f"landlord-dsl: {err}\n")
        return 2
    except RuleRuntimeError as err:
        sys.stderr.write(err.render() + "\n")
        return 1
    except LandlordError as err:
        sys.stderr.write(err.render() + "\n")
        return 2 if args.command in ("play", "simulate", "show", "diff") else 1
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
