"""A small learner in numpy for one seat against built-in bots, with the policies it is measured against.

The learner is a masked linear actor-critic trained by PPO (clipped policy
gradient, a linear value function as baseline, Adam), written in numpy so
that it needs nothing beyond the `rl` extra. Each action slot has a weight
per number of the observation (docs/rl.md, "Observations"); two weights
shared by every slot read the slot's cost and value hints, so what is
learned about a cost on one slot holds on every other. `examples/train_learner.py`
is its command line and docs/rl.md ("Training a learner") its documentation.

Training and evaluation are seeded: the same seed and the same number of
updates give the same policy, bit for bit. A budget of CPU seconds
(`time.process_time`) stops training at the first update past it; the
number of updates it made is kept with the policy, to replay the run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from ..checking.loader import RuleSet
from ..core.errors import LandlordError, UsageError
from ..studies.paired import Interval, difference, level
from .aec import LandlordGymEnv
from .encoding import ObservationEncoder

FORMAT = "landlord-dsl linear policy 1"
EVALUATION_SEED = 1_000_000_000  # evaluation games use seeds from here on; training draws its seeds below it
WIN = "win_seat_1"  # a share of the games (the studies' name), so that level() gives Wilson intervals

# A policy's choice: (observation, action mask, generator) -> an action slot.
Choice = Callable[[np.ndarray, np.ndarray, np.random.Generator], int]


def hint_slots(encoder: ObservationEncoder) -> tuple[int, int]:
    """Return where the observation's slot costs and slot values begin (slot 0's cost and value)."""
    return encoder.labels.index("slot 0: cost"), encoder.labels.index("slot 0: value")


class LinearPolicy:
    """A masked softmax policy and a value estimate, both linear in the observation.

    `logits(x)[a] = W[a] @ x + b[a] + shared[0] * cost(a) + shared[1] * value(a)`, cost(a) and value(a)
    being the observation's cost and value hints of slot a; the value estimate is `v @ x + c`.
    """

    def __init__(self, observation_size: int, actions: int, cost_at: int, value_at: int):
        self.W = np.zeros((actions, observation_size))
        self.b = np.zeros(actions)
        self.shared = np.zeros(2)
        self.v = np.zeros(observation_size)
        self.c = np.zeros(1)
        self.cost_at, self.value_at, self.actions = cost_at, value_at, actions

    def parameters(self) -> list[np.ndarray]:
        """Return the arrays training changes, in a fixed order."""
        return [self.W, self.b, self.shared, self.v, self.c]

    def hints(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return the cost and value hints of every slot, for a batch of observations (rows)."""
        n = self.actions
        return X[:, self.cost_at : self.cost_at + n], X[:, self.value_at : self.value_at + n]

    def logits(self, X: np.ndarray) -> np.ndarray:
        """Return the unmasked logits of a batch of observations (rows), one column per slot."""
        cost, value = self.hints(X)
        return X @ self.W.T + self.b + self.shared[0] * cost + self.shared[1] * value

    def values(self, X: np.ndarray) -> np.ndarray:
        """Return the value estimates of a batch of observations."""
        return X @ self.v + self.c[0]

    def probabilities(self, X: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return the policy's probabilities of every slot (0 outside the masks), one row per observation."""
        z = np.where(masks, self.logits(X), -np.inf)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return p / p.sum(axis=1, keepdims=True)

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator, greedy: bool = False) -> int:
        """Return a slot for one observation: the likeliest legal one when `greedy`, else one drawn from `rng`."""
        p = self.probabilities(obs[None, :].astype(np.float64), mask[None, :].astype(bool))[0]
        if greedy:
            return int(np.argmax(p))
        return int(min(np.searchsorted(np.cumsum(p), rng.random() * p.sum(), side="right"), len(p) - 1))

    def save(self, path: str | Path, meta: dict[str, Any]) -> None:
        """Write the policy and `meta` (how it was trained) to an .npz file."""
        np.savez(
            path,
            W=self.W,
            b=self.b,
            shared=self.shared,
            v=self.v,
            c=self.c,
            hints=np.array([self.cost_at, self.value_at]),
            meta=np.array(json.dumps(dict(meta, format=FORMAT))),
        )

    @classmethod
    def load(cls, path: str | Path) -> tuple[LinearPolicy, dict[str, Any]]:
        """Return the policy saved at `path` and its meta; a file that is not one is a UsageError."""
        try:
            with np.load(path) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("format") != FORMAT:
                    raise UsageError(f"{path}: not a policy of this learner (format {meta.get('format')!r})")
                W = data["W"]
                policy = cls(W.shape[1], W.shape[0], int(data["hints"][0]), int(data["hints"][1]))
                for mine, name in zip(policy.parameters(), ("W", "b", "shared", "v", "c"), strict=True):
                    mine[...] = data[name]
        except (OSError, KeyError, ValueError) as err:
            raise UsageError(f"{path}: cannot read a policy from it ({err})") from None
        return policy, meta


