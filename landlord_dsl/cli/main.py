"""CLI stage: the `landlord-dsl` command line: its argument parser, and running a command with its exit status.

The commands themselves are in rules.py, games.py, studies.py and serve.py,
each imported only when one of its commands runs (`_later`), and a command's
arguments are added to its parser only when that command is chosen
(`_LazyCommands`): so `landlord-dsl --help` imports neither the parser of .lg
files nor the engine.

Exit codes (docs/cli.md): 0 success; 1 problems found (check, fmt --check,
diff, replay) or a LandlordError that is not a usage error (a rule file with
problems, a rule that failed while a game ran, output that could not be
written...); 2 a usage error (errors.UsageError: bad arguments, an unknown
edition or option, an output file that cannot be opened); 3 an internal
error, which is always a bug in landlord-dsl. The class of the error, not
the command it stopped, gives the status. Errors are printed
for people, never as a Python traceback (set LANDLORD_DEBUG=1 to see one for
an internal error). A reader that goes away (`| head`) never changes the exit
status: the command finishes, its output discarded.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TextIO

from ..core.version import __version__
from .common import at_least, native_argument, native_default, set_argument


def _later(module: str, name: str) -> Callable[..., Any]:
    """Return a function that imports the command module `module` of this package when first called, and
    calls its function `name`: a command's module, and what it imports, are loaded only when it runs."""

    def call(*args: Any) -> Any:
        return getattr(importlib.import_module(f".{module}", __package__), name)(*args)

    call.__name__ = call.__qualname__ = name
    return call


cmd_analyze, cmd_board, cmd_check, cmd_diff, cmd_fmt, cmd_list, cmd_lsp, cmd_show, cmd_sources = (
    _later("rules", name)
    for name in (
        "cmd_analyze",
        "cmd_board",
        "cmd_check",
        "cmd_diff",
        "cmd_fmt",
        "cmd_list",
        "cmd_lsp",
        "cmd_show",
        "cmd_sources",
    )
)
cmd_coverage, cmd_play, cmd_replay, cmd_simulate, cmd_sweep, cmd_tournament = (
    _later("games", name)
    for name in ("cmd_coverage", "cmd_play", "cmd_replay", "cmd_simulate", "cmd_sweep", "cmd_tournament")
)
cmd_serve, serve_arguments = _later("serve", "cmd_serve"), _later("serve", "serve_arguments")
(
    cmd_optimise,
    cmd_sensitivity,
    cmd_skill,
    attribute_arguments,
    optimise_arguments,
    sensitivity_arguments,
    skill_arguments,
) = (
    _later("studies", name)
    for name in (
        "cmd_optimise",
        "cmd_sensitivity",
        "cmd_skill",
        "attribute_arguments",
        "optimise_arguments",
        "sensitivity_arguments",
        "skill_arguments",
    )
)

# --------------------------------------------------------------------- main


def _parallel_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=at_least(1), metavar="N", help="processes to play games in (default: every core)")
    p.add_argument(
        "--backend",
        choices=("local", "dask"),
        default="local",
        help="local processes, or a Dask cluster (needs the distributed extra)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --backend dask: the scheduler (default: a local cluster of --jobs workers)",
    )


def _bot_reserve(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--bot-reserve",
        type=at_least(0),
        metavar="N",
        help="cash the heuristic bots keep back (default: a quarter of the starting money, at most 100)",
    )


def _seats_option(p: argparse.ArgumentParser, example: str = "mcts:400,bot,bot,random") -> None:
    p.add_argument(
        "--seats",
        metavar="KIND,...",
        help="one player a seat: bot, random, human, rollout[:N], mcts[:N or :Ss], challenger[:N or :Ss] "
        f"(e.g. {example}; default: heuristic bots)",
    )


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
    p.add_argument("--seed", type=int, default=0, help="seed for the dice (default 0, as everywhere)")
    p.add_argument(
        "--players", type=at_least(1), help="number of players (default 4, or the nearest the edition allows)"
    )
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="set an edition option (repeatable)"
    )
    set_argument(p)
    _bot_reserve(p)


def _check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE_OR_NAME", help="a .lg file, a shipped name, or - for stdin")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing for files without problems")
    p.add_argument(
        "--strict",
        action="store_true",
        help="also warn of citations without a source key, and fail (exit 1) on any warning",
    )


def _fmt_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="a .lg file, or - to format stdin to stdout")
    p.add_argument("--check", action="store_true", help="only report files that would change (exit 1 if any)")
    p.add_argument(
        "--diff", action="store_true", help="print what would change as a unified diff instead of rewriting files"
    )
    p.add_argument(
        "--width",
        type=at_least(1),
        metavar="N",
        help="break lines wider than N columns where the code allows (default 100, the shipped files' layout)",
    )


