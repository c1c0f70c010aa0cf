"""Loading benchmark: how long reading an edition takes, stage by stage, and the command line's start-up.

    python benchmarks/bench_load.py                 # every shipped edition, table
    python benchmarks/bench_load.py --repeat 50 --json
    python benchmarks/bench_load.py --instructions   # also valgrind's count (minutes an edition)

Warm (in this process, the grammar already loaded), for each edition, the
best of R runs in CPU time (`time.process_time`) of:

* parse: the text to the typed AST (`parser.parse`: lexing, LALR parsing and
  building the nodes, which happens during the parse);
* check: the checker proper (`checker.check_declarations`);
* fixed values: working out, under the default options, every constant and
  generating the rules' Python (`compiler.fixed_value_problems`, which
  `landlord-dsl check` and compiling run; loading has not run it since the
  package was laid out by stage, which took about half of the load time);
* load: all of `loader.load_modules(parse(...))`, what `load_edition` does
  after reading the file;
* compile: `compile_ruleset(rules)` under the default options (the fixed
  values, generating the rules' Python and building the Program from it);
* end to end: issue 31's goal figure, a rule file to a first game ready:
  `ld.new_game(ld.load_edition(path), players=N)` (reading the file, parse,
  check, compile, and the Game made; N is 4, or the nearest the edition
  allows). Each run parses, checks and generates the rules' Python afresh;
  the code Python compiles from it is taken from the private cache after
  the first run, as a module's bytecode is from its .pyc
  (compiling/code_cache.py).

Cold (a fresh Python for each run, so imports and the grammar's loading from
the per-user parser cache count too; the modules' bytecode is cached, as an
installed package's is, by an untimed run first, even under
PYTHONDONTWRITEBYTECODE), the best of C runs of the CPU time the child used
(`resource.getrusage`), and of its wall time: loading the edition through
`landlord_dsl.load_edition`, `landlord-dsl --help`, and `landlord-dsl list`;
and `python -c pass`, Python's own start-up, which is part of every other
cold figure and none of it ours.

With --instructions, also the instructions valgrind counts for one warm
end-to-end load of each edition (a process doing three less one doing one,
halved; callgrind as bench_instructions.py runs it): a figure machine load
cannot move. No parsed file is cached: only the parser's tables, its
reductions' code and the rules' compiled code are.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from time import perf_counter, process_time

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # benchmark the working tree next to this file, installed or not

import landlord_dsl as ld  # noqa: E402
from landlord_dsl.checking import loader  # noqa: E402
from landlord_dsl.checking.checker import check_declarations  # noqa: E402
from landlord_dsl.compiling import compiler  # noqa: E402
from landlord_dsl.core.resources import editions_dir  # noqa: E402
from landlord_dsl.language import parser  # noqa: E402
from landlord_dsl.language.grammar import lark_parser  # noqa: E402
from landlord_dsl.language.sourcefile import read_source  # noqa: E402


def best_cpu(run, repeat: int) -> float:
    """Return the least CPU time, in seconds, of `repeat` calls of `run`."""
    best = float("inf")
    for _ in range(repeat):
        c0 = process_time()
        run()
        best = min(best, process_time() - c0)
    return best


def warm(path: Path, repeat: int) -> dict[str, float]:
    """Return the best warm CPU time in milliseconds of each loading stage of the edition at `path`."""
    text, name = read_source(path), str(path)
    module = parser.parse(text, name)
    sources = {name: parser.source_of(module)}
    ruleset = loader.load_modules([module], path)
    lo, hi = compiler.compile_ruleset(ruleset).players
    players = min(max(4, lo), hi)
    stages = {
        "parse": lambda: parser.parse(text, name),
        "check": lambda: check_declarations(module.header, list(module.declarations), sources),
        "fixed values": lambda: compiler.fixed_value_problems(ruleset),
        "load": lambda: loader.load_modules([parser.parse(text, name)], path),
        "compile": lambda: compiler.compile_ruleset(ruleset),
        "end to end": lambda: ld.new_game(ld.load_edition(path), players=players),
    }
    return {stage: 1000 * best_cpu(run, repeat) for stage, run in stages.items()}


def cold(argv: list[str], repeat: int) -> dict[str, float]:
    """Return the best CPU and wall time in milliseconds of `repeat` fresh processes running `argv`."""
    cpu = wall = float("inf")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # modules load from their cached bytecode, as installed ones do
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)  # (untimed: writes it)
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
        wall = min(wall, perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {"cpu": 1000 * cpu, "wall": 1000 * wall}


_END_TO_END = """
import sys
sys.path.insert(0, {root!r})
import landlord_dsl as ld
for _ in range({runs}):
    ld.new_game(ld.load_edition({path!r}), players={players})
