"""Exact analysis, movement-state extraction: running the token's turn from a movement state.

Stage: the second one of `analyze` (landlord_dsl.studies.analysis). `Explorer` plays
the compiled program's own turn for seat 1 in the reference economy, through the
stepped game (engine/stepping.py), which pauses at each chance request and is
answered from outside; it finds (with `_Trace`) which variables the turn reads
before writing them (they become the movement state), and gives, per state, the
states its turn ends in with their probabilities. A chance request's
continuation is identified by its continuation key, which the keyed stepped
compilation lays out explicitly (compiling/stepped_pass.py: each paused call's
site and the locals it goes on with), and the movement-relevant state, so that
equal continuations are explored once. The same key lets a request's later
outcomes resume the turn where the run that met it paused (`_Paused`, the
keyed compilation's resume entries: `SteppedGame.resumed`) instead of
replaying it from its start. Nothing reads the interpreter's frames or
bytecode: it is exact on any Python.
"""

from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ...agents import RESERVE_CAP, Agent, HeuristicAgent
from ...core.errors import LandlordError, SourceText
from ...engine.fields import fields_of
from ...engine.game import Game
from ...engine.stepping import SteppedGame, Steps
from ...program.compiled import OPAQUE, UNSET
from ...program.requests import DONE, FOLDED_CHOOSERS, DiceRequest, SeededChance, ShuffleRequest
from .cards import card_classes
from .paths import _Cut, _dice_classes_for, _Paths

if TYPE_CHECKING:
    from ...checking.loader import RuleSet
    from ...program.compiled import Program, SteppedProgram
    from .paths import _Summary

# movement states before the state is called unbounded: the chain is solved as a dense n-by-n system,
# so this bounds its memory (3,000 states: about 70 MB a matrix) and time; the shipped editions need under 200
MAX_STATES = 3_000
TOKEN = 0  # the seat whose movement is analysed
MAX_PATHS = 2_000_000  # chance paths of one turn before the turn is called unbounded
MAX_DICE_ANALYSED = 6  # every throw of the dice is enumerated (and kept) once: 6 dice have 46,656
MAX_THROWS = 6**MAX_DICE_ANALYSED
# the items (loops and aggregates, `Game.work`) a turn's run goes through on average from which landings are
# memo points (`Explorer.expand`): 1933's runs go through 4, 1939's through about 470 (its building offers)
LANDING_WORK = 100


class PolicyAgent(Agent):
    """The token's decisions: the first preferred option offered, else the heuristic bot's pick.

    The bot's pick is made as if the token had `cash` (its cash in the
    reference economy), so the policy does not drift with the economy. The
    token never bids.
    """

    def __init__(self, prefer: Sequence[str], cash: int, reserve: int = RESERVE_CAP):
        self.prefer = tuple(prefer)
        self.limit = cash - reserve
        # the picks made, by the choice's option names (their id; the names kept to check) and the options
        # offered: the same offer comes back in thousands of runs of the analysis
        self._picked: dict[tuple, tuple[Sequence[str], int]] = {}

    def choose(self, game, request):
        return self.pick(request.legal, request.site.names)

    def pick(self, legal: Sequence[tuple], names: Sequence[str]) -> int:
        """Return the index, in `legal`, of the option the token takes (`names`: the choice's option names)."""
        try:
            key: tuple | None = (id(names), tuple(legal))
            known = self._picked.get(key)  # type: ignore[arg-type]
        except TypeError:  # (an option with a value that cannot be hashed: not kept)
            key = known = None
        if known is not None and known[0] is names:
            return known[1]
        answer = self._pick(legal, names)
        if key is not None:
            self._picked[key] = (names, answer)
        return answer

    def _pick(self, legal: Sequence[tuple], names: Sequence[str]) -> int:
        if self.prefer:
            offered = [names[entry[0]] for entry in legal]
            for name in self.prefer:
                if name in offered:
                    return offered.index(name)
        best, best_gain, cheapest, cheapest_cost = -1, None, 0, None
        for i, (_, _, cost, value) in enumerate(legal):
            if cheapest_cost is None or cost < cheapest_cost:
                cheapest, cheapest_cost = i, cost
            if cost <= self.limit or cost <= 0:
                gain = value - cost
                if best_gain is None or gain > best_gain:
                    best, best_gain = i, gain
        return best if best >= 0 else cheapest

    def bid(self, game, request):
        return None


class _FoldedPolicy(PolicyAgent):
    """The policy without preferred options: its pick is HeuristicAgent's with its own fixed limit, so the
    compiled rules' option loops work it out (it is in FOLDED_CHOOSERS) instead of gathering the legal
    entries and asking. Its `reserve` is what the option loops' limit (the seat's cash less the reserve)
    needs to be the policy's: the token's cash now less that limit. It never bids (the engine works out
    the bids of FOLDED_AGENTS only)."""

    def __init__(self, cash: int, bal: list[int], account: int, reserve: int = RESERVE_CAP):
        super().__init__((), cash, reserve)
        self._bal, self._account = bal, account  # (the game's balances, never replaced, and the token's account)

    @property
    def reserve(self) -> int:
        """Return the token's cash now less the policy's limit."""
        return self._bal[self._account] - self.limit


FOLDED_CHOOSERS.add(_FoldedPolicy)
_POLICIES = (PolicyAgent, _FoldedPolicy)  # (the classes `_AnalysisGame.choose` answers for)


class _Trace:
    """Finds which of the token's variables (and the game's) a turn reads before it writes them.

    A read immediately followed by a write of the same variable, with no
    event and no other write between, only updates the variable (`+= 1`):
    the variable stays tied to its incoming value, so a later read still
    counts. Everything else that reads an incoming value makes it live.

    The watched lists below do a read's bookkeeping themselves (it is the
    commonest operation of a turn's code): a read of a variable in `quiet`
    (known, written in this run, or already read and pending) does nothing.
    """

    __slots__ = ("game", "known", "live", "pending", "quiet", "run_live", "writes")

    def __init__(self, game: Game):
        self.game = game
        self.live: set[tuple[str, int]] = set()
        self.run_live: set[tuple[str, int]] = set()
        self.pending: dict[tuple[str, int], tuple[int, int]] = {}
        self.writes = 0
        # variables already in the movement state: their reads need no tracking (only a write's count matters
        # to the others, `write`)
        self.known: frozenset[tuple[str, int]] = frozenset()
        # the variables whose read needs no note: known ones, those written in this run and those pending
        self.quiet: set[tuple[str, int]] = set()

    def start(self) -> None:
        self.pending.clear()
        self.quiet = set(self.known)
        self.run_live = set()

    def read(self, key) -> None:
        if key not in self.quiet:
            self.pending[key] = (len(self.game.log), self.writes)
            self.quiet.add(key)

    def write(self, key) -> None:
        if key in self.known:
            self.writes += 1
            return
        pending = self.pending.pop(key, None)
        self.writes += 1
        if pending is not None:
            if pending == (len(self.game.log), self.writes - 1):
                self.quiet.discard(key)  # an update of the incoming value: still tied to it
                return
            self.run_live.add(key)
        self.quiet.add(key)  # (written)

    def finish(self) -> set:
        self.run_live.update(self.pending)
        self.pending.clear()
        self.live |= self.run_live
        return self.run_live


