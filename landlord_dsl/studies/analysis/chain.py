"""Exact analysis, the chain: exploring every reachable movement state, solving for the long run, checking the economy.

Stage: the third one of `analyze` (landlord_dsl.studies.analysis). `explore_chain` grows
the set of movement states from the start until it is closed (or calls it
unbounded with a located error); `stationary` solves the chain; the economy
check re-runs every state's turn in a game played on by bots and reports,
located at a rule, a state whose turn ends differently there.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import attrs

from ...agents import HeuristicAgent
from ...core.errors import Diagnostic, LandlordError, SourceText
from ...engine.game import Game
from ...program.requests import SeededChance
from .explore import MAX_STATES, TOKEN, Economy, Explorer, LeftGame, NewLive

if TYPE_CHECKING:
    from ...checking.loader import RuleSet
    from ...program.compiled import Program

MAX_VALUES = 64  # distinct values of one variable before it is called unbounded
GTH_LIMIT = 1_500  # closed classes up to this size are solved by state reduction


def _var_decl(rules: RuleSet, kind: str, index: int):
    table = rules.model.player_vars if kind == "player" else rules.model.game_vars
    return list(table.values())[index]


def _diagnostic(program: Program, message: str, span, hint: str | None = None, severity: str = "error") -> Diagnostic:
    source = (program.sources.get(span.file) if span is not None else None) or SourceText("", "")
    d = source.diagnostic(message, span, hint)
    return attrs.evolve(d, severity=severity)


def _too_many_hands(ex: Explorer, hands: set[tuple]) -> Diagnostic:
    """Return the error for a movement state grown too large by the cards the token keeps (`hands`, the hands
    seen), located at the deck that gave the most of them."""
    held = {card for hand in hands for card in hand}
    by_deck = {name: len(held.intersection(cards)) for name, cards in ex.prog.deck_cards.items()}
    deck = max(by_deck, key=lambda name: by_deck[name])
    return _diagnostic(
        ex.prog,
        f"the movement state has more than {MAX_STATES:,} values: the token keeps cards of deck '{deck}' "
        f"({by_deck[deck]} of its cards so far), and its hand has taken {len(hands)} combinations",
        ex.rules.model.decks[deck].span,
        "the cards the token holds are part of its movement state (a held card can change a later turn, as a "
        "Get out of Jail card does), so every hand it can hold is a state of its own; a rule that lets the token "
        "take many of a deck's cards makes too many",
    )


def explore_chain(ex: Explorer):
    """Return (states, transitions by state number, the turns' summaries, end states by key) of the chain
    reachable from the start; `ex.paths.tally` sums the summaries' throws and landings, given the states'
    weights, until the next exploration."""
    while True:
        try:
            ex.paths.memo = {} if ex.use_memo else None
            ex.paths.memo_full = {}
            ex.paths.closed = []
            start = ex.initial_key()
            index = {start: 0}
            order = [start]
            rows, summaries, end_rows = [], [], []
            values_seen: dict[int, set] = {}
            hands_seen: set[tuple] = set()  # the token's hands of deck cards (a state's last part)
            i = 0
            while i < len(order):
                ends, summary = ex.expand(order[i])
                row: dict[int, float] = {}
                for end, p in ends.items():
                    if end not in index:
                        index[end] = len(order)
                        order.append(end)
                        hands_seen.add(end[-1])
                        for slot, value in enumerate(end[1]):
                            seen = values_seen.setdefault(slot, set())
                            seen.add(value)
                            if len(seen) > MAX_VALUES:
                                kind, var = ex.live[slot]
                                decl = _var_decl(ex.rules, kind, var)
                                raise LandlordError(
                                    [
                                        _diagnostic(
                                            ex.prog,
                                            f"the movement state is unbounded: the turn reads {kind} variable "
                                            f"'{decl.name}' and it has taken more than {MAX_VALUES} values",
                                            decl.span,
                                            "an exact chain needs finitely many states; a counter that movement reads "
                                            "(e.g. turns or circuits so far) makes the state grow without end",
                                        )
                                    ]
                                )
                        if len(order) > MAX_STATES and len(hands_seen) > max(map(len, values_seen.values()), default=1):
                            raise LandlordError([_too_many_hands(ex, hands_seen)])
                        if len(order) > MAX_STATES and not values_seen:  # no variable to blame: the rules as a whole
                            raise LandlordError(
                                [
                                    _diagnostic(
                                        ex.prog,
                                        f"the movement state has more than {MAX_STATES:,} values",
                                        ex.rules.model.header.span,
                                        "an exact chain needs a small movement state",
                                    )
                                ]
                            )
                        if len(order) > MAX_STATES:
                            slot = max(values_seen, key=lambda k: len(values_seen[k]))
                            kind, var = ex.live[slot]
                            decl = _var_decl(ex.rules, kind, var)
                            raise LandlordError(
                                [
                                    _diagnostic(
                                        ex.prog,
                                        f"the movement state has more than {MAX_STATES:,} values: the turn reads "
                                        f"the variables {', '.join(variable_names(ex))}, and {kind} variable "
                                        f"'{decl.name}' alone has taken {len(values_seen[slot])}",
                                        decl.span,
                                        "an exact chain needs a small movement state; the token's turn reads these "
                                        "variables, so every combination of their values is a state",
                                    )
                                ]
                            )
                    row[index[end]] = row.get(index[end], 0.0) + p
                rows.append(row)
                end_rows.append(ends)
                summaries.append(summary)
                i += 1
            # (the memo dropped here, while the cyclic collector is off: switched on again, its first collection
            # would otherwise walk the tens of thousands of keys it holds, none of them in a cycle)
            ex.paths.memo, ex.paths.memo_full = None, {}
            ex.paused = []
            return order, rows, summaries, end_rows
        except NewLive:
            ex.live = sorted(set(ex.live) | ex.trace.live)
        except LeftGame:
            event = next((e for e in ex.game.log if e[0] == "out" and e[2] == TOKEN), None)
            rule = event[-1] if event else -1
            span = ex.prog.rule_spans[rule] if rule >= 0 else None
            raise LandlordError(
                [
                    _diagnostic(
                        ex.prog,
                        "the token left the game during a turn of the analysis: its movement depends on "
                        "the economy (who can pay what)",
                        span,
                        "the analysis runs the token's turns in the reference economy (just after setup)",
                    )
                ]
            ) from None


def variable_names(ex: Explorer) -> list[str]:
    return [_var_decl(ex.rules, kind, i).name for kind, i in ex.live]


def stationary(rows: list[dict[int, float]]):
    """Return the stationary distribution of a chain given as sparse rows (numpy array).

    States the chain leaves for good get 0. A single closed class of up to
    GTH_LIMIT states is solved by the Grassmann-Taksar-Heyman state
    reduction: it subtracts nothing, so every probability, however small,
    keeps its full relative precision, and it makes no BLAS call (whose
    threads cost more than the whole reduction on a chain this size).
    Larger chains, and chains with several closed classes (whose long run
    depends on the start), are solved as one linear system.
    """
    np = numpy_module()
    n = len(rows)
    closed = closed_classes(rows)
    if len(closed) == 1 and len(closed[0]) <= GTH_LIMIT:
        members = sorted(closed[0])
        where = {s: k for k, s in enumerate(members)}
        P = np.zeros((len(members), len(members)))
        for k, s in enumerate(members):
            for j, p in rows[s].items():
                P[k, where[j]] = p
        pi = np.zeros(n)
        pi[members] = _gth(P)
        return pi
    P = np.zeros((n, n))
    for i, row in enumerate(rows):
        for j, p in row.items():
            P[i, j] = p
    A = P.T - np.eye(n)
    A[-1, :] = 1.0
    b = np.zeros(n)
    b[-1] = 1.0
    try:
        pi = np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        A = np.vstack([P.T - np.eye(n), np.ones(n)])
        b = np.zeros(n + 1)
        b[-1] = 1.0
        pi = np.linalg.lstsq(A, b, rcond=None)[0]
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


def _gth(P):
    """Return the stationary distribution of the irreducible chain with transition matrix P (reduced in place)."""
    np = numpy_module()
    n = len(P)
    for k in range(n - 1, 0, -1):
        P[:k, k] /= P[k, :k].sum()
        P[:k, :k] += np.multiply.outer(P[:k, k], P[k, :k])
    pi = np.empty(n)
    pi[0] = 1.0
    for k in range(1, n):
        pi[k] = (pi[:k] * P[:k, k]).sum()
    return pi / pi.sum()


def closed_classes(rows: list[dict[int, float]]) -> list[list[int]]:
    """Return the chain's closed classes: its strongly connected sets of states that no transition leaves."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    classes = []
    for root in range(len(rows)):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(rows[root]))]
        while work:
            v, successors = work[-1]
            for w in successors:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(rows[w])))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
                if low[v] == index[v]:
                    members = []  # type: ignore[var-annotated]
                    while not members or members[-1] != v:
                        members.append(stack.pop())
                        on_stack.discard(members[-1])
                    inside = set(members)
                    if all(j in inside for s in members for j in rows[s]):
                        classes.append(members)
    return classes


