"""A rule file as a PettingZoo AEC environment, and a one-seat Gymnasium environment over it."""

from __future__ import annotations

import numbers
import random
import threading
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..agents import Agent, make_agent
from ..checking.loader import RuleSet, load
from ..compiling.compiler import compile_ruleset
from ..core.errors import LandlordError, UsageError
from ..engine.game import Game
from .driver import Driver
from .encoding import LIMIT, ActionLayout, ObservationEncoder

REWARDS = ("score", "rank")
ILLEGAL = ("raise", "first_legal")


class EnvironmentUsageError(UsageError):
    """An environment used out of order or from the wrong thread (a step before reset, after close, ...)."""


class ResetNeeded(EnvironmentUsageError, gymnasium.error.ResetNeeded):
    """A step, observation or answer asked of an environment with no game running: reset() it first."""


class InvalidAction(EnvironmentUsageError, gymnasium.error.InvalidAction):
    """An action that is not a whole number of the action space, or one the action mask forbids."""


class LandlordAECEnv(AECEnv):
    """Any rule file as an AEC environment: agents are the learning seats, each decision a step.

    Seats named in `bots` ("bot", "random" or an Agent) are played inside
    the game and never appear as agents. See docs/rl.md for the action and
    observation layouts, the rewards and how the game is paused.
    """

    metadata: dict[str, Any] = {
        "name": "landlord_dsl_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: RuleSet | str,
        players: int = 4,
        options: Mapping[str, Any] | None = None,
        bots: Mapping[int, str | Agent] | None = None,
        reward: str = "score",
        bid_levels: int = 5,
        turn_limit: int | None = None,
        illegal_action: str = "raise",
        render_mode: str | None = None,
    ):
        super().__init__()
        if reward not in REWARDS:
            raise LandlordError(f"unknown reward '{reward}': use one of {', '.join(REWARDS)}")
        if illegal_action not in ILLEGAL:
            raise LandlordError(f"unknown illegal_action '{illegal_action}': use one of {', '.join(ILLEGAL)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise LandlordError(f"unknown render_mode '{render_mode}': use ansi or human")
        self.rules = load(rules) if isinstance(rules, str) else rules
        self.program = compile_ruleset(self.rules, dict(options or {}))
        lo, hi = self.program.players
        if not lo <= players <= hi:
            raise LandlordError(f"{self.program.title} is for {lo} to {hi} players, not {players}")
        self.bots = dict(bots or {})
        if any(not 0 <= seat < players for seat in self.bots):
            raise LandlordError(f"bots are given for seats {sorted(self.bots)}; the seats are 0..{players - 1}")
        self.players, self.reward_mode, self.illegal_action = players, reward, illegal_action
        self.turn_limit, self.render_mode = turn_limit, render_mode
        self.layout = ActionLayout(self.rules, self.program, bid_levels)
        self.encoder = ObservationEncoder(self.rules, self.program, players, self.layout)
        self.possible_agents = [f"player_{seat + 1}" for seat in range(players) if seat not in self.bots]
        if not self.possible_agents:
            raise LandlordError("every seat is a bot: leave at least one seat to learn")
        self._seat = {name: int(name.rsplit("_", 1)[1]) - 1 for name in self.possible_agents}
        action = spaces.Discrete(self.layout.size)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-LIMIT, LIMIT, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.layout.size,), np.int8),
            }
        )
        self.action_spaces = {name: action for name in self.possible_agents}
        self.observation_spaces = {name: observation for name in self.possible_agents}
        self._seeds = random.Random()
        self.driver: Driver | None = None
        self._closed = False
        self._thread: int | None = None  # the thread that reset the game: its greenlet lives there

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game | None:
        """The running Game (its state, log and decisions), or None before the first reset."""
        return self.driver.game if self.driver is not None else None

    @property
    def _running(self) -> Driver:
        """Return the driver of the running game (see _require_game)."""
        return self._require_game()

    def _require_game(self) -> Driver:
        """Return the driver of the running game; raise ResetNeeded before the first reset or after close()."""
        if self.driver is None:
            raise ResetNeeded("the environment has no game yet: call reset() before step(), observe() or last()")
        if self._closed:
            raise ResetNeeded("the environment was closed: call reset() to start a new game")
        self._check_thread()
        return self.driver

    def _check_thread(self) -> None:
        """Raise EnvironmentUsageError unless called from the thread that reset the game."""
        if self._thread is not None and threading.get_ident() != self._thread:
            raise EnvironmentUsageError(
                "the environment's game runs in the thread that called reset(): step, observe and close it "
                "from that thread (or give each thread its own environment)"
            )

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Return the selected agent's observation, cumulative reward, termination, truncation and info."""
        self._require_game()  # a clear ResetNeeded rather than a missing attribute
        return super().last(observe)

    # ----------------------------------------------------------- the loop
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game: dice from `seed` (else the next seed of the last one given); `options` is unused."""
        self.close()
        self._closed, self._thread = False, threading.get_ident()
        if seed is not None:
            self._seeds.seed(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**32)
        self.game_seed = game_seed
        seats = [self._bot(seat, game_seed) for seat in range(self.players)]
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.driver = Driver(self.program, seats, game_seed, self.turn_limit)
        self._scores = self.driver.game.scores()
        self._after_engine()

    def _bot(self, seat: int, game_seed: int) -> Agent | None:
        bot = self.bots.get(seat)
        return make_agent(bot, game_seed, seat) if isinstance(bot, str) else bot

    def step(self, action: int | None) -> None:
        self._require_game()
        if not self.agents:
            raise ResetNeeded("the game is over and every agent has left it: call reset() to start a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise InvalidAction(
                    f"the game of {agent} is over: step(None) to let it leave, or reset() to start a new game"
                )
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidAction(f"{agent} must act: None is only for agents whose game is over")
        slot = self._slot(action)
        self._cumulative_rewards[agent] = 0.0
        if slot not in self._answers:
            if self.illegal_action == "raise":
                raise InvalidAction(
                    f"action {slot} is not legal for {agent} here; the legal actions are "
                    f"{sorted(self._answers)} (use the observation's action_mask)"
                )
            slot = min(self._answers)
        self._running.answer(self._answers[slot])
        self._after_engine()

    def _slot(self, action: Any) -> int:
        """Return `action` as an index of the action space; raise InvalidAction for anything else."""
        if isinstance(action, np.ndarray) and action.size == 1 and np.issubdtype(action.dtype, np.integer):
            action = action.reshape(()).item()
        if isinstance(action, numbers.Integral) and not isinstance(action, (bool, np.bool_)):
            slot = int(action)
            if 0 <= slot < self.layout.size:
                return slot
        shown = repr(action)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise InvalidAction(
            f"an action is a whole number from 0 to {self.layout.size - 1} (an index of the action_mask), not {shown}"
        )

    def _after_engine(self) -> None:
        """Hand out rewards and endings for what the game did, and select who answers next."""
        driver = self._running
        game = driver.game
        scores = game.scores()
        result = driver.result
        for agent in self.agents:
            seat = self._seat[agent]
            self.rewards[agent] = float(scores[seat] - self._scores[seat]) if self.reward_mode == "score" else 0.0
        self._scores = scores
        if result is not None:
            truncated = result.end_reason.startswith("turn limit")
            for agent in self.agents:
                if self.reward_mode == "rank":
                    self.rewards[agent] = _rank_reward(scores, self._seat[agent])
                self.terminations[agent], self.truncations[agent] = not truncated, truncated
                self.infos[agent] = {"end_reason": result.end_reason}
            self._answers, self._mask = {}, None
        else:
            request = driver.request
            assert request is not None  # a game not over is waiting for an answer
            asked = f"player_{request.seat + 1}"
            if asked not in self.agents:
                raise LandlordError(
                    f"the rules ask {game.names[request.seat]} a question after he has left the "
                    f"game (rule '{request.rule}')"
                )
            playing = set(game.seats)
            for agent in self.agents:
                if self._seat[agent] not in playing and not self.terminations[agent] and agent != asked:
                    self.terminations[agent] = True
                    if self.reward_mode == "rank":  # his place when he leaves
                        self.rewards[agent] = _rank_reward(scores, self._seat[agent])
            self.agent_selection = asked
            self._answers = self.layout.answers(request)
            self._mask = np.zeros(self.layout.size, dtype=np.int8)
            self._mask[list(self._answers)] = 1
        self._accumulate_rewards()
        self._deads_step_first()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        driver = self._running
        if agent not in self._seat:
            raise EnvironmentUsageError(f"no agent is called {agent!r}: the agents are {', '.join(self._seat)}")
        seat = self._seat[agent]
        request, mask = driver.request, self._mask
        mine = mask is not None and request is not None and request.seat == seat
        return {
            "observation": self.encoder.encode(driver.game, seat, request),
            "action_mask": mask.copy() if mine and mask is not None else np.zeros(self.layout.size, dtype=np.int8),
        }

    def render(self) -> str | None:
        """Return (ansi) or print (human) one line per seat: where it stands and its cash."""
        if self.render_mode is None or self.driver is None:
            return None
        game = self.driver.game
        lines = [f"turn {game.turn}"] + [
            f"  {game.names[s]}: {game.space_name(game.pos[s])}, cash {game.cash(s)}"
            + ("" if s in game.seats else " (out)")
            for s in range(game.n)
        ]
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Stop the running game, if any; step() then needs a reset() first."""
        if self.driver is not None and not self._closed:
            self._check_thread()
            self.driver.close()
        self._closed = True

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # nothing can be reported while being collected
            pass


