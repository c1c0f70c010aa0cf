"""Agents stage: a leaf value learned from bot games, who is likely to win a long game from a position.

A truncated rollout that values a position by each seat's share of the scores is myopic: the score of a
property game is usually worth (cash, titles at their price), which does not see that a complete group
with houses will bankrupt the others. `ValueModel` estimates instead each seat's chance of winning the
game, by a conditional logit (a softmax over the seats still playing) of a linear score of the seat's
features. The features are read from the generic game state only, worked out from the rule file's
declarations (`FeatureLayout`): cash, score and titles; for each integer field of the spaces (a price),
its sum over the seat's titles; for each numeric space variable (houses, mortgaged), its sum over the
seat's titles and over those of its titles whose group (under each group-valued field) it owns whole;
for each space variable holding a seat, the spaces where it holds this one; the numeric player variables;
the cards held; and the seat's share of the positive scores. Nothing here names an edition: the weights
are what the rules of one edition (with its options, for a number of players) make of those features.

`train_value_model` learns them from games between heuristic bots that now and then answer at random
(seeded: the same arguments give the
same model, to the bit), every turn of every game a sample labelled by who won; `value_model` returns
the model for a program and a number of players, from a per-user cache keyed by the rules' hash, their
options, the players and the training's settings, training it there the first time (docs/search.md,
"A learned value"). Pure Python: the core install needs no numpy.
"""

from __future__ import annotations

import hashlib
import json
import math
import operator
import os
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from ..core.errors import UsageError
from ..program.requests import BidRequest, DecisionRequest
from . import HeuristicAgent

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..program.compiled import Program

# Bumped whenever the features, the training or the file's layout change: a cached model of another
# version is trained again.
VERSION = 3
TRAIN_GAMES = 200  # bot games a model is learned from (about 30,000 positions on a property game)
# The L2 penalty on the standardised weights, per game fitted: a game's positions are far from independent
# samples. On the held-out games of 1906, 1933 and 1939 (200 games, 4 players) 2 a game predicted better
# than 1/160 or 30/160 a game.
RIDGE_PER_GAME = 2.0
# How often a bot of the training games answers at random (a uniformly random option; a bid of the minimum or
# a pass at even odds). Without it a feature only goes with winning (a mortgaged title, an offer's turn stamp
# in the bots' games mark the seats in trouble, or late), and a searcher valuing by the model takes the
# answers that move such features for no good; answers taken at random show what they do.
EXPLORE = 0.1
NEWTON_STEPS = 12

_NUMERIC = ("int", "bool")


@attrs.frozen
class FeatureLayout:
    """Which of a program's declarations the features read, worked out from their types alone: `fields`
    (integer space fields), `groups` (group-valued space fields), `space_vars` (numeric space variables),
    `seat_vars` (space variables that hold a seat), `player_vars` (numeric player variables), by index
    or name as the game keeps them; `names` the features' names, in order."""

    fields: tuple[str, ...]
    groups: tuple[str, ...]
    space_vars: tuple[int, ...]
    seat_vars: tuple[int, ...]
    player_vars: tuple[int, ...]
    names: tuple[str, ...]

    @classmethod
    def of(cls, program: Program) -> FeatureLayout:
        """Return the layout of `program`'s features."""
        fields, groups = [], []
        for name, values in program.space_fields.items():
            present = [v for v in values if v is not None]
            if present and all(type(v) in (int, bool) for v in present):
                fields.append(name)
            elif present and all(isinstance(v, tuple) for v in present):
                groups.append(name)
        space_types = program.var_types[2] if len(program.var_types) > 2 else ()
        player_types = program.var_types[1] if len(program.var_types) > 1 else ()
        space_vars = tuple(i for i, t in enumerate(space_types) if t in _NUMERIC)
        seat_vars = tuple(i for i, t in enumerate(space_types) if t.rstrip("?") == "player")
        player_vars = tuple(i for i, t in enumerate(player_types) if t in _NUMERIC)
        sv_names, pv_names = program.space_var_names, program.player_var_names
        names = ["cash", "score", "score share", "titles", "cards held"]
        names += [f"titles' {f}" for f in fields]
        names += [f"titles' {sv_names[i]}" for i in space_vars]
        names += [f"spaces whose {sv_names[i]} is the seat" for i in seat_vars]
        for g in groups:
            names.append(f"titles of whole groups ({g})")
            names += [f"whole groups' {sv_names[i]} ({g})" for i in space_vars]
        names += [f"player's {pv_names[i]}" for i in player_vars]
        return cls(tuple(fields), tuple(groups), space_vars, seat_vars, player_vars, tuple(names))

    def features(self, game: Game) -> list[list[float]]:
        """Return each seat's features in `game` as it stands (one list a seat, in `names`' order)."""
        prog, n = game.prog, game.n
        scores = game.scores()
        positive = sum(max(0, s) for s in scores)
        field_values = [prog.space_fields[f] for f in self.fields]
        group_values = [prog.space_fields[g] for g in self.groups]
        sv, pv, owner = game.sv, game.pv, game.owner
        out = []
        for seat in range(n):
            titles = game.titles[seat]
            row: list[float] = [
                game.bal[game.nacc + seat],
                scores[seat],
                max(0, scores[seat]) / positive if positive else 1 / n,
                len(titles),
                len(game.hands[seat]),
            ]
            row += [sum(values[t] or 0 for t in titles) for values in field_values]
            row += [sum(sv[i][t] or 0 for t in titles) for i in self.space_vars]
            row += [sum(1 for v in sv[i] if v == seat) for i in self.seat_vars]
            for groups in group_values:
                whole = [t for t in titles if groups[t] is not None and all(owner[x] == seat for x in groups[t])]
                row.append(len(whole))
                row += [sum(sv[i][t] or 0 for t in whole) for i in self.space_vars]
            row += [pv[i][seat] or 0 for i in self.player_vars]
            out.append([float(x) for x in row])
        return out


