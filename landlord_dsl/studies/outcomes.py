"""What a change of rules does to games (`landlord-dsl diff --outcomes`).

`outcomes` plays the same seeds under both rule sets (common random numbers:
game i throws from seed i on both sides) and reports paired differences with
95% confidence intervals, each labelled so; `render_outcomes` prints them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ..agents import HeuristicAgent
from ..agents.seats import any_search, make_seat, make_seats
from ..agents.stepped import play_stepped
from ..checking.loader import RuleSet
from ..compiling.compiler import compile_ruleset
from ..core.errors import UsageError
from ..engine.game import Game
from ..program.compiled import Program
from .paired import interval
from .stats import THROW_DEFINITION, fixed, game_stats, gini, percent, wilson, with_old_throw_keys


def _share(values: Sequence[float]) -> dict[str, float]:
    """Return a share of the games (each value 0 to 1) with its 95 % Wilson interval, as `simulate` gives it."""
    rate, low, high = wilson(Fraction(sum(values)), len(values))
    return {"mean": rate, "ci95_low": low, "ci95_high": high}


def _interval(values: Sequence[float], bound: float | None = None) -> dict[str, float]:
    """Return the mean of per-game values with its 95 % interval (paired.interval: mean ± 1.96 SE, clipped to
    [-bound, bound] when given), rounded to four places."""
    return interval(values, bound).to_json()


PAIRED = "95 % CI, paired on common random numbers (game i throws from seed + i on both sides)"


def _play(program: Program, players: int, seed: int, seats: Sequence[str] | None = None) -> tuple[Game, Any]:
    """Return a game of `program` played from `seed` and its result: heuristic bots, or the players `seats`
    names (agents.seats), a table with a searcher stepped through the State on the same dice."""
    if seats and any_search(seats):
        game = play_stepped(program, make_seats(seats, seed), seed).game
        return game, game.result()
    agents = (
        [make_seat(k, seed, i) for i, k in enumerate(seats)] if seats else [HeuristicAgent() for _ in range(players)]
    )
    game = Game(program, agents, seed=seed)  # type: ignore[arg-type]
    result = game.play()
    return game, result


def _landing_change(xa: Sequence[int], na: Sequence[int], xb: Sequence[int], nb: Sequence[int]) -> dict[str, Any]:
    """Return the share of throws ending on a space on each side and the paired 95 % CI of the change.

    Each share is a ratio estimate (landings / throws over all games); the change's
    standard error comes from its per-game linearisation, so the pairing of the
    games (same seed on both sides) is used, as for every other interval here.
    """
    games = len(na)
    ta, tb = sum(na) or 1, sum(nb) or 1
    pa, pb = sum(xa) / ta, sum(xb) / tb
    mean_a, mean_b = ta / games, tb / games
    residuals = [(y - pb * m) / mean_b - (x - pa * n) / mean_a for x, n, y, m in zip(xa, na, xb, nb)]
    half = 1.96 * math.sqrt(sum(e * e for e in residuals) / (games * (games - 1))) if games > 1 else 0.0
    d = pb - pa
    return {
        "a": round(pa, 5),
        "b": round(pb, 5),
        "difference": {"mean": round(d, 5), "ci95_low": round(d - half, 5), "ci95_high": round(d + half, 5)},
        "excludes_zero": d - half > 0 or d + half < 0,
    }


def outcomes(
    a: RuleSet,
    b: RuleSet,
    games: int,
    players: int | None = None,
    seed: int = 0,
    options_a: dict | None = None,
    options_b: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
    seats: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Simulate `games` paired games (same seeds on both sides); return differences with paired 95 % CIs.

    The players are heuristic bots, or those `seats` names, one spec a seat (agents.seats), the same
    on both sides; their number is then the number of players.

    Players default to four, or the nearest number both rule sets allow (as
    for `simulate`). Landings are counted per throw (observe.py: where the
    thrower stands when the throw is over), space by space: spaces are matched
    by their declared name, never by their label, so three "Chance" squares
    stay three rows. `progress`, if given, is called with (games played, 2 * games) as they are played.
    """
    pa, pb = compile_ruleset(a, options_a), compile_ruleset(b, options_b)
    low, high = max(pa.players[0], pb.players[0]), min(pa.players[1], pb.players[1])
    n = len(seats) if seats else players or min(max(4, low), high)
    if seats and players is not None and players != len(seats):
        raise UsageError(f"{len(seats)} seats are named for {players} players: name one a seat")
    if seats and "human" in seats:
        raise UsageError("a simulation has no one to ask: a seat cannot be human")
    sides: dict[str, dict[str, Any]] = {}
    for done, (side, program) in enumerate((("a", pa), ("b", pb))):
        lengths, ginis, censored, wins = [], [], 0, [[0.0] * games for _ in range(n)]
        throws: list[int] = []
        landings: dict[str, list[int]] = {name: [] for name in program.space_names}
        for i in range(games):
            game, result = _play(program, n, seed + i, seats)
            lengths.append(result.turns)
            ginis.append(gini(result.scores))
            for w in result.winners:
                wins[w][i] = 1 / len(result.winners)
            counted = game_stats(game, ())
            censored += counted.censored
            throws.append(counted.throws)
            for name, x in zip(program.space_names, counted.throw_landings):
                landings[name].append(x)
            if progress is not None:
                progress(done * games + i + 1, 2 * games)
        sides[side] = {
            "program": program,
            "lengths": lengths,
            "ginis": ginis,
            "censored": censored,
            "wins": wins,
            "throws": throws,
            "landings": landings,
        }
    sa, sb = sides["a"], sides["b"]
    zeros = [0] * games
    landing = []
    for name in pa.space_names + [x for x in pb.space_names if x not in pa.space_names]:
        row = _landing_change(
            sa["landings"].get(name, zeros), sa["throws"], sb["landings"].get(name, zeros), sb["throws"]
        )
        where = {
            side: (
                sides[side]["program"].space_names.index(name) if name in sides[side]["program"].space_names else None
            )
            for side in "ab"
        }
        index_a, index_b = where["a"], where["b"]
        if index_a is not None:
            label = pa.space_labels[index_a]
        else:
            assert index_b is not None  # every name is a space of a or of b
            label = pb.space_labels[index_b]
        landing.append({"space": name, "label": label, "index_a": where["a"], "index_b": where["b"], **row})
    landing.sort(key=lambda r: (-abs(r["difference"]["mean"]), r["space"]))

    def paired(key: str) -> dict[str, Any]:
        return {
            "a": _interval(sa[key]),
            "b": _interval(sb[key]),
            "difference": _interval([y - x for x, y in zip(sa[key], sb[key])]),
        }

    return {
        "games": games,
        "players": n,
        **({"seats": list(seats)} if seats else {}),
        "seed": seed,
        "interval": PAIRED,
        "game_length": paired("lengths"),
        "censored_by_turn_limit": {"a": sa["censored"], "b": sb["censored"]},
        "final_wealth_gini": paired("ginis"),
        "wins_by_seat": [
            {
                "seat": seat + 1,
                "a": _share(sa["wins"][seat]),
                "b": _share(sb["wins"][seat]),
                # a change of a share of the games lies in [-1, 1]
                "difference": _interval([y - x for x, y in zip(sa["wins"][seat], sb["wins"][seat])], bound=1),
            }
            for seat in range(n)
        ],
        "landing_per_movement_throw": landing,
    } | with_old_throw_keys(landing)


