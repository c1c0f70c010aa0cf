"""What the hand-written baselines share: the bot, the bidding, the result and the command line.

The bot is `landlord_dsl.agents.HeuristicAgent` written again over plain
tuples, so the baselines make exactly the interpreter's decisions without
importing it; the bidding follows `Game.auction` the same way.
"""

from __future__ import annotations

import argparse
import time


class HeuristicBot:
    """Take the best value-minus-cost option that keeps a cash reserve (the
    cheapest option if none does); bid the minimum while it is at most the
    rules' value hint and keeps the reserve.

    Options are `(cost, value)` pairs, in the order the rules list them.
    """

    __slots__ = ("reserve",)

    def __init__(self, reserve: int = 100):
        self.reserve = reserve

    def choose(self, cash: int, options) -> int:
        """Return the index of the option taken."""
        best, best_gain = -1, None
        cheapest, cheapest_cost = 0, None
        limit = cash - self.reserve
        for i, (cost, value) in enumerate(options):
            if cheapest_cost is None or cost < cheapest_cost:
                cheapest, cheapest_cost = i, cost
            if cost <= limit or cost <= 0:
                gain = value - cost
                if best_gain is None or gain > best_gain:
                    best, best_gain = i, gain
        return best if best >= 0 else cheapest

    def bid(self, cash: int, ceiling: int, minimum: int) -> int | None:
        """Return the bid (the minimum) or None to drop out."""
        if minimum <= min(ceiling, cash - self.reserve):
            return minimum
        return None


def bid_up(
    active: list[int], cash: list[int], bots, start: int, step: int, value: int
) -> tuple[int | None, int | None]:
    """Return (high bid, high bidder) of an auction among `active` seats, asked in that order.

    Each round, every seat but the high bidder may raise by `step` (the
    first bid is `start`) while he can pay it; one who does not drops out.
    It ends when one bidder is left (None, None if nobody bid).
    """
    high, high_bidder = None, None
    rounds = 0
    while active and rounds < 1000:
        rounds += 1
        still = []
        for seat in active:
            if seat == high_bidder:
                still.append(seat)
                continue
            minimum = start if high is None else high + step
            if minimum > cash[seat]:
                continue
            answer = bots[seat].bid(cash[seat], value, minimum)
            if answer is not None:
                high, high_bidder = answer, seat
                still.append(seat)
        active = still
        if len(active) <= 1:
            break
    return high, high_bidder


class Result(tuple):
    """(turns, rounds, end_reason, scores, winners), like the interpreter's GameResult."""

    __slots__ = ()

    def __new__(cls, turns, rounds, end_reason, scores, winners):
        return super().__new__(cls, (turns, rounds, end_reason, scores, winners))

    turns = property(lambda self: self[0])
    rounds = property(lambda self: self[1])
    end_reason = property(lambda self: self[2])
    scores = property(lambda self: self[3])
    winners = property(lambda self: self[4])

    @classmethod
    def ranked(cls, turns: int, players: int, end_reason: str, scores: tuple[int, ...]) -> Result:
        """Return the result of a game that ended after `turns` turns: its rounds, and the seats with the top score."""
        best = max(scores)
        rounds = (turns + players - 1) // players
        return cls(turns, rounds, end_reason, scores, tuple(p for p, s in enumerate(scores) if s == best))


def main(game_class, description: str, argv=None) -> int:
    """Play `--games` seeded games of `game_class(players, seed)` and print their speed."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0, help="first seed (games use seed, seed+1, ...)")
    args = ap.parse_args(argv)
    turns = 0
    t0 = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        game = game_class(args.players, seed)
        result = game.play()
        if not game.conserved():
            raise SystemExit(f"seed {seed}: money was not conserved")
        turns += result.turns
    dt = time.perf_counter() - t0
    print(
        f"{args.games} games, {turns} player-turns in {dt:.3f}s: "
        f"{turns / dt:,.0f} turns/s, {args.games / dt:,.1f} games/s, {turns / args.games:.1f} turns/game"
    )
    return 0
