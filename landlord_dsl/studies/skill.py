"""Skill and luck in a rule file (`landlord-dsl skill`; docs/skill.md).

A ladder of agents ("rungs", e.g. bot, then rollout:1) is measured against a field of weaker ones
(random players by default). For each rung, deal i throws from seed `seed + i` and is played once per
seat: the rung's agent in that seat, the field in the others, on the same dice (the tournament's common
random numbers). Each game gives every seat its win share W (1, 0, or 1/k for a k-way tie).

The deal is the unit of sampling. The variance of W over all games and seats splits exactly (the design
is balanced: every (deal, seat) cell holds the rung once and the field n-1 times) into

* **seed**: between the (deal, seat) cells, what a seat wins on these dice whoever plays;
* **skill**: between the rung and the field, what sitting the stronger agent in a seat wins;
* **the rest**: the dice and the decisions together (a different decision changes which dice come to whom).

Each part is taken as a share of the whole with the usual one-way correction for the noise that the
finite seatings put into a mean square, and each share has a percentile interval from resampling the
deals (a fixed number of resamples from a fixed seed, so the same games give the same intervals). The
rung's edge is its win rate above its share of a table, as a fraction of the most it could be above it.
Nothing here names an edition: only seats, seeds and win shares.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..agents.seats import parse_seat, parse_seats
from ..checking.loader import RuleSet
from ..core.errors import UsageError
from ..core.terminal import table_text
from .parallel import default_jobs, program_of
from .rulesource import rule_source
from .stats import percent
from .tournament import play_all

RESAMPLES = 1000  # deals resampled with replacement, for each interval
MEASURES = ("win_rate", "edge", "seed_share", "skill_share", "rest_share")
MEANINGS = {
    "win_rate": "the rung's win rate in one seat against the field (a tie shares the win)",
    "edge": "its win rate above its share of a table, as a fraction of the most it could be: 1 always wins",
    "seed_share": "share of the variance of a seat's winnings explained by the deal and seat alone, whoever plays",
    "skill_share": "share explained by which agent sits there, the rung or the field",
    "rest_share": "the rest: the dice and the decisions together",
}


def skill_schedule(rungs: Sequence[str], field: str, players: int, deals: int) -> list[tuple[int, int, list[str]]]:
    """Return every game of the study as (deal, rotation, seats), rung by rung: deal i with the rung in seat
    `rotation` and the field in the others, for every seat."""
    return [
        (i, r, [rung if s == r else field for s in range(players)])
        for rung in rungs
        for i in range(deals)
        for r in range(players)
    ]


def deal_sums(shares: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    """Return a deal's sufficient statistics from its win shares `shares[r][s]` (seat s, the rung in seat r):
    the sum of the shares, the sum of their squares, the sum of the squared mean of each seat over the
    seatings, and the rung's sum."""
    n = len(shares)
    total = sum(sum(row) for row in shares)
    squares = sum(w * w for row in shares for w in row)
    cells = sum((sum(shares[r][s] for r in range(n)) / n) ** 2 for s in range(n))
    rung = sum(shares[r][r] for r in range(n))
    return total, squares, cells, rung


def measures(sums: Sequence[tuple[float, float, float, float]], players: int) -> dict[str, float | None]:
    """Return the MEASURES of the deals whose deal_sums are given (a share is None when the winnings do
    not vary at all)."""
    n, deals = players, len(sums)
    obs, cells = deals * n * n, deals * n
    total = sum(s[0] for s in sums)
    mean = total / obs
    rung_rate = sum(s[3] for s in sums) / (deals * n)
    field_rate = (total - sum(s[3] for s in sums)) / (obs - deals * n) if n > 1 else 0.0
    v_total = sum(s[1] for s in sums) / obs - mean * mean
    v_between = sum(s[2] for s in sums) / cells - mean * mean
    v_agent = ((rung_rate - mean) ** 2 + (n - 1) * (field_rate - mean) ** 2) / n
    v_rest = max(0.0, v_total - v_between - v_agent)
    share = 1 / n
    out: dict[str, float | None] = {
        "win_rate": rung_rate,
        "edge": (rung_rate - share) / (1 - share) if n > 1 else 0.0,
    }
    if v_total <= 1e-12:
        out.update(seed_share=None, skill_share=None, rest_share=None)
        return out
    # the noise a mean square carries: each effect's sum of squares expects (its degrees of freedom) x sigma^2
    df_rest = obs - cells - 1
    noise = v_rest * obs / df_rest if df_rest > 0 else 0.0
    seed = v_between - (cells - 1) * noise / obs
    skill = v_agent - noise / obs
    out.update(seed_share=seed / v_total, skill_share=skill / v_total, rest_share=1 - (seed + skill) / v_total)
    return out


