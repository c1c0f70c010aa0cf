"""Statistics of many games with their uncertainty: `simulate --stats`.

Each game is reduced, as soon as it is over, to a `GameStats` (counts by
space, rent by space, when seats left, how long it lasted, its Gini curves);
a `Stats` adds these up as integer sums and sums of squares, so it merges
exactly like simulate.Summary: any split of the games over processes gives
the same numbers, and memory does not grow with the number of games.

The unit of sampling is the game (its throws are not independent of each
other), so every standard error is taken across games:

* landing probabilities are ratio estimates (landings on a space / movement
  throws, see observe.Throw, or / turns),
  with the delta-method standard error sqrt(sum_i (x_i - p n_i)^2 / (G (G-1))) / mean(n);
* per-game means (rent, elimination times) have the usual standard error s / sqrt(G);
* a seat's win rate (a tie shares the win) has a 95 % Wilson score interval;
* game length is a survival curve (Kaplan-Meier): a game stopped by the turn
  limit is censored at that length, not counted as finished; intervals by
  Greenwood's formula;
* 95 % intervals are the estimate ± 1.96 standard errors unless said otherwise.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from ..core.measures import gini
from ..engine.events import decode
from ..engine.observe import Tracker, turns

if TYPE_CHECKING:
    from ..checking.loader import RuleSet
    from ..engine.game import Game
    from ..program.compiled import Program
    from .simulate import Summary

Z95 = 1.96
EDITION_DICE = "the edition's dice"
THROW_DEFINITION = (
    "a throw of any dice (the edition's, or a set declared with `dice NAME`; sets thrown together before "
    "the token moves are one throw) that was the turn's first or moved the thrower's token; it lands "
    "where the thrower stands when it is over"
)
RENT_DEFINITION = (
    "a payment from a player to the player who owns (holds the title deed of) the space "
    "the payer is standing on, whichever rule made it"
)


@attrs.frozen
class Layout:
    """What the statistics need to know about the board: its labels and the title set of each space."""

    labels: tuple[str, ...]
    # per space: the set a titled space is drawn in (board.py), else its kind; None for untitled spaces
    sets: tuple[str | None, ...]
    set_labels: tuple[tuple[str, str], ...] = ()  # (set, its label) for every set that has one
    # (name, label) of every set of dice a throw may be of: the edition's ("dice") and each declared set
    dice: tuple[tuple[str, str], ...] = (("dice", EDITION_DICE),)

    def set_label(self, name: str) -> str:
        """Return the label of a title set (a group or a kind), or its name when it has none."""
        return dict(self.set_labels).get(name, name)


def set_of(program: Program, rules: RuleSet, space: int) -> str | None:
    """Return the name of the set a space is belongs to (drawn in, on a board), or None.

    The set is the group a group-valued field of the space names (a colour group, a
    section), else the smallest group it belongs to whose members are all of one kind
    (railroads, say); a group of mixed kinds (the corners, everything for sale) is no set.
    """
    groups = rules.model.groups
    kinds = program.space_kinds
    by_members = {tuple(members): name for name, members in groups.items()}
    for column in program.space_fields.values():
        value = column[space]
        if isinstance(value, tuple) and value in by_members:
            return by_members[value]
    own = [
        name
        for name in rules.model.spaces[space].groups
        if name in groups and len({kinds[i] for i in groups[name]}) == 1
    ]
    if not own:
        return None
    return min(own, key=lambda name: (len(groups[name]), name))


def layout(program: Program, rules: RuleSet) -> Layout:
    """Return the Layout of a compiled rule set's board."""
    sets = tuple(
        (set_of(program, rules, s) or program.space_kinds[s]) if program.title_card[s] is not None else None
        for s in range(len(program.space_names))
    )
    model = rules.model
    named = {**{k: d.label for k, d in model.kinds.items() if d.label}, **model.group_labels}
    set_labels = tuple(sorted((name, named[name]) for name in set(sets) if name is not None and named.get(name)))
    dice = (("dice", EDITION_DICE), *((d.name, d.label) for d in program.dice_sets))
    return Layout(tuple(program.space_labels), sets, set_labels, dice)


