"""Engine stage: the invariants every game state keeps.

`invariant_problems` lists what is broken in a game's state; tests and the
property checks call it after every turn, and restoring a saved game
refuses a state for which it finds anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def invariant_problems(game: Game) -> list[str]:
    """Return every broken invariant of the game's state (an empty list when all hold).

    Money is conserved; no finite account is negative; every title deed's
    holder is its space's owner and each seat's title list matches; every
    card is either in exactly one deck or held, never both, and no card
    that started in a deck has been lost; positions are on the board; the
    seats still playing are real seats; the counts of the groups' owners that
    the generated code reads are those of the owners.
    """
    problems = []
    if not game.conserved():
        problems.append(
            f"money not conserved: finite accounts hold {game.finite_total()}, "
            f"{game.minted} came in from unlimited accounts"
        )
    for index, (balance, finite) in enumerate(zip(game.bal, game.finite)):
        if finite and balance < 0:
            name = game.names[index - game.nacc] if index >= game.nacc else game.prog.account_labels[index]
            problems.append(f"{name} has a negative balance ({balance})")
    for space, card in enumerate(game.prog.title_card):
        if card is not None and game.owner[space] != game.holder[card]:
            problems.append(f"{game.space_name(space)}: owner {game.owner[space]} but deed held by {game.holder[card]}")
    for seat in range(game.n):
        owned = sorted(s for s, o in enumerate(game.owner) if o == seat)
        if game.titles[seat] != owned:
            problems.append(f"seat {seat + 1}'s title list {game.titles[seat]} is not what it owns {owned}")
        held = [card for card, holder in enumerate(game.holder) if holder == seat]
        if game.hands[seat] != held:
            problems.append(f"seat {seat + 1}'s hand {game.hands[seat]} is not the cards it holds {held}")
    placed: dict[int, str] = {}
    for deck, cards in game.decks.items():
        for card in cards:
            if card in placed:
                problems.append(f"card {game.prog.card_names[card]} is in {placed[card]} and {deck}")
            placed[card] = deck
            if game.holder[card] is not None:
                problems.append(f"card {game.prog.card_names[card]} is in deck {deck} and held by a player")
    for cards in game.prog.deck_cards.values():
        for card in cards:
            if card not in placed and game.holder[card] is None:
                problems.append(f"card {game.prog.card_names[card]} is in no deck and held by nobody: lost")
    problems += game.counted_group_problems()
    if any(not 0 <= p < game.board_size for p in game.pos):
        problems.append(f"a position is off the board: {game.pos}")
    if any(not 0 <= s < game.n for s in game.seats):
        problems.append(f"unknown seats in play: {game.seats}")
    return problems
