"""Turning a game's event log into sentences a person can follow."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ..core.errors import visible
from ..engine.events import (
    LogBid,
    LogCard,
    LogDecide,
    LogDraw,
    LogEnd,
    LogMove,
    LogNext,
    LogOfferClosed,
    LogOut,
    LogPay,
    LogRoll,
    LogRule,
    LogSay,
    LogSend,
    LogThrow,
    LogTurn,
    LogUnpaid,
    decode,
)
from ..program.compiled import RECONSTRUCTED_CARD
from ..program.control import MAX_OFFER_ROUNDS

if TYPE_CHECKING:
    from ..engine.game import Game


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
    return text[: len(text) - len(body)] + visible(body)


def _describe(game: Game, event: tuple) -> str | None:
    names = game.names
    space = game.prog.space_labels
    rule = game.rule_name
    match decode(event):
        case LogTurn(turn=turn, seat=seat):
            return f"\n-- Turn {turn}: {names[seat]} --"
        case LogRoll(seat=seat, dice=dice):
            double = " (a double)" if len(dice) > 1 and len(set(dice)) == 1 else ""
            return f"{names[seat]} throws {' + '.join(map(str, dice))} = {sum(dice)}{double}."
        case LogThrow(seat=seat, dice=dice, faces=faces):
            thrown = game.prog.dice_set(dice)
            shown = [thrown.shown(face) for face in faces]
            if len(shown) == 1:
                return f"{names[seat]} throws {thrown.label}: {shown[0]}."
            # as for the edition's dice: the total (of pips; a face that shows a mark counts none) and a double
            double = " (a double)" if shown.count(shown[0]) == len(shown) else ""
            total = sum(thrown.pips(face) for face in faces)
            return f"{names[seat]} throws {thrown.label}: {' + '.join(shown)} = {total}{double}."
        case LogMove(seat=seat, start=start, dest=dest):
            return f"{names[seat]} moves from {space[start]} to {space[dest]}."
        case LogSend(seat=seat, dest=dest, rule=r):
            return f"{names[seat]} is sent to {space[dest]} [{rule(r)}]."
        case LogPay(amount=amount, src=src, dst=dst, rule=r):
            return f"{_party(game, src)} pays {amount} to {_party(game, dst)} [{rule(r)}]."
        case LogUnpaid(seat=seat, amount=amount, dst=dst, rule=r):
            return f"{names[seat]} cannot pay {amount} to {_party(game, dst)} [{rule(r)}]."
        case LogCard(card=card, holder=holder, rule=r):
            what = game.prog.card_texts[card]
            if holder is None:
                return f"{what} goes back to the pack [{rule(r)}]."
            return f"{names[holder]} now holds {what} [{rule(r)}]."
        case LogDraw(seat=seat, card=card):
            invented = f" (a {RECONSTRUCTED_CARD})" if game.prog.card_reconstructed[card] else ""
            return f'{names[seat]} draws: "{game.prog.card_texts[card]}"{invented}.'
        case LogDecide(seat=seat, prompt=prompt, option=option):
            return f"{names[seat]}: {prompt} -> {option}."
        case LogNext(seat=seat, rule=r):
            return f"{names[seat]} has the next turn [{rule(r)}]."
        case LogOfferClosed(seat=seat, prompt=prompt, rule=r):
            return f"{names[seat]}: {prompt} -> closed after {MAX_OFFER_ROUNDS} answers [{rule(r)}]."
        case LogBid(seat=seat, space=label, amount=amount):
            return f"{names[seat]} bids {amount} for {label}." if amount is not None else None
        case LogOut(seat=seat, rule=r):
            return f"{names[seat]} leaves the game [{rule(r)}]."
        case LogRule(switched=index, enabled=enabled):
            return f"Rule '{game.rule_name(index)}' is now {'in force' if enabled else 'off'}."
        case LogSay(text=text, rule=r):
            return f"{text} [{rule(r)}]."
        case LogEnd(turn=turn, reason=reason):
            return f"\nThe game ends after {turn} turns: {reason}."
    return None


def quiet_event(event: tuple) -> bool:
    """Return True for events told only in verbose narration (bids, card moves, declined offers)."""
    typed = decode(event)
    return isinstance(typed, (LogBid, LogCard)) or (isinstance(typed, LogDecide) and typed.option == "done")


class AuctionResult:
    """Follows the bids of an auction, which are told only in verbose narration, to tell its result anyway:
    who took the title and at what price, or that nobody bid.

    After the bids an auction logs at most: the first refusal (`Buy LABEL for PRICE?`, the first event after
    the bids, when a lander is asked), then the price paid and the title deed given. Nothing else comes
    between, so an unsold title is told as soon as the next event is none of these: right after a declined
    first refusal, before the rules that run on (a rent paid to the treasury, an offer to build).
    """

    def __init__(self, game: Game):
        self.game = game
        self.label: str | None = None  # the space being auctioned, while its result is untold
        self.high: int | None = None  # the highest bid so far
        self.after_bids = False  # whether an event has come since the last bid
        self.bought = False  # whether the first refusal took the title

    def follow(self, event: tuple) -> str | None:
        """Take the next logged event; return the sentence of an auction's result it settles, if any."""
        typed = decode(event)
        if isinstance(typed, LogBid):
            if typed.space != self.label:
                self.label, self.high = typed.space, None
            if typed.amount is not None:
                self.high = typed.amount
            self.after_bids = self.bought = False
            return None
        label, high = self.label, self.high
        if label is None:
            return None
        if not self.after_bids:
            self.after_bids = True
            if isinstance(typed, LogDecide) and typed.prompt.startswith(f"Buy {label} for "):
                self.bought = typed.option == "buy"
                return None  # the first refusal: its own sentence tells it, the result follows it
        if isinstance(typed, LogPay) and (high is not None or self.bought):
            return None  # the price paid
        self.label = None
        prog = self.game.prog
        space = prog.card_space[typed.card] if isinstance(typed, LogCard) else None
        if (
            isinstance(typed, LogCard)
            and typed.holder is not None
            and space is not None
            and prog.space_labels[space] == label
        ):
            # with no bid, the first refusal bought it at the opening price, as its decision already told
            return None if high is None else f"{self.game.names[typed.holder]} takes {label} at auction for {high}."
        return f"Nobody takes {label} at auction." if high is None else None


def narrate(game: Game, start: int = 0, verbose: bool = False) -> Iterator[str]:
    """Yield sentences for the events logged from index `start` on (all of them when verbose); an auction's
    result is told either way."""
    auctions = AuctionResult(game)
    for event in game.log[start:]:
        result = auctions.follow(event)
        if result is not None:
            yield visible(result)
        if verbose or not quiet_event(event):
            text = describe_event(game, event)
            if text is not None:
                yield text


def live_narration(game: Game, write: Callable[[str], object], verbose: bool = False) -> Callable[[tuple], None]:
    """Return a listener for Game.listen that writes each event's sentence (a line) the moment it is logged;
    an auction's result is told either way."""
    auctions = AuctionResult(game)

    def tell(event: tuple) -> None:
        result = auctions.follow(event)
        if result is not None:
            write(visible(result) + "\n")
        if verbose or not quiet_event(event):
            text = describe_event(game, event)
            if text is not None:
                write(text + "\n")

    return tell
