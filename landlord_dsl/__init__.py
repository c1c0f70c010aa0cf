"""landlord-dsl: the rules of The Landlord's Game and early Monopoly as data.

The façade:

    >>> import landlord_dsl as ld
    >>> rules = ld.load_edition("landlords-game-1906")     # parse + check
    >>> game = ld.new_game(rules, players=4, seed=7)        # heuristic bots
    >>> result = game.play()

`check(text)` returns the diagnostics of .lg source text, `format_source(text)`
its canonical layout, and `diff(a, b)` the semantic changes between two rule
sets; `landlord_dsl.studies.parallel.simulate_many` runs many seeded games on every
core, `analyze(rules)` derives exact long-run landing tables from the rules,
and `env(rules)` is a PettingZoo environment over any rule set (the `rl`
extra, docs/rl.md).
Every problem a user can cause is raised as a LandlordError.

The modules, by pipeline stage (each stage reads only what the one before
it produced; nothing past parsing sees a Lark tree):

- reading: sourcefile (files and streams), resources (shipped files),
  bibliography (citations);
- 1, parse: grammar (the Lark parser, loaded once), parser_cache, parser
  (the entry point), builder (Lark tree to the typed `ast`), treeless (the
  builder run in the parser's reductions, so no tree is made), recovery and
  syntax_errors (reading on after, and reporting, syntax errors);
- 2, check: checker (the entry point), check_base, check_decls,
  check_bodies, check_stmts, check_exprs, narrowing, dispatch (per-node method
  tables, shared with the formatter), model (what the compiler reads),
  types (value types, built-in fields, context names), limits;
- loading: loader (extends, variants, merging, checking), options (option
  values);
- 3, compile: compiler (the entry point), codegen, codegen_expr,
  codegen_stmt, pyast_pass, program (the Program contract), runtime (what
  generated code calls) and builtins (the built-in registry the checker,
  the compiler and the language reference share);
- 4, run: engine (Game), movement, cards, decisions, invariants, events,
  saves, control (run-time exceptions), requests and agents (the chance and
  decision exchange), replay;
- after a game: narrate, observe, simulate, stats, parallel, rulesource,
  rule_coverage (`coverage`), sweep, compare (`diff`), outcomes (`diff --outcomes`),
  analysis/ (exact chains), plots, board, watch,
  highlight, show (`show`, `show --python`), rl/;
- the command line: cli, commands/ and terminal (colour and progress).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _moved
from .core.version import __version__ as __version__

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from .agents import Agent, HeuristicAgent, HumanAgent, RandomAgent, ScriptedAgent
    from .agents.search import ChallengerAgent, MCTSAgent, RolloutAgent, StateAgent
    from .agents.stepped import SteppedGame, play_stepped
    from .checking.constants import with_constants
    from .checking.loader import RuleSet, load_text
    from .core.errors import (
        Diagnostic,
        GameLogError,
        LandlordError,
        OutputError,
        RuleCheckError,
        RuleRuntimeError,
        RuleSourceError,
        RuleSyntaxError,
        SaveError,
        UsageError,
    )
    from .engine.events import ThrowEvent, TurnEvent
    from .engine.game import Game, GameResult
    from .engine.saves import GameState, state_from_json, state_to_json
    from .engine.state import State
    from .language import ast
    from .presentation.compare import Change
    from .program.compiled import Program
    from .program.requests import ScriptedChance, SeededChance
    from .rl import LandlordAECEnv
    from .studies.analysis import Analysis
    from .studies.rule_coverage import Coverage

# The public classes are imported on first use, so that `import landlord_dsl`
# (and `landlord-dsl --help`) does not pay for the parser, checker and compiler.
_moved.install()  # the module paths of 0.1 (landlord_dsl.loader, ...) for one more release

_LAZY = {
    "Agent": "agents",
    "HeuristicAgent": "agents",
    "HumanAgent": "agents",
    "RandomAgent": "agents",
    "ScriptedAgent": "agents",
    "MCTSAgent": "agents.search",
    "ChallengerAgent": "agents.search",
    "RolloutAgent": "agents.search",
    "StateAgent": "agents.search",
    "SteppedGame": "agents.stepped",
    "play_stepped": "agents.stepped",
    "Program": "program.compiled",
    "Game": "engine.game",
    "GameResult": "engine.game",
    "GameState": "engine.saves",
    "State": "engine.state",
    "ThrowEvent": "engine.events",
    "TurnEvent": "engine.events",
    "state_from_json": "engine.saves",
    "state_to_json": "engine.saves",
    "Diagnostic": "core.errors",
    "LandlordError": "core.errors",
    "RuleRuntimeError": "core.errors",
    "RuleSourceError": "core.errors",
    "RuleSyntaxError": "core.errors",
    "RuleCheckError": "core.errors",
    "UsageError": "core.errors",
    "SaveError": "core.errors",
    "GameLogError": "core.errors",
    "OutputError": "core.errors",
    "RuleSet": "checking.loader",
    "load_text": "checking.loader",
    "with_constants": "checking.constants",
    "ScriptedChance": "program.requests",
    "SeededChance": "program.requests",
    # importable from the package before it loaded lazily
    "Coverage": "studies.rule_coverage",
    "load": "checking.loader",
    "compile_ruleset": "compiling.compiler",
}

__all__ = [
    "Agent",
    "ChallengerAgent",
    "Coverage",
    "Diagnostic",
    "Game",
    "GameLogError",
    "GameResult",
    "GameState",
    "HeuristicAgent",
    "HumanAgent",
    "LandlordError",
    "MCTSAgent",
    "OutputError",
    "Program",
    "RandomAgent",
    "RolloutAgent",
    "RuleCheckError",
    "RuleRuntimeError",
    "RuleSet",
    "RuleSourceError",
    "RuleSyntaxError",
    "SaveError",
    "ScriptedAgent",
    "ScriptedChance",
    "SeededChance",
    "State",
    "StateAgent",
    "SteppedGame",
    "ThrowEvent",
    "TurnEvent",
    "UsageError",
    "analyze",
    "check",
    "compile_rules",
    "coverage",
    "diff",
    "env",
    "format_source",
    "load_edition",
    "load_text",
    "new_game",
    "new_state",
    "parse",
    "play_stepped",
    "shipped_editions",
    "state_from_json",
    "state_to_json",
    "with_constants",
]


def __getattr__(name: str) -> Any:
    """Return a public class or function of the package, or one of its modules, importing it on first use."""
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    from importlib.util import find_spec

    if not name.startswith("_") and find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f".{name}", __name__)  # a module of the package: ld.agents, ld.simulate
    raise AttributeError(f"module 'landlord_dsl' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def _rule_set(rules: Any, argument: str) -> RuleSet:
    """Return `rules` as a RuleSet: one already, or loaded from a shipped edition's name or a .lg path.

    :raises UsageError: `rules` is neither (an int, a Program, bytes...), naming the argument.
    """
    from pathlib import Path

    from .checking.loader import RuleSet, load
    from .core.errors import UsageError

    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, (str, Path)):
        return load(rules)
    raise UsageError(f"{argument} is a RuleSet, an edition's name or a .lg path, not {type(rules).__name__}")


def _source_text(text: Any) -> str:
    """Return `text`, .lg source, when it is a str.

    :raises UsageError: anything else (bytes to decode, most likely).
    """
    if isinstance(text, str):
        return text
    from .core.errors import UsageError

    hint = ": decode it first, text.decode('utf-8')" if isinstance(text, (bytes, bytearray)) else ""
    raise UsageError(f"the .lg source is a str, not {type(text).__name__}{hint}")


def load_edition(name_or_path: str | Path) -> RuleSet:
    """Return the checked RuleSet of a shipped edition (by name) or of a .lg file (by path).

    Example (the examples here assume ``import landlord_dsl as ld``):

        >>> rules = ld.load_edition("landlords-game-1906")
        >>> rules.name
        'landlords-game-1906'

    :param name_or_path: a name from `shipped_editions()`, or the path of a .lg file
        (which may extend a shipped edition or a file beside it).
    :returns: the parsed, merged and checked rule set, ready for `compile_rules` or `new_game`.
    :raises RuleSyntaxError: the file does not parse.
    :raises RuleCheckError: the file parses but breaks a rule of the language.
    :raises RuleSourceError: no shipped edition has that name and no file is at that path.
    """
    from .checking.loader import load

    return load(name_or_path)


def parse(text: str, file: str = "<string>") -> ast.Module:
    """Return the typed AST (an `ast.Module`) of .lg source text, unchecked and unmerged.

    Example:

        >>> HOUSE = '''edition "house" {
        ...     title "House rules"
        ...     extends "landlords-game-1906"
        ...     source "house-rule: ours" original
        ... }
        ... const wages = 150 source "house-rule" original
        ... '''
        >>> module = ld.parse(HOUSE)
        >>> module.header.name, len(module.declarations)
        ('house', 1)

    :param text: the .lg source.
    :param file: the name used in error locations.
    :returns: the file's header and its declarations in order.
    :raises RuleSyntaxError: the text does not parse (every syntax error found is in its diagnostics; a path
        passed instead of the text is hinted so).
    """
    from .checking.loader import raised_with_path_hint
    from .language.parser import parse as _parse

    source = _source_text(text)
    with raised_with_path_hint(source, "parse"):
        return _parse(source, file)


def check(text: str, file: str = "<string>", strict: bool = False) -> list[Diagnostic]:
    """Return every problem in .lg source text: its errors, or, when it is valid, its warnings.

    The warnings are those of `landlord-dsl check` (old syntax, a rule restated
    around an extension point, ...); with `strict`, as `check --strict`, also
    every citation that does not start with a source key and a header without
    a `source`. Nothing is raised for
    a problem in the text: it is returned.

    Example:

        >>> [(d.span.line, d.message) for d in ld.check('edition "x" {')]
        [(1, "this '{' is never closed")]

    :param text: the .lg source (it may extend a shipped edition), not a path: a single line that ends in .lg
        or names an existing file is reported with a hint to pass its text, or to use `load_edition`.
    :param file: the name used in the diagnostics' locations.
    :param strict: also warn of citations without a source key, and of a header without a `source`.
    :returns: the diagnostics, each with its location, message and hint; empty when all is well.
    """
    from .checking.loader import hinted_if_path
    from .compiling.compiler import diagnose

    diagnostics = diagnose(_source_text(text), file, strict)
    return hinted_if_path(diagnostics, text, "check") if diagnostics else diagnostics


def format_source(text: str, file: str = "<string>", width: int = 100) -> str:
    """Return .lg source text in its canonical layout (comments are kept), as `landlord-dsl fmt` writes it.

    Example:

        >>> print(ld.format_source('edition "x" { title "X" }'))
        edition "x" {
            title "X"
        }
        <BLANKLINE>

    :param text: the .lg source.
    :param file: the name used in error locations.
    :param width: the widest a line may be, in columns, where the code allows (a long string stays whole).
    :returns: the formatted text, ending in a newline.
    :raises RuleSyntaxError: the text does not parse (a path passed instead of the text is hinted so).
    :raises UsageError: `width` is below 20.
    """
    from .checking.loader import format_with_base, raised_with_path_hint

    source = _source_text(text)
    with raised_with_path_hint(source, "format_source"):
        return format_with_base(source, file, width)


def compile_rules(
    rules: RuleSet | str, options: dict[str, Any] | None = None, native: bool | str | None = None
) -> Program:
    """Return the compiled Program of a RuleSet for the given option values.

    Example:

        >>> program = ld.compile_rules(ld.load_edition("landlords-game-1906"), {"faster_game": True})
        >>> program.players
        (2, 4)

    :param rules: a checked rule set (from `load_edition` or `load_text`), or a shipped edition's name or a
        .lg path, as `new_game` takes them.
    :param options: option values by option name; an option not given takes its default.
    :param native: True: run the rules as a C extension built with Cython (the `native` extra; built
        once and cached, docs/engine.md), or in pure Python with a NativeBuildWarning if it cannot be
        built; "require": raise LandlordError then; False: pure Python; None: the LANDLORD_NATIVE
        environment variable says (unset: pure Python). The games are the same either way.
    :returns: the Program every game of these rules and options runs.
    :raises UsageError: `rules` is not a rule set, a name or a path, or an option is unknown or its value is
        not one it allows.
    """
    from .compiling.compiler import compile_ruleset

    return compile_ruleset(_rule_set(rules, "rules"), options, native=native)


def diff(a: RuleSet | str, b: RuleSet | str) -> list[Change]:
    """Return the semantic changes that turn rule set `a` into `b`, as `landlord-dsl diff` lists them.

    Example:

        >>> HOUSE = '''edition "house" {
        ...     title "House rules"
        ...     extends "landlords-game-1906"
        ...     source "house-rule: ours" original
        ... }
        ... const wages = 150 source "house-rule" original
        ... '''
        >>> [(c.category, c.change, c.name) for c in ld.diff("landlords-game-1906", ld.load_text(HOUSE))]
        [('header', 'changed', 'title'), ('const', 'changed', 'wages')]

    :param a: the rule set before, or a shipped edition's name or a .lg path.
    :param b: the rule set after, likewise.
    :returns: one `Change` for each declaration added, removed, changed, renamed or moved.
    :raises LandlordError: `a` or `b` names no edition or file, or does not load.
    """
    from .presentation.compare import diff as _diff

    return _diff(_rule_set(a, "a"), _rule_set(b, "b"))


def analyze(rules: RuleSet | str, **settings: Any) -> Analysis:
    """Return the exact long-run movement tables of one token, derived from the rules (no simulation).

    Example:

        >>> table = ld.analyze("landlords-game-1906")
        >>> len(table.rows), table.rows[0].name
        (44, 'mother_earth')

    :param rules: a rule set, or a shipped edition's name or a .lg path.
    :param settings: those of `landlord_dsl.studies.analysis.analyze` (players, options, policy, ...).
    :returns: an `Analysis`: per-space landing rows, rent rows and what they assume.
    :raises LandlordError: the rules do not load, or their movement cannot be analysed exactly.
    """
    from .studies.analysis import analyze as _analyze

    return _analyze(rules, **settings)


def coverage(
    rules: RuleSet | str,
    games: int = 100,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    bot_reserve: int | None = None,
) -> Coverage:
    """Return what in the rules fired in `games` games of bots (seeds seed, seed+1, ..., as `simulate` plays).

    For every rule, handler, branch arm, choice option, card, end condition and
    statement: in how many games and how many times, with its .lg file and line.

    Example:

        >>> report = ld.coverage("landlords-game-1906", games=2)
        >>> report.games
        2

    :param rules: a rule set, or a shipped edition's name or a .lg path.
    :param games: how many games to play.
    :param players: seats a game (default: the edition's most).
    :param options: option values by option name.
    :param seed: the first game's seed.
    :param bot_reserve: the cash the bots keep back (default: the rules' hint).
    :returns: a `Coverage`; see `landlord_dsl.studies.rule_coverage.coverage`.
    :raises LandlordError: the rules do not load, or a setting is out of range.
    """
    from .engine.game import whole_argument
    from .studies.rule_coverage import coverage as _coverage

    games, seed = whole_argument(games, "games"), whole_argument(seed, "seed")
    players = whole_argument(players, "players") if players is not None else None
    return _coverage(rules, games, players, options, seed, bot_reserve)


def shipped_editions() -> list[str]:
    """Return the names of every shipped edition and variant, each loadable by `load_edition`.

    Example:

        >>> "landlords-game-1906" in ld.shipped_editions()
        True

    :returns: the names, editions first, then variants.
    """
    from .core.resources import shipped_files

    return list(shipped_files())


def new_game(
    rules: RuleSet | Program | str,
    players: int = 4,
    seed: int = 0,
    agents: Sequence[Agent] | None = None,
    options: dict[str, Any] | None = None,
    chance=None,
    turn_limit: int | None = None,
    names: Sequence[str] | None = None,
) -> Game:
    """Return a new Game: heuristic bots unless `agents` are given, dice from `seed` unless `chance` is.

    Example:

        >>> game = ld.new_game("landlords-game-1906", players=2, seed=7, names=["Ann", "Bo"])
        >>> result = game.play()
        >>> [game.names[seat] for seat in result.winners]
        ['Ann']

    :param rules: a rule set, a compiled Program, or a shipped edition's name or a .lg path. A rule set is
        compiled once for each set of option values: later games of the same RuleSet share its Program
        (a name or path is loaded, and so compiled, at every call: load it once to start many games).
    :param players: seats, when `agents` are not given.
    :param seed: the seed of the dice and shuffles, when `chance` is not given.
    :param agents: one Agent a seat, in seat order.
    :param options: option values by option name; for a Program, which is compiled for its own, only values
        equal to those.
    :param chance: a ChanceSource (e.g. `ScriptedChance`) that answers every throw and shuffle.
    :param turn_limit: the turns after which the game stops (default: the rules').
    :param names: the seats' names, in seat order (default "Player 1", ...).
    :returns: the game, set up lazily: call `play()` or `play_turn()`.
    :raises UsageError: the rules are not for that many players, `players`, `seed` or `turn_limit` is not a
        whole number (or the limit is out of range), `options` are not valid (or differ from a Program's own),
        `agents` are not Agents, or `names` are not one a seat, none blank, no two alike.
    """
    from .agents import HeuristicAgent
    from .checking.loader import load
    from .compiling.compiler import program_for
    from .core.errors import Diagnostic, UsageError
    from .engine.game import Game, whole_argument
    from .program.compiled import Program

    if isinstance(rules, str):
        rules = load(rules)
    program = _own_options(rules, options) if isinstance(rules, Program) else program_for(rules, options)
    if agents is None:
        agents = [HeuristicAgent() for _ in range(whole_argument(players, "players"))]
    for agent in agents:
        if not (callable(getattr(agent, "choose", None)) and callable(getattr(agent, "bid", None))):
            raise UsageError(
                [
                    Diagnostic(
                        f"agents are Agent objects, one a seat, not {agent!r}",
                        hint="an Agent answers choose(game, request) and bid(game, request); "
                        "landlord_dsl.agents.make_agent('bot', seed, seat) makes the command line's",
                    )
                ]
            )
    return Game(program, agents, chance=chance, seed=seed, turn_limit=turn_limit, names=names)


def new_state(
    rules: RuleSet | Program | str,
    players: int = 4,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    turn_limit: int | None = None,
    draws: bool = False,
) -> State:
    """Return a State, a game the caller steps request by request and clones (docs/state.md).

    With a `seed`, dice and shuffles are answered inside, as `new_game(..., seed=seed)` throws them;
    with None, each is a chance request the caller answers (`apply_chance`); with `draws` too, a shuffle
    asks nothing and each card then drawn from the shuffled cards is a chance request (a DrawRequest).

    Example:

        >>> state = ld.new_state("landlords-game-1906", players=2)
        >>> state.is_chance(), type(state.request()).__name__
        (True, 'DiceRequest')

    :param rules: a rule set, a compiled Program, or a shipped edition's name or a .lg path; a rule set is
        compiled once for each set of option values, as by `new_game`.
    :param players: seats.
    :param options: option values by option name; for a Program, only values equal to its own.
    :param seed: the seed of the dice and shuffles, or None to be asked for each.
    :param turn_limit: the turns after which the game stops (default: the rules').
    :param draws: present shuffles as draws (seed None only; docs/state.md, "Shuffles as draws").
    :returns: the state before the first request.
    :raises UsageError: the rules are not for that many players, `players`, `seed` or `turn_limit` is not a
        whole number (or the limit is out of range), `options` are not valid (or differ from a Program's own),
        or `draws` is asked with a seed.
    """
    from .checking.loader import load
    from .compiling.compiler import program_for
    from .engine.state import new_state as new_program_state
    from .program.compiled import Program

    if isinstance(rules, str):
        rules = load(rules)
    program = _own_options(rules, options) if isinstance(rules, Program) else program_for(rules, options)
    return new_program_state(program, players, seed, turn_limit, draws)


def _own_options(program: Program, options: dict[str, Any] | None) -> Program:
    """Return `program` if every value of `options` is the one it was compiled with (they were ignored, silently
    playing other rules than asked); raise UsageError naming the first that is not."""
    from collections.abc import Mapping

    from .checking.options import quoted, truth, whole_number
    from .core.errors import Diagnostic, UsageError

    if options is not None and not isinstance(options, Mapping):
        raise UsageError(f"options are a mapping of option names to values, not {quoted(options)}")
    for name, value in (options or {}).items():
        fixed = program.options.get(name, ...)
        if isinstance(fixed, bool):
            same = truth(value) is fixed
        elif isinstance(fixed, int):
            same = whole_number(value) == fixed
        else:
            same = value == fixed
        if not same:
            own = f"it was compiled with {name}={fixed!r}" if fixed is not ... else f"it has no option {name!r}"
            raise UsageError(
                [
                    Diagnostic(
                        f"option {name}={value!r} is not the Program's own: {own}",
                        hint="a Program is compiled for its option values: give them to "
                        "ld.compile_rules(rules, options), or pass the rule set instead of the Program",
                    )
                ]
            )
    return program


def env(
    rules: RuleSet | str, players: int = 4, options: dict[str, Any] | None = None, **settings: Any
) -> LandlordAECEnv:
    """Return a PettingZoo AEC environment over a rule set (needs the `rl` extra); see docs/rl.md.

    Example:

        >>> environment = ld.env("landlords-game-1906", players=2)
        >>> environment.reset(seed=1)
        >>> environment.agents
        ['player_1', 'player_2']

    :param rules: a rule set, or a shipped edition's name or a .lg path.
    :param players: seats.
    :param options: option values by option name.
    :param settings: `LandlordAECEnv`'s: bots, reward, bid_levels, turn_limit, illegal_action, render_mode,
        illegal_penalty.
    :returns: the environment; each of its agents is a learning seat.
    :raises LandlordError: the `rl` extra is not installed, or the rules do not load.
    """
    from .core.errors import LandlordError

    try:
        from .rl import LandlordAECEnv
    except ImportError as err:
        raise LandlordError(
            f"landlord_dsl.env needs the optional 'rl' extra ({err.name} is missing): pip install 'landlord-dsl[rl]'"
        ) from None
    return LandlordAECEnv(rules, players, options, **settings)


def _show_in_notebooks() -> None:
    """Inside IPython (Jupyter), register how rule sets, games, summaries and analyses are shown
    (presentation/notebook.py); elsewhere, do nothing and import nothing more."""
    import sys

    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    if shell is not None and hasattr(shell, "display_formatter"):
        from .presentation.notebook import register

        register(shell)


_show_in_notebooks()
