"""Agents stage: players that search the stepped game (engine/state.py; docs/search.md).

A `StateAgent` answers from a `State`, not from a Game mid-turn: it resamples the state (a clone with
what its seat cannot see drawn again), tries answers on the resamples, plays them on and weighs what
comes of them. Two are here, both for any rule file (they see only the state's public interface:
requests with labelled options and hints, legal actions, chance outcomes, scores and `resample`):

- `RolloutAgent`, the cheap middle rung: every candidate answer is played on a few times by heuristic
  bots to a horizon, and the answer whose rollouts leave its seat best off is taken (a one-ply
  expectimax whose expectations are estimated by sampling).
- `MCTSAgent`: information-set UCT over the stepped interface (one determinisation an iteration), one
  value per seat backed up through every node (max^n), chance nodes answered by their exact
  probabilities when the state can list them and by sampling when it cannot, rollouts by the heuristic
  bot or by random play.

What a searcher can see: what its seat observes (`State.observation`). Played by `play_stepped`
(stepped.py), the state it is handed has no seed, so it answers every throw and shuffle of its
look-ahead from its own generator and cannot know the real dice. The state does hold the real order of
each shuffled deck, which no player has seen: both searchers look ahead only from `State.resample` of
it, a clone in which those orders are drawn again at random (a determinisation of the seat's
information set, drawn afresh for every rollout or iteration), so no look-ahead plays on the true order.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import UsageError
from ..engine.state import State
from ..program.requests import BidRequest, DecisionRequest, DiceRequest, ShuffleRequest
from . import HeuristicAgent
from .learned import ValueModel, value_model

if TYPE_CHECKING:
    from ..engine.game import Game

Action = int | None

# A chance request with more outcomes than this is sampled afresh at every visit instead of growing one
# child per outcome (two six-sided dice have 36 outcomes; a shuffle of 9 cards or more cannot be listed).
MAX_CHANCE_CHILDREN = 64

ROLLOUT_POLICIES = ("bot", "random")
OPPONENT_MODELS = ("bot", "search")
LEAF_VALUES = ("score", "learned")


_HEURISTIC = HeuristicAgent()


class StateAgent:
    """A player that answers from the stepped State (a searcher). Subclasses define `act`.

    Driven play (`Game.play`) hands an agent a Game mid-turn, from which no State can be made: a
    StateAgent plays through `play_stepped`, which hands it the State at each of its requests.
    """

    #: the seat kind's name, as `--seats` spells it
    kind = "state"

    def act(self, state: State) -> Action:
        """Return one of `state.legal_actions()`: the answer to the pending decision or bid of its seat."""
        raise NotImplementedError

    def describe(self) -> str:
        """Return the agent with its budget, as a seat spec (`mcts:400`)."""
        return self.kind


class CallableAgent(StateAgent):
    """A Python callable `f(state) -> action` as a seat (`play_stepped`, `Tournament`)."""

    kind = "callable"

    def __init__(self, function: Callable[[State], Action], name: str | None = None) -> None:
        self.function = function
        self.name = name or str(getattr(function, "__name__", "callable"))

    def act(self, state: State) -> Action:
        """Return what the callable answers."""
        return self.function(state)

    def describe(self) -> str:
        """Return the callable's name."""
        return self.name


def bot_answer(state: State) -> Action:
    """Return what the heuristic bot answers to the state's pending decision or bid."""
    request = state.request()
    if isinstance(request, DecisionRequest):
        return _HEURISTIC.choose(state.game, request)
    if isinstance(request, BidRequest):
        return _HEURISTIC.bid(state.game, request)
    raise UsageError("no decision or bid is pending")


def candidates(state: State) -> list[Action]:
    """Return the answers a searcher weighs at the pending request, the heuristic bot's first.

    A decision's candidates are all its options. A bid's are fewer than its legal amounts (one per unit
    of money would drown the search): pass, the minimum, and the rules' value hint when it lies between
    the minimum and the maximum."""
    request = state.request()
    first = bot_answer(state)
    if isinstance(request, BidRequest):
        pool: list[Action] = [None, request.minimum]
        if request.minimum < request.value <= request.maximum:
            pool.append(request.value)
    else:
        pool = list(state.legal_actions())
    return [first, *(a for a in pool if a != first)]


