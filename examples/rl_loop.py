"""The reinforcement-learning loop over a rule file, with nothing heavy to train.

    pip install 'landlord-dsl[rl]'
    python examples/rl_loop.py                      # the 1906 edition
    python examples/rl_loop.py monopoly-1933-atlantic-city --games 3

Part 1 is the PettingZoo AEC loop: two learning seats against two built-in
bots, each picking a random legal action (the observation's action mask).
Part 2 is the Gymnasium loop for one learning seat, whose "policy" is a
table of how often each action slot was followed by a gain: a stand-in for
a real learner, to show where one plugs in.
"""

from __future__ import annotations

import argparse

import numpy as np

import landlord_dsl as ld
from landlord_dsl.rl import LandlordGymEnv


def pettingzoo_loop(rules: str, games: int) -> None:
    env = ld.env(rules, players=4, bots={2: "bot", 3: "bot"})
    rng = np.random.default_rng(0)
    for game in range(games):
        env.reset(seed=game)
        returns = {agent: 0.0 for agent in env.agents}
        steps = 0
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            if terminated or truncated:
                action = None  # an agent whose game is over steps with None, once
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            env.step(action)
        result = env.game.result()
        print(
            f"game {game}: {steps} decisions by the learning seats, {result.end_reason}; "
            f"returns {returns}; scores {result.scores}"
        )


def gymnasium_loop(rules: str, games: int) -> None:
    env = LandlordGymEnv(rules, players=4, seat=0, opponents="bot")
    gains = np.zeros(env.action_space.n)  # how much each slot was worth, step by step
    tries = np.ones(env.action_space.n)
    rng = np.random.default_rng(1)
    for game in range(games):
        observation, info = env.reset(seed=100 + game)
        total = 0.0
        while True:
            legal = np.flatnonzero(observation["action_mask"])
            if rng.random() < 0.2:
                action = int(rng.choice(legal))  # explore
            else:
                action = int(legal[np.argmax(gains[legal] / tries[legal])])  # exploit the table
            observation, reward, terminated, truncated, info = env.step(action)
            gains[action] += reward
            tries[action] += 1
            total += reward
            if terminated or truncated:
                break
        print(f"gymnasium game {game}: return {total:+.0f} ({info['end_reason']})")
    env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="?", default="landlords-game-1906")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    pettingzoo_loop(args.rules, args.games)
    gymnasium_loop(args.rules, args.games)


if __name__ == "__main__":
    main()
