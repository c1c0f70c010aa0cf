"""How fast the Play page answers (issue 32 §1): cold load to the first decision, then each decision.

    python benchmarks/bench_play_page.py [--edition E] [--repeat N] [--site DIR] [--json]

Builds the page (examples/build_play_page.py; needs `bash .ci/pyodide` and Chromium), serves it on a
loopback port and, `--repeat` times, opens it in a fresh headless Chromium (an empty profile: nothing
cached), clicks "Start the game" as soon as Python is ready (seat 1 human, two bots, seed 1) and answers
every decision with its first option (every bid with Pass) to the end. It reports, as the page measures
them (`window.landlordPlay.timings`, milliseconds of the page's own clock, from the navigation):

* `ready` (the worker's clock, from its start): the worker has loaded Pyodide, unpacked the wheels, put
  the parser tables in place and imported the package (its stages: `pyodide`, `wheels`, `imported`);
* `first decision`: the first human decision is on screen (the goal: within 10 s), and the CPU time
  Chromium's processes used until then (all its processes, from their start);
* `decision p50/p95/max`: from an answer's click to the next decision (or the end) on screen, the bots'
  turns between included (the goal: 300 ms at the 95th percentile).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for folder in (ROOT / "tests", ROOT / "examples", ROOT):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from build_play_page import build  # noqa: E402

from cdp import Browser, Server, find_chromium  # noqa: E402

SETTLED = "['deciding', 'over'].includes(document.body.dataset.phase) || document.getElementById('message').textContent"


def tree_cpu_ms(pid: int) -> float:
    """Return the CPU time (user and system, milliseconds) the process `pid` and its descendants used so
    far (Linux's /proc; 0 elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    children: dict[int, list[int]] = {}
    used: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        this = int(entry.parent.name)
        children.setdefault(int(fields[1]), []).append(this)
        used[this] = int(fields[11]) + int(fields[12])  # utime, stime
    total, todo = 0, [pid]
    while todo:
        this = todo.pop()
        total += used.get(this, 0)
        todo += children.get(this, [])
    return total * 1000 / ticks


def one_game(origin: str, edition: str, work: Path) -> dict:
    """Open the page cold, play one game through it; return the page's timings (milliseconds)."""
    executable = find_chromium()
    if executable is None:
        raise RuntimeError("no Chromium on PATH")
    with Browser(executable, work / "profile") as browser:
        browser.goto(origin + "/index.html")
        browser.wait_for("document.body && document.body.dataset.phase === 'setup'", timeout=300, every=0.005)
        browser.evaluate(f"document.getElementById('edition').value = {json.dumps(edition)}")
        browser.evaluate("document.getElementById('start').click()")
        browser.wait_for(SETTLED, timeout=300, every=0.005)
        cpu = tree_cpu_ms(browser.process.pid)  # Chromium's CPU to the first decision: the machine's load aside
        while True:
            browser.wait_for(SETTLED, timeout=300, every=0.005)
            phase = browser.evaluate("document.body.dataset.phase")
            if phase != "deciding":
                break
            bid = browser.evaluate("!document.getElementById('bidding').hidden")
            browser.evaluate("document.querySelector(%r).click()" % ("#pass" if bid else "#options button.option"))
        message = browser.evaluate("document.getElementById('message').textContent")
        if phase != "over":
            raise RuntimeError(f"the game did not end: {message}")
        timings = browser.evaluate("landlordPlay.timings")
        timings["cpu"] = cpu
        return timings


def percentile(values: list[float], q: float) -> float:
    """Return the q-th percentile (0-100) of values, by linear interpolation."""
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def measure(edition: str, repeat: int, site: Path | None = None) -> dict:
    """Return the figures of `repeat` cold games of `edition` on the page (built into a temporary folder
    unless `site` is given)."""
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        if site is None:
            site = work / "site"
            build(site)
        runs = []
        with Server(site) as server:
            for k in range(repeat):
                runs.append(one_game(server.origin, edition, work / f"run{k}"))
    answers = [ms for run in runs for ms in run["answers"]]
    return {
        "edition": edition,
        "runs": len(runs),
        "ready": [run["ready"] for run in runs],
        "stages": [run["stages"] for run in runs],
        "first_decision": [run["firstDecision"] for run in runs],
        "first_decision_cpu": [run["cpu"] for run in runs],
        "decisions": len(answers),
        "decision_p50": percentile(answers, 50),
        "decision_p95": percentile(answers, 95),
        "decision_max": max(answers),
        "load_average": os.getloadavg()[0],
        "cpus": os.cpu_count(),
    }


def table(figures: dict) -> str:
    """Return the figures as a small text table (milliseconds)."""

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values):8.0f} (min {min(values):.0f}, max {max(values):.0f})"

    lines = [
        f"{figures['edition']}: {figures['runs']} cold loads, {figures['decisions']} decisions "
        f"(load average {figures['load_average']:.1f} on {figures['cpus']} cores)",
        f"  Python ready      {ms(figures['ready'])} ms",
        f"    Pyodide loaded  {ms([s['pyodide'] for s in figures['stages']])} ms",
        f"    package in      {ms([s['imported'] for s in figures['stages']])} ms",
        f"  first decision    {ms(figures['first_decision'])} ms",
        f"    Chromium's CPU  {ms(figures['first_decision_cpu'])} ms",
        f"  decision p50      {figures['decision_p50']:8.0f} ms",
        f"  decision p95      {figures['decision_p95']:8.0f} ms",
        f"  decision max      {figures['decision_max']:8.0f} ms",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="landlords-game-1906")
    parser.add_argument("--repeat", type=int, default=3, help="cold loads, each a whole game (default 3)")
    parser.add_argument("--site", type=Path, help="an already built page (default: build one)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    started = time.monotonic()
    figures = measure(args.edition, args.repeat, args.site)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(table(figures))
        print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
