"""Exact analysis, rents: what each title earns per landing and per opponent turn, and its payback time.

Stage: after the chain of `analyze` (landlord_dsl.studies.analysis). The token lands
on a title held by seat 2 in the reference economy, and the money it pays
over every chance outcome of the landing is the rent; the price is measured
the same way, from the token buying the title, and a building's cost from
the token taking the option of a turn's decision that raises the title's
building count.
"""

from __future__ import annotations

from ...agents import Agent, HeuristicAgent
from ...core.errors import LandlordError
from ...program.control import EndGame, EndTurn
from .explore import TOKEN, Explorer
from .report import RentRow


def rent_table(ex: Explorer, visits_per_turn, buildings: tuple[str, int] | None) -> list[RentRow]:
    """Return expected rent per landing and per opponent turn for every title at each level.

    Seat 2 owns the title (alone; then with every title of the same kind and
    the same groups; then, if `buildings` names a space variable and its top
    level, with that variable at each level on all of them) and the token
    lands on it: the money it pays seat 2 during that landing, over every
    chance outcome of the landing, is the rent. A row's cost is what this
    title costs its owner to reach the level: its price, and at a building
    level the buildings put up on it one by one (levels are reached in
    order, so the rows of one title add up).
    """
    prog, g = ex.prog, ex.game
    if len(g.agents) < 2:
        return []
    owner = 1
    titled = [s for s, c in enumerate(prog.title_card) if c is not None]
    proper = {
        name: set(members)
        for name, members in ex.rules.model.groups.items()
        if len(set(members) & set(titled)) < len(titled)
    }
    var = None
    if buildings is not None:
        names = list(ex.rules.model.space_vars)
        if buildings[0] not in names:
            raise LandlordError(
                f"no space variable '{buildings[0]}' to count buildings with "
                f"(space variables: {', '.join(names) or 'none'})"
            )
        var = names.index(buildings[0])
    out = []
    for s in titled:
        groups = {name for name, members in proper.items() if s in members}
        family = [
            t
            for t in titled
            if prog.space_kinds[t] == prog.space_kinds[s]
            and {name for name, members in proper.items() if t in members} == groups
        ]
        levels: list[tuple[str, list[int], int | None]] = [("alone", [s], None)]
        if len(family) > 1:
            levels.append((f"all {len(family)}", family, None))
        if buildings is not None and var is not None and prog.space_kinds[s] in _improvable_kinds(ex):
            name, top = buildings
            levels += [(f"all {len(family)}, {name}={level}", family, level) for level in range(1, top + 1)]
        cost = _purchase_cost(ex, s)
        for label, held, level in levels:
            rent = _rent_on_landing(ex, s, held, owner, var, level)
            per_turn = rent * visits_per_turn[s]
            if cost is not None and level is not None:
                built = _building_cost(ex, s, family, var, level)  # type: ignore[arg-type]
                cost = None if built is None else cost + built
            payback = cost / per_turn if cost and per_turn > 0 else None
            out.append(RentRow(s, prog.space_names[s], prog.space_labels[s], label, rent, per_turn, cost, payback))
    return out


def _improvable_kinds(ex: Explorer) -> set[str]:
    return {name for name, kind in ex.rules.model.kinds.items() if kind.improvable}


def _purchase_cost(ex: Explorer, s: int) -> int | None:
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


def _land(ex: Explorer, s: int) -> None:
    g = ex.game
    g.pos[TOKEN] = s
    g.current = g.actor = TOKEN
    g.started = True
    try:
        g.land()
    except (EndTurn, EndGame):
        pass


def _rent_on_landing(ex: Explorer, s: int, held: list[int], owner: int, var: int | None, level: int | None) -> float:
    g, prog, paths = ex.game, ex.prog, ex.paths
    paths.memo = None
    paths.reset()
    total = 0.0
    while True:
        ex.economy.put(g)
        g.bal[g.nacc + TOKEN] = 10**9  # the rent owed, not what a poor lander could raise
        for t in held:
            g.set_holder(prog.title_card[t], owner)  # type: ignore[arg-type]
            if level is not None:
                g.sv[var][t] = level  # type: ignore[index]
        g.log = []
        paths.start()
        _land(ex, s)
        paid = sum(e[2] for e in g.log if e[0] == "pay" and e[3] == g.nacc + TOKEN and e[4] == g.nacc + owner)
        total += paths.prob * paid
        if not paths.advance():
            break
    return total


class _Stop(Exception):
    """The option being measured has been carried out: stop the turn."""


class _BuildProbe(Agent):
    """The token's decisions while a building is measured.

    At the first decision that offers options about the space, it takes the
    `which`-th of them and notes where the log stood; at the decision after
    that it stops the turn. Other decisions go to `fallback`.
    """

    def __init__(self, space: int, which: int, fallback: Agent):
        self.space, self.which, self.fallback = space, which, fallback
        self.at: int | None = None  # log length when the option was taken

    def choose(self, game, request):
        if self.at is not None:
            raise _Stop()
        about = [i for i, entry in enumerate(request.legal) if entry[1] == self.space]
        if self.which >= len(about):
            return self.fallback.choose(game, request)
        self.at = len(game.log)
        return about[self.which]

    def bid(self, game, request):
        return None


MAX_BUILD_OPTIONS = 8  # options about one space tried before its building cost is called unknown


def _building_cost(ex: Explorer, s: int, family: list[int], var: int, level: int) -> int | None:
    """Return what the token pays to raise space variable `var` on `s` from level-1 to `level`, as the rules charge it.

    The token holds every title of the family, each at level-1, and is
    rich; in its turn, the first decision that offers options about `s` is
    answered with each of them in turn until one raises `s` to `level`: the
    token's payments from then until its next decision are the cost. None
    if no option of a turn's decisions does that.
    """
    g, prog, paths = ex.game, ex.prog, ex.paths
    agents = g.agents
    for which in range(MAX_BUILD_OPTIONS):
        paths.memo = None
        paths.reset()
        paths.start()
        ex.economy.put(g)
        g.bal[g.nacc + TOKEN] = 10**9
        for t in family:
            g.set_holder(prog.title_card[t], TOKEN)  # type: ignore[arg-type]
            g.sv[var][t] = level - 1
        probe = _BuildProbe(s, which, agents[TOKEN])
        g.agents = [probe] + agents[1:]
        try:
            g.play_turn()
        except (_Stop, EndTurn, EndGame):
            pass
        finally:
            g.agents = agents
        if probe.at is None:
            return None
        if g.sv[var][s] == level:
            return sum(e[2] for e in g.log[probe.at :] if e[0] == "pay" and e[3] == g.nacc + TOKEN)
    return None
