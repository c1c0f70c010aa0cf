"""Running many seeded games and summarising what happened."""

from __future__ import annotations

import statistics
from typing import Any, Callable, Sequence

import attrs

from .agents import make_agent
from .compiler import Program
from .engine import Game
from .errors import visible


@attrs.frozen
class GameRecord:
    """What one simulated game produced."""

    seed: int
    turns: int
    rounds: int
    end_reason: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    conserved: bool
    gini_by_round: tuple[float, ...] = ()  # Gini of the seats' wealth after setup and after each round
    prosperity: bool = False  # the poorest player ended with at least twice the smallest starting money
    cash: tuple[int, ...] = ()  # every seat's cash at the end


def gini(values: Sequence[float]) -> float:
    """Return the Gini coefficient of non-negative values (0 = equal, near 1 = one holds all)."""
    xs = sorted(max(0.0, float(v)) for v in values)
    n, total = len(xs), sum(xs)
    if n == 0 or total == 0:
        return 0.0
    weighted = sum((i + 1) * x for i, x in enumerate(xs))
    return (2 * weighted) / (n * total) - (n + 1) / n


def play_one(program: Program, players: int, seed: int, seats: Sequence[str] | None = None) -> GameRecord:
    """Play one seeded game with agents of the given kinds (bots by default), tracking wealth by round.

    Wealth is the edition's score formula. Prosperity (Magie's test) holds
    when the poorest player's final wealth is at least twice the smallest
    starting money, the money a seat received from unlimited accounts
    (the bank) during setup.
    """
    kinds = list(seats) if seats else ["bot"] * players
    game = Game(program, [make_agent(k, seed, i) for i, k in enumerate(kinds)], seed=seed)
    game.track_wealth()
    result = game.play()
    history = game.wealth_history or [result.scores]
    start = min(starting_money(game))
    return GameRecord(seed, result.turns, result.rounds, result.end_reason, result.scores, result.winners,
                      game.conserved(), tuple(round(gini(w), 4) for w in history),
                      start > 0 and min(result.scores) >= 2 * start, tuple(game.cash(i) for i in range(game.n)))


def starting_money(game: Game) -> list[int]:
    """Return what each seat received from unlimited accounts before the first turn."""
    money = [0] * game.n
    for event in game.log:
        if event[0] == "turn":
            break
        if event[0] == "pay" and not game.finite[event[3]] and event[4] >= game.nacc:
            money[event[4] - game.nacc] += event[2]
    return money


def simulate(program: Program, games: int, players: int, seed: int = 0,
             progress: Callable[[int, int], None] | None = None) -> list[GameRecord]:
    """Play `games` games with seeds seed, seed+1, ...; return their records."""
    records = []
    for i in range(games):
        records.append(play_one(program, players, seed + i))
        if progress is not None:
            progress(i + 1, games)
    return records


def summarise(records: Sequence[GameRecord], players: int) -> dict[str, Any]:
    """Return the summary shown by `landlord-dsl simulate` (also its --json output)."""
    turns = [r.turns for r in records]
    wins = [0.0] * players
    for r in records:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    spreads = [max(r.scores) - min(r.scores) for r in records]
    ginis = [gini(r.scores) for r in records]
    by_round: list[list[float]] = []
    for r in records:
        for i, value in enumerate(r.gini_by_round):
            if i == len(by_round):
                by_round.append([])
            by_round[i].append(value)
    # report a round while at least half of the games are still running (or ended after it)
    gini_curve = [round(statistics.fmean(v), 4) for v in by_round if len(v) * 2 >= len(records)]
    reasons: dict[str, int] = {}
    for r in records:
        key = r.end_reason.split(" (")[0]
        reasons[key] = reasons.get(key, 0) + 1
    return {
        "games": len(records),
        "players": players,
        "turns_per_game": {
            "mean": round(statistics.fmean(turns), 2) if turns else 0,
            "median": statistics.median(turns) if turns else 0,
            "min": min(turns, default=0),
            "max": max(turns, default=0),
        },
        "wins_by_seat": [round(w, 2) for w in wins],
        "final_wealth": {
            "mean_score": round(statistics.fmean([statistics.fmean(r.scores) for r in records]), 2) if records else 0,
            "mean_spread": round(statistics.fmean(spreads), 2) if spreads else 0,
            "mean_gini": round(statistics.fmean(ginis), 4) if ginis else 0,
        },
        "end_reasons": reasons,
        "gini_by_round": gini_curve,
        "prosperity_rate": round(sum(r.prosperity for r in records) / len(records), 4) if records else 0,
        "money_conserved_in_all_games": all(r.conserved for r in records),
    }


def _sparse(curve: Sequence[float], points: int = 8) -> str:
    """Return about `points` evenly spaced (round: value) pairs of a curve."""
    if not curve:
        return "-"
    step = max(1, (len(curve) - 1) // (points - 1))
    picks = sorted(set(list(range(0, len(curve), step)) + [len(curve) - 1]))
    return "   ".join(f"r{i}: {curve[i]:.3f}" for i in picks)


def render_summary(summary: dict[str, Any], title: str) -> str:
    """Return the summary as a table for the terminal."""
    t = summary["turns_per_game"]
    w = summary["final_wealth"]
    lines = [
        f"{title}: {summary['games']} games, {summary['players']} players",
        "",
        f"  turns per game    mean {t['mean']}   median {t['median']}   min {t['min']}   max {t['max']}",
        "  wins by seat      " + "   ".join(f"seat {i + 1}: {v:g}" for i, v in enumerate(summary["wins_by_seat"])),
        f"  final wealth      mean score {w['mean_score']}   mean spread (max-min) {w['mean_spread']}"
        f"   mean Gini {w['mean_gini']}",
        "  ended by          " + ", ".join(f"{k}: {v}" for k, v in sorted(summary["end_reasons"].items())),
        "  Gini by round     " + _sparse(summary["gini_by_round"]),
        f"  prosperity        poorest player doubled the poorest start in "
        f"{100 * summary['prosperity_rate']:.1f}% of games",
        f"  money conserved   {'yes, in every game' if summary['money_conserved_in_all_games'] else 'NO'}",
    ]
    return "\n".join(visible(line) for line in lines)
