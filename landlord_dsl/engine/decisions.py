"""Engine stage: the decisions the engine asks of the players.

`Decisions` is a part of `engine.Game`: a choice put to one seat's agent,
a bid, an auction with its first refusal, and loans between players.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import LandlordError
from ..core.span import Span
from ..program.requests import DONE, FOLDED_AGENTS, BidRequest, ChoiceSite, DecisionRequest

if TYPE_CHECKING:
    from ..core.errors import RuleRuntimeError
    from ..program.compiled import Program

# The engine's own decisions: taking a title at the auction price, and lending.
_FIRST_REFUSAL = ChoiceSite(("buy", "decline"), (None, "Let it go"), "Buy the title at the highest bid?")
_LOAN = ChoiceSite(("lend", "refuse"), (None, "Refuse"), "Lend the money?")


class Decisions:
    """The decisions, auctions and loans of `engine.Game` (a mixin: the game's state lives in Game)."""

    if not TYPE_CHECKING:  # (mypy would have the mixin declare the fields it sets: they are Game's)
        __slots__ = ()

    if TYPE_CHECKING:
        prog: Program
        agents: list[Any]  # each an Agent, which is handed the Game this mixin is part of
        names: list[str]
        nacc: int
        actor: int
        current: int
        turn: int
        rule: int
        holder: list[int | None]
        bal: list[int]
        loans: list[list[int]]
        decisions: list[int | None]
        log: list[tuple]

        def fail(self, message: str, span: Any = None, hint: str | None = None) -> RuleRuntimeError: ...
        @property
        def default_reserve(self) -> int: ...
        def cash(self, seat: int) -> int: ...
        def space_name(self, index: int) -> str: ...
        def rule_name(self, index: int | None = None) -> str: ...
        def account_index(self, payee: int) -> int: ...
        def transfer(self, amount: int, src: int, dst: int, span: Any = None) -> int: ...
        def set_holder(self, card: int, seat: int | None) -> None: ...
        def _in_seat_order(self, first: int) -> list[int]: ...

    def choose(
        self,
        seat: int,
        prompt: str,
        legal: list[tuple],
        site: ChoiceSite,
        describe: Callable[[int, Any], str] | None = None,
    ) -> tuple:
        """Ask `seat` to pick one of a choice's `legal` entries; return the entry picked.

        Entries are `(option number, bound value, cost, value)`. A single
        legal option is taken without asking; none at all is a fault of the rules.
        The answer is recorded in `decisions` as its index, or DONE for an offer's done.
        """
        count = len(legal)
        if count < 2:
            if count:
                return legal[0]
            raise self.fail(
                f"no option of '{site.prompt}' is allowed here",
                site.span,
                "add an option without a `when`, so there is always a way on",
            )
        rule = self.rule
        agent = self.agents[seat]
        if agent.__class__ in FOLDED_AGENTS:  # a HeuristicAgent: its answer without a request (its `choose`)
            reserve = agent.reserve  # its own, else the rules' money scale (HeuristicAgent.reserve_for)
            answer = agent.pick(
                self.bal[self.nacc + seat] - (self.default_reserve if reserve is None else reserve), legal
            )
        else:
            answer = agent.choose(
                self, DecisionRequest(seat, prompt, legal, site, describe, rule, self.prog.rule_names)
            )
        if not isinstance(answer, int) or not 0 <= answer < count:
            raise LandlordError(
                f"the agent for seat {seat + 1} answered {answer!r}, not one of the {count} options of '{prompt}'"
            )
        entry = legal[answer]
        self.decisions.append(DONE if entry[0] == site.done else answer)
        self.log.append(("decide", self.turn, seat, prompt, site.names[entry[0]], rule))
        return entry

    def offer_closed(self, site: ChoiceSite) -> None:
        """Log that an `offer` closed by itself after MAX_OFFER_ROUNDS answers (a rule or bot that never says done)."""
        self.log.append(("offer_closed", self.turn, self.actor, site.prompt, self.rule))

    def ask_bid(self, request: BidRequest) -> int | None:
        answer = self.agents[request.seat].bid(self, request)
        if answer is not None and (not isinstance(answer, int) or not request.minimum <= answer <= request.maximum):
            raise LandlordError(
                f"the agent for seat {request.seat + 1} bid {answer!r}, outside {request.minimum}..{request.maximum}"
            )
        self.decisions.append(answer)
        self.log.append(("bid", self.turn, request.seat, request.space, answer, self.rule))
        return answer

    def auction(
        self,
        space: int,
        start: int,
        step: int,
        first: int | None,
        proceeds: int,
        span: Span | None = None,
        value: int | None = None,
    ) -> None:
        """Sell a space's title to the highest bidder; `first` may then buy at that price.

        Players still in the game are asked in turn from the current player
        (except `first`) to bid at least `step` over the high bid, until one
        bidder is left. `value` is the rules' hint of the title's worth.
        """
        card = self.prog.title_card[space]
        if card is None:
            raise self.fail(f"{self.space_name(space)} has no title deed to auction", span)
        if self.holder[card] is not None:
            return
        value = start + start // 4 if value is None else value
        label = self.space_name(space)
        high, high_bidder = None, None
        active = [s for s in self._in_seat_order(self.current) if s != first]
        bal, nacc, agents, log, decisions = self.bal, self.nacc, self.agents, self.log, self.decisions
        turn, rule = self.turn, self.rule  # no rule runs while the bids are asked
        # a HeuristicAgent's highest bid, worked out once (its `bid`): its cash does not change while bidding
        ceilings = {seat: self._ceiling(agents[seat], seat, value) for seat in active}
        rounds = 0
        if None not in ceilings.values():  # every bid worked out here: the loop below without an agent's call
            minimum = start
            while active and rounds < 1000:
                rounds += 1
                still = []
                for seat in active:
                    if seat == high_bidder:
                        still.append(seat)
                    elif minimum <= bal[nacc + seat]:
                        if minimum <= ceilings[seat]:  # type: ignore[operator]  # (none is None here)
                            decisions.append(minimum)
                            log.append(("bid", turn, seat, label, minimum, rule))
                            high, high_bidder = minimum, seat
                            minimum += step
                            still.append(seat)
                        else:
                            decisions.append(None)
                            log.append(("bid", turn, seat, label, None, rule))
                active = still
                if len(active) <= 1:
                    break
            active = []
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
                if ceiling is not None:  # a HeuristicAgent's bid, worked out here
                    answer = minimum if minimum <= ceiling else None
                    decisions.append(answer)
                    log.append(("bid", turn, seat, label, answer, rule))
                else:
                    request = BidRequest(seat, self.rule_name(), label, high, minimum, maximum, start, value)
                    answer = self.ask_bid(request)
                if answer is not None:
                    high, high_bidder = answer, seat
                    still.append(seat)
            active = still
            if len(active) <= 1:
                break
        price = high if high is not None else start
        buyer = high_bidder
        if first is not None and self.cash(first) >= price:
            entry = self.choose(
                first,
                f"Buy {label} for {price}?",
                [(0, None, price, value), (1, None, 0, 0)],
                _FIRST_REFUSAL,
                lambda k, x: f"Buy {label} for {price}",
            )
            if entry[0] == 0:
                buyer = first
        if buyer is not None:
            self.transfer(price, self.nacc + buyer, self.account_index(proceeds), span)
            self.set_holder(card, buyer)

    def _ceiling(self, agent: Any, seat: int, value: int) -> int | None:
        """Return the most a HeuristicAgent in `seat` bids for a title worth `value` (the least of the value
        and its cash less its reserve), or None for any other agent, which is asked every time."""
        if agent.__class__ not in FOLDED_AGENTS:
            return None
        reserve = agent.reserve  # its own, else the rules' money scale (HeuristicAgent.reserve_for)
        return min(value, self.bal[self.nacc + seat] - (self.default_reserve if reserve is None else reserve))

    def borrow(self, amount: int, interest_pct: int) -> None:
        borrower = self.actor
        if amount <= 0:
            return
        interest = amount * interest_pct // 100
        for lender in self._in_seat_order(borrower):
            if lender == borrower:
                continue
            if self.cash(lender) < amount:
                continue
            entry = self.choose(
                lender,
                f"Lend {amount} to {self.names[borrower]} at {interest_pct}%?",
                [(0, None, amount, amount + interest), (1, None, 0, 0)],
                _LOAN,
                lambda k, x: f"Lend {amount}",
            )
            if entry[0] == 0:
                self.transfer(amount, self.nacc + lender, self.nacc + borrower)
                self.loans.append([lender, borrower, amount, interest])
                return

    def repay_loans(self, interest: bool = True) -> None:
        """Settle every loan of the acting player that his cash covers; return nothing.

        He repays what was lent, plus the interest if `interest`."""
        seat = self.actor
        for loan in [x for x in self.loans if x[1] == seat]:
            owed = loan[2] + (loan[3] if interest else 0)
            if self.cash(seat) >= owed:
                self.transfer(owed, self.nacc + seat, self.nacc + loan[0])
                self.loans.remove(loan)
