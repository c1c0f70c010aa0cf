"""The program contract: what the compiler produces and the engine runs.

A Program is a compiled rule set for one choice of option values: the
board, cards, rules and variables as lists the engine indexes, and the
generated functions the engine calls for each event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..core.errors import Diagnostic, UsageError
from ..language import ast


@attrs.frozen
class DiceSet:
    """A set of dice declared with `dice NAME ...`, thrown by `roll NAME` apart from the edition's dice."""

    name: str
    label: str
    count: int
    faces: tuple[int | str, ...]  # what each face shows, the first face first: its pips, or a text (no pips)

    def pips(self, face: int) -> int:
        """Return the pips face number `face` (1 for the first) counts: a text face none, and 0 before a throw."""
        shown = self.faces[face - 1] if face else 0
        return shown if isinstance(shown, int) else 0

    def shown(self, face: int) -> str:
        """Return what face number `face` shows, as text (its pips in digits), or "" before a throw."""
        return str(self.faces[face - 1]) if face else ""


@attrs.define
class Program:
    """A compiled rule set for one choice of option values; made by `compile_rules`.

    Example:

        >>> program = ld.compile_rules(ld.load_edition("landlords-game-1906"))
        >>> program.name, program.players, program.dice_count
        ('landlords-game-1906', (2, 4), 2)
    """

    title: str
    name: str
    players: tuple[int, int]
    turn_limit: int | None
    dice_count: int
    options: dict[str, Any]
    rules_hash: str
    sources: dict
    account_names: list[str]
    account_labels: list[str]
    account_unlimited: list[bool]
    space_names: list[str]
    space_labels: list[str]
    space_kinds: list[str]
    start_space: int
    game_var_init: list[Any]
    player_var_init: list[Any]
    space_var_init: list[list[Any]]
    card_names: list[str]
    card_texts: list[str]
    card_space: list[int | None]
    card_deck: list[str]
    title_card: list[int | None]
    card_effects: list[Callable]
    deck_cards: dict[str, list[int]]
    deck_kept: dict[str, bool]
    deck_enabled: dict[str, Callable]
    rule_names: list[str]
    rule_off: list[bool]
    rule_replaces: list[tuple[int, ...]]
    # (rule index, condition, body, repeat) for every `when` trigger, in declaration order
    triggers: list[tuple[int, Callable, Callable, bool]]
    rule_spans: list[ast.Span]
    # One generated function per event (and per space for land/pass) that runs,
    # in declaration order, the handlers of the rules in force; None if no rule
    # handles that event there.
    on_setup: Callable | None
    on_turn: Callable | None
    on_shortfall: Callable | None
    on_land: list[Callable | None]
    on_pass: list[Callable | None]
    end_conditions: list[tuple[Callable, str]]
    score: Callable | None
    # the generated source, whole: what runs, but for the asking blocks that the pure-Python driven
    # program compiles from it on first use (compiling/asking.py), at the same lines
    python_source: str = ""
    # for each line of python_source (line n at n - 1): the index of the rule whose handler it runs
    # in (None outside handlers) and the span of the .lg code it translates (None if none), for
    # locating a Python error inside the compiled rules (Game.play); a native program's goes on past
    # python_source's last line, to the lines its native build moved there (compiling/native.py)
    line_table: tuple[tuple[int | None, ast.Span | None], ...] = ()
    # True when the functions above are the native build's (a C extension, compiling/native.py)
    native: bool = False
    # per card: True when it, or its deck, is tagged `reconstruction` (narration and `show` say so)
    card_reconstructed: list[bool] = attrs.field(factory=list)
    # per card: the space a `share of` card is a share of, else None (the built-ins `shares`, `shareholders`)
    card_share: list[int | None] = attrs.field(factory=list)
    # Each space field's value on every space (None where the space's kind lacks it),
    # folded for these options; group-valued fields hold their spaces' indices.
    space_fields: dict[str, list] = attrs.field(factory=dict)
    # (span of a statement or expression, notes naming the declarations from other files
    # whose values it uses): what a run-time error there adds (Game.fail)
    origins: list[tuple[ast.Span, tuple[Diagnostic, ...]]] = attrs.field(factory=list)
    # the declared types of the game, player and space variables (types.py strings), to check saved games
    var_types: tuple[tuple[str, ...], ...] = ((), (), ())
    # the values of each choice type among them (types.choice_of), by the choice's name
    choices: dict[str, tuple[str, ...]] = attrs.Factory(dict)
    # variable names by index, for reading state by name (Game.player_var and friends)
    game_var_names: list[str] = attrs.Factory(list)
    player_var_names: list[str] = attrs.Factory(list)
    space_var_names: list[str] = attrs.Factory(list)
    # the sets of dice declared with `dice NAME ...`, in declaration order (Game.roll_set numbers them so)
    dice_sets: tuple[DiceSet, ...] = ()
    # whether the rules read the edition's dice one by one (`dice.first`, `dice` as a value), not only their
    # total and whether they are a double: the exact analysis merges throws the rules cannot tell apart
    reads_dice_faces: bool = True
    # the decks a rule's `return` may put a card into, each with whether that card may be other than a space's
    # title deed (None: not known, any card into any deck); a card enters a deck no other way (drawn, it goes
    # under the same deck; given, to a hand); and the decks a rule draws from (None: not known, any)
    decks_returned_to: dict[str, bool] | None = None
    decks_drawn: frozenset[str] | None = None
    # The groups whose ownership a game keeps counted as titles change hands, for the generated code to read
    # instead of fetching the group's owners (Cards.count_groups): each a tuple of spaces, counted by number;
    # and for each group-valued field so read, by space the number of the space's group (None where it has none)
    counted_groups: tuple[tuple[int, ...], ...] = ()
    counted_fields: tuple[tuple[int | None, ...], ...] = ()
    # by space: the numbers of the counted groups it is in (what a title changing hands changes)
    counted_of: tuple[tuple[int, ...], ...] = ()
    # the counted fields (numbers in counted_fields) under which a game keeps, for each seat, its titles whose
    # group it owns whole, for the loops over a player's titles whose guard asks that (`owns_all(p, s.color)`)
    complete_fields: tuple[int, ...] = ()
    # by space (empty without complete fields): what decides whether the space's title changing hands changes the
    # complete titles of the seat giving it up or taking it: (a counted group, its size, 1 if the space is in it,
    # else 0), for the complete fields' groups the space is in and the group the space has under one of them
    complete_of: tuple[tuple[tuple[int, int, int], ...], ...] = ()
    # the tests of a title by the counts of its group's owners under which a game keeps, for each seat, its titles
    # that pass (`gkept`), for an offer's loop over a player's titles that looks first for those where its hint's
    # condition holds (1933's trading offer, `wanted_by_a_rival`): each (a counted field, by space the counts
    # (of the seat owning the title, of the group's distinct owners, of its spaces nobody owns) under which the
    # test holds, or its value where the space has no group under that field)
    kept_tests: tuple[tuple[int, tuple[frozenset[tuple[int, int, int]] | bool, ...]], ...] = ()
    # by space (empty without kept tests): for each kept test, (its number, the counted group the space has under
    # its field or None, that group's spaces or none, its counts by space): what its title changing hands retests
    kept_of: tuple[tuple[tuple[int, int | None, tuple[int, ...], tuple[Any, ...]], ...], ...] = ()
    # whether a game keeps any titles by seat (complete_fields or kept_tests): one test where a title changes hands
    keeps_titles: bool = False

    # the checked rules it was compiled from (a checking.loader.RuleSet: typed loosely, for the program stage
    # sits below checking), for what reads declarations beside the compiled tables (a game's board drawn)
    rules: Any = attrs.field(default=None, repr=False, eq=False)
    # how to compile these rules again (the compiler's: a picklable call that returns an equal Program),
    # by which a Program pickles (`__reduce__`): its generated functions cannot be pickled themselves
    remake: Callable[[], Program] | None = attrs.field(default=None, repr=False, eq=False)
    # how to build the stepped compilation (the compiler's; `stepped`), and what it built
    # (called with keyed=True for the keyed compilation)
    stepper: Callable[..., SteppedProgram] | None = attrs.field(default=None, repr=False, eq=False)
    stepped_built: SteppedProgram | None = attrs.field(default=None, init=False, repr=False, eq=False)
    keyed_built: SteppedProgram | None = attrs.field(default=None, init=False, repr=False, eq=False)

    def stepped(self, keyed: bool = False) -> SteppedProgram:
        """Return the stepped compilation of these rules (issue 29; `ld.new_state` runs it), built the
        first time it is asked for and kept. With `keyed`, the compilation that also lays out, at each
        call that may ask, its continuation key (compiling/stepped_pass.py: the exact analysis's).

        :raises UsageError: the Program was not made by the compiler (no `stepper`).
        """
        built = self.keyed_built if keyed else self.stepped_built
        if built is None:
            if self.stepper is None:
                raise UsageError(f"{self.title}: this Program has no stepped compilation (not made by compile_rules)")
            built = self.stepper(self, keyed=keyed)
            if keyed:
                self.keyed_built = built
            else:
                self.stepped_built = built
        return built

    def __reduce__(self) -> tuple[Any, tuple]:
        """Pickle as the call that compiles the rules again (`remake`); raise TypeError without one."""
        if self.remake is None:
            raise TypeError(f"{self.title}: this Program cannot be pickled (not made by compile_rules)")
        return (self.remake, ())

    def __copy__(self) -> Program:
        return self  # (a Program is never changed once compiled: a copy is the Program itself)

    def __deepcopy__(self, memo: dict) -> Program:
        return self

    def dice_set(self, name: str) -> DiceSet:
        """Return the declared set of dice called `name` (a KeyError if none is)."""
        for dice in self.dice_sets:
            if dice.name == name:
                return dice
        raise KeyError(name)