@attrs.frozen
class GameStats:
    """What one game contributes to the statistics."""

    throws: int  # movement throws
    throw_landings: tuple[int, ...]  # per space: movement throws that ended there
    turns: int
    turn_landings: tuple[int, ...]  # per space: turns that ended there
    rent: tuple[int, ...]  # per space: rent received there (RENT_DEFINITION)
    length: int  # turns played
    censored: bool  # stopped by the turn limit
    eliminations: tuple[int, ...]  # the turn of each elimination, in order
    wealth_gini: tuple[int, ...]  # after setup and every round, in ten-thousandths
    cash_gini: tuple[int, ...]
    thrown: tuple[tuple[str, int], ...] = ()  # (set of dice, movement throws it was thrown in), by name


def game_stats(game: Game, cash_history: Sequence[Sequence[int]]) -> GameStats:
    """Return the GameStats of a finished game (`cash_history`: the seats' cash after setup and each round)."""
    size = game.board_size
    throw_at, turn_at = [0] * size, [0] * size
    thrown: Counter = Counter()
    tracker = Tracker(game)
    for turn in turns(game, tracker):
        turn_at[turn.end] += 1
        for throw in turn.throws:
            if throw.movement:
                throw_at[throw.end] += 1
                thrown.update(throw.sets)
    out = [decode(entry).turn for entry in game.log if entry[0] == "out"]
    history = game.wealth_history or []
    return GameStats(
        sum(throw_at),
        tuple(throw_at),
        sum(turn_at),
        tuple(turn_at),
        tuple(tracker.rent),
        game.turn,
        game.end_reason == f"turn limit ({game.turn_limit})",
        tuple(out),
        tuple(round(gini(w) * 10000) for w in history),
        tuple(round(gini(c) * 10000) for c in cash_history),
        tuple(sorted(thrown.items())),
    )


def _add(total: list, values: Sequence) -> None:
    """Add `values` into `total` elementwise, growing it as needed."""
    total.extend([0] * (len(values) - len(total)))
    for i, v in enumerate(values):
        total[i] += v


@attrs.define
class Ratio:
    """Exact sums for a ratio estimate per space: landings x_s over throws n, game by game."""

    n: int = 0
    n2: int = 0
    x: list[int] = attrs.field(factory=list)
    x2: list[int] = attrs.field(factory=list)
    xn: list[int] = attrs.field(factory=list)

    def add(self, n: int, xs: Sequence[int]) -> None:
        self.n += n
        self.n2 += n * n
        _add(self.x, xs)
        _add(self.x2, [v * v for v in xs])
        _add(self.xn, [v * n for v in xs])

    def merge(self, other: Ratio) -> None:
        self.n += other.n
        self.n2 += other.n2
        for mine, theirs in ((self.x, other.x), (self.x2, other.x2), (self.xn, other.xn)):
            _add(mine, theirs)

    def estimates(self, games: int) -> list[tuple[float, float]]:
        """Return (probability, standard error) per space."""
        out = []
        for x, x2, xn in zip(self.x, self.x2, self.xn):
            if self.n == 0:
                out.append((0.0, 0.0))
                continue
            p = Fraction(x, self.n)
            spread = x2 - 2 * p * xn + p * p * self.n2  # sum over games of (x_i - p n_i)^2
            se = math.sqrt(float(spread) / (games * (games - 1))) / (self.n / games) if games > 1 else 0.0
            out.append((float(p), se))
        return out


@attrs.define
class Moments:
    """Exact sums of one quantity per game, elementwise over a list (spaces, rounds, seats...)."""

    count: list[int] = attrs.field(factory=list)
    total: list[int] = attrs.field(factory=list)
    squares: list[int] = attrs.field(factory=list)

    def add(self, values: Sequence[int]) -> None:
        _add(self.count, [1] * len(values))
        _add(self.total, values)
        _add(self.squares, [v * v for v in values])

    def merge(self, other: Moments) -> None:
        for mine, theirs in ((self.count, other.count), (self.total, other.total), (self.squares, other.squares)):
            _add(mine, theirs)

    def estimates(self, scale: int = 1) -> list[tuple[float, float, int]]:
        """Return (mean, standard error of the mean, count) per element, values divided by `scale`."""
        out = []
        for n, s, q in zip(self.count, self.total, self.squares):
            mean = Fraction(s, n * scale) if n else Fraction(0)
            var = (Fraction(q) - Fraction(s * s, n)) / (n - 1) / (scale * scale) if n > 1 else Fraction(0)
            out.append((float(mean), math.sqrt(float(var) / n) if n else 0.0, n))
        return out


