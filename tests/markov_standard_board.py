"""An independent, hand-written Markov chain of token movement on the standard board.

It knows nothing of landlord-dsl: the modern rules of movement are written out
here directly (two dice; a double throws again and a third double goes to Jail
without moving; Go to Jail; the standard Chance and Community Chest cards,
each drawn with equal probability from the cards in its deck, a kept Get out
of Jail card leaving its deck while held; leaving Jail at once, with a held
card (Chance first) or else by paying, then a normal turn).

`solve()` returns (turn-end probability by space, in-jail share of space 10,
throw-end probability by space, expected landings per turn by space).
"""

from __future__ import annotations

import itertools

import numpy as np

GO, JAIL, GO_TO_JAIL = 0, 10, 30
CHANCE, CHEST = (7, 22, 36), (2, 17, 33)
RAILROADS, UTILITIES = (5, 15, 25, 35), (12, 28)


def _next(members, pos):
    return min(members, key=lambda s: (s - pos - 1) % 40)


def _chance_moves(pos):
    """Return the sixteen Chance outcomes from `pos`: a destination, 'jail', 'card' (kept) or None."""
    return [
        39,
        GO,
        24,
        11,
        _next(RAILROADS, pos),
        _next(RAILROADS, pos),
        _next(UTILITIES, pos),
        None,
        "card",
        (pos - 3) % 40,
        "jail",
        None,
        None,
        5,
        None,
        None,
    ]


def _chest_moves(pos):
    return [GO, None, None, None, "card", "jail"] + [None] * 10


def _throw_classes():
    out = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        key = (a + b, a == b)
        out[key] = out.get(key, 0) + 1 / 36
    return out


THROWS = _throw_classes()


def _land(pos, held, prob, acc):
    """Yield (pos, jailed, held, prob) after landing on `pos` (drawing cards there), counting visits in acc."""
    acc["visits"][pos] += prob
    if pos == GO_TO_JAIL:
        yield JAIL, True, held, prob
        return
    for squares, moves, index in ((CHANCE, _chance_moves, 0), (CHEST, _chest_moves, 1)):
        if pos in squares:
            cards = moves(pos)
            if held[index]:
                cards.remove("card")
            for outcome in cards:
                p = prob / len(cards)
                if outcome is None:
                    yield pos, False, held, p
                elif outcome == "card":
                    yield pos, False, held[:index] + (True,) + held[index + 1 :], p
                elif outcome == "jail":
                    yield JAIL, True, held, p
                else:
                    yield from _land(outcome, held, p, acc)
            return
    yield pos, False, held, prob


def _turn(state, acc):
    """Return {end state: probability} of one turn from `state` = (pos, in_jail, held)."""
    pos, in_jail, held = state
    if in_jail:
        if held[0]:
            held = (False, held[1])
        elif held[1]:
            held = (held[0], False)
    frontier = [(pos, held, 1.0)]
    ends = {}
    for i in (1, 2, 3):
        nxt = []
        for where, h, prob in frontier:
            if i > 1:
                acc["throws"][where] += prob  # the previous throw ended here
            for (total, double), p in THROWS.items():
                q = prob * p
                if double and i == 3:
                    _add(ends, (JAIL, True, h), q)
                    acc["throws"][JAIL] += q
                    continue
                for end, jailed, h2, r in _land((where + total) % 40, h, q, acc):
                    if jailed or not double:
                        _add(ends, (end, jailed, h2), r)
                        acc["throws"][end] += r
                    else:
                        nxt.append((end, h2, r))
        frontier = nxt
    return ends


def _add(d, k, v):
    d[k] = d.get(k, 0.0) + v


def solve():
    start = (GO, False, (False, False))
    index, order, rows, accs = {start: 0}, [start], [], []
    i = 0
    while i < len(order):
        acc = {"visits": np.zeros(40), "throws": np.zeros(40)}
        row = {}
        for end, p in _turn(order[i], acc).items():
            if end not in index:
                index[end] = len(order)
                order.append(end)
            row[index[end]] = row.get(index[end], 0.0) + p
        rows.append(row)
        accs.append(acc)
        i += 1
    n = len(order)
    P = np.zeros((n, n))
    for a, row in enumerate(rows):
        for b, p in row.items():
            P[a, b] = p
    A = P.T - np.eye(n)
    A[-1, :] = 1
    rhs = np.zeros(n)
    rhs[-1] = 1
    pi = np.linalg.solve(A, rhs)
    turn, throws, visits = np.zeros(40), np.zeros(40), np.zeros(40)
    in_jail = 0.0
    for state, p, acc in zip(order, pi, accs):
        turn[state[0]] += p
        in_jail += p if state[1] else 0.0
        throws += p * acc["throws"]
        visits += p * acc["visits"]
    return turn, in_jail, throws / throws.sum(), visits