class _Slow:
    """The type of SLOW."""

    def __repr__(self) -> str:
        return "SLOW"


class _Marker:
    """The type of UNSET and OPAQUE: a named marker no rule value can equal."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


# In the keyed stepped compilation (compiling/stepped_pass.py): the value of a local not yet assigned, and
# what stands, in a continuation key, for what the key cannot show (the key then matches no other).
UNSET = _Marker("UNSET")
OPAQUE = _Marker("OPAQUE")


# What a payment's quick path (`Game.pay_out_q` and friends) returns when the payer is short of money:
# the stepped code then settles it through `transfer_s`, whose `on shortfall` rules may ask.
SLOW = _Slow()


@attrs.frozen
class SteppedProgram:
    """The entry points of a Program's stepped compilation (compiling/stepped_pass.py): for each of the
    Program's generated functions, its generator twin, or None where the driven function never asks
    (the engine then calls the driven one). Indexed as the Program's lists are."""

    on_setup: Callable | None
    on_turn: Callable | None
    on_shortfall: Callable | None
    on_land: list[Callable | None]
    on_pass: list[Callable | None]
    card_effects: list[Callable | None]
    trigger_bodies: list[Callable | None]  # one per Program.triggers entry
    # the decks whose order the rules read (`cards_in`): a state presenting shuffles as draws asks theirs whole
    decks_read: frozenset[str] = frozenset()
    # of the keyed compilation: the resume entry of a call site by its number (None where its key is OPAQUE)
    resume: Callable[[int], Callable | None] | None = None


# How `show` and the narration describe a card that is_reconstruction says is one.
RECONSTRUCTED_CARD = "reconstructed card, not the edition's own text"


def is_reconstruction(decl: ast.DeckDecl | ast.CardDecl) -> bool:
    """Return True if a deck or card declaration is tagged `reconstruction`."""
    return decl.provenance is not None and decl.provenance.confidence == "reconstruction"
