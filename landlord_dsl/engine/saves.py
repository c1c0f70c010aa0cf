"""Engine stage: saving a game at a turn boundary, and checking a saved game before it is restored.

`GameState` is everything needed to continue a game; `save_game` takes it
from a game, `state_to_json` / `state_from_json` write and read it, and
`restore_game` puts it back. A saved game is untrusted input: a file anyone may have edited. Reading it
checks its structure (every field present, of its type: a balance written
as "500", 1.9 or true is refused); restoring it then checks that it fits
the rules it claims (list lengths, seats, spaces, cards, decks, variable
types) and finally the game's invariants (money conserved, no card lost or
in two places). What is wrong is said in a LandlordError, and a refused
state leaves the game as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import cattrs

from ..core.errors import Diagnostic, LandlordError, SaveError, UsageError
from ..core.types import parse_type
from ..language.limits import MAX_INT, MAX_TURN_LIMIT, describe_int_limit
from .dicesets import is_double
from .fields import fields_of, put_fields

if TYPE_CHECKING:
    from .game import Game


@attrs.define
class GameState:
    """Everything needed to continue a game from a turn boundary (saved as JSON)."""

    rules_hash: str
    options: dict[str, Any]
    players: int
    names: list[str]
    balances: list[int]
    positions: list[int]
    origin: int
    dice: list[int]
    game_vars: list[Any]
    player_vars: list[list[Any]]
    space_vars: list[list[Any]]
    holders: list[int | None]
    decks: dict[str, list[int]]
    active_rules: list[bool]
    fired: list[bool]
    loans: list[list[int]]
    seats: list[int]
    turn: int
    next_seat: int
    minted: int
    over: bool
    end_reason: str
    chance_state: Any
    # the faces the declared sets of dice (`dice NAME ...`) show, by name: face numbers, 1 for the first face,
    # 0 before the set's first throw
    dice_sets: dict[str, list[int]] = attrs.Factory(dict)


_KINDS = {int: "an integer", bool: "true or false", str: "a string"}


def _strict(kind: type) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _type: Any) -> Any:
        if type(value) is not kind:  # bool is an int to Python, not to a saved game
            raise TypeError(f"expected {_KINDS[kind]}, not {json.dumps(value)[:40]}")
        return value

    return structure


def strict_converter() -> cattrs.Converter:
    """Return a cattrs converter that takes integers, booleans and strings only as themselves (true is no integer)."""
    converter = cattrs.Converter(forbid_extra_keys=True)
    for kind in _KINDS:
        converter.register_structure_hook(kind, _strict(kind))
    return converter


_CONVERTER = strict_converter()


def _say(exc: BaseException, _type: Any) -> str:
    if isinstance(exc, KeyError):
        return "missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return "unknown fields: " + ", ".join(sorted(exc.extra_fields))
    return str(exc)


def structure_state(data: Any) -> GameState:
    """Return the GameState in decoded JSON `data`; a wrong structure raises LandlordError naming each fault."""
    if not isinstance(data, dict):
        raise SaveError("not a valid saved game: it is not a JSON object")
    try:
        return _CONVERTER.structure(data, GameState)
    except cattrs.BaseValidationError as err:
        faults = cattrs.transform_error(err, path="state", format_exception=_say)
    raise SaveError([Diagnostic(f"not a valid saved game: {fault}") for fault in faults[:20]])


def _fits(type_: str, value: Any, game: Game) -> bool:
    """Return True if `value` is a run-time value of the declared variable type `type_`."""
    parts = parse_type(type_)
    if parts.optional:
        return value is None or _fits(parts.required, value, game)
    kind = parts.kind
    if kind == "bool":
        return type(value) is bool
    if kind == "text":
        return type(value) is str
    if kind == "choice":
        return type(value) is str and value in game.prog.choices.get(parts.argument or "", ())
    if type(value) is not int and kind != "group":
        return False
    if kind == "int":
        return -MAX_INT <= value <= MAX_INT
    if kind == "space":
        return 0 <= value < game.board_size
    if kind == "player":
        return 0 <= value < game.n
    if kind == "card":
        return 0 <= value < len(game.prog.card_names)
    if kind == "group":
        return isinstance(value, (list, tuple)) and all(_fits("space", v, game) for v in value)
    return False


def _shown(type_: str) -> str:
    """Return a variable type as a refusal names it: a number type with its range."""
    return f"{type_} (from {describe_int_limit()})" if parse_type(type_).kind == "int" else type_


def _ints(values: Any, low: int, high: int = MAX_INT + 1) -> bool:
    """Return True if `values` is a list of integers from `low` to `high` - 1 (by default, up to the largest number)."""
    return isinstance(values, list) and all(type(v) is int and low <= v < high for v in values)


def seat_names(names: Sequence[str], n: int) -> list[str]:
    """Return the seats' names as given, or raise UsageError when they are not one distinct, non-blank name a seat."""
    names = list(names)
    example = ",".join(f"Name{i + 1}" for i in range(n))
    if len(names) != n:
        raise UsageError(
            [Diagnostic(f"{len(names)} names for {n} seats", hint=f"give one name a seat, in seat order: {example}")]
        )
    blank = next((seat for seat, name in enumerate(names) if not name.strip()), None)
    if blank is not None:
        raise UsageError([Diagnostic(f"seat {blank + 1} has an empty name", hint=f"e.g. {example}")])
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(
            [Diagnostic(f"the name '{twice[0]}' is given to two seats", hint="every seat needs a name of its own")]
        )
    return names