def _resample(deals: int, resamples: int, seed: int) -> list[list[int]]:
    """Return `resamples` lists of deal indices drawn with replacement, the same for the same arguments."""
    rng = random.Random(f"landlord-dsl skill {seed}")
    return [[rng.randrange(deals) for _ in range(deals)] for _ in range(resamples)]


def _quantiles(values: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(values)
    k = len(ordered)
    return ordered[int(0.025 * (k - 1) + 0.5)], ordered[int(0.975 * (k - 1) + 0.5)]


def estimate(
    sums: Sequence[tuple[float, float, float, float]],
    players: int,
    resamples: int = RESAMPLES,
    seed: int = 0,
    versus: Sequence[tuple[float, float, float, float]] | None = None,
) -> dict[str, dict[str, float] | None]:
    """Return each measure's estimate with its 95 % percentile interval from resampling the deals, as
    {"mean", "ci95_low", "ci95_high"} (None when undefined); with `versus` (the deal_sums of another
    study on the same seeds), the difference this minus that, the same deals resampled for both."""

    def values(picked: Sequence[int] | None) -> dict[str, float | None]:
        mine = measures([sums[i] for i in picked] if picked is not None else sums, players)
        if versus is None:
            return mine
        theirs = measures([versus[i] for i in picked] if picked is not None else versus, players)
        return {
            k: (mine[k] - theirs[k]) if mine[k] is not None and theirs[k] is not None else None  # type: ignore[operator]
            for k in MEASURES
        }

    point = values(None)
    draws = [values(picked) for picked in _resample(len(sums), resamples, seed)]
    out: dict[str, dict[str, float] | None] = {}
    for key in MEASURES:
        found = [d[key] for d in draws if d[key] is not None]
        if point[key] is None or len(found) < len(draws) // 2:
            out[key] = None
            continue
        low, high = _quantiles(found)  # type: ignore[arg-type]
        out[key] = {"mean": round(point[key], 4), "ci95_low": round(low, 4), "ci95_high": round(high, 4)}  # type: ignore[arg-type]
    return out


def play_skill(
    rules: RuleSet,
    rungs: Sequence[str],
    field: str,
    deals: int,
    players: int | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    turn_limit: int | None = None,
) -> dict[str, Any]:
    """Play the study's games and return its data: the edition, players, seed, deals, field, and per rung
    the win shares of every deal (`shares[deal][rotation][seat]`). The same for every `jobs`.

    :raises UsageError: a rung or field that is unknown, human or the same as the field, a rung named
        twice, fewer than two deals, or a number of players the rules do not allow.
    """
    specs = [str(s) for s in parse_seats(",".join(rungs), "--ladder")]
    field = str(parse_seat(field, "--field"))
    if "human" in specs or field == "human":
        raise UsageError("a study of skill has no one to ask: an agent cannot be human")
    if len(set(specs)) != len(specs):
        raise UsageError("--ladder names an agent twice: give each rung once")
    if field in specs:
        raise UsageError(f"the rung '{field}' is the field itself: a rung must differ from --field")
    if deals < 2:
        raise UsageError("a study of skill needs at least two deals (its intervals resample them)")
    if jobs is not None and jobs < 1:
        raise UsageError("--jobs must be at least 1")
    source = rule_source(rules, options)
    low, high = program_of(source).players
    n = players if players is not None else min(max(4, low), high)
    if not low <= n <= high or n < 2:
        raise UsageError(f"{source.name} is for {low} to {high} players, not {n}; a study of skill needs two or more")
    games = skill_schedule(specs, field, n, deals)
    shares = {rung: [[[0.0] * n for _ in range(n)] for _ in range(deals)] for rung in specs}
    done = 0
    for batch in play_all(source, n, seed, games, turn_limit, jobs or default_jobs()):
        for record in batch:
            rung = next(s for s in record["seats"] if s != field)
            winners = record["winners"]
            row = shares[rung][record["deal"]][record["rotation"]]
            for s in winners:
                row[s] = 1 / len(winners)
        done += len(batch)
        if progress is not None:
            progress(done, len(games))
    return {
        "edition": rules.name,
        "options": {k: v for k, v in source.options},
        "players": n,
        "seed": seed,
        "deals": deals,
        "field": field,
        "turn_limit": turn_limit,
        "rungs": [{"agent": rung, "shares": shares[rung]} for rung in specs],
    }


def skill_report(
    data: dict[str, Any], versus: dict[str, Any] | None = None, resamples: int = RESAMPLES
) -> dict[str, Any]:
    """Return the report of a study's data (play_skill): per rung its measures with their intervals; with
    `versus` (the data of the same study under other rules, same seeds, players, field and rungs), each
    rung's paired difference, this minus that.

    :raises UsageError: `versus` is not the same study."""
    out = {k: v for k, v in data.items() if k != "rungs"}
    out["games"] = data["deals"] * data["players"] * len(data["rungs"])
    out["share"] = round(1 / data["players"], 4)
    out["resamples"] = resamples
    if versus is not None:
        same = ("players", "seed", "deals", "field", "turn_limit")
        if any(data[k] != versus[k] for k in same) or [r["agent"] for r in data["rungs"]] != [
            r["agent"] for r in versus["rungs"]
        ]:
            raise UsageError("--versus must be the same study: the same players, seed, games, field and ladder")
        out["versus"] = {"edition": versus["edition"], "options": versus["options"]}
    rows = []
    for i, rung in enumerate(data["rungs"]):
        sums = [deal_sums(d) for d in rung["shares"]]
        row: dict[str, Any] = {"agent": rung["agent"], **estimate(sums, data["players"], resamples, data["seed"])}
        if versus is not None:
            theirs = [deal_sums(d) for d in versus["rungs"][i]["shares"]]
            row["versus"] = estimate(theirs, data["players"], resamples, data["seed"])
            row["difference"] = estimate(sums, data["players"], resamples, data["seed"], versus=theirs)
        rows.append(row)
    out["rungs"] = rows
    return out


def _cell(value: dict[str, float] | None, sign: bool = False) -> str:
    if value is None:
        return "n/a"
    unit = " pts" if sign else "%"  # a difference of two shares is in percentage points
    return (
        f"{percent(value['mean'], 1, sign)}{unit} [{percent(value['ci95_low'], 1, sign)}, "
        f"{percent(value['ci95_high'], 1, sign)}]"
    )


def _rows(report: dict[str, Any], key: str | None = None, sign: bool = False) -> list[list[str]]:
    return [[r["agent"], *(_cell((r[key] if key else r)[m], sign) for m in MEASURES)] for r in report["rungs"]]


HEADER = ["rung", "win rate", "edge", "seed share", "skill share", "rest"]


def render_text(report: dict[str, Any], title: str, colour: bool = False) -> str:
    """Return the report as text: a table of the rungs' measures (and, against another study, theirs and
    the differences), with the legend."""
    lines = [
        f"{title}: skill and luck, {report['deals']} deals x {report['players']} seats per rung = "
        f"{report['games']} games (seeds {report['seed']} to {report['seed'] + report['deals'] - 1}), "
        f"one rung against a field of {report['field']} (share {percent(report['share'], 0)}%)",
        "",
    ]
    if "versus" in report:
        lines.append("this study [95 % CI]")
    else:
        lines.append("[95 % CI]")
    lines.append(table_text(HEADER, _rows(report), colour).rstrip("\n"))
    if "versus" in report:
        other = report["versus"]
        where = ", ".join(f"{k}={v}" for k, v in other["options"].items())
        lines += ["", f"versus {other['edition']}" + (f" ({where})" if where else "") + " [95 % CI]"]
        lines.append(table_text(HEADER, _rows(report, "versus"), colour).rstrip("\n"))
        lines += ["", "difference, this minus versus, the same deals [95 % CI]"]
        lines.append(table_text(HEADER, _rows(report, "difference", sign=True), colour).rstrip("\n"))
    lines += ["", *(f"{name}: {MEANINGS[m]}" for name, m in zip(HEADER[1:], MEASURES))]
    lines.append(f"intervals: 2.5 and 97.5 percentiles of {report['resamples']} resamplings of the deals")
    return "\n".join(lines) + "\n"


def render_markdown(report: dict[str, Any], key: str | None = None, sign: bool = False) -> str:
    """Return the rungs' measures (or those under `key`: "versus", "difference") as a Markdown table."""
    lines = ["| " + " | ".join(HEADER) + " |", "|---|" + "---:|" * (len(HEADER) - 1)]
    lines += ["| `" + row[0] + "` | " + " | ".join(row[1:]) + " |" for row in _rows(report, key, sign)]
    return "\n".join(lines) + "\n"
