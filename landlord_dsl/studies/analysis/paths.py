"""Exact analysis, chance enumeration: answering a turn's chance requests with every outcome in turn.

Stage: the innermost one of `analyze` (landlord_dsl.studies.analysis). `_Paths` is the
chance source of the analysed game: it walks the tree of chance outcomes of
one turn depth first, with the probability of each path, and cuts a run short
where a memoised continuation's future is already known. `credit` adds a
run's landings, throws and end to the summary of the request they follow;
a request's summary reaches the one before it when it is closed.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...engine.game import Game
    from ...program.compiled import Program


_DICE_READ = object()  # in the memo: this continuation reads older dice; look it up with its dice


_ONE = [(None, 1.0)]  # the outcomes of a request with one outcome (a landing's: `landed`)


class _Cut(Exception):
    """A run reached a chance request whose future is already known (memoised): stop it there."""


class _Paths:
    """Answers one run's chance requests from a path of outcome indices, extending it with first outcomes.

    `advance` moves to the next path in depth-first order; the probability
    of the run is the product of the outcomes' probabilities. With a `memo`,
    a request met for the first time whose continuation (its continuation
    key: the paused calls with the locals they go on with, and the
    movement-relevant state) was already explored to the end is not answered: the run stops (_Cut) and
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
        self.root: tuple[dict, dict, dict] = ({}, {}, {})  # the summary of the whole turn
        self.asked_at: list[int] = []  # log length when each request of this run was asked
        self.hit = None  # the summary met at the request where this run was cut
        # the summaries' end states and throws' ends are numbered (`number`): their keys are tuples, whose hash
        # Python works out at each use, and a summary is merged into others thousands of times
        self.numbers: dict[tuple, int] = {}
        self.numbered: list[tuple] = []
        self._picks: dict[int, list[tuple[int, float]]] = {}  # the outcomes of a draw from a deck of each size

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
                signature = self.signature(roll)  # type: ignore[misc]
                if signature is None:  # (a continuation that cannot be told apart: never shared)
                    self.nodes.append([None, None, self.prob, ({}, {}, {}), False])
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
                    self.nodes.append([reduced, full, self.prob, ({}, {}, {}), False])
            self.path.append(0)
            self.widths.append(len(outcomes))
        self.asked_at.append(len(self.game.log))  # type: ignore[union-attr]
        answer, p = outcomes[self.path[d]]
        self.depth = d + 1
        self.prob *= p
        if roll:
            self.last_roll = d
        return answer

    def advance(self) -> bool:
        del self.path[self.depth :]
        del self.widths[self.depth :]
        while self.path:
            if self.path[-1] + 1 < self.widths[-1]:
                self.path[-1] += 1
                return True
            self.path.pop()
            self.widths.pop()
            self._close()
        return False

    def credit(self, throw_ends, visits, end) -> None:
        """Add one run's throws, landings and end, or the known future where it was cut, to the summaries
        they belong to.

        A summary holds (end state -> probability, (position, status) ->
        expected throws, space -> expected landings; end states and
        (position, status) pairs by their numbers, `number`) of the rest of the turn
        from its request on, given that the turn reached it. What happens
        between request d and the next one goes straight into the summary of
        request d (the root's before the first request), weighted by the
        run's probability given request d; the rest reaches it from the
        request after it when that one is closed.
        """
        nodes, prob = self.nodes, self.prob
        # by the count of requests answered before an event: the summary it goes to, and this run's weight there
        # (without a memo there are no open requests: everything goes to the root)
        if throw_ends or visits:
            targets = [(self.root, prob)] + [(node[3], prob / node[2]) for node in nodes]
            for part, events in ((1, throw_ends), (2, visits)):
                for where, c in events:
                    summary, weight = targets[c if nodes else 0]
                    summary[part][where] = summary[part].get(where, 0.0) + weight
        # (the end alone, as the economy check's runs have: its target worked out alone, the same way)
        d = self.depth if nodes else 0
        summary, weight = (nodes[d - 1][3], prob / nodes[d - 1][2]) if d else (self.root, prob)
        if end is not None:
            summary[0][end] = summary[0].get(end, 0.0) + weight
        if self.hit is not None:
            _add(summary, self.hit[0], weight)

    def _close(self) -> None:
        if self.memo is not None and self.nodes:
            reduced, full, prefix, summary, dice_read = self.nodes.pop()
            parent = self.nodes[-1] if self.nodes else None
            _add(parent[3] if parent else self.root, summary, prefix / parent[2] if parent else prefix)
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

    def root_by_key(self) -> tuple[dict, dict, dict]:
        """Return the summary of the whole turn with its end states and throws' ends as keys, not numbers."""
        ends, throws, visits = self.root
        keys = self.numbered
        return {keys[n]: p for n, p in ends.items()}, {keys[n]: p for n, p in throws.items()}, visits

    def reset(self) -> None:
        self.path, self.widths, self.nodes = [], [], []
        self.root = ({}, {}, {})

    def end_throw(self, where: tuple | None = None) -> None:
        """Note where the turn's latest throw ended, if it threw: where the token stands now, in the status
        it has now (`where`, if the caller has it). Called at the next throw of the turn and when the turn
        ends, so that what happens at the start of a turn (a fine paid to leave jail) is not read as the end
        of the throw before."""
        if self.throw_ends is not None and self.last_roll >= 0:
            at = self.number(where if where is not None else self.where())  # type: ignore[misc]
            self.throw_ends.append((at, self.depth))

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

    def pick(self, size: int) -> int:
        outcomes = self._picks.get(size)
        if outcomes is None:
            outcomes = self._picks[size] = [(k, 1.0 / size) for k in range(size)]
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
                    key = (sum(t), count > 1 and len(set(t)) == 1)
                    merged.setdefault(key, [t, 0])[1] += 1
                cache[count] = [(t, n / len(throws)) for t, n in merged.values()]
        return cache[count]

    return classes


def _add(summary: tuple[dict, dict, dict], more: tuple[dict, dict, dict], weight: float) -> None:
    """Add `weight` times the summary `more` to `summary`."""
    for part, known in zip(summary, more):
        if known:
            get = part.get
            for k, v in known.items():
                part[k] = get(k, 0.0) + weight * v
