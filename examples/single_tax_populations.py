"""Do the Single Tax report's conclusions depend on who plays? (issue 30 §4)

    python examples/single_tax_populations.py             # 200 games per table
    python examples/single_tax_populations.py --games 40 --jobs 2

docs/single-tax-report.md rests on games between four copies of the
heuristic bot. This plays the regimes the report's conclusions compare under
three populations of players, on the same seeds:

* heuristic: four heuristic bots (the report's own tables);
* mixed: an MCTS searcher, a heuristic bot, a rollout searcher and a random
  player, the seating turned one place every game, so each kind sits in
  every seat (and is the demonstration's landlord) a quarter of the time;
* all-MCTS: four MCTS searchers.

Each conclusion is a paired comparison of two regimes on the same seeds and
the same seating; its verdict (rises, falls, or no change the games can
detect, at 95 %) is worked out afresh under each population, and the page
says whether the verdict is the same under all three. The per-game values
go to docs/assets/single-tax-populations.json, and the report's section
"Does it depend on the players?" is written from them (here, and by
examples/single_tax_report.py when it rewrites the page). tests/test_figures.py
replays each table's first game and compares the section with the data.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import figure_data
from population_tables import Verdicts, play_every_cell, seats
from population_tables import reading as population_reading

import landlord_dsl as ld
from landlord_dsl.core.measures import gini
from landlord_dsl.studies.paired import Interval, interval
from landlord_dsl.studies.simulate import play_one

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "assets" / "single-tax-populations.json"
PAGE = ROOT / "docs" / "single-tax-report.md"
REGION = "populations"
SCRIPT = "examples/single_tax_populations.py"

MCTS = "mcts:20"  # iterations a decision: about a second of CPU a 1906 game for four searchers
MIXED = (MCTS, "bot", "rollout:4", "random")
POPULATIONS = {
    "heuristic": "four heuristic bots",
    "mixed": f"`{MCTS}`, `bot`, `rollout:4` and `random`, the seating turned a place each game",
    "all-MCTS": f"four `{MCTS}` searchers",
}
REGIMES = {
    "ordinary, monopolist": ("landlords-game-1906", {"single_tax": "never"}),
    "ordinary, Single Tax": ("landlords-game-1906", {"single_tax": "from_start"}),
    "demonstration, monopolist": ("landlords-game-1906-monopolist-demonstration", {"single_tax": "never"}),
    "demonstration, Single Tax": ("landlords-game-1906-monopolist-demonstration", {"single_tax": "from_start"}),
}
GINI_ROUND = 10  # an inequality measured while every game is still running (they last about 28 rounds)
MEASURES = {
    "turns": "turns a game",
    "gini_wealth": "final Gini of wealth",
    "gini_cash": "final Gini of cash",
    "gini_round": f"Gini of wealth after round {GINI_ROUND}",
    "landlord_wins": "the first seat's (the landlord's) share of wins",
}
# each conclusion of the report: a measure, compared between two regimes on the same seeds
CONCLUSIONS = [
    ("demonstration", "landlord_wins"),
    ("demonstration", "gini_wealth"),
    ("demonstration", "gini_cash"),
    ("ordinary", "gini_cash"),
    ("ordinary", "gini_wealth"),
    ("ordinary", "gini_round"),
    ("ordinary", "turns"),
]


def play_values(population: str, regime: str, start: int, stop: int) -> list[dict[str, float]]:
    """Return the measures of games start..stop-1 of `regime` under `population`, one dict a game."""
    edition, options = REGIMES[regime]
    program = ld.compile_rules(ld.load_edition(edition), options)
    out = []
    for seed in range(start, stop):
        r = play_one(program, 4, seed, seats=seats(population, seed, 4, MCTS, MIXED))
        by_round = r.gini_by_round
        out.append(
            {
                "turns": r.turns,
                "gini_wealth": gini(r.scores),
                "gini_cash": gini(r.cash),
                "gini_round": by_round[min(GINI_ROUND, len(by_round) - 1)],
                "landlord_wins": 1 / len(r.winners) if 0 in r.winners else 0.0,
            }
        )
    return out


def run(games: int, jobs: int) -> dict[str, Any]:
    """Return the per-game measures of every population and regime (`games` seeds each) and their check."""
    values = play_every_cell(play_values, list(POPULATIONS), list(REGIMES), games, jobs)
    return {"games": games, "check": check(), "values": values}


def check() -> str:
    """Return the digest of the first game of every population and regime (tests/test_figures.py replays it)."""
    return figure_data.digest({f"{p} / {r}": play_values(p, r, 0, 1) for p in POPULATIONS for r in REGIMES})


WORDS = Verdicts("rises", "falls", "no detectable change")


def reading(effects: dict[str, Interval]) -> str:
    """Return what the populations' effects on one conclusion (after minus before) say together."""
    return population_reading(effects, WORDS)


