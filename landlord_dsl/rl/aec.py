"""A rule file as a PettingZoo AEC environment and a parallel one, and a one-seat Gymnasium environment.

All three step a `State` (engine/state.py, docs/state.md): a game paused at its next request. Bot seats
are answered here, from their agents, until a learning seat is asked or the game ends.
"""

from __future__ import annotations

import copy
import numbers
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..agents import Agent, make_agent
from ..agents.seats import parse_seat
from ..checking.loader import RuleSet, load, load_text
from ..compiling.compiler import compile_ruleset
from ..core.errors import LandlordError, UsageError
from ..engine.game import Game, whole_argument
from ..engine.state import State, new_state
from ..program.requests import BidRequest, DecisionRequest
from .encoding import ActionLayout, ObservationEncoder

REWARDS = ("score", "rank")
ILLEGAL = ("raise", "penalty", "first_legal")
BOT_KINDS = ("bot", "random")  # the seat kinds a bot may be named by: those that answer inside `step`


class EnvironmentUsageError(UsageError):
    """An environment used wrongly: an agent it does not have, a parallel step without the acting agent's action."""


class ResetNeeded(EnvironmentUsageError, gymnasium.error.ResetNeeded):
    """A step, observation or answer asked of an environment with no game running: reset() it first."""


class InvalidAction(EnvironmentUsageError, gymnasium.error.InvalidAction):
    """An action that is not a whole number of the action space, or one the action mask forbids."""


def _recipe(given: RuleSet | str, rules: RuleSet, program_sources: Mapping[str, Any]) -> tuple[str, ...]:
    """Return how to load `rules` (given as `given`) again in another process: ("load", a file's absolute
    path, or the name given) or ("text", text, file)."""
    if isinstance(given, str) and not Path(given).exists():  # a shipped edition's name (or names joined by +)
        return ("load", given)
    if rules.path is not None:
        return ("load", str(rules.path.resolve()))
    if isinstance(given, str):
        return ("load", given)
    file = list(program_sources)[-1]  # the sources run from the base edition to this file, last
    return ("text", program_sources[file].text, file)


def _reload(recipe: tuple[str, ...]) -> RuleSet:
    """Return the RuleSet a recipe of `_recipe` describes."""
    return load(recipe[1]) if recipe[0] == "load" else load_text(recipe[1], recipe[2])


