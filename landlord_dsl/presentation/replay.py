"""Game logs bound to their game, and replaying them to verify them.

A log file (`landlord-dsl play --log FILE`) is JSON lines: a header object
naming the game (the rules and their hash, the option values, the seed, the
players' names, the turn limit), one JSON array per event, as
`Game.log_lines()` gives them, and a closing object with the number of
events, every decision in the order it was asked, and a running hash of the
header and the events. Replaying a log plays the same rules with the same
seed and the recorded decisions, compares every event with the recorded one
as the game goes, and reports the first place where they part.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ..agents import Agent
from ..checking.constants import with_constants
from ..compiling.compiler import compile_ruleset
from ..core.errors import Diagnostic, GameLogError, LandlordError, UsageError, unreadable, visible
from ..core.resources import editions_dir
from ..engine.game import Game
from ..language.limits import MAX_LOG_INPUT, MAX_TURN_LIMIT
from ..program.requests import DONE, BidRequest, DecisionRequest

if TYPE_CHECKING:
    from ..engine.game import Game

FORMAT = "landlord-dsl game log"
VERSION = 1
_HEADER_FIELDS = {
    "format": str,
    "version": int,
    "edition": str,
    "rules_hash": str,
    "options": dict,
    "seed": int,
    "names": list,
    "turn_limit": int,
}
_DECISION_EVENTS = ("decide", "bid")


def running_hash(previous: str, line: str) -> str:
    """Return the running hash after `line`, given the hash of everything before it."""
    return hashlib.sha256((previous + "\n" + line).encode("utf-8")).hexdigest()


def log_text(game: Game, edition: str, seed: int, constants: dict[str, Any] | None = None) -> str:
    """Return a game's log file: its header (with the `constants` set from outside, when there are any), its events
    so far, and its closing line."""
    header = json.dumps(
        ({"constants": constants} if constants else {})
        | {
            "format": FORMAT,
            "version": VERSION,
            "edition": edition,
            "rules_hash": game.prog.rules_hash,
            "options": game.prog.options,
            "seed": seed,
            "names": game.names,
            "turn_limit": game.turn_limit,
        },
        sort_keys=True,
    )
    events = game.log_lines()
    closing = json.dumps(
        {"events": len(events), "decisions": game.decisions, "hash": _digest(header, events, game.decisions)},
        sort_keys=True,
    )
    return "\n".join([header, *events, closing]) + "\n"


@attrs.frozen
class GameLog:
    """A log file read back: its header, its event lines and its closing line."""

    name: str
    header_line: str
    header: dict[str, Any]
    events: list[str]
    decisions: list[Any]
    hash: str

    def hash_matches(self) -> bool:
        """Return True if the header, events and decisions hash to the recorded hash (the file is as written)."""
        return _digest(self.header_line, self.events, self.decisions) == self.hash


def _digest(header: str, events: list[str], decisions: list[Any]) -> str:
    """Return the running hash of a log's header line, its event lines and then its decisions."""
    digest = running_hash("", header)
    for line in events:
        digest = running_hash(digest, line)
    return running_hash(digest, json.dumps(decisions))


def _bad(name: str, line: int, message: str) -> LandlordError:
    return GameLogError(
        [
            Diagnostic(
                f"{name}:{line}: not a landlord-dsl game log: {message}",
                hint="logs are written by `landlord-dsl play --log FILE`",
            )
        ]
    )


def read_log(text: str, name: str = "<log>") -> GameLog:
    """Return the GameLog in a log file's text; a malformed file raises LandlordError."""
    return _log_from_lines(text.split("\n"), name)


def read_log_file(target: str) -> GameLog:
    """Return the GameLog in the file `target` (`-`: standard input); raise LandlordError if it is not one.

    The file is read a line at a time, at most MAX_LOG_INPUT bytes in all
    (logs have their own limit, far above a rule file's), so an endless input
    such as /dev/zero is refused without reading the rest."""
    name = "<stdin>" if target == "-" else target
    if target != "-" and os.path.isdir(target):
        raise UsageError(f"{name} is a directory, not a game log")
    try:
        stream: Any = getattr(sys.stdin, "buffer", sys.stdin) if target == "-" else open(target, "rb")  # noqa: SIM115
    except OSError as err:
        raise unreadable(name, err) from None
    lines: list[str] = []
    left = MAX_LOG_INPUT
    try:
        while True:
            raw = stream.readline(left + 1)
            if not raw:
                break
            if isinstance(raw, str):  # a stream without bytes underneath (a StringIO)
                raw = raw.encode("utf-8", "surrogatepass")
            left -= len(raw)
            if left < 0:
                raise _bad(
                    name,
                    len(lines) + 1,
                    f"it is larger than {MAX_LOG_INPUT / (1 << 20):g} MiB, the most landlord-dsl reads as a game log",
                )
            try:
                lines.append(raw.decode("utf-8").removesuffix("\n"))
            except UnicodeDecodeError:
                raise _bad(name, len(lines) + 1, "the line is not UTF-8 text") from None
    except OSError as err:
        raise unreadable(name, err) from None
    finally:
        if target != "-":
            stream.close()
    return _log_from_lines(lines, name)


