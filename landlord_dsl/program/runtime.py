"""Run-time helpers of compiled rules: the functions generated code calls.

Generated code calls these for the rare, checked cases (a none where a value
is needed, a missing field or table entry, a division by zero, a number or
text beyond the limits, the work budget); each raises a located
RuleRuntimeError instead of letting a Python error escape. `RUNTIME` is the
namespace the generated code runs in, before the compiler adds its own
names; `Fixed` is what it sees as the game while values fixed before any
game are worked out.
"""

from __future__ import annotations

from collections.abc import Sized
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..core.errors import LandlordError, SourceText
from ..core.span import Span
from ..core.types import ACCOUNT, CARD, PLAYER, SPACE
from ..language.limits import MAX_INT, MAX_TEXT, MAX_WORK, describe_int_limit, shown
from .control import MAX_NESTING, MAX_OFFER_ROUNDS, EndGame, EndTurn
from .requests import FOLDED_CHOOSERS

if TYPE_CHECKING:
    from .game_contract import RulesGame

_T = TypeVar("_T")
_Items = TypeVar("_Items", bound=Sized)


class Runner(Protocol):
    """What the helpers that may run while values fixed before a game are worked out need of the game
    they run in: a game (game_contract.RulesGame), or `Fixed` then."""

    work: int

    @property
    def prog(self) -> Any: ...

    def fail(self, message: str, span: Span | None = None, hint: str | None = None) -> Exception: ...


# ------------------------------------------------------ run-time helpers
# Called from generated code for the rare, checked cases; each raises a
# located RuleRuntimeError instead of letting a Python error escape.


def _present(g: Runner, value: _T | None, span: Span, what: str) -> _T:
    if value is None:
        raise g.fail(f"{what} is none here", span, "guard it, e.g. `if x != none { ... }`")
    return value


def _field(g: Runner, column: list[Any], space: int, name: str, span: Span) -> Any:
    value = column[space]
    if value is None:
        raise g.fail(
            f"space '{g.prog.space_names[space]}' has no field '{name}'",
            span,
            "its kind does not declare it; guard the use by kind or group",
        )
    return value


def _lookup(g: Runner, container: Any, key: Any, span: Span) -> Any:
    try:
        return container[key]
    except (KeyError, IndexError, TypeError):
        if isinstance(container, dict):
            raise g.fail(
                f"the table has no entry {shown(key)}", span, "known keys: " + ", ".join(map(repr, container))
            ) from None
        raise g.fail(f"index {shown(key)} is outside the list", span) from None


def _divide(g: Runner, a: int, b: int, span: Span, modulo: bool) -> int:
    if b == 0:
        raise g.fail("division by zero", span)
    return a % b if modulo else a // b


def _ledger(g: RulesGame, payee: int | None, span: Span) -> int:
    if payee is None:
        raise g.fail("this payment has nobody to pay or be paid (an owner that is none?)", span)
    return g.nacc + payee if payee >= 0 else -payee - 1


def _switch(g: RulesGame, rule: int, enable: bool) -> None:
    g.switch_rule(rule, enable)


def _end_game(g: RulesGame) -> None:
    g.end_reason = f"ended by rule '{g.rule_name()}'"
    raise EndGame()


def _check_end(g: RulesGame) -> None:
    """End the game now, as after a turn, if one of the `end when` conditions holds (`check end`)."""
    name = g.end_condition_met()
    if name is not None:
        g.end_reason = f"end condition ({name})"
        raise EndGame()


def show_value(g: RulesGame | None, value: Any, kind: str) -> str:
    """Return a value as a person reads it: names for players, spaces, cards and accounts."""
    if value is None:
        return "nobody" if kind == PLAYER else "none"
    if kind not in (PLAYER, SPACE, CARD, ACCOUNT):
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)
    assert g is not None, kind  # (their names are the game's)
    if kind == PLAYER:
        return g.names[value]
    if kind == SPACE:
        return g.prog.space_labels[value]
    if kind == CARD:
        return g.prog.card_texts[value]
    return g.prog.account_labels[-value - 1]