class _WatchedPlayerVar(list):
    """One player variable's values by seat, reporting the token's reads and writes to a _Trace."""

    __slots__ = ("key", "trace")

    def __getitem__(self, i):
        if i == TOKEN:
            trace, key = self.trace, self.key  # type: ignore[attr-defined]
            if key not in trace.quiet:  # (_Trace.read, written out)
                trace.pending[key] = (len(trace.game.log), trace.writes)
                trace.quiet.add(key)
        return list.__getitem__(self, i)

    def __setitem__(self, i, value):
        if i == TOKEN:
            self.trace.write(self.key)  # type: ignore[attr-defined]
        list.__setitem__(self, i, value)


class _KnownPlayerVar(list):
    """A player variable already in the movement state: only the token's writes are counted (_Trace.write)."""

    __slots__ = ("key", "trace")

    def __setitem__(self, i, value):
        if i == TOKEN:
            self.trace.writes += 1  # type: ignore[attr-defined]
        list.__setitem__(self, i, value)


class _WatchedGameVars(list):
    """The game variables, reporting reads and writes to a _Trace."""

    __slots__ = ("keys", "trace")

    def __getitem__(self, i):
        if isinstance(i, int):
            trace, key = self.trace, self.keys[i]  # type: ignore[attr-defined]
            if key not in trace.quiet:  # (_Trace.read, written out)
                trace.pending[key] = (len(trace.game.log), trace.writes)
                trace.quiet.add(key)
        return list.__getitem__(self, i)

    def __setitem__(self, i, value):
        if isinstance(i, int):
            trace, key = self.trace, self.keys[i]  # type: ignore[attr-defined]
            trace.writes += 1
            if key not in trace.known:  # (_Trace.write, written out: the game's variables are written often)
                pending = trace.pending.pop(key, None)
                if pending is None or pending != (len(trace.game.log), trace.writes - 1):
                    if pending is not None:
                        trace.run_live.add(key)
                    trace.quiet.add(key)  # (written)
                else:
                    trace.quiet.discard(key)  # an update of the incoming value: still tied to it
        list.__setitem__(self, i, value)


def _watch(cls, values, trace, key=None):
    w = cls(values)
    w.trace = trace
    if key is not None:
        w.key = key
    return w


def _dice_property(slot: Any, faces: bool) -> property:
    """Return the property of one of the analysed game's dice fields, kept in the class's `slot`: a read
    is told to the chance source (`_Paths.dice_read`; and, for the faces and their total (`faces`), noted in
    `_Paths.faces_read`), a write goes to the slot (a call of C code: the engine writes the dice at every
    throw)."""
    value_of = slot.__get__

    def get(self):
        paths = self._dice_paths
        if paths is not None:
            if faces:
                paths.faces_read = True
            # (`_Paths.dice_read`, called only where it notes something: most reads follow their throw at once)
            if paths.depth > paths.last_roll + 1:
                paths.dice_read()
        return value_of(self)

    return property(get, slot.__set__)


@attrs.frozen
class _Pick:
    """The request of the analysed game's draw: which card of the deck turns up, each with the same probability.
    Its `outcomes` are the places in the deck of the cards that may turn up, each with its probability; where
    the deck holds interchangeable cards (cards.card_classes), one place stands for a class: its first card's,
    with the class's share of the deck."""

    outcomes: tuple[tuple[int, float], ...]


# the draw's request for a deck of each size, and for each order of classes of a deck of interchangeable cards
_PICKS: dict[int | tuple[int, ...], _Pick] = {}


def _to_top(cards: list[int], k: int) -> None:
    """Put the `k`-th card of a deck's `cards` on top (the card a draw or a deal turns up)."""
    if k:
        cards.insert(0, cards.pop(k))


def _pick_of(cards: list[int], classes: tuple[int, ...] | None) -> _Pick:
    """Return the request of a draw from a deck holding `cards`, by class where `classes` is given (each card's
    class: cards.card_classes), else by card (a request is a value: one is made for each size of deck, or each
    order of classes, as it is met)."""
    key: int | tuple[int, ...] = len(cards) if classes is None else tuple([classes[c] for c in cards])
    request = _PICKS.get(key)
    if request is None:
        size = len(cards)
        if classes is None:
            outcomes = tuple((k, 1.0 / size) for k in range(size))
        else:
            firsts: dict[int, list[int]] = {}
            for k, c in enumerate(key):  # type: ignore[arg-type]
                firsts.setdefault(c, [k, 0])[1] += 1
            outcomes = tuple((k, n / size) for k, n in firsts.values())
        request = _PICKS[key] = _Pick(outcomes)
    return request


class _Landed:
    """The request of the analysed game's landing, made as a token lands before the space's rules run: it has
    one outcome, and is asked so that the rest of the turn from there is a continuation the memo knows (a
    landing met again with the same continuation is cut there, as at a throw or a draw)."""

    __slots__ = ()


_LANDED = _Landed()
_LANDED_ENTRY = ("landed",)  # (its continuation entry: where the token landed is in the signature's state)


def _landing_s(stepped: Any, dispatch: Any) -> Any:
    """Return a space's `on land` rules as the analysed game runs them: the landing's request (`_Landed`),
    then the stepped rules `stepped`, or else the driven ones `dispatch` (either may be None)."""

    def landed(g: _AnalysisGame) -> Steps:
        kstack = g.kstack
        depth = len(kstack)
        kstack.append(_LANDED_ENTRY)
        yield _LANDED
        del kstack[depth:]  # (the rules are all that is left: called in tail position)
        if stepped is not None:
            yield from stepped(g)
        elif dispatch is not None:
            dispatch(g)

    return landed


