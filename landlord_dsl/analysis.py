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
"""

from __future__ import annotations

import bisect
import dis
import functools
import itertools
import re
import sys
import time
from typing import TYPE_CHECKING, Any, Sequence

import attrs

from .agents import Agent, HeuristicAgent
from .engine import EndGame, EndTurn, Game
from .errors import Diagnostic, LandlordError, SourceText
from .requests import SeededChance

if TYPE_CHECKING:
    from .program import Program
    from .loader import RuleSet

TOKEN = 0                # the seat whose movement is analysed
MAX_STATES = 20_000      # movement states before the state is called unbounded
MAX_VALUES = 64          # distinct values of one variable before it is called unbounded
MAX_PATHS = 2_000_000    # chance paths of one turn before the turn is called unbounded


# ------------------------------------------------------------------ results

@attrs.frozen
class SpaceRow:
    """Long-run figures for one space, or for one space in one status (e.g. in jail).

    `throw` and `turn` are probabilities (0..1) that a throw or a turn ends
    there; `visits` is the expected number of landings there per turn.
    """

    index: int
    name: str
    label: str
    status: str
    throw: float
    turn: float
    visits: float


@attrs.frozen
class RentRow:
    """What one title earns its owner at one level, per landing and per opponent turn.

    `cost` is the money laid out to reach the level as the rules charge it
    (None if it could not be measured); `payback` is cost / rent_per_turn, in
    opponent turns (None without a cost or a rent).
    """

    index: int
    name: str
    label: str
    level: str
    rent_per_landing: float
    rent_per_turn: float
    cost: int | None
    payback: float | None


@attrs.frozen
class Analysis:
    """The result of `analyze`: per-space rows, rent rows and what they assume."""

    edition: str
    title: str
    players: int
    policy: tuple[str, ...]
    draws: str
    states: int
    throws_per_turn: float
    rows: tuple[SpaceRow, ...]
    rents: tuple[RentRow, ...]
    movement_state: tuple[str, ...]
    warnings: tuple[Diagnostic, ...]
    seconds: float
    economy_checked: bool = True

    @property
    def exact(self) -> bool:
        """Return True when the economy check ran and found the movement independent of the economy."""
        return self.economy_checked and not self.warnings

    def by_space(self, name: str) -> SpaceRow:
        """Return the all-statuses row of the space called `name`."""
        for row in self.rows:
            if row.name == name and not row.status:
                return row
        raise LandlordError(f"no space '{name}' in this analysis")

    def to_json(self) -> dict[str, Any]:
        """Return the analysis as plain JSON data (the schema is in docs/analysis.md)."""
        return {
            "schema": "landlord-dsl/analysis/1",
            "edition": self.edition,
            "title": self.title,
            "players": self.players,
            "policy": list(self.policy),
            "draws": self.draws,
            "states": self.states,
            "movement_state": list(self.movement_state),
            "throws_per_turn": self.throws_per_turn,
            "economy_checked": self.economy_checked,
            "exact": self.exact,
            "warnings": [d.render() for d in self.warnings],
            "spaces": [attrs.asdict(r) for r in self.rows],
            "rents": [attrs.asdict(r) for r in self.rents],
        }

    def _table(self, markdown: bool) -> list[str]:
        head = ["#", "space", "throw %", "turn %", "visits/turn"]
        body = []
        for r in self.rows:
            name = r.label + (f" [{r.status}]" if r.status else "")
            body.append([str(r.index), name, f"{100 * r.throw:.4f}", f"{100 * r.turn:.4f}", f"{r.visits:.5f}"])
        rents = []
        for r in self.rents:
            rents.append([str(r.index), r.label, r.level, f"{r.rent_per_landing:.2f}", f"{r.rent_per_turn:.3f}",
                          "-" if r.cost is None else str(r.cost),
                          "-" if r.payback is None else f"{r.payback:.1f}"])
        rent_head = ["#", "title", "level", "rent/landing", "rent/opponent turn", "cost", "payback (turns)"]
        return _render_grid(head, body, markdown), _render_grid(rent_head, rents, markdown)

    def render_text(self) -> str:
        """Return the analysis as a plain-text report."""
        spaces, rents = self._table(False)
        out = [f"{self.title}: exact long-run movement of one token",
               f"policy: {', '.join(self.policy) or 'heuristic bot'}; draws: {self.draws}; "
               f"{self.states} movement states ({', '.join(self.movement_state)}); "
               f"{self.throws_per_turn:.4f} throws a turn; {self.seconds * 1000:.0f} ms", ""]
        for d in self.warnings:
            out += ["warning: " + d.render(), ""]
        out += spaces
        if self.rents:
            out += ["", "Rent an opponent pays (reference economy, from the rules' landing handlers):"] + rents
        return "\n".join(out) + "\n"

    def render_markdown(self) -> str:
        """Return the analysis as Markdown (two tables)."""
        spaces, rents = self._table(True)
        out = [f"## {self.title}", "",
               f"Policy: {', '.join(self.policy) or 'heuristic bot'}. Draws: {self.draws}. "
               f"{self.states} movement states ({', '.join(self.movement_state)}). "
               f"{self.throws_per_turn:.4f} throws a turn.", ""]
        for d in self.warnings:
            out += ["!!! warning", "    " + d.render().replace("\n", "\n    "), ""]
        out += spaces
        if self.rents:
            out += ["", "### Rent per opponent turn", ""] + rents
        return "\n".join(out) + "\n"


def _render_grid(head: list[str], rows: list[list[str]], markdown: bool) -> list[str]:
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
        return lines + ["| " + " | ".join(r) + " |" for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    left = {1, 2}

    def fmt(r):
        return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))

    return [fmt(head), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows]


# ------------------------------------------------------------ the machinery

class PolicyAgent(Agent):
    """The token's decisions: the first preferred option offered, else the heuristic bot's pick.

    The bot's pick is made as if the token had `cash` (its cash in the
    reference economy), so the policy does not drift with the economy. The
    token never bids.
    """

    def __init__(self, prefer: Sequence[str], cash: int, reserve: int = HeuristicAgent().reserve):
        self.prefer = tuple(prefer)
        self.limit = cash - reserve

    def choose(self, game, request):
        names = request.names
        for name in self.prefer:
            if name in names:
                return names.index(name)
        best, best_gain, cheapest, cheapest_cost = -1, None, 0, None
        for i, (_, _, cost, value) in enumerate(request.legal):
            if cheapest_cost is None or cost < cheapest_cost:
                cheapest, cheapest_cost = i, cost
            if cost <= self.limit or cost <= 0:
                gain = value - cost
                if best_gain is None or gain > best_gain:
                    best, best_gain = i, gain
        return best if best >= 0 else cheapest

    def bid(self, game, request):
        return None


_DICE_READ = object()  # in the memo: this continuation reads older dice; look it up with its dice


class _Cut(Exception):
    """A run reached a chance request whose future is already known (memoised): stop it there."""


class _Paths:
    """Answers one run's chance requests from a path of outcome indices, extending it with first outcomes.

    `advance` moves to the next path in depth-first order; the probability
    of the run is the product of the outcomes' probabilities. With a `memo`,
    a request met for the first time whose continuation (the stack of
    running handlers with their locals, and the movement-relevant state) was
    already explored to the end is not answered: the run stops (_Cut) and
    the known future is used instead.
    """

    def __init__(self, dice_classes):
        self.path: list[int] = []
        self.widths: list[int] = []
        self.depth = 0
        self.prob = 1.0
        self.dice_classes = dice_classes
        self.game: Game | None = None
        self.throw_ends: list[tuple] | None = None
        self.sample = None  # a random.Random: sample instead of enumerating (Monte Carlo)
        self.memo: dict | None = None
        self.memo_full: dict = {}  # continuations that read the dice thrown before them, by their dice too
        self.last_roll = -1  # the last throw answered in this run (its request index)
        self.dice_reads: list[tuple[int, int]] = []  # (requests answered, last throw) at each read of the dice
        self.signature = None  # function returning a request's continuation signature
        self.where = None  # function returning the token's (position, status)
        # per open request: [signature without dice, with dice, prefix probability, summary, reads older dice]
        self.nodes: list[list] = []
        self.asked_at: list[int] = []  # log length when each request of this run was asked
        self.hit = None  # the summary met at the request where this run was cut

    def start(self) -> None:
        self.depth, self.prob = 0, 1.0
        self.asked_at = []
        self.hit = None
        self.last_roll = -1
        self.dice_reads = []

    def _answer(self, outcomes: list[tuple[Any, float]], roll: bool = False) -> Any:
        if self.sample is not None:
            r, acc = self.sample.random(), 0.0
            for answer, p in outcomes:
                acc += p
                if r < acc:
                    return answer
            return outcomes[-1][0]
        d = self.depth
        if d == len(self.path):
            if self.memo is not None:
                frames, state, dice = self.signature(roll)
                reduced, full = (frames, state), (frames, state, dice)
                known = self.memo.get(reduced)
                if known is _DICE_READ:
                    known = self.memo_full.get(full)
                if known is not None:
                    self.hit = known
                    raise _Cut()
                self.nodes.append([reduced, full, self.prob, ({}, {}, {}), False])
            self.path.append(0)
            self.widths.append(len(outcomes))
        self.asked_at.append(len(self.game.log))
        answer, p = outcomes[self.path[d]]
        self.depth = d + 1
        self.prob *= p
        if roll:
            self.last_roll = d
        return answer

    def advance(self) -> bool:
        del self.path[self.depth:]
        del self.widths[self.depth:]
        while self.path:
            if self.path[-1] + 1 < self.widths[-1]:
                self.path[-1] += 1
                return True
            self.path.pop()
            self.widths.pop()
            self._close()
        return False

    def _close(self) -> None:
        if self.memo is not None and self.nodes:
            reduced, full, _, summary, dice_read = self.nodes.pop()
            if dice_read:
                self.memo_full[full] = (summary, True)
                self.memo.setdefault(reduced, _DICE_READ)
            else:
                self.memo[reduced] = (summary, False)

    def dice_read(self) -> None:
        self.dice_reads.append((self.depth, self.last_roll))

    def note_dice_reads(self) -> None:
        """Mark the open requests whose future, in this run, read dice thrown before them."""
        cut_reads = self.hit is not None and self.hit[1]
        for d, node in enumerate(self.nodes):
            if node[4]:
                continue
            if cut_reads and self.last_roll < d:
                node[4] = True
            elif any(c > d and r < d for c, r in self.dice_reads):
                node[4] = True

    def reset(self) -> None:
        self.path, self.widths, self.nodes = [], [], []

    # the ChanceSource protocol
    def roll(self, request):
        if self.throw_ends is not None and self.game.started:
            self.throw_ends.append((self.where(), self.depth))
        return self._answer(self.dice_classes(request.count), True)

    def shuffle(self, request):
        return list(range(request.size))  # under uniform draws the order of a deck does not matter

    def pick(self, size: int) -> int:
        return self._answer([(k, 1.0 / size) for k in range(size)])


def _dice_classes_for(program: "Program"):
    """Return a function giving a dice throw's outcome classes: (representative faces, probability).

    When the compiled rules never read single dice (only their total and
    whether they are a double), throws with the same total and double-ness
    are one class: the rules cannot tell them apart.
    """
    faces_read = re.search(r"g\.dice(?!_)", program.python_source) is not None
    cache: dict[int, list] = {}

    def classes(count: int):
        if count not in cache:
            throws = list(itertools.product(range(1, 7), repeat=count))
            if faces_read:
                cache[count] = [(t, 1.0 / len(throws)) for t in throws]
            else:
                merged: dict[tuple, list] = {}
                for t in throws:
                    key = (sum(t), count > 1 and len(set(t)) == 1)
                    merged.setdefault(key, [t, 0])[1] += 1
                cache[count] = [(t, n / len(throws)) for t, n in merged.values()]
        return cache[count]

    return classes


class _Trace:
    """Finds which of the token's variables (and the game's) a turn reads before it writes them.

    A read immediately followed by a write of the same variable, with no
    event and no other write between, only updates the variable (`+= 1`):
    the variable stays tied to its incoming value, so a later read still
    counts. Everything else that reads an incoming value makes it live.
    """

    def __init__(self, game: Game):
        self.game = game
        self.live: set[tuple[str, int]] = set()
        self.run_live: set[tuple[str, int]] = set()
        self.written: set[tuple[str, int]] = set()
        self.pending: dict[tuple[str, int], tuple[int, int]] = {}
        self.writes = 0

    def start(self) -> None:
        self.written.clear()
        self.pending.clear()
        self.run_live = set()

    def read(self, key) -> None:
        if key not in self.written and key not in self.pending:
            self.pending[key] = (len(self.game.log), self.writes)

    def write(self, key) -> None:
        pending = self.pending.pop(key, None)
        self.writes += 1
        if pending is not None:
            if pending == (len(self.game.log), self.writes - 1):
                return  # an update of the incoming value: still tied to it
            self.run_live.add(key)
        self.written.add(key)

    def finish(self) -> set:
        self.run_live.update(self.pending)
        self.pending.clear()
        self.live |= self.run_live
        return self.run_live


class _WatchedPlayerVar(list):
    """One player variable's values by seat, reporting the token's reads and writes to a _Trace."""

    __slots__ = ("trace", "key")

    def __getitem__(self, i):
        if i == TOKEN:
            self.trace.read(self.key)
        return list.__getitem__(self, i)

    def __setitem__(self, i, value):
        if i == TOKEN:
            self.trace.write(self.key)
        list.__setitem__(self, i, value)


class _WatchedGameVars(list):
    """The game variables, reporting reads and writes to a _Trace."""

    __slots__ = ("trace",)

    def __getitem__(self, i):
        if isinstance(i, int):
            self.trace.read(("game", i))
        return list.__getitem__(self, i)

    def __setitem__(self, i, value):
        if isinstance(i, int):
            self.trace.write(("game", i))
        list.__setitem__(self, i, value)


def _watch(cls, values, trace, key=None):
    w = cls(values)
    w.trace = trace
    if key is not None:
        w.key = key
    return w


def _dice_property(field: str) -> property:
    def get(self):
        if self._dice_hook is not None:
            self._dice_hook()
        return self.__dict__[field]

    def put(self, value):
        self.__dict__[field] = value

    return property(get, put)


class _AnalysisGame(Game):
    """A Game whose draws ask the chance source which card of the deck turns up, and that reports reads of the dice."""

    _dice_hook = None
    dice = _dice_property("_v_dice")
    dice_total = _dice_property("_v_dice_total")
    dice_double = _dice_property("_v_dice_double")

    def draw(self, deck: str) -> None:
        cards = self.decks[deck]
        pick = getattr(self.chance, "pick", None)
        if pick is not None and len(cards) > 1 and self.prog.deck_enabled[deck](self):
            k = pick(len(cards))
            if k:
                cards.insert(0, cards.pop(k))
        super().draw(deck)


def _put(target: list, values: list) -> None:
    list.__setitem__(target, slice(None), values)


class _Economy:
    """Everything in a game but the token's movement state, captured once and put back in place."""

    def __init__(self, g: Game):
        self.bal = list(g.bal)
        self.pos = list(g.pos)
        self.gv = list(g.gv)
        self.pv = [list(v) for v in g.pv]
        self.sv = [list(v) for v in g.sv]
        self.holder = list(g.holder)
        self.owner = list(g.owner)
        self.titles = [list(t) for t in g.titles]
        self.hands = [list(h) for h in g.hands]
        self.decks = {k: list(v) for k, v in g.decks.items()}
        self.active = list(g.active)
        self.fired = list(g.fired)
        self.loans = [list(l) for l in g.loans]
        self.seats = list(g.seats)
        self.scalars = (g.turn, g.minted, g.origin, g.triggers_live)
        self.dice = (g.dice, g.dice_total, g.dice_double)

    def put(self, g: Game) -> None:
        _put(g.bal, self.bal)
        _put(g.pos, self.pos)
        _put(g.gv, self.gv)
        for mine, saved in zip(g.pv, self.pv):
            _put(mine, saved)
        for mine, saved in zip(g.sv, self.sv):
            _put(mine, saved)
        _put(g.holder, self.holder)
        _put(g.owner, self.owner)
        for mine, saved in zip(g.titles, self.titles):
            _put(mine, saved)
        for mine, saved in zip(g.hands, self.hands):
            _put(mine, saved)
        for name, cards in self.decks.items():
            _put(g.decks[name], cards)
        _put(g.active, self.active)
        _put(g.fired, self.fired)
        g.loans[:] = [list(l) for l in self.loans]
        _put(g.seats, self.seats)
        g.turn, g.minted, g.origin, g.triggers_live = self.scalars
        g.over, g.end_reason, g.turn_after, g.next_seat = False, "", None, TOKEN
        g.depth = g.shortfalls = 0
        g.short.clear()
        g.card = None
        g.dice, g.dice_total, g.dice_double = self.dice
        g.log.clear()
        g.decisions.clear()