def _log_from_lines(lines: list[str], name: str) -> GameLog:
    """Return the GameLog made of a log file's lines (without their line ends); a malformed log raises LandlordError.

    Empty lines at the end (an editor's extra line end) are not part of the log."""
    while lines and lines[-1] == "":
        lines = lines[:-1]
    if len(lines) < 2:
        raise _bad(name, len(lines) or 1, "it needs a header line and a closing line")
    header, closing = _json_line(name, lines, 0), _json_line(name, lines, len(lines) - 1)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _bad(name, 1, "the first line is not its header")
    unknown = sorted(set(header) - set(_HEADER_FIELDS) - {"constants"})
    if unknown:
        raise _bad(name, 1, f"the header has fields no log has: {', '.join(map(repr, unknown))}")
    for field, kind in _HEADER_FIELDS.items():
        if type(header.get(field)) is not kind:
            raise _bad(name, 1, f"the header's '{field}' is missing or not a {kind.__name__}")
    if type(header.get("constants", {})) is not dict:
        raise _bad(name, 1, "the header's 'constants' are not a dict")
    if not all(type(n) is str for n in header["names"]):
        raise _bad(name, 1, "the header's 'names' are not all strings")
    if not 1 <= header["turn_limit"] <= MAX_TURN_LIMIT:
        raise _bad(name, 1, f"the header's turn limit is not from 1 to {MAX_TURN_LIMIT:,}")
    if header["version"] != VERSION:
        raise _bad(name, 1, f"version {header['version']}; this landlord-dsl reads version {VERSION}")
    if (
        not isinstance(closing, dict)
        or type(closing.get("events")) is not int
        or not isinstance(closing.get("decisions"), list)
        or not isinstance(closing.get("hash"), str)
    ):
        raise _bad(name, len(lines), "the last line is not its closing line (was the file cut short?)")
    events = lines[1:-1]
    if closing["events"] != len(events):
        raise _bad(
            name,
            len(lines),
            f"it records {closing['events']} events but holds {len(events)} (lines were added or removed)",
        )
    return GameLog(name, lines[0], header, events, closing["decisions"], closing["hash"])


def _json_line(name: str, lines: list[str], index: int) -> Any:
    """Return the JSON value on line `index` (0-based) of a log; malformed JSON raises LandlordError."""
    try:
        return json.loads(lines[index])
    except (ValueError, RecursionError) as err:
        raise _bad(name, index + 1, str(err)) from None


def edition_of_log(log: GameLog) -> str:
    """Return what to load for the rules a log names: a shipped name, or a real .lg path beside the log.

    A log is data someone may have sent, so it may name only a shipped edition
    or a .lg file in the log's own folder (resolved through every symlink, as
    `extends` is); anything else raises UsageError without reading the file.
    Give the rules with `--edition` (`replay(log, load)` in Python) to replay
    against a file elsewhere."""
    folder = None if log.name.startswith("<") else Path(log.name).parent.resolve()
    parts = []
    for part in log.header["edition"].split("+"):
        if not part.endswith(".lg"):
            parts.append(part)  # only ever a shipped edition's name (resources.resolve)
            continue
        real = None
        if folder is not None:
            try:
                real = (folder / part).resolve(strict=True)
            except (OSError, RuntimeError):  # missing, unreadable, or a symlink loop
                real = None
        roots = [root for root in (folder, editions_dir().resolve()) if root is not None]
        if real is None or not real.is_file() or not any(real.is_relative_to(root) for root in roots):
            raise UsageError(
                [
                    Diagnostic(
                        f"{log.name}:1: the log's rules {visible(part)!r} are not a shipped edition "
                        "nor a .lg file beside the log",
                        hint="give the rules with --edition FILE",
                    )
                ]
            )
        parts.append(str(real))
    return "+".join(parts)


class Divergence(LandlordError):
    """The replayed game parted from the recorded one."""


@attrs.frozen
class ReplayReport:
    """What replaying a log found: `ok`, or the first divergence, in `problems`."""

    events: int
    decisions: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


