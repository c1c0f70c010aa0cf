"""A hand-written simulator of The Landlord's Game (1906), the benchmark baseline.

It plays the same rule subset as editions/landlords-game-1906.lg with its
default options (faster_game=false, average_hands=false, chance_deck=true,
speculation_ante_to="miscellaneous", double_four="double",
shelter_tax_on_jail_square=true), with the same bot policy as
landlord_dsl.agents.HeuristicAgent, but written directly in plain Python:
lists of ints, one class, no framework and no import from landlord_dsl (the
bot, the bidding and the command line are baseline_common.py, shared with
the 1933 baseline).

It draws its randomness the way the interpreter's SeededChance does (one
`random.Random(seed)`: the green pack is shuffled with `rng.shuffle`, each die
is `rng.randint(1, 6)`), so a seed gives the same game in both programs; the
benchmark uses that to check that the two really play the same game.

Run it alone:  python benchmarks/baseline_1906.py --games 1000
"""

from __future__ import annotations

import random

import baseline_common
from baseline_common import HeuristicBot, Result, bid_up

# ------------------------------------------------------------------- board

(START, LOT, NECESSITY, TRESPASS, RAILROAD, FRANCHISE, BROKERAGE, JAIL_CORNER, PARK, CHANCE, LUXURY) = range(11)

# (name, kind, price, land rent, two_way) in board order, Mother Earth = 0.
BOARD = [
    ("Mother Earth", START, 0, 0, False),
    ("Wayback", LOT, 25, 0, False),
    ("Fuel", NECESSITY, 0, 0, False),
    ("Lonely Lane", LOT, 25, 2, False),
    ("D. F. Hogg's Game Preserves", TRESPASS, 0, 0, False),
    ("Royal Rusher R. R.", RAILROAD, 50, 0, False),
    ("The Pike", LOT, 25, 4, False),
    ("The Farm", LOT, 25, 4, False),
    ("Speculation", BROKERAGE, 50, 0, False),
    ("Rubeville", LOT, 25, 6, False),
    ("Jail (Shelter)", JAIL_CORNER, 0, 0, False),
    ("Boomtown", LOT, 50, 6, False),
    ("Goat Alley", LOT, 50, 8, False),
    ("Soakum Lighting System", FRANCHISE, 50, 0, False),
    ("Beggarman's Court", LOT, 50, 8, False),
    ("Shooting Star R. R.", RAILROAD, 50, 0, False),
    ("Rickety Row", LOT, 50, 10, False),
    ("Food", NECESSITY, 0, 0, False),
    ("Market Place", LOT, 50, 10, False),
    ("Cottage Terrace", LOT, 50, 12, False),
    ("Poor House and Central Park", PARK, 0, 0, False),
    ("Easy Street", LOT, 75, 12, False),
    ("Chance", CHANCE, 0, 0, False),
    ("George Street", LOT, 75, 14, True),
    ("Maguire Flats", LOT, 75, 14, True),
    ("Gee Whiz R. R.", RAILROAD, 50, 0, True),
    ("Fairhope Avenue", LOT, 75, 16, True),
    ("Slambang Trolley", FRANCHISE, 50, 0, True),
    ("Johnson Circle", LOT, 75, 16, True),
    ("The Bowery", LOT, 75, 18, True),
    ("Lord Blueblood's Estate", TRESPASS, 0, 0, True),
    ("Broadway", LOT, 100, 18, True),
    ("Clothing", NECESSITY, 0, 0, True),
    ("Madison Square", LOT, 100, 20, True),
    ("Fifth Avenue", LOT, 100, 20, True),
    ("P. D. Q. R. R.", RAILROAD, 50, 0, True),
    ("Grand Boulevard", LOT, 100, 22, True),
    ("Chance", CHANCE, 0, 0, False),
    ("Wall Street", LOT, 100, 22, False),
    ("Luxury", LUXURY, 0, 0, False),
]
SIZE = len(BOARD)
KIND = [b[1] for b in BOARD]
PRICE = [b[2] for b in BOARD]
RENT = [b[3] for b in BOARD]
TWO_WAY = [b[4] for b in BOARD]
JAIL = 10
POOR_HOUSE = 20
SPECULATION = 8
CORNERS = (0, 10, 20, 30)
RAILROADS = tuple(i for i, k in enumerate(KIND) if k == RAILROAD)  # 5, 15, 25, 35
FRANCHISES = tuple(i for i, k in enumerate(KIND) if k == FRANCHISE)  # 13, 27
LOTS = tuple(i for i, k in enumerate(KIND) if k == LOT)
TITLED = tuple(i for i, k in enumerate(KIND) if k in (LOT, RAILROAD, FRANCHISE, BROKERAGE))  # 29 titles