class _Explorer:
    """Runs the token's turns from movement states and collects the chain."""

    def __init__(self, rules: "RuleSet", program: "Program", players: int, prefer: Sequence[str], seed: int,
                 memo: bool = True):
        self.rules = rules
        self.use_memo = memo
        self.prog = program
        self.paths = _Paths(_dice_classes_for(program))
        self.prefer = tuple(prefer)
        agents: list[Agent] = [HeuristicAgent() for _ in range(players)]
        # The long run of a game that goes on: its end conditions are not checked (their reads of the
        # token's variables are not movement).
        game = _AnalysisGame(attrs.evolve(program, end_conditions=[]), agents, chance=SeededChance(seed))
        game.setup()
        if game.over or TOKEN not in game.seats:
            raise LandlordError(f"{program.title}: the game is over after setup; there is no movement to analyse")
        agents[TOKEN] = PolicyAgent(prefer, game.cash(TOKEN))
        game.agents = agents
        self.game = game
        self.trace = _Trace(game)
        game.pv = [_watch(_WatchedPlayerVar, v, self.trace, ("player", i)) for i, v in enumerate(game.pv)]
        game.gv = _watch(_WatchedGameVars, game.gv, self.trace)
        game.chance = self.paths
        self.paths.game = game
        self.reference = _Economy(game)
        self.economy = self.reference
        titled = {c for c in program.title_card if c is not None}
        self.deck_cards = [c for c in range(len(program.card_names)) if c not in titled]
        self._deck_card_set = set(self.deck_cards)
        self.live: list[tuple[str, int]] = []
        self.paths.signature = self.signature
        game._dice_hook = self.paths.dice_read
        self.paths.where = lambda: (game.pos[TOKEN], self.status_now())
        self._own_ids = _own_containers(game)
        self._origin_read = "g.origin" in program.python_source

    # -- movement states
    def key_of(self) -> tuple:
        g = self.game
        held = tuple(c for c in g.hands[TOKEN] if c in self._deck_card_set)
        return (g.pos[TOKEN], self.status_now(), held)

    def initial_key(self) -> tuple:
        self.economy.put(self.game)
        return self.key_of()

    def put_state(self, key: tuple) -> None:
        g = self.game
        self.economy.put(g)
        pos, values, held = key
        g.pos[TOKEN] = pos
        for (kind, i), value in zip(self.live, values):
            if kind == "player":
                list.__setitem__(g.pv[i], TOKEN, value)
            else:
                list.__setitem__(g.gv, i, value)
        for card in held:
            if g.holder[card] is None:
                g.set_holder(card, TOKEN)
        g.log.clear()

    def run_turn(self, key: tuple) -> bool:
        """Play the token's turn from `key`; return False if it was cut at a memoised request."""
        g = self.game
        self.put_state(key)
        self.trace.start()
        self.paths.start()
        try:
            g.play_turn()
        except _Cut:
            self.trace.finish()
            return False
        if TOKEN not in g.seats:
            raise _LeftGame()
        self.trace.finish()
        return True

    def status_now(self) -> tuple:
        """Return the values of the live variables now, in the order of `live`."""
        g = self.game
        return tuple(list.__getitem__(g.pv[i], TOKEN) if kind == "player" else list.__getitem__(g.gv, i)
                     for kind, i in self.live)

    def signature(self, roll: bool) -> tuple:
        """Return what the rest of a turn depends on at a chance request, money and ownership left out.

        The running handlers (code, place and locals of every frame between
        the turn and this request) and the state that moves the token: the
        positions, every player and game variable, the cards in the decks
        and held by the token, the dice (not at a throw, which replaces them
        unseen), where the last move began (if the rules ever read it) and
        the engine's bookkeeping.
        Balances, owners (title deeds, wherever they are) and space
        variables are left out: that is the
        assumption (checked by the economy check) that within a turn they
        do not change where the token goes.
        """
        g = self.game
        frames = []
        frame = sys._getframe(3)  # skip signature, _answer and the chance method
        own = self._own_ids
        while frame is not None:
            code = frame.f_code
            live = _live_locals(code, frame.f_lasti)
            frames.append((id(code), frame.f_lasti,
                           tuple((k, _freeze(v, own)) for k, v in frame.f_locals.items()
                                 if live is None or k in live)))
            if code is _PLAY_TURN:
                break
            frame = frame.f_back
        state = (tuple(g.pos), tuple(tuple(v) for v in g.pv), tuple(g.gv),
                 tuple(sorted((name, tuple(sorted(c for c in cards if c in self._deck_card_set)))
                              for name, cards in g.decks.items())),
                 tuple(c for c in g.hands[TOKEN] if c in self._deck_card_set),
                 g.origin if self._origin_read else None, g.card, g.rule, g.depth, g.actor, g.current,
                 g.turn_after, tuple(g.active), tuple(g.fired), tuple(g.seats), g.due, g.creditor, g.over,
                 g.shortfalls, tuple(self.status_now()))
        dice = None if roll else (g._v_dice, g._v_dice_total, g._v_dice_double)
        return tuple(frames), state, dice

    def expand(self, key: tuple):
        """Return (end key -> probability, (position, status) -> expected throws from there, space -> expected landings).

        Raises _NewLive when the turn reads a variable not yet in the movement state.
        """
        paths = self.paths
        paths.reset()
        root = ({}, {}, {})
        count = 0
        log = self.game.log
        while True:
            throw_ends: list = []
            paths.throw_ends = throw_ends
            finished = self.run_turn(key)
            paths.throw_ends = None
            if self.trace.run_live - set(self.live):
                raise _NewLive()
            log = self.game.log
            asked = paths.asked_at
            visits = [(e[4], bisect.bisect_right(asked, i)) for i, e in enumerate(log)
                      if e[0] == "move" and e[2] == TOKEN]
            end = self.key_of() if finished else None
            prob = paths.prob
            hit = paths.hit[0] if paths.hit is not None else None
            _add_run(root, prob, throw_ends, visits, end, hit, -1)
            if paths.memo is not None:
                paths.note_dice_reads()
            for d, (_, _, prefix, summary, _) in enumerate(paths.nodes):
                _add_run(summary, prob / prefix, throw_ends, visits, end, hit, d)
            count += 1
            if count > MAX_PATHS:
                raise LandlordError(f"a turn has more than {MAX_PATHS} chance paths: too many to enumerate")
            if not paths.advance():
                break
        return root


