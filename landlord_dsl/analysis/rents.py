"""Exact analysis, rents: what each title earns per landing and per opponent turn, and its payback time.

Stage: after the chain of `analyze` (landlord_dsl.analysis). The token lands
on a title held by seat 2 in the reference economy, and the money it pays
over every chance outcome of the landing is the rent; the price is measured
the same way, from the token buying the title.
"""

from __future__ import annotations

from ..agents import HeuristicAgent
from ..control import EndGame, EndTurn
from ..errors import LandlordError
from .explore import TOKEN, _Explorer
from .report import RentRow


def _rent_rows(ex: _Explorer, visits_per_turn, buildings: tuple[str, int] | None) -> list[RentRow]:
    """Return expected rent per landing and per opponent turn for every title at each level.

    Seat 2 owns the title (alone; then with every title of the same kind and
    the same groups; then, if `buildings` names a space variable and its top
    level, with that variable at each level on all of them) and the token
    lands on it: the money it pays seat 2 during that landing, over every
    chance outcome of the landing, is the rent.
    """
    prog, g = ex.prog, ex.game
    if len(g.agents) < 2:
        return []
    owner = 1
    titled = [s for s, c in enumerate(prog.title_card) if c is not None]
    proper = {name: set(members) for name, members in ex.rules.model.groups.items()
              if len(set(members) & set(titled)) < len(titled)}
    var = None
    if buildings is not None:
        names = list(ex.rules.model.space_vars)
        if buildings[0] not in names:
            raise LandlordError(f"no space variable '{buildings[0]}' to count buildings with "
                                f"(space variables: {', '.join(names) or 'none'})")
        var = names.index(buildings[0])
    out = []
    for s in titled:
        groups = {name for name, members in proper.items() if s in members}
        family = [t for t in titled if prog.space_kinds[t] == prog.space_kinds[s]
                  and {name for name, members in proper.items() if t in members} == groups]
        cost = _purchase_cost(ex, s)
        levels: list[tuple[str, list[int], int | None]] = [("alone", [s], None)]
        if len(family) > 1:
            levels.append((f"all {len(family)}", family, None))
        if var is not None and prog.space_kinds[s] in _improvable_kinds(ex):
            levels += [(f"all {len(family)}, {buildings[0]}={level}", family, level)
                       for level in range(1, buildings[1] + 1)]
        for label, held, level in levels:
            rent = _rent_on_landing(ex, s, held, owner, var, level)
            per_turn = rent * visits_per_turn[s]
            # buildings' costs are not measured: their rows give rent only
            total_cost = None if cost is None or level is not None else sum(
                _purchase_cost(ex, t) or 0 for t in held) if len(held) > 1 else cost
            payback = total_cost / per_turn if total_cost and per_turn > 0 else None
            out.append(RentRow(s, prog.space_names[s], prog.space_labels[s], label, rent, per_turn,
                               total_cost, payback))
    return out


def _improvable_kinds(ex: _Explorer) -> set[str]:
    return {name for name, kind in ex.rules.model.kinds.items() if kind.improvable}


def _purchase_cost(ex: _Explorer, s: int) -> int | None:
    """Return the price the token pays for the title when it lands on it unowned, rich, and takes it; else None.

    The price is the token's payment just before the title deed reaches it,
    under the same rule; the token buys and bids as the heuristic bot.
    """
    g, prog = ex.game, ex.prog
    card = prog.title_card[s]
    ex.paths.memo = None
    ex.paths.reset()
    ex.paths.start()
    ex.economy.put(g)
    g.bal[g.nacc + TOKEN] = max(g.bal[g.nacc + TOKEN], 10**9)
    agents = g.agents
    g.agents = [HeuristicAgent()] + agents[1:]
    try:
        _land(ex, s)
    finally:
        g.agents = agents
    log = g.log
    given = next((i for i, e in enumerate(log) if e[0] == "card" and e[2] == card and e[4] == TOKEN), None)
    if given is None:
        return None
    for e in reversed(log[:given]):
        if e[0] == "pay" and e[3] == g.nacc + TOKEN:
            return e[2] if e[5] == log[given][5] else None
    return None


def _land(ex: _Explorer, s: int) -> None:
    g = ex.game
    g.pos[TOKEN] = s
    g.current = g.actor = TOKEN
    g.started = True
    try:
        g.land()
    except (EndTurn, EndGame):
        pass


def _rent_on_landing(ex: _Explorer, s: int, held: list[int], owner: int, var: int | None,
                     level: int | None) -> float:
    g, prog, paths = ex.game, ex.prog, ex.paths
    paths.memo = None
    paths.reset()
    total = 0.0
    while True:
        ex.economy.put(g)
        g.bal[g.nacc + TOKEN] = 10**9  # the rent owed, not what a poor lander could raise
        for t in held:
            g.set_holder(prog.title_card[t], owner)
            if level is not None:
                g.sv[var][t] = level
        g.log = []
        paths.start()
        _land(ex, s)
        paid = sum(e[2] for e in g.log if e[0] == "pay" and e[3] == g.nacc + TOKEN and e[4] == g.nacc + owner)
        total += paths.prob * paid
        if not paths.advance():
            break
    return total
