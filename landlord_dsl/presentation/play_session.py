"""A game played one person's decision at a time, for the Play page (docs/play-in-browser.md).

The page runs this module in a Web Worker under Pyodide. A `PlaySession` steps
a game through the State API (`engine.state`): dice and shuffles from the
seed, as `Game(seed=seed)` throws them; each bot seat answered at once by the
heuristic agent; each human seat's decision or bid handed to the page with
its labelled options, their costs and worths. What the game told since the
last answer comes with it, event by event, as the replay page's frames
(`watch.record`): the sentence, the rule and its citation, and where every
token stands and what every player holds now. The log it writes is the log
`landlord-dsl play --log` writes, and `landlord-dsl replay` verifies it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..agents import decision_context, make_agent
from ..compiling.compiler import compile_ruleset
from ..core.errors import UsageError, visible
from ..engine.state import new_state
from ..program.requests import DecisionRequest
from .board import board_svg
from .narrate import AuctionResult
from .replay import log_text
from .watch import Recorder, Recording, replay_data

if TYPE_CHECKING:
    from ..checking.loader import RuleSet

KINDS = ("human", "bot")


def option_fields(rules: RuleSet) -> list[dict[str, Any]]:
    """Return the options a checked rule file declares, for a page's form (OPTIONS_JS draws them): each
    one's name, label (its name when it has none), default and, for a choice, its values (None for a number
    or a flag, told apart by the default's type)."""
    return [
        {"name": o.name, "label": o.label or o.name, "default": o.default, "choices": o.choices}
        for o in rules.model.options.values()
    ]


class PlaySession:
    """One game between human and bot seats, paused at each human seat's decision or bid.

    `rules` is a checked RuleSet, `edition` the name its log records (a shipped name, or the .lg file's
    name), `kinds` one of KINDS per seat, `options` the rules' option values (text, as `--option` gives
    them). The game starts at once and plays on to the first human request, or to its end.

    :raises UsageError: a seed that is not a whole number, a seat kind other than KINDS, or a number of
        seats the rules do not allow.
    :raises LandlordError: option values the rules refuse (located diagnostics).
    """

    def __init__(
        self,
        rules: RuleSet,
        edition: str,
        kinds: Sequence[str],
        seed: int,
        options: dict[str, Any] | None = None,
        turn_limit: int | None = None,
    ) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):  # (None would leave the dice to the caller)
            raise UsageError(f"the seed is a whole number, not {seed!r}")
        unknown = [k for k in kinds if k not in KINDS]
        if unknown:
            raise UsageError(f"a seat is one of {', '.join(KINDS)}, not {unknown[0]!r}")
        self.rules, self.edition, self.seed, self.kinds = rules, edition, seed, list(kinds)
        self.program = compile_ruleset(rules, options)
        self.state = new_state(self.program, len(kinds), seed=seed, turn_limit=turn_limit)
        self.agents = [make_agent(kind, seed, seat) for seat, kind in enumerate(kinds)]
        game = self.state.game  # (the setup has run to the first request: nothing is told before the names)
        alone = self.kinds.count("human") == 1
        game.names = [f"Player {i + 1}{' (you)' if alone and k == 'human' else ''}" for i, k in enumerate(kinds)]
        self.recording = Recording()
        self.recorder = Recorder(game, rules, self.recording)
        self.auctions = AuctionResult(game)
        self.told = 0  # events of the log already handed over
        self.sent = 0  # frames already handed over
        self.sent_holdings = 0

    def board(self) -> dict[str, Any]:
        """Return what the page draws once: the board's SVG (text, drawn from the rule file as the
        replay page draws it) and the replay page's data without frames (names, colours, spaces, cards,
        accounts)."""
        data = replay_data(self.state.game, self.rules, Recording())
        svg = board_svg(self.rules, program=self.program)
        data["svg"] = svg[svg.index("<svg") :]
        data["kinds"] = self.kinds
        data["seed"] = self.seed
        return data

    def advance(self) -> dict[str, Any]:
        """Play the bot seats on to the next human request or the end; return what the page shows next.

        Returns a dict: `frames`, the replay page's frames of every event told since the last call (each
        with its sentence, rule, citation and the state after it), `holdings` the new distinct holdings
        they refer to (indices go on from the earlier ones), `request` the pending human request (None at
        the end: see `request_data`), `scores` and `winners` at the end (else None)."""
        state = self.state
        while not state.is_terminal():
            request = state.request()
            seat = state.current_player()
            if self.kinds[seat] == "human":
                break
            agent = self.agents[seat]
            game = state.game
            if isinstance(request, DecisionRequest):
                state.apply(agent.choose(game, request))
            else:
                state.apply(agent.bid(game, request))  # type: ignore[arg-type]
        return self._shown()

    def answer(self, action: int | None) -> dict[str, Any]:
        """Answer the pending human request (an option's index, a bid's amount or None to pass) and play on
        as `advance` does; return what `advance` returns.

        :raises UsageError: the answer is not one of `state.legal_actions()` (nothing changes).
        """
        if self.state.is_terminal() or self.kinds[self.state.current_player()] != "human":
            raise UsageError("no human decision is pending")
        self.state.apply(action)
        return self.advance()

    def _shown(self) -> dict[str, Any]:
        game = self.state.game
        self.recorder.game = self.auctions.game = game
        for event in game.log[self.told :]:
            told = self.auctions.follow(event)
            if told is not None:
                self.recorder.frame(event, visible(told))
            self.recorder(event)
        self.told = len(game.log)
        frames = self.recording.frames[self.sent :]
        holdings = self.recording.holdings[self.sent_holdings :]
        self.sent, self.sent_holdings = len(self.recording.frames), len(self.recording.holdings)
        over = self.state.is_terminal()
        result = game.result() if over else None
        return {
            "frames": frames,
            "holdings": holdings,
            "request": None if over else request_data(self.state),
            "scores": list(result.scores) if result else None,
            "winners": sorted(result.winners) if result else None,
        }

    def log(self) -> str:
        """Return the game's log file (text) as `landlord-dsl play --log` writes it: `replay` verifies it."""
        return log_text(self.state.game, self.edition, self.seed)


def request_data(state: Any) -> dict[str, Any]:
    """Return a state's pending decision or bid as the page shows it: the seat, the prompt, the rule that
    asks, the situation (cash, space, this turn's throw) and the answers with their labels, costs and
    worths (`action` is what `PlaySession.answer` takes). A bid has `minimum`, `maximum` and the
    opening price, the highest bid so far and the title's worth instead of options."""

    request = state.request()
    game = state.game
    seat = state.current_player()
    context = decision_context(game, seat)
    if isinstance(request, DecisionRequest):
        options = request.options
        actions = state.legal_actions()
        done = next((i for i, (k, *_) in enumerate(request.legal) if k == request.site.done), None)
        return {
            "kind": "decide",
            "seat": seat,
            "prompt": visible(request.prompt),
            "rule": request.rule,
            "context": context,
            "options": [
                {"action": a, "label": visible(o.label), "cost": o.cost, "worth": o.value, "done": i == done}
                for i, (a, o) in enumerate(zip(actions, options))
            ],
        }
    return {
        "kind": "bid",
        "seat": seat,
        "prompt": f"Auction of {visible(request.space)}",
        "rule": request.rule,
        "context": context,
        "minimum": request.minimum,
        "maximum": request.maximum,
        "start": request.start,
        "high_bid": request.high_bid,
        "worth": request.value,
    }
