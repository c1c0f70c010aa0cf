"""The engine runs with no C extension and no greenlet: a stepped game under Pyodide in Node (issue 29).

The project's wheel, built from the working tree, and pure-Python wheels of its dependencies are unpacked
into Pyodide (CPython compiled to WebAssembly, where no extension module built for Linux, greenlet's included,
can load);
there a shipped edition is played through `ld.new_state`, the heuristic bot answering each request, and
its log must be byte for byte the log of the same game played here under CPython. The CLI's `play` is
compared the same way.

Needs Node and what `.ci/pyodide` installs (npm's pyodide package, the dependency wheels); without them
the test skips, unless LANDLORD_REQUIRE_PYODIDE=1 (set by .ci/run), when it fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pyodide_support import ROOT, build_wheel, compiled_files, missing, run

pytestmark = pytest.mark.slow

# Run both here and in Pyodide: the same code, so that only the interpreter differs.
GAME = '''
import contextlib
import io

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.program.requests import DecisionRequest


def stepped_log(edition, players, seed):
    """Return the log lines of a game stepped through ld.new_state, the heuristic bot answering."""
    state = ld.new_state(edition, players=players, seed=seed)
    bot = ld.HeuristicAgent()
    while not state.is_terminal():
        request = state.request()
        if isinstance(request, DecisionRequest):
            state.apply(bot.choose(state.game, request))
        else:
            state.apply(bot.bid(state.game, request))
    return state.log_lines()


def cli_output(*args):
    """Return the CLI's exit status and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            status = main(list(args))
        except SystemExit as exit:
            status = exit.code
    return status or 0, out.getvalue()
'''

IN_PYODIDE = """
import importlib.util
import json
import sys

result = {
    "platform": sys.platform,
    "log": stepped_log("landlords-game-1906", 3, 13),
    "cli": cli_output("play", "landlords-game-1906", "--seed", "7"),
    "greenlet": importlib.util.find_spec("greenlet") is not None or "greenlet" in sys.modules,
    # every module loaded from an installed wheel: an extension module among them could not have loaded
    "installed": sorted(
        {m.__file__ for m in list(sys.modules.values()) if "site-packages" in (getattr(m, "__file__", None) or "")}
    ),
}
json.dumps(result)
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the project's wheel built from the working tree, once Pyodide is known to be there."""
    reason = missing()
    if reason is not None:
        if os.environ.get("LANDLORD_REQUIRE_PYODIDE") == "1":
            pytest.fail(f"{reason}; CI requires Pyodide (LANDLORD_REQUIRE_PYODIDE=1): run .ci/pyodide")
        pytest.skip(f"{reason}; bash .ci/pyodide installs it")
    built = build_wheel(tmp_path_factory.mktemp("wheel"))
    assert built.name.endswith("-py3-none-any.whl"), built.name
    assert compiled_files(built) == []
    return built


def here() -> dict[str, Any]:
    """Return GAME's functions defined under this process's CPython."""
    namespace: dict[str, Any] = {}
    exec(GAME, namespace)
    return namespace


# One test, so that pytest-xdist's workers do not each load Pyodide for a part of it.
def test_a_1906_game_stepped_under_pyodide_logs_byte_for_byte_what_cpython_logs(wheel, tmp_path):
    result, _ = run(GAME + IN_PYODIDE, wheel, tmp_path)
    there = json.loads(result)
    assert there["platform"] == "emscripten"
    # only pure Python came from the wheels: an extension module could not have loaded; no greenlet anywhere
    installed = there["installed"]
    assert any("/landlord_dsl/" in f for f in installed) and any("/lark/" in f for f in installed)
    assert [f for f in installed if not f.endswith(".py")] == []
    assert there["greenlet"] is False

    expected = here()["stepped_log"]("landlords-game-1906", 3, 13)
    assert len(expected) > 100 and expected[-1].startswith('["end"')
    assert "\n".join(there["log"]).encode("utf-8") == "\n".join(expected).encode("utf-8")

    status, output = here()["cli_output"]("play", "landlords-game-1906", "--seed", "7")
    assert status == 0 and "Final scores" in output
    assert there["cli"] == [status, output]


def test_the_benchmark_reports_every_stage_on_both_sides(wheel):
    # benchmarks/bench_pyodide.py, one quick 1904 game: no timing asserted, only that every figure is there
    spec = importlib.util.spec_from_file_location("_bench_pyodide", ROOT / "benchmarks" / "bench_pyodide.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.measure("landlords-game-1904", players=2, games=1, wheel=wheel)
    for side in ("cpython", "pyodide"):
        assert set(figures[side]) == set(bench.STAGES)
        assert all(ms["wall"] > 0 and ms["cpu"] >= 0 for ms in figures[side].values())
    assert set(figures["node"]) == {"load Pyodide", "unpack wheels"} and figures["node"]["load Pyodide"]["cpu"] > 0
    assert bench.table(figures).count("\n") == len(bench.STAGES) + 3