def _too_deep(g: Runner) -> None:
    raise g.fail("rules trigger each other too deeply (an endless chain of moves or draws?)")


def out_of_limits(value: object, what: str) -> tuple[str, str] | None:
    """Return (message, hint) if a number or text a rule keeps lies outside the limits, else None."""
    if value.__class__ is int:
        return None if -MAX_INT <= value <= MAX_INT else _number_out_of_range(what)
    if value.__class__ is str and len(value) > MAX_TEXT:
        return _text_too_long(value, what)
    return None


def _number_out_of_range(what: str) -> tuple[str, str]:
    """Return (message, hint) for a number a rule keeps that lies outside the integer range."""
    return (
        f"{what} is outside the numbers landlord-dsl keeps ({describe_int_limit()})",
        "a number that grows every time (say, squared each turn) soon leaves any range; bound it",
    )


def _text_too_long(value: str, what: str) -> tuple[str, str]:
    """Return (message, hint) for a text a rule keeps that is longer than MAX_TEXT."""
    return (
        f"{what} is a text of {len(value):,} characters, more than the {MAX_TEXT:,} a rule may build",
        "a text that grows every time (say, doubled each turn) soon leaves any range; bound it",
    )


def _kept_int(g: Runner, value: int | None, span: Span) -> int | None:
    """Return a number a rule keeps (stores, returns, shows), failing if it is outside the integer range."""
    if value is None or -MAX_INT <= value <= MAX_INT:
        return value
    message, hint = _number_out_of_range("this number")
    raise g.fail(message, span, hint)


def _kept_text(g: Runner, value: str | None, span: Span) -> str | None:
    """Return a text a rule keeps, failing if it is longer than MAX_TEXT."""
    if value is None or len(value) <= MAX_TEXT:
        return value
    message, hint = _text_too_long(value, "this text")
    raise g.fail(message, span, hint)


def _work(g: Runner, items: _Items, span: Span) -> _Items:
    """Return a collection a loop or aggregate is about to go through, counting its items against the budget."""
    g.work += len(items)
    if g.work > MAX_WORK:
        raise g.fail(
            f"the rules went through more than {MAX_WORK:,} items (loops and aggregates) in one turn",
            span,
            "nest fewer loops over large collections; the budget keeps every turn finite",
        )
    return items


class Fixed:
    """What compiled code sees as the game while values fixed before any game are worked out.

    Failures are located in the rule files, as check errors, and loops count
    against one work budget for all of the folding.
    """

    def __init__(self, sources: dict[str, SourceText], space_names: list[str]):
        self.sources = sources
        self.prog = SimpleNamespace(space_names=space_names)
        self.work = 0

    def fail(self, message: str, span: Span | None = None, hint: str | None = None) -> LandlordError:
        """Return a LandlordError located at `span`."""
        source = self.sources.get(span.file) if span is not None else None
        return LandlordError([(source or SourceText("", "")).diagnostic(message, span, hint)])


RUNTIME = {
    "_too_deep": _too_deep,
    "_kept_int": _kept_int,
    "_kept_text": _kept_text,
    "_work": _work,
    "_present": _present,
    "_field": _field,
    "_lookup": _lookup,
    "_divide": _divide,
    "_ledger": _ledger,
    "_switch": _switch,
    "_end_game": _end_game,
    "_check_end": _check_end,
    "_show": show_value,
    "_EndTurn": EndTurn,
    "_OFFER_ROUNDS": range(MAX_OFFER_ROUNDS),  # made once: an offer's rounds are counted every turn
    "_MAX_WORK": MAX_WORK,
    "_MAX_NESTING": MAX_NESTING,
    "_FOLDED": FOLDED_CHOOSERS,  # agents whose choice the option loops work out themselves (codegen_stmt)
}
