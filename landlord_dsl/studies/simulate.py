"""Running many seeded games and summarising what happened."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from ..agents.seats import any_search, make_seats
from ..agents.stepped import play_stepped
from ..core.errors import Diagnostic, RuleRuntimeError, visible
from ..engine.game import Game, starting_money
from ..program.compiled import Program
from .stats import GameStats, Layout, Stats, game_stats, gini


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
    stats: GameStats | None = None  # when statistics were asked for (play_one with a layout)
    titles: int = 0  # title deeds that reached a player after the setup (bought, won at auction, traded)
    choices: int = 0  # decisions answered with an option other than an offer's "done"
    titles_open: int = 0  # title deeds no player held when the setup ended (there to be taken in play)


def play_one(
    program: Program,
    players: int,
    seed: int,
    seats: Sequence[Any] | None = None,
    layout: Layout | None = None,
    reserve: int | None = None,
    turn_limit: int | None = None,
) -> GameRecord:
    """Play one seeded game with agents of the given kinds (bots by default), tracking wealth by round.

    `seats` are seat specs (agents.seats: `bot`, `random`, `mcts:400`...), or players themselves (an
    Agent, a StateAgent, a function of the State); a table with a searcher is played through the
    stepped State (agents.stepped.play_stepped), on the same dice as the driven game.

    Wealth is the edition's score formula. Prosperity (Magie's test) holds
    when the poorest player's final wealth is at least twice the smallest
    starting money, the money a seat received from unlimited accounts
    (the bank) during setup. With a stats.Layout the record also carries the
    game's stats.GameStats (and the game is the same). `reserve` is the bots'
    (None: agents.default_reserve). `turn_limit` replaces the rules' own.
    """
    kinds = list(seats) if seats else ["bot"] * players
    if any_search(kinds):
        played = play_stepped(program, make_seats(kinds, seed, reserve), seed, turn_limit)
        game, result = played.game, played.game.result()
        history = list(played.wealth_by_round)  # read at each round's first request (stepped.py)
        cash = list(played.cash_by_round)
    else:
        agents: list = make_seats(kinds, seed, reserve)  # every one an Agent (any_search said so)
        game = Game(program, agents, seed=seed, turn_limit=turn_limit)
        game.track_wealth()
        if layout is None:
            result = game.play()
        else:
            game.setup()
            cash = [tuple(game.cash(i) for i in range(game.n))]

            def at_round_end(g: Game) -> None:
                if len(g.wealth_history) > len(cash):  # type: ignore[arg-type]
                    cash.append(tuple(g.cash(i) for i in range(g.n)))

            result = game.play(on_turn=at_round_end)
        history = game.wealth_history or [result.scores]
    start = min(starting_money(game))
    return GameRecord(
        seed,
        result.turns,
        result.rounds,
        result.end_reason,
        result.scores,
        result.winners,
        game.conserved(),
        tuple(round(gini(w), 4) for w in history),
        start > 0 and min(result.scores) >= 2 * start,
        tuple(game.cash(i) for i in range(game.n)),
        game_stats(game, cash) if layout is not None else None,
        *activity(game),
    )


def in_game(err: RuleRuntimeError, game: int, seed: int, replay: str) -> RuleRuntimeError:
    """Return `err` with a note naming the game of a run it happened in (numbered from 1), its seed and
    the command (`replay`) that plays that game again."""
    note = Diagnostic(
        f"in game {game} of the run, played from seed {seed}; to play it again: {replay}", severity="note"
    )
    return RuleRuntimeError([*err.diagnostics, note])


def activity(game: Game) -> tuple[int, int, int]:
    """Return (title deeds that reached a player after the setup, decisions answered other than "done",
    title deeds no player held when the setup ended)."""
    card_space = game.prog.card_space
    titles = choices = 0
    held_after_setup: set[int] = set()  # the title deeds in players' hands as the setup ends
    for event in game.log:  # the raw tuples (events.LogCard, LogDecide): this runs once per simulated game
        kind = event[0]
        if kind == "card":
            if card_space[event[2]] is None:
                continue
            if event[1] > 0:
                titles += event[4] is not None
            elif event[4] is None:
                held_after_setup.discard(event[2])
            else:
                held_after_setup.add(event[2])
        elif kind == "decide" and event[4] != "done":
            choices += 1
    deeds = sum(space is not None for space in card_space)
    return titles, choices, deeds - len(held_after_setup)


def simulate(
    program: Program, games: int, players: int, seed: int = 0, progress: Callable[[int, int], None] | None = None
) -> list[GameRecord]:
    """Play `games` games with seeds seed, seed+1, ...; return their records."""
    records = []
    for i in range(games):
        try:
            records.append(play_one(program, players, seed + i))
        except RuleRuntimeError as err:
            raise in_game(err, i + 1, seed + i, f"Game(program, agents, seed={seed + i})") from None
        if progress is not None:
            progress(i + 1, games)
    return records


@attrs.define
class Summary:
    """What many games add up to, kept without the games: the streaming form of `summarise`.

    Everything is held exactly (integers, fractions and counts), so adding games in
    any order, or merging summaries made in other processes, gives the same result
    to the last digit: `simulate --jobs N` equals `--jobs 1`. Memory does not grow
    with the number of games (the game lengths are kept as a count per length).
    """

    players: int
    games: int = 0
    turns: Counter = attrs.field(factory=Counter)  # game length -> how many games
    wins: list[Fraction] = attrs.field(default=None)
    score_means: Fraction = Fraction(0)  # sum over games of float(mean score), exactly
    spreads: int = 0
    ginis: Fraction = Fraction(0)
    reasons: Counter = attrs.field(factory=Counter)
    # per round: (sum of the Gini values in ten-thousandths, number of games that reached it)
    by_round: list[list[int]] = attrs.field(factory=list)
    prosperous: int = 0
    conserved: bool = True
    stats: Stats | None = None  # the statistics of `simulate --stats`, when asked for
    titles: int = 0  # GameRecord.titles, summed
    choices: int = 0  # GameRecord.choices, summed
    titles_open: int = 0  # GameRecord.titles_open, summed
    bot_reserve: int | None = None  # the cash the bots kept back, when the run says (simulate_many does)

    def __attrs_post_init__(self) -> None:
        if self.wins is None:
            self.wins = [Fraction(0)] * self.players

    def add(self, r: GameRecord) -> None:
        """Count one game in."""
        self.games += 1
        self.turns[r.turns] += 1
        for w in r.winners:
            self.wins[w] += Fraction(1, len(r.winners))
        self.score_means += Fraction(statistics.fmean(r.scores))
        self.spreads += max(r.scores) - min(r.scores)
        self.ginis += Fraction(gini(r.scores))
        self.reasons[r.end_reason.split(" (")[0]] += 1
        for i, value in enumerate(r.gini_by_round):
            if i == len(self.by_round):
                self.by_round.append([0, 0])
            self.by_round[i][0] += round(value * 10000)  # the values are rounded to four places
            self.by_round[i][1] += 1
        self.prosperous += r.prosperity
        self.conserved = self.conserved and r.conserved
        self.titles += r.titles
        self.choices += r.choices
        self.titles_open += r.titles_open
        if self.stats is not None:
            self.stats.add(r.stats)  # type: ignore[arg-type]

    def merge(self, other: Summary) -> None:
        """Add another summary's games to this one."""
        if other.players != self.players:
            raise ValueError("summaries of games with different numbers of players")
        self.games += other.games
        self.turns.update(other.turns)
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.score_means += other.score_means
        self.spreads += other.spreads
        self.ginis += other.ginis
        self.reasons.update(other.reasons)
        for i, (total, count) in enumerate(other.by_round):
            if i == len(self.by_round):
                self.by_round.append([0, 0])
            self.by_round[i][0] += total
            self.by_round[i][1] += count
        self.prosperous += other.prosperous
        self.conserved = self.conserved and other.conserved
        self.titles += other.titles
        self.choices += other.choices
        self.titles_open += other.titles_open
        if self.stats is not None and other.stats is not None:
            self.stats.merge(other.stats)

    def result(self) -> dict[str, Any]:
        """Return the summary shown by `landlord-dsl simulate` (also its --json output)."""
        n = self.games
        return {
            "games": n,
            "players": self.players,
            "turns_per_game": {
                "mean": round(sum(t * c for t, c in self.turns.items()) / n, 2) if n else 0,
                "median": _median(self.turns) if n else 0,
                "min": min(self.turns, default=0),
                "max": max(self.turns, default=0),
            },
            "wins_by_seat": [round(float(w), 2) for w in self.wins],
            "final_wealth": {
                "mean_score": round(float(self.score_means) / n, 2) if n else 0,
                "mean_spread": round(self.spreads / n, 2) if n else 0,
                "mean_gini": round(float(self.ginis) / n, 4) if n else 0,
            },
            "end_reasons": dict(sorted(self.reasons.items())),
            # a round is reported while at least half of the games are still running (or ended after it)
            "gini_by_round": [
                round(float(Fraction(total, 10000 * count)), 4) for total, count in self.by_round if count * 2 >= n
            ],
            "prosperity_rate": round(self.prosperous / n, 4) if n else 0,
            "money_conserved_in_all_games": self.conserved,
            "bot_activity": {"titles_taken_in_play": self.titles, "decisions_other_than_done": self.choices},
            "warnings": self.warnings(),
            **({"stats": self.stats.result(self)} if self.stats is not None else {}),
        }

    def warnings(self) -> list[str]:
        """Return what makes the games doubtful as a simulation: bots that never bought or never chose."""
        if not self.games:
            return []
        reserve = f" (the bots keep back {self.bot_reserve}; see --bot-reserve)" if self.bot_reserve is not None else ""
        found = []
        # a deed can reach a player in play only if some deed was left over by the setup (an edition
        # that deals every deed at the setup leaves only trades, which the bots' reserve does not govern)
        if not self.titles and self.titles_open:
            found.append(f"no title deed reached a player after the setup in any of the {self.games} games{reserve}")
        if not self.choices:
            found.append(f"no decision other than 'done' was taken in any of the {self.games} games{reserve}")
        return found


def _median(counts: Counter) -> float:
    """Return the median of values given as value -> count (as statistics.median would)."""
    n = sum(counts.values())
    lower, upper = (n - 1) // 2, n // 2
    seen, low_value = 0, None
    for value in sorted(counts):
        seen += counts[value]
        if low_value is None and seen > lower:
            low_value = value
        if seen > upper:
            return low_value if lower == upper else (low_value + value) / 2  # type: ignore[return-value]
    raise ValueError("no values")


def summarise(records: Sequence[GameRecord], players: int) -> dict[str, Any]:
    """Return the summary shown by `landlord-dsl simulate` (also its --json output)."""
    summary = Summary(players)
    for r in records:
        summary.add(r)
    return summary.result()


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
