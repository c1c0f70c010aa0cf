"""The heuristic bot of the hand-written baselines.

It is `landlord_dsl.agents.HeuristicAgent` written again over plain tuples, so
the baselines make exactly the interpreter's decisions without importing it.
"""

from __future__ import annotations


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
