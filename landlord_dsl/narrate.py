"""Turning a game's event log into sentences a person can follow."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .program import RECONSTRUCTED_CARD
from .control import MAX_OFFER_ROUNDS
from .errors import visible

if TYPE_CHECKING:
    from .engine import Game


def _party(game: Game, index: int) -> str:
    """Name a ledger index: a player or a declared account."""
    if index >= game.nacc:
        return game.names[index - game.nacc]
    return game.prog.account_labels[index]


def describe_event(game: Game, event: tuple) -> str | None:
    """Return one log event as a sentence, control characters shown as escapes; None for events not worth telling."""
    text = _describe(game, event)
    if text is None:
        return None
    # a sentence that ends on a name like "R. R." keeps one full stop
    text = text[:-1] if text.endswith("..") else text
    body = text.lstrip("\n")  # the blank line before a turn is ours; labels and texts from the rules are not
    return text[:len(text) - len(body)] + visible(body)


def _describe(game: Game, event: tuple) -> str | None:
    kind = event[0]
    names = game.names
    space = game.prog.space_labels
    rule = lambda i: game.rule_name(i)  # noqa: E731
    if kind == "turn":
        _, turn, seat = event
        return f"\n-- Turn {turn}: {names[seat]} --"
    if kind == "roll":
        _, _, seat, dice, _ = event
        double = " (a double)" if len(dice) > 1 and len(set(dice)) == 1 else ""
        return f"{names[seat]} throws {' + '.join(map(str, dice))} = {sum(dice)}{double}."
    if kind == "move":
        _, _, seat, start, dest, r = event
        return f"{names[seat]} moves from {space[start]} to {space[dest]}."
    if kind == "send":
        _, _, seat, start, dest, r = event
        return f"{names[seat]} is sent to {space[dest]} [{rule(r)}]."
    if kind == "pay":
        _, _, amount, src, dst, r = event
        return f"{_party(game, src)} pays {amount} to {_party(game, dst)} [{rule(r)}]."
    if kind == "unpaid":
        _, _, seat, amount, dst, r = event
        return f"{names[seat]} cannot pay {amount} to {_party(game, dst)} [{rule(r)}]."
    if kind == "card":
        _, _, card, _, after, r = event
        what = game.prog.card_texts[card]
        if after is None:
            return f"{what} goes back to the pack [{rule(r)}]."
        return f"{names[after]} now holds {what} [{rule(r)}]."
    if kind == "draw":
        _, _, seat, card, r = event
        invented = f" (a {RECONSTRUCTED_CARD})" if game.prog.card_reconstructed[card] else ""
        return f"{names[seat]} draws: \"{game.prog.card_texts[card]}\"{invented}."
    if kind == "decide":
        _, _, seat, prompt, option, r = event
        return f"{names[seat]}: {prompt} -> {option}."
    if kind == "next":
        _, _, seat, r = event
        return f"{names[seat]} has the next turn [{rule(r)}]."
    if kind == "offer_closed":
        _, _, seat, prompt, r = event
        return f"{names[seat]}: {prompt} -> closed after {MAX_OFFER_ROUNDS} answers [{rule(r)}]."
    if kind == "bid":
        _, _, seat, label, amount, r = event
        return f"{names[seat]} bids {amount} for {label}." if amount is not None else None
    if kind == "out":
        return f"{names[event[2]]} leaves the game [{rule(event[3])}]."
    if kind == "rule":
        _, _, index, enabled, r = event
        return f"Rule '{game.rule_name(index)}' is now {'in force' if enabled else 'off'}."
    if kind == "end":
        return f"\nThe game ends after {event[1]} turns: {event[2]}."
    return None


def quiet_event(event: tuple) -> bool:
    """Return True for events told only in verbose narration (bids, card moves, declined offers)."""
    return event[0] in ("bid", "card") or (event[0] == "decide" and event[4] == "done")


def narrate(game: Game, start: int = 0, verbose: bool = False) -> Iterator[str]:
    """Yield sentences for the events logged from index `start` on (all of them when verbose)."""
    for event in game.log[start:]:
        if verbose or not quiet_event(event):
            text = describe_event(game, event)
            if text is not None:
                yield text