def _name_problem(names: list[str], n: int) -> str | None:
    """Return why `names` are not names Game() accepts for `n` seats, or None."""
    try:
        seat_names(names, n)
    except LandlordError as err:
        return err.diagnostics[0].message
    return None


def shape_problems(game: Game, state: GameState) -> list[str]:
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

    names_ok = isinstance(state.names, list) and len(state.names) == n and all(type(x) is str for x in state.names)
    need(names_ok, f"names: wanted {n} strings")
    if names_ok and (problem := _name_problem(state.names, n)) is not None:
        problems.append(f"names: {problem}")
    need(
        _ints(state.balances, -MAX_INT) and len(state.balances) == game.nacc + n,
        f"balances: wanted {game.nacc + n} integers (the accounts, then the players) from {describe_int_limit()}",
    )
    need(
        _ints(state.positions, 0, size) and len(state.positions) == n,
        f"positions: wanted {n} spaces of the board (0 to {size - 1})",
    )
    need(type(state.origin) is int and 0 <= state.origin < size, f"origin: not a space of the board (0 to {size - 1})")
    need(
        _ints(state.dice, 0, 7) and len(state.dice) == prog.dice_count,
        f"dice: wanted {prog.dice_count} dice of 1 to 6 (0 before the first throw)",
    )
    sets = prog.dice_sets
    need(
        isinstance(state.dice_sets, dict)
        and set(state.dice_sets) == {d.name for d in sets}
        and all(
            _ints(state.dice_sets[d.name], 0, len(d.faces) + 1) and len(state.dice_sets[d.name]) == d.count
            for d in sets
        ),
        "dice_sets: wanted "
        + (", ".join(f"{d.name}: {d.count} of 1 to {len(d.faces)}" for d in sets) or "none")
        + " (face numbers, 0 before the first throw)",
    )
    # a Program built without the variables' types checks only their number
    game_types, player_types, space_types = (
        list(t) or ["any"] * len(init)
        for t, init in zip(prog.var_types, (prog.game_var_init, prog.player_var_init, prog.space_var_init))
    )
    if not isinstance(state.game_vars, list) or len(state.game_vars) != len(game_types):
        problems.append(f"game_vars: wanted {len(game_types)} values")
    else:
        for index, (type_, value) in enumerate(zip(game_types, state.game_vars)):
            need(
                type_ == "any" or _fits(type_, value, game), f"game_vars[{index}]: not a value of type {_shown(type_)}"
            )
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
                need(not bad, f"{field}[{index}][{bad[0] if bad else 0}]: not a value of type {_shown(type_)}")
    need(
        isinstance(state.holders, list)
        and len(state.holders) == cards
        and all(h is None or (type(h) is int and 0 <= h < n) for h in state.holders),
        f"holders: wanted {cards} seats (0 to {n - 1}) or nulls",
    )
    if not isinstance(state.decks, dict) or set(state.decks) != set(prog.deck_cards):
        problems.append(f"decks: wanted the decks {sorted(prog.deck_cards)}")
    else:
        for deck, members in state.decks.items():
            need(_ints(members, 0, cards), f"decks.{deck}: wanted cards 0 to {cards - 1}")
    need(
        isinstance(state.active_rules, list)
        and len(state.active_rules) == len(prog.rule_names)
        and all(type(x) is bool for x in state.active_rules),
        f"active_rules: wanted {len(prog.rule_names)} booleans",
    )
    need(
        isinstance(state.fired, list)
        and len(state.fired) == len(prog.triggers)
        and all(type(x) is bool for x in state.fired),
        f"fired: wanted {len(prog.triggers)} booleans",
    )
    for index, loan in enumerate(state.loans if isinstance(state.loans, list) else [None]):
        need(
            _ints(loan, 0) and len(loan) == 4 and loan[0] < n and loan[1] < n and loan[0] != loan[1] and loan[2] > 0,
            f"loans[{index}]: wanted [lender, borrower, amount, interest] between two seats, amounts up to {MAX_INT:,}",
        )
    seats_ok = _ints(state.seats, 0, n) and state.seats == sorted(set(state.seats))
    need(seats_ok, f"seats: wanted the seats still playing, each once, in order (0 to {n - 1})")
    need(
        type(state.turn) is int and 0 <= state.turn <= MAX_TURN_LIMIT,
        f"turn: wanted a turn number from 0 to {MAX_TURN_LIMIT:,} (the longest a game lasts)",
    )
    if type(state.over) is not bool:
        problems.append("over: wanted true or false")
    elif seats_ok and not state.over:
        need(bool(state.seats), "seats: nobody is left in a game that is not over")
        need(state.next_seat in state.seats, "next_seat: not a seat still playing")
    need(type(state.next_seat) is int and 0 <= state.next_seat < n, f"next_seat: wanted a seat (0 to {n - 1})")
    need(
        type(state.minted) is int and -MAX_INT <= state.minted <= MAX_INT,
        f"minted: wanted an integer from {describe_int_limit()}",
    )
    need(type(state.end_reason) is str, "end_reason: wanted a string")
    return problems


