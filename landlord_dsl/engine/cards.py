"""Engine stage: title deeds and cards changing hands, decks, drawing and dealing.

`Cards` is a part of `engine.Game`: who holds each card (and so owns each
title), returning a card to a deck, drawing one and running its effect, and
dealing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..program.control import MAX_NESTING

if TYPE_CHECKING:
    from ..core.errors import RuleRuntimeError
    from ..program.compiled import Program


class Cards:
    """The cards and decks of `engine.Game` (a mixin: the game's state lives in Game)."""

    if TYPE_CHECKING:
        prog: Program
        holder: list[int | None]
        hands: list[list[int]]
        owner: list[int | None]
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
            hand = self.hands[seat]
            hand.append(card)
            if len(hand) > 1 and hand[-2] > card:
                hand.sort()
        space = self.prog.card_space[card]
        if space is not None:
            self.owner[space] = seat
            if previous is not None:
                self.titles[previous].remove(space)
            if seat is not None:
                self.titles[seat].append(space)
                self.titles[seat].sort()
        if previous is None and seat is not None:
            home = self.decks.get(self.prog.card_deck[card])  # where it is most often: its own deck
            if home is not None and card in home:
                home.remove(card)
            else:
                for deck in self.decks.values():  # wherever it was returned to
                    if card in deck:
                        deck.remove(card)
                        break
        self.log.append(("card", self.turn, card, previous, seat, self.rule))

    def return_card(self, card: int, deck: str) -> None:
        if self.holder[card] is not None:
            self.set_holder(card, None)
        else:
            for cards in self.decks.values():  # a card in a pack moves to the other pack
                if card in cards:
                    cards.remove(card)
                    break
        self.decks[deck].append(card)

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
        saved_card = self.card
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
            self._put_away(card, deck)

    def _put_away(self, card: int, deck: str) -> None:
        """Once a drawn card's effect has run: the drawer keeps it (a kept deck), else it goes under its deck,
        unless the effect has already given it to someone or put it back."""
        cards = self.decks[deck]
        if self.holder[card] is None and card not in cards:
            if self.prog.deck_kept[deck] and self.actor in self.seats:
                self.set_holder(card, self.actor)
            else:
                cards.append(card)

    def deal(self, count: int, deck: str) -> None:
        cards = self.decks[deck]
        for i in range(min(count, len(cards))):
            self.set_holder(cards[0], self.seats[i % len(self.seats)])
