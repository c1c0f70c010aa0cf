"""The typed abstract syntax tree of a .lg file.

Every node is a frozen attrs class. Source spans take no part in equality, so
two files that say the same thing parse to equal trees whatever their layout:
that is what `parse(format(x)) == parse(x)` relies on.
"""

from __future__ import annotations

from typing import Union

import attrs

from ..core.frozen import quick_init
from ..core.span import NO_SPAN, Span


def _span() -> Span:
    return attrs.field(default=NO_SPAN, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Provenance:
    """Where a declaration comes from: a citation and a confidence."""

    source: str
    confidence: str | None = None  # primary | secondary | code | reconstruction | original
    note: str | None = None
    span: Span = _span()


# ------------------------------------------------------------- expressions


@attrs.frozen
class IntLit:
    value: int
    span: Span = _span()


@attrs.frozen
class TextLit:
    value: str
    span: Span = _span()


@attrs.frozen
class BoolLit:
    value: bool
    span: Span = _span()


@attrs.frozen
class NoneLit:
    span: Span = _span()


@attrs.frozen
class Name:
    name: str
    span: Span = _span()


@attrs.frozen
class ListLit:
    items: tuple[Expr, ...]
    span: Span = _span()


@attrs.frozen
class Field:
    subject: Expr
    name: str
    span: Span = _span()


@attrs.frozen
class Index:
    subject: Expr
    key: Expr
    span: Span = _span()


@attrs.frozen
class Call:
    function: str
    args: tuple[Expr, ...]
    span: Span = _span()


@attrs.frozen
class Unary:
    op: str  # "-" or "not"
    operand: Expr
    span: Span = _span()


@attrs.frozen
class Binary:
    op: str  # + - * / % == != < <= > >= and or in notin has (right: the tag, as a Name)
    left: Expr
    right: Expr
    span: Span = _span()


@attrs.frozen
class Conditional:
    condition: Expr
    then: Expr
    otherwise: Expr
    span: Span = _span()


@attrs.frozen
class Aggregate:
    op: str  # sum count all any filter map
    var: str
    collection: Expr
    body: Expr
    span: Span = _span()


Expr = Union[
    IntLit,
    TextLit,
    BoolLit,
    NoneLit,
    Name,
    ListLit,
    Field,
    Index,
    Call,
    Unary,
    Binary,
    Conditional,
    Aggregate,
]

# -------------------------------------------------------------- statements


@attrs.frozen
class Pay:
    amount: Expr
    payer: Expr
    payee: Expr
    purpose: str | None = None  # `as NAME`: what the payment is for; a `reroute` of it changes the payee
    span: Span = _span()
    purpose_span: Span = _span()


@attrs.frozen
class Set:
    target: tuple[str, ...]  # ("x",) or ("player", "jail_turns")
    op: str  # = += -=
    value: Expr
    span: Span = _span()


@attrs.frozen
class Let:
    name: str
    value: Expr
    span: Span = _span()


@attrs.frozen
class If:
    condition: Expr
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...] | None = None
    span: Span = _span()


@attrs.frozen
class For:
    var: str
    collection: Expr
    body: tuple[Stmt, ...]
    span: Span = _span()


@attrs.frozen
class ChoiceOption:
    name: str
    label: str | None
    binding: tuple[str, Expr] | None
    guard: Expr | None
    cost: Expr | None
    value: Expr | None
    body: tuple[Stmt, ...]
    span: Span = _span()


@attrs.frozen
class Choose:
    repeat: bool  # True for `offer`
    chooser: Expr | None
    prompt: str
    options: tuple[ChoiceOption, ...]
    span: Span = _span()
    done_when: Expr | None = None  # an offer's `done when`: "done" is offered only while it holds


@attrs.frozen
class Roll:
    thrower: Expr | None = None  # who throws (for the log); the acting player if None
    span: Span = _span()
    dice: str = "dice"  # what is thrown: the edition's dice, or a set declared with `dice NAME ...`
    name_span: Span = _span()  # where the thrown dice are named


@attrs.frozen
class MoveSteps:
    direction: str  # forward | backward
    steps: Expr
    via: str | None = None
    span: Span = _span()
    name_span: Span = _span()  # where the `via` group is named
    stop_at: str | None = None  # `stopping at NAME`: the move ends at the first space of NAME it reaches
    stop_span: Span = _span()  # where the `stopping at` space or group is named


@attrs.frozen
class MoveTo:
    destination: Expr
    span: Span = _span()


@attrs.frozen
class Send:
    who: Expr
    destination: Expr
    span: Span = _span()


@attrs.frozen
class Draw:
    deck: str
    span: Span = _span()
    name_span: Span = _span()


@attrs.frozen
class Give:
    card: Expr
    recipient: Expr
    span: Span = _span()


@attrs.frozen
class Return:
    card: Expr
    deck: str
    span: Span = _span()
    name_span: Span = _span()


