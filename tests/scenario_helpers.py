"""Small helpers for the rule-by-rule scenario tests (tests/test_scenarios_*.py).

A scenario is built by hand: a game whose setup is skipped (`started=True`),
cash, positions, titles and houses set directly, fixed dice (ScriptedChance)
and fixed answers (ScriptedAgent, one per seat). The helpers below name
things by their .lg names so that the tests read like the rule text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import landlord_dsl as ld
from landlord_dsl import ScriptedAgent, ScriptedChance

EDITION = "landlords-game-1906"

_RULES: dict[str, Any] = {}


class RecordingAgent(ScriptedAgent):
    """A ScriptedAgent that also records what it was asked.

    `asked` holds (prompt, [legal option names]) for every decision and
    `bid_requests` every BidRequest, so a test can check which options the
    rules offered, not only which one was taken.
    """

    def __init__(self, answers, passes: Iterable[str] = ()):
        super().__init__(answers)
        self.asked: list[tuple[str, list[str]]] = []
        self.labels: list[list[str]] = []
        self.bid_requests: list = []
        self.passes = tuple(passes)
        self.passed: list[tuple[str, list[str]]] = []

    def choose(self, game, request):
        options = request.options  # built on demand, labels included: every scenario reads them
        names = [o.name for o in options]
        if request.prompt in self.passes and "done" in names and not (self.answers and self.answers[0] in names):
            # an offer this scenario is not about: say "done" unless the script answers it
            self.passed.append((request.prompt, names))
            return names.index("done")
        self.asked.append((request.prompt, names))
        self.labels.append([o.label for o in options])
        return super().choose(game, request)

    def bid(self, game, request):
        self.bid_requests.append(request)
        return super().bid(game, request)


_PROGRAMS: dict[tuple, Any] = {}


def rules(edition: str = EDITION):
    """Return the checked RuleSet of an edition (loaded once per test session)."""
    if edition not in _RULES:
        _RULES[edition] = ld.load_edition(edition)
    return _RULES[edition]


def program(edition: str = EDITION, **options):
    """Return the compiled Program for these option values (compiled once per set of options)."""
    key = (edition, tuple(sorted(options.items())))
    if key not in _PROGRAMS:
        _PROGRAMS[key] = ld.compile_rules(rules(edition), options)
    return _PROGRAMS[key]


def make_game(
    players: int = 2,
    answers: Sequence[Iterable[object]] | None = None,
    throws: Iterable[tuple[int, ...]] = (),
    shuffles: list[list[int]] | None = None,
    cash: Sequence[int] | int | None = 0,
    at: Sequence[str] | None = None,
    start: bool = True,
    edition: str = EDITION,
    passes: Sequence[str] = (),
    first: int | None = None,
    **options,
):
    """Return a game of `players` scripted seats.

    answers: one answer list per seat; throws: the dice, in order.
    passes: prompts of offers the seats answer "done" to, unless their next
    scripted answer is one of the options (the offers a scenario is not about).
    first: for a setup that throws for the first player (1906), the seat that
    wins the opening throws; they are put before `throws`.
    With start=True the setup (Rule 1) is skipped: every seat gets `cash`
    (one int for all, or one per seat) and stands on the spaces named in `at`.
    Options are passed by name, e.g. make_game(chance_deck=False).
    """
    prog = program(edition, **options)
    answers = answers if answers is not None else [[] for _ in range(players)]
    agents = [RecordingAgent(list(a), passes) for a in answers]
    throws = list(throws)
    if first is not None:
        throws = opening_throws(players, first) + throws
    game = ld.new_game(prog, agents=agents, chance=ScriptedChance(throws, shuffles))
    if start:
        game.started = True
        if cash is not None:
            amounts = [cash] * players if isinstance(cash, int) else list(cash)
            for seat, amount in enumerate(amounts):
                set_cash(game, seat, amount)
        if at is not None:
            for seat, name in enumerate(at):
                put(game, seat, name)
    return game


# The prompt of the 1933 once-a-turn trading offer, which most scenarios pass on.
TRADE_PROMPT_1933 = "Offer a property to the other players?"


def opening_throws(players: int, first: int) -> list[tuple[int, int]]:
    """Throws, one per seat in seat order, that make `first` the clear winner of the opening throws."""
    return [(6, 5) if seat == first else (1, 2) for seat in range(players)]


# ----------------------------------------------------------------- names
def space(game_or_prog, name: str) -> int:
    """Return the board index of a space by its .lg name."""
    prog = getattr(game_or_prog, "prog", game_or_prog)
    return prog.space_names.index(name)


def card(game_or_prog, name: str) -> int:
    """Return the card index of a card by its .lg name (title cards share their space's name)."""
    prog = getattr(game_or_prog, "prog", game_or_prog)
    return prog.card_names.index(name)


def ledger_name(game, index: int) -> str:
    """Name a ledger index: an account name, or 'p0', 'p1', ... for players."""
    if index < game.nacc:
        return game.prog.account_names[index]
    return f"p{index - game.nacc}"


# ----------------------------------------------------------------- money
def cash(game, seat: int) -> int:
    return game.bal[game.nacc + seat]


def set_cash(game, seat: int, amount: int) -> None:
    game.bal[game.nacc + seat] = amount


def account(game, name: str) -> int:
    return game.account_balance(name)


def payments(game, since: int = 0) -> list[tuple[int, str, str, str]]:
    """Every payment in the log (from event `since` on) as (amount, from, to, rule name)."""
    out = []
    for event in game.log[since:]:
        if event[0] == "pay":
            _, _turn, amount, src, dst, rule = event
            out.append((amount, ledger_name(game, src), ledger_name(game, dst), game.rule_name(rule)))
    return out


def unpaid(game) -> list[tuple[int, int, str]]:
    """Every 'unpaid' event as (seat, amount missing, rule name)."""
    return [(e[2], e[3], game.rule_name(e[5])) for e in game.log if e[0] == "unpaid"]


# -------------------------------------------------------------- positions
def where(game, seat: int) -> str:
    """The .lg name of the space a seat stands on."""
    return game.prog.space_names[game.pos[seat]]


def put(game, seat: int, name: str) -> None:
    game.pos[seat] = space(game, name)


def moves(game) -> list[tuple[int, str, str, str]]:
    """Every move and send in the log as (seat, from, to, kind) with kind 'move' or 'send'."""
    names = game.prog.space_names
    return [(e[2], names[e[3]], names[e[4]], e[0]) for e in game.log if e[0] in ("move", "send")]


# ------------------------------------------------------------- ownership
def give(game, space_name: str, seat: int | None) -> None:
    """Make `seat` the holder of the title card of a space (None: back to nobody)."""
    game.set_holder(game.prog.title_card[space(game, space_name)], seat)


def owner(game, space_name: str) -> int | None:
    return game.owner[space(game, space_name)]


def cards_of(game, seat: int) -> list[str]:
    """Names of every card a seat holds, in card order."""
    return [game.prog.card_names[c] for c, h in enumerate(game.holder) if h == seat]


def deck(game, name: str) -> list[str]:
    """Names of the cards in a deck, top first."""
    return [game.prog.card_names[c] for c in game.decks[name]]


# ------------------------------------------------------------- variables
def _index(game, kind: str, name: str) -> int:
    """Index of a `player var` / `space var` by name, in declaration order."""
    return list(getattr(rules(game.prog.name).model, kind)).index(name)


def pvar(game, name: str, seat: int):
    return game.pv[_index(game, "player_vars", name)][seat]


def set_pvar(game, name: str, seat: int, value) -> None:
    game.pv[_index(game, "player_vars", name)][seat] = value


def svar(game, name: str, space_name: str):
    """The value of a space variable on a space, both by their .lg names."""
    return game.sv[_index(game, "space_vars", name)][space(game, space_name)]


def set_svar(game, name: str, space_name: str, value) -> None:
    game.sv[_index(game, "space_vars", name)][space(game, space_name)] = value


def houses(game, space_name: str) -> int:
    return game.sv[_index(game, "space_vars", "houses")][space(game, space_name)]


def set_houses(game, space_name: str, count: int) -> None:
    game.sv[_index(game, "space_vars", "houses")][space(game, space_name)] = count


# ------------------------------------------------------------- decisions
def decisions(game) -> list[tuple[int, str, str]]:
    """Every decision asked, as (seat, option taken, rule name)."""
    return [(e[2], e[4], game.rule_name(e[5])) for e in game.log if e[0] == "decide"]


def bids(game) -> list[tuple[int, int | None]]:
    """Every bid asked in an auction, as (seat, answer)."""
    return [(e[2], e[4]) for e in game.log if e[0] == "bid"]


def offered(game, seat: int) -> list[list[str]]:
    """The legal option names of every decision put to `seat`, in order."""
    return [names for _prompt, names in game.agents[seat].asked]


def labels(game, seat: int) -> list[list[str]]:
    """The labels of the legal options of every decision put to `seat`, in order."""
    return game.agents[seat].labels


def rolls(game) -> list[tuple[int, tuple[int, ...]]]:
    return [(e[2], tuple(e[3])) for e in game.log if e[0] == "roll"]


def turn(game, seat: int) -> None:
    """Play one turn of `seat` (whoever was due next)."""
    game.next_seat = seat
    game.play_turn()


def script_used_up(game) -> bool:
    """True if every scripted answer and every scripted throw was consumed."""
    agents_done = all(not a.answers for a in game.agents if isinstance(a, ScriptedAgent))
    dice_done = not getattr(game.chance, "throws", [])
    return agents_done and dice_done


def assert_script_used_up(game) -> None:
    left = {seat: a.answers for seat, a in enumerate(game.agents) if isinstance(a, ScriptedAgent) and a.answers}
    throws = getattr(game.chance, "throws", [])
    assert not left and not throws, f"unused answers {left}, unused throws {throws}"


def engine_function(source: str, name: str, **names: Any):
    """Return the function `name` defined by `source`, compiled as if written in landlord_dsl/engine/game.py,
    with `names` as its globals: a Python error raised there is the engine's (reported as a rule failure),
    where one raised in a caller's own code (a test's, an agent's) is the caller's and reaches it unchanged."""
    from landlord_dsl.engine import game as engine

    namespace: dict[str, Any] = dict(names)
    exec(compile(source, engine.__file__, "exec"), namespace)
    return namespace[name]
