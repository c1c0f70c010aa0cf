"""Tournaments between players (`landlord-dsl tournament`; docs/search.md).

A tournament plays `deals` deals. Deal i throws from seed `seed + i` and seats a lineup of the agents
(all of them when there are as many as seats; otherwise the lineups go round the agents, repeating an
agent when there are fewer agents than seats); the deal is played once per rotation of that lineup
round the table, on the same dice: common random numbers, so that a seat's luck is every agent's in
turn. Each game is a function of its rules, seats and seed alone, so the report is the same for any
number of processes, and for a tournament stopped and resumed: every finished game is appended to the
results file, and a tournament run again with that file plays only the games it does not find there.

The report: each agent's games, wins (a tie shares the win) and win rate with its 95 % Wilson interval;
a matchup matrix (how often the row agent finished ahead of the column agent when both sat at a table,
a tie counting half, with its Wilson interval); and ratings by the `openskill` package's Plackett-Luce
model (the `ratings` extra), the games rated in their order (deal, then rotation).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..agents.seats import parse_seats
from ..checking.loader import RuleSet
from ..core.errors import Diagnostic, RuleRuntimeError, UsageError
from ..core.terminal import table_text
from . import results_file
from .parallel import default_jobs, in_processes, program_of, replay_command
from .rulesource import RuleSource, rule_source
from .simulate import play_one
from .stats import percent, wilson

RATINGS_MISSING = "ratings need the openskill package: pip install 'landlord-dsl[ratings]'"


def lineups(agents: Sequence[str], players: int, deals: int) -> list[list[str]]:
    """Return the lineup of each deal: every agent when they fill the table exactly; with more agents
    than seats, each combination of `players` agents in turn; with fewer, the agents round the table
    from a different one each deal."""
    k = len(agents)
    if k == players:
        return [list(agents) for _ in range(deals)]
    if k > players:
        combos = list(itertools.combinations(agents, players))
        return [list(combos[i % len(combos)]) for i in range(deals)]
    return [[agents[(i + s) % k] for s in range(players)] for i in range(deals)]


def schedule(agents: Sequence[str], players: int, deals: int) -> list[tuple[int, int, list[str]]]:
    """Return every game of the tournament as (deal, rotation, seats): deal i's lineup turned `rotation`
    places round the table, for every rotation."""
    return [
        (i, r, [lineup[(s + r) % players] for s in range(players)])
        for i, lineup in enumerate(lineups(agents, players, deals))
        for r in range(players)
    ]


def play_games(
    source: RuleSource, players: int, seed: int, games: Sequence[tuple[int, int, list[str]]], turn_limit: int | None
) -> list[dict[str, Any]]:
    """Play the given games of a tournament (deal i from seed `seed + i`); return a record of each: its
    deal, rotation, seed, seats, scores, winners, turns and why it ended. A worker's whole job.

    :raises RuleRuntimeError: a game failed; a note names its deal, rotation and seats, and the command that
        plays it again."""
    program = program_of(source)
    out = []
    for deal, rotation, seats in games:
        try:
            record = play_one(program, players, seed + deal, seats, turn_limit=turn_limit)
        except RuleRuntimeError as err:
            again = replay_command(source, players, seed + deal, None, tuple(seats))
            note = Diagnostic(
                f"in deal {deal + 1} of the tournament (rotation {rotation + 1}, seats {','.join(seats)}), played "
                f"from seed {seed + deal}; to play it again: {again}",
                severity="note",
            )
            raise RuleRuntimeError([*err.diagnostics, note]) from None
        out.append(
            {
                "deal": deal,
                "rotation": rotation,
                "seed": seed + deal,
                "seats": list(seats),
                "scores": list(record.scores),
                "winners": list(record.winners),
                "turns": record.turns,
                "end": record.end_reason,
            }
        )
    return out


def _key(source: RuleSource, agents: Sequence[str], players: int, seed: int, turn_limit: int | None) -> str:
    return json.dumps([source.rules_hash, list(source.options), list(agents), players, seed, turn_limit])


_GAME_FIELDS = (("tournament", str), ("deal", int), ("rotation", int), ("seats", list), ("scores", list))


def read_results(path: Path, key: str) -> list[dict[str, Any]]:
    """Return the game records of a results file that belong to the tournament `key` (none if the file
    does not exist). A last line cut short is cut off (it is played again); a line that is not a
    record, or a record of another tournament, is a UsageError (results_file.read_records)."""

    def problem(record: Any) -> str | None:
        if not (isinstance(record, dict) and all(isinstance(record.get(f), t) for f, t in _GAME_FIELDS)):
            return "a field is missing or of the wrong type"
        if record["tournament"] != key:
            return "it is a game of another tournament (other rules, agents, players, seed or turn limit)"
        return None

    return results_file.read_records(path, "tournament", problem)


def run_tournament(
    rules: RuleSet,
    agents: Sequence[str],
    deals: int,
    players: int | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    jobs: int | None = None,
    output: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    turn_limit: int | None = None,
) -> dict[str, Any]:
    """Play a tournament between `agents` (seat specs, agents.seats) and return its report (`report`).

    `players` defaults to the number of agents, within what the rules allow. With `output`, games found
    there are not played again and each game played is appended as it finishes. `progress(done, total)`
    is called as games finish. The report is the same for every `jobs`.

    :raises UsageError: fewer than two agents, an agent named twice or unknown, a human seat, a number of
        players the rules do not allow, or a results file of another tournament.
    """
    specs = [str(s) for s in parse_seats(",".join(agents), "--agents")]
    if len(set(specs)) != len(specs):
        raise UsageError("--agents names an agent twice: give each agent once")
    if len(specs) < 2:
        other = "random" if specs[0] != "random" else "bot"
        raise UsageError(
            f"a tournament needs two agents or more, not only '{specs[0]}': e.g. --agents {specs[0]},{other}"
        )
    if "human" in specs:
        raise UsageError("a tournament has no one to ask: an agent cannot be human")
    if deals < 1:
        raise UsageError("a tournament needs at least one deal")
    source = rule_source(rules, options)
    low, high = program_of(source).players
    n = players if players is not None else min(max(len(specs), low), high)
    if not low <= n <= high:
        raise UsageError(f"{source.name} is for {low} to {high} players, not {n}")
    key = _key(source, specs, n, seed, turn_limit)
    games = schedule(specs, n, deals)
    records = {(r["deal"], r["rotation"]): r for r in (read_results(output, key) if output else [])}
    todo = [g for g in games if (g[0], g[1]) not in records]
    done = len(games) - len(todo)
    if progress is not None and done:
        progress(done, len(games))
    for finished in play_all(source, n, seed, todo, turn_limit, jobs or default_jobs()):
        for record in finished:
            record = {"tournament": key, **record}
            records[(record["deal"], record["rotation"])] = record
            if output is not None:
                results_file.append_record(output, record)
        done += len(finished)
        if progress is not None:
            progress(done, len(games))
    ordered = [records[(d, r)] for d, r, _ in games]
    return report(rules.name, specs, n, seed, deals, ordered)


def play_all(
    source: RuleSource,
    players: int,
    seed: int,
    games: list[tuple[int, int, list[str]]],
    turn_limit: int | None,
    jobs: int,
) -> Any:
    """Yield the records of `games` in batches as they are played: here when `jobs` is 1, else in
    `jobs` processes (each batch a deal's rotations)."""
    batches = [list(group) for _, group in itertools.groupby(games, key=lambda g: g[0])]
    if jobs == 1 or len(batches) <= 1:
        for batch in batches:
            yield play_games(source, players, seed, batch, turn_limit)
        return
    tasks = ((play_games, (source, players, seed, b, turn_limit)) for b in batches)
    for _, records in in_processes(tasks, min(jobs, len(batches)), [source]):
        yield records


def _interval(successes: Fraction, n: int) -> dict[str, float]:
    rate, low, high = wilson(successes, n)
    return {"rate": rate, "ci95_low": low, "ci95_high": high, "n": n}


def report(
    edition: str, agents: Sequence[str], players: int, seed: int, deals: int, games: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """Return the tournament's report from its game records in order: per agent its games, wins, win rate
    and mean score; the matchup matrix; and the ratings (None without openskill)."""
    seat_games = dict.fromkeys(agents, 0)
    wins = {a: Fraction(0) for a in agents}
    score_sum = dict.fromkeys(agents, 0)
    ahead = {(a, b): Fraction(0) for a in agents for b in agents if a != b}
    met = dict.fromkeys(ahead, 0)
    for g in games:
        seats, scores, winners = g["seats"], g["scores"], g["winners"]
        for s, agent in enumerate(seats):
            seat_games[agent] += 1
            score_sum[agent] += scores[s]
            if s in winners:
                wins[agent] += Fraction(1, len(winners))
        for s, t in itertools.permutations(range(len(seats)), 2):
            a, b = seats[s], seats[t]
            if a == b:
                continue
            met[(a, b)] += 1
            ahead[(a, b)] += 1 if scores[s] > scores[t] else Fraction(1, 2) if scores[s] == scores[t] else 0
    ratings = rate(agents, games)
    return {
        "edition": edition,
        "agents": list(agents),
        "players": players,
        "deals": deals,
        "games": len(games),
        "seeds": [seed, seed + deals - 1],
        "share": round(1 / players, 4),
        "results": [
            {
                "agent": a,
                "games": seat_games[a],
                "wins": float(wins[a]),
                "win_rate": _interval(wins[a], seat_games[a]),
                "mean_score": round(score_sum[a] / seat_games[a], 2) if seat_games[a] else 0.0,
                **({"rating": ratings[a]} if ratings is not None else {}),
            }
            for a in agents
        ],
        "matchups": [
            {"row": a, "column": b, "ahead": _interval(ahead[(a, b)], met[(a, b)])}
            for a in agents
            for b in agents
            if a != b
        ],
        "ratings": "openskill Plackett-Luce" if ratings is not None else RATINGS_MISSING,
    }


def rate(agents: Sequence[str], games: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]] | None:
    """Return each agent's openskill rating (mu, sigma, ordinal = mu - 3 sigma) after rating the games in
    order by their scores (Plackett-Luce), or None when openskill is not installed. Each seat is rated as
    a team of one; an agent in two seats of a game takes the mean of its seats' new ratings."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    current = {a: model.rating(name=a) for a in agents}
    for g in games:
        seats = g["seats"]
        teams = [[model.rating(mu=current[a].mu, sigma=current[a].sigma)] for a in seats]
        rated = model.rate(teams, scores=[float(s) for s in g["scores"]])
        for agent in set(seats):
            mine = [rated[s][0] for s, a in enumerate(seats) if a == agent]
            current[agent] = model.rating(
                mu=sum(r.mu for r in mine) / len(mine), sigma=sum(r.sigma for r in mine) / len(mine), name=agent
            )
    return {
        a: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.mu - 3 * r.sigma, 3)}
        for a, r in current.items()
    }


def render(data: dict[str, Any], title: str, colour: bool = False) -> str:
    """Return the report as text: the agents' table and the matchup matrix, the agents in their given order."""
    share = percent(data["share"], 0)
    lines = [
        f"{title}: {len(data['agents'])} agents, {data['players']} players, {data['deals']} deals x "
        f"{data['players']} rotations = {data['games']} games (seeds {data['seeds'][0]} to {data['seeds'][1]})",
        "",
    ]
    rows = data["results"]  # in the order of --agents, with or without ratings
    header = ["agent", "games", "wins", f"win rate [95 % CI] (share {share}%)", "mean score"]
    rated = any("rating" in r for r in rows)
    if rated:
        header.append("rating mu ± sigma (ordinal)")
    table = []
    for r in rows:
        w = r["win_rate"]
        row = [
            r["agent"],
            str(r["games"]),
            f"{r['wins']:g}",
            f"{percent(w['rate'])}% [{percent(w['ci95_low'])}, {percent(w['ci95_high'])}]",
            f"{r['mean_score']:.1f}",
        ]
        if rated:
            g = r["rating"]
            row.append(f"{g['mu']:.2f} ± {g['sigma']:.2f} ({g['ordinal']:.2f})")
        table.append(row)
    lines.append(table_text(header, table, colour).rstrip("\n"))
    if not rated:
        lines.append(f"({data['ratings']})")
    agents = [r["agent"] for r in rows]
    cells = {(m["row"], m["column"]): m["ahead"] for m in data["matchups"]}
    lines += ["", "how often the row finished ahead of the column at the same table (a tie counts half) [95 % CI]"]
    matrix = [
        [a]
        + [
            "-"
            if a == b
            else (
                f"{percent(cells[(a, b)]['rate'], 0)}% [{percent(cells[(a, b)]['ci95_low'], 0)}, "
                f"{percent(cells[(a, b)]['ci95_high'], 0)}]"
                if cells[(a, b)]["n"]
                else "never met"
            )
            for b in agents
        ]
        for a in agents
    ]
    lines.append(table_text(["", *agents], matrix, colour).rstrip("\n"))
    return "\n".join(lines) + "\n"
