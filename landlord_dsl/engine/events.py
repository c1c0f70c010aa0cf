"""Engine stage: what a running game records and reports.

The log events (`LogPay`, `LogMove`, ... one class per kind) describe
the entries of `Game.log`: `decode` gives an entry's typed event and
`log_event_from_json` reads one back from a log file, checking it. `ThrowEvent` (each throw of the dice) and `TurnEvent`
(each finished turn) are handed to the objects given to `Game.observe`; the
game is the same with or without them.
"""

# no `from __future__ import annotations`: cattrs reads the NamedTuples' field types at run time
import json
from typing import Any, Literal, NamedTuple, Union, get_args, get_type_hints

import attrs
import cattrs

from ..core.errors import GameLogError
from .saves import strict_converter


@attrs.frozen
class ThrowEvent:
    """A throw of the dice, reported to observers: who threw, the dice, and where the thrower stood."""

    turn: int
    seat: int
    dice: tuple[int, ...]
    total: int
    double: bool
    position: int


@attrs.frozen
class TurnEvent:
    """A finished turn, reported to observers: where the player began and ended it, and how often he threw."""

    turn: int
    seat: int
    start: int
    end: int
    throws: int
    still_playing: bool


# ------------------------------------------------------------------ the event log
# The engine appends plain tuples to `Game.log`, laid out as the NamedTuples
# below describe (the kind first): building a NamedTuple for every event made
# whole games 10-20% slower, and a plain tuple is written to JSON
# (`Game.log_lines`, log files) as the same array. `decode(entry)` gives the
# typed event of an entry; `log_event_from_json` reads one from a log line.
# docs/engine.md's table of events is generated from these classes
# (`event_table`, checked by tests/test_events.py).


class LogTurn(NamedTuple):
    """A player's turn begins."""

    kind: Literal["turn"]
    turn: int
    seat: int


class LogRoll(NamedTuple):
    """Player `seat` threw the dice."""

    kind: Literal["roll"]
    turn: int
    seat: int
    dice: tuple[int, ...]
    rule: int


class LogThrow(NamedTuple):
    """Player `seat` threw the set of dice declared as `dice` (not the edition's own); `faces` numbers the face
    each die shows, 1 for the first face the declaration lists."""

    kind: Literal["throw"]
    turn: int
    seat: int
    dice: str
    faces: tuple[int, ...]
    rule: int


class LogMove(NamedTuple):
    """A token moved along the track from space `start` to space `dest`, passing what lies between, and landed."""

    kind: Literal["move"]
    turn: int
    seat: int
    start: int
    dest: int
    rule: int


class LogSend(NamedTuple):
    """A token was put on space `dest` directly: nothing passed, no landing."""

    kind: Literal["send"]
    turn: int
    seat: int
    start: int
    dest: int
    rule: int


class LogPay(NamedTuple):
    """`amount` went from ledger entry `src` to ledger entry `dst`."""

    kind: Literal["pay"]
    turn: int
    amount: int
    src: int
    dst: int
    rule: int


class LogUnpaid(NamedTuple):
    """Player `seat` could not pay `amount` (the part of a payment still missing) to ledger entry `dst`."""

    kind: Literal["unpaid"]
    turn: int
    seat: int
    amount: int
    dst: int
    rule: int


class LogCard(NamedTuple):
    """A card (a title deed included) went from seat `previous` to seat `holder`; null is nobody (a deck)."""

    kind: Literal["card"]
    turn: int
    card: int
    previous: int | None
    holder: int | None
    rule: int


class LogDraw(NamedTuple):
    """Player `seat` drew `card`."""

    kind: Literal["draw"]
    turn: int
    seat: int
    card: int
    rule: int


class LogEmpty(NamedTuple):
    """A draw found `deck` empty."""

    kind: Literal["empty"]
    turn: int
    deck: str
    rule: int


class LogShuffle(NamedTuple):
    """`deck` was shuffled."""

    kind: Literal["shuffle"]
    turn: int
    deck: str
    rule: int


class LogDecide(NamedTuple):
    """Player `seat` answered the choice `prompt` with the option named `option`."""

    kind: Literal["decide"]
    turn: int
    seat: int
    prompt: str
    option: str
    rule: int


