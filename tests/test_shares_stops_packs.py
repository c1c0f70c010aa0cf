"""The constructs added for the 1939 edition, tested on small rule sets of their own.

* `card ... share of SPACE` with the built-ins `shares(p, s)` and `shareholders(s)`
  and the card field `share_of`: a space owned in shares by several players;
* `cards_in(DECK)`, and `return` moving a card from one pack to another;
* `move forward|backward N stopping at NAME`: a move that ends at a space (or
  the first space of a group) whatever the count.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl import ScriptedAgent, ScriptedChance

BASE = """
edition "packs" {
    players 2 to 3
    dice 1
    turn limit 20
}

account bank "Bank" unlimited

kind plain { }
kind line "Line" { }

group stops "Stops"

board {
    space home "Home" : plain
    space a "A" : plain
    space b "B" : plain in stops
    space tram "Tram" : line
    space c "C" : plain
    space d "D" : plain in stops
    space e "E" : plain
}

deck shares_pack "Shares" returned size 3 {
    card tram_share "A tram share" x 3 share of tram { }
}

deck other "Other" returned size 2 {
    card blank "Blank" x 2 { }
}

player var seen = 0
"""


def program(rules_text: str, **options):
    return ld.compile_rules(ld.load_text(BASE + rules_text, "packs.lg"), options)


def new(prog, players: int = 3, throws=(), answers=None):
    agents = [ScriptedAgent(a) for a in (answers or [[] for _ in range(players)])]
    g = ld.new_game(prog, agents=agents, chance=ScriptedChance(list(throws)))
    g.started = True
    for seat in range(players):
        g.bal[g.nacc + seat] = 100
    g.minted = 100 * players
    return g


def card_ids(g, name: str) -> list[int]:
    return [i for i, n in enumerate(g.prog.card_names) if n == name]


def pays(g) -> list[tuple[int, int, int]]:
    """(amount, from seat, to seat) of every payment between players."""
    return [(e[2], e[3] - g.nacc, e[4] - g.nacc) for e in g.log if e[0] == "pay"]


# ------------------------------------------------------------------ shares
FARES = """
rule fares "Fares to every shareholder" {
    on land line {
        for p in shareholders(here) {
            if p != player {
                pay 10 * shares(p, here) from player to p
            }
        }
        set player.seen = len(filter(k in player.cards: k.share_of == here))
    }
}
"""


def test_shares_pay_every_holder_by_the_number_of_shares():
    g = new(program(FARES))
    one, two, three = card_ids(g, "tram_share")
    g.set_holder(one, 1)
    g.set_holder(two, 1)
    g.set_holder(three, 0)
    g.actor, g.pos[0] = 0, 3
    g.land()
    assert pays(g) == [(20, 0, 1)]  # seat 0 pays nothing on his own share, seat 2 holds none
    assert g.player_var(0, "seen") == 1
    g.actor, g.pos[2] = 2, 3
    g.land()
    assert pays(g)[1:] == [(10, 2, 0), (20, 2, 1)]  # holders in seat order
    assert g.conserved() and not g.invariant_problems()


def test_share_cards_are_not_title_deeds():
    g = new(program(FARES))
    g.set_holder(card_ids(g, "tram_share")[0], 1)
    assert g.owner[3] is None and g.titles[1] == []
    assert g.prog.card_share == [3, 3, 3, None, None] and g.prog.card_space == [None] * 5


def test_share_of_an_unknown_space_is_reported():
    bad = BASE.replace("share of tram", "share of tarm")
    diags = ld.check(bad, "packs.lg")
    assert [d.message for d in diags] == ["unknown space 'tarm'"]
    assert (
        diags[0].hint == "did you mean 'tram'?"
        and diags[0].span.line == bad.splitlines().index('    card tram_share "A tram share" x 3 share of tarm { }') + 1
    )


def test_shares_and_shareholders_are_typed():
    diags = ld.check(BASE + "rule r { on turn { let x = shares(player, bank) } }", "packs.lg")
    assert diags and "space" in diags[0].message


# ------------------------------------------------------------------- packs
MOVE_TWO = """
rule moving "Two blanks join the shares" {
    on turn {
        for k in cards_in(other) {
            return k to shares_pack
        }
        set player.seen = len(cards_in(shares_pack))
    }
}
"""


def test_cards_in_lists_a_pack_top_first_and_return_moves_a_card_between_packs():
    g = new(program(MOVE_TWO))
    blanks = card_ids(g, "blank")
    g.decks["other"].reverse()
    g.next_seat = 0
    g.play_turn()
    assert g.decks["other"] == [] and g.decks["shares_pack"][-2:] == blanks[::-1]
    assert g.player_var(0, "seen") == 5
    assert not g.invariant_problems()  # before, the card stayed in its old pack as well: in two packs at once


# ------------------------------------------------------------ stopping at
STOPPING = """
rule moving "Move, stopping at Home or a stop" {
    on turn {
        roll dice
        if player.seat == 1 {
            move forward dice.total stopping at home
        } else if player.seat == 2 {
            move forward dice.total stopping at stops
        } else {
            move backward dice.total stopping at stops
        }
    }
    on land home {
        set player.seen += 1
    }
}
"""


@pytest.mark.parametrize(
    "seat, start, throw, end",
    [
        (0, 5, 6, 0),  # E + 6 would pass Home and reach D: it stops on Home
        (0, 5, 1, 6),  # the count runs out before Home
        (0, 0, 6, 6),  # starting on Home does not stop it at once
        (1, 0, 6, 2),  # the first member of the group ahead
        (1, 3, 2, 5),  # exactly on D
        (1, 3, 1, 4),
        (2, 4, 6, 2),  # backward: the first member behind
        (2, 1, 3, 5),  # backward past Home to D
    ],
)
def test_move_stopping_at_a_space_or_group(seat, start, throw, end):
    g = new(program(STOPPING), throws=[(throw,)])
    g.pos[seat] = start
    g.next_seat = seat
    g.play_turn()
    assert g.pos[seat] == end
    assert g.player_var(seat, "seen") == (1 if end == 0 else 0)  # the stop is landed on


def test_move_stopping_at_passes_what_lies_before_the_stop():
    prog = program(STOPPING.replace("on land home", "on pass c"))
    g = new(prog, throws=[(6,)])
    g.pos[1] = 1
    g.next_seat = 1
    g.play_turn()
    assert g.pos[1] == 2 and g.player_var(1, "seen") == 0  # stopped at B, never reached C
    g = new(prog, throws=[(6,)])
    g.pos[0] = 3
    g.next_seat = 0
    g.play_turn()
    assert g.pos[0] == 0 and g.player_var(0, "seen") == 1  # passed C on the way to Home


@pytest.mark.parametrize(
    "statement, message",
    [
        ("move forward 2 stopping at hoem", "unknown space or group 'hoem'"),
        ("move forward 2 via stops stopping at home", "a move cannot both jump `via` a group and stop `stopping at`"),
    ],
)
def test_move_stopping_at_errors(statement, message):
    diags = ld.check(BASE + f"rule r {{ on turn {{ {statement} }} }}", "packs.lg")
    assert [d.message for d in diags] == [message]


@pytest.mark.parametrize("text", [STOPPING, FARES, MOVE_TWO])
def test_constructs_round_trip_through_the_formatter(text):
    source = ld.format_source(BASE + text, "packs.lg")
    assert "share of tram" in source
    assert ld.format_source(source, "packs.lg") == source
    assert ld.parse(source, "packs.lg") is not None
    if text is STOPPING:
        assert "move forward dice.total stopping at home" in source


def test_a_stopping_move_never_runs_past_the_stop_in_shipped_1939():
    """The construct as the 1939 edition uses it: a throw that would carry past GO ends the move on GO."""
    prog = ld.compile_rules(ld.load_edition("landlords-game-1939"))
    moving = prog.rule_names.index("moving")
    stopped = 0
    for seed in range(30):
        g = ld.new_game(prog, players=3, seed=seed)
        g.play()
        for before, event in zip(g.log, g.log[1:]):
            if event[0] == "move" and event[5] == moving and before[0] == "roll":
                start, dest, total = event[3], event[4], sum(before[3])
                if start + total >= 40:
                    assert dest == 0
                    stopped += 1
                else:
                    assert dest == start + total
    assert stopped > 0


# ------------------------------------------------------------------ properties

STOP_ANY = """
rule moving "Move, stopping at a stop" {
    on turn {
        roll dice
        if player.seat == 1 {
            move forward dice.total stopping at stops
        } else {
            move backward dice.total stopping at stops
        }
    }
}
"""
_STOP_PROGRAM = []


@settings(max_examples=60, deadline=None)
@given(start=st.integers(0, 6), throw=st.integers(1, 6), forward=st.booleans())
def test_a_stopping_move_ends_where_walking_step_by_step_first_meets_a_stop(start, throw, forward):
    if not _STOP_PROGRAM:
        _STOP_PROGRAM.append(program(STOP_ANY))
    g = new(_STOP_PROGRAM[0], throws=[(throw,)])
    seat = 0 if forward else 1  # the first seat (`player.seat == 1`) moves forward, the second backward
    g.pos[seat] = start
    g.next_seat = seat
    g.play_turn()
    stops = {2, 5}  # B and D
    expected, step = start, 1 if seat == 0 else -1
    for _ in range(throw):
        expected = (expected + step) % 7
        if expected in stops:
            break
    assert g.pos[seat] == expected
