"""Exact analysis, chance enumeration: answering a turn's chance requests with every outcome in turn.

Stage: the innermost one of `analyze` (landlord_dsl.studies.analysis). `_Paths` is the
chance source of the analysed game: it walks the tree of chance outcomes of
one turn depth first, with the probability of each path, and cuts a run short
where a memoised continuation's future is already known. `credit` adds a
run's end to the summary of the last request it answered, and a request's
ends reach the one before it when it is closed. The throws' ends and the
landings are tallied once each, as they happen (`end_throw`, `landed_at`),
in the summary of the request answered last before them; a summary's edges
to the summaries after it carry the rest, summed once the long-run weight of
each turn's start is known (`tally`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine.dicesets import is_double

if TYPE_CHECKING:
    from ...engine.game import Game
    from ...program.compiled import Program


_DICE_READ = object()  # in the memo: this continuation reads older dice; look it up with its dice


_ONE = [(None, 1.0)]  # the outcomes of a request with one outcome (a landing's: `landed`)


class _Cut(Exception):
    """A run reached a chance request whose future is already known (memoised): stop it there."""


class _Summary:
    """The rest of a turn from one request on (or from the turn's start), given that the turn reached it.

    `ends`: end state (by number, `_Paths.number`) -> probability, the ends
    of the requests after it merged in. Where events are tallied: `throws`
    ((position, status) by number -> expected throws ending there) and
    `visits` (space -> expected landings) hold only what happens while this
    request is the last one answered; `edges` hold the summaries after it,
    each with its probability given this one, which hold the rest (`tally`
    sums them); `weight` is tally's working sum.
    """

    __slots__ = ("edges", "ends", "throws", "visits", "weight")

    def __init__(self) -> None:
        self.ends: dict[int, float] = {}
        self.throws: dict[int, float] = {}
        self.visits: dict[int, float] = {}
        self.edges: list[tuple[_Summary, float]] = []
        self.weight = 0.0


class _Paths:
    """Answers one run's chance requests from a path of outcome indices, extending it with first outcomes.

    `advance` moves to the next path in depth-first order; the probability
    of the run is the product of the outcomes' probabilities. With a `memo`,
    a request met for the first time whose continuation (its continuation
    key: the paused calls with the locals they go on with, and the
    movement-relevant state) was already explored to the end is not answered: the run stops (_Cut) and
    the known future is used instead.
    """

    __slots__ = (
        "asked_at",
        "closed",
        "depth",
        "dice_classes",
        "dice_reads",
        "faces_read",
        "fresh",
        "game",
        "hit",
        "last_roll",
        "memo",
        "memo_full",
        "merged",
        "merged_work",
        "merges",
        "nodes",
        "numbered",
        "numbers",
        "path",
        "prefix",
        "prob",
        "root",
        "sample",
        "signature",
        "tail",
        "tallied",
        "throws_asked",
        "where",
        "widths",
    )

    def __init__(self, dice_classes):
        self.path: list[int] = []
        self.widths: list[int] = []
        self.depth = 0
        self.prob = 1.0
        self.dice_classes = dice_classes
        self.game: Game | None = None
        # whether throws' ends and landings are tallied (`end_throw`, `landed_at`; the economy check's runs
        # compare the ends alone), and the summaries they went to, in the order they were closed (`tally`)
        self.tallied = False
        self.closed: list[_Summary] = []
        # the probability of the path before each of its requests is answered
        self.prefix: list[float] = []
        # the count of requests answered from which this run's events are its own: those before were tallied
        # by the run that met them first (a run resumed or replayed goes on from a request answered anew)
        self.fresh = 0
        # throws whose faces no run has read since (`merge`): for each request of the path, its outcomes if it is
        # a throw, and the tallies of a run that answered it last with nothing read but whether it was a double,
        # by that (`_Merged`); `tail` holds what the run tallied since its last answer, `faces_read` whether it
        # read the faces or their total since; `merged` counts the runs so spared, `merged_work` their items
        self.throws_asked: list[Sequence[tuple[Any, float]] | None] = []
        self.merges: list[dict[bool, _Merged] | None] = []
        self.tail: list[tuple[dict, Any, float]] = []
        self.faces_read = False
        self.merged = self.merged_work = 0
        self.sample = None  # a random.Random: sample instead of enumerating (Monte Carlo)
        self.memo: dict | None = None
        self.memo_full: dict = {}  # continuations that read the dice thrown before them, by their dice too
        self.last_roll = -1  # the last throw answered in this run (its request index)
        self.dice_reads: list[tuple[int, int]] = []  # (requests answered, last throw) at each read of the dice
        self.signature = None  # function returning a request's continuation signature
        self.where = None  # function returning the token's (position, status)
        # per open request: [signature without dice, with dice, prefix probability, summary, reads older dice]
        self.nodes: list[list] = []
        self.root = _Summary()  # the summary of the whole turn
        self.asked_at: list[int] = []  # log length when each request of this run was asked
        self.hit = None  # the summary met at the request where this run was cut
        # the summaries' end states and throws' ends are numbered (`number`): their keys are tuples, whose hash
        # Python works out at each use, and a summary is merged into others thousands of times
        self.numbers: dict[tuple, int] = {}
        self.numbered: list[tuple] = []

    def start(self) -> None:
        self.depth, self.prob = 0, 1.0
        self.asked_at = []
        self.hit = None
        self.last_roll = -1
        self.dice_reads = []

    def _answer(self, outcomes: Sequence[tuple[Any, float]], roll: bool = False) -> Any:
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
                signature = self.signature(roll)  # type: ignore[misc]
                if signature is None:  # (a continuation that cannot be told apart: never shared)
                    self.nodes.append([None, None, self.prob, _Summary(), False])
                else:
                    frames, state, dice = signature
                    # whether the turn has thrown yet decides whether the next throw ends one (see `roll`)
                    reduced = (frames, state, self.last_roll >= 0)
                    full = (*reduced, dice)
                    known = self.memo.get(reduced)
                    if known is _DICE_READ:
                        known = self.memo_full.get(full)
                    if known is not None:
                        self.hit = known
                        raise _Cut()
                    self.nodes.append([reduced, full, self.prob, _Summary(), False])
            self.path.append(0)
            self.prefix.append(self.prob)
            self.widths.append(len(outcomes))
            self.throws_asked.append(outcomes if roll else None)
            self.merges.append(None)
        self.asked_at.append(len(self.game.log))  # type: ignore[union-attr]
        answer, p = outcomes[self.path[d]]
        self.depth = d + 1
        self.prob *= p
        if roll:
            self.last_roll = d
        self.tail = []
        self.faces_read = False
        return answer

    def advance(self) -> bool:
        """Move to the next path in depth-first order, closing the requests it leaves; return False when
        there is none. An outcome of a throw that `merge` showed to go as an earlier one goes is not run:
        that run's tallies are added again, in proportion (`_Merged.add`)."""
        depth = self.depth
        del self.path[depth:]
        del self.widths[depth:]
        del self.prefix[depth:]
        del self.throws_asked[depth:]
        del self.merges[depth:]
        while self.path:
            if self.path[-1] + 1 < self.widths[-1]:
                self.path[-1] += 1
                merges = self.merges[-1]
                if merges is not None:
                    faces, p = self.throws_asked[-1][self.path[-1]]  # type: ignore[index]
                    merged = merges.get(is_double(faces))
                    if merged is not None:
                        merged.add(p)
                        self.merged += 1
                        self.merged_work += merged.work
                        continue
                self.fresh = len(self.path)  # (what happens after the request answered anew is new)
                return True
            self.path.pop()
            self.widths.pop()
            self.prefix.pop()
            self.throws_asked.pop()
            self.merges.pop()
            self._close()
        return False

    def merge(self, work: int) -> None:
        """Note the run just made, which ended its turn (and went through `work` items), as the way every
        outcome of its last request with the same double-ness goes, if that request was a throw and nothing
        read the faces or their total since it was answered: those outcomes then go exactly as it went (the
        dice they differ by are never read), and `advance` adds its tallies again instead of running them."""
        at = self.depth - 1
        if at < 0 or self.last_roll != at or self.faces_read or self.sample is not None:
            return
        faces, p = self.throws_asked[at][self.path[at]]  # type: ignore[index]
        merges = self.merges[at]
        if merges is None:
            merges = self.merges[at] = {}
        merges.setdefault(is_double(faces), _Merged(self.tail, p, work))

    def credit(self, end: int | None) -> None:
        """Add one run's end (by number), or the known future where it was cut, to the summary of the last
        request it answered (the root's if none), weighted by the run's probability given that request.

        The ends of a summary are those of the rest of the turn from its request on; those of the requests
        after it reach it when they are closed (`_close`).
        """
        summary, weight = self._event(self.depth)
        if end is not None:
            summary.ends[end] = summary.ends.get(end, 0.0) + weight
            self.tail.append((summary.ends, end, weight))
        hit = self.hit
        if hit is not None:
            _add(summary.ends, hit[0].ends, weight)
            if self.tallied:
                summary.edges.append((hit[0], weight))

    def _event(self, answered: int) -> tuple[_Summary, float]:
        """Return the summary an event goes to, after `answered` requests of this run were answered, and its
        weight there: the probability of the path up to the event given the last of those requests."""
        prefix = self.prefix
        reached = prefix[answered] if answered < len(prefix) else self.prob
        nodes = self.nodes
        if nodes and answered:
            node = nodes[answered - 1]
            return node[3], reached / node[2]
        return self.root, reached

    def landed_at(self, space: int, answered: int) -> None:
        """Tally a landing of the token on `space`, made after `answered` requests of this run were answered
        (once: a landing before the request this run goes on from is the earlier run's)."""
        if answered >= self.fresh:
            summary, weight = self._event(answered)
            visits = summary.visits
            visits[space] = visits.get(space, 0.0) + weight
            if answered == self.depth:
                self.tail.append((visits, space, weight))

    def _close(self) -> None:
        if self.memo is not None and self.nodes:
            reduced, full, prefix, summary, dice_read = self.nodes.pop()
            parent = self.nodes[-1] if self.nodes else None
            into, weight = (parent[3], prefix / parent[2]) if parent else (self.root, prefix)
            _add(into.ends, summary.ends, weight)
            if self.tallied:
                into.edges.append((summary, weight))
                self.closed.append(summary)
            if reduced is None:
                pass
            elif dice_read:
                self.memo_full[full] = (summary, True)
                self.memo.setdefault(reduced, _DICE_READ)
            else:
                self.memo[reduced] = (summary, False)

    def dice_read(self) -> None:
        depth, last = self.depth, self.last_roll
        if depth > last + 1:  # (a read right after its throw, before another request, marks no request)
            self.dice_reads.append((depth, last))

    def note_dice_reads(self) -> None:
        """Mark the open requests whose future, in this run, read dice thrown before them."""
        nodes = self.nodes
        if self.hit is not None and self.hit[1]:  # the known future it was cut at reads the last throw
            for node in nodes[self.last_roll + 1 :]:
                node[4] = True
        for c, r in self.dice_reads:  # a read at request depth c of the throw answered at request r
            for node in nodes[r + 1 : c]:
                node[4] = True

    def number(self, key: tuple) -> int:
        """Return the number standing for `key` (an end state, or where a throw ended) in the summaries."""
        numbers = self.numbers
        n = numbers.setdefault(key, len(numbers))
        if n == len(self.numbered):
            self.numbered.append(key)
        return n

    def root_ends(self) -> dict[tuple, float]:
        """Return the end states of the whole turn's summary, by their keys (not numbers), with their probabilities."""
        keys = self.numbered
        return {keys[n]: p for n, p in self.root.ends.items()}

    def reset(self) -> None:
        self.path, self.widths, self.nodes, self.prefix = [], [], [], []
        self.throws_asked, self.merges = [], []
        self.root = _Summary()
        self.fresh = self.merged = self.merged_work = 0  # (an exploration that raised may have left counts)

    def end_throw(self, where: tuple | None = None) -> None:
        """Tally where the turn's latest throw ended, if it threw and events are tallied: where the token
        stands now, in the status it has now (`where`, if the caller has it). Called at the next throw of the
        turn and when the turn ends, so that what happens at the start of a turn (a fine paid to leave jail)
        is not read as the end of the throw before."""
        if self.tallied and self.last_roll >= 0 and self.depth >= self.fresh:
            at = self.number(where if where is not None else self.where())  # type: ignore[misc]
            summary, weight = self._event(self.depth)
            throws = summary.throws
            throws[at] = throws.get(at, 0.0) + weight
            self.tail.append((throws, at, weight))

    def tally(self, roots: list[_Summary], weights) -> tuple[dict[tuple, float], dict[int, float]]:
        """Return (where throws end: (position, status) -> expected throws, space -> expected landings) over
        turns started from each of `roots` (the whole turns' summaries, all among `closed`) with the
        matching weight of `weights`.

        A summary's weight is the sum, over the summaries with an edge to it, of their weight times the
        edge's: `closed` is in the order the summaries were closed, and a summary is closed after every
        summary it has an edge to, so going through it backwards gives each its whole weight before its
        edges are followed."""
        closed = self.closed
        for summary in closed:
            summary.weight = 0.0
        for root, weight in zip(roots, weights):
            root.weight += float(weight)
        for summary in reversed(closed):
            weight = summary.weight
            if weight:
                for after, p in summary.edges:
                    after.weight += weight * p
        throws: dict[int, float] = {}
        visits: dict[int, float] = {}
        for summary in closed:
            weight = summary.weight
            if weight:
                _add(throws, summary.throws, weight)
                _add(visits, summary.visits, weight)
        keys = self.numbered
        return {keys[n]: count for n, count in throws.items()}, visits

    # the ChanceSource protocol
    def roll(self, request):
        if self.game.started:  # type: ignore[union-attr]
            self.end_throw()
        return self._answer(self.dice_classes(request.count), True)

    def shuffle(self, request):
        return list(range(request.size))  # under uniform draws the order of a deck does not matter

    def landed(self) -> None:
        """Answer a landing's request (its one outcome): a request the memo can cut the run at."""
        self._answer(_ONE)

    def pick(self, outcomes: Sequence[tuple[int, float]]) -> int:
        """Answer a draw's request (its `outcomes`: the place in the deck of each card that may turn up, with its
        probability); return the place of the card that turns up."""
        return self._answer(outcomes)


def _dice_classes_for(program: Program):
    """Return a function giving a dice throw's outcome classes: (representative faces, probability).

    When the compiled rules never read single dice (only their total and
    whether they are a double), throws with the same total and double-ness
    are one class: the rules cannot tell them apart.
    """
    faces_read = program.reads_dice_faces
    cache: dict[int, list] = {}

    def classes(count: int):
        if count not in cache:
            throws = list(itertools.product(range(1, 7), repeat=count))
            if faces_read:
                cache[count] = [(t, 1.0 / len(throws)) for t in throws]
            else:
                merged: dict[tuple, list] = {}
                for t in throws:
                    key = (sum(t), is_double(t))
                    merged.setdefault(key, [t, 0])[1] += 1
                cache[count] = [(t, n / len(throws)) for t, n in merged.values()]
        return cache[count]

    return classes


class _Merged:
    """What a run tallied after answering a throw with an outcome of probability `p`, and the items it went
    through (`work`): each outcome with the same double-ness, whose faces nothing reads, adds the same."""

    __slots__ = ("p", "tallies", "work")

    def __init__(self, tallies: list[tuple[dict, Any, float]], p: float, work: int) -> None:
        self.tallies, self.p, self.work = tallies, p, work

    def add(self, p: float) -> None:
        """Add the tallies again, for an outcome of probability `p`."""
        ratio = p / self.p
        for into, key, weight in self.tallies:
            into[key] = into.get(key, 0.0) + weight * ratio


def _add(into: dict, more: dict, weight: float) -> None:
    """Add `weight` times each value of `more` to `into`'s value of the same key."""
    get = into.get
    for k, v in more.items():
        into[k] = get(k, 0.0) + weight * v