def _play_arguments(p: argparse.ArgumentParser) -> None:
    _game_options(p)
    native_argument(p)
    _seats_option(p, "human,bot,bot")
    p.add_argument("--names", metavar="NAME,...", help="the seats' names, in seat order (default: Player 1, ...)")
    p.add_argument("--turn-limit", type=at_least(1), help="stop after this many turns")
    p.add_argument("--log", metavar="FILE", help="write the event log as JSON lines")
    p.add_argument("--html", metavar="FILE", help="write a replay of the game to watch in a browser (one HTML file)")
    p.add_argument("-v", "--verbose", action="store_true", help="also narrate bids and card movements")


def _simulate_arguments(p: argparse.ArgumentParser) -> None:
    _game_options(p)
    native_argument(p)
    p.add_argument("--games", type=at_least(1), default=100, help="number of games (default 100)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--stats",
        action="store_true",
        help="also landings, rent, win rates, game length and eliminations, with their uncertainty",
    )
    p.add_argument("--plot", metavar="FILE", help="draw the statistics (a .png, .svg or .pdf; needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _seats_option(p)
    _parallel_options(p)


def _coverage_arguments(p: argparse.ArgumentParser) -> None:
    _game_options(p)
    p.add_argument("--games", type=at_least(1), default=100, help="number of games (default 100)")
    p.add_argument(
        "--format",
        choices=("text", "markdown", "json", "toml"),
        default="text",
        help="toml: entries for the coverage allow-list (tests/data/coverage-allow.toml) of what never fired",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _sweep_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=V1,V2,...",
        help="an option and the values to try (repeatable: the grid is every combination)",
    )
    p.add_argument("--players", metavar="N1,N2,...", help="player counts to try (default 4, or the nearest allowed)")
    set_argument(p)
    native_argument(p)
    p.add_argument("--games", type=at_least(1), default=100, help="games per cell (default 100)")
    p.add_argument("--seed", type=int, default=0, help="first seed, the same in every cell (default 0)")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="append each finished cell to FILE (JSON lines); cells already in FILE are not played again",
    )
    p.add_argument("--json", action="store_true", help="print every cell's summary as JSON")
    p.add_argument("--plot", metavar="FILE", help="draw the cells' mean Gini and game length (needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="no progress lines")
    _bot_reserve(p)
    _seats_option(p)
    _parallel_options(p)
    p.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the table (auto: on a terminal without NO_COLOR)",
    )


def _tournament_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
    p.add_argument(
        "--agents",
        required=True,
        metavar="KIND,...",
        help="the agents, each once: bot, random, rollout[:N], mcts[:N] (e.g. mcts:100,rollout:4,bot,random)",
    )
    p.add_argument(
        "--games",
        type=at_least(1),
        default=10,
        help="deals (seeds); each is played once per rotation of the seats (default 10)",
    )
    p.add_argument("--players", type=at_least(1), help="seats at each table (default: the number of agents)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="set an edition option (repeatable)"
    )
    set_argument(p)
    native_argument(p)
    p.add_argument("--turn-limit", type=at_least(1), help="stop each game after this many turns")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="append each finished game to FILE (JSON lines); games already in FILE are not played again",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--jobs", type=at_least(1), metavar="N", help="processes to play games in (default: every core)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the tables (auto: on a terminal without NO_COLOR)",
    )


def _diff_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", metavar="A", help="edition/variant name or .lg file")
    p.add_argument("b", metavar="B", help="edition/variant name or .lg file")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.add_argument(
        "--outcomes",
        type=at_least(0),
        metavar="N",
        default=0,
        help="also simulate N paired games per side (same dice seeds) and compare outcomes",
    )
    p.add_argument(
        "--all",
        action="store_true",
        help="with --outcomes: every space's landing change, not only those whose interval excludes zero",
    )
    p.add_argument(
        "--players", type=at_least(1), help="players in the outcome simulations (default 4, or the nearest allowed)"
    )
    p.add_argument("--seed", type=int, default=0, help="first seed of the outcome simulations")
    _seats_option(p)
    p.add_argument("--sources", action="store_true", help="also list declarations whose citation alone changed")
    set_argument(p)
    attribute_arguments(p)


def _replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a log written by `play --log`, or - for stdin")
    p.add_argument("--edition", metavar="EDITION", help="the rules to replay with, if not where the log says")
    p.add_argument("--html", metavar="FILE", help="also write the replayed game as a page to watch in a browser")


