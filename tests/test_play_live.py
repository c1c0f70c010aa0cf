"""Playing with people: live narration (Game.listen), what a decision shows, seat names (issue 18, item 1)."""

from __future__ import annotations

import io
import os
import re
import select
import shutil
import subprocess
import sys
import time

import pytest

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent, HumanAgent
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import UsageError
from landlord_dsl.engine.game import Game


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


# ------------------------------------------------------------ Game.listen


def test_a_listener_hears_every_event_as_it_is_logged_and_changes_nothing():
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    quiet = ld.new_game(program, players=3, seed=5)
    quiet.play()
    assert type(quiet.log) is list  # nobody listens: the log stays a plain list, at no cost

    heard: list[tuple] = []
    lengths: list[int] = []
    game = ld.new_game(program, players=3, seed=5)

    def listener(event: tuple) -> None:
        heard.append(event)
        lengths.append(len(game.log))  # called once the event is in the log, not later

    game.listen(listener)
    game.play()
    assert heard == game.log and game.log_lines() == quiet.log_lines()
    assert lengths == list(range(1, len(game.log) + 1))


def test_several_listeners_each_hear_every_event():
    game = ld.new_game("landlords-game-1906", players=2, seed=3, turn_limit=10)
    first: list[tuple] = []
    second: list[tuple] = []
    game.listen(first.append)
    game.listen(second.append)
    game.play()
    assert first == second == game.log


# ---------------------------------------------------------- seat names


def test_names_name_the_seats_in_narration_and_scores():
    code, out = run("play", "landlords-game-1906", "--seed", "7", "--players", "2", "--names", "Ann, Bob")
    assert code == 0
    assert "-- Turn 1: Ann --" in out or "-- Turn 1: Bob --" in out
    assert "Player 1" not in out and "  Ann " in out.split("Final scores:")[1]


@pytest.mark.parametrize(
    ("names", "message", "hint"),
    [
        ("Ann,Bob,Cy", "3 names for 2 seats", "give one name a seat, in seat order: Name1,Name2"),
        ("Ann, ", "seat 2 has an empty name", "e.g. Name1,Name2"),
        ("Ann,Ann", "the name 'Ann' is given to two seats", "every seat needs a name of its own"),
    ],
)
def test_bad_names_are_a_usage_error_with_a_hint(capsys, names, message, hint):
    code, out = run("play", "landlords-game-1906", "--players", "2", "--names", names)
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert f"error: {message}\n   hint: {hint}" in err


def test_names_through_the_api():
    game = ld.new_game("landlords-game-1906", players=2, seed=1, names=["Ann", "Bob"])
    assert game.names == ["Ann", "Bob"]
    with pytest.raises(UsageError, match="1 names for 2 seats"):
        ld.new_game("landlords-game-1906", players=2, names=["Ann"])


