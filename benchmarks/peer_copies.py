"""The peer simulator (gamescomputersplay/monopoly) for `bench_peer.py`: as published, and de-logged.

The peer is never part of this repository: a scratch folder holds its source. Its game log can be switched
off, but the log's lines are still built: every `log.add(f"...")` formats its f-string (net worth, cell
names, ...) before `Log.add` looks at `disabled`. That work is dead when the log is off. `delogged_copy`
writes a copy of the peer in which each such statement runs only when its log is on (`if not
log.disabled:`), under other module names so that both copies live in one process. `same_games` proves
the copy plays the same games as the original, throw for throw and move for move.
"""

from __future__ import annotations

import ast
import importlib
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

PACKAGE, SETTINGS = "monopoly", "settings"


def _log_name(node: ast.expr) -> ast.expr | None:
    """Return `node` if it names a log (`log`, `events_log`, `self.log`), else None."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return node if name.endswith("log") else None


class _GuardLogging(ast.NodeTransformer):
    """Runs each statement that only writes to a log (`X.add(...)` on a log, a `log_*` helper handed a log)
    only when that log is on, and renames the peer's modules to the copy's."""

    def __init__(self, package: str, settings: str) -> None:
        self.package, self.settings = package, settings

    def visit_Expr(self, node: ast.Expr) -> ast.stmt:
        call = node.value
        if not isinstance(call, ast.Call) or not isinstance(call.func, (ast.Attribute, ast.Name)):
            return node
        name = call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id
        log = None
        if name == "add" and isinstance(call.func, ast.Attribute):
            log = _log_name(call.func.value)
        elif name.startswith("log_"):
            log = next((a for a in call.args if _log_name(a) is not None), None)
        if log is None:
            return node
        test = ast.UnaryOp(op=ast.Not(), operand=ast.Attribute(value=log, attr="disabled", ctx=ast.Load()))
        return ast.copy_location(ast.If(test=test, body=[node], orelse=[]), node)

    def _renamed(self, module: str) -> str:
        if module == SETTINGS:
            return self.settings
        if module == PACKAGE or module.startswith(PACKAGE + "."):
            return self.package + module[len(PACKAGE) :]
        return module

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.ImportFrom:
        if node.module is not None and node.level == 0:
            node.module = self._renamed(node.module)
        return node

    def visit_Import(self, node: ast.Import) -> ast.Import:
        for alias in node.names:
            if self._renamed(alias.name) != alias.name:
                alias.asname = alias.asname or alias.name.split(".")[0]
                alias.name = self._renamed(alias.name)
        return node


def delogged_copy(folder: Path, into: Path, package: str = "monopoly_delogged") -> tuple[str, str]:
    """Write the de-logged copy of the peer in `folder` into `into`; return its (package, settings) names."""
    settings = f"settings_{package}"
    guard = _GuardLogging(package, settings)
    sources = [(path, into / package / path.relative_to(folder / PACKAGE)) for path in (folder / PACKAGE).rglob("*.py")]
    sources.append((folder / f"{SETTINGS}.py", into / f"{settings}.py"))
    for source, target in sources:
        target.parent.mkdir(parents=True, exist_ok=True)
        tree = guard.visit(ast.parse(source.read_text(encoding="utf-8"), str(source)))
        target.write_text(ast.unparse(ast.fix_missing_locations(tree)) + "\n", encoding="utf-8")
    return package, settings


class PeerModules:
    """One copy of the peer, imported: its game function, dice, player and settings, log switched off."""

    def __init__(self, folder: Path, package: str, settings: str, players: int) -> None:
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
        imported: Callable[[str], ModuleType] = importlib.import_module
        self.game = imported(f"{package}.core.game").monopoly_game
        self.dice = imported(f"{package}.core.dice").Dice
        self.player = imported(f"{package}.core.player").Player
        log_settings = imported(f"{package}.log_settings").LogSettings
        game_settings = imported(settings).GameSettings
        log_settings.KEEP_GAME_LOG = False
        self._scratch = tempfile.TemporaryDirectory()
        log_settings.BANKRUPTCIES_PATH = Path(self._scratch.name) / "bankruptcies.tsv"
        game_settings.players_list = game_settings.players_list[:players]

    def record(self, seeds: range) -> list[tuple]:
        """Play the seeds' games again; return every throw and every move's outcome (player, cash, square,
        result), in order: the trace two copies must share to be playing the same games."""
        trace: list[tuple] = []
        roll, move = self.dice.roll, self.player.make_a_move

        def recorded_roll(dice):
            cast = roll(dice)
            trace.append(("throw", tuple(cast[0])))
            return cast

        def recorded_move(player, *args, **kwargs):
            result = move(player, *args, **kwargs)
            trace.append(("move", player.name, player.money, player.position, str(result)))
            return result

        self.dice.roll, self.player.make_a_move = recorded_roll, recorded_move
        try:
            for s in seeds:
                self.game((s, s))
        finally:
            self.dice.roll, self.player.make_a_move = roll, move
        return trace

    def count(self, seeds: range) -> dict[str, int]:
        """Play the seeds' games again, untimed; return the throws that move a token or try to leave jail
        (the throw of each `make_a_move`), the other throws (a utility's rent), and the player-turns (a move
        again after a double is the same turn)."""
        counts = {"throws": 0, "other_throws": 0, "player_turns": 0}
        roll, move = self.dice.roll, self.player.make_a_move

        def counted_roll(dice):
            key = "throws" if sys._getframe(1).f_code.co_name == "make_a_move" else "other_throws"
            counts[key] += 1
            return roll(dice)

        def counted_move(player, *args, **kwargs):
            if not player.is_bankrupt and sys._getframe(1).f_code.co_name != "make_a_move":  # not a double's
                counts["player_turns"] += 1
            return move(player, *args, **kwargs)

        self.dice.roll, self.player.make_a_move = counted_roll, counted_move
        try:
            for s in seeds:
                self.game((s, s))
        finally:
            self.dice.roll, self.player.make_a_move = roll, move
        return counts


def load_peer(folder: Path, players: int, delogged: bool, scratch: Path) -> PeerModules:
    """Return the peer in `folder`, as published or de-logged (its copy written under `scratch`)."""
    if not delogged:
        return PeerModules(folder, PACKAGE, SETTINGS, players)
    package, settings = delogged_copy(folder, scratch)
    return PeerModules(scratch, package, settings, players)


def same_games(published: PeerModules, delogged: PeerModules, seeds: range) -> int:
    """Return how many of the seeds' games the two copies play identically, throw for throw and move for move."""
    return sum(published.record(range(s, s + 1)) == delogged.record(range(s, s + 1)) for s in seeds)