def _analyze_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("edition", metavar="EDITION", help="edition/variant name or .lg file")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="set a rule option")
    set_argument(p)
    p.add_argument("--players", type=int, help="players at the table (default: the edition's minimum)")
    p.add_argument(
        "--prefer",
        action="append",
        default=[],
        metavar="OPTION",
        help="take this option whenever a decision offers it (repeatable, first wins); "
        "other decisions get the heuristic bot's answer",
    )
    p.add_argument(
        "--buildings",
        metavar="VAR:TOP",
        help="also rent rows for each building level 1..TOP of space variable VAR (e.g. houses:5)",
    )
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.add_argument("--seed", type=int, default=0, help="seed of the setup (opening throws, shuffles)")
    p.add_argument("--no-rents", action="store_true", help="leave out the rent table")
    p.add_argument("--no-progress", action="store_true", help="do not show the stage running on a terminal")
    p.add_argument(
        "--no-economy-check", action="store_true", help="do not check the movement against a game played on for a while"
    )
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the board shaded by where throws and turns end (.png, .svg or .pdf; needs matplotlib)",
    )


def _show_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("edition", metavar="EDITION")
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="set an edition option (repeatable)"
    )
    p.add_argument(
        "--python", action="store_true", help="print the generated Python instead, each line marked with its .lg line"
    )


def _board_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("edition", metavar="EDITION", help="a shipped edition name or a .lg file")
    p.add_argument("--svg", metavar="FILE", help="write the picture to FILE (default: standard output)")
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="set an edition option (repeatable)"
    )


class _Command(NamedTuple):
    """A command of the command line: its name, its one-line summary, what runs it, and what adds its arguments."""

    name: str
    summary: str
    run: Callable[[argparse.Namespace, TextIO], int]
    arguments: Callable[[argparse.ArgumentParser], None] | None = None


# in the order `--help` lists them
_COMMANDS = (
    _Command("list", "list the shipped editions and variants", cmd_list),
    _Command("check", "check .lg files and print every problem", cmd_check, _check_arguments),
    _Command("fmt", "rewrite .lg files in canonical layout", cmd_fmt, _fmt_arguments),
    _Command("play", "play one narrated game", cmd_play, _play_arguments),
    _Command("simulate", "simulate many games with heuristic bots", cmd_simulate, _simulate_arguments),
    _Command(
        "coverage",
        "play games and report which rules, branches, cards and options never fire",
        cmd_coverage,
        _coverage_arguments,
    ),
    _Command(
        "sweep", "simulate a grid of option values and player counts on the same seeds", cmd_sweep, _sweep_arguments
    ),
    _Command(
        "tournament",
        "play agents against each other in seat rotations on the same seeds, with win rates, matchups and ratings",
        cmd_tournament,
        _tournament_arguments,
    ),
    _Command(
        "diff",
        "semantic differences between two editions or variants (exit 0 same, 1 different)",
        cmd_diff,
        _diff_arguments,
    ),
    _Command(
        "sensitivity",
        "which readings an edition reconstructs change its outcomes, each value against the defaults on the same seeds",
        cmd_sensitivity,
        sensitivity_arguments,
    ),
    _Command(
        "optimise",
        "search option values and constants for the rules that best meet an objective, and write them as a variant",
        cmd_optimise,
        optimise_arguments,
    ),
    _Command(
        "skill",
        "how much skill and how much luck decide a game: one agent against a field, in every seat on the same seeds",
        cmd_skill,
        skill_arguments,
    ),
    _Command(
        "replay", "replay a `play --log` file and verify it (exit 0 same game, 1 not)", cmd_replay, _replay_arguments
    ),
    _Command(
        "analyze",
        "exact long-run landing probabilities and rents of one token, from the rules",
        cmd_analyze,
        _analyze_arguments,
    ),
    _Command(
        "show",
        "show an edition's options, constants, tables, board, decks, rules, end and score",
        cmd_show,
        _show_arguments,
    ),
    _Command("sources", "print the bibliography citations may name (the text of docs/sources.md)", cmd_sources),
    _Command("board", "draw an edition's board as an SVG picture", cmd_board, _board_arguments),
    _Command(
        "serve",
        "a classroom on one laptop: tables played from students' own devices in their browsers (the web extra)",
        cmd_serve,
        serve_arguments,
    ),
    _Command("lsp", "run the language server for .lg files on standard input and output (the lsp extra)", cmd_lsp),
)