def values(state: State) -> list[float]:
    """Return every seat's value of a state, each 0 to 1: at the end, 1 shared among the winners (the best
    score) and 0 for the others; before it, each seat's share of the seats' positive scores."""
    scores = state.scores()
    if state.is_terminal():
        best = max(scores)
        winners = sum(1 for s in scores if s == best)
        return [1 / winners if s == best else 0.0 for s in scores]
    positive = [max(0, s) for s in scores]
    total = sum(positive)
    if total == 0:
        return [1 / len(scores)] * len(scores)
    return [s / total for s in positive]


def rollout(state: State, turns: int, rng: random.Random, policy: str = "bot") -> State:
    """Play `state` on in place for `turns` more turns (or to the end); return it. Chance is drawn with
    `rng`; decisions and bids are the heuristic bot's (`policy="bot"`) or uniformly random legal answers
    (`"random"`)."""
    until = state.game.turn + turns
    while not state.is_terminal() and state.game.turn < until:
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        elif policy == "bot":
            state.apply(bot_answer(state))
        else:
            state.apply(rng.choice(candidates(state)))
    return state


def rollout_turns(horizon: int | None, players: int) -> int:
    """Return how many turns a rollout plays: `horizon` if given (0: to the end of the game, whatever its
    length), else one round of `players` seats."""
    if horizon is None:
        return players
    return horizon or 10**9


def _check_policy(policy: str) -> None:
    if policy not in ROLLOUT_POLICIES:
        raise UsageError(f"unknown rollout policy '{policy}': use {' or '.join(ROLLOUT_POLICIES)}")


class RolloutAgent(StateAgent):
    """Flat Monte Carlo: every candidate answer is played on `rollouts` times to `horizon` turns by the
    rollout policy, each rollout from a `State.resample` of the state for its seat (what the seat cannot
    see drawn again), the same `rollouts` resamples and dice sequences for every candidate (common random
    numbers); the answer with the best mean value (`values`) for its seat is taken, the heuristic bot's on
    a tie.

    :param rollouts: rollouts per candidate answer (the budget).
    :param horizon: turns each rollout plays on (default: one round of the table).
    :param seed: seeds the agent's generator: the same seed and game give the same answers.
    :param policy: "bot" or "random": who answers in the rollouts.
    """

    kind = "rollout"

    def __init__(self, rollouts: int = 8, horizon: int | None = None, seed: int = 0, policy: str = "bot") -> None:
        if rollouts < 1:
            raise UsageError(f"a rollout agent needs at least one rollout per answer, not {rollouts}")
        _check_policy(policy)
        self.rollouts, self.horizon, self.policy = rollouts, horizon, policy
        self.rng = random.Random(seed)

    def describe(self) -> str:
        """Return `rollout:N`."""
        return f"{self.kind}:{self.rollouts}"

    def act(self, state: State) -> Action:
        """Return the candidate answer whose rollouts leave the acting seat the best mean value."""
        options = candidates(state)
        if len(options) == 1:
            return options[0]
        seat = state.current_player()
        horizon = self.horizon or state.game.n
        seeds = [self.rng.getrandbits(64) for _ in range(self.rollouts)]
        best, best_value = options[0], -1.0
        for action in options:
            total = 0.0
            for s in seeds:
                rng = random.Random(s)
                child = state.resample(seat, rng)  # the same hidden orders and dice for every answer
                child.apply(action)
                total += values(rollout(child, horizon, rng, self.policy))[seat]
            if total > best_value:
                best, best_value = action, total
        return best


class _Node:
    """A node of the search tree, reached by a sequence of answers and chance outcomes from the root: its
    visits, every seat's summed value, its children (a decision's or bid's by the answer, a chance
    request's by ("chance", outcome)) and, at a chance request, the request and its listed outcomes."""

    __slots__ = ("children", "listed", "samples", "totals", "visits")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.samples: list[float] = []  # at a child of the root: the searcher's value of each visit, in order
        self.totals = [0.0] * players
        self.children: dict[Any, _Node] = {}
        self.listed: tuple[Any, list, list[float]] | None = None  # (request, outcomes, weights)

    def outcomes(self, state: State) -> tuple[list, list[float]]:
        """Return the outcomes of the state's chance request and their weights (`_listed`), kept while the
        request is the same (another determinisation may reach another request here)."""
        request = state.request()
        if self.listed is None or self.listed[0] != request:
            self.listed = (request, *_listed(state))
        return self.listed[1], self.listed[2]