class _Checker(Agent):
    """Answers every seat with the recorded decisions, first checking the game so far against the log."""

    def __init__(self, log: GameLog):
        self.log = log
        self.recorded = log.events
        self.asked = 0
        self.checked = 0

    def check(self, game: Game) -> None:
        """Compare the events logged since the last check with the recorded ones.

        Returns nothing; raises Divergence at the first difference."""
        for index, line in enumerate(game.log_lines(self.checked), self.checked):
            recorded = self.recorded[index] if index < len(self.recorded) else None
            if line != recorded:
                raise Divergence(self.describe(index, line, recorded))
        self.checked = len(game.log)

    def describe(self, index: int, replayed: str | None, recorded: str | None) -> str:
        """Return the sentence that reports the first difference, at event `index`, and its decision."""
        name = self.log.name
        where = f"{name}:{index + 2}"  # the header is line 1
        said = (
            f"event {index + 1} differs: recorded {recorded or '(nothing: the log ends)'}, "
            f"replayed {replayed or '(nothing: the game ended)'}"
        )
        decisions = [i for i, line in enumerate(self.recorded[: index + 1]) if _kind(line) in _DECISION_EVENTS]
        if decisions and decisions[-1] == index:
            return f"{where}: the replay parts from the log at decision {len(decisions)}: {said}"
        if decisions:
            last = decisions[-1]
            return (
                f"{where}: the replay parts from the log after decision {len(decisions)} "
                f"(line {last + 2}: {self.recorded[last]}): {said}"
            )
        return f"{where}: the replay parts from the log before any decision (the dice or the rules differ): {said}"

    def _answer(self, game: Game, what: str) -> Any:
        self.check(game)
        if self.asked >= len(self.log.decisions):
            raise Divergence(
                f"{self.log.name}: the replay asks decision {self.asked + 1} ({what}), "
                f"but the log records only {len(self.log.decisions)}"
            )
        self.asked += 1
        return self.log.decisions[self.asked - 1]

    def choose(self, game: Game, request: DecisionRequest) -> int:
        answer = self._answer(game, f"'{request.prompt}'")
        legal, done = request.legal, request.site.done
        if type(answer) is int and answer == DONE and done is not None and legal and legal[-1][0] == done:
            return len(legal) - 1  # the offer's done, always its last entry
        if type(answer) is not int or not 0 <= answer < len(legal):
            offers = "" if done is None else f" (or {DONE}, for done)"
            raise Divergence(
                f"{self.log.name}: decision {self.asked} ('{request.prompt}') is recorded as "
                f"{json.dumps(answer)}, not one of its {len(legal)} options{offers}"
            )
        return answer

    def bid(self, game: Game, request: BidRequest) -> int | None:
        answer = self._answer(game, f"a bid for {request.space}")
        if answer is not None and (type(answer) is not int or not request.minimum <= answer <= request.maximum):
            raise Divergence(
                f"{self.log.name}: decision {self.asked} (a bid for {request.space}) is recorded "
                f"as {json.dumps(answer)}, outside {request.minimum}..{request.maximum}"
            )
        return answer


def _kind(line: str) -> str | None:
    try:
        event = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return event[0] if isinstance(event, list) and event and isinstance(event[0], str) else None


def replay(
    log: GameLog, load_rules: Callable[[str], Any], prepare: Callable[[Game, Any], None] | None = None
) -> ReplayReport:
    """Replay a log with the rules `load_rules(edition)` returns; return what was found.

    `prepare(game, rules)`, if given, is called with the replayed game before it
    starts (to follow it, e.g. watch.record for an HTML replay).

    The rules, with the constants the log says were set (`--set`), must have
    the recorded hash. Every event is compared with the recorded one before
    each decision is answered and when the game ends;
    the first difference stops the replay and is reported with the decision
    it follows. A file whose events no longer hash to its recorded hash was
    changed after it was written, which is reported too.
    """
    header = log.header
    problems = (
        []
        if log.hash_matches()
        else [f"{log.name}: the file was changed after it was written: it does not match its recorded hash"]
    )
    rules = with_constants(load_rules(header["edition"]), header.get("constants"))
    if rules.rules_hash != header["rules_hash"]:
        return ReplayReport(
            0,
            0,
            tuple(
                problems
                + [
                    f"{log.name}:1: the rules of '{header['edition']}' have changed since this game was logged "
                    f"(rules hash {header['rules_hash']}, now {rules.rules_hash})"
                ]
            ),
        )
    program = compile_ruleset(rules, header["options"])
    names = header["names"]
    checker = _Checker(log)
    game = Game(program, [checker] * len(names), seed=header["seed"], names=names, turn_limit=header["turn_limit"])
    if program.options != header["options"]:
        problems.append(f"{log.name}:1: the options differ from the ones recorded")
    if prepare is not None:
        prepare(game, rules)
    try:
        game.play()
        checker.check(game)
        if len(game.log) != len(log.events):
            raise Divergence(checker.describe(len(game.log), None, log.events[len(game.log)]))
        if checker.asked != len(log.decisions):
            problems.append(
                f"{log.name}: the game asked {checker.asked} decisions, the log records {len(log.decisions)}"
            )
    except Divergence as err:
        problems.extend(d.message for d in err.diagnostics)
    except LandlordError as err:
        try:
            checker.check(game)
        except Divergence as divergence:
            problems.extend(d.message for d in divergence.diagnostics)
        else:
            if len(game.log) != len(log.events):  # else the recorded game failed at the same place
                problems.append(
                    f"{log.name}: the replay failed after event {len(game.log)}, where the "
                    f"recorded game went on: {err.diagnostics[0].message}"
                )
    return ReplayReport(len(game.log), checker.asked, tuple(problems))