@attrs.frozen
class Shuffle:
    deck: str
    span: Span = _span()
    name_span: Span = _span()


@attrs.frozen
class Deal:
    count: Expr
    deck: str
    span: Span = _span()
    name_span: Span = _span()


@attrs.frozen
class Auction:
    space: Expr
    start: Expr
    step: Expr | None
    first: Expr | None
    value: Expr | None
    proceeds: Expr
    span: Span = _span()


@attrs.frozen
class Borrow:
    amount: Expr
    interest: Expr
    span: Span = _span()


@attrs.frozen
class RepayLoans:
    span: Span = _span()
    interest: bool = True  # False for `repay loans without interest`


@attrs.frozen
class EndTurn:
    span: Span = _span()


@attrs.frozen
class EndGame:
    span: Span = _span()


@attrs.frozen
class Say:
    """`say "TEXT"`: tell the narration something the log's other events do not show."""

    text: str
    span: Span = _span()


@attrs.frozen
class CheckEnd:
    """`check end`: end the game now if one of the `end when` conditions holds."""

    span: Span = _span()


@attrs.frozen
class Switch:
    enable: bool
    rule: str
    span: Span = _span()
    name_span: Span = _span()


@attrs.frozen
class Eliminate:
    who: Expr
    span: Span = _span()


@attrs.frozen
class Do:
    action: str
    args: tuple[Expr, ...]
    span: Span = _span()


@attrs.frozen
class GiveTurn:
    """`give turn to PLAYER`: the next turn is his, and play goes on round the table from him."""

    player: Expr
    span: Span = _span()


Stmt = Union[
    Pay,
    Set,
    Let,
    If,
    For,
    Choose,
    Roll,
    MoveSteps,
    MoveTo,
    Send,
    Draw,
    Give,
    GiveTurn,
    Return,
    Shuffle,
    Deal,
    Auction,
    Borrow,
    RepayLoans,
    EndTurn,
    EndGame,
    CheckEnd,
    Say,
    Switch,
    Eliminate,
    Do,
]

# ------------------------------------------------------------ declarations


@attrs.frozen
class Header:
    name: str
    title: str | None = None
    players: tuple[int, int] | None = None
    dice: int | None = None
    turn_limit: int | None = None
    extends: str | None = None
    provenance: Provenance | None = None
    span: Span = _span()
    # where each item (title, players, extends...) is written; like every span, not part of the tree's meaning
    item_spans: tuple[tuple[str, Span], ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

    def item_span(self, item: str) -> Span:
        """Return where the header's `item` ("title", "players", "dice", "turn_limit", "extends") is written,
        else where the header is."""
        return next((span for name, span in self.item_spans if name == item), self.span)


@attrs.frozen
class OptionDecl:
    name: str
    label: str | None
    default: int | str | bool
    choices: tuple[str, ...] | None
    provenance: Provenance | None
    span: Span = _span()
    default_span: Span = _span()
    choice: str | None = None  # `option NAME: CHOICE`: its values are the choice's


@attrs.frozen
class ChoiceDecl:
    """`choice NAME { "a", "b" }`: a type whose values are these texts and no others."""

    name: str
    label: str | None
    values: tuple[str, ...]
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class AccountDecl:
    name: str
    label: str | None
    unlimited: bool
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class ConstDecl:
    name: str
    value: Expr
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class TableDecl:
    name: str
    label: str | None
    rising: bool
    entries: tuple[tuple[Expr, Expr], ...]
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class GroupDecl:
    name: str
    label: str | None
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class DiceDecl:
    """`dice NAME [label] COUNT [sides N | faces [...]]`: a set of dice of its own, thrown by `roll NAME`."""

    name: str
    label: str | None
    count: int
    faces: tuple[int | str, ...]  # what each face shows, the first face first: its pips, or a text (no pips)
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class FieldDecl:
    name: str
    type: str
    span: Span = _span()


@attrs.frozen
class KindDecl:
    name: str
    label: str | None
    titled: bool
    improvable: bool
    fields: tuple[FieldDecl, ...]
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class VarDecl:
    scope: str  # game | player | space
    name: str
    type: str | None
    initial: Expr
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class SpaceDecl:
    name: str
    label: str
    kind: str
    fields: tuple[tuple[str, Expr], ...]
    groups: tuple[str, ...]
    provenance: Provenance | None
    span: Span = _span()
    field_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False)
    group_span: Span = _span()
    kind_span: Span = _span()


@attrs.frozen
class BoardDecl:
    spaces: tuple[SpaceDecl, ...]
    span: Span = _span()


@attrs.frozen
class CardDecl:
    name: str
    text: str
    copies: int
    provenance: Provenance | None
    body: tuple[Stmt, ...]
    span: Span = _span()
    tags: tuple[str, ...] = ()  # `tagged a, b`: what the card is for, tested by `c has a`
    share_of: str | None = None  # `share of SPACE`: the card is one share of that space (see `shares`)
    share_span: Span = _span()  # where the shared space is named