class LandlordAECEnv(AECEnv):
    """Any rule file as an AEC environment: agents are the learning seats, each decision a step.

    Seats named in `bots` ("bot", "random" or an Agent) are answered by
    their agents inside `step` and never appear as agents. See docs/rl.md
    for the action and observation layouts, the rewards and illegal actions.
    """

    metadata: dict[str, Any] = {
        "name": "landlord_dsl_v1",
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
        illegal_penalty: float = -1.0,
    ):
        super().__init__()
        if reward not in REWARDS:
            raise LandlordError(f"unknown reward '{reward}': use one of {', '.join(REWARDS)}")
        if illegal_action not in ILLEGAL:
            raise LandlordError(f"unknown illegal_action '{illegal_action}': use one of {', '.join(ILLEGAL)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise LandlordError(f"unknown render_mode '{render_mode}': use ansi or human")
        self.options = dict(options or {})
        self._bid_levels, self.turn_limit = bid_levels, turn_limit
        self._build(load(rules) if isinstance(rules, str) else rules)
        self._recipe = _recipe(rules, self.rules, self.program.sources)
        lo, hi = self.program.players
        players = whole_argument(players, "players")
        if not lo <= players <= hi:
            raise LandlordError(f"{self.program.title} is for {lo} to {hi} players, not {players}")
        self.bots = dict(bots or {})
        if any(not 0 <= seat < players for seat in self.bots):
            raise LandlordError(f"bots are given for seats {sorted(self.bots)}; the seats are 0..{players - 1}")
        for seat, bot in self.bots.items():
            # refused now, not at the first step that reaches the seat
            if isinstance(bot, str) and bot in BOT_KINDS:
                continue
            if isinstance(bot, str):
                parse_seat(bot, "seat kind")  # an unknown kind is refused with the nearest known one
            if not isinstance(bot, Agent):
                raise LandlordError(f"the bot of seat {seat} is 'bot', 'random' or an Agent, not {bot!r}")
        self.players, self.reward_mode, self.illegal_action = players, reward, illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat + 1}" for seat in range(players) if seat not in self.bots]
        if not self.possible_agents:
            raise LandlordError("every seat is a bot: leave at least one seat to learn")
        self._seat = {name: int(name.rsplit("_", 1)[1]) - 1 for name in self.possible_agents}
        action = spaces.Discrete(self.layout.size)
        observation = spaces.Dict(
            {
                "observation": self.encoder.space(self.encoder.size),
                "action_mask": spaces.Box(0, 1, (self.layout.size,), np.int8),
            }
        )
        self.action_spaces = {name: action for name in self.possible_agents}
        self.observation_spaces = {name: observation for name in self.possible_agents}
        self.state_space = self.encoder.space(self.encoder.state_size)
        self._seeds = random.Random()
        self._state: State | None = None
        self._closed = False

    def _build(self, rules: RuleSet) -> None:
        """Compile the rules and lay out their actions and observations (again, after unpickling)."""
        self.rules = rules
        self.program = compile_ruleset(rules, self.options)
        self.layout = ActionLayout(rules, self.program, self._bid_levels)
        self.encoder = ObservationEncoder(rules, self.program, self.layout, self.turn_limit)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> State | None:
        """The running game's State (docs/state.md), or None before the first reset: clone it to look ahead."""
        return self._state

    @property
    def game(self) -> Game | None:
        """The running Game as it stood at the pending request (or at the end), or None before the first reset."""
        return self._state.game if self._state is not None else None

    @property
    def request(self) -> DecisionRequest | BidRequest | None:
        """The pending decision or bid of a learning seat, or None when the game is over or not started."""
        return self._state.request() if self._state is not None else None  # type: ignore[return-value]

    def _require_game(self) -> State:
        """Return the running game's State; raise ResetNeeded before the first reset or after close()."""
        if self._state is None:
            raise ResetNeeded("the environment has no game yet: call reset() before step(), observe() or last()")
        if self._closed:
            raise ResetNeeded("the environment was closed: call reset() to start a new game")
        return self._state

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Return the selected agent's observation, cumulative reward, termination, truncation and info."""
        self._require_game()  # a clear ResetNeeded rather than a missing attribute
        return super().last(observe)

    # ----------------------------------------------------------- the loop
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game: dice from `seed` (else the next seed of the last one given); `options` is unused."""
        if seed is not None:
            self._seeds.seed(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**32)
        self.game_seed = game_seed
        self._bot_agents = [self._bot(seat, game_seed) for seat in range(self.players)]
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.history: list[Any] = []  # every answer applied, bots' included: the game replays from it
        self._state = new_state(self.program, self.players, seed=game_seed, turn_limit=self.turn_limit)
        self._closed = False
        self._play_bots()
        self._scores = self._state.scores()
        self._after_engine()

    def _bot(self, seat: int, game_seed: int) -> Agent | None:
        bot = self.bots.get(seat)
        return make_agent(bot, game_seed, seat) if isinstance(bot, str) else bot

    def _apply(self, answer: Any) -> None:
        assert self._state is not None
        self._state.apply(answer)
        self.history.append(answer)

    def _play_bots(self) -> None:
        """Answer the bots' requests until a learning seat is asked or the game is over."""
        state = self._require_game()
        while not state.is_terminal():
            bot = self._bot_agents[state.current_player()]
            if bot is None:
                return
            request = state.request()
            if isinstance(request, DecisionRequest):
                self._apply(bot.choose(state.game, request))
            else:
                assert isinstance(request, BidRequest)  # a seeded state answers chance itself
                self._apply(bot.bid(state.game, request))

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
        info = self.infos[agent]
        info.pop("illegal_action", None)
        info.pop("played", None)
        if slot not in self._answers:
            if self.illegal_action == "raise":
                raise InvalidAction(
                    f"action {slot} is not legal for {agent} here; the legal actions are "
                    f"{sorted(self._answers)} (use the observation's action_mask)"
                )
            info["illegal_action"] = slot
            if self.illegal_action == "penalty":  # nothing is played: the same agent is asked again
                self._cumulative_rewards[agent] = 0.0
                self.rewards = {a: 0.0 for a in self.agents}
                self.rewards[agent] = self.illegal_penalty
                self._accumulate_rewards()
                return
            slot = info["played"] = min(self._answers)
        self._cumulative_rewards[agent] = 0.0
        self._apply(self._answers[slot])
        self._play_bots()
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
        state = self._require_game()
        game = state.game
        scores = state.scores()
        for agent in self.agents:
            seat = self._seat[agent]
            self.rewards[agent] = float(scores[seat] - self._scores[seat]) if self.reward_mode == "score" else 0.0
        self._scores = scores
        if state.is_terminal():
            truncated = game.end_reason.startswith("turn limit")
            for agent in self.agents:
                if self.reward_mode == "rank":
                    self.rewards[agent] = _rank_reward(scores, self._seat[agent])
                self.terminations[agent], self.truncations[agent] = not truncated, truncated
                self.infos[agent]["end_reason"] = game.end_reason
            self._answers, self._mask = {}, None
        else:
            request = state.request()
            assert isinstance(request, (DecisionRequest, BidRequest))  # bots answered theirs
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
        state = self._require_game()
        if agent not in self._seat:
            raise EnvironmentUsageError(f"no agent is called {agent!r}: the agents are {', '.join(self._seat)}")
        seat = self._seat[agent]
        request, mask = state.request(), self._mask
        mine = mask is not None and isinstance(request, (DecisionRequest, BidRequest)) and request.seat == seat
        return {
            "observation": self.encoder.encode(state.game, seat, request if mine else None),  # type: ignore[arg-type]
            "action_mask": mask.copy() if mine and mask is not None else np.zeros(self.layout.size, dtype=np.int8),
        }

    def state(self) -> np.ndarray:
        """Return the whole table for a centralised critic: the observation of seat 0 (player_1), with the
        pending request whoever is asked, then which seat is asked (docs/rl.md, "The global state")."""
        state = self._require_game()
        request = state.request()
        asked = request if isinstance(request, (DecisionRequest, BidRequest)) else None
        return self.encoder.encode_state(state.game, asked)

    def action_to_string(self, action: int, agent: str | None = None) -> str:
        """Return what `action` means for `agent` (default: the agent selected) now: the label of the legal
        option or bid it plays, or what its slot is for when it is not legal now."""
        state = self._require_game()
        pending = state.request()
        slot = self._slot(action)
        agent = self.agent_selection if agent is None else agent
        request = pending if isinstance(pending, (DecisionRequest, BidRequest)) else None
        asked = request is not None and f"player_{request.seat + 1}" == agent
        if request is not None and asked and slot in self._answers:
            answer = self._answers[slot]
            if isinstance(request, BidRequest):
                return f"pass the auction of {request.space}" if answer is None else f"bid {answer} for {request.space}"
            assert answer is not None  # a decision's answer is an index
            return f"{request.prompt}: {request.options[answer].label}"
        return self.layout.describe(slot, request if asked else None) + " (not legal now)"

    def render(self) -> str | None:
        """Return (ansi) or print (human) one line per seat: where it stands and its cash."""
        if self.render_mode is None or self._state is None:
            return None
        game = self._state.game
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
        """End the environment's use of its game; step() then needs a reset() first."""
        self._closed = True

    # ------------------------------------------------------ copies and pickles
    def __deepcopy__(self, memo: dict) -> LandlordAECEnv:
        """Return a copy that plays on exactly as this one would: the State is cloned (`State.clone`), the
        rules, compiled program and layouts are shared (never changed), everything else is copied."""
        for shared in (self.rules, self.program, self.layout, self.encoder):
            memo[id(shared)] = shared
        other = type(self).__new__(type(self))
        memo[id(self)] = other
        for key, value in self.__dict__.items():
            setattr(other, key, copy.deepcopy(value, memo))  # (State.__deepcopy__ is State.clone)
        return other

    def __getstate__(self) -> dict[str, Any]:
        """Return what a pickle keeps: how to load the rules, the settings, the seeds, the episode's
        bookkeeping and every answer given, but not the compiled rules or the game, rebuilt by replay."""
        kept = dict(self.__dict__)
        for rebuilt in ("rules", "program", "layout", "encoder", "_state"):
            kept.pop(rebuilt, None)
        kept["_rules_hash"] = self.rules.rules_hash
        kept["_replay"] = self._state is not None
        return kept

    def __setstate__(self, kept: dict[str, Any]) -> None:
        rules_hash, replay = kept.pop("_rules_hash"), kept.pop("_replay")
        self.__dict__.update(kept)
        rules = _reload(self._recipe)
        if rules.rules_hash != rules_hash:
            where = self._recipe[1] if self._recipe[0] == "load" else self._recipe[2]
            raise LandlordError(
                f"the rules of this pickled environment ({where}) have changed since it was pickled: "
                "its game cannot be replayed"
            )
        self._build(rules)
        self._state = None
        if replay:
            self._state = new_state(self.program, self.players, seed=self.game_seed, turn_limit=self.turn_limit)
            for answer in self.history:
                self._state.apply(answer)


