"""Checking a saved game before it is restored.

A saved game is untrusted input: a file anyone may have edited. Reading it
checks its structure (every field present, of its type: a balance written
as "500", 1.9 or true is refused); restoring it then checks that it fits
the rules it claims (list lengths, seats, spaces, cards, decks, variable
types) and finally the game's invariants (money conserved, no card lost or
in two places). What is wrong is said in a LandlordError, and a refused
state leaves the game as it was.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import cattrs

from .errors import Diagnostic, LandlordError

if TYPE_CHECKING:
    from .engine import Game, GameState

_KINDS = {int: "an integer", bool: "true or false", str: "a string"}


def _strict(kind: type):
    def structure(value: Any, _type: Any) -> Any:
        if type(value) is not kind:  # bool is an int to Python, not to a saved game
            raise TypeError(f"expected {_KINDS[kind]}, not {json.dumps(value)[:40]}")
        return value
    return structure


def _converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True)
    for kind in _KINDS:
        converter.register_structure_hook(kind, _strict(kind))
    return converter


_CONVERTER = _converter()


def _say(exc: BaseException, _type: Any) -> str:
    if isinstance(exc, KeyError):
        return "missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return "unknown fields: " + ", ".join(sorted(exc.extra_fields))
    return str(exc)


def structure_state(data: Any) -> "GameState":
    """Return the GameState in decoded JSON `data`; a wrong structure raises LandlordError naming each fault."""
    from .engine import GameState

    if not isinstance(data, dict):
        raise LandlordError("not a valid saved game: it is not a JSON object")
    try:
        return _CONVERTER.structure(data, GameState)
    except cattrs.BaseValidationError as err:
        faults = cattrs.transform_error(err, path="state", format_exception=_say)
    raise LandlordError([Diagnostic(f"not a valid saved game: {fault}") for fault in faults[:20]])


def _fits(type_: str, value: Any, game: "Game") -> bool:
    """Return True if `value` is a run-time value of the declared variable type `type_`."""
    if type_.endswith("?"):
        return value is None or _fits(type_[:-1], value, game)
    if type_ == "bool":
        return type(value) is bool
    if type_ == "text":
        return type(value) is str
    if type(value) is not int and type_ != "group":
        return False
    if type_ == "int":
        return True
    if type_ == "space":
        return 0 <= value < game.board_size
    if type_ == "player":
        return 0 <= value < game.n
    if type_ == "card":
        return 0 <= value < len(game.prog.card_names)
    if type_ == "group":
        return isinstance(value, (list, tuple)) and all(_fits("space", v, game) for v in value)
    return False


def _ints(values: Any, low: int, high: int | None = None) -> bool:
    return isinstance(values, list) and all(type(v) is int and v >= low and (high is None or v < high)
                                            for v in values)


def shape_problems(game: "Game", state: "GameState") -> list[str]:
    """Return what makes `state` unfit for `game`'s rules (an empty list when it fits).

    Checks every field's length and type and that every seat, space, card,
    deck and rule it names exists; enough for restoring it to raise nothing
    but a LandlordError. The game's invariants are checked after.
    """
    prog, n, size = game.prog, game.n, game.board_size
    cards = len(prog.card_names)
    problems = []

    def need(ok: bool, message: str) -> None:
        if not ok:
            problems.append(message)

    need(isinstance(state.names, list) and len(state.names) == n and all(type(x) is str for x in state.names),
         f"names: wanted {n} strings")
    need(_ints(state.balances, -(2 ** 63)) and len(state.balances) == game.nacc + n,
         f"balances: wanted {game.nacc + n} integers (the accounts, then the players)")
    need(_ints(state.positions, 0, size) and len(state.positions) == n,
         f"positions: wanted {n} spaces of the board (0 to {size - 1})")
    need(type(state.origin) is int and 0 <= state.origin < size, f"origin: not a space of the board (0 to {size - 1})")
    need(_ints(state.dice, 0, 7) and len(state.dice) == prog.dice_count,
         f"dice: wanted {prog.dice_count} dice of 1 to 6 (0 before the first throw)")
    # a Program built without the variables' types checks only their number
    game_types, player_types, space_types = (list(t) or ["any"] * len(init) for t, init in
                                             zip(prog.var_types, (prog.game_var_init, prog.player_var_init,
                                                                  prog.space_var_init)))
    if not isinstance(state.game_vars, list) or len(state.game_vars) != len(game_types):
        problems.append(f"game_vars: wanted {len(game_types)} values")
    else:
        for index, (type_, value) in enumerate(zip(game_types, state.game_vars)):
            need(type_ == "any" or _fits(type_, value, game), f"game_vars[{index}]: not a value of type {type_}")
    for field, types, count in (("player_vars", player_types, n), ("space_vars", space_types, size)):
        rows = getattr(state, field)
        if not isinstance(rows, list) or len(rows) != len(types):
            problems.append(f"{field}: wanted {len(types)} lists")
            continue
        for index, (type_, row) in enumerate(zip(types, rows)):
            if not isinstance(row, list) or len(row) != count:
                problems.append(f"{field}[{index}]: wanted {count} values")
            elif type_ != "any":
                bad = [i for i, value in enumerate(row) if not _fits(type_, value, game)]
                need(not bad, f"{field}[{index}][{bad[0] if bad else 0}]: not a value of type {type_}")
    need(isinstance(state.holders, list) and len(state.holders) == cards
         and all(h is None or (type(h) is int and 0 <= h < n) for h in state.holders),
         f"holders: wanted {cards} seats (0 to {n - 1}) or nulls")
    if not isinstance(state.decks, dict) or set(state.decks) != set(prog.deck_cards):
        problems.append(f"decks: wanted the decks {sorted(prog.deck_cards)}")
    else:
        for deck, members in state.decks.items():
            need(_ints(members, 0, cards), f"decks.{deck}: wanted cards 0 to {cards - 1}")
    need(isinstance(state.active_rules, list) and len(state.active_rules) == len(prog.rule_names)
         and all(type(x) is bool for x in state.active_rules), f"active_rules: wanted {len(prog.rule_names)} booleans")
    need(isinstance(state.fired, list) and len(state.fired) == len(prog.triggers)
         and all(type(x) is bool for x in state.fired), f"fired: wanted {len(prog.triggers)} booleans")
    for index, loan in enumerate(state.loans if isinstance(state.loans, list) else [None]):
        need(_ints(loan, 0) and len(loan) == 4 and loan[0] < n and loan[1] < n and loan[0] != loan[1]
             and loan[2] > 0, f"loans[{index}]: wanted [lender, borrower, amount, interest] between two seats")
    seats_ok = _ints(state.seats, 0, n) and state.seats == sorted(set(state.seats))
    need(seats_ok, f"seats: wanted the seats still playing, each once, in order (0 to {n - 1})")
    need(type(state.turn) is int and state.turn >= 0, "turn: wanted a turn number of 0 or more")
    if type(state.over) is not bool:
        problems.append("over: wanted true or false")
    elif seats_ok and not state.over:
        need(bool(state.seats), "seats: nobody is left in a game that is not over")
        need(state.next_seat in state.seats, "next_seat: not a seat still playing")
    need(type(state.next_seat) is int and 0 <= state.next_seat < n, f"next_seat: wanted a seat (0 to {n - 1})")
    need(type(state.minted) is int, "minted: wanted an integer")
    need(type(state.end_reason) is str, "end_reason: wanted a string")
    return problems


def ledger_problems(state: "GameState") -> list[str]:
    """Return the problem with a checked state's ledger, if any: every transfer moves money
    between two of its entries, unlimited accounts included, so its balances sum to zero."""
    total = sum(state.balances)
    return [] if total == 0 else [f"balances: the ledger sums to {total}, not 0: money was added or taken away"]


def refuse(problems: list[str]) -> LandlordError:
    """Return the error that refuses a saved game for these problems."""
    shown = problems[:20]
    more = len(problems) - len(shown)
    return LandlordError([Diagnostic(f"the saved game cannot be restored: {p}") for p in shown]
                         + ([Diagnostic(f"... and {more} more problems")] if more else []))