@attrs.frozen
class ValueModel:
    """Each seat's chance of winning, learned for one program and number of players: the softmax over
    the seats still playing of `weights` . (features - `means`) / `scales` (`FeatureLayout.features`).
    `key` names what it was learned for (`model_key`); `log_loss` and `baseline_log_loss` are the mean
    log-loss of its predictions and of the scores' shares on the held-out games of its training."""

    key: str
    names: tuple[str, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    samples: int = 0
    log_loss: float = math.nan
    baseline_log_loss: float = math.nan
    layout: FeatureLayout | None = attrs.field(default=None, eq=False, repr=False)

    def with_layout(self, program: Program) -> ValueModel:
        """Return the model bound to `program`'s feature layout (UsageError if its features differ)."""
        layout = FeatureLayout.of(program)
        if layout.names != self.names:
            raise UsageError("this value model was learned for rules whose features differ from these rules'")
        return attrs.evolve(self, layout=layout)

    def values(self, game: Game) -> list[float]:
        """Return every seat's estimated chance of winning `game` from where it stands (0 for a seat no
        longer playing; the chances add up to 1)."""
        layout = self.layout or FeatureLayout.of(game.prog)
        return self.predict(layout.features(game), [s in game.seats for s in range(game.n)])

    def predict(self, rows: Sequence[Sequence[float]], playing: Sequence[bool]) -> list[float]:
        """Return the softmax over the `playing` seats of the linear scores of their feature `rows`."""
        scores = [
            sum(w * (x - m) / s for w, x, m, s in zip(self.weights, row, self.means, self.scales)) for row in rows
        ]
        return _softmax(scores, playing)

    def to_json(self) -> str:
        """Return the model as JSON (`from_json` reads it back)."""
        fields = {a.name: getattr(self, a.name) for a in attrs.fields(ValueModel) if a.name != "layout"}
        return json.dumps({"version": VERSION, **fields}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> ValueModel:
        """Return the model `to_json` wrote (UsageError if the text is not one, or of another version)."""
        try:
            data = json.loads(text)
            if data.pop("version") != VERSION:
                raise ValueError("another version")
            model = cls(
                key=str(data["key"]),
                names=tuple(str(x) for x in data["names"]),
                means=tuple(float(x) for x in data["means"]),
                scales=tuple(float(x) for x in data["scales"]),
                weights=tuple(float(x) for x in data["weights"]),
                samples=int(data["samples"]),
                log_loss=float(data["log_loss"]),
                baseline_log_loss=float(data["baseline_log_loss"]),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as why:
            raise UsageError(f"not a value model of version {VERSION}: {why}") from None
        if not len(model.names) == len(model.means) == len(model.scales) == len(model.weights):
            raise UsageError("not a value model: its names, means, scales and weights differ in number")
        return model


def _softmax(scores: Sequence[float], playing: Sequence[bool]) -> list[float]:
    """Return the softmax of `scores` over the `playing` entries, 0 for the others (even shares of the
    playing if none is: a game that ended by elimination is valued by its result, never here)."""
    live = [s for s, p in zip(scores, playing) if p]
    if not live:
        return [1 / len(scores)] * len(scores)
    top = max(live)
    exps = [math.exp(s - top) if p else 0.0 for s, p in zip(scores, playing)]
    total = sum(exps)
    return [e / total for e in exps]


def model_key(program: Program, players: int, games: int = TRAIN_GAMES, seed: int = 0) -> str:
    """Return what a model is learned for, as a hash: the rules (their hash and options), the number of
    players, the training's games and seed, and VERSION."""
    what = repr((VERSION, program.rules_hash, sorted(program.options.items()), players, games, seed))
    return hashlib.sha256(what.encode("utf-8")).hexdigest()[:32]


class ExploringBot(HeuristicAgent):
    """The heuristic bot, but for an answer at random once in `1 / explore` requests (a uniformly random
    legal option; a bid of the minimum or a pass at even odds), drawn from its own seeded generator."""

    def __init__(self, explore: float, seed: int) -> None:
        super().__init__()
        self.explore = explore
        self.rng = random.Random(seed)

    def fork(self) -> ExploringBot:
        """Return a copy with a copy of the generator (Agent.fork)."""
        other = ExploringBot(self.explore, 0)
        other.rng.setstate(self.rng.getstate())
        return other

    def choose(self, game: Game, request: DecisionRequest) -> int:
        """Return a random legal option's index now and then, else the heuristic bot's."""
        if len(request.legal) > 1 and self.rng.random() < self.explore:
            return self.rng.randrange(len(request.legal))
        return super().choose(game, request)

    def bid(self, game: Game, request: BidRequest) -> int | None:
        """Return the minimum or a pass at even odds now and then, else the heuristic bot's bid."""
        if self.rng.random() < self.explore:
            return request.minimum if self.rng.random() < 0.5 else None
        return super().bid(game, request)


def bot_positions(
    program: Program, players: int, games: int, seed: int = 0, explore: float = EXPLORE
) -> list[tuple[list[list[float]], list[bool], list[float]]]:
    """Return the samples of `games` games between heuristic bots that answer at random with the
    probability `explore` (ExploringBot), game i thrown from seed `seed + i`: after every turn, each
    seat's features, which seats still play, and the game's result (1 shared among the winners)."""
    from ..engine.game import Game

    layout = FeatureLayout.of(program)
    out = []
    for i in range(games):
        bots = [
            ExploringBot(explore, (seed + i) * 1009 + seat) if explore else HeuristicAgent() for seat in range(players)
        ]
        game = Game(program, bots, seed=seed + i)
        positions: list[tuple[list[list[float]], list[bool]]] = []

        def keep(g: Game, positions: list = positions) -> None:
            if not g.over:
                positions.append((layout.features(g), [s in g.seats for s in range(g.n)]))

        result = game.play(on_turn=keep)
        winners = set(result.winners)
        label = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
        out += [(rows, playing, label) for rows, playing in positions]
    return out


def fit(
    samples: Sequence[tuple[list[list[float]], list[bool], list[float]]], ridge: float
) -> tuple[list[float], list[float], list[float]]:
    """Return (means, scales, weights) of the conditional logit that best predicts each sample's result
    from its seats' features (maximum likelihood with an L2 penalty `ridge` on the standardised weights,
    by Newton's method). A feature that never varies gets the weight 0."""
    rows = [row for rs, playing, _ in samples for row, p in zip(rs, playing) if p]
    width = len(rows[0]) if rows else 0
    columns = [[row[j] for row in rows] for j in range(width)]
    means = [math.fsum(c) / len(c) for c in columns]
    scales = []
    for c, m in zip(columns, means):
        spread = math.sqrt(math.fsum((x - m) ** 2 for x in c) / len(c))
        scales.append(spread if spread > 1e-9 else math.inf)
    used = [j for j in range(width) if scales[j] != math.inf]
    # the standardised features of the playing seats, column by column (the sums below run in C)
    z = [[(x - means[j]) / scales[j] for x in columns[j]] for j in used]
    groups: list[tuple[int, int, list[float]]] = []  # each sample's rows in `z` and its playing seats' labels
    at = 0
    for _, playing, label in samples:
        live = [lab for lab, p in zip(label, playing) if p]
        total = sum(live)
        groups.append((at, at + len(live), [lab / total for lab in live] if total else [1 / len(live)] * len(live)))
        at += len(live)
    w = [0.0] * len(used)
    for _ in range(NEWTON_STEPS):
        scores = [math.fsum(map(operator.mul, (col[r] for col in z), w)) for r in range(at)]
        residual = [0.0] * at  # label - probability, row by row
        root_p = [0.0] * at
        for start, end, live in groups:
            probs = _softmax(scores[start:end], [True] * (end - start))
            for k, (p, y) in enumerate(zip(probs, live)):
                residual[start + k] = y - p
                root_p[start + k] = math.sqrt(p)
        gradient = [math.fsum(map(operator.mul, col, residual)) - ridge * wj for col, wj in zip(z, w)]
        # the Hessian of the negative log-likelihood: for each sample, the covariance of its rows under
        # the predicted probabilities (rows centred on their probability-weighted mean)
        centred = []
        for col in z:
            c = [0.0] * at
            for start, end, _ in groups:
                ps = [root_p[r] ** 2 for r in range(start, end)]
                mean = math.fsum(p * col[r] for p, r in zip(ps, range(start, end)))
                for r in range(start, end):
                    c[r] = (col[r] - mean) * root_p[r]
            centred.append(c)
        k = len(used)
        hessian = [[0.0] * k for _ in range(k)]
        for a in range(k):
            for b in range(a, k):
                hessian[a][b] = hessian[b][a] = math.fsum(map(operator.mul, centred[a], centred[b]))
            hessian[a][a] += ridge
        step = _solve(hessian, gradient)
        w = [wj + sj for wj, sj in zip(w, step)]
        if max((abs(s) for s in step), default=0.0) < 1e-7:
            break
    weights = [0.0] * width
    for j, wj in zip(used, w):
        weights[j] = wj
    return means, [s if s != math.inf else 1.0 for s in scales], weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Return x with matrix . x = vector (Gaussian elimination with partial pivoting; the matrix is
    positive definite: a Hessian plus the ridge)."""
    n = len(vector)
    a = [row[:] + [v] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - math.fsum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _log_loss(predicted: Sequence[float], label: Sequence[float]) -> float:
    """Return the cross-entropy of a result under predicted chances (each floored at 1e-6)."""
    return -math.fsum(y * math.log(max(p, 1e-6)) for p, y in zip(predicted, label) if y)


def train_value_model(program: Program, players: int, games: int = TRAIN_GAMES, seed: int = 0) -> ValueModel:
    """Return a ValueModel learned from `games` games between heuristic bots of `program` with `players`
    seats (game i from seed `seed + i`): the first four fifths of the games fit it (`fit`, with the ridge
    RIDGE_PER_GAME a game), the rest measure its log-loss against the scores' shares'. The same arguments
    give the same model.

    :raises UsageError: fewer than 5 games, or a number of players the rules do not allow.
    """
    if games < 5:
        raise UsageError(f"a value model is learned from at least 5 games, not {games}")
    lo, hi = program.players
    if not lo <= players <= hi:
        raise UsageError(f"{program.title} is for {lo} to {hi} players, not {players}")
    held_out = games // 5
    train = bot_positions(program, players, games - held_out, seed)
    test = bot_positions(program, players, held_out, seed + games - held_out)
    means, scales, weights = fit(train, RIDGE_PER_GAME * (games - held_out))
    layout = FeatureLayout.of(program)
    share = layout.names.index("score share")
    model = ValueModel(
        model_key(program, players, games, seed),
        layout.names,
        tuple(means),
        tuple(scales),
        tuple(weights),
        samples=len(train),
    )
    loss = [_log_loss(model.predict(rows, playing), label) for rows, playing, label in test]
    baseline = [_log_loss(_shares([row[share] for row in rows], playing), label) for rows, playing, label in test]
    return attrs.evolve(
        model,
        log_loss=math.fsum(loss) / max(1, len(loss)),
        baseline_log_loss=math.fsum(baseline) / max(1, len(baseline)),
        layout=layout,
    )


def _shares(shares: Sequence[float], playing: Sequence[bool]) -> list[float]:
    """Return the playing seats' shares of the scores, renormalised to add up to 1."""
    live = [s if p else 0.0 for s, p in zip(shares, playing)]
    total = sum(live)
    count = sum(playing) or 1
    return [s / total for s in live] if total else [1 / count if p else 0.0 for p in playing]


_LOADED: dict[str, ValueModel] = {}


def model_file(program: Program, players: int) -> str:
    """Return the name the per-user cache keeps the model of `program` for `players` seats under."""
    return f"value-{model_key(program, players)}.json"


def value_model(program: Program, players: int, cache: bool = True) -> ValueModel:
    """Return the learned value of `program` for `players` seats: from this process's memory, else from
    the per-user cache folder (`$XDG_CACHE_HOME/landlord-dsl/values`), else trained (`train_value_model`
    with its defaults: tens of CPU seconds) and stored there when `cache` is True."""
    # (the parser cache's private folder and its checked reads and atomic writes; imported here, as the
    # searchers are imported with the package's agents and most searches never ask for a model)
    from ..language.parser_cache import cache_dir, open_private_dir, read_private, write_private

    name = model_file(program, players)
    if name in _LOADED:
        return _LOADED[name]
    model = None
    dir_fd = open_private_dir(cache_dir() / "values") if cache and hasattr(os, "getuid") else None
    try:
        if dir_fd is not None:
            data = read_private(dir_fd, name)
            if data is not None:
                try:
                    model = ValueModel.from_json(data.decode("utf-8")).with_layout(program)
                except (UsageError, UnicodeDecodeError):
                    model = None  # a damaged or stale file is learned again
        if model is None:
            model = train_value_model(program, players)
            if dir_fd is not None:
                write_private(dir_fd, name, model.to_json().encode("utf-8"))
    finally:
        if dir_fd is not None:
            os.close(dir_fd)
    _LOADED[name] = model
    return model