# ------------------------------------------------------------------- rules

START_CASH = {2: 600, 3: 500, 4: 400}
CARDS_DEALT = 24
WAGES = 100
WAGES_TO_END = 5
NECESSITY_TAX = 10
JAIL_FINE = 50
JAIL_TURNS_MAX = 3
FRANCHISE_CHARGE = 5
MUNICIPAL_CINCH = 25
TRUST_FARE = 40
RAILROAD_FARE = (0, 5, 10, 20, 50)  # by railroads the owner holds
SPECULATION_ANTE = 10
SPECULATION_WIN = (0, 0, 0, 0, 0, 30, 40, 50, 60, 70, 80, 90, 0)  # by total; doubles win 100
BROKER_SHARE_PCT = 10
LUXURY_PRICE = 75
LUXURY_CARDS = 27
HOUSE_PRICE = 100
HOUSE_RENT = 10
CARD_WORTH = 100
LOAN_INTEREST_PCT = 10
BOT_RESERVE_HINT = 60
TURN_LIMIT = 2000
MAX_OFFER_ROUNDS = 256  # the interpreter closes an `offer` after 256 answers

# The reconstructed red pack, in its (never shuffled) order.
(GO_MOTHER_EARTH, TRESPASS_JAIL, FINE, DIVIDEND, DOCTOR, WALK_BACK, NEXT_RAILROAD, ODD_JOB) = range(8)

TREASURY = -1  # payees: a seat (>= 0), the Public Treasury, or the Miscellaneous pile
MISC = -2

FREE, IN_JAIL, IN_POOR_HOUSE = range(3)


def jump_route(start: int, steps: int) -> list[int] | None:
    """The spaces reached using the railroad pass (jump between the next two corners)."""
    ahead = sorted(CORNERS, key=lambda s: (s - start - 1) % SIZE)
    first = ahead[0]
    reach = (first - start) % SIZE or SIZE
    if reach >= steps:
        return None
    landing = ahead[1]
    path = [(start + k) % SIZE for k in range(1, reach + 1)] + [landing]
    path += [(landing + k) % SIZE for k in range(1, steps - reach)]
    return path


# -------------------------------------------------------------------- game