class MCTSAgent(StateAgent):
    """Information-set Monte Carlo tree search over the stepped game, one value per seat backed up (max^n).

    Every iteration draws a determinisation: `State.resample` of the state for the acting seat, in which
    the deck orders nobody has seen are drawn again (so the search never plays on the true order). It
    then walks down the tree from the root, applying to that determinisation: a seat's node tries each
    candidate answer (`candidates`, worked out in the determinisation) once, the heuristic bot's first,
    then takes the child best for that seat by PUCT (its mean value plus
    `exploration * prior * sqrt(N) / (1 + n)`, the heuristic bot's answer having the prior `bot_prior` and
    the other candidates sharing the rest, so that a small budget strays from the bot only on evidence); a
    chance node draws an outcome with its exact probability (`State.chance_outcomes`) and keeps a child
    per outcome, or, past MAX_CHANCE_CHILDREN outcomes (a large shuffle), draws one with `sample_chance`
    and plays on from there without growing the tree. A new node is played on by the rollout policy for
    `horizon` turns (or to the end) and scored by `values`. The answer taken is the root's most visited.

    Four options change the search (docs/search.md, "Options"); by default each is off:

    - `opponents="bot"`: the other seats' requests in the tree are answered by the heuristic bot without
      branching (a model of the table, not a search of their answers), so every iteration goes to the
      acting seat's own answers.
    - `paired=True`: the root's answer is picked first and the k-th visit of every root answer plays
      from the same k-th seed (its determinisation, dice and rollout: common random numbers); PUCT's
      means are rescaled between the lowest and the highest of the siblings' (a truncated rollout moves
      values by hundredths, an end by whole units); and the answer taken is the bot's unless another
      did better on the same luck: the one whose mean gain over the bot's answer, less `confidence`
      standard errors of that gain, is highest, if that is above 0.
    - `horizon=0`: rollouts play to the end of the game, so the value is who won (no leaf estimate).
    - `value="learned"`: a rollout that stops before the end is valued by each seat's chance of winning
      as a model learned from bot games of the rules estimates it (`learned.value_model`, trained and
      cached the first time), instead of its share of the scores; or pass a `ValueModel`.

    :param iterations: iterations per decision (the budget), unless `seconds` is given.
    :param seconds: a time budget per decision instead (at least one iteration; not reproducible).
    :param horizon: turns a rollout plays on before it is valued (default: one round of the table); 0
        plays to the end.
    :param exploration: PUCT's constant.
    :param seed: seeds the agent's generator: the same seed and game give the same answers.
    :param policy: "bot" or "random": who answers in the rollouts.
    :param bot_prior: the prior weight of the heuristic bot's answer, 0 to 1.
    :param opponents: "search" or "bot": how the other seats' answers in the tree are chosen.
    :param paired: compare the root's answers on common random numbers and keep the bot's answer unless
        another beats it (above).
    :param confidence: with `paired`, the standard errors of gain another answer needs over the bot's.
    :param value: "score" or "learned" (or a `ValueModel`): how a position a rollout stops at is valued.
    """

    kind = "mcts"

    def __init__(
        self,
        iterations: int = 200,
        seconds: float | None = None,
        horizon: int | None = None,
        exploration: float = 0.7,
        seed: int = 0,
        policy: str = "bot",
        bot_prior: float = 0.5,
        opponents: str = "search",
        paired: bool = False,
        confidence: float = 1.0,
        value: str | ValueModel = "score",
    ) -> None:
        if iterations < 1:
            raise UsageError(f"a search needs at least one iteration, not {iterations}")
        if seconds is not None and not seconds > 0:
            raise UsageError(f"a search's time budget must be more than 0 seconds, not {seconds}")
        if not 0 <= bot_prior <= 1:
            raise UsageError(f"the bot's prior is a probability, 0 to 1, not {bot_prior}")
        if horizon is not None and horizon < 0:
            raise UsageError(f"a rollout's horizon is a number of turns, 0 or more, not {horizon}")
        if opponents not in OPPONENT_MODELS:
            raise UsageError(f"unknown opponent model '{opponents}': use {' or '.join(OPPONENT_MODELS)}")
        if not confidence >= 0:
            raise UsageError(f"the confidence is a number of standard errors, 0 or more, not {confidence}")
        if not isinstance(value, ValueModel) and value not in LEAF_VALUES:
            raise UsageError(f"unknown leaf value {value!r}: use {' or '.join(LEAF_VALUES)}, or a ValueModel")
        _check_policy(policy)
        self.value = value
        self.model: ValueModel | None = value if isinstance(value, ValueModel) else None
        self.iterations, self.seconds, self.horizon = iterations, seconds, horizon
        self.exploration, self.policy, self.bot_prior = exploration, policy, bot_prior
        self.opponents, self.paired, self.confidence = opponents, paired, confidence
        self.rng = random.Random(seed)
        self.last_visits: dict[Action, int] = {}  # the root's children's visits at the last decision

    def describe(self) -> str:
        """Return `mcts:N` or `mcts:Ss`."""
        return f"{self.kind}:{self.seconds:g}s" if self.seconds is not None else f"{self.kind}:{self.iterations}"

    def act(self, state: State) -> Action:
        """Return the answer chosen after the budget's iterations (or seconds): the root's most visited, or
        with `paired` the bot's unless another beat it on the same luck."""
        options = candidates(state)
        if len(options) == 1:
            return options[0]
        n = state.game.n
        seat = state.current_player()
        horizon = rollout_turns(self.horizon, n)
        if self.value == "learned" and self.model is None:
            self.model = value_model(state.game.prog, n)
        elif self.model is not None and self.model.layout is None:
            self.model = self.model.with_layout(state.game.prog)
        root = _Node(n)
        seeds: list[int] = []  # with `paired`, the k-th visit of every root answer plays from seeds[k]
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        done = 0
        while True:
            if self.paired:
                untried = [a for a in options if a not in root.children]
                action = untried[0] if untried else self._select(root, seat, options)
                child = root.children.setdefault(action, _Node(n))
                while len(seeds) <= child.visits:
                    seeds.append(self.rng.getrandbits(64))
                rng = random.Random(seeds[child.visits])
                world = state.resample(seat, rng)
                world.apply(action)
                child.samples.append(self._iterate([root, child], world, seat, horizon, rng)[seat])
            else:
                self._iterate([root], state.resample(seat, self.rng), seat, horizon, self.rng)
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
        self.last_visits = {action: child.visits for action, child in root.children.items()}
        if self.paired:
            return self._paired_choice(root, options)
        # most visited; a tie goes to the better mean for the seat, then to the earlier candidate
        ranked = sorted(
            root.children.items(),
            key=lambda kv: (kv[1].visits, kv[1].totals[seat] / kv[1].visits, -options.index(kv[0])),
        )
        return ranked[-1][0]

    def _paired_choice(self, root: _Node, options: list[Action]) -> Action:
        """Return the heuristic bot's answer (`options[0]`) unless another did better on the same luck: for
        each other answer, the differences between its value and the bot's answer's at the visits both had
        (the k-th of each drawn from the same seed) give a mean gain and its standard error; the answer
        whose gain less `confidence` standard errors is highest is returned if that is above 0 (an answer
        with one paired visit has no standard error: it counts only when `confidence` is 0)."""
        bot = root.children[options[0]].samples
        best, best_bound = options[0], 0.0
        for action in options[1:]:
            child = root.children.get(action)
            gains = [a - b for a, b in zip(child.samples, bot)] if child is not None else []
            if not gains or (len(gains) == 1 and self.confidence > 0):
                continue
            mean = sum(gains) / len(gains)
            spread = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
            bound = mean - self.confidence * spread
            if bound > best_bound:
                best, best_bound = action, bound
        return best

    def _iterate(self, path: list[_Node], world: State, seat: int, horizon: int, rng: random.Random) -> list[float]:
        """Run one iteration on `world`, a determinisation of the root's state in which the answers leading to
        `path`'s last node are applied (changed in place): select down the tree from that node, expand one
        node, play it on, and back the values up the path. Return every seat's value of the position the
        iteration reached."""
        players = world.game.n
        node = path[-1]
        expanded = node.visits == 0 and len(path) > 1
        while not expanded and not world.is_terminal():
            if world.is_chance():
                listed, weights = node.outcomes(world)
                if not listed:  # too many outcomes to keep a child each: play on from a fresh draw
                    world.apply_chance(world.sample_chance(rng))
                    break
                outcome = rng.choices(listed, weights)[0]
                world.apply_chance(outcome)
                key: Any = ("chance", tuple(outcome) if isinstance(outcome, list) else outcome)
            elif self.opponents == "bot" and world.current_player() != seat:
                world.apply(bot_answer(world))
                continue
            else:
                options = candidates(world)
                untried = [a for a in options if a not in node.children]
                key = untried[0] if untried else self._select(node, world.current_player(), options)
                world.apply(key)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node(players)
                expanded = True
            path.append(child)
            node = child
        end = world if world.is_terminal() else rollout(world, horizon, rng, self.policy)
        result = self.model.values(end.game) if self.model is not None and not end.is_terminal() else values(end)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for s in range(players):
                totals[s] += result[s]
        return result

    def _select(self, node: _Node, seat: int, options: list[Action]) -> Action:
        """Return the candidate answer (of `options`, all tried at this node) with the best PUCT score for
        the seat (the first on a tie): its child's mean value (with `paired`, rescaled between the lowest
        and highest of its siblings') plus `exploration * prior * sqrt(N) / (1 + n)`, the prior `bot_prior`
        for the heuristic bot's answer (`options[0]`) and the rest shared by the others."""
        c, w = self.exploration, self.bot_prior
        others = max(1, len(options) - 1)
        root_n = math.sqrt(node.visits)
        means = [node.children[a].totals[seat] / node.children[a].visits for a in options]
        low, span = 0.0, 1.0
        if self.paired:
            low = min(means)
            span = max(means) - low or 1.0
        best, best_score = options[0], -math.inf
        for action, mean in zip(options, means):
            child = node.children[action]
            prior = w if action == options[0] else (1 - w) / others
            score = (mean - low) / span + c * prior * root_n / (1 + child.visits)
            if score > best_score:
                best, best_score = action, score
        return best


