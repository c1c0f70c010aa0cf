"""The contract between generated rule code and the game it runs against.

The compiler writes Python that reads and calls a game through the name `g`
(and the run-time helpers of runtime.py do the same). `RulesGame` lists every
member that code may use, with its type, so that readers and type checkers
can see the contract instead of recovering it from generated text: engine.py
checks statically that `Game` satisfies it, and tests/test_game_contract.py
checks that the code generated for every shipped file uses nothing else.
Add a member here before the compiler starts to use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..core.errors import RuleRuntimeError
    from .compiled import Program
    from .requests import ChoiceSite


class RulesGame(Protocol):
    """What compiled rules may read, write and call on the game (`g`)."""

    # who is playing, and where the rules are
    prog: Program
    n: int
    names: list[str]
    agents: list[Any]
    seats: list[int]
    turn: int
    actor: int
    rule: int
    depth: int
    work: int
    end_reason: str

    # the state the rules read and write directly (the compiler reads these lists into locals)
    nacc: int
    board_size: int
    bal: list[int]
    pos: list[int]
    origin: int
    owner: list[int | None]
    holder: list[int | None]
    titles: list[list[int]]
    hands: list[list[int]]
    # the counted groups' owners (Program.counted_groups; Cards.count_groups): by group, then by field and space
    gcount: list[list[int]]
    gcount_at: list[list[list[int] | None]]
    # by complete field (Program.complete_fields), then by seat: its titles in groups it owns whole, in board order
    gfull: list[list[list[int]]]
    # by kept test (Program.kept_tests), then by seat: its titles that pass the test, in board order
    gkept: list[list[list[int]]]
    gv: list[Any]
    pv: list[list[Any]]
    sv: list[list[Any]]
    active: list[bool]
    dice: tuple[int, ...]
    dice_total: int
    dice_double: bool
    set_pips: list[Any]
    set_shown: list[Any]
    card: int | None
    due: int
    creditor: int | None
    log: list[tuple]
    decisions: list[int | None]
    decks: dict[str, list[int]]  # read by the builtins (checking/builtins.py), as the rest of this list
    loans: list[list[int]]

    @property
    def default_reserve(self) -> int: ...

    # money
    def transfer(self, amount: int, src: int, dst: int, span: Any = None) -> int: ...
    def pay_in(self, amount: int, src: int, dst: int, span: Any = None) -> int: ...
    def pay_out(self, amount: int, src: int, dst: int, span: Any = None) -> int: ...
    def pay_within(self, amount: int, src: int, dst: int, span: Any = None) -> int: ...
    def borrow(self, amount: int, interest_pct: int) -> None: ...
    def repay_loans(self, interest: bool = True) -> None: ...

    # movement and turns
    def roll(self, seat: int | None = None) -> None: ...
    def roll_set(self, k: int, seat: int | None = None) -> None: ...
    def advance(self, steps: int, span: Any = None) -> None: ...
    def move_steps(
        self,
        steps: int,
        forward: bool,
        via: tuple[int, ...] | None = None,
        span: Any = None,
        stops: tuple[int, ...] = (),
    ) -> None: ...
    def move_to(self, dest: int) -> None: ...
    def jump_target(self, start: int, steps: int, group: tuple[int, ...]) -> int | None: ...
    def send(self, seat: int, dest: int) -> None: ...
    def give_turn(self, seat: int, span: Any = None) -> None: ...
    def eliminate(self, seat: int) -> None: ...
    def switch_rule(self, rule: int, enable: bool) -> None: ...

    # cards and titles
    def set_holder(self, card: int, seat: int | None) -> None: ...
    def draw(self, deck: str) -> None: ...
    def return_card(self, card: int, deck: str) -> None: ...
    def shuffle(self, deck: str) -> None: ...
    def deal(self, count: int, deck: str) -> None: ...

    # decisions
    def choose(
        self,
        seat: int,
        prompt: str,
        legal: list[tuple],
        site: ChoiceSite,
        describe: Callable[[int, Any], str] | None = None,
    ) -> tuple: ...
    def offer_closed(self, site: ChoiceSite) -> None: ...
    def auction(
        self,
        space: int,
        start: int,
        step: int,
        first: int | None,
        proceeds: int,
        span: Any = None,
        value: int | None = None,
    ) -> None: ...

    # the end and the narration
    def end_condition_met(self) -> str | None: ...
    def say(self, text: str) -> None: ...

    # errors
    def fail(self, message: str, span: Any = None, hint: str | None = None) -> RuleRuntimeError: ...
    def rule_name(self, index: int | None = None) -> str: ...
