"""A hand-written simulator of Atlantic City Monopoly (1933), a benchmark baseline.

It plays editions/monopoly-1933-atlantic-city.lg with its default options
(proxy_decks=true) and the same bot policy as
landlord_dsl.agents.HeuristicAgent, written directly in plain Python: lists
of ints, one class, no framework and no import from landlord_dsl (the bot,
the bidding and the command line are baseline_common.py, shared with the
1906 baseline).

It asks the bots the same questions as the .lg file, with the same options in
the same order and the same cost/value hints: buy or decline; the Banker's
auction; in Jail, card, fine or throw; once a turn the "build, tear down,
mortgage or redeem" offer and the "offer a property to the others" offer;
buy or refuse a property or Get out of Jail card another player offers;
when short of money, sell, mortgage or tear down. It draws its randomness
the way the interpreter's SeededChance does (one `random.Random(seed)`: each
deck shuffled with `rng.shuffle` at set-up, each die `rng.randint(1, 6)`), so
a seed gives the same game in both programs, which the benchmark checks.

Run it alone:  python benchmarks/baseline_1933.py --games 1000
"""

from __future__ import annotations

import random

import baseline_common
from baseline_common import HeuristicBot, Result, bid_up

# ------------------------------------------------------------------- board

(GO, LOT, RAILROAD, UTILITY, CHEST, CHANCE, INCOME_TAX, LUXURY_TAX, JAIL_CORNER, PARKING, GO_TO_JAIL) = range(11)

