"""A game replay people can watch: one self-contained HTML file.

`record(game)` follows a game event by event and keeps, for every event a
person would be told about, the sentence, the rule that caused it (with its
citation) and the state just after it: where every token stands, every
player's cash, the declared accounts, who holds which title and card, and the
space variables that differ from their starting value (houses, say).
`replay_html(rules, recording)` writes that into a page with the board drawn
from the rule file (landlord_dsl.presentation.board), tokens that move through the game,
play/pause/step buttons and a slider. The page needs no network and no build
step; the data sits in a JSON block the page's own script reads, and every
text from the rule file or the game reaches the page as text, never markup.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import TYPE_CHECKING, Any

import attrs

from ..engine.events import LogDecide, LogDraw, LogMove, LogNext, LogOut, LogRoll, LogSend, LogTurn, decode
from .board import board_svg
from .narrate import describe_event, quiet_event

if TYPE_CHECKING:
    from ..checking.loader import RuleSet
    from ..engine.game import Game

# Seat colours for tokens and the players' table (colour-blind safe, dark enough for white text).
SEAT_COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#7f3c8d")


@attrs.define
class Recording:
    """What a watched game showed, frame by frame.

    `frames` has one dict per told event: `text`, `rule` (name, or None),
    `cite` (the rule's citation), `turn`, `seat` (the player it is about, or
    None), `pos` and `cash` (per seat), `accounts` (finite declared accounts),
    `out` (seats no longer playing) and `h`, an index into `holdings`: the
    distinct states of (owner per space, cards other than titles per seat,
    [space, text] for each number or flag space variable off its starting
    value), each kept once.
    """

    frames: list[dict[str, Any]] = attrs.field(factory=list)
    holdings: list[dict[str, Any]] = attrs.field(factory=list)


# the events whose frame on the replay page highlights their seat
_ACTING = (LogTurn, LogRoll, LogMove, LogSend, LogDraw, LogDecide, LogNext, LogOut)


class Recorder:
    """A listener to a game's log (Game.listen) that records a frame with the state as each told event is logged.

    The Play page's session (play_session) calls it with the events a stepped game logged since its last
    request, after them: their frames then show the state at that request. `game` may be set to the game
    played if it changes."""

    def __init__(self, game: Game, rules: RuleSet, recording: Recording) -> None:
        self.game, self.recording = game, recording
        self.citations = [r.provenance.source if r.provenance else "" for r in rules.model.rules]
        model = rules.model
        # only numbers and flags read well beside a title (a player-valued variable would show a seat number)
        self.shown_vars = [
            (v, name)
            for v, (name, decl) in enumerate(model.space_vars.items())
            if model.types.get(id(decl)) in ("int", "bool")
        ]

    def __call__(self, event: tuple) -> None:
        text = None if quiet_event(event) else describe_event(self.game, event)
        if text is not None:
            self.frame(event, text)

    def frame(self, event: tuple, text: str) -> None:
        """Record the frame of a told event (told as `text`), with the state the event leaves behind (the
        game's state now); returns nothing."""
        game = self.game
        typed = decode(event)
        rule = getattr(typed, "rule", -1)
        holdings = self._holdings()
        if not self.recording.holdings or self.recording.holdings[-1] != holdings:
            self.recording.holdings.append(holdings)
        pos = list(game.pos)
        if isinstance(typed, LogSend):  # logged just before the engine puts the token there
            pos[typed.seat] = typed.dest
        self.recording.frames.append(
            {
                "text": text.strip(),
                "rule": game.rule_name(rule) if rule >= 0 else None,
                "cite": self.citations[rule] if rule >= 0 else "",
                "turn": game.turn,
                "seat": typed.seat if isinstance(typed, _ACTING) else None,
                "pos": pos,
                "cash": [game.cash(s) for s in range(game.n)],
                "accounts": [b for b, finite in zip(game.bal[: game.nacc], game.finite) if finite],
                "out": [s for s in range(game.n) if s not in game.seats],
                "h": len(self.recording.holdings) - 1,
            }
        )

    def _holdings(self) -> dict[str, Any]:
        game = self.game
        changed: list[list[Any]] = []
        for v, name in self.shown_vars:
            start = game.prog.space_var_init[v]
            changed.extend(
                [space, _var_text(name, value)] for space, value in enumerate(game.sv[v]) if value != start[space]
            )
        return {
            "owner": list(game.owner),
            "cards": [[c for c in game.hands[s] if game.prog.card_space[c] is None] for s in range(game.n)],
            "vars": changed,
        }


def _var_text(name: str, value: int | bool) -> str:
    """Return how a changed space variable reads beside its title: "houses 2", "mortgaged", "not public"."""
    label = name.replace("_", " ")
    if isinstance(value, bool):
        return label if value else f"not {label}"
    return f"{label} {value}"


def record(game: Game, rules: RuleSet) -> Recording:
    """Follow a game that has not started yet; return the Recording it fills as it is played.

    Call before `game.play()` (or `setup()`); recording leaves the game itself unchanged.
    """
    recording = Recording()
    game.listen(Recorder(game, rules, recording))
    return recording


def replay_data(game: Game, rules: RuleSet, recording: Recording) -> dict[str, Any]:
    """Return everything the page needs, as JSON-ready data."""
    prog = game.prog
    accounts = [label for label, finite in zip(prog.account_labels, game.finite[: game.nacc]) if finite]
    return {
        "title": prog.title,
        "names": list(game.names),
        "colours": [SEAT_COLOURS[s % len(SEAT_COLOURS)] for s in range(game.n)],
        "spaces": list(prog.space_labels),
        "cards": list(prog.card_texts),
        "accounts": accounts,
        "frames": recording.frames,
        "holdings": recording.holdings,
    }


def replay_html(game: Game, rules: RuleSet, recording: Recording, heading: str | None = None) -> str:
    """Return the self-contained HTML page (text) replaying a recorded game."""
    data = replay_data(game, rules, recording)
    # No "<" at all inside the script element, so no text can end it early (or open a comment).
    blob = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")
    svg = board_svg(rules, program=game.prog)
    svg = svg[svg.index("<svg") :]
    fills = {
        "TITLE": escape(heading or f"{game.prog.title}: a game replayed"),
        "BOARD": svg,
        "DATA": blob,
        "RENDERER": RENDERER_JS,
        "STYLE": STYLE_CSS,
    }
    # One pass over the template only: a filled-in text (a title holding "{{DATA}}", say) is never searched again.
    return _PLACEHOLDER.sub(lambda m: fills[m.group(1)], _PAGE)


# The board and players' table of a game, drawn from replay_data's names, colours, spaces, cards and accounts
# and one frame at a time: the replay page and the Play page (play_session, docs/play-in-browser.md) both run it.
RENDERER_JS = """// landlordBoard(data, svg, tbody, abody): tokens on the board's SVG, a row per player, a row per account;
// returns {show(frame, holdings)}, which puts everything where the frame says.
function landlordBoard(data, svg, tbody, abody) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var n = data.names.length;
  var centres = [];
  for (var i = 0; i < data.spaces.length; i++) {
    var r = svg.querySelector("#space-" + i + " rect");
    var x = +r.getAttribute("x"), y = +r.getAttribute("y"), w = +r.getAttribute("width"), h = +r.getAttribute("height");
    centres.push([x + w / 2, y + h / 2, Math.min(w, h)]);
  }
  var tokens = [];
  for (var s = 0; s < n; s++) {
    var c = document.createElementNS(NS, "circle");
    c.setAttribute("r", 7); c.setAttribute("class", "token"); c.setAttribute("fill", data.colours[s]);
    c.setAttribute("data-seat", s);
    var t = document.createElementNS(NS, "title"); t.textContent = data.names[s]; c.appendChild(t);
    svg.appendChild(c); tokens.push(c);
  }
  var rows = [];
  for (var s = 0; s < n; s++) {
    var tr = document.createElement("tr"); tr.setAttribute("data-seat", s);
    var name = document.createElement("td"), sw = document.createElement("span");
    sw.className = "swatch"; sw.style.background = data.colours[s];
    name.appendChild(sw); name.appendChild(document.createTextNode(data.names[s]));
    var hold = document.createElement("div"); hold.className = "holdings"; name.appendChild(hold);
    var cash = document.createElement("td"); cash.className = "num cash";
    var on = document.createElement("td"); on.className = "on";
    tr.appendChild(name); tr.appendChild(cash); tr.appendChild(on); tbody.appendChild(tr);
    rows.push({tr: tr, hold: hold, cash: cash, on: on});
  }
  var arows = [];
  if (!data.accounts.length) abody.parentNode.parentNode.style.display = "none";
  for (var a = 0; a < data.accounts.length; a++) {
    var tr = document.createElement("tr"), l = document.createElement("td"), v = document.createElement("td");
    l.textContent = data.accounts[a]; v.className = "num"; tr.appendChild(l); tr.appendChild(v); abody.appendChild(tr);
    arows.push(v);
  }

  function holdingsText(h, seat) {
    var parts = [];
    for (var sp = 0; sp < h.owner.length; sp++) {
      if (h.owner[sp] !== seat) continue;
      var extra = [];
      for (var k = 0; k < h.vars.length; k++) if (h.vars[k][0] === sp) extra.push(h.vars[k][1]);
      parts.push(data.spaces[sp] + (extra.length ? " (" + extra.join(", ") + ")" : ""));
    }
    for (var k = 0; k < h.cards[seat].length; k++) parts.push("card: " + data.cards[h.cards[seat][k]]);
    return parts.join("; ");
  }

  function show(f, h) {
    var stacked = {};
    for (var s = 0; s < n; s++) {
      var out = f.out.indexOf(s) >= 0, p = f.pos[s], k = stacked[p] = (stacked[p] || 0) + 1;
      var ctr = centres[p], off = (k - 1) * 9 - 13;
      tokens[s].setAttribute("cx", ctr[0] + off); tokens[s].setAttribute("cy", ctr[1] + 6);
      tokens[s].setAttribute("data-space", p); tokens[s].style.display = out ? "none" : "";
      var row = rows[s];
      row.cash.textContent = f.cash[s]; row.cash.setAttribute("data-cash", f.cash[s]);
      row.on.textContent = data.spaces[p]; row.on.setAttribute("data-space", p);
      row.hold.textContent = holdingsText(h, s);
      row.tr.className = (out ? "out" : "") + (f.seat === s ? " acting" : "");
    }
    for (var a = 0; a < arows.length; a++) arows[a].textContent = f.accounts[a];
  }
  return {show: show};
}
"""

# The replay page's own style, which the Play page shares (docs/play-in-browser.md).
STYLE_CSS = """:root { --ink: #222; --muted: #666; --line: #ccc; --paper: #fff; --accent: #0072b2; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 Helvetica, Arial, sans-serif; color: var(--ink); background: #f3f1ea; }
header { padding: 10px 16px; background: #20303f; color: #fff; }
header h1 { margin: 0; font-size: 18px; font-weight: 600; }
main { display: grid; gap: 12px 16px; padding: 16px; align-items: start;
       grid-template-columns: minmax(0, 820px) minmax(280px, 1fr); grid-template-areas: "board controls" "board side"; }
/* narrower (a docs page's frame, a tablet): the players beside the board, under the controls; a phone: the
   players above the board, so that a frame of the page's height shows them */
@media (max-width: 900px) { main { grid-template-columns: minmax(0, 1fr) minmax(190px, 36%); grid-template-areas: "controls controls" "board side"; } }
@media (max-width: 560px) { main { grid-template-columns: minmax(0, 1fr); grid-template-areas: "controls" "side" "board"; } }
#board { grid-area: board; background: var(--paper); border: 1px solid var(--line); }
#board svg { width: 100%; height: auto; display: block; }
#controlbox { grid-area: controls; margin-bottom: 0; }
aside { grid-area: side; min-width: 0; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; margin-bottom: 12px; }
#controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
#controls button { font: inherit; padding: 4px 10px; border: 1px solid #888; border-radius: 4px; background: #fafafa; cursor: pointer; }
#controls button:focus-visible, #slider:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
#slider { width: 100%; margin-top: 8px; }
#position { color: var(--muted); font-size: 13px; margin-left: auto; }
#narration { min-height: 3.2em; font-size: 16px; margin-top: 10px; }
#cite { color: var(--muted); font-size: 13px; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #eee; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.swatch { display: inline-block; width: 11px; height: 11px; border-radius: 50%; margin-right: 6px; vertical-align: -1px; }
tr.out td { color: #999; text-decoration: line-through; }
tr.acting td { background: #fff6d6; }
.holdings { color: var(--muted); font-size: 12.5px; }
.token { stroke: #fff; stroke-width: 1.5; transition: cx .25s, cy .25s; }
@media (prefers-reduced-motion: reduce) { .token { transition: none; } }
"""


_PLACEHOLDER = re.compile(r"\{\{(TITLE|BOARD|DATA|RENDERER|STYLE)\}\}")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>
{{STYLE}}</style>
</head>
<body>
<header><h1>{{TITLE}}</h1></header>
<main>
<div id="board">{{BOARD}}</div>
  <div class="card" id="controlbox">
    <div id="controls">
      <button id="first" title="First event (Home)" aria-label="first event">|&#x25C0;</button>
      <button id="back" title="Step back (Left arrow)" aria-label="step back">&#x25C0;</button>
      <button id="play" title="Play or pause (Space)">Play</button>
      <button id="step" title="Step forward (Right arrow)" aria-label="step forward">&#x25B6;</button>
      <button id="last" title="Last event (End)" aria-label="last event">&#x25B6;|</button>
      <label>speed <select id="speed"><option value="1200">slow</option><option value="500" selected>normal</option><option value="120">fast</option></select></label>
      <span id="position"></span>
    </div>
    <input id="slider" type="range" min="0" value="0" aria-label="event">
    <div id="narration"></div><div id="cite"></div>
  </div>
<aside>
  <div class="card"><table id="players"><thead><tr><th>player</th><th>cash</th><th>on</th></tr></thead><tbody></tbody></table></div>
  <div class="card"><table id="accounts"><tbody></tbody></table></div>
</aside>
</main>
<script type="application/json" id="data">{{DATA}}</script>
<script>
{{RENDERER}}
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var frames = data.frames;
  var board = landlordBoard(data, document.querySelector("#board svg"), document.querySelector("#players tbody"),
                            document.querySelector("#accounts tbody"));
  var slider = document.getElementById("slider");
  slider.max = Math.max(frames.length - 1, 0);
  var current = 0, timer = null, ready = false;

  function show(i) {
    if (!frames.length) return;
    current = Math.max(0, Math.min(i, frames.length - 1));
    var f = frames[current];
    board.show(f, data.holdings[f.h]);
    document.getElementById("narration").textContent = f.text;
    document.getElementById("cite").textContent = f.rule ? "rule " + f.rule + (f.cite ? " \u2014 " + f.cite : "") : "";
    document.getElementById("position").textContent = "turn " + f.turn + " \u00b7 event " + (current + 1) + " of " + frames.length;
    slider.value = current;
    document.body.setAttribute("data-frame", current);
    // the address says the event shown (as the page counts them, from 1), so that it can be shared or reloaded
    if (ready && history.replaceState) history.replaceState(null, "", "#frame=" + (current + 1));
  }
  function step(d) { show(current + (d || 1)); if (current >= frames.length - 1) pause(); }
  function play() { if (timer) return; document.getElementById("play").textContent = "Pause";
    timer = setInterval(function () { step(1); }, +document.getElementById("speed").value); }
  function pause() { clearInterval(timer); timer = null; document.getElementById("play").textContent = "Play"; }
  document.getElementById("play").onclick = function () { timer ? pause() : play(); };
  document.getElementById("step").onclick = function () { pause(); step(1); };
  document.getElementById("back").onclick = function () { pause(); step(-1); };
  document.getElementById("first").onclick = function () { pause(); show(0); };
  document.getElementById("last").onclick = function () { pause(); show(frames.length - 1); };
  document.getElementById("speed").onchange = function () { if (timer) { pause(); play(); } };
  slider.oninput = function () { pause(); show(+slider.value); };
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") { pause(); step(1); } else if (e.key === "ArrowLeft") { pause(); step(-1); }
    else if (e.key === " ") { e.preventDefault(); timer ? pause() : play(); }
    else if (e.key === "Home") { pause(); show(0); } else if (e.key === "End") { pause(); show(frames.length - 1); }
  });
  window.landlordReplay = {show: show, step: step, play: play, pause: pause,
                           frame: function () { return current; }, frames: frames.length};
  // #frame=K opens at event K (counted from 1, as the page shows them); #steps=K steps K times from the start;
  // #play starts playing. Once open, the address follows the event shown (#frame=K).
  var hash = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) { var p = kv.split("="); if (p[0]) hash[p[0]] = p[1] || ""; });
  show(0);
  if (hash.frame) show((+hash.frame || 1) - 1);
  // steps past the last event change nothing: never more than there are frames (#steps=100000000 froze the tab)
  var steps = Math.min(+hash.steps || 0, frames.length - 1);
  for (var k = 0; k < steps; k++) step(1);
  ready = true;
  if (hash.frame || steps) show(current);
  if ("play" in hash) play();
})();
</script>
</body>
</html>
"""