def ledger_problems(state: GameState) -> list[str]:
    """Return the problem with a checked state's ledger, if any: every transfer moves money
    between two of its entries, unlimited accounts included, so its balances sum to zero."""
    total = sum(state.balances)
    return [] if total == 0 else [f"balances: the ledger sums to {total}, not 0: money was added or taken away"]


def refuse(problems: list[str]) -> LandlordError:
    """Return the error that refuses a saved game for these problems."""
    shown = problems[:20]
    more = len(problems) - len(shown)
    return SaveError(
        [Diagnostic(f"the saved game cannot be restored: {p}") for p in shown]
        + ([Diagnostic(f"... and {more} more problems")] if more else [])
    )


def save_game(game: Game) -> GameState:
    """Return the state of `game` at a turn boundary (call between turns)."""
    get_state = getattr(game.chance, "get_state", None)
    return GameState(
        rules_hash=game.prog.rules_hash,
        options=dict(game.prog.options),
        players=game.n,
        names=list(game.names),
        balances=list(game.bal),
        positions=list(game.pos),
        origin=game.origin,
        dice=list(game.dice),
        dice_sets={d.name: list(faces) for d, faces in zip(game.prog.dice_sets, game.set_faces)},
        game_vars=list(game.gv),
        player_vars=[list(v) for v in game.pv],
        space_vars=[list(v) for v in game.sv],
        holders=list(game.holder),
        decks={k: list(v) for k, v in game.decks.items()},
        active_rules=list(game.active),
        fired=list(game.fired),
        loans=[list(loan) for loan in game.loans],
        seats=list(game.seats),
        turn=game.turn,
        next_seat=game.next_seat,
        minted=game.minted,
        over=game.over,
        end_reason=game.end_reason,
        chance_state=_jsonable(get_state()) if get_state else None,
    )