# (kind, price, mortgage, rents: land, 1-4 houses, hotel) in board order, GO = 0.
BOARD = [
    (GO, 0, 0, None),
    (LOT, 60, 30, (2, 10, 30, 90, 160, 250)),  # Arctic Avenue
    (CHEST, 0, 0, None),
    (LOT, 60, 30, (4, 20, 60, 180, 320, 450)),  # Baltic Avenue
    (INCOME_TAX, 0, 0, None),
    (RAILROAD, 200, 100, None),  # Reading Railroad
    (LOT, 100, 50, (6, 30, 90, 270, 400, 550)),  # Oriental Avenue
    (CHANCE, 0, 0, None),
    (LOT, 100, 50, (6, 30, 90, 270, 400, 550)),  # Vermont Avenue
    (LOT, 120, 60, (8, 40, 100, 300, 450, 600)),  # Connecticut Avenue
    (JAIL_CORNER, 0, 0, None),
    (LOT, 140, 70, (10, 50, 150, 450, 625, 750)),  # St. Charles Place
    (UTILITY, 150, 75, None),  # Electric Company
    (LOT, 140, 70, (10, 50, 150, 450, 625, 750)),  # States Avenue
    (LOT, 160, 80, (12, 60, 180, 500, 700, 900)),  # Virginia Avenue
    (RAILROAD, 200, 100, None),  # Pennsylvania Railroad
    (LOT, 180, 90, (14, 70, 200, 550, 750, 950)),  # St. James Place
    (CHEST, 0, 0, None),
    (LOT, 180, 90, (14, 70, 200, 550, 750, 950)),  # Tennessee Avenue
    (LOT, 200, 100, (16, 80, 220, 600, 800, 1000)),  # New York Avenue
    (PARKING, 0, 0, None),
    (LOT, 220, 110, (18, 90, 250, 700, 875, 1050)),  # Kentucky Avenue
    (CHANCE, 0, 0, None),
    (LOT, 220, 110, (18, 90, 250, 700, 875, 1050)),  # Indiana Avenue
    (LOT, 240, 120, (20, 100, 300, 750, 925, 1100)),  # Illinois Avenue
    (RAILROAD, 200, 100, None),  # B. & O. Railroad
    (LOT, 260, 130, (22, 110, 330, 800, 975, 1150)),  # Atlantic Avenue
    (LOT, 260, 130, (22, 110, 330, 800, 975, 1150)),  # Ventnor Avenue
    (UTILITY, 150, 75, None),  # Water Works
    (LOT, 280, 140, (24, 120, 360, 850, 1025, 1200)),  # Marvin Gardens
    (GO_TO_JAIL, 0, 0, None),
    (LOT, 300, 150, (26, 130, 390, 900, 1100, 1275)),  # Pacific Avenue
    (LOT, 300, 150, (26, 130, 390, 900, 1100, 1275)),  # North Carolina Avenue
    (CHEST, 0, 0, None),
    (LOT, 320, 160, (28, 150, 450, 1000, 1200, 1400)),  # Pennsylvania Avenue
    (RAILROAD, 200, 100, None),  # Short Line
    (CHANCE, 0, 0, None),
    (LOT, 350, 175, (35, 175, 500, 1100, 1300, 1500)),  # Park Place
    (LUXURY_TAX, 0, 0, None),
    (LOT, 400, 200, (50, 200, 600, 1400, 1700, 2000)),  # Boardwalk
]
SIZE = len(BOARD)
KIND = [b[0] for b in BOARD]
PRICE = [b[1] for b in BOARD]
MORTGAGE = [b[2] for b in BOARD]
RENTS = [b[3] for b in BOARD]
IS_LOT = [k == LOT for k in KIND]
HOUSE_PRICE = [50 + 50 * (s // 10) for s in range(SIZE)]  # $50 more on each side of the board
REDEEM = [m + m * 10 // 100 for m in MORTGAGE]  # the mortgage plus 10%
TRADE_PRICE = [2 * p for p in PRICE]  # twice the printed price
COLOR_GROUPS = ((1, 3), (6, 8, 9), (11, 13, 14), (16, 18, 19), (21, 23, 24), (26, 27, 29), (31, 32, 34), (37, 39))
COLOR: list[tuple[int, ...]] = [()] * SIZE
for _group in COLOR_GROUPS:
    for _s in _group:
        COLOR[_s] = _group
RAILROADS = tuple(i for i, k in enumerate(KIND) if k == RAILROAD)
UTILITIES = tuple(i for i, k in enumerate(KIND) if k == UTILITY)
JAIL = 10

# ------------------------------------------------------------------- rules

START_CASH = 1500
SALARY = 200
INCOME_TAX_PCT = 10
LUXURY_TAX_AMOUNT = 75
JAIL_FINE = 50
JAIL_TRIES_MAX = 3
OPENING_BID = MIN_RAISE = 5
HOTEL = 5
RAILROAD_FARE = (0, 25, 50, 100, 200)
UTILITY_MULTIPLIER = (0, 4, 10)
JAIL_CARD_PRICE = 50
TURN_LIMIT = 1000
MAX_OFFER_ROUNDS = 256  # the interpreter closes an `offer` after 256 answers
BANK = -1

# The pre-1936 Parker decks, in their printed order: card ids 0-15 are Chance,
# 16-28 Community Chest. ("to", space) advance; ("back", n); ("jail",);
# ("keep",) a Get out of Jail card; ("get", n) / ("pay", n) from or to the Bank;
# ("repairs", per house, per hotel); ("collect_each", n) from every other player.
CHANCE_CARDS = [
    ("to", 0),
    ("to", 24),
    ("to", 11),
    ("to", 5),
    ("to", 39),
    ("back", 3),
    ("jail",),
    ("keep",),
    ("get", 50),
    ("get", 150),
    ("get", 100),
    ("pay", 12),
    ("pay", 15),
    ("pay", 150),
    ("repairs", 25, 100),
    ("repairs", 40, 115),
]
CHEST_CARDS = [
    ("to", 0),
    ("get", 200),
    ("pay", 50),
    ("get", 45),
    ("keep",),
    ("jail",),
    ("collect_each", 50),
    ("get", 20),
    ("get", 100),
    ("pay", 100),
    ("get", 25),
    ("get", 10),
    ("get", 100),
]
CARDS = CHANCE_CARDS + CHEST_CARDS
CHANCE_JAIL_CARD = CHANCE_CARDS.index(("keep",))
CHEST_JAIL_CARD = len(CHANCE_CARDS) + CHEST_CARDS.index(("keep",))

(BUILD, REDEEM_IT, TEAR_DOWN, MORTGAGE_IT, SELL, SELL_CARD) = range(6)


class TurnOver(Exception):
    """The rest of the turn is skipped: the current player has gone bankrupt."""


# -------------------------------------------------------------------- game


class Game:
    """One game of the 1933 rules between `players` heuristic bots."""

    def __init__(self, players: int = 4, seed: int = 0, bots=None):
        if not 2 <= players <= 8:
            raise ValueError("the 1933 game is for 2 to 8 players")
        n = self.n = players
        self.rng = random.Random(seed)
        self.randint = self.rng.randint
        self.bots = list(bots) if bots is not None else [HeuristicBot() for _ in range(n)]
        self.cash = [0] * n
        self.minted = 0  # net money paid out by the (unlimited) Banker
        self.pos = [0] * n
        self.total = 0
        self.double = False
        self.seats = list(range(n))  # players still in the game
        self.in_jail = [False] * n
        self.jail_tries = [0] * n
        self.card_offered_on = [0] * n
        self.owner: list[int | None] = [None] * SIZE
        self.titles: list[list[int]] = [[] for _ in range(n)]  # sorted, like the interpreter's
        self.houses = [0] * SIZE
        self.mortgaged = [False] * SIZE
        self.offered_on = [0] * SIZE
        self.jail_cards: list[list[int]] = [[] for _ in range(n)]
        self.card_holder: list[int | None] = [None] * len(CARDS)
        self.chance = list(range(len(CHANCE_CARDS)))
        self.chest = list(range(len(CHANCE_CARDS), len(CARDS)))
        self.short: set[int] = set()  # seats whose shortfall is being settled
        self.shortfalls = 0
        self.turn = 0
        self.current = 0
        self.next_seat = 0
        self.over = False
        self.end_reason = ""
        self.land_fn = [None] * SIZE
        for i, k in enumerate(KIND):
            self.land_fn[i] = {
                LOT: self.land_lot,
                RAILROAD: self.land_railroad,
                UTILITY: self.land_utility,
                CHANCE: self.land_chance,
                CHEST: self.land_chest,
                INCOME_TAX: self.land_income_tax,
                LUXURY_TAX: self.land_luxury_tax,
                GO_TO_JAIL: self.land_go_to_jail,
            }.get(k)

    # ----------------------------------------------------------- money
    def pay(self, seat: int, amount: int, to: int) -> None:
        """`seat` pays `amount` to a seat or the BANK; short of money, he raises
        cash or goes bankrupt, and what he still cannot pay is lost."""
        if amount <= 0 or to == seat:
            return
        cash = self.cash
        if cash[seat] < amount:
            if seat not in self.short:
                self.short.add(seat)
                self.shortfalls += 1
                try:
                    self.shortfall(seat, amount, to)
                finally:
                    self.shortfalls -= 1
                    self.short.discard(seat)
            if cash[seat] < amount:
                amount = max(cash[seat], 0)
                if amount == 0:
                    self.check_left(seat)
                    return
        cash[seat] -= amount
        if to >= 0:
            cash[to] += amount
        else:
            self.minted -= amount
        self.check_left(seat)

    def check_left(self, seat: int) -> None:
        """A current player who went bankrupt paying takes no further part in his turn."""
        if seat == self.current and not self.shortfalls and seat not in self.seats:
            raise TurnOver

    def receive(self, seat: int, amount: int) -> None:
        """`seat` takes `amount` from the Banker."""
        self.cash[seat] += amount
        self.minted += amount

    def choose(self, seat: int, options) -> int:
        """Ask `seat`'s bot; a single option is taken without asking, as the interpreter does."""
        return self.bots[seat].choose(self.cash[seat], options) if len(options) > 1 else 0

    def offer(self, seat: int, options: list, acts: list, done: bool = True):
        """One round of an `offer`: return the act picked, or None when there is nothing to offer
        or the player is done (the option the interpreter adds last, only if `done`)."""
        if not options:
            return None
        if done:
            options.append((0, 0))
        answer = self.choose(seat, options)
        return acts[answer] if answer < len(acts) else None

    # -------------------------------------------------------- holdings
    def give_title(self, space: int, seat: int | None) -> None:
        previous = self.owner[space]
        self.owner[space] = seat
        if previous is not None:
            self.titles[previous].remove(space)
        if seat is not None:
            titles = self.titles[seat]
            titles.append(space)
            titles.sort()

    def give_card(self, card: int, seat: int | None) -> None:
        previous = self.card_holder[card]
        self.card_holder[card] = seat
        if previous is not None:
            self.jail_cards[previous].remove(card)
        if seat is not None:
            hand = self.jail_cards[seat]
            hand.append(card)
            hand.sort()

    def return_card(self, card: int) -> None:
        """Give a Get out of Jail card back to the bottom of its deck."""
        self.give_card(card, None)
        (self.chance if card < len(CHANCE_CARDS) else self.chest).append(card)

    def count_owned(self, seat: int, group) -> int:
        owner = self.owner
        return sum(1 for s in group if owner[s] == seat)

    def owns_all(self, seat: int, group) -> bool:
        owner = self.owner
        for s in group:
            if owner[s] != seat:
                return False
        return True

    def wanted_by_a_rival(self, seat: int, space: int) -> bool:
        """`seat`'s one lot of a group another player owns the rest of (the bots' hint to sell it)."""
        if not IS_LOT[space]:
            return False
        owners = [self.owner[s] for s in COLOR[space]]
        return owners.count(seat) == 1 and None not in owners and len(set(owners)) == 2

    def trade_price(self, space: int) -> int:
        return TRADE_PRICE[space] - (REDEEM[space] if self.mortgaged[space] else 0)

    def can_build(self, seat: int, space: int) -> bool:
        houses = self.houses
        level = houses[space]
        if not IS_LOT[space] or level >= HOTEL or self.mortgaged[space] or self.owner[space] != seat:
            return False
        group = COLOR[space]
        if not self.owns_all(seat, group):
            return False
        for s in group:
            if level > houses[s]:
                return False
        return True

    def can_tear_down(self, space: int) -> bool:
        houses = self.houses
        level = houses[space]
        if not IS_LOT[space] or level == 0:
            return False
        for s in COLOR[space]:
            if level < houses[s]:
                return False
        return True

    # ------------------------------------------------- short of money
    def shortfall(self, seat: int, due: int, creditor: int) -> None:
        """BANKRUPTCY RULES: sell, mortgage or tear down while anything is left to raise; else go bankrupt."""
        cash, houses, mortgaged = self.cash, self.houses, self.mortgaged
        for _ in range(MAX_OFFER_ROUNDS):
            if cash[seat] >= due:
                break
            turn = self.turn
            options, acts = [], []
            titles = self.titles[seat]
            for s in titles:
                if houses[s] == 0 and self.offered_on[s] != turn:
                    options.append((0, self.trade_price(s) + 200 if self.wanted_by_a_rival(seat, s) else -1))
                    acts.append((SELL, s))
            if self.card_offered_on[seat] != turn:
                for c in self.jail_cards[seat]:
                    options.append((0, JAIL_CARD_PRICE + 200))
                    acts.append((SELL_CARD, c))
            for s in titles:
                if not mortgaged[s] and houses[s] == 0:
                    options.append((0, MORTGAGE[s] + 200))
                    acts.append((MORTGAGE_IT, s))
            for s in titles:
                if self.can_tear_down(s):
                    options.append((0, HOUSE_PRICE[s] // 2))
                    acts.append((TEAR_DOWN, s))
            # `done when player.cash >= due`: never offered here, the loop stops first
            picked = self.offer(seat, options, acts, done=False)
            if picked is None:
                break
            act, x = picked
            if act == SELL:
                self.offer_for_sale(x)
            elif act == SELL_CARD:
                self.offer_card_for_sale(x, seat)
            elif act == MORTGAGE_IT:
                self.receive(seat, MORTGAGE[x])
                mortgaged[x] = True
            else:
                self.receive(seat, HOUSE_PRICE[x] // 2)
                houses[x] -= 1
        if cash[seat] < due and seat in self.seats:
            self.bankrupt(seat, creditor)

    def bankrupt(self, seat: int, creditor: int) -> None:
        """Everything to the creditor player; or to the Banker, who clears the lots and auctions them."""
        lots = list(self.titles[seat])
        self.seats.remove(seat)
        if creditor >= 0:
            for s in lots:
                self.give_title(s, creditor)
            for c in list(self.jail_cards[seat]):
                self.give_card(c, creditor)
        else:
            for c in list(self.jail_cards[seat]):
                self.return_card(c)
            for s in lots:
                self.houses[s] = 0
                self.mortgaged[s] = False
                self.give_title(s, None)
            for s in lots:
                if self.owner[s] is None:
                    self.auction(s)

    # ------------------------------------------------------------ trading
    def offer_for_sale(self, space: int) -> None:
        """The owner offers a property at trade_price; the first other player (seat order) who accepts buys it."""
        self.offered_on[space] = self.turn
        seller = self.owner[space]
        price = self.trade_price(space)
        owner, cash = self.owner, self.cash
        for q in list(self.seats):
            if seller is not None and q != seller and owner[space] == seller and cash[q] >= price:
                completes = IS_LOT[space] and self.count_owned(q, COLOR[space]) == len(COLOR[space]) - 1
                if self.choose(q, ((price, price + PRICE[space] if completes else 0), (0, 0))) == 0:
                    self.pay(q, price, seller)
                    self.give_title(space, q)

    def offer_card_for_sale(self, card: int, seat: int) -> None:
        self.card_offered_on[seat] = self.turn
        seller = self.card_holder[card]
        cash = self.cash
        for q in list(self.seats):
            if seller is not None and q != seller and self.card_holder[card] == seller and cash[q] >= JAIL_CARD_PRICE:
                if self.choose(q, ((JAIL_CARD_PRICE, JAIL_FINE + 10), (0, 0))) == 0:
                    self.pay(q, JAIL_CARD_PRICE, seller)
                    self.give_card(card, q)

    # ------------------------------------------------------------ moving
    def roll(self) -> None:
        d1, d2 = self.randint(1, 6), self.randint(1, 6)
        self.total, self.double = d1 + d2, d1 == d2

    def advance(self, seat: int, steps: int) -> None:
        """Move forward, collecting the salary on passing or reaching GO, then land."""
        start = self.pos[seat]
        self.pos[seat] = (start + steps) % SIZE
        if ((-start) % SIZE or SIZE) <= steps:
            self.receive(seat, SALARY)
        land = self.land_fn[self.pos[seat]]
        if land is not None:
            land(seat)

    def move_to(self, seat: int, dest: int) -> None:
        distance = (dest - self.pos[seat]) % SIZE
        if distance:
            self.advance(seat, distance)
        else:
            self.relocate(seat, dest)

    def relocate(self, seat: int, dest: int) -> None:
        self.pos[seat] = dest
        land = self.land_fn[dest]
        if land is not None:
            land(seat)

    def send_to_jail(self, seat: int) -> None:
        self.pos[seat] = JAIL
        self.in_jail[seat] = True
        self.jail_tries[seat] = 0

    # ------------------------------------------------------------ spaces
    def auction(self, space: int) -> None:
        """The Banker's auction: from $5, raises of $5, every player still in the game may bid."""
        current, n = self.current, self.n
        bidders = sorted(self.seats, key=lambda s: (s - current) % n)
        high, high_bidder = bid_up(bidders, self.cash, self.bots, OPENING_BID, MIN_RAISE, PRICE[space])
        if high_bidder is not None:
            self.pay(high_bidder, high, BANK)
            self.give_title(space, high_bidder)

    def buy_or_auction(self, seat: int, here: int) -> bool:
        """Offer an unowned property at its price, else auction it; return whether it was for sale."""
        if self.owner[here] is not None:
            return False
        price = PRICE[here]
        if self.cash[seat] >= price:
            answer = self.choose(seat, ((price, price + price // 4), (0, 0)))
        else:
            answer = 1
        if answer == 0:
            self.pay(seat, price, BANK)
            self.give_title(here, seat)
        else:
            self.auction(here)
        return True

    def land_lot(self, seat: int) -> None:
        here = self.pos[seat]
        if self.buy_or_auction(seat, here):
            return
        owner = self.owner[here]
        if owner is not None and owner != seat and not self.mortgaged[here]:
            houses = self.houses[here]
            if houses:
                rent = RENTS[here][houses]
            elif self.owns_all(owner, COLOR[here]):
                rent = 2 * RENTS[here][0]
            else:
                rent = RENTS[here][0]
            self.pay(seat, rent, owner)

    def land_railroad(self, seat: int) -> None:
        here = self.pos[seat]
        if self.buy_or_auction(seat, here):
            return
        owner = self.owner[here]
        if owner is not None and owner != seat and not self.mortgaged[here]:
            self.pay(seat, RAILROAD_FARE[self.count_owned(owner, RAILROADS)], owner)

    def land_utility(self, seat: int) -> None:
        here = self.pos[seat]
        if self.buy_or_auction(seat, here):
            return
        owner = self.owner[here]
        if owner is not None and owner != seat and not self.mortgaged[here]:
            self.roll()
            self.pay(seat, UTILITY_MULTIPLIER[self.count_owned(owner, UTILITIES)] * self.total, owner)

    def land_chance(self, seat: int) -> None:
        self.draw(seat, self.chance)

    def land_chest(self, seat: int) -> None:
        self.draw(seat, self.chest)

    def land_income_tax(self, seat: int) -> None:
        houses = self.houses
        wealth = self.cash[seat] + sum(MORTGAGE[s] + houses[s] * HOUSE_PRICE[s] for s in self.titles[seat])
        self.pay(seat, wealth * INCOME_TAX_PCT // 100, BANK)

    def land_luxury_tax(self, seat: int) -> None:
        self.pay(seat, LUXURY_TAX_AMOUNT, BANK)

    def land_go_to_jail(self, seat: int) -> None:
        self.send_to_jail(seat)

    def draw(self, seat: int, deck: list[int]) -> None:
        """Take the top card and follow it; it goes to the bottom unless kept,
        also when following it bankrupts the player and ends his turn."""
        card = deck.pop(0)
        try:
            self.follow(seat, card)
        finally:
            if self.card_holder[card] is None and card not in deck:
                deck.append(card)

    def follow(self, seat: int, card: int) -> None:
        effect = CARDS[card]
        what = effect[0]
        if what == "to":
            self.move_to(seat, effect[1])
        elif what == "back":
            self.relocate(seat, (self.pos[seat] - effect[1]) % SIZE)
        elif what == "jail":
            self.send_to_jail(seat)
        elif what == "keep":
            self.give_card(card, seat)
        elif what == "get":
            self.receive(seat, effect[1])
        elif what == "pay":
            self.pay(seat, effect[1], BANK)
        elif what == "repairs":
            houses = hotels = 0
            for s in self.titles[seat]:
                level = self.houses[s]
                if level == HOTEL:
                    hotels += 1
                else:
                    houses += level
            self.pay(seat, effect[1] * houses + effect[2] * hotels, BANK)
        else:  # collect_each
            for p in list(self.seats):
                if p != seat:
                    self.pay(p, effect[1], seat)

    # ------------------------------------------------------------- set-up
    def setup(self) -> None:
        for p in range(self.n):
            self.receive(p, START_CASH)
        self.rng.shuffle(self.chance)
        self.rng.shuffle(self.chest)
        # The high scorer of a throw moves first; ties throw again, five rounds at most.
        contenders = list(self.seats)
        throws = [0] * self.n
        for _ in range(5):
            if len(contenders) > 1:
                best = 0
                for p in contenders:
                    self.roll()
                    throws[p] = self.total
                    best = max(best, self.total)
                contenders = [p for p in contenders if throws[p] == best]
        self.next_seat = contenders[0]

    # -------------------------------------------------------------- turns
    def jail_turn(self, seat: int) -> bool:
        """Card, fine or a throw for a double; return True if the player is free to throw and move."""
        hand = self.jail_cards[seat]
        options, acts = [], []
        if CHANCE_JAIL_CARD in hand:
            options.append((0, JAIL_FINE + 20))
            acts.append(CHANCE_JAIL_CARD)
        if CHEST_JAIL_CARD in hand:
            options.append((0, JAIL_FINE + 20))
            acts.append(CHEST_JAIL_CARD)
        if self.cash[seat] >= JAIL_FINE:
            options.append((JAIL_FINE, JAIL_FINE + 10))
            acts.append(-1)
        options.append((0, 0))
        answer = self.choose(seat, options)
        if answer < len(acts):
            if acts[answer] >= 0:
                self.return_card(acts[answer])
            else:
                self.pay(seat, JAIL_FINE, BANK)
            self.in_jail[seat] = False
        if not self.in_jail[seat]:
            self.jail_tries[seat] = 0
            return True
        self.roll()
        if self.double:
            self.in_jail[seat] = False
            self.jail_tries[seat] = 0
            self.advance(seat, self.total)
        else:
            self.jail_tries[seat] += 1
            if self.jail_tries[seat] >= JAIL_TRIES_MAX:
                self.pay(seat, JAIL_FINE, BANK)
                self.in_jail[seat] = False
                self.jail_tries[seat] = 0
                if seat in self.seats:
                    self.advance(seat, self.total)
        return False

    def move(self, seat: int) -> None:
        """Up to three throws: a double throws again, a third double goes to Jail."""
        again = True
        for throw in (1, 2, 3):
            if again and not self.in_jail[seat]:
                self.roll()
                again = self.double
                if again and throw == 3:
                    again = False
                    self.send_to_jail(seat)
                else:
                    self.advance(seat, self.total)

    def improve(self, seat: int) -> None:
        """Once a turn: build, redeem, tear down or mortgage, until the player is done."""
        cash, houses, mortgaged = self.cash, self.houses, self.mortgaged
        for _ in range(MAX_OFFER_ROUNDS):
            money = cash[seat]
            titles = self.titles[seat]
            options, acts = [], []
            for s in titles:
                if money >= HOUSE_PRICE[s] and self.can_build(seat, s):
                    options.append((HOUSE_PRICE[s], 2 * HOUSE_PRICE[s]))
                    acts.append((BUILD, s))
            for s in titles:
                if mortgaged[s] and money >= REDEEM[s]:
                    options.append((REDEEM[s], REDEEM[s] + 10))
                    acts.append((REDEEM_IT, s))
            for s in titles:
                if self.can_tear_down(s):
                    options.append((0, HOUSE_PRICE[s] // 2 - HOUSE_PRICE[s]))
                    acts.append((TEAR_DOWN, s))
            for s in titles:
                if not mortgaged[s] and houses[s] == 0:
                    options.append((0, MORTGAGE[s] - REDEEM[s]))
                    acts.append((MORTGAGE_IT, s))
            picked = self.offer(seat, options, acts)
            if picked is None:
                return
            act, s = picked
            if act == BUILD:
                self.pay(seat, HOUSE_PRICE[s], BANK)
                houses[s] += 1
            elif act == REDEEM_IT:
                self.pay(seat, REDEEM[s], BANK)
                mortgaged[s] = False
            elif act == TEAR_DOWN:
                self.receive(seat, HOUSE_PRICE[s] // 2)
                houses[s] -= 1
            else:
                self.receive(seat, MORTGAGE[s])
                mortgaged[s] = True

    def trade(self, seat: int) -> None:
        """Once a turn: offer properties without buildings (and Get out of Jail cards) to the others."""
        for _ in range(MAX_OFFER_ROUNDS):
            turn = self.turn
            options, acts = [], []
            for s in self.titles[seat]:
                if self.houses[s] == 0 and self.offered_on[s] != turn:
                    options.append((0, self.trade_price(s) - PRICE[s] if self.wanted_by_a_rival(seat, s) else -1))
                    acts.append((SELL, s))
            if self.card_offered_on[seat] != turn:
                for c in self.jail_cards[seat]:
                    options.append((0, -1))
                    acts.append((SELL_CARD, c))
            picked = self.offer(seat, options, acts)
            if picked is None:
                return
            act, x = picked
            if act == SELL:
                self.offer_for_sale(x)
            else:
                self.offer_card_for_sale(x, seat)

    def play_turn(self) -> None:
        seat = self.current = self.next_seat
        self.turn += 1
        try:
            if not self.in_jail[seat] or self.jail_turn(seat):
                self.move(seat)
            self.improve(seat)
            self.trade(seat)
        except TurnOver:
            pass
        self.next_seat = self.seat_after(seat)
        if len(self.seats) == 1:
            self.over, self.end_reason = True, "end condition (last_player_standing)"
        elif self.turn >= TURN_LIMIT:
            self.over, self.end_reason = True, f"turn limit ({TURN_LIMIT})"

    def seat_after(self, seat: int) -> int:
        seats = self.seats
        for step in range(1, self.n + 1):
            candidate = (seat + step) % self.n
            if candidate in seats:
                return candidate
        return seat

    def play(self) -> Result:
        self.setup()
        while not self.over:
            self.play_turn()
        return self.result()

    # -------------------------------------------------------- scoring
    def net_worth(self, seat: int) -> int:
        """Cash, plus price of titles and buildings, less what redeeming mortgages would cost."""
        houses, mortgaged = self.houses, self.mortgaged
        return self.cash[seat] + sum(
            PRICE[s] + houses[s] * HOUSE_PRICE[s] - (REDEEM[s] if mortgaged[s] else 0) for s in self.titles[seat]
        )

    def result(self) -> Result:
        return Result.ranked(self.turn, self.n, self.end_reason, tuple(self.net_worth(p) for p in range(self.n)))

    def conserved(self) -> bool:
        """Money only enters or leaves through the Banker, and nobody's cash is negative."""
        return sum(self.cash) == self.minted and min(self.cash) >= 0


def main(argv=None) -> int:
    return baseline_common.main(Game, "The hand-written 1933 baseline simulator.", argv)


if __name__ == "__main__":
    raise SystemExit(main())