@attrs.frozen
class DeckDecl:
    name: str
    label: str | None
    kept: bool
    of_titles: bool
    titles_in: str | None
    size: int | None
    enabled: Expr | None
    provenance: Provenance | None
    cards: tuple[CardDecl, ...]
    span: Span = _span()


@attrs.frozen
class Param:
    name: str
    type: str
    span: Span = _span()


@attrs.frozen
class FunctionDecl:
    name: str
    params: tuple[Param, ...]
    body: Expr
    provenance: Provenance | None
    span: Span = _span()
    extension: str | None = None  # `extension "what replacing it does"`: a point variants are meant to replace


@attrs.frozen
class ActionDecl:
    name: str
    params: tuple[Param, ...]
    provenance: Provenance | None
    body: tuple[Stmt, ...]
    span: Span = _span()
    extension: str | None = None  # as FunctionDecl.extension


@attrs.frozen
class Handler:
    event: str  # setup turn land pass shortfall
    selector: str | None
    body: tuple[Stmt, ...]
    span: Span = _span()
    selector_span: Span = _span()
    provenance: Provenance | None = None  # only a handler put in by `replace handler` has its own

    @property
    def heading(self) -> str:
        """Return the handler's head as written, `on EVENT [SELECTOR]`."""
        return f"on {self.event}" + (f" {self.selector}" if self.selector else "")


@attrs.frozen
class Trigger:
    condition: Expr
    repeat: bool
    body: tuple[Stmt, ...]
    span: Span = _span()


@attrs.frozen
class RuleDecl:
    name: str
    label: str | None
    off: bool
    replaces: tuple[str, ...]
    provenance: Provenance | None
    handlers: tuple[Handler, ...]
    triggers: tuple[Trigger, ...] = ()
    span: Span = _span()
    placement: str | None = None  # `before NAME` / `after NAME`: "before" or "after", with the anchor rule
    anchor: str | None = None
    anchor_span: Span = _span()
    extension: str | None = None  # as FunctionDecl.extension


@attrs.frozen
class EndDecl:
    name: str | None
    condition: Expr
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class ScoreDecl:
    formula: Expr
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class ReferenceDecl:
    """A bibliography entry a rule file adds for its own citations."""

    key: str
    identity: str
    where: str | None
    span: Span = _span()


@attrs.frozen
class PurposeDecl:
    """`purpose NAME "Label"`: a purpose payments are made for (`pay ... as NAME`)."""

    name: str
    label: str | None
    provenance: Provenance | None
    span: Span = _span()


@attrs.frozen
class RerouteDecl:
    """`reroute P, Q to ACCOUNT`: every payment made for one of the purposes goes to the account instead."""

    purposes: tuple[str, ...]
    account: str
    provenance: Provenance | None
    span: Span = _span()
    account_span: Span = _span()
    purpose_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

    def located_purposes(self) -> list[tuple[str, Span]]:
        """Return each purpose with where it is written (the declaration's span for a node built without)."""
        return list(zip(self.purposes, self.purpose_spans or (self.span,) * len(self.purposes)))


@attrs.frozen
class RemoveDecl:
    what: str
    name: str
    span: Span = _span()


@attrs.frozen
class ReplaceHandlerDecl:
    """`replace handler on EVENT [SELECTOR] in rule NAME { ... }`: a variant's new body for one handler of a rule."""

    rule: str
    handler: Handler  # carries the declaration's provenance
    span: Span = _span()
    rule_span: Span = _span()


Declaration = Union[
    OptionDecl,
    AccountDecl,
    ConstDecl,
    TableDecl,
    GroupDecl,
    KindDecl,
    VarDecl,
    BoardDecl,
    DeckDecl,
    FunctionDecl,
    ActionDecl,
    RuleDecl,
    EndDecl,
    ScoreDecl,
    RemoveDecl,
    ReferenceDecl,
    ReplaceHandlerDecl,
    ChoiceDecl,
    DiceDecl,
    PurposeDecl,
    RerouteDecl,
]


@attrs.frozen
class OldSyntax:
    """A construct written in a form the language still reads but will drop: `check` warns, `fmt` rewrites it."""

    message: str
    hint: str
    span: Span


@attrs.frozen
class Module:
    """One parsed .lg file: its header and its declarations in order."""

    header: Header
    declarations: tuple[Declaration, ...]
    source_name: str = attrs.field(default="<string>", eq=False)
    source_text: str = attrs.field(default="", eq=False, repr=False)
    old_syntax: tuple[OldSyntax, ...] = attrs.field(default=(), eq=False, repr=False)


# every node is made by the parser, thousands a file: each gets the quicker __init__ (same signature and fields)
for _node in list(globals().values()):
    if isinstance(_node, type) and _node.__module__ == __name__ and attrs.has(_node):
        quick_init(_node)
del _node
