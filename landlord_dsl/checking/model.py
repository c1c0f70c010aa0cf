"""The checker's model: what pass 2 (checking) hands on to the compiler.

`Model` holds a checked rule set's declarations by name, the board, and the
side tables that give each expression node its type and what each name
refers to. `Scope` is the symbol table of one body's local names while it is
checked. The constants here are the limits and reserved names the checker's
passes share.
"""

from __future__ import annotations

import attrs

from ..core.types import ANY, BOOL, CARD, GROUP, INT, PLAYER, SPACE, TEXT, choice_of, optional, strip_optional
from ..language import ast

MAX_NUMBER = 10**15  # amounts, counts and thresholds; larger is surely a typing slip
MAX_PLAYERS = 100
MAX_DICE, MAX_FACES = 10, 100  # dice in a throw, faces of a die
LITERAL_NAMES = ("true", "false", "none")  # written as names, read as values: never declarable
AGGREGATES = ("sum", "count", "all", "any", "filter", "map")  # a function of one of these names could not be called
SET_FILE = "<set constants>"  # the variant `with_constants` makes of the constants set from outside, as shown

# The value types of declared types; a `player` or `card` variable may hold none.
FIELD_TYPES = {
    "int": INT,
    "bool": BOOL,
    "text": TEXT,
    "space": SPACE,
    "group": GROUP,
    "player": optional(PLAYER),
    "card": optional(CARD),
}


@attrs.define
class Annotations:
    """What the checker learnt of each node: the side tables the compiler reads, keyed by id(node).

    Nodes are frozen and compare by value, so two equal expressions in two
    places are told apart by identity; the tables are only valid while the
    checked AST is alive (the Model keeps it).
    """

    types: dict[int, str] = attrs.Factory(dict)  # of every expression, constant and variable declaration
    # of every name, call, `set`, `let`, loop, action parameter and option binding: (kind, payload),
    # e.g. ("local", slot), ("game_var", name), ("builtin", name)
    refs: dict[int, tuple[str, object]] = attrs.Factory(dict)
    frames: dict[int, int] = attrs.Factory(dict)  # of every body (handler, card, function...): its local slots
    templates: dict[int, list] = attrs.Factory(dict)  # of every prompt and label: its texts and hole expressions
    # what may tell two cards apart besides what they are and do (studies/analysis/cards.py): an expression that
    # compares cards (`==`, `!=`, `in`, `not in`), and a card's name or text read other than by a prompt's or a
    # label's hole (which only writes it)
    cards_compared: bool = False
    card_names_read: bool = False

    def type_of(self, node: object) -> str:
        """Return the type recorded for `node`, or ANY if none is."""
        return self.types.get(id(node), ANY)

    def set_type(self, node: object, type_: str) -> None:
        self.types[id(node)] = type_

    def ref(self, node: object) -> tuple[str, object] | None:
        """Return what `node` refers to, or None if it refers to nothing."""
        return self.refs.get(id(node))

    def set_ref(self, node: object, ref: tuple[str, object]) -> None:
        self.refs[id(node)] = ref

    def forget_ref(self, node: object) -> tuple[str, object] | None:
        """Drop what `node` refers to; return it (None if nothing was recorded)."""
        return self.refs.pop(id(node), None)

    def set_frame(self, node: object, slots: int) -> None:
        self.frames[id(node)] = slots

    def set_template(self, node: object, parts: list) -> None:
        self.templates[id(node)] = parts


@attrs.define
class Model:
    """A checked rule set: everything resolved, nothing left to look up by string at run time."""

    header: ast.Header
    options: dict[str, ast.OptionDecl]
    accounts: list[ast.AccountDecl]
    consts: dict[str, ast.ConstDecl]
    tables: dict[str, ast.TableDecl]
    groups: dict[str, list[int]]
    group_labels: dict[str, str]
    kinds: dict[str, ast.KindDecl]
    game_vars: dict[str, ast.VarDecl]
    player_vars: dict[str, ast.VarDecl]
    space_vars: dict[str, ast.VarDecl]
    spaces: list[ast.SpaceDecl]
    space_index: dict[str, int]
    space_fields: dict[str, str]
    decks: dict[str, ast.DeckDecl]
    functions: dict[str, ast.FunctionDecl]
    actions: dict[str, ast.ActionDecl]
    rules: list[ast.RuleDecl]
    ends: list[ast.EndDecl]
    score: ast.ScoreDecl | None
    annotations: Annotations
    function_types: dict[str, str]
    table_types: dict[str, tuple[str, str]]
    choices: dict[str, tuple[str, ...]] = attrs.Factory(dict)  # the values of each choice and listing option
    choice_decls: dict[str, ast.ChoiceDecl] = attrs.Factory(dict)  # the `choice` declarations (`diff` compares them)
    dice_sets: dict[str, ast.DiceDecl] = attrs.Factory(dict)  # `dice NAME ...`: sets thrown by `roll NAME`
    purposes: dict[str, ast.PurposeDecl] = attrs.Factory(dict)  # `purpose NAME`: what payments are made for
    reroutes: dict[str, ast.RerouteDecl] = attrs.Factory(dict)  # a rerouted purpose -> the `reroute` that sends it

    # The annotations' tables under the names the compiler and the tools read.
    @property
    def types(self) -> dict[int, str]:
        """Return the type of each node, by id(node) (`Annotations.types`)."""
        return self.annotations.types

    @property
    def refs(self) -> dict[int, tuple[str, object]]:
        """Return what each name, call and binding refers to, by id(node) (`Annotations.refs`)."""
        return self.annotations.refs

    @property
    def frames(self) -> dict[int, int]:
        """Return the number of local slots of each body, by id(node) (`Annotations.frames`)."""
        return self.annotations.frames

    @property
    def templates(self) -> dict[int, list]:
        """Return the pieces of each prompt and label, by id(node) (`Annotations.templates`)."""
        return self.annotations.templates


class Scope:
    """Local names of one handler, card or function body, with frame slots."""

    def __init__(
        self,
        frame: list[int],
        parent: Scope | None = None,
        shortfall: bool = False,
        in_card: bool = False,
        narrowed: frozenset[str] = frozenset(),
    ):
        self.names: dict[str, tuple[str, int]] = {}
        self.parent = parent
        # names and field paths known not to be none here (flow narrowing)
        self.narrowed: frozenset[str] = narrowed | (parent.narrowed if parent else frozenset())
        self.frame = frame  # one-element list: next free slot, shared by nested scopes
        self.shortfall: bool = shortfall or (parent.shortfall if parent else False)
        self.in_card: bool = in_card or (parent.in_card if parent else False)

    def child(self, narrowed: frozenset[str] = frozenset()) -> Scope:
        return Scope(self.frame, self, narrowed=narrowed)

    def define(self, name: str, type_: str) -> int:
        slot = self.frame[0]
        self.frame[0] += 1
        self.names[name] = (type_, slot)
        return slot

    def lookup(self, name: str) -> tuple[str, int] | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def visible(self) -> list[str]:
        out: list[str] = []
        scope: Scope | None = self
        while scope is not None:
            out.extend(scope.names)
            scope = scope.parent
        return out


def declared_type(type_name: str) -> str:
    """Return the value type a declared type names: a built-in one, or else a choice's (checked to exist)."""
    return FIELD_TYPES.get(type_name) or choice_of(type_name)


def param_type(type_name: str) -> str:
    """Return the value type of a declared parameter (a `player` or `card` parameter is never none)."""
    return strip_optional(declared_type(type_name))