class Adam:
    """Adam over a list of arrays, changed in place."""

    def __init__(self, parameters: list[np.ndarray], rate: float):
        self.parameters, self.rate, self.t = parameters, rate, 0
        self.m = [np.zeros_like(p) for p in parameters]
        self.s = [np.zeros_like(p) for p in parameters]

    def step(self, gradients: list[np.ndarray]) -> None:
        """Move every parameter against its gradient."""
        self.t += 1
        fix1, fix2 = 1 - 0.9**self.t, 1 - 0.999**self.t
        for p, g, m, s in zip(self.parameters, gradients, self.m, self.s, strict=True):
            m *= 0.9
            m += 0.1 * g
            s *= 0.999
            s += 0.001 * g * g
            p -= self.rate * (m / fix1) / (np.sqrt(s / fix2) + 1e-8)


def scripted_choice(cost_at: int, value_at: int) -> Choice:
    """Return the scripted baseline: the legal slot whose value hint less its cost hint is largest (the lowest
    such slot on a tie). The hints are the rule file's `cost` and `value` of each option, as the observation
    shows them; a bid's value is the rules' value hint of what is auctioned, its cost the amount bid."""

    def choose(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(mask)
        gain = obs[value_at + legal] - obs[cost_at + legal]
        return int(legal[np.argmax(gain)])

    return choose


def random_choice(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    """Return a legal slot drawn uniformly from `rng`: the random policy."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@attrs.frozen
class Outcome:
    """One game of the learning seat: its share of the win (1, 1/k for a k-way tie, 0), its rank reward
    (docs/rl.md, "Rewards") and its number of decisions."""

    win: float
    rank: float
    steps: int


class Seats:
    """One Gymnasium environment per seat, the learning seat taking seat `game % players` in game `game`."""

    def __init__(self, rules: RuleSet | str, players: int, opponents: str, turn_limit: int | None):
        self.envs = [
            LandlordGymEnv(rules, players, seat, opponents, reward="rank", turn_limit=turn_limit)
            for seat in range(players)
        ]
        aec = self.envs[0].aec
        self.encoder, self.actions = aec.encoder, aec.layout.size

    def play(
        self,
        game: int,
        seed: int,
        choose: Choice,
        rng: np.random.Generator,
        record: list[tuple[np.ndarray, np.ndarray, int]] | None = None,
    ) -> Outcome:
        """Play one game from dice seed `seed` with the learning seat of game number `game` answered by
        `choose`; return its Outcome, appending (observation, mask, action) of each decision to `record`."""
        env = self.envs[game % len(self.envs)]
        obs, _ = env.reset(seed=seed)
        steps, reward = 0, 0.0
        while True:
            x, mask = obs["observation"], obs["action_mask"]
            action = choose(x, mask, rng)
            if record is not None:
                record.append((x, mask, action))
            obs, reward, terminated, truncated, _ = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        state = env.aec.game_state
        assert state is not None
        seat = game % len(self.envs)
        win = 0.0
        if state.is_terminal():  # else the seat left the game early (eliminated): no share of the win
            winners = state.game.result().winners
            win = 1 / len(winners) if seat in winners else 0.0
        return Outcome(win, float(reward), steps)


@attrs.define
class Settings:
    """How the learner trains (the defaults are those of the benchmark, docs/rl.md "Training a learner")."""

    games_per_update: int = 32
    epochs: int = 4
    minibatches: int = 4
    rate: float = 0.01
    clip: float = 0.2
    entropy: float = 0.01
    value_weight: float = 0.5
    gae_lambda: float = 0.95


def _advantages(values: np.ndarray, reward: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Return one game's advantages (GAE, no discount, the reward at the end) and its value targets."""
    nxt = np.append(values[1:], 0.0)
    delta = nxt - values
    delta[-1] += reward
    adv = np.zeros_like(values)
    running = 0.0
    for t in range(len(values) - 1, -1, -1):
        running = delta[t] + lam * running
        adv[t] = running
    return adv, adv + values


def _update(
    policy: LinearPolicy,
    optimiser: Adam,
    X: np.ndarray,
    M: np.ndarray,
    A: np.ndarray,
    old: np.ndarray,
    adv: np.ndarray,
    targets: np.ndarray,
    settings: Settings,
    rng: np.random.Generator,
) -> None:
    """Run PPO's epochs of minibatch steps over one batch of decisions."""
    n = len(A)
    for _ in range(settings.epochs):
        order = rng.permutation(n)
        for part in np.array_split(order, settings.minibatches):
            if len(part) == 0:
                continue
            x, m, a = X[part], M[part], A[part]
            p = policy.probabilities(x, m)
            rows = np.arange(len(part))
            logp = np.log(p[rows, a] + 1e-12)
            ratio = np.exp(logp - old[part])
            ad = adv[part]
            ad = (ad - ad.mean()) / (ad.std() + 1e-8)
            clipped = np.where(ad >= 0, ratio > 1 + settings.clip, ratio < 1 - settings.clip)
            coef = np.where(clipped, 0.0, -ratio * ad) / len(part)  # d(loss)/d(log p(a))
            g = -p * coef[:, None]
            g[rows, a] += coef
            logs = np.log(np.where(m, p, 1.0))
            entropy = -(p * logs).sum(axis=1)
            g += settings.entropy * p * (logs + entropy[:, None]) / len(part)  # minus the entropy's gradient
            g = np.where(m, g, 0.0)
            cost, value = policy.hints(x)
            v = policy.values(x)
            gv = settings.value_weight * (v - targets[part]) / len(part)
            optimiser.step(
                [
                    g.T @ x,
                    g.sum(axis=0),
                    np.array([(g * cost).sum(), (g * value).sum()]),
                    gv @ x,
                    np.array([gv.sum()]),
                ]
            )


@attrs.frozen
class TrainingLog:
    """What a training run did: updates, games, decisions, CPU seconds, and the mean win share and rank
    reward of each update's games (as played, exploring)."""

    updates: int
    games: int
    decisions: int
    cpu_seconds: float
    win_by_update: tuple[float, ...]
    rank_by_update: tuple[float, ...]


def train(
    rules: RuleSet | str,
    players: int = 4,
    seed: int = 0,
    cpu_budget: float | None = None,
    updates: int | None = None,
    settings: Settings | None = None,
    opponents: str = "bot",
    turn_limit: int | None = None,
    progress: Callable[[int, TrainingLog], None] | None = None,
) -> tuple[LinearPolicy, TrainingLog]:
    """Train a LinearPolicy for one seat (rotating over the seats game by game) against `opponents`; return it
    and its TrainingLog. Training stops after `updates` updates, or at the first update that ends with more than
    `cpu_budget` CPU seconds used (`time.process_time`, from the call), whichever comes first."""
    if cpu_budget is None and updates is None:
        raise UsageError("give a CPU budget or a number of updates")
    settings = settings or Settings()
    started = time.process_time()
    seats = Seats(rules, players, opponents, turn_limit)
    cost_at, value_at = hint_slots(seats.encoder)
    policy = LinearPolicy(seats.encoder.size, seats.actions, cost_at, value_at)
    optimiser = Adam(policy.parameters(), settings.rate)
    rng = np.random.default_rng(seed)
    games = decisions = done = 0
    wins: list[float] = []
    ranks: list[float] = []

    def choose(obs: np.ndarray, mask: np.ndarray, generator: np.random.Generator) -> int:
        return policy.act(obs, mask, generator)

    log = TrainingLog(0, 0, 0, 0.0, (), ())
    while updates is None or done < updates:
        batch: list[tuple[list[tuple[np.ndarray, np.ndarray, int]], Outcome]] = []
        for _ in range(settings.games_per_update):
            record: list[tuple[np.ndarray, np.ndarray, int]] = []
            outcome = seats.play(games, int(rng.integers(EVALUATION_SEED)), choose, rng, record)
            batch.append((record, outcome))
            games += 1
        X = np.array([x for record, _ in batch for x, _, _ in record], dtype=np.float64)
        M = np.array([m for record, _ in batch for _, m, _ in record], dtype=bool)
        A = np.array([a for record, _ in batch for _, _, a in record], dtype=np.intp)
        values = policy.values(X)
        adv_parts, target_parts, at = [], [], 0
        for record, outcome in batch:
            adv, target = _advantages(values[at : at + len(record)], outcome.rank, settings.gae_lambda)
            adv_parts.append(adv)
            target_parts.append(target)
            at += len(record)
        p = policy.probabilities(X, M)
        old = np.log(p[np.arange(len(A)), A] + 1e-12)
        _update(policy, optimiser, X, M, A, old, np.concatenate(adv_parts), np.concatenate(target_parts), settings, rng)
        done += 1
        decisions += len(A)
        wins.append(float(np.mean([o.win for _, o in batch])))
        ranks.append(float(np.mean([o.rank for _, o in batch])))
        log = TrainingLog(done, games, decisions, time.process_time() - started, tuple(wins), tuple(ranks))
        if progress is not None:
            progress(done, log)
        if cpu_budget is not None and log.cpu_seconds > cpu_budget:
            break
    return policy, log


@attrs.frozen
class Evaluation:
    """Policies played on the same games: per policy, each game's Outcome, in game order."""

    games: int
    first_seed: int
    outcomes: dict[str, tuple[Outcome, ...]]

    def win_rate(self, name: str) -> Interval:
        """Return the policy's share of the wins with its Wilson 95 % interval."""
        return level(WIN, [o.win for o in self.outcomes[name]])

    def rank(self, name: str) -> Interval:
        """Return the policy's mean rank reward with its 95 % interval (mean ± 1.96 SE)."""
        return level("mean_score", [o.rank for o in self.outcomes[name]])

    def win_difference(self, name: str, other: str) -> Interval:
        """Return the paired difference of two policies' win shares, game by game, with its 95 % interval."""
        pairs = zip(self.outcomes[name], self.outcomes[other], strict=True)
        return difference(WIN, [a.win - b.win for a, b in pairs])

    def rank_difference(self, name: str, other: str) -> Interval:
        """Return the paired difference of two policies' rank rewards with its 95 % interval."""
        pairs = zip(self.outcomes[name], self.outcomes[other], strict=True)
        return difference("mean_score", [a.rank - b.rank for a, b in pairs])


def evaluate(
    rules: RuleSet | str,
    policies: dict[str, Choice],
    games: int,
    players: int = 4,
    first_seed: int = EVALUATION_SEED,
    opponents: str = "bot",
    turn_limit: int | None = None,
    seed: int = 0,
) -> Evaluation:
    """Play `games` games per policy on common random numbers: game i from dice seed `first_seed + i` (the bots
    seeded from it too), the policy in seat i % players, its generator seeded by (`seed`, i); return them."""
    if games < 1:
        raise UsageError("an evaluation needs at least one game")
    seats = Seats(rules, players, opponents, turn_limit)
    out: dict[str, tuple[Outcome, ...]] = {}
    for name, choose in policies.items():
        out[name] = tuple(seats.play(i, first_seed + i, choose, np.random.default_rng([seed, i])) for i in range(games))
    return Evaluation(games, first_seed, out)


def greedy(policy: LinearPolicy) -> Choice:
    """Return the policy's likeliest legal slot at each decision (how a trained policy is evaluated)."""

    def choose(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        return policy.act(obs, mask, rng, greedy=True)

    return choose


def check_fits(policy: LinearPolicy, encoder: ObservationEncoder, actions: int, where: str) -> None:
    """Raise a LandlordError unless the policy's layout is the environment's (same observation and actions)."""
    cost_at, value_at = hint_slots(encoder)
    if policy.W.shape != (actions, encoder.size) or (policy.cost_at, policy.value_at) != (cost_at, value_at):
        raise LandlordError(
            f"{where}: the policy sees {policy.W.shape[1]} numbers and answers with {policy.W.shape[0]} slots; "
            f"these rules have {encoder.size} and {actions}"
        )


__all__: Sequence[str] = (
    "Evaluation",
    "LinearPolicy",
    "Outcome",
    "Settings",
    "TrainingLog",
    "evaluate",
    "greedy",
    "random_choice",
    "scripted_choice",
    "train",
)