class LogBid(NamedTuple):
    """Player `seat` bid `amount` (null: no bid) for the space labelled `space` at an auction."""

    kind: Literal["bid"]
    turn: int
    seat: int
    space: str
    amount: int | None
    rule: int


class LogOfferClosed(NamedTuple):
    """The engine closed the `offer` with this `prompt` (as written) after 256 answers (control.MAX_OFFER_ROUNDS):
    a sign that the options' hints make computer players go round in circles."""

    kind: Literal["offer_closed"]
    turn: int
    seat: int
    prompt: str
    rule: int


class LogRule(NamedTuple):
    """Rule number `switched` was put in force (`enabled` true) or out of it, by rule `rule`."""

    kind: Literal["rule"]
    turn: int
    switched: int
    enabled: bool
    rule: int


class LogNext(NamedTuple):
    """`give turn to`: player `seat` plays the next turn."""

    kind: Literal["next"]
    turn: int
    seat: int
    rule: int


class LogOut(NamedTuple):
    """Player `seat` left the game (`eliminate`)."""

    kind: Literal["out"]
    turn: int
    seat: int
    rule: int


class LogSay(NamedTuple):
    """Rule `rule` told the narration `text` (`say`)."""

    kind: Literal["say"]
    turn: int
    text: str
    rule: int


class LogEnd(NamedTuple):
    """The game ended after `turn` turns, for `reason`."""

    kind: Literal["end"]
    turn: int
    reason: str


LogEvent = Union[
    LogTurn,
    LogRoll,
    LogThrow,
    LogMove,
    LogSend,
    LogPay,
    LogUnpaid,
    LogCard,
    LogDraw,
    LogEmpty,
    LogShuffle,
    LogDecide,
    LogBid,
    LogOfferClosed,
    LogRule,
    LogNext,
    LogOut,
    LogSay,
    LogEnd,
]

# the class of each kind of log event, by its kind
LOG_EVENTS: dict[str, Any] = {get_args(get_type_hints(cls)["kind"])[0]: cls for cls in get_args(LogEvent)}


_tuple_new = tuple.__new__


def decode(entry: tuple) -> LogEvent:
    """Return the typed event of one `Game.log` entry (the entry itself is left as it is)."""
    return _tuple_new(LOG_EVENTS[entry[0]], entry)  # what `_make` does, without its Python-level call


def log_event_json(entry: tuple) -> str:
    """Return one log entry as its line of JSON, as `Game.log_lines()` and log files write it."""
    return json.dumps(entry, separators=(",", ":"))


def _structure_event(data: Any, _type: Any) -> LogEvent:
    """Return the log event in decoded JSON `data`: an array whose first item names its kind (a tagged union)."""
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError("not an array that starts with the kind of event")
    cls = LOG_EVENTS.get(data[0])
    if cls is None:
        raise ValueError(f"no kind of event is called {data[0]!r}")
    if len(data) != len(cls._fields):
        raise ValueError(
            f"a {data[0]!r} event has {len(cls._fields)} items ({', '.join(cls._fields)}), not {len(data)}"
        )
    return _CONVERTER.structure(data, cls)


_CONVERTER = strict_converter()
_CONVERTER.register_structure_hook(LogEvent, _structure_event)


def log_event_from_json(text: str) -> LogEvent:
    """Return the log event in one line of JSON.

    A line that is not an event, or has a value of the wrong type, raises LandlordError.
    """
    try:
        return _structure_event(json.loads(text), LogEvent)
    except (ValueError, RecursionError) as err:
        raise GameLogError(f"not an event of a landlord-dsl game log: {err}") from None
    except cattrs.BaseValidationError as err:
        faults = cattrs.transform_error(err, path="event")
        raise GameLogError(f"not an event of a landlord-dsl game log: {'; '.join(faults)}") from None


def event_table() -> str:
    """Return the Markdown table of the kinds of log events (docs/engine.md holds it): kind, fields, meaning."""
    rows = ["| Event | Fields | What happened |", "|---|---|---|"]
    for kind, cls in LOG_EVENTS.items():
        meaning = " ".join((cls.__doc__ or "").split())
        rows.append(f"| `{kind}` | {', '.join(cls._fields[1:])} | {meaning} |")
    return "\n".join(rows) + "\n"
