"""Engine stage: title deeds and cards changing hands, decks, drawing and dealing.

`Cards` is a part of `engine.Game`: who holds each card (and so owns each
title), returning a card to a deck, drawing one and running its effect, and
dealing.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING, Any

from ..program.control import MAX_NESTING

if TYPE_CHECKING:
    from ..core.errors import RuleRuntimeError
    from ..program.compiled import Program


class Cards:
    """The cards and decks of `engine.Game` (a mixin: the game's state lives in Game)."""

    if not TYPE_CHECKING:  # (mypy would have the mixin declare the fields it sets: they are Game's)
        __slots__ = ()

    if TYPE_CHECKING:
        prog: Program
        holder: list[int | None]
        hands: list[list[int]]
        # the cards a rule has put into a deck so far (`return_card`): a drawn card is looked for in every deck
        # only if this changed while its effect ran (`_put_away`); a game counts from 0 (saves and forks too)
        returns: int
        owner: list[int | None]
        n: int
        gcount: list[list[int]]
        gcount_at: list[list[list[int] | None]]
        gfull: list[list[list[int]]]
        gkept: list[list[list[int]]]
        titles: list[list[int]]
        decks: dict[str, list[int]]
        seats: list[int]
        actor: int
        turn: int
        rule: int
        depth: int
        card: int | None
        log: list[tuple]

        def fail(self, message: str, span: Any = None, hint: str | None = None) -> RuleRuntimeError: ...

    def set_holder(self, card: int, seat: int | None) -> None:
        """Give a card to a player (None: to nobody), taking it out of any deck."""
        previous = self.holder[card]
        self.holder[card] = seat
        if previous is not None:
            self.hands[previous].remove(card)
        if seat is not None:
            insort(self.hands[seat], card)
        prog = self.prog
        space = prog.card_space[card]
        if space is not None:
            self.owner[space] = seat
            if previous is not None:
                self.titles[previous].remove(space)
            if seat is not None:
                insort(self.titles[seat], space)
            for k in prog.counted_of[space]:  # (previous is the space's owner until now)
                counts = self.gcount[k]
                if previous is None:
                    counts[-1] -= 1
                else:
                    counts[previous] -= 1
                    if not counts[previous]:
                        counts[-2] -= 1
                if seat is None:
                    counts[-1] += 1
                else:
                    if not counts[seat]:
                        counts[-2] += 1
                    counts[seat] += 1
            if prog.keeps_titles:  # (the counts are new)
                if prog.complete_fields:  # (only these two seats' complete titles can change)
                    gcount = self.gcount
                    if previous is not None:
                        for k, size, member in prog.complete_of[space]:
                            if gcount[k][previous] + member == size:  # it owned k whole, or the space left k's
                                self.complete_titles(previous)
                                break
                    if seat is not None:
                        for k, size, _ in prog.complete_of[space]:
                            if gcount[k][seat] == size:  # it owns k whole now, or the space joined k's
                                self.complete_titles(seat)
                                break
                if prog.kept_tests:
                    self.keep_titles(space, previous, seat)
        if previous is None and seat is not None:
            home = self.decks.get(prog.card_deck[card])  # where it is most often: its own deck
            if home is None or card not in home:
                home = self._deck_holding(card)  # (wherever it was returned to)
            if home is not None:
                home.remove(card)
        self.log.append(("card", self.turn, card, previous, seat, self.rule))

    def count_groups(self) -> None:
        """Count the owners of every group the generated code reads so (Program.counted_groups), from the
        owners as they are now: `gcount[k]` holds, for group k, the spaces each seat owns (by seat), then how
        many distinct seats own some, then how many spaces nobody owns; `gcount_at[f][s]` is the counts of
        space s's group under the counted field f (the same list); `gfull` and `gkept` the seats' titles in
        groups they own whole and passing each kept test (Program.complete_fields, kept_tests). `set_holder`
        keeps them up to date; whatever replaces the owners wholesale calls this again."""
        owner, n = self.owner, self.n
        self.gcount = gcount = []
        for spaces in self.prog.counted_groups:
            counts = [0] * (n + 2)
            for space in spaces:
                seat = owner[space]
                counts[-1 if seat is None else seat] += 1
            counts[-2] = sum(1 for seat in range(n) if counts[seat])
            gcount.append(counts)
        self.gcount_at = [[None if k is None else gcount[k] for k in column] for column in self.prog.counted_fields]
        if not self.prog.keeps_titles:
            self.gfull, self.gkept = [], []
            return
        self.gfull = [[[] for _ in range(n)] for _ in self.prog.complete_fields]
        if self.gfull:
            for seat in range(n):
                self.complete_titles(seat)
        self.gkept = [
            [[space for space in self.titles[seat] if self.kept_test_holds(j, space, seat)] for seat in range(n)]
            for j in range(len(self.prog.kept_tests))
        ]

    def kept_test_holds(self, j: int, space: int, seat: int) -> bool:
        """Return whether the kept test j (Program.kept_tests) holds of the space's title, owned by the seat, by
        the counts of its group's owners as they are now."""
        field, tests = self.prog.kept_tests[j]
        test = tests[space]
        if test.__class__ is bool:
            return test
        counts = self.gcount_at[field][space]
        assert counts is not None  # (a space without a group under the field has a value for its test)
        return (counts[seat], counts[-2], counts[-1]) in test  # type: ignore[operator]

    def keep_titles(self, space: int, previous: int | None, seat: int | None) -> None:
        """Bring the titles the seats keep for each kept test (`gkept`) up to date after the space's title changed
        hands from `previous` to `seat` (the counts are new): the test of a title reads only the counts of its
        group, so only the titles of the space's group (the space's own alone where it has none) can change. A
        seat's list that changes is replaced (a new list: one a loop holds is left as it was)."""
        owner, gcount, gkept = self.owner, self.gcount, self.gkept
        for j, k, members, tests in self.prog.kept_of[space]:
            kept = gkept[j]
            if previous is not None and space in kept[previous]:
                kept[previous] = [other for other in kept[previous] if other != space]
            if k is None:  # (its test is a truth value)
                if seat is not None and tests[space]:
                    kept[seat] = sorted([*kept[seat], space])
                continue
            counts = gcount[k]
            distinct, nobody = counts[-2], counts[-1]
            for member in members:
                other = owner[member]
                if other is not None:
                    titles = kept[other]
                    if ((counts[other], distinct, nobody) in tests[member]) is not (member in titles):
                        if member in titles:
                            kept[other] = [title for title in titles if title != member]
                        else:
                            kept[other] = sorted([*titles, member])

    def complete_titles(self, seat: int) -> None:
        """Work out again, for each complete field (Program.complete_fields), the seat's titles whose group
        under that field it owns whole, in board order (`gfull[j][seat]`, a new list: one a loop holds is left
        as it was)."""
        prog, gcount, titles = self.prog, self.gcount, self.titles[seat]
        groups, fields = prog.counted_groups, prog.counted_fields
        for j, field in enumerate(prog.complete_fields):
            column = fields[field]
            self.gfull[j][seat] = [
                space for space in titles if (k := column[space]) is not None and gcount[k][seat] == len(groups[k])
            ]

    def counted_group_problems(self) -> list[str]:
        """Return how the kept counts of the groups' owners, the seats' titles in groups they own whole and their
        titles passing each kept test (count_groups), differ from working them out afresh."""
        problems = []
        for k, spaces in enumerate(self.prog.counted_groups):
            owners = [self.owner[space] for space in spaces]
            fresh = [owners.count(seat) for seat in range(self.n)]
            fresh += [len(set(owners) - {None}), owners.count(None)]
            if self.gcount[k] != fresh:
                problems.append(f"the owners of group {k} {spaces} are counted {self.gcount[k]}, not {fresh}")
        for f, column in enumerate(self.prog.counted_fields):
            for space, number in enumerate(column):
                if (self.gcount_at[f][space] is not None) != (number is not None) or (
                    number is not None and self.gcount_at[f][space] is not self.gcount[number]
                ):
                    problems.append(f"space {space} under counted field {f} reads the counts of another group")
        for j, field in enumerate(self.prog.complete_fields):
            column = self.prog.counted_fields[field]
            for seat in range(self.n):
                fresh = [
                    space
                    for space in self.titles[seat]
                    if (number := column[space]) is not None
                    and all(self.owner[other] == seat for other in self.prog.counted_groups[number])
                ]
                if self.gfull[j][seat] != fresh:
                    problems.append(
                        f"seat {seat}'s titles in groups it owns whole under counted field {field} are kept "
                        f"{self.gfull[j][seat]}, not {fresh}"
                    )
        for j in range(len(self.prog.kept_tests)):
            for seat in range(self.n):
                fresh = [space for space in self.titles[seat] if self.kept_test_holds(j, space, seat)]
                if self.gkept[j][seat] != fresh:
                    problems.append(
                        f"seat {seat}'s titles passing kept test {j} are kept {self.gkept[j][seat]}, not {fresh}"
                    )
        return problems

    def return_card(self, card: int, deck: str) -> None:
        if self.holder[card] is not None:
            self.set_holder(card, None)
        else:
            cards = self._deck_holding(card)  # (a card in a pack moves to the other pack)
            if cards is not None:
                cards.remove(card)
        self.decks[deck].append(card)
        self.returns += 1

    def draw(self, deck: str) -> None:
        cards = self.decks[deck]
        if not self.prog.deck_enabled[deck](self):
            return
        if not cards:
            self.log.append(("empty", self.turn, deck, self.rule))
            return
        card = cards.pop(0)
        self.log.append(("draw", self.turn, self.actor, card, self.rule))
        effect = self.prog.card_effects[card]
        saved_card, returns = self.card, self.returns
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.fail("rules trigger each other too deeply (an endless chain of moves or draws?)")
        try:
            self.card = card
            effect(self)
        finally:
            # Also when the effect ends the turn (the drawer went bankrupt, or `end turn`):
            # the card is put away before the turn unwinds, never lost.
            self.depth -= 1
            self.card = saved_card
            self._put_away(card, deck, self.returns != returns)

    def _put_away(self, card: int, deck: str, returned: bool = True) -> None:
        """Once a drawn card's effect has run: the drawer keeps it (a kept deck), else it goes under its deck,
        unless the effect has already given it to someone or put it into a deck (its own or another: looked
        for only where a rule put a card into a deck meanwhile, `returned`)."""
        if self.holder[card] is not None:
            return
        if card in self.decks[deck] or (returned and self._deck_holding(card) is not None):
            return
        if self.prog.deck_kept[deck] and self.actor in self.seats:
            self.set_holder(card, self.actor)
        else:
            self.decks[deck].append(card)

    def _deck_holding(self, card: int) -> list[int] | None:
        """Return the deck (its list of cards) `card` lies in, or None where it lies in none."""
        for cards in self.decks.values():
            if card in cards:
                return cards
        return None

    def deal(self, count: int, deck: str) -> None:
        cards = self.decks[deck]
        for i in range(min(count, len(cards))):
            self.deal_top(cards, i)

    def deal_top(self, cards: list[int], i: int) -> None:
        """Give the top card of `cards` (a deck's) to the player the `i`-th card of a deal goes to: the seats
        in turn, from the first."""
        self.set_holder(cards[0], self.seats[i % len(self.seats)])
