"""The typed log events (landlord_dsl/engine/events.py): every entry the engine logs fits its class, log lines are
read back checked, and the table of events in docs/engine.md is the one the classes give."""

from __future__ import annotations

from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.engine import events
from landlord_dsl.program.control import MAX_OFFER_ROUNDS

ROOT = Path(__file__).resolve().parents[1]


def test_the_docs_event_table_is_generated_from_the_classes():
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    assert events.event_table() in text, "regenerate the table in docs/engine.md with events.event_table()"
    assert str(MAX_OFFER_ROUNDS) in events.LogOfferClosed.__doc__


@pytest.mark.parametrize("name", ld.shipped_editions())
def test_every_logged_entry_is_its_typed_event_and_reads_back_from_json(name):
    kinds = set()
    for seed, players in ((1, 2), (2, 4)):
        program = ld.compile_rules(ld.load_edition(name))
        players = min(max(players, program.players[0]), program.players[1])
        game = ld.new_game(program, players=players, seed=seed)
        game.play()
        for entry, line in zip(game.log, game.log_lines(), strict=True):
            typed = events.decode(entry)
            assert type(typed) is events.LOG_EVENTS[entry[0]] and typed == entry
            assert events.log_event_from_json(line) == typed  # every field of the declared type
            assert events.log_event_json(typed) == line  # a typed event is written as the plain tuple is
            kinds.add(entry[0])
    assert {"turn", "roll", "move", "pay", "end"} <= kinds


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('["pay",1,true,3,4,5]', "expected int @ event[2]"),
        ('["pay",1,2]', "a 'pay' event has 6 items (kind, turn, amount, src, dst, rule), not 3"),
        ('["teleport",1,2]', "no kind of event is called 'teleport'"),
        ('{"kind":"pay"}', "not an array that starts with the kind of event"),
        ('["roll",1,0,[3,"4"],-1]', "@ event[3][1]"),
        ('["end",3,null]', "@ event[2]"),
        ('["pay",1,2,3', "not an event of a landlord-dsl game log"),
    ],
)
def test_a_log_line_that_is_not_an_event_is_refused_saying_why(line, message):
    with pytest.raises(ld.LandlordError) as caught:
        events.log_event_from_json(line)
    assert message in caught.value.render()


def test_log_events_in_the_order_and_meaning_of_their_fields():
    assert events.decode(("pay", 3, 50, 0, 5, 2)) == events.LogPay("pay", 3, 50, 0, 5, 2)
    assert events.decode(("pay", 3, 50, 0, 5, 2)).dst == 5
    assert events.decode(("card", 0, 4, None, 1, -1)).holder == 1
    assert list(events.LOG_EVENTS) == [
        "turn",
        "roll",
        "throw",
        "move",
        "send",
        "pay",
        "unpaid",
        "card",
        "draw",
        "empty",
        "shuffle",
        "decide",
        "bid",
        "offer_closed",
        "rule",
        "next",
        "out",
        "say",
        "end",
    ]
