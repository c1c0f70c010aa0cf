"""Pyodide benchmark: the engine under Pyodide in Node against CPython, stage by stage (issue 29).

    bash .ci/pyodide                                  # once: Node, npm's pyodide, the dependency wheels
    python benchmarks/bench_pyodide.py                # 1906, 3 seats, 20 games, table
    python benchmarks/bench_pyodide.py --repeat 3     # each stage's least of 3 runs
    python benchmarks/bench_pyodide.py --edition monopoly-1933-atlantic-city --games 5 --json

The same program runs in a fresh CPython process (this one's interpreter, the working tree on its path)
and in a fresh Pyodide in Node (the project's wheel, built from the working tree, and the dependency
wheels .ci/pyodide downloaded), each with an empty parser cache. CPU milliseconds (CPython's
`time.process_time`; in Pyodide, where that is the wall clock, Node's `process.cpuUsage()`, which counts
V8's compiler and garbage-collector threads too) and wall-clock milliseconds of:

* import: `import landlord_dsl`;
* parser built: the grammar's LALR parser built afresh (`grammar.lark_parser()`, an empty cache);
* parser cached: the same, loaded from the cache file the build just wrote;
* load: the edition parsed, merged and checked (`ld.load_edition`);
* compile: `ld.compile_rules`;
* driven games: G seeded games of heuristic bots, `ld.new_game(...).play()`;
* stepped games: the same games through `ld.new_state`, each request answered by a HeuristicAgent.

and, for Pyodide alone, Node's load of Pyodide and the unpacking of the wheels. The ratios come from
this one run (of the least figures, with --repeat).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))  # the Pyodide runner the test uses

import pyodide_support  # noqa: E402

PROGRAM = """
import json
import os
import sys
import tempfile
import time

if sys.platform == "emscripten":  # there time.process_time is the wall clock: ask Node for its CPU time
    import js

    def cpu():
        used = js.process.cpuUsage()
        return (used.user + used.system) / 1e6
else:
    cpu = time.process_time

os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp()  # an empty parser cache
marks = [(time.perf_counter(), cpu())]
import landlord_dsl as ld
from landlord_dsl.language import grammar
from landlord_dsl.program.requests import DecisionRequest

marks.append((time.perf_counter(), cpu()))
grammar.lark_parser()
marks.append((time.perf_counter(), cpu()))
grammar.lark_parser.cache_clear()
grammar.lark_parser()
marks.append((time.perf_counter(), cpu()))
rules = ld.load_edition(EDITION)
marks.append((time.perf_counter(), cpu()))
program = ld.compile_rules(rules)
marks.append((time.perf_counter(), cpu()))
driven = [ld.new_game(program, players=PLAYERS, seed=seed).play() for seed in range(GAMES)]
marks.append((time.perf_counter(), cpu()))
bot = ld.HeuristicAgent()
stepped = []
for seed in range(GAMES):
    state = ld.new_state(program, players=PLAYERS, seed=seed)
    while not state.is_terminal():
        request = state.request()
        if isinstance(request, DecisionRequest):
            state.apply(bot.choose(state.game, request))
        else:
            state.apply(bot.bid(state.game, request))
    stepped.append(state.log_lines())
marks.append((time.perf_counter(), cpu()))
json.dumps({
    "ms": [{"wall": 1000 * (b[0] - a[0]), "cpu": 1000 * (b[1] - a[1])} for a, b in zip(marks, marks[1:])],
    "logs": [len(log) for log in stepped],
})
"""

STAGES = ["import", "parser built", "parser cached", "load", "compile", "driven games", "stepped games"]
SIDES = ["cpython", "pyodide", "node"]  # node: Pyodide's load and the wheels' unpacking, outside Python


def program(edition: str, players: int, games: int) -> str:
    """Return the measuring program for that edition, seats and number of games."""
    return f"EDITION = {edition!r}\nPLAYERS = {players}\nGAMES = {games}\n" + PROGRAM


def measure_once(edition: str, players: int, games: int, wheel: Path | None = None) -> dict:
    """Return each stage's milliseconds under CPython, under Pyodide, and Node's load and unpack of Pyodide.

    Each side's figures are `{stage: {"wall": ms, "cpu": ms}}`. `wheel` is the project's wheel to run in
    Pyodide (default: one built from the working tree now).

    :raises RuntimeError: Pyodide is not installed (.ci/pyodide), or a run failed.
    """
    reason = pyodide_support.missing()
    if reason is not None:
        raise RuntimeError(f"{reason}: run bash .ci/pyodide")
    text = program(edition, players, games)
    with tempfile.TemporaryDirectory() as scratch:
        wheel = wheel or pyodide_support.build_wheel(Path(scratch))
        result, node_ms = pyodide_support.run(text, wheel, Path(scratch))
        pyodide = json.loads(result)
        script = Path(scratch) / "cpython.py"
        # the same program, its last expression printed
        script.write_text(text.rstrip().replace("\njson.dumps(", "\nprint(json.dumps(") + ")\n", encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, check=True)
        cpython = json.loads(done.stdout)
    if cpython["logs"] != pyodide["logs"]:
        raise RuntimeError(f"the stepped games differ: {cpython['logs']} under CPython, {pyodide['logs']} in Pyodide")
    return {
        "edition": edition,
        "players": players,
        "games": games,
        "python": ".".join(map(str, sys.version_info[:3])),
        "pyodide version": pyodide_support.pinned_version(),
        "cpython": dict(zip(STAGES, cpython["ms"])),
        "pyodide": dict(zip(STAGES, pyodide["ms"])),
        "node": {"load Pyodide": node_ms["load"], "unpack wheels": node_ms["unpack"]},
    }


def measure(edition: str, players: int, games: int, repeat: int = 1, wheel: Path | None = None) -> dict:
    """Return `measure_once`'s figures, each the least of `repeat` runs (fresh processes each time)."""
    runs = [measure_once(edition, players, games, wheel) for _ in range(repeat)]
    figures = runs[0]
    for side in SIDES:
        figures[side] = {
            stage: {clock: min(run[side][stage][clock] for run in runs) for clock in ("wall", "cpu")}
            for stage in figures[side]
        }
    return {**figures, "repeat": repeat}


def table(figures: dict) -> str:
    """Return the figures as a text table: CPU milliseconds of each side, their ratio, Pyodide's wall time."""
    lines = [
        f"{figures['edition']}, {figures['players']} seats, {figures['games']} games: CPython {figures['python']}"
        f" against Pyodide {figures['pyodide version']} in Node (ms, the least of {figures['repeat']} runs)",
        f"{'stage':<16}{'CPython CPU':>12}{'Pyodide CPU':>12}{'ratio':>8}{'Pyodide wall':>14}",
    ]
    for stage in STAGES:
        here, there = figures["cpython"][stage], figures["pyodide"][stage]
        ratio = f"{there['cpu'] / here['cpu']:.2f}x" if here["cpu"] > 0 else "-"
        lines.append(f"{stage:<16}{here['cpu']:>12.1f}{there['cpu']:>12.1f}{ratio:>8}{there['wall']:>14.1f}")
    for stage, ms in figures["node"].items():
        lines.append(f"{stage:<16}{'':>12}{ms['cpu']:>12.1f}{'':>8}{ms['wall']:>14.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="landlords-game-1906")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each side; each stage's least is kept")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args(argv)
    figures = measure(args.edition, args.players, args.games, args.repeat)
    print(json.dumps(figures, indent=2) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