def _rank_reward(scores: tuple[int, ...], seat: int) -> float:
    """Return (seats beaten - seats ahead) / (seats - 1): 1 for a lone winner, -1 for a lone last."""
    mine = scores[seat]
    beaten = sum(1 for s in scores if s < mine)
    ahead = sum(1 for s in scores if s > mine)
    return (beaten - ahead) / max(1, len(scores) - 1)


class LandlordParallelEnv(ParallelEnv):
    """The AEC environment as a PettingZoo ParallelEnv: a turn-based game, one agent acts per step.

    Every live agent observes at every step, but only the agent being asked has legal actions (its
    action mask); `infos[agent]["active_agent"]` names it. `step(actions)` plays that agent's action
    and ignores the others' (an all-zero mask: `Discrete.sample(mask=...)` gives 0). Settings and
    spaces are LandlordAECEnv's (docs/rl.md, "The parallel API").
    """

    metadata: dict[str, Any] = {
        "name": "landlord_dsl_parallel_v1",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: RuleSet | str, players: int = 4, options: Mapping[str, Any] | None = None, **settings: Any
    ) -> None:
        self.aec = LandlordAECEnv(rules, players, options, **settings)
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.state_space = self.aec.state_space
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    @property
    def game(self) -> Game | None:
        """The running Game, as LandlordAECEnv.game."""
        return self.aec.game

    @property
    def active_agent(self) -> str:
        """The agent whose action the next step plays."""
        return self.aec.agent_selection

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start a new game (as LandlordAECEnv.reset); return every agent's observation and info."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, self._infos()

    def _infos(self) -> dict[str, dict[str, Any]]:
        return {a: dict(self.aec.infos[a], active_agent=self.aec.agent_selection) for a in self.aec.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the active agent's action; return observations, rewards, terminations, truncations and
        infos of every agent live before the step (those whose game ended leave `agents` after it)."""
        aec = self.aec
        aec._require_game()
        if not self.agents:
            raise ResetNeeded("the game is over and every agent has left it: call reset() to start a new game")
        acting = aec.agent_selection
        if acting not in actions:
            raise InvalidAction(
                f"{acting} is the agent to act: the actions must hold its action (the others' are ignored)"
            )
        aec.step(actions[acting])
        live = list(aec.agents)
        result = (
            {a: aec.observe(a) for a in live},
            {a: aec.rewards[a] for a in live},
            {a: aec.terminations[a] for a in live},
            {a: aec.truncations[a] for a in live},
            self._infos(),
        )
        while aec.agents and (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            aec.step(None)  # agents whose game is over leave
        for info in result[4].values():
            info["active_agent"] = aec.agent_selection if aec.agents else None
        self.agents = list(aec.agents)
        return result

    def state(self) -> np.ndarray:
        """Return the global state, as LandlordAECEnv.state."""
        return self.aec.state()

    def action_to_string(self, action: int, agent: str | None = None) -> str:
        """Return what `action` means now, as LandlordAECEnv.action_to_string."""
        return self.aec.action_to_string(action, agent)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


class LandlordGymEnv(gymnasium.Env):
    """One learning seat against built-in bots, as a Gymnasium environment.

    Observations, actions and illegal actions are those of LandlordAECEnv;
    `action_masks()` gives the mask (the sb3-contrib convention).
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
        illegal_action: str = "raise",
        render_mode: str | None = None,
        illegal_penalty: float = -1.0,
    ):
        players, seat = whole_argument(players, "players"), whole_argument(seat, "seat")
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
            illegal_penalty,
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

    def action_to_string(self, action: int) -> str:
        """Return what `action` means now (LandlordAECEnv.action_to_string)."""
        return self.aec.action_to_string(action, self.agent)

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self._over = False  # a step now hears that the environment was closed
        self.aec.close()
