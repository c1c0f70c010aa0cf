"""Exact movement analysis: where one token ends its throws and turns under a rule file.

The compiled program's own turn is run, not a model of it. One token (seat 1)
plays turns in a fixed *reference economy* (the game just after setup); its
decisions are answered by a named policy, and every chance request (a dice
throw, and the card a draw turns up) is answered in turn with each of its
outcomes, re-running the turn from the same state for each combination. A
turn's end state is the token's *movement state*: its position, the player
and game variables a turn reads before writing them, and the cards it holds
from decks. These states and the probabilities between them form a Markov
chain whose stationary distribution gives the long-run tables.

Conventions (docs/analysis.md says more):
- a draw turns up each card in the deck with equal probability (uniform,
  with replacement: the deck order is not part of the state); a kept card
  leaves the deck while the token holds it;
- a throw is any dice request made during the token's turn;
- everything but the movement state is put back before each run, so other
  players, money and ownership stay as in the reference economy.

Numbers need numpy (the `analysis` extra).

The package's modules, in pipeline order: `paths` (chance enumeration),
`explore` (movement-state extraction), `chain` (building and solving the
chain, the economy check), `rents`, `report` (results and their rendering);
this module holds the API.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...checking.loader import load
from ...checking.narrowing import statement_blocks, walk_statements
from ...compiling.compiler import compile_ruleset
from ...core.collector import collector_paused
from ...core.errors import Diagnostic, LandlordError, UsageError, did_you_mean
from ...engine.game import whole_argument
from ...language import ast
from .chain import economy_warnings, explore_chain, numpy_module, stationary, status_label, variable_names
from .explore import Explorer, LeftGame
from .rents import rent_table
from .report import Analysis, RentRow, SpaceRow

if TYPE_CHECKING:
    from ...checking.loader import RuleSet

__all__ = ["Analysis", "RentRow", "SpaceRow", "analyze", "sample_turn_ends"]


def analyze(
    rules: RuleSet | str,
    *,
    players: int | None = None,
    prefer: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    seed: int = 0,
    buildings: tuple[str, int] | None = None,
    check_economy: bool = True,
    rents: bool = True,
    memo: bool = True,
    progress: Callable[[str], None] | None = None,
) -> Analysis:
    """Return the exact long-run movement tables of one token under a rule file.

    `prefer` names options the token takes whenever a decision offers them
    (e.g. a jail rule's 'try for a double' option to stay in jail), in order
    of preference; other decisions get the heuristic bot's answer. `players`
    is the table size of the reference economy (the edition's minimum by
    default). `buildings` = (space variable, top level) adds rent rows for
    each building level. With `check_economy`, the turn of every state is
    run again in a game played on by bots, and a difference is reported as
    a located warning in `Analysis.warnings`. `memo=False` re-runs every
    chance path in full instead of reusing explored continuations (slower,
    the same figures). An unbounded movement state, or a token put out of
    the game, raises a located LandlordError. `progress`, if given, is called with the name of each
    stage as it begins (the analysis takes seconds; see terminal.stages).

    :raises UsageError: `players` or `seed` is not a whole number, the rules are not for that many
        players (0 included: it is not a way of asking for the default), or a `prefer` name is no option
        of the rules' decisions.
    """

    began = time.perf_counter()
    np = numpy_module()
    if isinstance(rules, str):
        rules = load(rules)
    seed = whole_argument(seed, "seed")
    table = None if players is None else whole_argument(players, "players")
    program = compile_ruleset(rules, options, keyed=True)
    players = program.players[0] if table is None else table
    _refuse_unknown_preferences(rules, prefer)
    ex = Explorer(rules, program, players, prefer, seed, memo)
    step = progress or (lambda stage: None)
    step("following every throw from every state")
    with collector_paused():
        order, rows, summaries, end_rows = explore_chain(ex)
    step(f"solving the chain of {len(order)} states")
    pi = stationary(rows)
    size = len(program.space_names)

    labels: dict[tuple, str] = {}  # (by the status: the same few statuses come back thousands of times)

    def label(values: tuple) -> str:
        text = labels.get(values)
        if text is None:
            text = labels[values] = status_label(ex, values)
        return text

    turn: dict[tuple[int, str], float] = {}
    for key, p in zip(order, pi):
        k = (key[0], label(key[1]))
        turn[k] = turn.get(k, 0.0) + float(p)
    throws: dict[tuple[int, str], float] = {}
    visits = np.zeros(size)
    ended, landed = ex.paths.tally(summaries, pi)
    ex.paths.closed = []
    del summaries
    for (where, status), count in ended.items():
        k = (where, label(status))
        throws[k] = throws.get(k, 0.0) + count
    for where, count in landed.items():
        visits[where] += count
    throws_per_turn = sum(throws.values())
    statuses = sorted({k[1] for k in list(turn) + list(throws) if k[1]})
    out_rows = []
    for s in range(size):
        t_all = sum(v for (w, _), v in throws.items() if w == s)
        u_all = sum(v for (w, _), v in turn.items() if w == s)
        out_rows.append(
            SpaceRow(
                s,
                program.space_names[s],
                program.space_labels[s],
                "",
                t_all / throws_per_turn if throws_per_turn else 0.0,
                u_all,
                float(visits[s]),
            )
        )
        for status in statuses:
            t, u = throws.get((s, status), 0.0), turn.get((s, status), 0.0)
            if t or u:
                out_rows.append(
                    SpaceRow(
                        s,
                        program.space_names[s],
                        program.space_labels[s],
                        status,
                        t / throws_per_turn if throws_per_turn else 0.0,
                        u,
                        0.0,
                    )
                )
    if check_economy:
        step("checking the movement against a game played on")
    economy_turns = 10 * players
    with collector_paused():
        warnings = economy_warnings(ex, order, end_rows, turns=economy_turns, seed=seed) if check_economy else []
    if rents:
        step("measuring the rents")
    rent_rows = rent_table(ex, visits, buildings) if rents else []
    return Analysis(
        program.name,
        program.title,
        players,
        tuple(prefer),
        "uniform",
        len(order),
        throws_per_turn,
        tuple(out_rows),
        tuple(rent_rows),
        tuple(variable_names(ex)) or ("position",),
        tuple(warnings),
        time.perf_counter() - began,
        check_economy,
        economy_turns if check_economy else 0,
    )


def _refuse_unknown_preferences(rules: RuleSet, prefer: Sequence[str]) -> None:
    """Raise UsageError for a name of `prefer` that no `choose` or `offer` of the rules offers (a misspelt
    preference was followed by nothing, and the analysis ran with the heuristic bot's answers); return
    nothing."""
    blocks = statement_blocks(rules.model)
    offered = {o.name for body in blocks for s in walk_statements(body) if isinstance(s, ast.Choose) for o in s.options}
    for name in prefer:
        if name not in offered:
            hint = (
                did_you_mean(name, offered) or f"the options the rules' decisions offer: {', '.join(sorted(offered))}"
            )
            raise UsageError(
                [Diagnostic(f"--prefer {name}: no decision of {rules.name} offers an option '{name}'", hint=hint)]
            )


def sample_turn_ends(
    rules: RuleSet | str,
    turns: int,
    *,
    players: int | None = None,
    prefer: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    seed: int = 0,
    batches: int = 20,
):
    """Return (mean, standard error) per space of the share of turns ending there, by Monte Carlo.

    The same turns as `analyze` (the real engine, the reference economy put
    back before each turn, the same policy and draw convention), but every
    chance request is sampled from a seeded generator with all dice faces
    distinct, and the token goes on from where each turn ended. The
    standard error is from `batches` batch means.
    """
    import random

    np = numpy_module()
    if isinstance(rules, str):
        rules = load(rules)
    seed = whole_argument(seed, "seed")
    table = None if players is None else whole_argument(players, "players")
    program = compile_ruleset(rules, options, keyed=True)
    players = program.players[0] if table is None else table
    _refuse_unknown_preferences(rules, prefer)
    ex = Explorer(rules, program, players, prefer, seed)
    ex.paths.dice_classes = lambda count: [(t, 6.0**-count) for t in itertools.product(range(1, 7), repeat=count)]
    ex.paths.sample = random.Random(seed)
    key = ex.initial_key()
    size = len(program.space_names)
    per_batch = max(1, turns // batches)
    counts = np.zeros((batches, size))
    for b in range(batches):
        for _ in range(per_batch):
            try:
                ex.run_turn(key)
            except LeftGame:
                raise LandlordError("the token left the game during a sampled turn") from None
            if ex.trace.run_live - set(ex.live):
                ex.live = sorted(set(ex.live) | ex.trace.live)
            key = ex.key_of()
            counts[b, key[0]] += 1
    shares = counts / per_batch
    return shares.mean(axis=0), shares.std(axis=0, ddof=1) / np.sqrt(batches)