class _LazyCommands(argparse._SubParsersAction):
    """The commands' sub-parsers; the arguments of those in `pending` (by name: what adds them) are added when
    the command is chosen, before its sub-parser reads the rest of the line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pending: dict[str, Callable[[argparse.ArgumentParser], None]] = {}

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, *rest: Any) -> None:
        arguments = self.pending.pop(values[0], None)  # (argparse has checked the name is a command's)
        command = self.choices[values[0]]
        if arguments is not None:
            arguments(command)
        # another command's spelling of a flag this command spells its own way is told before argparse can
        # stop at a missing required flag (`tournament E --seats ...` lacks --agents, which is what it meant)
        for arg in values[1:]:
            if hint := _own_spelling(command, arg.split("=", 1)[0]):
                command.error(f"unrecognized argument {arg.split('=', 1)[0]}; {hint}")
        super().__call__(parser, namespace, values, *rest)
        # argparse leaves a command's unknown arguments to the top parser, whose usage is not the command's
        unknown = getattr(namespace, argparse._UNRECOGNIZED_ARGS_ATTR, None)
        if unknown:
            command.error(_unrecognized(command, unknown))


# Flags that name one thing but are spelt differently by different commands, each with what it names. They
# are all kept (the command line is a public interface); one of them given to a command that spells the thing
# another way is answered with that command's own flag, not with the nearest spelling (`--set` for `--seats`).
FLAG_SYNONYMS: tuple[dict[str, str], ...] = (
    {
        "--seats": "its players, one a seat,",  # play, simulate, sweep, diff (--outcomes), serve
        "--agents": "its players",  # tournament
        "--ladder": "the players it measures",  # skill
    },
)


def _own_spelling(command: argparse.ArgumentParser, flag: str) -> str | None:
    """Return the hint for `flag` given to `command` if the command names the same thing with another flag of
    FLAG_SYNONYMS ("use --agents: tournament names its players with --agents"), else None."""
    flags = {option for action in command._actions for option in action.option_strings}
    if flag in flags:
        return None
    for group in FLAG_SYNONYMS:
        if flag in group:
            for own, what in group.items():
                if own in flags:
                    return f"use {own}: {command.prog.split()[-1]} names {what} with {own}"
    return None


def _unrecognized(command: argparse.ArgumentParser, unknown: list[str]) -> str:
    """Return the error for the arguments `unknown` that the parser `command` does not know, with the option
    each misspelt flag most likely meant."""
    import difflib

    flags = [flag for action in command._actions for flag in action.option_strings]
    guesses = {
        arg.split("=", 1)[0]: close[0]
        for arg in unknown
        if arg.startswith("-") and (close := difflib.get_close_matches(arg.split("=", 1)[0], flags, n=1))
    }
    message = f"unrecognized arguments: {' '.join(unknown)}"
    if len(guesses) == 1:
        return f"{message}; did you mean {next(iter(guesses.values()))}?"
    if guesses:
        return f"{message}; did you mean {', '.join(f'{close} (for {arg})' for arg, close in guesses.items())}?"
    return f"{message}; `{command.prog} --help` lists the options"


class _Parser(argparse.ArgumentParser):
    """The top parser: a misspelt command is told the command it most likely names."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if isinstance(action, _LazyCommands) and value not in action.choices:
            from ..core.errors import did_you_mean

            hint = did_you_mean(str(value), action.choices) or "`landlord-dsl --help` lists the commands"
            raise argparse.ArgumentError(action, f"unknown command '{value}': {hint}")
        super()._check_value(action, value)


def build_parser(lazy: bool = False) -> argparse.ArgumentParser:
    """Return the parser of the `landlord-dsl` command line, a sub-parser for each command of _COMMANDS;
    `lazy`: each command's arguments are added only once the command line names it (what `main` does,
    so that `--help` and each command build only what they show or read)."""
    parser = _Parser(
        prog="landlord-dsl",
        description="Rules of The Landlord's Game and early Monopoly as data: "
        "check, format, play and simulate .lg files.",
    )
    parser.add_argument("--version", action="version", version=f"landlord-dsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", action=_LazyCommands)
    assert isinstance(sub, _LazyCommands)
    for name, summary, run, arguments in _COMMANDS:
        p = sub.add_parser(name, help=summary)
        if arguments is not None and lazy:
            sub.pending[name] = arguments
        elif arguments is not None:
            arguments(p)
        p.set_defaults(func=run)
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
    parser = build_parser(lazy=True)
    args = parser.parse_args(argv)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr = _Output(saved[0]), _Output(saved[1])
    target = stdout if out is None else _Output(out)
    try:
        status = _run(parser, args, target)  # type: ignore[arg-type]
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
    from ..core.errors import LandlordError

    if args.command is None:
        parser.print_help(out)
        return 2
    try:
        with native_default(args):
            return args.func(args, out)
    except LandlordError as err:  # its class says the exit status (errors.py, docs/cli.md)
        sys.stderr.write(err.render() + "\n")
        return err.exit_status
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:  # a pipe written outside the guarded streams: the work was cut short
        return 1
    except Exception as err:  # last line of defence: no tracebacks for users
        if os.environ.get("LANDLORD_DEBUG"):
            raise
        sys.stderr.write(
            f"landlord-dsl: internal error: {type(err).__name__}: {err}\n"
            "Please report it; set LANDLORD_DEBUG=1 to see the traceback.\n"
        )
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
