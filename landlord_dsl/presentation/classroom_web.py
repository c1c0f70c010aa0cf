"""The classroom server's web application (`landlord-dsl serve`, docs/classroom.md): an ASGI app (Starlette).

Routes: `/` the teacher's page (with the server's key, printed when it starts): start a table, see the
tables; `/options` a shipped edition's declared options, for the teacher's form; `/join` a student types
a table's code and token; `/t/ID` a table's page, for a student (its token in the link, or a device's
secret kept in the browser: how a disconnected student rejoins his seat) or the teacher (`?teacher=KEY`);
`/t/ID/ws` the table's websocket, which sends everything so far when a device connects and what the game
shows after every answer, and takes answers from the device whose seat is to answer; `/t/ID/log` and
`/t/ID/summary` the game's log file and summary. The page draws the board with the replay page's
renderer (watch.py) and lists the narration with each event's rule and citation.
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import LandlordError, UsageError
from ..core.resources import shipped_files
from .classroom import Classroom, Table
from .play_session import KINDS, option_fields
from .playpage import ASK_JS, OPTIONS_JS
from .watch import RENDERER_JS, STYLE_CSS

MAX_RULES_TEXT = 1 << 20  # a pasted rule file's characters (language/limits.py bounds what is in it)
MAX_MESSAGE = 1 << 12  # a websocket message from a device: an answer
FAILURES = 10  # wrong tokens, keys, device secrets or table codes from one address ...
WINDOW = 60.0  # ... within this many seconds, and the address is refused until the oldest is that old
CLOSE_TOO_MANY = 4429  # the websocket's close code for an address refused so (HTTP's 429)


class FailedAttempts:
    """Failed tries per client address (a wrong table token, teacher's key, device secret or table code):
    after `limit` of them within `window` seconds the address is refused, right or wrong, until the oldest
    of them is `window` seconds old. `clock` gives seconds (time.monotonic)."""

    def __init__(self, limit: int = FAILURES, window: float = WINDOW, clock: Callable[[], float] = time.monotonic):
        self.limit, self.window, self.clock = limit, window, clock
        self.failures: dict[str, deque[float]] = {}

    def _recent(self, address: str) -> deque[float]:
        now = self.clock()
        found = self.failures.get(address, deque())
        while found and found[0] <= now - self.window:
            found.popleft()
        if not found:
            self.failures.pop(address, None)
        return found

    def wait(self, address: str) -> int:
        """Return the whole seconds before `address` may try again (0: it may now)."""
        recent = self._recent(address)
        if len(recent) < self.limit:
            return 0
        return max(1, math.ceil(recent[-self.limit] + self.window - self.clock()))

    def failed(self, address: str) -> None:
        """Count a failed try of `address`."""
        if len(self.failures) > 4096:  # (addresses whose failures are all old are forgotten)
            for old in list(self.failures):
                self._recent(old)
        self.failures.setdefault(address, deque()).append(self.clock())
        while len(self.failures[address]) > self.limit:
            self.failures[address].popleft()


def _too_many(wait: int) -> str:
    return f"too many wrong tokens or keys from this address: try again in {wait} s"


def create_app(classroom: Classroom, key: str, base: str = "", attempts: FailedAttempts | None = None) -> Starlette:
    """Return the ASGI app serving `classroom`: `key` opens the teacher's page; `base` is the address
    students reach the server by (http://HOST:PORT), shown in join links (empty: the teacher's own);
    `attempts` counts failed tries per client address and refuses one with too many (HTTP 429; the
    websocket closes with 4429) before looking at what it sends (default: FAILURES in WINDOW seconds)."""
    listeners: dict[str, list[tuple[WebSocket, str | None]]] = {}
    limiter = attempts or FailedAttempts()

    def address(connection: Request | WebSocket) -> str:
        return connection.client.host if connection.client else ""

    def refused(request: Request, kind: str = "json") -> Response | None:
        """Return the 429 answer for an address with too many failed tries (None: it may try)."""
        wait = limiter.wait(address(request))
        if not wait:
            return None
        headers = {"Retry-After": str(wait)}
        if kind == "html":
            return HTMLResponse(_message_page(_too_many(wait)), 429, headers)
        if kind == "text":
            return PlainTextResponse(_too_many(wait), 429, headers)
        return JSONResponse({"error": _too_many(wait)}, 429, headers)

    def failed(request: Request | WebSocket) -> None:
        limiter.failed(address(request))

    declared: dict[str, list[dict[str, Any]]] = {}  # a shipped edition's options, for the teacher's form

    def teacher_key(request: Request) -> bool:
        right = secrets.compare_digest(request.query_params.get("key", "").encode(), key.encode())
        if not right:
            failed(request)
        return right

    def table_of(request: Request) -> Table:
        return classroom.table(request.path_params["table"])

    def allowed(table: Table, params: Any) -> bool:
        """Return True for the teacher, a device of the table, or a holder of its token."""
        return (
            table.is_teacher(params.get("teacher", ""))
            or table.admits(params.get("token", ""))
            or bool(table.seats_of(params.get("device", "")))
        )

    async def home(request: Request) -> Response:
        if too_many := refused(request, "html"):
            return too_many
        if not teacher_key(request):
            return HTMLResponse(
                _message_page("Open the teacher's link that <code>landlord-dsl serve</code> printed."), 403
            )
        return HTMLResponse(_page(TEACHER_HTML, {"base": base, "editions": sorted(shipped_files())}))

    async def list_tables(request: Request) -> Response:
        if too_many := refused(request):
            return too_many
        if not teacher_key(request):
            return JSONResponse({"error": "the server's key is wrong"}, 403)
        return JSONResponse([_described(t) for t in classroom.tables.values()])

    async def options(request: Request) -> Response:
        if too_many := refused(request):
            return too_many
        if not teacher_key(request):
            return JSONResponse({"error": "the server's key is wrong"}, 403)
        edition = request.query_params.get("edition", "")
        if edition not in shipped_files():
            return JSONResponse({"error": f"no shipped edition or variant is named {edition!r}"}, 404)
        if edition not in declared:
            try:
                declared[edition] = option_fields(classroom.load_rules(edition))
            except LandlordError as err:
                return JSONResponse({"error": err.render()}, 400)
        return JSONResponse(declared[edition])

    async def start(request: Request) -> Response:
        if too_many := refused(request):
            return too_many
        if not teacher_key(request):
            return JSONResponse({"error": "the server's key is wrong"}, 403)
        try:
            args = await request.json()
            text = args.get("text") or None
            if text is not None and (not isinstance(text, str) or len(text) > MAX_RULES_TEXT):
                raise UsageError(f"a pasted rule file is text of at most {MAX_RULES_TEXT:,} characters")
            kinds = args.get("kinds")
            if not isinstance(kinds, list) or not all(k in KINDS for k in kinds):
                raise UsageError(f"each seat is one of {', '.join(KINDS)}")
            options = _options(args.get("options") or [])
            seed = args.get("seed", 1)
            table = classroom.start(str(args.get("edition", "")), kinds, seed, options, text)
        except LandlordError as err:
            return JSONResponse({"error": err.render()}, 400)
        except ValueError:
            return JSONResponse({"error": "the request is not JSON"}, 400)
        return JSONResponse(_described(table))

    async def join_form(request: Request) -> Response:
        code, token = request.query_params.get("code", ""), request.query_params.get("token", "")
        if code and token:
            return RedirectResponse(f"/t/{code.strip().upper()}?token={token.strip().upper()}", 303)
        return HTMLResponse(_page(JOIN_HTML, {}))

    async def table_page(request: Request) -> Response:
        if too_many := refused(request, "html"):
            return too_many
        try:
            table = table_of(request)
        except LandlordError as err:
            failed(request)  # (a guessed code)
            return HTMLResponse(_message_page(_escape(err.render())), 404)
        return HTMLResponse(_page(TABLE_HTML, {"id": table.id}))

    async def join(request: Request) -> Response:
        if too_many := refused(request):
            return too_many
        try:
            table = table_of(request)
        except LandlordError as err:
            failed(request)
            return JSONResponse({"error": err.render()}, 403)
        try:
            args = await request.json()
            token = str(args.get("token", "")).upper()
            if not table.admits(token):
                failed(request)  # (a taken or a bot's seat is a mistake, not a guess: not counted)
            device = table.join(token, args.get("seats") or [])
        except LandlordError as err:
            return JSONResponse({"error": err.render()}, 403)
        except (ValueError, AttributeError):
            return JSONResponse({"error": 'a join is {"token": TOKEN, "seats": [SEAT, ...]}'}, 400)
        classroom.save(table)
        await broadcast(table, {"type": "taken", "taken": table.view()["taken"]})
        return JSONResponse({"device": device, "seats": table.seats_of(device)})

    async def download(request: Request) -> Response:
        if too_many := refused(request, "text"):
            return too_many
        try:
            table = table_of(request)
        except LandlordError as err:
            failed(request)
            return PlainTextResponse(err.render(), 404)
        if not allowed(table, request.query_params):
            failed(request)
            return PlainTextResponse("the table's token is not that one", 403)
        what = request.path_params["what"]
        if what not in ("log", "summary"):
            return PlainTextResponse("not found", 404)
        text = table.log() if what == "log" else table.summary()
        name = f"table-{table.id}.{'log' if what == 'log' else 'txt'}"
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def broadcast(table: Table, message: dict[str, Any]) -> None:
        for socket, _ in list(listeners.get(table.id, [])):
            try:
                await socket.send_json(message)
            except (RuntimeError, WebSocketDisconnect, OSError):
                pass  # (its own handler drops it as it ends)

    async def socket(websocket: WebSocket) -> None:
        params = websocket.query_params
        if limiter.wait(address(websocket)):
            await websocket.close(code=CLOSE_TOO_MANY)
            return
        try:
            table = classroom.table(websocket.path_params["table"])
        except LandlordError:
            failed(websocket)
            await websocket.close(code=4404)
            return
        device = params.get("device") or None
        teacher = table.is_teacher(params.get("teacher", ""))
        seats = table.seats_of(device) if device else []
        if not (teacher or seats or table.admits(params.get("token", "").upper())):
            failed(websocket)
            await websocket.close(code=4403)  # a wrong token, or a device that is not the table's
            return
        await websocket.accept()
        entry = (websocket, device if seats else None)
        listeners.setdefault(table.id, []).append(entry)
        try:
            view = table.view() | {"type": "view", "id": table.id, "seats": seats, "teacher": teacher}
            await websocket.send_json(view)
            while True:
                raw = await websocket.receive_text()
                try:
                    message = json.loads(raw) if len(raw) <= MAX_MESSAGE else None
                    if not isinstance(message, dict) or "answer" not in message:
                        raise UsageError('a message is {"answer": ACTION}')
                    action = message["answer"]
                    if not (action is None or (type(action) is int)):
                        raise UsageError(f"an answer is a whole number or null, not {action!r}")
                    if not seats:
                        raise UsageError("this device holds no seat at this table")
                    shown = table.answer(device or "", action)
                except (LandlordError, ValueError) as err:
                    text = err.render() if isinstance(err, LandlordError) else "a message is JSON"
                    await websocket.send_json({"type": "refused", "error": text})
                    continue
                classroom.save(table)
                await broadcast(table, shown | {"type": "shown"})
        except WebSocketDisconnect:
            pass
        finally:
            listeners[table.id].remove(entry)

    return Starlette(
        routes=[
            Route("/", home),
            Route("/tables", list_tables, methods=["GET"]),
            Route("/tables", start, methods=["POST"]),
            Route("/options", options, methods=["GET"]),
            Route("/join", join_form),
            Route("/t/{table}", table_page),
            Route("/t/{table}/join", join, methods=["POST"]),
            Route("/t/{table}/{what:str}", download, methods=["GET"]),
            WebSocketRoute("/t/{table}/ws", socket),
        ]
    )


def _options(pairs: Any) -> dict[str, Any]:
    """Return `--option` pairs (NAME=VALUE texts) as the dict PlaySession takes.

    :raises UsageError: not a list of NAME=VALUE texts, or a name given twice."""
    if not isinstance(pairs, list) or not all(isinstance(p, str) for p in pairs):
        raise UsageError("options are a list of NAME=VALUE")
    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"an option is NAME=VALUE, not {pair!r}")
        name, value = (part.strip() for part in pair.split("=", 1))
        if name in options:
            raise UsageError(f"the option {name} is given twice")
        options[name] = value
    return options


def _described(table: Table) -> dict[str, Any]:
    """Return what the teacher's page lists of a table: code, token, teacher's key, rules, seats, whether over."""
    return {
        "id": table.id,
        "token": table.token,
        "teacher": table.teacher,
        "edition": table.session.edition,
        "kinds": table.session.kinds,
        "taken": table.view()["taken"],
        "over": table.over,
    }


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _page(body: str, data: dict[str, Any]) -> str:
    """Return a page of the server: the shared style, the renderer, `body` and its `data` (JSON, escaped
    for a script element)."""
    blob = json.dumps(data).replace("<", "\\u003c")
    return (
        _HEAD.replace("{{STYLE}}", STYLE_CSS)
        + body.replace("{{DATA}}", blob)
        .replace("{{RENDERER}}", RENDERER_JS)
        .replace("{{ASK}}", ASK_JS)
        .replace("{{OPTIONS}}", OPTIONS_JS)
        + "</body>\n</html>\n"
    )


def _message_page(html: str) -> str:
    return _page(f'<section class="card" style="margin: 16px"><p>{html}</p></section>\n', {})


_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Classroom: The Landlord's Game and early Monopoly</title>
<style>
{{STYLE}}
main.play { grid-template-columns: minmax(0, 720px) minmax(300px, 1fr); grid-template-areas: "board decision" "board side"; }
@media (max-width: 900px) { main.play { grid-template-columns: minmax(0, 1fr); grid-template-areas: "decision" "board" "side"; } }
section.card { max-width: 980px; }
label { display: inline-block; margin: 4px 14px 4px 0; max-width: 100%; }
select { max-width: 100%; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; }
button { font: inherit; }
button.primary { padding: 6px 14px; border-radius: 4px; border: 1px solid #0b5a8c; background: #0072b2; color: #fff; cursor: pointer; }
#decision { grid-area: decision; }
.prompt { font-weight: 600; font-size: 16px; }
.context, .rule { color: var(--muted); font-size: 13px; }
#options { display: flex; flex-direction: column; gap: 6px; margin-top: 8px; }
#options button { text-align: left; padding: 6px 10px; border: 1px solid #888; border-radius: 4px; background: #fafafa; cursor: pointer; }
#options button .stake { color: var(--muted); font-size: 13px; margin-left: 8px; }
#story { max-height: 340px; overflow-y: auto; margin: 0; padding-left: 0; list-style: none; font-size: 14px; }
#story li { padding: 3px 0; border-bottom: 1px solid #f0f0f0; }
#story li.turn { font-weight: 600; padding-top: 8px; }
#story .why { color: var(--muted); font-size: 12px; display: block; }
#message { color: #a40000; white-space: pre-wrap; font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; }
code.big { font-size: 22px; letter-spacing: 2px; }
/* a phone lists each table as lines, each cell named, rather than as a table wider than the screen */
@media (max-width: 600px) {
  #tables thead { display: none; }
  #tables, #tables tbody, #tables tr, #tables td { display: block; }
  #tables tr { border-bottom: 1px solid var(--line); padding: 6px 0; }
  #tables td::before { content: attr(data-label) " "; color: var(--muted); font-size: 13px; }
}
textarea { width: 100%; min-height: 140px; font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; }
[hidden] { display: none !important; }
</style>
</head>
"""

TEACHER_HTML = r"""<body data-phase="setup">
<header><h1>Classroom: start a table</h1></header>
<section class="card" style="margin: 16px">
  <div>
    <label>Edition or variant <select id="edition"></select></label>
    <label>Players <select id="players"></select></label>
    <label>Seed <input id="seed" type="number" value="1" min="0" style="width: 7em"></label>
  </div>
  <fieldset><legend>Options</legend><div id="options-form"></div>
    <label>Others <input id="options-text" placeholder="name=value, name=value" size="34"></label></fieldset>
  <fieldset><legend>Seats</legend><div id="seats"></div></fieldset>
  <details id="own"><summary>Or paste a <code>.lg</code> file (checked as <code>landlord-dsl check</code> checks it)</summary>
    <textarea id="source" spellcheck="false"></textarea></details>
  <p><button class="primary" id="start">Start the table</button></p>
  <div id="message"></div>
</section>
<section class="card" style="margin: 16px"><h2>Tables</h2><table id="tables"><thead><tr><th>code</th><th>token</th>
  <th>rules</th><th>seats</th><th>links</th></tr></thead><tbody></tbody></table></section>
<script>
{{OPTIONS}}
(function () {
  "use strict";
  var DATA = {{DATA}};
  var $ = function (id) { return document.getElementById(id); };
  var key = new URLSearchParams(location.search).get("key");
  var base = DATA.base || location.origin;
  DATA.editions.forEach(function (name) { var o = document.createElement("option"); o.value = o.textContent = name; $("edition").appendChild(o); });
  $("edition").value = "landlords-game-1906";
  for (var k = 1; k <= 8; k++) { var o = document.createElement("option"); o.value = o.textContent = k; $("players").appendChild(o); }
  $("players").value = "3";
  function drawSeats() {
    var box = $("seats"); box.textContent = "";
    for (var s = 0; s < +$("players").value; s++) {
      var label = document.createElement("label"), select = document.createElement("select");
      select.setAttribute("data-seat", s);
      ["human", "bot"].forEach(function (kind) { var o = document.createElement("option"); o.value = o.textContent = kind; select.appendChild(o); });
      label.appendChild(document.createTextNode("Player " + (s + 1) + " ")); label.appendChild(select); box.appendChild(label);
    }
  }
  $("players").onchange = drawSeats; drawSeats();
  // the chosen edition's options, as its rule file declares them (OPTIONS_JS draws them)
  function drawOptions() {
    var box = $("options-form"), edition = $("edition").value;
    box.textContent = "";
    fetch("/options?key=" + encodeURIComponent(key) + "&edition=" + encodeURIComponent(edition))
      .then(function (r) { return r.json(); }).then(function (declared) {
        if (declared.error) { $("message").textContent = declared.error; return; }
        if ($("edition").value === edition) optionFields(box, declared);
      });
  }
  $("edition").onchange = drawOptions; drawOptions();
  function link(href, text) { var a = document.createElement("a"); a.href = href; a.textContent = text; a.target = "_blank"; return a; }
  function listTables() {
    fetch("/tables?key=" + encodeURIComponent(key)).then(function (r) { return r.json(); }).then(function (tables) {
      if (tables.error) { $("message").textContent = tables.error; return; }
      var body = $("tables").querySelector("tbody"); body.textContent = "";
      tables.forEach(function (t) {
        var tr = document.createElement("tr"); tr.setAttribute("data-table", t.id);
        [t.id, t.token, t.edition, t.kinds.map(function (k, s) { return k === "bot" ? "bot" : (t.taken[s] ? "taken" : "free"); }).join(", ")]
          .forEach(function (text, i) { var td = document.createElement("td"); td.setAttribute("data-label", ["code", "token", "rules", "seats"][i]); if (i < 2) { var c = document.createElement("code"); c.className = "big"; c.textContent = text; td.appendChild(c); } else td.textContent = text; tr.appendChild(td); });
        var td = document.createElement("td"); td.setAttribute("data-label", "links");
        td.appendChild(link("/t/" + t.id + "?teacher=" + encodeURIComponent(t.teacher), "teacher's view")); td.appendChild(document.createTextNode(" \u00b7 "));
        td.appendChild(link(base + "/t/" + t.id + "?token=" + t.token, "join link")); td.appendChild(document.createTextNode(" " + base + "/join"));
        tr.appendChild(td); body.appendChild(tr);
      });
    });
  }
  $("start").onclick = function () {
    $("message").textContent = "";
    var kinds = Array.prototype.map.call(document.querySelectorAll("#seats select"), function (x) { return x.value; });
    // a pasted file's options are those under Others only: the form's are the chosen edition's
    var own = $("own").open && $("source").value.trim();
    var args = {edition: $("edition").value, kinds: kinds, seed: +$("seed").value,
      options: (own ? [] : chosenOptions($("options-form"))).concat(
        $("options-text").value.split(",").map(function (x) { return x.trim(); }).filter(Boolean))};
    if (own) args.text = $("source").value;
    fetch("/tables?key=" + encodeURIComponent(key), {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(args)})
      .then(function (r) { return r.json(); }).then(function (t) {
        if (t.error) { $("message").textContent = t.error; return; }
        document.body.setAttribute("data-started", t.id); listTables();
      });
  };
  listTables(); setInterval(listTables, 5000);
})();
</script>
"""

JOIN_HTML = r"""<body>
<header><h1>Join a table</h1></header>
<section class="card" style="margin: 16px">
  <form method="get" action="/join">
    <label>Table code <input name="code" size="8" autocapitalize="characters" required></label>
    <label>Token <input name="token" size="12" autocapitalize="characters" required></label>
    <button class="primary">Join</button>
  </form>
</section>
"""

TABLE_HTML = r"""<body data-phase="connecting">
<header><h1>Table <span id="code"></span> <span id="status" class="context"></span></h1></header>
<section class="card" id="seating" style="margin: 16px" hidden>
  <p>Choose your seat (one per device; a device may take several, to pass it round: a hot seat).</p>
  <div id="free"></div>
  <p><button class="primary" id="take">Take the chosen seats</button></p>
</section>
<div id="message" style="margin: 0 16px"></div>
<main class="play" id="game" hidden>
  <div id="board"></div>
  <div class="card" id="decision">
    <div id="asking" hidden>
      <div class="prompt" id="prompt"></div>
      <div class="context" id="context"></div>
      <div class="rule" id="asked-by"></div>
      <div id="options"></div>
      <div id="bidding" hidden>
        <label>Your bid <input id="bid" type="number"></label>
        <button id="bid-button">Bid</button> <button id="pass">Pass</button>
      </div>
    </div>
    <div id="waiting" class="context"></div>
    <div id="end" hidden>
      <div class="prompt">The game is over.</div>
      <table id="scores"><thead><tr><th>player</th><th>score</th></tr></thead><tbody></tbody></table>
    </div>
    <p id="downloads" hidden><a id="download-log">Download the game's log</a> &middot; <a id="download-summary">the summary</a></p>
  </div>
  <aside>
    <div class="card"><table id="players-table"><thead><tr><th>player</th><th>cash</th><th>on</th></tr></thead><tbody></tbody></table></div>
    <div class="card"><table id="accounts"><tbody></tbody></table></div>
    <div class="card"><ol id="story"></ol></div>
  </aside>
</main>
<script>
{{RENDERER}}
{{ASK}}
(function () {
  "use strict";
  var DATA = {{DATA}};
  var $ = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);
  var id = DATA.id, stored = "landlord-table-" + id;
  var token = (params.get("token") || "").toUpperCase(), teacher = params.get("teacher") || "";
  var device = localStorage.getItem(stored) || "";
  var game = null, seats = [], socket = null;
  $("code").textContent = id;
  function phase(name) { document.body.setAttribute("data-phase", name); }
  function say(text) { $("message").textContent = text || ""; }
  function credentials() {
    if (teacher) return "teacher=" + encodeURIComponent(teacher);
    if (device) return "device=" + encodeURIComponent(device);
    return "token=" + encodeURIComponent(token);
  }
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/t/" + id + "/ws?" + credentials());
    socket.onmessage = function (event) { received(JSON.parse(event.data)); };
    socket.onclose = function (event) {
      if (event.code === 4403 && device) { localStorage.removeItem(stored); device = ""; if (token) { connect(); return; } }
      if (event.code === 4429) {  // too many wrong tries from this address: the server says no for a while
        say("too many wrong tokens from this address: trying again in a minute"); phase("refused"); setTimeout(connect, 60000); return;
      }
      if (event.code === 4403 || event.code === 4404) { say(event.code === 4404 ? "no table has this code" : "the table's token is not that one"); phase("refused"); return; }
      $("status").textContent = "disconnected: reconnecting\u2026"; phase("disconnected");
      setTimeout(connect, 1000);  // the same seat again: the device's secret is kept in this browser
    };
  }
  function received(m) {
    if (m.type === "view") { $("status").textContent = teacher ? "teacher's view" : ""; seats = m.seats; draw(m); }
    else if (m.type === "shown") update(m);
    else if (m.type === "taken") { if (game) { game.taken = m.taken; if (!seats.length && !teacher) offerSeats(); } }
    else if (m.type === "refused") { say(m.error); if (game && game.request) ask(game.request); }
  }
  function draw(view) {
    var data = view.board;
    $("game").hidden = false;
    $("board").innerHTML = data.svg;  // the package's own board drawing: every text in it escaped (board.py)
    $("players-table").querySelector("tbody").textContent = ""; $("accounts").querySelector("tbody").textContent = "";
    $("story").textContent = "";
    data.holdings = [];
    game = {data: data, taken: view.taken, board: landlordBoard(data, $("board").querySelector("svg"),
            $("players-table").querySelector("tbody"), $("accounts").querySelector("tbody"))};
    if (!seats.length && !teacher) offerSeats(); else $("seating").hidden = true;
    update(view);
  }
  function offerSeats() {
    var box = $("free"); box.textContent = "";
    var free = game.data.kinds.map(function (k, s) { return k === "human" && !game.taken[s] ? s : -1; }).filter(function (s) { return s >= 0; });
    free.forEach(function (s) {
      var label = document.createElement("label"), box2 = document.createElement("input");
      box2.type = "checkbox"; box2.setAttribute("data-seat", s);
      label.appendChild(box2); label.appendChild(document.createTextNode(" " + game.data.names[s])); box.appendChild(label);
    });
    $("seating").hidden = !free.length || game.request === null;
  }
  $("take").onclick = function () {
    var chosen = Array.prototype.filter.call(document.querySelectorAll("#free input"), function (x) { return x.checked; })
      .map(function (x) { return +x.getAttribute("data-seat"); });
    fetch("/t/" + id + "/join", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({token: token, seats: chosen})})
      .then(function (r) { return r.json(); }).then(function (j) {
        if (j.error) { say(j.error); return; }
        say(""); device = j.device; localStorage.setItem(stored, device); $("seating").hidden = true;
        socket.onclose = null; socket.close(); connect();
      });
  };
  function update(shown) {
    var data = game.data;
    Array.prototype.push.apply(data.holdings, shown.holdings);
    var story = $("story");
    shown.frames.forEach(function (f) {
      var li = document.createElement("li");
      if (/^-- Turn/.test(f.text)) li.className = "turn";
      li.textContent = f.text;
      if (f.rule) { var why = document.createElement("span"); why.className = "why";
        why.textContent = "rule " + f.rule + (f.cite ? " \u2014 " + f.cite : ""); li.appendChild(why); }
      story.appendChild(li);
    });
    while (story.children.length > 600) story.removeChild(story.firstChild);
    story.scrollTop = story.scrollHeight;
    if (shown.frames.length) { var last = shown.frames[shown.frames.length - 1]; game.board.show(last, data.holdings[last.h]); }
    game.request = shown.request;
    if (shown.request) ask(shown.request); else finish(shown);
  }
  function send(action) { $("asking").hidden = true; phase("waiting"); socket.send(JSON.stringify({answer: action})); }
  function ask(r) {
    var names = game.data.names;
    $("end").hidden = true;
    if (seats.indexOf(r.seat) < 0) {
      $("asking").hidden = true; $("waiting").textContent = "waiting for " + names[r.seat] + "\u2026"; phase("waiting"); return;
    }
    $("waiting").textContent = "";
    $("asking").hidden = false;
    showRequest(r, names, send, say);
    phase("deciding");
  }
  function finish(shown) {
    $("asking").hidden = true; $("waiting").textContent = ""; $("end").hidden = false; $("seating").hidden = true;
    var body = $("scores").querySelector("tbody"); body.textContent = "";
    shown.scores.forEach(function (score, seat) {
      var tr = document.createElement("tr"), who = document.createElement("td"), v = document.createElement("td");
      who.textContent = game.data.names[seat] + (shown.winners.indexOf(seat) >= 0 ? " (winner)" : "");
      v.className = "num"; v.textContent = score; tr.appendChild(who); tr.appendChild(v); body.appendChild(tr);
    });
    $("downloads").hidden = false;
    $("download-log").href = "/t/" + id + "/log?" + credentials();
    $("download-summary").href = "/t/" + id + "/summary?" + credentials();
    phase("over");
  }
  connect();
})();
</script>
"""