def numpy_module():
    try:
        import numpy
    except ImportError:  # pragma: no cover - the extra is installed wherever the tests run
        raise LandlordError("the analysis needs numpy: pip install 'landlord-dsl[analysis]'") from None
    return numpy


def status_label(ex: Explorer, values: tuple) -> str:
    """Return 'name=value, ...' for the token's variables that differ from their values in the reference economy."""
    parts = []
    for (kind, i), value in zip(ex.live, values):
        initial = ex.reference.pv[i][TOKEN] if kind == "player" else ex.reference.gv[i]
        if kind == "player" and value != initial:
            parts.append(f"{_var_decl(ex.rules, kind, i).name}={_show(value)}")
    return ", ".join(parts)


def _show(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


# -------------------------------------------------------------- the economy check


def _probe_economy(ex: Explorer, seed: int, turns: int) -> Economy | None:
    """Return the economy of a game played on by heuristic bots for `turns` turns, or None if the token left it."""
    prog = ex.prog
    agents = [HeuristicAgent() for _ in range(len(ex.game.agents))]
    game = Game(prog, agents, chance=SeededChance(seed + 1))
    game.setup()
    for _ in range(turns):
        if game.over:
            break
        game.play_turn()
    if TOKEN not in game.seats or game.over:
        return None
    return Economy(game)


def economy_warnings(ex: Explorer, order, rows, turns: int, seed: int) -> list[Diagnostic]:
    """Return a located warning if some state's turn ends differently in a game further on."""
    probe = _probe_economy(ex, seed, turns)
    if probe is None:
        return []
    reference = ex.economy
    ex.paths.memo = {} if ex.use_memo else None
    ex.paths.memo_full = {}
    try:
        for i, key in enumerate(order):
            ex.economy = probe
            ends_probe = ex.expand(key, ends_only=True)[0]
            if _same(rows[i], ends_probe):
                continue
            ex.paths.memo = None
            return [_locate_difference(ex, key, reference, probe)]
    except (NewLive, LeftGame):
        return [
            _diagnostic(
                ex.prog,
                "the token's movement depends on the economy: in a game further on, its "
                "turn reads other variables or puts it out of the game",
                None,
                severity="warning",
            )
        ]
    finally:
        ex.economy = reference
        ex.paths.memo, ex.paths.memo_full = None, {}
        ex.paused = []
    return []


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(abs(a[k] - b[k]) < 1e-12 for k in a)


_DECISIVE = {"move", "send", "roll", "draw", "out"}


def _locate_difference(ex: Explorer, key, reference: Economy, probe: Economy) -> Diagnostic:
    """Return a warning located at the rule where a turn from `key` first goes differently in the two economies.

    Runs of the same chance path are compared event by event: the warning
    names the first event that moves the token or asks something that goes
    differently, and points at the rule of the first event that differs at
    all (where the difference starts, e.g. a payment one economy can make).
    """
    logs = []
    for economy in (reference, probe):
        ex.economy = economy
        paths = ex.paths
        paths.reset()
        paths.memo = None
        runs = []
        while True:
            ex.run_turn(key)
            # events without the turn number (the economies' games are at different turns)
            runs.append(([e[:1] + e[2:] for e in ex.game.log if e[0] != "turn"], ex.key_of()))
            if not paths.advance() or len(runs) > 5000:
                break
        logs.append(runs)
    cause = decisive = None
    for (log_a, end_a), (log_b, end_b) in zip(*logs):
        if end_a == end_b:
            continue
        first = None
        for a, b in itertools.zip_longest(log_a, log_b):
            if a != b:
                event = a if a is not None else b
                first = first or event
                if event[0] in _DECISIVE:
                    cause, decisive = first, event
                    break
        if decisive is not None:
            break
    if decisive is None:
        return _diagnostic(
            ex.prog,
            "the token's movement depends on the economy: in a game played on for a while its turns end elsewhere",
            None,
            severity="warning",
        )
    what = {
        "roll": "a throw of the dice",
        "draw": "a draw",
        "move": "a move",
        "send": "a move",
        "out": "leaving the game",
    }[decisive[0]]
    rule, at = decisive[-1], cause[-1]  # type: ignore[index]
    names = ex.prog.rule_names
    name = f"rule '{names[rule]}'" if isinstance(rule, int) and rule >= 0 else "the rules"
    start = f", after a difference in rule '{names[at]}'" if isinstance(at, int) and 0 <= at != rule else ""
    span = ex.prog.rule_spans[at] if isinstance(at, int) and at >= 0 else None
    where = ex.prog.space_labels[key[0]]
    return _diagnostic(
        ex.prog,
        f"the token's movement depends on the economy: from {where}, {what} in {name} goes differently "
        f"in a game played on for a while{start}; the figures hold for the reference economy (just after setup) "
        "only",
        span,
        "fix the decision with a preferred option (--prefer NAME), or read the tables as those of "
        "the opening of the game",
        severity="warning",
    )
