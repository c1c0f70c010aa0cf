"""Engine stage: the game a stepped State runs (issue 29; docs/state.md).

`SteppedGame` is a `Game` that runs the Program's stepped compilation (compiling/stepped_pass.py), in
which every generated function that may ask is a generator. Each engine method that may ask has here a
generator twin, NAME_s, which does what NAME does but, where NAME would ask a seat's agent or the chance
source, yields the request and goes on with the answer it is sent: a DecisionRequest or a BidRequest
for a seat whose agent is None, a DiceRequest or a ShuffleRequest unless `chance_inside` (then the
game's own chance source answers, as in driven play), and a DrawRequest where a card is taken from the
top of a deck whose shuffle is presented as draws (`deferred`). Everything else is the driven `Game`'s own code,
so a stepped game and a driven one given the same answers log the same events.

A game of the keyed stepped compilation (`keyed`, the exact analysis's; compiling/stepped_pass.py) also
lays out each paused call's continuation in `kstack`: a twin notes its depth there when it starts
(`len(kstack)`) and, before each call that may ask, puts at that depth the tag of the call and the locals
it goes on with after it (OPAQUE where it cannot say: the key then matches no other); a call in tail
position, after which the twin does nothing, clears its depth instead.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any, Self

from ..core.span import Span
from ..language.limits import MAX_INT, shown
from ..program.compiled import OPAQUE, SLOW, Program, SteppedProgram
from ..program.control import MAX_NESTING, MAX_TRIGGER_REPEATS, EndGame, EndTurn
from ..program.requests import (
    DONE,
    BidRequest,
    ChanceSource,
    ChoiceSite,
    DecisionRequest,
    DrawRequest,
    ShuffleRequest,
)
from .decisions import _FIRST_REFUSAL, _LOAN
from .dicesets import is_double
from .game import Agent, Game

# What a twin yields (a request) and is sent back (its answer), and returns.
Steps = Generator[Any, Any, Any]


class SteppedGame(Game):
    """A Game whose play is a generator of requests (`setup_s`, `play_turn_s`); see the module's docstring.

    :param program: the compiled rules; their stepped compilation is built if it was not yet.
    :param agents: one a seat: None for a seat that is asked by yielding, else an Agent asked as in driven play.
    :param chance: the chance source, used when `chance_inside`.
    :param chance_inside: True to answer throws and shuffles with `chance`; False to yield them.
    :param turn_limit: the turns after which the game stops (default: the rules').
    :param deferred: the decks whose shuffles are presented as draws: a shuffle leaves their order undrawn,
        and each card taken from the top of the shuffled cards is asked (a DrawRequest).
    """

    __slots__ = ("chance_inside", "deferred", "keyed", "kstack", "sprog", "step_passes", "unseen")

    def __init__(
        self,
        program: Program,
        agents: Sequence[Agent | None],
        chance: ChanceSource | None,
        chance_inside: bool,
        turn_limit: int | None = None,
        keyed: bool = False,
        deferred: frozenset[str] = frozenset(),
    ) -> None:
        super().__init__(program, agents, chance=chance, turn_limit=turn_limit)  # type: ignore[arg-type]
        self.chance_inside = chance_inside
        self.deferred = deferred
        # How many cards at the top of each deck lie in an order no player has seen: a shuffle's cards not
        # drawn, dealt or taken out by name since (State.observation, State.resample). Cards put under a
        # deck go below them, where every player saw them go.
        self.unseen: dict[str, int] = dict.fromkeys(self.decks, 0)
        # True in a game of the keyed stepped compilation, which lays out continuation keys in `kstack`
        self.keyed = keyed
        self.kstack: list[tuple] = []
        self.take_program(program.stepped(keyed))

    def _keyed(self, call: Steps, depth: int, entry: tuple) -> Steps:
        """Put `entry` at `depth` in the continuation stack (dropping what is above) and return `call`,
        the generator the keyed code then runs (`yield from g._keyed(CALL, depth, entry)`)."""
        self.kstack[depth:] = (entry,)
        return call

    def fork(self, agents: Sequence[Agent] | None = None) -> Self:
        """`Game.fork`, with the count of unseen cards of each deck copied too."""
        other = super().fork(agents)
        other.unseen = dict(self.unseen)
        return other

    def take_program(self, stepped: SteppedProgram) -> None:
        """Run the stepped compilation `stepped` of this game's Program (its entry points by the engine's lists)."""
        self.sprog = stepped
        # (space, its stepped `on pass` dispatcher or None, the driven one)
        self.step_passes = [(space, stepped.on_pass[space], dispatch) for space, dispatch in self.passes]

    # ------------------------------------------------------------ payments
    # The driven payments' quick paths, each returning SLOW instead of settling a shortfall: the stepped
    # code then pays through `transfer_s`, whose shortfall rules may ask.
    def pay_within_q(self, amount: int, src: int, dst: int, span: Span | None = None) -> Any:
        """`pay_within` while the payer has the money: return what was paid, else SLOW (nothing done)."""
        bal = self.bal
        if not 0 < amount <= bal[src] or src == dst:
            return SLOW
        bal[src] -= amount
        bal[dst] += amount
        self.log.append(("pay", self.turn, amount, src, dst, self.rule))
        if len(self.seats) < self.n and src - self.nacc not in self.seats:
            self._left_during_payment(src)
        return amount

    def pay_out_q(self, amount: int, src: int, dst: int, span: Span | None = None) -> Any:
        """`pay_out` while the payer has the money: return what was paid, else SLOW (nothing done)."""
        bal = self.bal
        if not 0 < amount <= bal[src] or bal[dst] + amount > MAX_INT:
            return SLOW
        return self.pay_out(amount, src, dst, span)

    def pay_in_q(self, amount: int, src: int, dst: int, span: Span | None = None) -> Any:
        """`pay_in` while it needs no `transfer`: return what was paid, else SLOW (nothing done)."""
        if not 0 < amount <= MAX_INT - self.minted or self.bal[src] - amount < -MAX_INT:
            return SLOW
        return self.pay_in(amount, src, dst, span)

    def pay_within_s(self, amount: int, src: int, dst: int, span: Span | None = None) -> Steps:
        """`pay_within` as a generator (a payment whose value the rules use)."""
        paid = self.pay_within_q(amount, src, dst, span)
        return (yield from self.transfer_s(amount, src, dst, span)) if paid is SLOW else paid

    def pay_out_s(self, amount: int, src: int, dst: int, span: Span | None = None) -> Steps:
        """`pay_out` as a generator (a payment whose value the rules use)."""
        paid = self.pay_out_q(amount, src, dst, span)
        return (yield from self.transfer_s(amount, src, dst, span)) if paid is SLOW else paid

    def pay_in_s(self, amount: int, src: int, dst: int, span: Span | None = None) -> Steps:
        """`pay_in` as a generator (a payment whose value the rules use)."""
        paid = self.pay_in_q(amount, src, dst, span)
        return (yield from self.transfer_s(amount, src, dst, span)) if paid is SLOW else paid

    def transfer_s(self, amount: int, src: int, dst: int, span: Span | None = None) -> Steps:
        """`transfer`, its payer's shortfall rules run as a generator; returns what was paid."""
        if not 0 < amount <= MAX_INT or src == dst:
            return self.transfer(amount, src, dst, span)  # (nothing to pay, or a failure)
        if self.finite[src] and self.bal[src] < amount and src >= self.nacc:
            self.shortfalls += 1
            if self.keyed:
                self.kstack[len(self.kstack) :] = (("transfer", amount, src, dst, span),)
            try:
                yield from self._shortfall_s(src - self.nacc, amount, dst)
            finally:
                self.shortfalls -= 1
        return self._settle(amount, src, dst, span)

    def _shortfall_s(self, seat: int, amount: int, creditor_index: int) -> Steps:
        """`_shortfall` as a generator."""
        handlers = self.prog.on_shortfall
        if handlers is None or seat in self.short:
            return
        self.short.add(seat)
        saved = (self.actor, self.due, self.creditor)
        self.actor, self.due = seat, amount
        self.creditor = creditor_index - self.nacc if creditor_index >= self.nacc else -creditor_index - 1
        if self.keyed:
            self.kstack[len(self.kstack) :] = (("shortfall", seat, saved),)
        try:
            stepped = self.sprog.on_shortfall
            if stepped is not None:
                yield from stepped(self)
            else:
                handlers(self)
        finally:
            self.actor, self.due, self.creditor = saved
            self.short.discard(seat)

    # -------------------------------------------------------------- chance
    def roll_s(self, seat: int | None = None) -> Steps:
        """`roll`, the throw asked by yielding the game's DiceRequest unless `chance_inside`."""
        if self.chance_inside:
            self.roll(seat)
            return
        if self.keyed:
            self.kstack[len(self.kstack) :] = (("roll", seat),)
        self._rolled(seat, (yield self.dice_request))

    def _rolled(self, seat: int | None, answer: Sequence[int]) -> None:
        """`roll_s` once the throw is answered with the faces `answer`."""
        dice = self.dice = tuple(answer)
        self.dice_total = sum(dice)
        self.dice_double = is_double(dice)
        self.log.append(("roll", self.turn, self.actor if seat is None else seat, dice, self.rule))

    def roll_set_s(self, k: int, seat: int | None = None) -> Steps:
        """`roll_set`, the throw asked by yielding the set's DiceRequest unless `chance_inside`."""
        if self.chance_inside:
            self.roll_set(k, seat)
            return
        request = self.set_requests[k]
        if self.keyed:
            self.kstack[len(self.kstack) :] = (("roll_set", k, seat),)
        self._set_rolled(k, seat, (yield request))

    def _set_rolled(self, k: int, seat: int | None, answer: Sequence[int]) -> None:
        """`roll_set_s` once the throw of set `k` is answered with the faces `answer`."""
        faces = tuple(answer)
        self.show_set(k, faces)
        dice = self.set_requests[k].dice
        self.log.append(("throw", self.turn, self.actor if seat is None else seat, dice, faces, self.rule))

    def shuffle(self, deck: str) -> None:
        """`Game.shuffle`, after which no player has seen the order of any card of the deck."""
        super().shuffle(deck)
        self.unseen[deck] = len(self.decks[deck])

    def shuffle_s(self, deck: str) -> Steps:
        """`shuffle`, the order asked by yielding a ShuffleRequest unless `chance_inside`."""
        if self.chance_inside:
            self.shuffle(deck)
            return
        cards = self.decks[deck]
        if self.keyed:
            self.kstack[len(self.kstack) :] = (("shuffle", deck),)
        if deck not in self.deferred:
            order = yield ShuffleRequest(deck, len(cards))
            cards[:] = [cards[i] for i in order]
        # (a deferred deck's cards keep their places until each is drawn: their order is not drawn yet)
        self._shuffled(deck)

    def _shuffled(self, deck: str) -> None:
        """`shuffle_s` once the deck's order is put."""
        self.unseen[deck] = len(self.decks[deck])
        self.log.append(("shuffle", self.turn, deck, self.rule))

    def reveal_s(self, deck: str) -> Steps:
        """Before a card is taken from the top of a deferred deck whose top cards are shuffled and undrawn,
        ask which of them it is (a DrawRequest; none when one is left) and put it on top."""
        count = self.unseen[deck]
        if count < 2 or deck not in self.deferred:
            return
        cards = self.decks[deck]
        card = yield DrawRequest(deck, tuple(sorted(cards[:count])))
        where = cards.index(card)
        cards[0], cards[where] = card, cards[0]

    def deal_s(self, count: int, deck: str) -> Steps:
        """`deal` as a generator (a card dealt from a deferred deck's shuffled cards is asked)."""
        cards = self.decks[deck]
        for i in range(min(count, len(cards))):
            if self.unseen[deck] > 1 and deck in self.deferred:
                yield from self.reveal_s(deck)
            self.deal_top(cards, i)

    # ------------------------------------------------- cards seen, by name
    def set_holder(self, card: int, seat: int | None) -> None:
        """`Game.set_holder`; a card given out of the unseen part of a deck leaves it (dealt, or named)."""
        if seat is not None and self.holder[card] is None:
            self._taken_out(card)
        super().set_holder(card, seat)

    def return_card(self, card: int, deck: str) -> None:
        """`Game.return_card`; a card taken from the unseen part of a deck to go under a deck leaves it."""
        if self.holder[card] is None:
            self._taken_out(card)
        super().return_card(card, deck)

    def _taken_out(self, card: int) -> None:
        """Count `card` out of the unseen part of the deck it lies in, if it lies in one (it is about to be
        taken out of that deck)."""
        unseen = self.unseen
        for deck, count in unseen.items():
            if count:
                cards = self.decks[deck]
                if card in cards and cards.index(card) < count:
                    unseen[deck] = count - 1
                    return

    # ----------------------------------------------------------- decisions
    def choose_s(
        self,
        seat: int,
        prompt: str,
        legal: list[tuple],
        site: ChoiceSite,
        describe: Callable[[int, Any], str] | None = None,
    ) -> Steps:
        """`choose`, a seat without an agent asked by yielding the DecisionRequest; returns the entry picked."""
        count = len(legal)
        agent = self.agents[seat]
        if count < 2 or agent is not None:
            return self.choose(seat, prompt, legal, site, describe)
        rule = self.rule
        if self.keyed:
            self.kstack[len(self.kstack) :] = (("choose", OPAQUE),)
        answer = yield DecisionRequest(seat, prompt, legal, site, describe, rule, self.prog.rule_names)
        entry = legal[answer]
        self.decisions.append(DONE if entry[0] == site.done else answer)
        self.log.append(("decide", self.turn, seat, prompt, site.names[entry[0]], rule))
        return entry

    def ask_bid_s(self, request: BidRequest) -> Steps:
        """`ask_bid`, a seat without an agent asked by yielding the BidRequest; returns the bid (None: a pass)."""
        if self.agents[request.seat] is not None:
            return self.ask_bid(request)
        if self.keyed:
            self.kstack[len(self.kstack) :] = (("bid", OPAQUE),)
        answer = yield request
        self.decisions.append(answer)
        self.log.append(("bid", self.turn, request.seat, request.space, answer, self.rule))
        return answer

    def auction_s(
        self,
        space: int,
        start: int,
        step: int,
        first: int | None,
        proceeds: int,
        span: Span | None = None,
        value: int | None = None,
    ) -> Steps:
        """`auction` as a generator."""
        card = self.prog.title_card[space]
        if card is None:
            raise self.fail(f"{self.space_name(space)} has no title deed to auction", span)
        if self.holder[card] is not None:
            return
        depth = len(self.kstack) if self.keyed else -1
        value = start + start // 4 if value is None else value
        label = self.space_name(space)
        high, high_bidder = None, None
        active = [s for s in self._in_seat_order(self.current) if s != first]
        bal, nacc, agents, log, decisions = self.bal, self.nacc, self.agents, self.log, self.decisions
        turn, rule = self.turn, self.rule
        ceilings = {seat: self._ceiling(agents[seat], seat, value) for seat in active}
        rounds = 0
        while active and rounds < 1000:
            rounds += 1
            still = []
            for seat in active:
                if seat == high_bidder:
                    still.append(seat)
                    continue
                minimum = start if high is None else high + step
                maximum = bal[nacc + seat]
                if minimum > maximum:
                    continue
                ceiling = ceilings[seat]
                if ceiling is not None:
                    answer = minimum if minimum <= ceiling else None
                    decisions.append(answer)
                    log.append(("bid", turn, seat, label, answer, rule))
                else:
                    request = BidRequest(seat, self.rule_name(), label, high, minimum, maximum, start, value)
                    if depth >= 0:
                        self.kstack[depth:] = (("auction", OPAQUE),)
                    answer = yield from self.ask_bid_s(request)
                if answer is not None:
                    high, high_bidder = answer, seat
                    still.append(seat)
            active = still
            if len(active) <= 1:
                break
        price = high if high is not None else start
        buyer = high_bidder
        if first is not None and self.cash(first) >= price:
            if depth >= 0:
                self.kstack[depth:] = (("auction", OPAQUE),)
            entry = yield from self.choose_s(
                first,
                f"Buy {label} for {price}?",
                [(0, None, price, value), (1, None, 0, 0)],
                _FIRST_REFUSAL,
                lambda k, x: f"Buy {label} for {price}",
            )
            if entry[0] == 0:
                buyer = first
        if buyer is not None:
            if depth >= 0:
                self.kstack[depth:] = (("auction-pay", card, buyer),)
            yield from self.transfer_s(price, self.nacc + buyer, self.account_index(proceeds), span)
            self.set_holder(card, buyer)

    def borrow_s(self, amount: int, interest_pct: int) -> Steps:
        """`borrow` as a generator."""
        borrower = self.actor
        if amount <= 0:
            return
        interest = amount * interest_pct // 100
        depth = len(self.kstack) if self.keyed else -1
        for lender in self._in_seat_order(borrower):
            if lender == borrower or self.cash(lender) < amount:
                continue
            if depth >= 0:
                self.kstack[depth:] = (("borrow", OPAQUE),)
            entry = yield from self.choose_s(
                lender,
                f"Lend {amount} to {self.names[borrower]} at {interest_pct}%?",
                [(0, None, amount, amount + interest), (1, None, 0, 0)],
                _LOAN,
                lambda k, x: f"Lend {amount}",
            )
            if entry[0] == 0:
                if depth >= 0:
                    self.kstack[depth:] = (("lent", lender, borrower, amount, interest),)
                yield from self.transfer_s(amount, self.nacc + lender, self.nacc + borrower)
                self.loans.append([lender, borrower, amount, interest])
                return

    def repay_loans_s(self, interest: bool = True) -> Steps:
        """`repay_loans` as a generator."""
        seat = self.actor
        depth = len(self.kstack) if self.keyed else -1
        for loan in [x for x in self.loans if x[1] == seat]:
            owed = loan[2] + (loan[3] if interest else 0)
            if self.cash(seat) >= owed:
                if depth >= 0:
                    self.kstack[depth:] = (("repay", OPAQUE),)
                yield from self.transfer_s(owed, self.nacc + seat, self.nacc + loan[0])
                self.loans.remove(loan)

    # --------------------------------------------------------------- moves
    def move_steps_s(
        self,
        steps: int,
        forward: bool,
        via: tuple[int, ...] | None = None,
        span: Span | None = None,
        stops: tuple[int, ...] = (),
    ) -> Steps:
        """`move_steps` as a generator."""
        if steps < 0:
            raise self.fail(f"cannot move a negative number of steps ({shown(steps)})", span)
        start, size = self.pos[self.actor], self.board_size
        if stops:
            sign = 1 if forward else -1
            steps = min(steps, *(((stop - start) * sign) % size or size for stop in stops))
        if via is not None:
            dest = self.jump_target(start, steps, via)
            if dest is None:
                raise self.fail(
                    "this move cannot jump: the count ends before the first jump point",
                    span,
                    "guard the option with `via(group, steps) != none`",
                )
            yield from self.advance_s((dest - start) % size or size)
        elif forward:
            yield from self.advance_s(steps)
        else:
            yield from self._relocate_s((start - steps) % size)

    def move_to_s(self, dest: int) -> Steps:
        """`move_to` as a generator."""
        distance = (dest - self.pos[self.actor]) % self.board_size
        if distance:
            yield from self.advance_s(distance)
        else:
            yield from self._relocate_s(dest)

    def _relocate_s(self, dest: int) -> Steps:
        """`_relocate` as a generator."""
        seat = self.actor
        self.origin = start = self.pos[seat]
        self.pos[seat] = dest
        self.log.append(("move", self.turn, seat, start, dest, self.rule))
        yield from self.land_s()

    def land_s(self) -> Steps:
        """`land` as a generator."""
        space = self.pos[self.actor]
        stepped = self.sprog.on_land[space]
        if stepped is not None:
            yield from stepped(self)
        else:
            dispatch = self.prog.on_land[space]
            if dispatch is not None:
                dispatch(self)

    def advance_s(self, steps: int, span: Span | None = None) -> Steps:
        """`advance` as a generator."""
        if steps < 0:
            raise self.fail(f"cannot move a negative number of steps ({shown(steps)})", span)
        seat = self.actor
        pos = self.pos
        start = pos[seat]
        size = self.board_size
        self.origin = start
        dest = (start + steps) % size
        pos[seat] = dest
        self.log.append(("move", self.turn, seat, start, dest, self.rule))
        passes = self.step_passes
        depth = len(self.kstack) if self.keyed else -1
        if len(passes) == 1:
            space, stepped, handler = passes[0]
            if ((space - start) % size or size) <= steps:
                if stepped is not None:
                    if depth >= 0:
                        self.kstack[depth:] = (("advance", seat, ()),)
                    yield from stepped(self)
                else:
                    handler(self)
        elif passes:
            passed = sorted(
                (distance, s, stepped, handler)
                for s, stepped, handler in passes
                if (distance := (s - start) % size or size) <= steps
            )
            for i, (_, _, stepped, handler) in enumerate(passed):
                if stepped is not None:
                    if depth >= 0:  # (the spaces still to pass: the rest of the loop)
                        self.kstack[depth:] = (("advance", seat, tuple(p[1] for p in passed[i + 1 :])),)
                    yield from stepped(self)
                else:
                    handler(self)
        space = pos[seat]  # where he is now: a pass may have moved him (`land_s`, written out)
        stepped = self.sprog.on_land[space]
        if stepped is not None:
            if depth >= 0:
                del self.kstack[depth:]  # (nothing is left to do after it)
            yield from stepped(self)
        else:
            dispatch = self.prog.on_land[space]
            if dispatch is not None:
                dispatch(self)

    # --------------------------------------------------------------- cards
    def draw_s(self, deck: str) -> Steps:
        """`draw` as a generator."""
        cards = self.decks[deck]
        if not self.prog.deck_enabled[deck](self):
            return
        if not cards:
            self.log.append(("empty", self.turn, deck, self.rule))
            return
        if self.unseen[deck]:
            if self.deferred:
                yield from self.reveal_s(deck)
            self.unseen[deck] -= 1
        card = cards.pop(0)
        self.log.append(("draw", self.turn, self.actor, card, self.rule))
        stepped = self.sprog.card_effects[card]
        saved_card, returns = self.card, self.returns
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.fail("rules trigger each other too deeply (an endless chain of moves or draws?)")
        try:
            self.card = card
            if stepped is not None:
                if self.keyed:
                    self.kstack[len(self.kstack) :] = (("draw", card, deck, saved_card),)
                yield from stepped(self)
            else:
                self.prog.card_effects[card](self)
        finally:
            self.depth -= 1
            self.card = saved_card
            self._put_away(card, deck, self.returns != returns)

    # ------------------------------------------------------------ the turn
    def run_triggers_s(self) -> Steps:
        """`run_triggers` as a generator."""
        yield from self._triggers_from_s(len(self.kstack) if self.keyed else -1, 0, 0)

    def _triggers_from_s(self, depth: int, first: int, fired: int) -> Steps:
        """The triggers from number `first` on, as `run_triggers_s` runs them, the first of them having fired
        `fired` times already (a firing resumed: `_resume_trigger_s`); `depth` is the frame's in `kstack`."""
        bodies = self.sprog.trigger_bodies
        triggers = self.prog.triggers
        for index in range(first, len(triggers)):
            rule, condition, body, repeat = triggers[index]
            firings = fired if index == first else 0
            if not self.active[rule] or (self.fired[index] and not repeat):
                continue
            stepped = bodies[index]
            while self.active[rule] and condition(self):
                saved = self.rule
                self.rule = rule
                try:
                    if stepped is not None:
                        if depth >= 0:
                            self.kstack[depth:] = (("trigger", index, firings, saved),)
                        yield from stepped(self)
                    else:
                        body(self)
                finally:
                    self.rule = saved
                firings += 1
                if not self._fired_again(index, rule, firings, repeat):
                    break

    def _fired_again(self, index: int, rule: int, firings: int, repeat: bool) -> bool:
        """Note that trigger `index` (of `rule`) has fired, `firings` times now in this run of the triggers;
        return whether it may fire again (its condition is then tried again)."""
        if not self.fired[index]:
            self.fired[index] = True
            self.triggers_live = self._triggers_live()
        if not repeat:
            return False
        if firings >= MAX_TRIGGER_REPEATS:
            raise self._fired_too_often(rule, firings)
        return True

    def setup_s(self) -> Steps:
        """`setup` as a generator."""
        if self.started:
            return
        self.started = True
        self.actor = self.current = 0
        self.work = 0
        depth = len(self.kstack) if self.keyed else -1
        try:
            stepped = self.sprog.on_setup
            if stepped is not None:
                if depth >= 0:
                    self.kstack[depth:] = (("setup", OPAQUE),)
                yield from stepped(self)
            elif self.prog.on_setup is not None:
                self.prog.on_setup(self)
            if depth >= 0:
                self.kstack[depth:] = (("setup", OPAQUE),)
            yield from self._triggers_from_s(depth + 1 if depth >= 0 else -1, 0, 0)
        except EndTurn:
            pass
        except EndGame:
            self.over, self.end_reason = True, self.end_reason or "ended during setup"
        self._after_setup()

    def play_turn_s(self) -> Steps:
        """`play_turn` as a generator (a stepped game has no observers)."""
        if self.over:
            return
        seat = self.next_seat
        turn = self.turn = self.turn + 1
        self.work = 0
        self.current = self.actor = seat
        self.log.append(("turn", turn, seat))
        depth = len(self.kstack) if self.keyed else -1
        try:
            try:
                stepped = self.sprog.on_turn
                if stepped is not None:
                    if depth >= 0:
                        self.kstack[depth:] = (("turn", seat, turn),)
                    yield from stepped(self)
                elif self.prog.on_turn is not None:
                    self.prog.on_turn(self)
            except EndTurn:
                pass
            self.actor = seat
            if self.triggers_live:
                if depth >= 0:
                    self.kstack[depth:] = (("turn-triggers", seat, turn),)
                yield from self._triggers_from_s(depth + 1 if depth >= 0 else -1, 0, 0)
        except EndTurn:
            pass
        except EndGame:
            self._ended_by_rule()
        self.actor = seat
        self._after_turn(seat, turn)

    def _ended_by_rule(self) -> None:
        self.over = True
        self.end_reason = self.end_reason or f"ended by rule '{self.rule_name()}'"

    # ------------------------------------------------------------ resuming
    # A keyed game's turn re-entered at a chance request (issue 31): the continuation stack at the request
    # names every paused call that has something left to do after it, innermost last, with what it goes on
    # with; a call in tail position has nothing left, and its callee's result is its own. `resumed` makes,
    # for each entry, a generator that runs the callee in its place and then the rest of the call: the
    # generated functions' resume entries (compiling/stepped_pass.py, `SteppedProgram.resume`) and the twins'
    # below. The game itself must first be put back as it was at the request (what the caller keeps).
    def resumed(self, request: Any, answer: Any) -> Steps | None:
        """Return the rest of the turn from the chance request `request` the game is paused at, answered
        with `answer`, as a generator to run in place of the turn's (its first `send(None)` goes on); None
        where the continuation stack cannot say how to go on (a decision, a bid, a call whose key is OPAQUE).
        The stack's first entry must be the outermost call's (`play_turn_s` run on an empty stack)."""
        plan = self.resume_plan(request)
        return None if plan is None else self.resume_with(plan, answer)

    def resume_plan(self, request: Any) -> tuple | None:
        """Return how to rebuild the calls paused at the chance request `request` from the continuation stack
        as it stands (`resumed`; `resume_with` rebuilds them, as often as asked); None where it cannot."""
        stack = self.kstack
        if not stack:
            return None
        depth = len(stack) - 1
        answered = self._answered(stack[depth], depth, request)
        if answered is None:
            return None
        frames = []
        resume = self.sprog.resume
        while depth:
            depth -= 1
            entry = stack[depth]
            tag = entry[0]
            if tag.__class__ is int:
                made = resume(tag) if resume is not None else None
                if made is None:
                    return None
                frames.append((made, depth, entry[1:]))
            else:
                make = _RESUMES.get(tag)
                if make is None:
                    return None
                frames.append((make, depth, entry[1:]))
        return answered, frames

    def resume_with(self, plan: tuple, answer: Any) -> Steps:
        """Return the rest of the turn the calls of `plan` (`resume_plan`) go on with, the request answered
        with `answer`, as a generator (`resumed`)."""
        (then, args), frames = plan
        inner = then(*args, answer)
        for made, depth, values in frames:  # (a generated resume entry, or a twin's: each called with the game)
            inner = made(self, inner, depth, *values)
        return inner

    def _answered(self, entry: tuple, depth: int, request: Any) -> tuple[Callable[..., Steps], tuple] | None:
        """Return how to go on with the call that made `request` (its entry `entry`, at `depth`) once it is
        answered: a function and the arguments before the answer that make the rest of the call, as a
        generator; None if it is not the request that entry names."""
        tag = entry[0]
        if tag == "roll" and request is self.dice_request:
            return self._after_request_s, (self._rolled, entry[1])
        if tag == "roll_set" and request is self.set_requests[entry[1]]:
            return self._after_request_s, (self._set_rolled, entry[1], entry[2])
        if tag == "shuffle" and isinstance(request, ShuffleRequest) and request.deck == entry[1]:
            return self._after_request_s, (self._shuffle_answered, entry[1])
        return None

    def _shuffle_answered(self, deck: str, order: Sequence[int]) -> None:
        cards = self.decks[deck]
        cards[:] = [cards[i] for i in order]
        self._shuffled(deck)

    def _after_request_s(self, then: Callable[..., None], *args: Any) -> Steps:
        """`then(*args)`, as a generator (the innermost call resumed): it yields nothing."""
        then(*args)
        return
        yield  # (a generator)

    def _resume_turn_s(self, callee: Steps, depth: int, seat: int, turn: int) -> Steps:
        """`play_turn_s` from its call of the turn's rules."""
        try:
            try:
                yield from callee
            except EndTurn:
                pass
            self.actor = seat
            if self.triggers_live:
                self.kstack[depth:] = (("turn-triggers", seat, turn),)
                yield from self._triggers_from_s(depth + 1, 0, 0)
        except EndTurn:
            pass
        except EndGame:
            self._ended_by_rule()
        self.actor = seat
        self._after_turn(seat, turn)

    def _resume_turn_triggers_s(self, callee: Steps, depth: int, seat: int, turn: int) -> Steps:
        """`play_turn_s` from its run of the triggers."""
        try:
            yield from callee
        except EndTurn:
            pass
        except EndGame:
            self._ended_by_rule()
        self.actor = seat
        self._after_turn(seat, turn)

    def _resume_trigger_s(self, callee: Steps, depth: int, index: int, firings: int, saved: int) -> Steps:
        """`_triggers_from_s` from a firing of trigger `index`."""
        rule, _, _, repeat = self.prog.triggers[index]
        try:
            yield from callee
        finally:
            self.rule = saved
        firings += 1
        if self._fired_again(index, rule, firings, repeat):
            yield from self._triggers_from_s(depth, index, firings)
        else:
            yield from self._triggers_from_s(depth, index + 1, 0)

    def _resume_transfer_s(
        self, callee: Steps, depth: int, amount: int, src: int, dst: int, span: Span | None
    ) -> Steps:
        """`transfer_s` from its payer's shortfall rules."""
        try:
            yield from callee
        finally:
            self.shortfalls -= 1
        return self._settle(amount, src, dst, span)

    def _resume_shortfall_s(self, callee: Steps, depth: int, seat: int, saved: tuple) -> Steps:
        """`_shortfall_s` from its run of the shortfall rules."""
        try:
            yield from callee
        finally:
            self.actor, self.due, self.creditor = saved
            self.short.discard(seat)

    def _resume_draw_s(self, callee: Steps, depth: int, card: int, deck: str, saved_card: int | None) -> Steps:
        """`draw_s` from its run of the card's effect."""
        try:
            yield from callee
        finally:
            self.depth -= 1
            self.card = saved_card
            self._put_away(card, deck)

    def _resume_advance_s(self, callee: Steps, depth: int, seat: int, remaining: tuple[int, ...]) -> Steps:
        """`advance_s` from a space's `on pass` rules, `remaining` the spaces still to pass."""
        yield from callee
        by_space = {space: (stepped, handler) for space, stepped, handler in self.step_passes}
        for i, space in enumerate(remaining):
            stepped, handler = by_space[space]
            if stepped is not None:
                self.kstack[depth:] = (("advance", seat, remaining[i + 1 :]),)
                yield from stepped(self)
            else:
                handler(self)
        space = self.pos[seat]  # (the end of `advance_s`)
        stepped = self.sprog.on_land[space]
        if stepped is not None:
            del self.kstack[depth:]
            yield from stepped(self)
        else:
            dispatch = self.prog.on_land[space]
            if dispatch is not None:
                dispatch(self)

    def _resume_auction_pay_s(self, callee: Steps, depth: int, card: int, buyer: int) -> Steps:
        """`auction_s` from the buyer's payment."""
        yield from callee
        self.set_holder(card, buyer)

    def _resume_lent_s(
        self, callee: Steps, depth: int, lender: int, borrower: int, amount: int, interest: int
    ) -> Steps:
        """`borrow_s` from the loan's payment."""
        yield from callee
        self.loans.append([lender, borrower, amount, interest])


# the twins' resume entries by the tag of their continuation entries (`SteppedGame.resume_plan`)
_RESUMES: dict[str, Callable[..., Steps]] = {
    "turn": SteppedGame._resume_turn_s,
    "turn-triggers": SteppedGame._resume_turn_triggers_s,
    "trigger": SteppedGame._resume_trigger_s,
    "transfer": SteppedGame._resume_transfer_s,
    "shortfall": SteppedGame._resume_shortfall_s,
    "draw": SteppedGame._resume_draw_s,
    "advance": SteppedGame._resume_advance_s,
    "auction-pay": SteppedGame._resume_auction_pay_s,
    "lent": SteppedGame._resume_lent_s,
}