def restore_game(game: Game, state: GameState) -> None:
    """Make `game` continue from a saved state (same rules, same options); call between turns.

    This is the one place that replaces the game's lists (owners, balances,
    variables...) rather than changing them in place: compiled rules read
    each into a local once per call (pyast_pass.read_game_lists_once).
    A state that does not fit the rules or breaks an invariant (money not
    conserved, a card lost or in two places...) raises LandlordError and
    leaves the game as it was.
    """
    if state.rules_hash != game.prog.rules_hash or state.options != game.prog.options:
        raise SaveError("the saved game was played under other rules or options")
    if state.players != game.n:
        raise SaveError(f"the saved game has {state.players} players, not {game.n}")
    problems = shape_problems(game, state)
    if problems:
        raise refuse(problems)
    before = fields_of(game)  # every field below is rebound, never changed in place
    chance_before = game.chance.get_state() if hasattr(game.chance, "get_state") else None
    if state.chance_state is not None and hasattr(game.chance, "set_state"):
        try:
            game.chance.set_state(_tupled(state.chance_state))
        except (TypeError, ValueError, OverflowError, IndexError, KeyError, AttributeError) as err:
            raise refuse([f"chance_state: not a state of the dice ({err})"]) from None
    _apply(game, state)
    problems = ledger_problems(state) + game.invariant_problems()
    if problems:
        put_fields(game, before)
        if chance_before is not None and hasattr(game.chance, "set_state"):  # else the state was not changed
            game.chance.set_state(chance_before)
        raise refuse(problems)


def _apply(game: Game, state: GameState) -> None:
    """Give `game` every value of a checked saved state."""
    game.names = list(state.names)
    game.bal, game.pos, game.origin = list(state.balances), list(state.positions), state.origin
    game.dice = tuple(state.dice)
    game.dice_total, game.dice_double = sum(game.dice), is_double(game.dice)
    game._start_dice_sets()  # new lists, as above
    for k, d in enumerate(game.prog.dice_sets):
        game.show_set(k, tuple(state.dice_sets[d.name]))
    game.gv, game.pv, game.sv = (
        list(state.game_vars),
        [list(v) for v in state.player_vars],
        [list(v) for v in state.space_vars],
    )
    game.holder = list(state.holders)
    game.owner = [None] * game.board_size
    game.titles = [[] for _ in range(game.n)]
    game.hands = [[] for _ in range(game.n)]
    for card, seat in enumerate(game.holder):
        if seat is not None:
            game.hands[seat].append(card)
        space = game.prog.card_space[card]
        if space is not None:
            game.owner[space] = seat
            if seat is not None:
                game.titles[seat].append(space)
    for owned in game.titles:
        owned.sort()
    game.count_groups()
    game.decks = {k: list(v) for k, v in state.decks.items()}
    game.active = list(state.active_rules)
    game.fired = list(state.fired)
    game.triggers_live = game._triggers_live()
    game.loans = [list(loan) for loan in state.loans]
    game.seats = list(state.seats)
    game.turn, game.next_seat, game.minted = state.turn, state.next_seat, state.minted
    game.over, game.end_reason, game.started = state.over, state.end_reason, True


_WRITER = cattrs.Converter()


def state_to_json(state: GameState) -> str:
    """Return a GameState (from `Game.save`) as JSON text, keys sorted.

    Example:

        >>> game = ld.new_game("landlords-game-1906", players=2, seed=7)
        >>> game.play_turn()
        >>> ld.state_from_json(ld.state_to_json(game.save())) == game.save()
        True

    :param state: a saved game.
    :returns: the JSON text, which `state_from_json` reads back.
    """
    return json.dumps(_WRITER.unstructure(state), sort_keys=True)


def state_from_json(text: str) -> GameState:
    """Return the GameState that JSON text (from `state_to_json`) holds, for `Game.restore`.

    Example:

        >>> game = ld.new_game("landlords-game-1906", players=2, seed=7)
        >>> game.play_turn()
        >>> saved = ld.state_to_json(game.save())
        >>> later = ld.new_game("landlords-game-1906", players=2)
        >>> later.restore(ld.state_from_json(saved))
        >>> later.scores() == game.scores()
        True

    :param text: JSON text.
    :returns: the saved game it holds.
    :raises SaveError: the text is not JSON, or not a saved game.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise SaveError(f"not a saved landlord-dsl game: {err}") from None
    return structure_state(data)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value