class ChallengerAgent(MCTSAgent):
    """The search set to beat tables of heuristic bots: an MCTSAgent with the options that win more than
    a seat's share against three bots on every shipped edition (benchmarks/README.md, "A learned leaf
    value"): the other seats answered by the bot (`opponents="bot"`), the root's answers compared on
    common random numbers and any gain taken (`paired=True`, `confidence=0`), and truncated rollouts
    valued by the rules' learned value model (`value="learned"`, trained on first use and cached).

    It models the other seats as heuristic bots, so against other players it is a guess, not a search
    of their answers.

    :param iterations: iterations a decision (default 16).
    :param seconds: a time budget a decision instead (CPU seconds of this process).
    :param seed: the seed of its determinisations and rollouts.
    """

    kind = "challenger"

    def __init__(self, iterations: int = 16, seconds: float | None = None, seed: int = 0) -> None:
        super().__init__(
            iterations, seconds=seconds, seed=seed, opponents="bot", paired=True, confidence=0.0, value="learned"
        )


def _listed(state: State) -> tuple[list, list[float]]:
    """Return a chance request's outcomes and their probabilities, or two empty lists when it has more
    than MAX_CHANCE_CHILDREN outcomes (or too many to list)."""
    request = state.request()
    if isinstance(request, DiceRequest):
        count = request.sides**request.count
    elif isinstance(request, ShuffleRequest):
        count = math.factorial(request.size)  # a shuffle's orders
    else:  # a draw's cards (copies counted once, but no more than the cards)
        count = len(request.cards)  # type: ignore[union-attr]
    if count > MAX_CHANCE_CHILDREN:
        return [], []
    pairs = state.chance_outcomes()
    return [o for o, _ in pairs], [float(p) for _, p in pairs]


def answer_seat(agent: Any, state: State) -> Action:
    """Return a seat's answer to the state's pending decision or bid: a StateAgent acts on the state; an
    Agent is handed the game and the request, as in driven play."""
    if isinstance(agent, StateAgent):
        return agent.act(state)
    request = state.request()
    game: Game = state.game
    if isinstance(request, DecisionRequest):
        return agent.choose(game, request)
    return agent.bid(game, request)
