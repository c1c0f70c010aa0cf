"""Tables of a classroom game (`landlord-dsl serve`, docs/classroom.md): one game per table, its seats
answered from the students' own devices.

A `Table` is a `PlaySession` (play_session.py) with who may answer for each seat: a random `token` that
joining needs, a `teacher` key for the teacher's view (narration, log, summary), and for each human seat
the secret of the device that took it (one device may take several seats: a hot seat). What a table is
can be rebuilt from two files: its game log (the log `landlord-dsl replay` verifies, whose header names
the seats: a bot's name ends in " (bot)") and its keys (the tokens and the devices' secrets). A pasted
rule file is kept beside them, as the log names it. `Classroom` keeps every table of a server and, given
a folder, writes both files after every answer and rebuilds every table from them when it starts again.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import UsageError
from ..program.requests import DONE, DecisionRequest
from .play_session import PlaySession
from .replay import read_log

if TYPE_CHECKING:
    from ..checking.loader import RuleSet

BOT = " (bot)"
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: a code read aloud or off a board
_CODE = re.compile(f"^[{CODE_LETTERS}]{{6}}$")


def _code(length: int) -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(length))


class Table:
    """One game at a table: its session, its join `token`, the `teacher`'s key and each seat's device.

    `id` is the table's short code (6 letters or digits), `devices[seat]` the secret of the device that
    answers for a human seat (None while no device has taken it; always None for a bot)."""

    def __init__(
        self,
        session: PlaySession,
        table_id: str,
        token: str | None = None,
        teacher: str | None = None,
        devices: Sequence[str | None] | None = None,
        decisions: Sequence[Any] | None = None,
    ) -> None:
        self.session, self.id = session, table_id
        self.token = token or _code(10)
        self.teacher = teacher or secrets.token_urlsafe(18)
        self.devices: list[str | None] = list(devices) if devices is not None else [None] * len(session.kinds)
        game = session.state.game
        game.names = [f"Player {s + 1}{BOT if k == 'bot' else ''}" for s, k in enumerate(session.kinds)]
        self.board = session.board()
        self.frames: list[dict[str, Any]] = []
        self.holdings: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}
        if decisions is None:
            self.take(session.advance())
        else:
            self._replay(decisions)

    def _replay(self, decisions: Sequence[Any]) -> None:
        """Answer the recorded decisions in order, a bot's as a person's, taking what the game shows at
        each human request as the live table took it (so every frame is the one sent then)."""
        state, left = self.session.state, list(decisions)
        while True:
            while not state.is_terminal() and self.session.kinds[state.current_player()] != "human":
                if not left:
                    raise UsageError(f"table {self.id}: the log ends while a bot is to answer")
                state.apply(_action(state, left.pop(0)))
            self.take(self.session.advance())  # (nobody but a person is to answer: it plays nothing)
            if not left:
                return
            if state.is_terminal():
                raise UsageError(f"table {self.id}: the log records more decisions than its game asks")
            state.apply(_action(state, left.pop(0)))

    def take(self, shown: dict[str, Any]) -> dict[str, Any]:
        """Keep what the session showed (its frames and holdings add to the table's); return it."""
        self.frames += shown["frames"]
        self.holdings += shown["holdings"]
        self.last = shown
        return shown

    def view(self) -> dict[str, Any]:
        """Return everything a device that joins now draws: the board, every frame and holding so far, the
        pending request, the scores and winners at the end, and which seats are taken."""
        return {
            "board": self.board,
            "frames": self.frames,
            "holdings": self.holdings,
            "request": self.last["request"],
            "scores": self.last["scores"],
            "winners": self.last["winners"],
            "taken": [d is not None for d in self.devices],
        }

    def admits(self, token: str) -> bool:
        """Return True if `token` is this table's join token."""
        return secrets.compare_digest(token.encode(), self.token.encode())

    def is_teacher(self, key: str) -> bool:
        """Return True if `key` is the teacher's key of this table."""
        return secrets.compare_digest(key.encode(), self.teacher.encode())

    def join(self, token: str, seats: Sequence[int]) -> str:
        """Give the human `seats` (all free, one at least) to a new device; return the device's secret.

        :raises UsageError: a wrong token, no seat, a bot's seat, a seat out of range or already taken.
        """
        if not self.admits(token):
            raise UsageError("the table's token is not that one")
        if not seats:
            raise UsageError("choose a seat to play")
        for seat in seats:
            if not (type(seat) is int and 0 <= seat < len(self.devices)):
                raise UsageError(f"the table has no seat {seat!r}")
            if self.session.kinds[seat] != "human":
                raise UsageError(f"Player {seat + 1} is a bot's seat")
            if self.devices[seat] is not None:
                raise UsageError(f"Player {seat + 1}'s seat is taken")
        device = secrets.token_urlsafe(18)
        for seat in seats:
            self.devices[seat] = device
        return device

    def seats_of(self, device: str) -> list[int]:
        """Return the seats a device answers for (none for an unknown secret): how it rejoins."""
        return [s for s, d in enumerate(self.devices) if d is not None and secrets.compare_digest(d, device)]

    def answer(self, device: str, action: int | None) -> dict[str, Any]:
        """Answer the pending request for a seat this device holds; return what the game shows next.

        :raises UsageError: the game is over, the pending seat is not this device's, or the answer is not
            one of the legal ones (nothing changes).
        """
        request = self.last["request"]
        if request is None:
            raise UsageError("the game is over")
        if request["seat"] not in self.seats_of(device):
            raise UsageError(f"it is Player {request['seat'] + 1}'s decision, not one of your seats'")
        return self.take(self.session.answer(action))

    @property
    def over(self) -> bool:
        return self.last["request"] is None

    def log(self) -> str:
        """Return the game's log file so far (text; `landlord-dsl replay` verifies it)."""
        return self.session.log()

    def keys(self) -> dict[str, Any]:
        """Return what the log does not hold: the table's code, token, teacher's key and devices."""
        return {"id": self.id, "token": self.token, "teacher": self.teacher, "devices": self.devices}

    def summary(self) -> str:
        """Return the game's summary (text): the rules, seed and options, each player's seat, decisions
        and score, and the winners (or who is to answer, while it goes on)."""
        session, game = self.session, self.session.state.game
        decided = [0] * len(session.kinds)
        for event in game.log:
            if event[0] in ("decide", "bid"):
                decided[event[2]] += 1  # (LogDecide and LogBid: kind, turn, seat, ...)
        options = ", ".join(f"{k}={v}" for k, v in sorted(game.prog.options.items())) or "(none)"
        lines = [
            f"Table {self.id}: {session.edition}, seed {session.seed}",
            f"options: {options}",
            f"turns: {game.turn}, events: {len(game.log)}, decisions: {len(game.decisions)}",
        ]
        scores = self.last["scores"]
        for seat, name in enumerate(game.names):
            score = f", score {scores[seat]}" if scores else ""
            win = " (winner)" if self.last["winners"] and seat in self.last["winners"] else ""
            lines.append(f"  {name}{win}: {session.kinds[seat]}, {decided[seat]} decisions{score}")
        if not scores:
            lines.append(f"still playing: Player {self.last['request']['seat'] + 1} is to answer")
        return "\n".join(lines) + "\n"


def rebuild(log_text: str, keys: dict[str, Any], load_rules: Callable[[str], RuleSet]) -> Table:
    """Return the table a log and its keys describe, its game replayed to where the log ends.

    The seats' kinds are read from the log's names (a bot's ends in " (bot)"); every recorded decision,
    a bot's as a person's, is answered as recorded, and the bots play on from there as they would have.

    :raises LandlordError: a malformed log, rules that are not the log's, or keys that do not fit it.
    """
    log = read_log(log_text, f"{keys.get('id', 'table')}.log")
    header = log.header
    kinds = ["bot" if name.endswith(BOT) else "human" for name in header["names"]]
    devices = keys.get("devices")
    if not isinstance(devices, list) or len(devices) != len(kinds):
        raise UsageError(f"the keys of table {keys.get('id')!r} do not name a device per seat")
    rules = load_rules(header["edition"])
    session = PlaySession(rules, header["edition"], kinds, header["seed"], header["options"], header["turn_limit"])
    table = Table(session, keys["id"], keys["token"], keys["teacher"], devices, log.decisions)
    if table.log() != log_text:
        raise UsageError(f"table {keys['id']}: the rebuilt game's log is not the one kept (were the rules changed?)")
    return table


def _action(state: Any, answer: Any) -> Any:
    """Return a recorded decision as the State API takes it: a log records "done" as DONE, the offer's
    last entry."""
    request = state.request()
    if answer == DONE and isinstance(request, DecisionRequest) and request.site.done is not None:
        return len(request.legal) - 1
    return answer


_KEY_FIELDS = ("id", "token", "teacher")


def _read_keys(path: Path) -> dict[str, Any]:
    """Return the keys a table's ID.keys.json holds.

    :raises UsageError: naming the file, when it is not JSON or lacks a field (a damaged tables folder
        is the teacher's to mend, not an internal error).
    """
    try:
        keys = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise UsageError(f"{path}: not a table's keys ({err}); move it out of the tables folder") from None
    if not isinstance(keys, dict) or not all(isinstance(keys.get(f), str) and keys.get(f) for f in _KEY_FIELDS):
        raise UsageError(
            f"{path}: not a table's keys (it needs {', '.join(_KEY_FIELDS)} as texts); move it out of the tables folder"
        )
    return keys


class Classroom:
    """Every table of a server, by code; with a `folder`, each table's log and keys are written there
    after every change (ID.log, ID.keys.json, and ID.lg for a pasted rule file), and `Classroom(folder)`
    rebuilds every table found there."""

    def __init__(self, folder: Path | None, load_rules: Callable[[str], RuleSet]) -> None:
        self.folder, self.load_rules = folder, load_rules
        self.tables: dict[str, Table] = {}
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            for keys_file in sorted(folder.glob("*.keys.json")):
                keys = _read_keys(keys_file)
                try:
                    log_text = (folder / f"{keys['id']}.log").read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError) as err:
                    raise UsageError(f"{keys_file}: its table's log {keys['id']}.log cannot be read: {err}") from None
                self.tables[keys["id"]] = rebuild(log_text, keys, self._rules)

    def _rules(self, edition: str) -> RuleSet:
        if edition.endswith(".lg") and self.folder is not None:
            return self.load_rules(str(self.folder / Path(edition).name))
        return self.load_rules(edition)

    def start(
        self,
        edition: str,
        kinds: Sequence[str],
        seed: int,
        options: dict[str, Any] | None = None,
        text: str | None = None,
    ) -> Table:
        """Start a table of a shipped edition, or of a pasted rule file `text` (checked as `check` checks
        a file, with the same limits); return it.

        :raises LandlordError: rules that do not check, options they refuse, seats they do not allow.
        """
        table_id = _code(6)
        while table_id in self.tables:
            table_id = _code(6)
        if text is not None:
            if self.folder is None:
                raise UsageError("a pasted rule file needs the server's folder for tables (--tables DIR)")
            edition = f"{table_id.lower()}.lg"
            (self.folder / edition).write_text(text, encoding="utf-8")
        try:
            table = Table(PlaySession(self._rules(edition), edition, kinds, seed, options), table_id)
        except Exception:
            if text is not None and self.folder is not None:
                (self.folder / edition).unlink()  # (a file that did not check is no table's)
            raise
        self.tables[table_id] = table
        self.save(table)
        return table

    def table(self, table_id: str) -> Table:
        """Return the table of a code (letters in either case).

        :raises UsageError: no table has that code."""
        code = table_id.strip().upper()
        if not _CODE.match(code) or code not in self.tables:
            raise UsageError(f"no table has the code {table_id!r}")
        return self.tables[code]

    def save(self, table: Table) -> None:
        """Write a table's log and keys into the folder (nothing without one)."""
        if self.folder is None:
            return
        (self.folder / f"{table.id}.log").write_text(table.log(), encoding="utf-8")
        (self.folder / f"{table.id}.keys.json").write_text(json.dumps(table.keys(), indent=1), encoding="utf-8")