def render_outcomes(data: dict[str, Any], show_all: bool = False) -> str:
    """Return the outcome comparison as text: landing changes whose interval excludes zero (all with `show_all`)."""

    def ci(d: dict[str, float], show: Callable[[float], str] = lambda x: fixed(x, 3)) -> str:
        return f"{show(d['mean'])} [{show(d['ci95_low'])}, {show(d['ci95_high'])}]"

    def share(d: dict[str, float]) -> str:  # a share of the games, in percent, as `simulate` prints win rates
        return f"{percent(d['mean'])}% [{percent(d['ci95_low'])}, {percent(d['ci95_high'])}]"

    def points(d: dict[str, float], digits: int = 1) -> str:  # a change of a share, in percentage points
        return f"{ci(d, lambda x: percent(x, digits, sign=True))} pts"

    censored = data["censored_by_turn_limit"]
    lines = [
        f"\noutcomes ({data['games']} paired games, {data['players']} players"
        + (f" ({','.join(data['seats'])})" if "seats" in data else "")
        + f", seeds {data['seed']}..{data['seed'] + data['games'] - 1}); every [low, high] is a {data['interval']}"
    ]
    for key, label in (("game_length", "turns per game"), ("final_wealth_gini", "final wealth Gini")):
        d = data[key]
        lines.append(f"  {label:18} a {ci(d['a'])}   b {ci(d['b'])}   b-a {ci(d['difference'])}")
    if censored["a"] or censored["b"]:
        lines.append(
            f"  {'':18} games stopped by the turn limit (counted at their length): a {censored['a']}, b {censored['b']}"
        )
    for w in data["wins_by_seat"]:
        lines.append(
            f"  {'wins, seat ' + str(w['seat']):18} a {share(w['a'])}   b {share(w['b'])}   "
            f"b-a {points(w['difference'])}"
        )
    lines.append(f"  {'':18} (a win shared by a tie counts a share; 95 % Wilson intervals for a and b)")
    rows = [r for r in data["landing_per_movement_throw"] if show_all or r["excludes_zero"]]
    hidden = len(data["landing_per_movement_throw"]) - len(rows)
    lines.append(f"  {'movement throw':18} {THROW_DEFINITION}")
    lines.append(
        "  landing frequency per movement throw, by space (label #index in a/b): "
        + (
            "every space"
            if show_all
            else f"changes whose interval excludes zero ({hidden} others hidden; --all shows "
            "them; about one unchanged space in twenty shows by chance)"
        )
    )
    for r in rows:
        where = "/".join("-" if i is None else str(i) for i in (r["index_a"], r["index_b"]))
        lines.append(
            f"    {r['label'][:34] + ' #' + where:40} a {percent(r['a'], 3)}%   b {percent(r['b'], 3)}%   "
            f"b-a {points(r['difference'], 3)}"
        )
    if not rows:
        lines.append("    (none)")
    return "\n".join(lines) + "\n"