@attrs.define
class Stats:
    """The mergeable statistics of many games (see the module's docstring for the estimators)."""

    layout: Layout
    games: int = 0
    throw_landings: Ratio = attrs.field(factory=Ratio)
    turn_landings: Ratio = attrs.field(factory=Ratio)
    rent: Moments = attrs.field(factory=Moments)  # per space
    rent_by_set: Counter = attrs.field(factory=Counter)  # set -> sum over games of its rent
    rent_by_set_squares: Counter = attrs.field(factory=Counter)
    rent_total: Moments = attrs.field(factory=Moments)
    finished: Counter = attrs.field(factory=Counter)  # length -> games that ended then
    censored: Counter = attrs.field(factory=Counter)  # length -> games stopped by the turn limit then
    eliminations: Counter = attrs.field(factory=Counter)  # (order, turn) -> games
    wealth_gini: Moments = attrs.field(factory=Moments)  # per round
    cash_gini: Moments = attrs.field(factory=Moments)
    thrown: Counter = attrs.field(factory=Counter)  # set of dice -> movement throws it was thrown in

    def add(self, g: GameStats) -> None:
        """Count one game in."""
        self.games += 1
        self.thrown.update(dict(g.thrown))
        self.throw_landings.add(g.throws, g.throw_landings)
        self.turn_landings.add(g.turns, g.turn_landings)
        self.rent.add(g.rent)
        by_set: Counter = Counter()
        for name, amount in zip(self.layout.sets, g.rent):
            if name is not None:
                by_set[name] += amount
        for name in sorted(set(s for s in self.layout.sets if s is not None)):
            self.rent_by_set[name] += by_set[name]
            self.rent_by_set_squares[name] += by_set[name] ** 2
        self.rent_total.add([sum(g.rent)])
        (self.censored if g.censored else self.finished)[g.length] += 1
        for order, turn in enumerate(g.eliminations, 1):
            self.eliminations[(order, turn)] += 1
        self.wealth_gini.add(g.wealth_gini)
        self.cash_gini.add(g.cash_gini)

    def merge(self, other: Stats) -> None:
        """Add another Stats' games to this one."""
        if other.layout != self.layout:
            raise ValueError("statistics of different boards")
        self.games += other.games
        for name in ("throw_landings", "turn_landings", "rent", "rent_total", "wealth_gini", "cash_gini"):
            getattr(self, name).merge(getattr(other, name))
        for name in ("rent_by_set", "rent_by_set_squares", "finished", "censored", "eliminations", "thrown"):
            getattr(self, name).update(getattr(other, name))

    # ---------------------------------------------------------------- results
    def result(self, summary: Summary) -> dict[str, Any]:
        """Return the statistics as plain data (the "stats" part of `simulate --json`)."""
        g = self.games
        labels = self.layout.labels

        def landings(ratio: Ratio) -> list[dict[str, Any]]:
            return [
                {"index": i, "space": labels[i], "probability": round(p, 6), "se": round(se, 6)}
                for i, (p, se) in enumerate(ratio.estimates(g))
            ]

        rent_rows = [
            {
                "index": i,
                "space": labels[i],
                "set": self.layout.sets[i],
                "mean_per_game": round(m, 3),
                "se": round(se, 3),
            }
            for i, (m, se, _) in enumerate(self.rent.estimates())
            if self.layout.sets[i] is not None or self.rent.total[i]
        ]
        by_set = []
        for name in sorted(self.rent_by_set):
            s, q = self.rent_by_set[name], self.rent_by_set_squares[name]
            m = Moments([g], [s], [q]).estimates()[0]
            by_set.append(
                {
                    "set": name,
                    "label": self.layout.set_label(name),
                    "mean_per_game": round(m[0], 3),
                    "se": round(m[1], 3),
                }
            )
        total = self.rent_total.estimates()[0] if self.rent_total.count else (0.0, 0.0, 0)
        return {
            "method": "standard errors across games (the game is the unit); 95 % intervals: Wilson for win "
            "rates, Kaplan-Meier with Greenwood for game length, estimate ± 1.96 SE otherwise",
            "movement_throws": self.throw_landings.n,
            "movement_throw": THROW_DEFINITION,
            "throws_by_dice": [
                {"dice": name, "label": label, "throws": self.thrown[name]}
                for name, label in self.layout.dice
                if self.thrown[name]
            ],
            "turns": self.turn_landings.n,
            "landing_per_movement_throw": landings(self.throw_landings),
            "landing_per_turn": landings(self.turn_landings),
            "rent": {
                "definition": RENT_DEFINITION,
                "per_game": round(total[0], 3),
                "se": round(total[1], 3),
                "by_space": rent_rows,
                "by_set": by_set,
            },
            "wins_by_seat": [
                dict(zip(("seat", "rate", "ci95_low", "ci95_high"), (i + 1, *wilson(w, g))))
                for i, w in enumerate(summary.wins)
            ],
            "game_length": self._length(),
            "gini_by_round": {"wealth": _curve(self.wealth_gini, g), "cash": _curve(self.cash_gini, g)},
            "eliminations": self._eliminations(summary.players),
        } | with_old_throw_keys(landings(self.throw_landings), self.throw_landings.n)

    def _length(self) -> dict[str, Any]:
        curve = kaplan_meier(self.finished, self.censored)
        median = next((t for t, s, _, _ in curve if s <= 0.5), None)
        finished = sum(self.finished.values())
        return {
            "games": self.games,
            "finished": finished,
            "censored": sum(self.censored.values()),
            "censored_at": sorted(self.censored),
            "mean_of_finished": round(sum(t * c for t, c in self.finished.items()) / finished, 2) if finished else None,
            "median": median,  # None: more than half the games were stopped by the turn limit
            "survival": [[t, round(s, 5), round(lo, 5), round(hi, 5)] for t, s, lo, hi in curve],
        }

    def _eliminations(self, players: int) -> list[dict[str, Any]]:
        rows = []
        for order in sorted({k for k, _ in self.eliminations}):
            times = [(t, c) for (k, t), c in self.eliminations.items() if k == order]
            n = sum(c for _, c in times)
            s = sum(t * c for t, c in times)
            q = sum(t * t * c for t, c in times)
            mean, se, _ = Moments([n], [s], [q]).estimates()[0]
            rounds = sum((t + players - 1) // players * c for t, c in times)  # turn t is in round ceil(t / players)
            rows.append(
                {
                    "order": order,
                    "games": n,
                    "share_of_games": round(n / self.games, 4),
                    "mean_turn": round(mean, 2),
                    "se": round(se, 2),
                    "mean_round": round(rounds / n, 2),
                }
            )
        return rows


def _curve(moments: Moments, games: int) -> list[list[float]]:
    """Return [mean, 95 % low, 95 % high] per round while at least half the games had reached it."""
    return [
        [round(m, 4), round(m - Z95 * se, 4), round(m + Z95 * se, 4)]
        for m, se, n in moments.estimates(10000)
        if 2 * n >= games
    ]


def wilson(successes: Fraction | int, n: int) -> tuple[float, float, float]:
    """Return (rate, 95 % low, 95 % high): the Wilson score interval of successes out of n."""
    if n == 0:
        return 0.0, 0.0, 1.0
    p = float(successes) / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return round(p, 4), round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def fixed(value: float, digits: int, sign: bool = False) -> str:
    """Return `value` with `digits` decimals (a + before a positive one with `sign`), never "-0.0"."""
    text = f"{value:{'+' if sign else ''}.{digits}f}"
    if text.startswith("-") and not any(c in "123456789" for c in text):
        text = ("+" if sign else "") + text[1:]
    return text


def bound(value: float, digits: int, excludes_zero: bool) -> str:
    """Return an interval's bound as `fixed` signs it, with as many more decimals (up to 8) as it takes not to
    read as zero when the interval excludes zero: a mark for that beside "[-30.0, +0.0]" would seem wrong."""
    text = fixed(value, digits, True)
    while excludes_zero and value != 0 and digits < 8 and not any(c in "123456789" for c in text):
        digits += 1
        text = fixed(value, digits, True)
    return text


def percent(share: float, digits: int = 1, sign: bool = False) -> str:
    """Return a share (0 to 1) as a number of percent with `digits` decimals, without the % sign."""
    return fixed(100 * share, digits, sign)


def kaplan_meier(finished: Counter, censored: Counter) -> list[tuple[int, float, float, float]]:
    """Return (length, survival, 95 % low, 95 % high) at every length where games finished.

    Survival S(t) is the estimated share of games still running after t turns;
    a game censored at t counts as at risk at t (it was not seen to finish).
    """
    at_risk = sum(finished.values()) + sum(censored.values())
    s, greenwood = 1.0, 0.0
    out = []
    for t in sorted(set(finished) | set(censored)):
        d = finished.get(t, 0)
        if d:
            s *= 1 - d / at_risk
            if at_risk > d:
                greenwood += d / (at_risk * (at_risk - d))
            half = Z95 * s * math.sqrt(greenwood)
            out.append((t, s, max(0.0, s - half), min(1.0, s + half)))
        at_risk -= d + censored.get(t, 0)
    return out


def with_old_throw_keys(landing: list[dict[str, Any]], throws: int | None = None) -> dict[str, Any]:
    """Return the keys that named movement throws before they said so (`throws`, `throw`, `landing_per_throw`),
    kept for the scripts that read them: the same values as `movement_throws`, `movement_throw` and
    `landing_per_movement_throw`."""
    old: dict[str, Any] = {"landing_per_throw": landing}
    if throws is not None:
        old |= {"throws": throws, "throw": THROW_DEFINITION}
    return old


def _widest(rows: list[dict[str, Any]], key: str) -> int:
    """Return the length of the longest `row[key]` of `rows` (0 for none)."""
    return max((len(row[key]) for row in rows), default=0)


def render_stats(stats: dict[str, Any], top: int = 10) -> str:
    """Return the statistics as text for the terminal (the `top` spaces by landing, rent)."""
    lines = [
        "",
        f"statistics ({stats['movement_throws']} movement throws, {stats['turns']} turns; {stats['method']})",
        "",
    ]
    per_turn = {r["index"]: r for r in stats["landing_per_turn"]}
    thrown = ", ".join(f"{row['label']} {row['throws']}" for row in stats["throws_by_dice"]) or "none"
    lines.append(f"  movement throw    {stats['movement_throw']}; thrown: {thrown}")
    lines.append("  landing probability (space #index: per movement throw ± SE, per turn ± SE), most landed first")
    landed = sorted(stats["landing_per_movement_throw"], key=lambda r: (-r["probability"], r["index"]))[:top]
    width = _widest(landed, "space")
    for row in landed:
        turn = per_turn[row["index"]]
        lines.append(
            f"    {row['space']:{width}} #{row['index']:<3} {percent(row['probability'], 3):>6}% ± "
            f"{percent(row['se'], 3)}   {percent(turn['probability'], 3):>6}% ± {percent(turn['se'], 3)}"
        )
    rent = stats["rent"]
    lines.append(f"  rent per game     {rent['per_game']:.1f} ± {rent['se']:.1f} (SE)   rent = {rent['definition']}")
    sets = sorted(rent["by_set"], key=lambda r: -r["mean_per_game"])[:top]
    spaces = sorted(rent["by_space"], key=lambda r: -r["mean_per_game"])[:top]
    # the sets' rows ("set LABEL") and the spaces' ("NAME #INDEX") put their figures in one column
    width = max(_widest(sets, "label") + len("set "), _widest(spaces, "space"))
    for row in sets:
        named = f"set {row['label']}"
        lines.append(f"    {named:{width}} {'':4} {row['mean_per_game']:10.1f} ± {row['se']:.1f}")
    for row in spaces:
        lines.append(f"    {row['space']:{width}} #{row['index']:<3} {row['mean_per_game']:10.1f} ± {row['se']:.1f}")
    lines.append(
        "  win rate by seat  "
        + "   ".join(
            f"seat {w['seat']}: {percent(w['rate'])}% [{percent(w['ci95_low'])}, {percent(w['ci95_high'])}]"
            for w in stats["wins_by_seat"]
        )
        + "  (95 % Wilson interval, ties shared)"
    )
    length = stats["game_length"]
    median = length["median"] if length["median"] is not None else "not reached"
    mean = length["mean_of_finished"] if length["mean_of_finished"] is not None else "-"
    lines.append(
        f"  game length       {length['finished']} finished, {length['censored']} stopped by the turn limit "
        f"(censored); Kaplan-Meier median {median} turns; mean of finished games {mean}"
    )
    curves = stats["gini_by_round"]
    for name in ("wealth", "cash"):
        curve = curves[name]
        if curve:
            last = curve[-1]
            lines.append(
                f"  Gini of {name:6}    after setup {curve[0][0]:.3f}, after round {len(curve) - 1} "
                f"{last[0]:.3f} [{last[1]:.3f}, {last[2]:.3f}] (95 %)"
            )
    if stats["eliminations"]:
        for row in stats["eliminations"]:
            lines.append(
                f"  elimination {row['order']}     in {100 * row['share_of_games']:.1f}% of games, "
                f"mean turn {row['mean_turn']} ± {row['se']} (round {row['mean_round']})"
            )
    else:
        lines.append("  eliminations      none")
    return "\n".join(lines)