def test_a_lone_human_seat_is_marked_you_and_others_keep_their_number(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    code, out = run("play", "landlords-game-1906", "--seats", "bot,human", "--seed", "2", "--turn-limit", "8")
    assert code == 0
    assert "Player 2 (you)" in out and "Player 1 " in out and "You 1" not in out


# ------------------------------------------------- what a decision shows


def test_a_decision_shows_cash_space_throw_and_stakes():
    """1933 rules, BUYING (anspach-1933): landing on an unowned lot offers it at its price; the person
    sees the throw that brought him there, where he stands, his cash and what each answer costs."""
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    screen = io.StringIO()
    human = HumanAgent(stdin=io.StringIO("1\n" + "\n2\n" * 20), stdout=screen)
    game = Game(program, [human, HeuristicAgent()], seed=1, names=["Ann", "Bob"], turn_limit=2)
    game.play()  # seed 1: Bob plays first; Ann throws 6 + 2 onto Vermont Avenue in turn 2
    shown = screen.getvalue()
    assert "\nAnn: cash 1500, on Vermont Avenue, you threw 6 + 2 = 8 this turn\nBuy Vermont Avenue for 100?\n" in shown
    assert "  1. Buy Vermont Avenue for 100  (costs 100, worth 125)\n" in shown


# ---------------------------------------------- a person at a terminal


def _read_until(fd: int, wanted: bytes, seen: bytearray, timeout: float = 60.0) -> bool:
    """Read the terminal into `seen` until what it adds ends with `wanted`; return False if the program ends first."""
    deadline = time.monotonic() + timeout
    start = len(seen)
    while len(seen) == start or not seen.endswith(wanted):
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            raise AssertionError(f"no {wanted!r} within {timeout} s; the terminal shows:\n{seen.decode()[-2000:]}")
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the program closed the terminal
            return False
        if not chunk:
            return False
        seen.extend(chunk)
    return True


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_person_at_a_terminal_sees_his_throw_before_the_question():
    """Under a terminal each event is told as it happens: the first question the person is asked
    comes after his own turn's heading and throw, not after the turn is over."""
    exe = shutil.which("landlord-dsl")
    assert exe is not None, "the landlord-dsl console script is not installed"
    primary, secondary = os.openpty()
    proc = subprocess.Popen(
        [exe, "play", "monopoly-1933-atlantic-city", "--seats", "human,bot", "--seed", "1", "--turn-limit", "4"],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env={**os.environ, "NO_COLOR": "1"},
    )
    os.close(secondary)
    seen = bytearray()
    try:
        assert _read_until(primary, b"> ", seen), seen.decode()
        before = seen.decode().replace("\r\n", "\n")
        turn = before.rindex("\n-- Turn ")
        assert before[turn:].startswith("\n-- Turn 2: Player 1 (you) --\n"), before
        assert "\nPlayer 1 (you) throws 6 + 2 = 8.\n" in before[turn:]
        assert "you threw 6 + 2 = 8 this turn" in before[turn:]
        while True:  # pass every bid, close every offer (Enter) and take the last option ("decline") of a choice
            text = seen.decode().replace("\r\n", "\n")
            numbers = re.findall(r"^  (\d+)\. ", text[text.rindex("\n\n") :], re.MULTILINE)
            os.write(primary, f"{numbers[-1] if numbers and '0' not in numbers else ''}\n".encode())
            if not _read_until(primary, b"> ", seen):
                break
        assert proc.wait(timeout=60) == 0, seen.decode()
        assert "Final scores:" in seen.decode()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(primary)


# ---------------------------------------------- what a person playing 1933 needs (issue 27)


def test_an_auctions_result_is_told_without_verbose():
    """1933 rules, BUYING (anspach-1933): a declined property is auctioned. The bids are told only with
    -v, but who took the property and at what price is told always: the highest bid, to its bidder."""
    from landlord_dsl.engine.events import LogBid, LogCard, decode

    code, out = run("play", "monopoly-1933-atlantic-city", "--seed", "0")
    assert code == 0 and " bids " not in out
    told = re.findall(r"^(Player \d) takes (.+) at auction for (\d+)\.$", out, re.MULTILINE)
    assert told
    game = ld.new_game("monopoly-1933-atlantic-city", players=4, seed=0)
    game.play()
    expected, last = [], {}
    for entry in game.log:
        event = decode(entry)
        if isinstance(event, LogBid) and event.amount is not None:
            last[event.space] = (event.seat, event.amount)
        elif isinstance(event, LogCard) and event.holder is not None and game.prog.card_space[event.card] is not None:
            label = game.prog.space_labels[game.prog.card_space[event.card]]
            if label in last:
                expected.append((game.names[event.holder], label, str(last.pop(label)[1])))
    assert told == expected


def test_1906_rule_7_an_unsold_lot_is_told_unsold_before_the_rent_to_the_treasury():
    """1906 rules, Rule 7 (magie-1906): nobody bids for Grand Boulevard (turn 26 of seed 7, three players) and the
    lander declines it; that the auction is over is told right after his refusal, before the rent he then pays
    the Public Treasury, not after the house he is offered at the end of the turn."""
    code, out = run("play", "landlords-game-1906", "--seed", "7", "--players", "3")
    assert code == 0
    turn = out[out.index("-- Turn 26: Player 3 --") :]
    turn = turn[: turn.index("\n\n")].splitlines()
    refusal = turn.index("Player 3: Buy Grand Boulevard for 100? -> decline.")
    assert turn[refusal + 1 : refusal + 3] == [
        "Nobody takes Grand Boulevard at auction.",
        "Player 3 pays 22 to PUBLIC TREASURY [land_rent_rule].",
    ]


def _offer(options, done_last=True):
    """Return a DecisionRequest of an offer with `options` (name, label, cost, value) and its "done"."""
    from landlord_dsl.program.requests import ChoiceSite, DecisionRequest

    names = tuple(o[0] for o in options) + ("done",)
    site = ChoiceSite(names, tuple(o[1] for o in options) + ("Done",), "Build or mortgage?", done=len(options))
    legal = [(k, None, cost, value) for k, (_, _, cost, value) in enumerate(options)] + [(len(options), None, 0, 0)]
    return DecisionRequest(0, "Build or mortgage?", legal, site, rule=0, rule_names=("improving",))


def _answer(request, typed: str) -> tuple[int, str]:
    game = ld.new_game("monopoly-1933-atlantic-city", players=2, seed=0)
    screen = io.StringIO()
    chosen = HumanAgent(stdin=io.StringIO(typed), stdout=screen).choose(game, request)
    return chosen, screen.getvalue()


def test_done_has_a_key_of_its_own_and_enter_means_it():
    """Issue 27: "done" moved with the menu (typing the same digit flipped between mortgage and redeem).
    An offer's "done" is 0 or Enter; the other options are 1..n in the rules' order."""
    offer = _offer([("build", "Build on Baltic Avenue for 50", 50, 100), ("mortgage", "Mortgage Baltic Avenue", 0, -5)])
    assert _answer(offer, "\n") == (2, _answer(offer, "\n")[1])
    assert _answer(offer, "0\n")[0] == 2
    assert _answer(offer, "2\n")[0] == 1
    chosen, shown = _answer(offer, "1\n")
    assert chosen == 0
    assert "  0. Done  (or press Enter)\n  1. Build on Baltic Avenue for 50  (costs 50, worth 100)\n" in shown
    assert "  2. Mortgage Baltic Avenue\n" in shown


def test_an_offer_with_nothing_recommended_is_listed_only_when_asked_for():
    """An offer none of whose options the rules recommend (mortgaging with nothing owed) is one line:
    Enter closes it; "?" lists it."""
    offer = _offer([("mortgage", "Mortgage Baltic Avenue", 0, -5), ("mortgage", "Mortgage Oriental Avenue", 0, -5)])
    chosen, shown = _answer(offer, "\n")
    assert chosen == 2 and "Mortgage" not in shown
    assert "(2 other options, none worth its cost now: press Enter for Done, ? to list them)" in shown
    chosen, shown = _answer(offer, "?\n2\n")
    assert chosen == 1 and "  2. Mortgage Oriental Avenue\n" in shown


def test_a_number_for_an_option_not_shown_is_refused():
    """Found trying the product: typing 1 at a folded offer mortgaged a title the prompt had never shown. A
    folded offer takes Enter, 0 or ?; a number is refused with what it takes, and after ? the list's numbers."""
    offer = _offer([("mortgage", "Mortgage Baltic Avenue", 0, -5)])
    chosen, shown = _answer(offer, "1\n\n")
    assert chosen == 1 and "Mortgage" not in shown
    assert "(1 other option, none worth its cost now" in shown
    assert "  please answer with Enter, or ? to list the options\n" in shown
    chosen, shown = _answer(offer, "?\n7\n1\n")
    assert chosen == 0 and "  please answer with a number from 0 to 1, or Enter\n" in shown


def test_a_bid_out_of_range_is_answered_with_the_range():
    from landlord_dsl.program.requests import BidRequest

    game = ld.new_game("monopoly-1933-atlantic-city", players=2, seed=0)
    screen = io.StringIO()
    request = BidRequest(0, "auction", "Boardwalk", None, 5, 50, 400, 500)
    bid = HumanAgent(stdin=io.StringIO("1\n20\n"), stdout=screen).bid(game, request)
    assert bid == 20 and "  please answer with a bid from 5 to 50, or Enter to pass\n" in screen.getvalue()