class _AnalysisGame(SteppedGame):
    """A stepped game whose draws ask which card of the deck turns up, and that reports reads of the dice.

    It runs the keyed stepped compilation (chance asked from outside, continuation keys laid out in
    `kstack`); driven play (`land`, `play_turn`: the rent table) asks its chance source instead.
    """

    __slots__ = (
        "_dice_paths",
        "_stepped",
        "_v_dice",
        "_v_dice_double",
        "_v_dice_total",
        "card_classes",
        "decks_by_class",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._dice_paths: _Paths | None = None  # the chance source told of each read of the dice (`_Paths.dice_read`)
        # each card's class of interchangeable cards (cards.card_classes), and the decks a draw from which is
        # asked by class (those holding two cards of a class): the others are asked by card
        self.card_classes: tuple[int, ...] | None = None
        self.decks_by_class: frozenset[str] = frozenset()
        super().__init__(*args, **kwargs)

    def pick_in(self, deck: str) -> _Pick:
        """Return the request of a draw from `deck` as it stands."""
        cards = self.decks[deck]
        return _pick_of(cards, self.card_classes if deck in self.decks_by_class else None)

    def choose(self, seat, prompt, legal, site, describe=None):
        """`Decisions.choose`, the token's policy answering without a request being made."""
        agent = self.agents[seat]
        if len(legal) < 2 or agent.__class__ not in _POLICIES:
            return super().choose(seat, prompt, legal, site, describe)
        answer = agent.pick(legal, site.names)
        entry = legal[answer]
        self.decisions.append(DONE if entry[0] == site.done else answer)
        self.log.append(("decide", self.turn, seat, prompt, site.names[entry[0]], self.rule))
        return entry

    def take_program(self, stepped: SteppedProgram) -> None:
        """`SteppedGame.take_program`; with `ask_landings`, every space's `on land` rules are run after the
        landing's request (`_landing_s`)."""
        on_land = [_landing_s(run, dispatch) for run, dispatch in zip(stepped.on_land, self.prog.on_land)]
        self._stepped = (stepped, attrs.evolve(stepped, on_land=on_land))
        super().take_program(stepped)

    def ask_landings(self, asked: bool) -> None:
        """Ask a request (`_Landed`) at each landing from now on, or not (`asked`)."""
        super().take_program(self._stepped[asked])

    def draw(self, deck: str) -> None:
        cards = self.decks[deck]
        pick = getattr(self.chance, "pick", None)
        if pick is not None and len(cards) > 1 and self.prog.deck_enabled[deck](self):
            _to_top(cards, pick(self.pick_in(deck).outcomes))
        super().draw(deck)

    def draw_s(self, deck: str) -> Steps:
        """`draw` as a generator, the card that turns up asked by yielding a _Pick first."""
        cards = self.decks[deck]
        if not self.prog.deck_enabled[deck](self):
            return  # (as the engine's draw of a deck its `when` switches off: nothing happens)
        if len(cards) > 1:
            depth = len(self.kstack)
            self.kstack.append(("pick", deck))
            _to_top(cards, (yield self.pick_in(deck)))
            del self.kstack[depth:]  # (the draw is all that is left)
        yield from super().draw_s(deck)

    def deal(self, count: int, deck: str) -> None:
        """`Game.deal`, each card dealt turned up as a draw's is (`draw`): which of the deck's cards, asked of
        the chance source where it picks."""
        pick = getattr(self.chance, "pick", None)
        if pick is None:
            super().deal(count, deck)
            return
        cards = self.decks[deck]
        for i in range(min(count, len(cards))):
            if len(cards) > 1:
                _to_top(cards, pick(self.pick_in(deck).outcomes))
            self.deal_top(cards, i)

    def deal_s(self, count: int, deck: str) -> Steps:
        """`deal` as a generator: which card each deal turns up is asked by yielding a _Pick, as a draw's is
        (`draw_s`; under uniform draws the deck's order is not part of the state, so a deal cannot read it)."""
        yield from self._deal_from_s(deck, 0, min(count, len(self.decks[deck])))

    def _deal_from_s(self, deck: str, i: int, count: int) -> Steps:
        """The deal of `deck`'s cards from the `i`-th of `count` on (`deal_s`)."""
        cards, kstack = self.decks[deck], self.kstack
        while i < count:
            if len(cards) > 1:
                depth = len(kstack)
                kstack.append(("deal", deck, i, count))
                _to_top(cards, (yield self.pick_in(deck)))
                del kstack[depth:]
            self.deal_top(cards, i)
            i += 1

    def _dealt_s(self, depth: int, deck: str, i: int, count: int, k: int) -> Steps:
        """`_deal_from_s` once the pick of its `i`-th card is answered with `k`."""
        cards = self.decks[deck]
        _to_top(cards, k)
        del self.kstack[depth:]
        self.deal_top(cards, i)
        yield from self._deal_from_s(deck, i + 1, count)

    def _answered(self, entry: tuple, depth: int, request: Any) -> tuple[Any, tuple] | None:
        """`SteppedGame._answered`, and the picks of a draw (`draw_s`) and of a deal (`deal_s`)."""
        if request.__class__ is _Pick:
            if entry[0] == "pick":
                return self._picked_s, (depth, entry[1])
            if entry[0] == "deal":
                return self._dealt_s, (depth, *entry[1:])
        return super()._answered(entry, depth, request)

    def _picked_s(self, depth: int, deck: str, k: int) -> Steps:
        """`draw_s` once its pick is answered with `k`."""
        _to_top(self.decks[deck], k)
        del self.kstack[depth:]
        yield from super().draw_s(deck)


_AnalysisGame.dice = _dice_property(_AnalysisGame._v_dice, True)  # type: ignore[assignment, attr-defined]
_AnalysisGame.dice_total = _dice_property(_AnalysisGame._v_dice_total, True)  # type: ignore[assignment, attr-defined]
_AnalysisGame.dice_double = _dice_property(_AnalysisGame._v_dice_double, False)  # type: ignore[assignment, attr-defined]


def _put(target: list, values: list) -> None:
    list.__setitem__(target, slice(None), values)


class Economy:
    """Everything in a game but the token's movement state, captured once and put back in place."""

    __slots__ = (
        "_pairs",
        "active",
        "bal",
        "decks",
        "dice",
        "fired",
        "gcount",
        "gfull",
        "gkept",
        "gv",
        "hands",
        "holder",
        "loans",
        "owner",
        "pos",
        "pv",
        "scalars",
        "seats",
        "sv",
        "titles",
    )

    def __init__(self, g: Game):
        self.bal = list(g.bal)
        self.pos = list(g.pos)
        self.gv = list(g.gv)
        self.pv = [list(v) for v in g.pv]
        self.sv = [list(v) for v in g.sv]
        self.holder = list(g.holder)
        self.owner = list(g.owner)
        self.gcount = [list(c) for c in g.gcount]  # (the counts of the groups' owners follow the owners)
        self.gfull = [list(by_seat) for by_seat in g.gfull]  # (and the seats' complete titles: lists replaced)
        self.gkept = [list(by_seat) for by_seat in g.gkept]  # (and their titles passing the kept tests: the same)
        self.titles = [list(t) for t in g.titles]
        self.hands = [list(h) for h in g.hands]
        self.decks = {k: list(v) for k, v in g.decks.items()}
        self.active = list(g.active)
        self.fired = list(g.fired)
        self.loans = [list(loan) for loan in g.loans]
        self.seats = list(g.seats)
        self.scalars = (g.turn, g.minted, g.origin, g.triggers_live)
        self.dice = (g.dice, g.dice_total, g.dice_double)
        self._pairs: tuple | None = None  # (game, its lists, the values saved for each, their indices)

    def _targets(self, g: Game) -> list[tuple[list, list]]:
        """Return each of the game's lists with the values to put back in it.

        The engine changes these lists in place and never replaces them, so
        they are listed once per game; `seats`, which it replaces when a
        player leaves, is put back on its own.
        """
        return [
            (g.bal, self.bal),
            (g.pos, self.pos),
            (g.gv, self.gv),
            (g.holder, self.holder),
            (g.owner, self.owner),
            (g.active, self.active),
            (g.fired, self.fired),
            *zip(g.pv, self.pv),
            *zip(g.sv, self.sv),
            *zip(g.titles, self.titles),
            *zip(g.hands, self.hands),
            *zip(g.gcount, self.gcount),
            *zip(g.gfull, self.gfull),
            *zip(g.gkept, self.gkept),
            *((g.decks[name], cards) for name, cards in self.decks.items()),
        ]

    def put(self, g: Game) -> None:
        """Put the game back as this economy found it, as a turn starts."""
        self.put_lists(g)
        g.over, g.end_reason, g.turn_after, g.next_seat = False, "", None, TOKEN
        g.depth = g.shortfalls = 0
        g.short.clear()
        g.card = None
        g.dice, g.dice_total, g.dice_double = self.dice
        g.log.clear()
        g.decisions.clear()

    def pairs(self, g: Game) -> tuple:
        """Return (the game, its lists, the values saved for each, their indices), made once per game."""
        if self._pairs is None or self._pairs[0] is not g:
            pairs = self._targets(g)
            self._pairs = (g, [target for target, _ in pairs], [saved for _, saved in pairs], range(len(pairs)))
        return self._pairs

    def put_lists(self, g: Game) -> None:
        """Put back the game's lists as this economy found them, and the turn's number, the money minted,
        where the last move began and whether triggers are live."""
        pairs = self.pairs(g)
        _put_lists(g, pairs, pairs[2], self.loans, self.seats, self.scalars)


def _put_lists(g: Game, pairs: tuple, saveds: list[list], loans: list, seats: list, scalars: tuple) -> None:
    """Put back the game's lists (`pairs`: `Economy.pairs`) as `saveds` has them, its loans, its seats, and
    the turn's number, the money minted, where the last move began and whether triggers are live."""
    _, targets, _, indices = pairs
    setitem, everything = list.__setitem__, slice(None)
    # (most lists are as they were: comparing is cheaper than copying, and the lists that differ are found
    # without a Python loop over all of them; the rules' values are typed, so equal values are the same
    # values: no 1 where a True was)
    for i in itertools.compress(indices, map(operator.ne, targets, saveds)):
        setitem(targets[i], everything, saveds[i])
    if g.loans or loans:
        g.loans[:] = [list(loan) for loan in loans]
    if g.seats != seats:
        _put(g.seats, seats)
    g.turn, g.minted, g.origin, g.triggers_live = scalars


class _Paused:
    """A run paused at a chance request met for the first time: the game as it stood there, and the run's
    bookkeeping (its variables read, its answers, its last throw and its reads of the dice), from which the
    request's other outcomes are run by resuming the turn there (`SteppedGame.resumed`) instead of replaying
    it from its start.

    The game's lists are those an Economy puts back; beside them, what the engine changes within a turn (who acts, the
    rule and card running, the nesting, shortfalls, the dice, ...), the log and the decisions so far (a run
    only appends to them) and the continuation stack.
    """

    __slots__ = (
        "decisions",
        "dice",
        "kstack",
        "lists",
        "loans",
        "log",
        "pairs",
        "paths",
        "plan",
        "request",
        "scalars",
        "seats",
        "short",
        "trace",
        "turn_scalars",
        "unseen",
    )

    def __init__(self, ex: Explorer, request: Any, plan: tuple, depth: int, prob: float, last_roll: int) -> None:
        g, trace, paths = ex.game, ex.trace, ex.paths
        # the game's lists as the turn found them (the state's Economy: `put_state`), but those it has changed
        # since, copied (most are as they were: a copy of each would be garbage for the collector to walk)
        self.pairs = pairs = ex._state_made[3].pairs(g)  # type: ignore[index]
        _, targets, saveds, indices = pairs
        self.lists = lists = list(saveds)
        for i in itertools.compress(indices, map(operator.ne, targets, saveds)):
            lists[i] = list(targets[i])
        self.loans = [list(loan) for loan in g.loans]
        self.seats = list(g.seats)
        self.turn_scalars = (g.turn, g.minted, g.origin, g.triggers_live)
        self.scalars = (
            g.actor,
            g.current,
            g.rule,
            g.card,
            g.depth,
            g.shortfalls,
            g.due,
            g.creditor,
            g.work,
            g.over,
            g.end_reason,
            g.turn_after,
            g.next_seat,
        )
        self.short = set(g.short)
        self.dice = (g._v_dice, g._v_dice_total, g._v_dice_double)  # type: ignore[attr-defined]
        self.unseen = dict(g.unseen)
        self.log, self.decisions = len(g.log), len(g.decisions)
        self.kstack = list(g.kstack)
        self.trace = (dict(trace.pending), set(trace.quiet), set(trace.run_live), trace.writes)
        self.paths = (depth, prob, paths.asked_at[:depth], last_roll, list(paths.dice_reads))
        self.request = request
        self.plan = plan  # (how to rebuild the paused calls: `SteppedGame.resume_plan`)

    def resume(self, ex: Explorer) -> Steps:
        """Put the game and the run's bookkeeping back as they were at the request, answer it with the
        path's outcome, and return the rest of the turn from there (`SteppedGame.resume_with`)."""
        g, trace, paths = ex.game, ex.trace, ex.paths
        _put_lists(g, self.pairs, self.lists, self.loans, self.seats, self.turn_scalars)
        (
            g.actor,
            g.current,
            g.rule,
            g.card,
            g.depth,
            g.shortfalls,
            g.due,
            g.creditor,
            g.work,
            g.over,
            g.end_reason,
            g.turn_after,
            g.next_seat,
        ) = self.scalars
        if g.short != self.short:
            g.short.clear()
            g.short.update(self.short)
        g._v_dice, g._v_dice_total, g._v_dice_double = self.dice  # type: ignore[attr-defined]
        if g.unseen != self.unseen:
            g.unseen.update(self.unseen)
        del g.log[self.log :]
        del g.decisions[self.decisions :]
        g.kstack[:] = self.kstack
        pending, quiet, run_live, trace.writes = self.trace
        trace.pending, trace.quiet, trace.run_live = dict(pending), set(quiet), set(run_live)
        paths.depth, paths.prob, asked_at, paths.last_roll, dice_reads = self.paths
        paths.asked_at, paths.dice_reads, paths.hit = list(asked_at), list(dice_reads), None
        request = self.request
        answer = paths.pick(request.outcomes) if request.__class__ is _Pick else paths.roll(request)
        return g.resume_with(self.plan, answer)


def _refuse_too_large(rules: RuleSet, program: Program) -> None:
    """Raise a located LandlordError, before anything is allocated, if the dice or the board are beyond the analysis."""
    model = rules.model

    def refuse(message: str, span, hint: str) -> LandlordError:
        source = (program.sources.get(span.file) if span is not None else None) or SourceText("", "")
        return LandlordError([source.diagnostic(message, span, hint)])

    throws = 6**program.dice_count
    if throws > MAX_THROWS:
        raise refuse(
            f"the exact analysis enumerates every throw of the dice, and {program.dice_count} dice have "
            f"{throws:,} throws; it follows at most {MAX_THROWS:,} ({MAX_DICE_ANALYSED} dice)",
            model.header.span,
            "simulate games instead (`landlord-dsl simulate`)",
        )
    if len(model.spaces) > MAX_STATES:
        raise refuse(
            f"the board has {len(model.spaces):,} spaces and the exact analysis solves at most {MAX_STATES:,} "
            "movement states",
            model.spaces[MAX_STATES].span,
            "simulate games instead (`landlord-dsl simulate`)",
        )


class Explorer:
    """Runs the token's turns from movement states and collects the chain."""

    __slots__ = (
        "_deck_card_set",
        "_deck_lists",
        "_deck_sets_by_order",
        "_decks_read",
        "_held_by_hand",
        "_last_decks",
        "_live",
        "_live_at",
        "_members",
        "_ordered_decks",
        "_origin_read",
        "_own",
        "_state_made",
        "_work",
        "card_classes",
        "card_decks",
        "counted_decks",
        "deck_cards",
        "economy",
        "game",
        "landings_asked",
        "paths",
        "paused",
        "prefer",
        "prog",
        "reference",
        "resuming",
        "rules",
        "trace",
        "use_memo",
    )

    def __init__(
        self,
        rules: RuleSet,
        program: Program,
        players: int,
        prefer: Sequence[str],
        seed: int,
        memo: bool = True,
        resume: bool = True,
    ):
        if rules.model.dice_sets:
            declared = next(iter(rules.model.dice_sets.values()))
            source = program.sources.get(declared.span.file) or SourceText("", "")
            raise LandlordError(
                [
                    source.diagnostic(
                        f"the exact analysis follows only the edition's own dice, and these rules also throw "
                        f"the dice '{declared.name}'",
                        declared.span,
                        "analyse the edition or variant they build on, or simulate games (`landlord-dsl simulate`)",
                    )
                ]
            )
        _refuse_too_large(rules, program)
        self.rules = rules
        self.use_memo = memo
        self.prog = program
        self.paths = _Paths(_dice_classes_for(program))
        self.prefer = tuple(prefer)
        agents: list[Agent] = [HeuristicAgent() for _ in range(players)]
        # The long run of a game that goes on: its end conditions are not checked (their reads of the
        # token's variables are not movement).
        analysed = attrs.evolve(program, end_conditions=[])
        # (the program's own keyed stepped compilation, built once: the stepped code holds no end condition)
        analysed.keyed_built = program.stepped(keyed=True)
        game = _AnalysisGame(analysed, agents, chance=SeededChance(seed), chance_inside=False, keyed=True)
        game.setup()
        if game.over or TOKEN not in game.seats:
            raise LandlordError(f"{program.title}: the game is over after setup; there is no movement to analyse")
        # the token keeps the bots' historical reserve, not the rules' money scale (agents.default_reserve):
        # with the 25 of the 1906 monopolist demonstration its movement state outgrows an exact chain
        agents[TOKEN] = (
            _FoldedPolicy(game.cash(TOKEN), game.bal, game.nacc + TOKEN)
            if not prefer
            else PolicyAgent(prefer, game.cash(TOKEN))
        )
        game.agents = agents
        # (which cards of a deck no player has seen matters to a deck dealt as it is drawn (`deferred`: the
        # analysed game has none) and to a player's view, which nothing takes: not counted, the engine's
        # count of them finds nothing to do at every title bought)
        if not game.deferred:
            game.unseen = dict.fromkeys(game.unseen, 0)
        self.game = game
        self.trace = _Trace(game)
        game.pv = [_watch(_WatchedPlayerVar, v, self.trace, ("player", i)) for i, v in enumerate(game.pv)]
        game.gv = _watch(_WatchedGameVars, game.gv, self.trace)
        game.gv.keys = [("game", i) for i in range(len(game.gv))]  # type: ignore[attr-defined]  # (made once)
        game.chance = self.paths
        self.paths.game = game
        self.reference = Economy(game)
        self.economy = self.reference
        titled = {c for c in program.title_card if c is not None}
        self.deck_cards = [c for c in range(len(program.card_names)) if c not in titled]
        self._deck_card_set = frozenset(self.deck_cards)
        # the cards the rules cannot tell apart (cards.py): the movement state holds their classes, and a draw
        # from a deck holding two of a class asks which class turns up
        self.card_classes = classes = card_classes(rules.model, program, game.sprog.decks_read)
        self._members: dict[int, list[int]] = {}
        if classes is not None:
            for card, first in enumerate(classes):
                self._members.setdefault(first, []).append(card)
            game.card_classes = classes
            game.decks_by_class = frozenset(
                name
                for name, cards in program.deck_cards.items()
                if any(len(self._members[classes[c]]) > 1 for c in cards)
            )
        self._held_by_hand: dict[tuple[int, ...], tuple[int, ...]] = {}  # (`_held`)
        self._deck_sets_by_order: dict[tuple, tuple[tuple[frozenset[int] | tuple[int, ...], ...], tuple[int, ...]]] = {}
        # the decks that may ever hold one of those cards: those holding one at the start, and those a rule may
        # put one into (a deck of title deeds alone changes at every title bought, and is left out); and the
        # decks drawn from that may hold title deeds, whose length, not only their other cards, sets the odds
        # of a draw (`_deck_sets`)
        returned, drawn = program.decks_returned_to, program.decks_drawn
        titles = frozenset(titled)
        self.card_decks = tuple(
            name
            for name, cards in program.deck_cards.items()
            if returned is None or returned.get(name, False) or not self._deck_card_set.isdisjoint(cards)
        )
        self.counted_decks = tuple(
            name
            for name, cards in program.deck_cards.items()
            if (drawn is None or name in drawn)
            and (returned is None or name in returned or not titles.isdisjoint(cards))
        )
        self._decks_read = tuple(dict.fromkeys(self.card_decks + self.counted_decks))
        self._deck_lists = [game.decks[name] for name in self._decks_read]  # (the engine never replaces them)
        self._last_decks: tuple[list[list[int]] | None, Any] = (None, None)  # (`_deck_sets`: copies, their sets)
        # the decks whose order the rules read (`cards_in`): their order, not only their cards, is in a signature
        self._ordered_decks = [game.decks[name] for name in sorted(game.sprog.decks_read)]
        self._live: list[tuple[str, int]] = []
        self._live_at: tuple[list[list], list[int]] = ([], [])  # (the live variables' lists and indices)
        # the game as the last state's turn starts (`put_state`): its economy, live variables, key, Economy
        self._state_made: tuple[Economy, list, tuple, Economy] | None = None
        self.paths.signature = self.signature
        game._dice_paths = self.paths
        self.paths.where = lambda: (game.pos[TOKEN], self.status_now())
        self._own = _own_objects(game)
        self._origin_read = "g.origin" in program.python_source
        # the turn resumed at each request's later outcomes (`run_turn`), not replayed up to it
        self.resuming = resume
        self.paused: list[_Paused | None] = []
        # landings are memo points once the turns go through many items (`expand`): the runs of a turn and
        # the items they went through, until then
        self.landings_asked = False
        self._work = [0, 0]

    @property
    def live(self) -> list[tuple[str, int]]:
        """The variables of the movement state (player variables of the token, game variables), in order."""
        return self._live

    @live.setter
    def live(self, variables: list[tuple[str, int]]) -> None:
        self._live = variables
        known = frozenset(variables)
        self.trace.known = known
        self.trace.live |= known
        for i, values in enumerate(self.game.pv):
            values.__class__ = _KnownPlayerVar if ("player", i) in known else _WatchedPlayerVar
        g = self.game  # (the lists that hold them, and where, for `status_now`: the game never replaces them)
        self._live_at = (
            [g.pv[i] if kind == "player" else g.gv for kind, i in variables],
            [TOKEN if kind == "player" else i for kind, i in variables],
        )

    # -- movement states
    def key_of(self, where: tuple | None = None) -> tuple:
        """Return the movement state the token is in now; `where`, if given, is its (position, status), already
        worked out (`expand`, at a run's end)."""
        g = self.game
        held = self._held()
        return (g.pos[TOKEN], self.status_now(), held) if where is None else (*where, held)

    def _held(self) -> tuple[int, ...]:
        """Return the cards from decks the token holds, in its hand's order, each as its class (its first card)
        where the rules cannot tell some cards apart (`card_classes`)."""
        hand = tuple(self.game.hands[TOKEN])
        held = self._held_by_hand.get(hand)
        if held is None:  # (a hand holds title deeds too, and comes back often: what it gives is kept by hand)
            held = tuple(filter(self._deck_card_set.__contains__, hand))
            classes = self.card_classes
            if held and classes is not None:
                held = tuple(map(classes.__getitem__, held))
            self._held_by_hand[hand] = held
        return held

    def initial_key(self) -> tuple:
        self.economy.put(self.game)
        return self.key_of()

    def put_state(self, key: tuple) -> None:
        """Put the game as the token's turn from movement state `key` starts: the economy with the state in it.

        The game so made is kept (an Economy of its own) for the next call with the same key in the same
        economy, as `expand` makes for every chance path of a state's turn: putting it back then restores
        only the lists the last run changed, without giving the token its cards again."""
        g = self.game
        made = self._state_made
        if made is not None and made[0] is self.economy and made[1] is self._live and made[2] == key:
            made[3].put(g)
            return
        self.economy.put(g)
        pos, values, held = key
        g.pos[TOKEN] = pos
        for (kind, i), value in zip(self.live, values):
            if kind == "player":
                list.__setitem__(g.pv[i], TOKEN, value)
            else:
                list.__setitem__(g.gv, i, value)
        for card in held:  # (a card of each class held: the first of its class that nobody holds)
            card = next((c for c in self._members.get(card, (card,)) if g.holder[c] is None), card)
            if g.holder[card] is None:
                g.set_holder(card, TOKEN)
        g.log.clear()
        hook, g._dice_paths = g._dice_paths, None  # (the snapshot reads the dice: not a read by the turn)
        try:
            self._state_made = (self.economy, self._live, key, Economy(g))
        finally:
            g._dice_paths = hook

    def run_turn(self, key: tuple, paused: _Paused | None = None) -> bool:
        """Play the token's turn from `key`, answering its chance requests from the paths; return False if
        it was cut at a memoised request. With `paused`, the run resumes the turn where that earlier run
        paused (its request answered with the path's next outcome) instead of replaying it up to there.

        At each branching request met for the first time, the game is kept as it stands there (`_Paused`,
        by depth in `self.paused`) where the turn can be resumed there."""
        g, paths = self.game, self.paths
        if paused is not None:
            turn = paused.resume(self)
        else:
            self.put_state(key)
            self.trace.start()
            paths.start()
            g.kstack.clear()
            turn = g.play_turn_s()
        keep = self.resuming and paths.sample is None
        kept = self.paused
        answer = None
        try:
            while True:
                request = turn.send(answer)
                kind = type(request)
                if kind is DiceRequest or kind is _Pick:
                    depth = paths.depth
                    if keep and depth == len(paths.path):  # (met for the first time: kept if not cut)
                        prob, last_roll = paths.prob, paths.last_roll
                        answer = paths.roll(request) if kind is DiceRequest else paths.pick(request.outcomes)
                        del kept[depth:]
                        kept += [None] * (depth - len(kept))
                        # (kept where the continuation stack says how to go on: `SteppedGame.resumed`)
                        plan = g.resume_plan(request) if paths.widths[depth] > 1 else None
                        if plan is not None:
                            kept.append(_Paused(self, request, plan, depth, prob, last_roll))
                        else:
                            kept.append(None)
                    else:
                        answer = paths.roll(request) if kind is DiceRequest else paths.pick(request.outcomes)
                elif kind is _Landed:
                    # (a memo point only: with no memo, or sampling, nothing is asked)
                    if paths.memo is not None and paths.sample is None:
                        paths.landed()
                    answer = None
                elif kind is ShuffleRequest:
                    answer = paths.shuffle(request)
                else:  # (every seat has an agent: decisions and bids are answered inside)
                    raise LandlordError(f"the analysed turn asked from outside: {request!r}")
        except StopIteration:
            pass
        except _Cut:
            turn.close()
            self.trace.finish()
            return False
        if TOKEN not in g.seats:
            raise LeftGame()
        self.trace.finish()
        return True

    def status_now(self) -> tuple:
        """Return the values of the live variables now, in the order of `live`."""
        lists, indices = self._live_at
        return tuple(map(list.__getitem__, lists, indices))  # (as lists: a watched list's read is not a turn's)

    def signature(self, roll: bool) -> tuple | None:
        """Return what the rest of a turn depends on at a chance request, money and ownership left out;
        None if that cannot be told (the request is then explored on its own).

        The continuation key (the stepped game's `kstack`: the site of every
        paused call between the turn and this request, with the locals it
        goes on with) and the state that moves the token: the positions,
        every player and game variable, the cards in the decks and held by
        the token, the dice (not at a throw, which replaces them unseen),
        where the last move began (if the rules ever read it), the
        engine's bookkeeping, and the order of the decks whose order the
        rules read (`cards_in`).
        Balances, owners (title deeds, wherever they are) and space
        variables are left out: that is the
        assumption (checked by the economy check) that within a turn they
        do not change where the token goes.
        """
        g, ordered = self.game, self._ordered_decks
        try:
            key = _freeze_stack(g.kstack, self._own)
        except _Unkeyable:
            return None
        state = (
            tuple(g.pos),
            tuple(itertools.chain.from_iterable(g.pv)),  # (a fixed number of variables, each by seat)
            tuple(g.gv),
            self._deck_sets(),
            tuple(map(tuple, ordered)) if ordered else None,
            self._held(),
            g.origin if self._origin_read else None,
            g.card,
            g.rule,
            g.depth,
            g.actor,
            g.current,
            g.turn_after,
            tuple(g.active),
            tuple(g.fired),
            tuple(g.seats),
            g.due,
            g.creditor,
            g.over,
            g.shortfalls,
        )
        dice = None if roll else (g._v_dice, g._v_dice_total, g._v_dice_double)  # type: ignore[attr-defined]
        return key, state, dice

    def _deck_sets(self) -> tuple[tuple[frozenset[int] | tuple[int, ...], ...], tuple[int, ...]]:
        """Return the cards that are not title deeds of each deck that may hold one (`card_decks`), as sets, in
        that order (where the rules cannot tell some cards apart, the classes of its cards, sorted:
        `card_classes`); and the number of cards of each deck drawn from that may hold title deeds
        (`counted_decks`).

        Kept by those decks' order as it stands: a signature is made thousands of times, and the decks come
        back in a few dozen orders (a card drawn goes under its deck), so one lookup finds the sets most times;
        and the last sets made are given again while the decks are as they were then (three times in four),
        which comparing the lists tells without building and hashing their order."""
        lists, last = self._deck_lists, self._last_decks
        if lists == last[0]:
            return last[1]
        order = tuple(map(tuple, lists))
        made = self._deck_sets_by_order.get(order)
        if made is None:
            by_name = dict(zip(self._decks_read, order))
            classes, cards = self.card_classes, self._deck_card_set
            made = self._deck_sets_by_order[order] = (
                tuple(
                    [
                        cards.intersection(by_name[name])
                        if classes is None
                        else tuple(sorted([classes[c] for c in by_name[name] if c in cards]))
                        for name in self.card_decks
                    ]
                ),
                tuple([len(by_name[name]) for name in self.counted_decks]),
            )
        self._last_decks = ([list(cards) for cards in order], made)
        return made

    def expand(self, key: tuple, ends_only: bool = False) -> tuple[dict[tuple, float], _Summary]:
        """Return the turn from movement state `key`: its end keys with their probabilities, and its summary,
        whose throws' ends and landings `_Paths.tally` sums once the weight of every state is known; with
        `ends_only` neither is tallied (the economy check compares the ends alone).

        Raises NewLive when the turn reads a variable not yet in the movement state.
        """
        g, paths = self.game, self.paths
        paths.reset()
        paths.tallied = not ends_only
        self.paused = []
        paused = None
        count = items = 0
        while True:
            finished = self.run_turn(key, paused)
            if finished:  # (where the turn ended its last throw is where it ends: the status worked out once)
                items += g.work
                where = (g.pos[TOKEN], self.status_now())
                paths.end_throw(where)
                end = paths.number(self.key_of(where))
            else:
                end = None
            if not self.trace.run_live <= self.trace.known:
                raise NewLive()
            if not ends_only:
                self._tally_landings(0 if paused is None else paused.log)
            paths.credit(end)
            if paths.memo is not None:
                paths.note_dice_reads()
            if finished:
                paths.merge(g.work)
            count += 1
            if count > MAX_PATHS:
                raise LandlordError(f"a turn has more than {MAX_PATHS} chance paths: too many to enumerate")
            if not paths.advance():
                break
            # the request whose next outcome the next run takes: resumed where it was kept
            at = len(paths.path) - 1
            del self.paused[at + 1 :]
            paused = self.paused[at] if at < len(self.paused) else None
        if not ends_only:
            paths.closed.append(paths.root)  # (closed last: every summary it has an edge to is closed)
        paths.tallied = False  # (the turns played after, the rent table's, tally nothing)
        # (the outcomes not run because they go as an earlier one went: `_Paths.merge`)
        count, items = count + paths.merged, items + paths.merged_work
        paths.merged = paths.merged_work = 0
        if not self.landings_asked and paths.memo is not None:
            # (a landing's request costs about what the rest of a turn that goes through no loop does: it pays
            # where the rest of the turn goes through many items, as building offers over every lot do)
            work = self._work
            work[0] += count
            work[1] += items
            if work[1] >= LANDING_WORK * work[0]:
                self.landings_asked = True
                g.ask_landings(True)
        return paths.root_ends(), paths.root

    def _tally_landings(self, start: int) -> None:
        """Tally the token's landings among the events the run just made from `start` on (`_Paths.landed_at`:
        each with the count of requests answered before it; those before the request it went on from are
        not its own)."""
        log, paths = self.game.log, self.paths
        asked = paths.asked_at
        for i, e in zip(itertools.count(start), itertools.islice(log, start, None)):
            if e[0] == "move" and e[2] == TOKEN:
                paths.landed_at(e[4], bisect.bisect_right(asked, i))


class _Unkeyable(Exception):
    """A continuation key holds a value that stands for nothing the key can compare (OPAQUE, an object)."""


def _own_objects(g: Game) -> dict[int, tuple[str, Any]]:
    """Return the game's own objects by id, each with its name and itself: the game, the program, the
    agents, and the game's lists and dicts (and those inside them). A local that holds one stands for
    its name; holding the objects keeps their ids from being reused."""
    own: dict[int, tuple[str, Any]] = {}

    def add(name: str, value: Any) -> None:
        own[id(value)] = (name, value)

    add("game", g)
    add("program", g.prog)
    add("chance", g.chance)
    for seat, agent in enumerate(g.agents):
        add(f"agent{seat}", agent)
    program = [(f"prog.{f.name}", getattr(g.prog, f.name)) for f in attrs.fields(type(g.prog))]
    for name, value in list(fields_of(g).items()) + program:
        if isinstance(value, (list, dict)) and name != "kstack":
            add(name, value)
            inner = value.values() if isinstance(value, dict) else value
            for i, item in enumerate(inner):
                if isinstance(item, (list, dict)):
                    add(f"{name}[{i}]", item)
    return own


_PLAIN = frozenset({int, str, type(None)})  # the values a continuation key holds as they are (`_freeze`)
_UNSET = ("unset",)  # a local not yet assigned (no frozen value is a 1-tuple)
_FROZEN = object()  # heads an entry `_freeze_stack` froze (no entry it keeps as it is holds it)


def _freeze_stack(stack: list[tuple], own: dict) -> tuple:
    """Return a hashable stand-in for a continuation stack: each entry as it is where it holds nothing but
    plain values (int, str, None), UNSET and tuples of those, else `(_FROZEN, _freeze(entry))`.

    Two stacks get equal stand-ins only if `_freeze` gives them equal ones (an entry kept as it is and a
    frozen one never compare equal), and where every entry is kept as it is, exactly then; it raises
    _Unkeyable where `_freeze` does. It spares the commonest entries (a call site's number with the ints,
    UNSET and loop sequences it goes on with) a copy of each value."""
    out = []
    for entry in stack:
        for v in entry:
            kind = type(v)
            if kind in _PLAIN or v is UNSET:
                continue
            if kind is tuple:
                for w in v:
                    if type(w) not in _PLAIN and w is not UNSET:
                        break
                else:
                    continue
            out.append((_FROZEN, _freeze(entry, own)))
            break
        else:
            out.append(entry)
    return tuple(out)


def _freeze(value: Any, own: dict) -> Any:
    """Return a hashable stand-in for a value of a continuation key: plain values as they are, the
    game's own objects by name, sequences, sets and maps by content. Raise _Unkeyable for OPAQUE and
    for any other object, which nothing shows to be the same in two runs."""
    kind = type(value)
    if kind is int or kind is str or value is None:
        return value
    if kind is bool:
        return ("bool", value)
    if value is UNSET:
        return _UNSET
    if kind is tuple or kind is list:
        mine = own.get(id(value)) if kind is list else None
        if mine is not None:
            return mine[0]
        for v in value:
            if type(v) not in _PLAIN:
                break
        else:
            return ("seq", *value)  # (plain values stand for themselves)
        out: list[Any] = ["seq"]
        for v in value:  # (the commonest values frozen here, without a call: what `_freeze` gives them)
            inner = type(v)
            if inner is int or inner is str or v is None:
                out.append(v)
            elif v is UNSET:
                out.append(_UNSET)
            elif inner is tuple:  # (a key's entry, or a loop's sequence: most hold plain values alone)
                for w in v:
                    if type(w) not in _PLAIN:
                        out.append(_freeze(v, own))
                        break
                else:
                    out.append(("seq", *v))
            elif inner is bool:
                out.append(("bool", v))
            else:
                out.append(_freeze(v, own))
        return tuple(out)
    mine = own.get(id(value))
    if mine is not None:
        return mine[0]
    if value is OPAQUE:
        raise _Unkeyable()
    if kind is float:
        return ("float", value)
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset([_freeze(v, own) for v in value]))
    if isinstance(value, dict):
        return ("map", frozenset([(_freeze(k, own), _freeze(v, own)) for k, v in value.items()]))
    if kind is range:
        return ("range", value.start, value.stop, value.step)
    raise _Unkeyable()


class NewLive(Exception):
    """A turn read a variable that is not yet part of the movement state."""


class LeftGame(Exception):
    """The token left the game during its turn."""