def _rank_reward(scores: tuple[int, ...], seat: int) -> float:
    """Return (seats beaten - seats ahead) / (seats - 1): 1 for a lone winner, -1 for a lone last."""
    mine = scores[seat]
    beaten = sum(1 for s in scores if s < mine)
    ahead = sum(1 for s in scores if s > mine)
    return (beaten - ahead) / max(1, len(scores) - 1)


class LandlordGymEnv(gymnasium.Env):
    """One learning seat against built-in bots, as a Gymnasium environment.

    Observations and actions are those of LandlordAECEnv. An action the mask
    forbids is replaced by the first legal one unless `illegal_action` is
    "raise"; `action_masks()` gives the mask (the sb3-contrib convention).
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        rules: RuleSet | str,
        players: int = 4,
        seat: int = 0,
        opponents: str | Agent = "bot",
        options: Mapping[str, Any] | None = None,
        reward: str = "score",
        bid_levels: int = 5,
        turn_limit: int | None = None,
        illegal_action: str = "first_legal",
        render_mode: str | None = None,
    ):
        if not 0 <= seat < players:
            raise LandlordError(f"seat {seat} is not one of the seats 0..{players - 1}")
        self.aec = LandlordAECEnv(
            rules,
            players,
            options,
            {s: opponents for s in range(players) if s != seat},
            reward,
            bid_levels,
            turn_limit,
            illegal_action,
            render_mode,
        )
        self.agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode
        self._over = False

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self._over = False
        obs, _, _, _, info = self.aec.last()
        return obs, dict(info)

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if getattr(self, "_over", False):
            raise ResetNeeded("the game is over (terminated or truncated): call reset() to start a new game")
        self.aec.step(action)
        obs, reward, terminated, truncated, info = self.aec.last()
        self._over = terminated or truncated
        return obs, float(reward), terminated, truncated, dict(info)

    def action_masks(self) -> np.ndarray:
        """Return the legal actions now, as booleans."""
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self._over = False  # a step now hears that the environment was closed
        self.aec.close()