_JUMPS = {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_ABSOLUTE", "JUMP"}
_ENDS = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"}


@functools.lru_cache(maxsize=None)
def _live_locals(code, lasti: int) -> frozenset[str] | None:
    """Return the local names a frame may still read after the call at `lasti` returns (None: keep them all).

    Every instruction reachable from the next one (following jumps, and into
    every exception handler) is scanned for loads of locals. A frame that may
    go round a loop again keeps all its locals: the loop's iterator is not a
    local, and its variables stand for where it is.
    """
    instructions = list(dis.get_instructions(code))
    at = {ins.offset: i for i, ins in enumerate(instructions)}
    # `lasti` may point into the call's inline cache: the call is the last instruction at or before it
    current = max((i for i, ins in enumerate(instructions) if ins.offset <= lasti), default=None)
    if current is None:
        return None
    todo = [current + 1] + [at[e.target] for e in dis.Bytecode(code).exception_entries if e.target in at]
    seen: set[int] = set()
    names: set[str] = set()
    while todo:
        i = todo.pop()
        if i in seen or i >= len(instructions):
            continue
        seen.add(i)
        ins = instructions[i]
        if ins.opname == "FOR_ITER":
            return None  # inside a loop: where its iterator stands is on the stack, unseen; keep every local
        if ins.opname.startswith(("LOAD_FAST", "DELETE_FAST", "LOAD_CLOSURE", "LOAD_DEREF")):
            names.update(ins.argval if isinstance(ins.argval, tuple) else (ins.argval,))
        if ins.opname in _JUMPS:
            todo.append(at[ins.argval])
        elif ins.opname not in _ENDS:
            todo.append(i + 1)
            if (ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs) and ins.argval in at:
                todo.append(at[ins.argval])
    return frozenset(names)


def _own_containers(g: Game) -> dict[int, str]:
    """Return the game's own lists and dicts by id, named: locals that alias them stand for the name only."""
    own: dict[int, str] = {id(g): "game", id(g.prog): "program", id(g.chance): "chance"}
    program = [(f"prog.{f.name}", getattr(g.prog, f.name)) for f in attrs.fields(type(g.prog))]
    for name, value in list(vars(g).items()) + program:
        if isinstance(value, (list, dict)):
            own[id(value)] = name
            inner = value.values() if isinstance(value, dict) else value
            for i, item in enumerate(inner):
                if isinstance(item, (list, dict)):
                    own[id(item)] = f"{name}[{i}]"
    return own


def _add_run(acc, weight, throw_ends, visits, end, hit, after) -> None:
    """Add one run's contributions that happen after chance request `after` to a summary, scaled by `weight`."""
    ends, throws, landings = acc
    for where, c in throw_ends:
        if c > after:
            throws[where] = throws.get(where, 0.0) + weight
    for where, c in visits:
        if c > after:
            landings[where] = landings.get(where, 0.0) + weight
    if end is not None:
        ends[end] = ends.get(end, 0.0) + weight
    if hit is not None:
        for part, known in zip(acc, hit):
            for k, v in known.items():
                part[k] = part.get(k, 0.0) + weight * v


def _freeze(value, own: dict) -> Any:
    """Return a hashable stand-in for a local variable's value: the game's own lists by name, others by content."""
    if value is None or isinstance(value, (int, str, float)):
        return value
    name = own.get(id(value))
    if name is not None:
        return name
    if isinstance(value, (list, tuple)):
        return ("seq",) + tuple(_freeze(v, own) for v in value)
    if isinstance(value, (set, frozenset)):
        return ("set",) + tuple(sorted(_freeze(v, own) for v in value))
    if hasattr(value, "__self__") and hasattr(value, "__func__"):
        return ("method", id(value.__func__), _freeze(value.__self__, own))
    if isinstance(value, dict):
        return ("map",) + tuple(sorted((k, _freeze(v, own)) for k, v in value.items()))
    return ("id", id(value))


_PLAY_TURN = Game.play_turn.__code__


class _NewLive(Exception):
    """A turn read a variable that is not yet part of the movement state."""


class _LeftGame(Exception):
    """The token left the game during its turn."""


def _var_decl(rules: "RuleSet", kind: str, index: int):
    table = rules.model.player_vars if kind == "player" else rules.model.game_vars
    return list(table.values())[index]


def _diagnostic(program: "Program", message: str, span, hint: str | None = None,
                severity: str = "error") -> Diagnostic:
    source = (program.sources.get(span.file) if span is not None else None) or SourceText("", "")
    d = source.diagnostic(message, span, hint)
    return attrs.evolve(d, severity=severity)


def _explore(ex: _Explorer):
    """Return (states, transitions, throws, visits) of the chain reachable from the start."""
    while True:
        try:
            ex.paths.memo = {} if ex.use_memo else None
            ex.paths.memo_full = {}
            start = ex.initial_key()
            index = {start: 0}
            order = [start]
            rows, throw_rows, visit_rows, end_rows = [], [], [], []
            values_seen: dict[int, set] = {}
            i = 0
            while i < len(order):
                ends, throws, visits = ex.expand(order[i])
                row = {}
                for end, p in ends.items():
                    if end not in index:
                        index[end] = len(order)
                        order.append(end)
                        for slot, value in enumerate(end[1]):
                            seen = values_seen.setdefault(slot, set())
                            seen.add(value)
                            if len(seen) > MAX_VALUES:
                                kind, var = ex.live[slot]
                                decl = _var_decl(ex.rules, kind, var)
                                raise LandlordError([_diagnostic(
                                    ex.prog, f"the movement state is unbounded: the turn reads {kind} variable "
                                    f"'{decl.name}' and it has taken more than {MAX_VALUES} values", decl.span,
                                    "an exact chain needs finitely many states; a counter that movement reads "
                                    "(e.g. turns or circuits so far) makes the state grow without end")])
                        if len(order) > MAX_STATES:
                            slot = max(values_seen, key=lambda k: len(values_seen[k]))
                            kind, var = ex.live[slot]
                            decl = _var_decl(ex.rules, kind, var)
                            raise LandlordError([_diagnostic(
                                ex.prog, f"the movement state has more than {MAX_STATES} values: the turn reads "
                                f"the variables {', '.join(_names(ex))}, and {kind} variable '{decl.name}' alone "
                                f"has taken {len(values_seen[slot])}", decl.span,
                                "an exact chain needs a small movement state; the token's turn reads these "
                                "variables, so every combination of their values is a state")])
                    row[index[end]] = row.get(index[end], 0.0) + p
                rows.append(row)
                end_rows.append(ends)
                throw_rows.append(throws)
                visit_rows.append(visits)
                i += 1
            return order, rows, throw_rows, visit_rows, end_rows
        except _NewLive:
            ex.live = sorted(set(ex.live) | ex.trace.live)
        except _LeftGame:
            event = next((e for e in ex.game.log if e[0] == "out" and e[2] == TOKEN), None)
            rule = event[-1] if event else -1
            span = ex.prog.rule_spans[rule] if rule >= 0 else None
            raise LandlordError([_diagnostic(
                ex.prog, "the token left the game during a turn of the analysis: its movement depends on "
                "the economy (who can pay what)", span,
                "the analysis runs the token's turns in the reference economy (just after setup)")]) from None


def _names(ex: _Explorer) -> list[str]:
    return [_var_decl(ex.rules, kind, i).name for kind, i in ex.live]


def _stationary(rows: list[dict[int, float]]):
    """Return the stationary distribution of a chain given as sparse rows (numpy array)."""
    np = _numpy()
    n = len(rows)
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


def _numpy():
    try:
        import numpy
    except ImportError:  # pragma: no cover - the extra is installed wherever the tests run
        raise LandlordError("the analysis needs numpy: pip install 'landlord-dsl[analysis]'") from None
    return numpy


def _status_label(ex: _Explorer, values: tuple) -> str:
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

def _probe_economy(ex: _Explorer, seed: int, turns: int) -> _Economy | None:
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
    return _Economy(game)


def _check_economy(ex: _Explorer, order, rows, turns: int, seed: int) -> list[Diagnostic]:
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
            ends_probe = ex.expand(key)[0]
            if _same(rows[i], ends_probe):
                continue
            ex.paths.memo = None
            return [_locate_difference(ex, key, reference, probe)]
    except (_NewLive, _LeftGame):
        return [_diagnostic(ex.prog, "the token's movement depends on the economy: in a game further on, its "
                            "turn reads other variables or puts it out of the game", None,
                            severity="warning")]
    finally:
        ex.economy = reference
        ex.paths.memo = None
    return []


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(abs(a[k] - b[k]) < 1e-12 for k in a)


_DECISIVE = {"move", "send", "roll", "draw", "out"}


def _locate_difference(ex: _Explorer, key, reference: _Economy, probe: _Economy) -> Diagnostic:
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
        return _diagnostic(ex.prog, "the token's movement depends on the economy: in a game played on for a "
                           "while its turns end elsewhere", None, severity="warning")
    what = {"roll": "a throw of the dice", "draw": "a draw", "move": "a move", "send": "a move",
            "out": "leaving the game"}[decisive[0]]
    rule, at = decisive[-1], cause[-1]
    names = ex.prog.rule_names
    name = f"rule '{names[rule]}'" if isinstance(rule, int) and rule >= 0 else "the rules"
    start = f", after a difference in rule '{names[at]}'" if isinstance(at, int) and 0 <= at != rule else ""
    span = ex.prog.rule_spans[at] if isinstance(at, int) and at >= 0 else None
    where = ex.prog.space_labels[key[0]]
    return _diagnostic(
        ex.prog, f"the token's movement depends on the economy: from {where}, {what} in {name} goes differently "
        f"in a game played on for a while{start}; the figures hold for the reference economy (just after setup) "
        "only", span, "fix the decision with a preferred option (--prefer NAME), or read the tables as those of "
        "the opening of the game", severity="warning")


# ------------------------------------------------------------------- rents

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


# --------------------------------------------------------------------- API

def analyze(rules: "RuleSet | str", *, players: int | None = None, prefer: Sequence[str] = (),
            options: dict[str, Any] | None = None, seed: int = 0, buildings: tuple[str, int] | None = None,
            check_economy: bool = True, rents: bool = True, memo: bool = True) -> Analysis:
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
    the game, raises a located LandlordError.
    """
    from .compiler import compile_ruleset
    from .loader import load

    began = time.perf_counter()
    np = _numpy()
    if isinstance(rules, str):
        rules = load(rules)
    program = compile_ruleset(rules, options)
    players = players or program.players[0]
    ex = _Explorer(rules, program, players, prefer, seed, memo)
    order, rows, throw_rows, visit_rows, end_rows = _explore(ex)
    pi = _stationary(rows)
    size = len(program.space_names)

    turn = {}
    for key, p in zip(order, pi):
        k = (key[0], _status_label(ex, key[1]))
        turn[k] = turn.get(k, 0.0) + float(p)
    throws: dict[tuple[int, str], float] = {}
    visits = np.zeros(size)
    for p, tr, vi in zip(pi, throw_rows, visit_rows):
        for (where, status), count in tr.items():
            k = (where, _status_label(ex, status))
            throws[k] = throws.get(k, 0.0) + float(p) * count
        for where, count in vi.items():
            visits[where] += p * count
    throws_per_turn = sum(throws.values())
    statuses = sorted({k[1] for k in list(turn) + list(throws) if k[1]})
    out_rows = []
    for s in range(size):
        t_all = sum(v for (w, _), v in throws.items() if w == s)
        u_all = sum(v for (w, _), v in turn.items() if w == s)
        out_rows.append(SpaceRow(s, program.space_names[s], program.space_labels[s], "",
                                 t_all / throws_per_turn if throws_per_turn else 0.0, u_all, float(visits[s])))
        for status in statuses:
            t, u = throws.get((s, status), 0.0), turn.get((s, status), 0.0)
            if t or u:
                out_rows.append(SpaceRow(s, program.space_names[s], program.space_labels[s], status,
                                         t / throws_per_turn if throws_per_turn else 0.0, u, 0.0))
    warnings = _check_economy(ex, order, end_rows, turns=10 * players, seed=seed) if check_economy else []
    rent_rows = _rent_rows(ex, visits, buildings) if rents else []
    return Analysis(program.name, program.title, players, tuple(prefer), "uniform", len(order),
                    throws_per_turn, tuple(out_rows), tuple(rent_rows), tuple(_names(ex)) or ("position",),
                    tuple(warnings), time.perf_counter() - began, check_economy)


def sample_turn_ends(rules: "RuleSet | str", turns: int, *, players: int | None = None, prefer: Sequence[str] = (),
                     options: dict[str, Any] | None = None, seed: int = 0, batches: int = 20):
    """Return (mean, standard error) per space of the share of turns ending there, by Monte Carlo.

    The same turns as `analyze` (the real engine, the reference economy put
    back before each turn, the same policy and draw convention), but every
    chance request is sampled from a seeded generator with all dice faces
    distinct, and the token goes on from where each turn ended. The
    standard error is from `batches` batch means.
    """
    import random

    from .compiler import compile_ruleset
    from .loader import load

    np = _numpy()
    if isinstance(rules, str):
        rules = load(rules)
    program = compile_ruleset(rules, options)
    players = players or program.players[0]
    ex = _Explorer(rules, program, players, prefer, seed)
    ex.paths.dice_classes = lambda count: [(t, 6.0 ** -count) for t in itertools.product(range(1, 7), repeat=count)]
    ex.paths.sample = random.Random(seed)
    key = ex.initial_key()
    size = len(program.space_names)
    per_batch = max(1, turns // batches)
    counts = np.zeros((batches, size))
    for b in range(batches):
        for _ in range(per_batch):
            try:
                ex.run_turn(key)
            except _LeftGame:
                raise LandlordError("the token left the game during a sampled turn") from None
            if ex.trace.run_live - set(ex.live):
                ex.live = sorted(set(ex.live) | ex.trace.live)
            key = ex.key_of()
            counts[b, key[0]] += 1
    shares = counts / per_batch
    return shares.mean(axis=0), shares.std(axis=0, ddof=1) / np.sqrt(batches)