class Game:
    """One game of the 1906 rules between `players` heuristic bots."""

    def __init__(self, players: int = 4, seed: int = 0, bots=None):
        if not 2 <= players <= 4:
            raise ValueError("the 1906 game is for 2 to 4 players")
        n = self.n = players
        self.rng = random.Random(seed)
        self.randint = self.rng.randint
        self.bots = list(bots) if bots is not None else [HeuristicBot() for _ in range(n)]
        self.cash = [0] * n
        self.treasury = 0
        self.minted = 0  # net money paid out of the (unlimited) Miscellaneous pile
        self.pos = [0] * n
        self.origin = 0  # where the last move started (for Luxury's move back)
        self.d1 = self.d2 = self.total = 0
        self.double = False
        self.wages = [0] * n
        self.in_jail = [False] * n
        self.jail_turns = [0] * n
        self.in_poor = [False] * n
        self.in_trust = [False] * n
        self.owner: list[int | None] = [None] * SIZE
        self.houses = [0] * SIZE
        self.luxuries = [0] * n
        self.luxuries_left = LUXURY_CARDS
        self.chance = list(range(8))
        self.loans: list[list[int]] = []  # [lender, borrower, principal, interest]
        self.turn = 0
        self.next_seat = 0
        self.over = False
        self.end_reason = ""
        self.land_fn = [None] * SIZE
        for i, k in enumerate(KIND):
            self.land_fn[i] = {
                LOT: self.land_lot,
                NECESSITY: self.land_necessity,
                TRESPASS: self.land_trespass,
                RAILROAD: self.land_railroad,
                FRANCHISE: self.land_franchise,
                BROKERAGE: self.land_speculation,
                CHANCE: self.land_chance,
                LUXURY: self.land_luxury,
                JAIL_CORNER: self.land_jail_corner,
            }.get(k)

    # ----------------------------------------------------------- money
    def pay(self, seat: int, amount: int, to: int) -> None:
        """`seat` pays `amount` to a seat, TREASURY or MISC; short of money, he
        borrows, and what he still cannot pay is lost (the Poor House)."""
        if amount <= 0 or to == seat:
            return
        cash = self.cash
        if cash[seat] < amount:
            self.shortfall(seat, amount)
            if cash[seat] < amount:
                amount = cash[seat]
                if amount <= 0:
                    return
        cash[seat] -= amount
        if to >= 0:
            cash[to] += amount
        elif to == TREASURY:
            self.treasury += amount
        else:
            self.minted -= amount

    def receive(self, seat: int, amount: int) -> None:
        """`seat` takes `amount` from the Miscellaneous pile."""
        self.cash[seat] += amount
        self.minted += amount

    def borrow(self, seat: int, amount: int) -> None:
        """Rule 16: ask the others, in turn, for a loan of `amount`; the first who agrees lends it."""
        cash = self.cash
        interest = amount * LOAN_INTEREST_PCT // 100
        n = self.n
        for k in range(1, n):
            lender = (seat + k) % n
            if cash[lender] < amount:
                continue
            if self.bots[lender].choose(cash[lender], ((amount, amount + interest), (0, 0))) == 0:
                cash[lender] -= amount
                cash[seat] += amount
                self.loans.append([lender, seat, amount, interest])
                return

    def shortfall(self, seat: int, due: int) -> None:
        """Rule 12/16: ask the others, in turn, for a loan of the missing money."""
        self.borrow(seat, due - self.cash[seat])
        if self.cash[seat] < due:
            self.pos[seat] = POOR_HOUSE
            self.in_poor[seat] = True

    def repay_loans(self, seat: int) -> None:
        cash = self.cash
        for loan in [x for x in self.loans if x[1] == seat]:
            owed = loan[2] + loan[3]
            if cash[seat] >= owed:
                cash[seat] -= owed
                cash[loan[0]] += owed
                self.loans.remove(loan)

    # ---------------------------------------------------------- dice
    def roll(self) -> None:
        randint = self.randint
        d1 = randint(1, 6)
        d2 = randint(1, 6)
        self.d1, self.d2, self.total, self.double = d1, d2, d1 + d2, d1 == d2

    # -------------------------------------------------------- moving
    def wages_paid(self, seat: int) -> None:
        """Rule 3: reaching or passing Mother Earth."""
        self.cash[seat] += WAGES
        self.minted += WAGES
        self.wages[seat] += 1
        if self.loans:
            self.repay_loans(seat)

    def land(self, seat: int) -> None:
        fn = self.land_fn[self.pos[seat]]
        if fn is not None:
            fn(seat)

    def move_forward(self, seat: int, steps: int) -> None:
        start = self.pos[seat]
        self.origin = start
        self.pos[seat] = (start + steps) % SIZE
        if start + steps >= SIZE:
            self.wages_paid(seat)
        self.land(seat)

    def move_backward(self, seat: int, steps: int) -> None:
        start = self.pos[seat]
        self.origin = start
        self.pos[seat] = (start - steps) % SIZE
        self.land(seat)

    def move_via_corners(self, seat: int, steps: int) -> None:
        path = jump_route(self.pos[seat], steps)
        self.origin = self.pos[seat]
        self.pos[seat] = path[-1]
        for s in path:
            if s == 0:
                self.wages_paid(seat)
        self.land(seat)

    def move_to(self, seat: int, dest: int) -> None:
        start = self.pos[seat]
        distance = (dest - start) % SIZE
        self.origin = start
        self.pos[seat] = dest
        if (distance and start + distance >= SIZE) or (not distance and dest == 0):
            self.wages_paid(seat)
        self.land(seat)

    def choose_move(self, seat: int) -> None:
        """Rules 2, 8, 17: forward; backward between the Chances; the railroad
        pass on a double; or refusing to move onto Speculation."""
        here, total = self.pos[seat], self.total
        moves = ["forward"]
        if TWO_WAY[here]:
            moves.append("backward")
        if self.double and jump_route(here, total) is not None:
            moves.append("pass")
        if (here + total) % SIZE == SPECULATION or (TWO_WAY[here] and (here - total) % SIZE == SPECULATION):
            moves.append("stay")
        move = "forward"
        if len(moves) > 1:
            move = moves[self.bots[seat].choose(self.cash[seat], [(0, 0)] * len(moves))]
        if move == "forward":
            self.move_forward(seat, total)
        elif move == "backward":
            self.move_backward(seat, total)
        elif move == "pass":
            self.move_via_corners(seat, total)

    # ------------------------------------------------------ spaces
    def auction(self, space: int, first: int) -> None:
        """Rule 7: the others bid from the printed price up in steps of 5; the
        player who stopped there may then take it at the highest bid."""
        start = PRICE[space]
        cash, bots, n = self.cash, self.bots, self.n
        high, high_bidder = bid_up([(first + k) % n for k in range(1, n)], cash, bots, start, 5, start + start // 4)
        price = high if high is not None else start
        buyer = high_bidder
        if cash[first] >= price and bots[first].choose(cash[first], ((price, start + start // 4), (0, 0))) == 0:
            buyer = first
        if buyer is not None:
            self.pay(buyer, price, TREASURY)
            self.owner[space] = buyer

    def land_lot(self, seat: int) -> None:
        here = self.pos[seat]
        if self.owner[here] is None:
            self.auction(here, seat)
        owner = self.owner[here]
        if owner is None:
            self.pay(seat, RENT[here] + HOUSE_RENT * self.houses[here], TREASURY)
        elif owner != seat:
            self.pay(seat, RENT[here] + HOUSE_RENT * self.houses[here], owner)

    def land_necessity(self, seat: int) -> None:
        self.pay(seat, NECESSITY_TAX, TREASURY)

    def land_jail_corner(self, seat: int) -> None:
        """Rules 4 and 6: stopping on the jail corner's Shelter square pays the tax."""
        if not self.in_jail[seat]:
            self.pay(seat, NECESSITY_TAX, TREASURY)

    def send_to_jail(self, seat: int) -> None:
        """Rules 5, 6 and 8: to Jail; a pending Poor House stay gives way to it."""
        self.pos[seat] = JAIL
        self.in_jail[seat] = True
        self.jail_turns[seat] = 0
        self.in_poor[seat] = False

    def land_trespass(self, seat: int) -> None:
        self.send_to_jail(seat)

    def land_franchise(self, seat: int) -> None:
        here = self.pos[seat]
        owner_of = self.owner
        if owner_of[here] is None:
            self.auction(here, seat)
        owner = owner_of[here]
        if owner is None:
            self.pay(seat, FRANCHISE_CHARGE, TREASURY)
        elif owner != seat:
            cinch = all(owner_of[f] == owner for f in FRANCHISES)
            self.pay(seat, MUNICIPAL_CINCH if cinch else FRANCHISE_CHARGE, owner)

    def land_railroad(self, seat: int) -> None:
        here = self.pos[seat]
        owner_of = self.owner
        if owner_of[here] is None:
            self.auction(here, seat)
        owner = owner_of[here]
        if owner is None:
            self.pay(seat, RAILROAD_FARE[1], TREASURY)
        elif sum(self.in_trust) == 2:
            if not self.in_trust[seat]:
                for p in [q for q in range(self.n) if self.in_trust[q]]:
                    self.pay(seat, TRUST_FARE // 2, p)
        elif owner != seat:
            held = sum(1 for r in RAILROADS if owner_of[r] == owner)
            self.pay(seat, RAILROAD_FARE[held], owner)

    def land_speculation(self, seat: int) -> None:
        """Rule 8: ante, throw again, win by the throw; 3 or 4 is the skin game."""
        if self.owner[SPECULATION] is None:
            self.auction(SPECULATION, seat)
        broker = self.owner[SPECULATION]
        self.pay(seat, SPECULATION_ANTE, MISC)
        if self.in_poor[seat]:
            raise TurnOver()  # he could not pay the ante
        self.roll()
        total = self.total
        if total == 3 or (total == 4 and not self.double):
            if broker is not None:
                self.send_to_jail(broker)
                self.owner[SPECULATION] = None
        else:
            won = 100 if self.double else SPECULATION_WIN[total]
            self.receive(seat, won)
            share = won * BROKER_SHARE_PCT // 100
            self.pay(seat, share, MISC if broker is None else broker)

    def land_chance(self, seat: int) -> None:
        """Rule 11, with the reconstructed red pack; each card goes back under."""
        deck = self.chance
        card = deck.pop(0)
        if card == GO_MOTHER_EARTH:
            self.move_to(seat, 0)
        elif card == TRESPASS_JAIL:
            self.send_to_jail(seat)
        elif card == FINE:
            self.pay(seat, 10, TREASURY)
        elif card == DIVIDEND:
            self.receive(seat, 25)
        elif card == DOCTOR:
            self.pay(seat, 20, MISC)
        elif card == WALK_BACK:
            self.move_backward(seat, 3)
        elif card == NEXT_RAILROAD:
            here = self.pos[seat]
            self.move_to(seat, min(RAILROADS, key=lambda s: (s - here - 1) % SIZE))
        else:  # ODD_JOB
            self.receive(seat, 50)
        deck.append(card)

    def land_luxury(self, seat: int) -> None:
        """Rule 13: buy a luxury for $75, or go back to where the move began and
        move backward by the same throw."""
        cash = self.cash[seat]
        # Short of $75 he may borrow (Rule 13), but the bot never takes an option costing more
        # than its cash less its reserve; once the purple pack is used up nothing is for sale.
        buy = (
            cash >= LUXURY_PRICE
            and self.luxuries_left > 0
            and self.bots[seat].choose(cash, ((LUXURY_PRICE, CARD_WORTH), (0, 0))) == 0
        )
        if buy:
            self.pay(seat, LUXURY_PRICE, MISC)
            self.luxuries_left -= 1
            self.luxuries[seat] += 1
        else:
            self.pos[seat] = self.origin
            self.move_backward(seat, self.total)

    # --------------------------------------------------------- turns
    def first_player(self) -> None:
        """Preface: the highest throw plays first; those tied throw again (five
        rounds at most, then the first of them in seat order)."""
        contenders = list(range(self.n))
        for _ in range(5):
            if len(contenders) > 1:
                throws = {}
                for p in contenders:
                    self.roll()
                    throws[p] = self.total
                best = max(throws.values())
                contenders = [p for p in contenders if throws[p] == best]
        self.next_seat = contenders[0]

    def setup(self) -> None:
        """Rule 1: $400 each (4 players), deal 24 of the shuffled green cards,
        each player buys what he wants of his hand at the printed prices."""
        self.first_player()
        n, cash = self.n, self.cash
        for p in range(n):
            self.receive(p, START_CASH[n])
        deck = list(range(len(TITLED)))
        self.rng.shuffle(deck)
        for i in range(min(CARDS_DEALT, len(deck))):
            self.owner[TITLED[deck[i]]] = i % n
        for p in range(n):
            for space in [s for s in TITLED if self.owner[s] == p]:
                price = PRICE[space]
                if cash[p] >= price and self.bots[p].choose(cash[p], ((price, price + 20), (0, 0))) == 0:
                    self.pay(p, price, TREASURY)
                else:
                    self.owner[space] = None

    def property_value(self, seat: int) -> int:
        """Rule 6: what he could realize money on: his title deeds at their printed prices and $100 a house."""
        owner = self.owner
        return sum(PRICE[s] + HOUSE_PRICE * self.houses[s] for s in TITLED if owner[s] == seat)

    def jail_turn(self, seat: int) -> None:
        """Rule 6: pay $50, or throw for a double; after three missed turns a
        failure makes him realize the fine on his property (borrowing it), or
        stay if he cannot. Only a prisoner who comes out moves."""
        cash = self.cash
        if cash[seat] >= JAIL_FINE and self.bots[seat].choose(cash[seat], ((JAIL_FINE, JAIL_FINE + 20), (0, 0))) == 0:
            self.pay(seat, JAIL_FINE, TREASURY)
            self.in_jail[seat] = False
        self.roll()
        if self.in_jail[seat] and self.double:
            self.in_jail[seat] = False
        elif self.in_jail[seat]:
            self.jail_turns[seat] += 1
            if self.jail_turns[seat] > JAIL_TURNS_MAX:
                if cash[seat] < JAIL_FINE and self.property_value(seat) >= JAIL_FINE - cash[seat]:
                    self.borrow(seat, JAIL_FINE - cash[seat])
                if cash[seat] >= JAIL_FINE:
                    self.pay(seat, JAIL_FINE, TREASURY)
                    self.in_jail[seat] = False
        if not self.in_jail[seat]:
            self.jail_turns[seat] = 0
            self.choose_move(seat)

    def trust(self, seat: int) -> None:
        """Rule 9: two players who own all the railroads may form a Trust."""
        in_trust = self.in_trust
        owners = sorted({self.owner[r] for r in RAILROADS if self.owner[r] is not None})
        if sum(in_trust) == 2 and len(owners) != 2:
            for p in range(self.n):
                in_trust[p] = False
        if (
            sum(in_trust) == 0
            and len(owners) == 2
            and all(self.owner[r] is not None for r in RAILROADS)
            and seat in owners
        ):
            agreed = sum(1 for p in owners if self.bots[p].choose(self.cash[p], ((0, 20), (0, 0))) == 0)
            if agreed == 2:
                for p in owners:
                    in_trust[p] = True

    def build(self, seat: int) -> None:
        """Rule 14: houses at $100 on one's own lots."""
        cash, owner, bot = self.cash, self.owner, self.bots[seat]
        for _ in range(MAX_OFFER_ROUNDS):
            if cash[seat] < HOUSE_PRICE:
                return
            lots = [s for s in LOTS if owner[s] == seat]
            if not lots:
                return
            k = len(lots)
            answer = bot.choose(cash[seat], [(HOUSE_PRICE, HOUSE_PRICE + BOT_RESERVE_HINT)] * k + [(0, 0)])
            if answer == k:
                return
            self.pay(seat, HOUSE_PRICE, MISC)
            self.houses[lots[answer]] += 1

    def play_turn(self) -> None:
        seat = self.next_seat
        self.turn += 1
        state = IN_JAIL if self.in_jail[seat] else IN_POOR_HOUSE if self.in_poor[seat] else FREE
        ended = False
        try:
            if state == FREE:
                self.roll()
                self.choose_move(seat)
            elif state == IN_JAIL:
                self.jail_turn(seat)
        except TurnOver:
            ended = True
        if not ended:
            owner = self.owner
            if True in self.in_trust or None not in [owner[r] for r in RAILROADS]:
                self.trust(seat)  # (nothing to do unless all railroads are owned or a trust exists)
            if state == IN_POOR_HOUSE:
                # Rule 12: he stays until his next turn, then throws and moves out.
                self.in_poor[seat] = False
                self.roll()
                self.choose_move(seat)
            self.build(seat)
        self.next_seat = (seat + 1) % self.n
        if max(self.wages) >= WAGES_TO_END:
            self.over, self.end_reason = True, "wages received five times"
        elif self.turn >= TURN_LIMIT:
            self.over, self.end_reason = True, f"turn limit ({TURN_LIMIT})"

    def play(self) -> Result:
        self.setup()
        while not self.over:
            self.play_turn()
        return self.result()

    # -------------------------------------------------------- scoring
    def worth(self, seat: int) -> int:
        titles = sum(1 for s in TITLED if self.owner[s] == seat)
        houses = sum(self.houses[s] for s in TITLED if self.owner[s] == seat)
        debt = sum(loan[2] + loan[3] for loan in self.loans if loan[1] == seat)
        credit = sum(loan[2] + loan[3] for loan in self.loans if loan[0] == seat)
        return self.cash[seat] + CARD_WORTH * (titles + self.luxuries[seat]) + CARD_WORTH * houses - debt + credit

    def result(self) -> Result:
        return Result.ranked(self.turn, self.n, self.end_reason, tuple(self.worth(p) for p in range(self.n)))

    def conserved(self) -> bool:
        """Money only enters or leaves through the Miscellaneous pile, and nobody is in debt to the bank."""
        return sum(self.cash) + self.treasury == self.minted and min(self.cash) >= 0


class TurnOver(Exception):
    """The rest of a player's turn is skipped (the .lg's `end turn`)."""


def main(argv=None) -> int:
    return baseline_common.main(Game, "The hand-written 1906 baseline simulator.", argv)


if __name__ == "__main__":
    raise SystemExit(main())