def effects_of(data: dict[str, Any]) -> list[tuple[str, str, dict[str, Interval]]]:
    """Return each conclusion (game, measure) with its effect under each population, as paired intervals."""
    out = []
    for game, measure in CONCLUSIONS:
        effects = {}
        for population in POPULATIONS:
            before = data["values"][population][f"{game}, monopolist"]
            after = data["values"][population][f"{game}, Single Tax"]
            effects[population] = interval([b[measure] - a[measure] for a, b in zip(before, after)])
        out.append((game, measure, effects))
    return out


def in_short(data: dict[str, Any]) -> str:
    """Return one sentence for the report's summary: how many conclusions keep their direction under every
    population, and which do not."""
    readings = [(game, measure, reading(effects)) for game, measure, effects in effects_of(data)]
    other = [f"{MEASURES[m]}, {g} game: {r.strip('*')}" for g, m, r in readings if "under every population" not in r]
    kept = len(readings) - len(other)
    tail = f" (the exception{'s' if len(other) > 1 else ''}: {'; '.join(other)})" if other else ""
    return (
        f"**Other players**: {kept} of the {len(readings)} comparisons keep their direction under heuristic, "
        f"mixed and searching tables{tail}; see *Does it depend on the players?*"
    )


def section(data: dict[str, Any]) -> str:
    """Return the Markdown of the report's section on populations, from the data `run` returned."""
    games = data["games"]
    lines = [
        "## Does it depend on the players?",
        "",
        "The tables above are games between four copies of one heuristic bot. Here each conclusion",
        f"is measured again under three populations of players, {games} games each on the same",
        "seeds, and paired: the two regimes of a comparison play the same seeds with the same seating.",
        "",
        *[f"* **{name}**: {what};" for name, what in POPULATIONS.items()],
        "",
        "A cell gives the mean change from the monopolist rules to the Single Tax (from the start), paired",
        "game by game, with its 95 % interval. A change is *detected* when its interval leaves out zero;",
        "two populations' effects *differ* when the interval of their difference does.",
        "",
        "| game | measure | " + " | ".join(POPULATIONS) + " | together |",
        "|---|---|" + "---:|" * len(POPULATIONS) + "---|",
    ]
    for game, measure, effects in effects_of(data):
        cells = [f"{e.mean:+.3f} [{e.low:+.3f}, {e.high:+.3f}]" for e in effects.values()]
        lines.append(f"| {game} | {MEASURES[measure]} | " + " | ".join(cells) + f" | {reading(effects)} |")
    regenerate = f"python {SCRIPT}" + ("" if games == 200 else f" --games {games}")
    lines += [
        "",
        f"Regenerate this section with `{regenerate}`. The searchers' budgets are small (about a second",
        "of CPU a game for four of them), so *all-MCTS* is a table of modest searchers, not of strong",
        "players; a conclusion that holds under all three holds for players of these kinds, no more.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per population and regime (default 200)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    started = time.process_time()
    data = run(args.games, args.jobs)
    DATA.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    PAGE.write_text(figure_data.replace_region(PAGE.read_text(encoding="utf-8"), REGION, SCRIPT, section(data)))
    print(f"wrote {DATA} and {PAGE} ({time.process_time() - started:.0f} s CPU here)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