"""


def instructions(path: Path) -> float:
    """Return the instructions valgrind counts for one warm end-to-end load of the edition at `path`."""
    from bench_instructions import counted  # (beside this script)

    lo, hi = compiler.compile_ruleset(loader.load(path)).players
    players = min(max(4, lo), hi)
    run = {
        runs: counted(_END_TO_END.format(root=str(ROOT), runs=runs, path=str(path), players=players)) for runs in (1, 3)
    }
    return (run[3] - run[1]) / 2


def record(path: Path, figures: dict, argv: list[str]) -> None:
    """Add the end-to-end figures to the history file at `path`: each edition's best warm CPU seconds a load
    and, where counted, its instructions."""
    import datetime

    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    from history import add, commit, machine  # (beside this script; needs pyperf)

    metadata = {
        "commit": commit(),
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "command": " ".join(["python benchmarks/bench_load.py", *argv]),
        "load": "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg()),
    }
    for edition, row in figures["warm"].items():
        add(path, f"{edition}: a rule file to a first game, CPU s per load", [row["end to end"] / 1000], metadata)
    for edition, count in figures.get("instructions", {}).items():
        add(path, f"{edition}: a rule file to a first game, instructions", [count], metadata, unit="integer")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=20, help="warm runs per stage (the best is kept)")
    ap.add_argument("--cold", type=int, default=5, help="fresh processes per cold figure (the best is kept)")
    ap.add_argument("--edition", action="append", help="only this edition (name); repeatable")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument(
        "--instructions", action="store_true", help="also valgrind's count of a warm end-to-end load (minutes each)"
    )
    ap.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="add the end-to-end figures to a history file (pyperf JSON, e.g. benchmarks/history/load.json)",
    )
    args = ap.parse_args(argv)
    paths = sorted(editions_dir().glob("*.lg"))
    if args.edition:
        paths = [p for p in paths if p.stem in args.edition]
    lark_parser()
    figures: dict = {"warm": {p.stem: warm(p, args.repeat) for p in paths}, "cold": {}}
    script = Path(sys.executable).with_name("landlord-dsl")  # the console script, as users start it
    cli = [str(script)] if script.exists() else [sys.executable, "-m", "landlord_dsl"]
    figures["cold"]["python -c pass"] = cold([sys.executable, "-c", "pass"], args.cold)  # Python's own start-up
    for p in paths:
        load = f"import landlord_dsl as ld; ld.load_edition({p.stem!r})"
        figures["cold"][f"load {p.stem}"] = cold([sys.executable, "-c", load], args.cold)
    figures["cold"]["landlord-dsl --help"] = cold(cli + ["--help"], args.cold)
    figures["cold"]["landlord-dsl list"] = cold(cli + ["list"], args.cold)
    if args.instructions:
        figures["instructions"] = {p.stem: instructions(p) for p in paths}
    if args.record:
        record(args.record, figures, argv if argv is not None else sys.argv[1:])
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    stages = ["parse", "check", "fixed values", "load", "compile", "end to end"]
    print(f"warm, best of {args.repeat}, CPU ms")
    print(f"{'edition':32}" + "".join(f"{s:>14}" for s in stages))
    for name, row in figures["warm"].items():
        print(f"{name:32}" + "".join(f"{row[s]:14.1f}" for s in stages))
    print(f"\ncold (fresh process), best of {args.cold}, ms")
    print(f"{'command':44}{'CPU':>10}{'wall':>10}")
    for name, row in figures["cold"].items():
        print(f"{name:44}{row['cpu']:10.1f}{row['wall']:10.1f}")
    if args.instructions:
        print("\nend to end, warm, millions of instructions (valgrind)")
        for name, count in figures["instructions"].items():
            print(f"{name:32}{count / 1e6:14.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
