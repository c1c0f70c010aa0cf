"""The Play page (docs/play-in-browser.md): a static folder that plays the rules in a browser, with no network.

`build_play_page(out, pyodide, wheels)` writes into `out`:

* `index.html`, the page: the replay page's style and board renderer (watch.STYLE_CSS, RENDERER_JS) and
  its own controls;
* `worker.js`, the Web Worker that runs Python, so that the page stays responsive while a bot thinks;
* `pyodide/`, the files of npm's `pyodide` package it needs (the interpreter, its standard library);
* `wheels/`, the project's wheel and its dependencies' pure-Python wheels, unpacked by the worker;
* `parser-….pickle`, the grammar's parser tables prepared here for Pyodide's Python
  (grammar.prepared_tables), which the worker puts in the package's parser cache: the page never builds
  the grammar;
* `bytecode.zip`, if an interpreter of Pyodide's Python version is at hand, the wheels' modules compiled;
* `manifest.json`, naming the wheels, the tables and the bytecode.

Everything is fetched from the folder itself: served by any static server, the page asks no other host
for anything. The worker calls `landlord_dsl.cli.web.call`.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

from ..core.errors import UsageError
from ..language.grammar import prepared_tables
from .watch import RENDERER_JS, STYLE_CSS

# what the worker loads from npm's pyodide package (the rest of it is for Node, source maps and a console)
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def build_play_page(out: Path, pyodide: Path, wheels: Sequence[Path], python: str | None = None) -> list[Path]:
    """Write the Play page into the folder `out` (created if missing); return the files written.

    `pyodide` is npm's pyodide package (its folder), `wheels` the project's wheel and its dependencies'.
    The parser tables are prepared for the Python of that Pyodide (its pyodide-lock.json says which).
    `python`, an interpreter of that same Python version (`python3.13`), if given, compiles the wheels'
    modules to bytecode (`bytecode.zip`, unpacked beside them), which the page would otherwise compile at
    each load.

    :raises UsageError: a file of the pyodide package or a wheel is missing.
    """
    missing = [name for name in PYODIDE_FILES if not (pyodide / name).is_file()]
    missing += [str(w) for w in wheels if not w.is_file()]
    if missing:
        raise UsageError(f"cannot build the Play page: missing {', '.join(missing)}")
    if not any(w.name.startswith("landlord_dsl-") for w in wheels):
        raise UsageError("cannot build the Play page: no landlord_dsl wheel among the wheels")
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    major, minor = (int(x) for x in lock["info"]["python"].split(".")[:2])
    written = []
    out.mkdir(parents=True, exist_ok=True)
    for folder in ("pyodide", "wheels"):
        shutil.rmtree(out / folder, ignore_errors=True)
        (out / folder).mkdir()
    for name in PYODIDE_FILES:
        written.append(Path(shutil.copyfile(pyodide / name, out / "pyodide" / name)))
    for wheel in wheels:
        written.append(Path(shutil.copyfile(wheel, out / "wheels" / wheel.name)))
    for old in out.glob("parser-*.pickle"):
        old.unlink()
    name, tables = prepared_tables((major, minor))
    (out / name).write_bytes(tables)
    manifest: dict = {"wheels": sorted(w.name for w in wheels), "tables": name, "python": f"{major}.{minor}"}
    (out / "bytecode.zip").unlink(missing_ok=True)
    if python is not None:
        written.append(_bytecode(out / "bytecode.zip", wheels, python, (major, minor)))
        manifest["bytecode"] = "bytecode.zip"
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    (out / "index.html").write_text(page_html(), encoding="utf-8")
    (out / "worker.js").write_text(WORKER_JS, encoding="utf-8")
    written += [out / name, out / "manifest.json", out / "index.html", out / "worker.js"]
    return written


def _bytecode(archive: Path, wheels: Sequence[Path], python: str, version: tuple[int, int]) -> Path:
    """Write into `archive` the bytecode of every module of the wheels, compiled by `python` (which must be
    of `version`) as `__pycache__` files that import checks by nothing but their presence (unchecked-hash:
    the sources beside them never change); return `archive`.

    :raises UsageError: `python` is not of `version`, or did not compile them.
    """
    import subprocess
    import tempfile
    import zipfile

    asked = subprocess.run(
        [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True, check=False
    )
    if asked.stdout.strip() != f"{version[0]}.{version[1]}":
        raise UsageError(f"{python} is Python {asked.stdout.strip() or '?'}, not Pyodide's {version[0]}.{version[1]}")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as unpacked:
                unpacked.extractall(root)
        done = subprocess.run(
            [python, "-m", "compileall", "-q", "-j", "1", "--invalidation-mode", "unchecked-hash", str(root)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise UsageError(f"{python} could not compile the wheels' modules:\n{done.stdout}{done.stderr}")
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
            for compiled in sorted(root.rglob("*.pyc")):
                bundle.write(compiled, compiled.relative_to(root).as_posix())
    return archive


def page_html() -> str:
    """Return the Play page's HTML (text): the replay page's style and renderer with the page's own."""
    return (
        _PAGE.replace("{{STYLE}}", STYLE_CSS)
        .replace("{{RENDERER}}", RENDERER_JS)
        .replace("{{ASK}}", ASK_JS)
        .replace("{{OPTIONS}}", OPTIONS_JS)
    )


ASK_JS = r"""// showRequest(r, names, answer, say): a human's pending request in the page's #asking box: its prompt, the rule
// that asks, a button a labelled option (with what it costs and is worth) or, for a bid, the bid field and Pass;
// each calls answer(action). The Play page and the classroom's table page both use it.
function showRequest(r, names, answer, say) {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  $("prompt").textContent = names[r.seat] + ": " + r.prompt;
  $("context").textContent = r.context;
  $("asked-by").textContent = r.rule && r.rule !== "-" ? "asked by rule " + r.rule : "";
  var box = $("options"); box.textContent = "";
  $("bidding").hidden = r.kind !== "bid";
  if (r.kind === "decide") {
    r.options.forEach(function (o) {
      var b = document.createElement("button"); b.className = "option"; b.setAttribute("data-action", o.action);
      b.appendChild(document.createTextNode(o.label));
      var stake = [];
      if (o.cost > 0) stake.push("costs " + o.cost);
      if (o.worth > 0) stake.push("worth " + o.worth);
      if (stake.length) { var s = document.createElement("span"); s.className = "stake"; s.textContent = stake.join(" \u00b7 "); b.appendChild(s); }
      b.onclick = function () { answer(o.action); };
      box.appendChild(b);
    });
  } else {
    $("context").textContent = r.context + " \u00b7 opening price " + r.start + ", " +
      (r.high_bid === null ? "no bids yet" : "highest bid " + r.high_bid) + ", worth " + r.worth;
    var bid = $("bid"); bid.min = r.minimum; bid.max = r.maximum; bid.value = r.minimum;
    $("bid-button").onclick = function () { var v = Math.round(+bid.value);
      if (!(v >= r.minimum && v <= r.maximum)) { say("a bid is " + r.minimum + " to " + r.maximum); return; } say(""); answer(v); };
    $("pass").onclick = function () { answer(null); };
  }
}
"""


OPTIONS_JS = r"""// optionFields(box, declared): in `box`, a labelled field for each option a rule file declares (the list
// play_session.option_fields returns), set to its default: a list for a choice, a box for a flag, a number
// field for a number. chosenOptions(box): those changed from their default, as NAME=VALUE texts (`--option`'s);
// those left at their default are not sent (nor written into the log's options). The Play page and the
// classroom's teacher page both use them.
function optionFields(box, declared) {
  "use strict";
  box.textContent = "";
  declared.forEach(function (o) {
    var label = document.createElement("label"), field;
    if (o.choices) {
      field = document.createElement("select");
      o.choices.forEach(function (c) { var x = document.createElement("option"); x.value = c; x.textContent = c; field.appendChild(x); });
      field.value = o.default;
    } else if (typeof o.default === "boolean") {
      field = document.createElement("input"); field.type = "checkbox"; field.checked = o.default;
    } else {
      field = document.createElement("input"); field.type = "number"; field.value = o.default; field.style.width = "6em";
    }
    field.className = "option-field"; field.setAttribute("data-option", o.name);
    field.setAttribute("data-default", String(o.default));
    label.appendChild(document.createTextNode(o.label + " ")); label.appendChild(field); box.appendChild(label);
  });
}
function chosenOptions(box) {
  "use strict";
  return Array.prototype.map.call(box.querySelectorAll(".option-field"), function (f) {
    var value = f.type === "checkbox" ? String(f.checked) : f.value;
    return value === f.getAttribute("data-default") ? null : f.getAttribute("data-option") + "=" + value;
  }).filter(Boolean);
}
"""


WORKER_JS = r"""// The Play page's worker: Pyodide and the package, run off the page's thread (docs/play-in-browser.md).
// Messages in: {id, op, args}; out: {id, answer} (the JSON text landlord_dsl.cli.web.call returns),
// {id, error} (a failure of the worker itself), and {ready: ms, error?} once Python is loaded.
importScripts("pyodide/pyodide.js");
const base = new URL(".", self.location.href).href;
const started = performance.now();
const stages = {};  // milliseconds since the worker started, at the end of each stage of loading
let call = null;

async function bytes(path) {
  const response = await fetch(base + path);
  if (!response.ok) throw new Error("cannot load " + path + ": " + response.status);
  return new Uint8Array(await response.arrayBuffer());
}

async function start() {
  const manifest = JSON.parse(new TextDecoder().decode(await bytes("manifest.json")));
  // the wheels and the tables download while Pyodide loads
  const wheels = manifest.wheels.map((wheel) => bytes("wheels/" + wheel));
  const tables = bytes(manifest.tables);
  const bytecode = manifest.bytecode ? bytes(manifest.bytecode) : null;
  const pyodide = await loadPyodide({indexURL: base + "pyodide/"});
  stages.pyodide = performance.now() - started;
  const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const wheel of wheels) pyodide.unpackArchive(await wheel, "wheel", {extractDir: site});
  // the modules' bytecode, compiled at the build (without it, each import compiles its module)
  if (manifest.bytecode) pyodide.unpackArchive(await bytecode, "zip", {extractDir: site});
  stages.wheels = performance.now() - started;
  // the prepared parser tables, where the package's parser cache looks for them (parser_cache.build)
  pyodide.globals.set("TABLES", await tables);
  pyodide.globals.set("TABLES_NAME", manifest.tables);
  pyodide.runPython(`
import os
from landlord_dsl.language import parser_cache
_folder = parser_cache.cache_dir()
_folder.mkdir(mode=0o700, parents=True, exist_ok=True)
_path = _folder / TABLES_NAME
_path.write_bytes(TABLES.to_py())
os.chmod(_path, 0o600)
del TABLES
from landlord_dsl.cli.web import call
`);
  call = pyodide.globals.get("call");
  stages.imported = performance.now() - started;
}

const loading = start().then(
  () => postMessage({ready: performance.now() - started, stages}),
  (err) => postMessage({ready: performance.now() - started, stages, error: String(err && err.stack || err)}),
);

onmessage = async (event) => {
  const {id, op, args} = event.data;
  await loading;
  try {
    postMessage({id, answer: call(op, JSON.stringify(args || {}))});
  } catch (err) {
    postMessage({id, error: String(err && err.message || err)});
  }
};
"""


_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Play: The Landlord's Game and early Monopoly</title>
<style>
{{STYLE}}
main.play { grid-template-columns: minmax(0, 720px) minmax(300px, 1fr); grid-template-areas: "board decision" "board side"; }
@media (max-width: 900px) { main.play { grid-template-columns: minmax(0, 1fr); grid-template-areas: "decision" "board" "side"; } }
#setup { max-width: 980px; margin: 16px; }
#setup label { display: inline-block; margin: 4px 14px 4px 0; max-width: 100%; }
/* an edition's title is longer than a phone is wide: the list is cut to the line, not the page widened */
#setup select { max-width: 100%; }
#setup fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; }
button.primary { font: inherit; padding: 6px 14px; border-radius: 4px; border: 1px solid #0b5a8c; background: var(--accent); color: #fff; cursor: pointer; }
button { font: inherit; }
button:disabled { opacity: .5; cursor: default; }
#decision { grid-area: decision; }
#decision .prompt { font-weight: 600; font-size: 16px; }
#decision .context, #decision .rule { color: var(--muted); font-size: 13px; }
#options { display: flex; flex-direction: column; gap: 6px; margin-top: 8px; }
#options button { text-align: left; padding: 6px 10px; border: 1px solid #888; border-radius: 4px; background: #fafafa; cursor: pointer; }
#options button .stake { color: var(--muted); font-size: 13px; margin-left: 8px; }
#story { max-height: 340px; overflow-y: auto; margin: 0; padding-left: 0; list-style: none; font-size: 14px; }
#story li { padding: 3px 0; border-bottom: 1px solid #f0f0f0; }
#story li.turn { font-weight: 600; padding-top: 8px; }
#story .why { color: var(--muted); font-size: 12px; display: block; }
textarea#source { width: 100%; min-height: 180px; font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; }
pre.output { background: #f7f7f7; border: 1px solid #eee; padding: 8px; overflow-x: auto; font-size: 13px; white-space: pre-wrap; }
#status { margin-left: 12px; font-size: 13px; color: #cfd8e0; }
/* a caret must stay under its column: a narrow screen scrolls the diagnostics rather than wrap them */
#diagnostics { white-space: pre; }
#message { color: #a40000; white-space: pre-wrap; font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; }
[hidden] { display: none !important; }
</style>
</head>
<body data-phase="loading">
<header><h1>Play in your browser <span id="status">loading Python&hellip;</span></h1></header>
<section class="card" id="setup">
  <div>
    <label>Edition or variant <select id="edition"></select></label>
    <label>Players <select id="players"></select></label>
    <label>Seed <input id="seed" type="number" value="1" min="0" style="width: 7em"></label>
  </div>
  <fieldset><legend>Options</legend><div id="options-form"></div>
    <label>Others <input id="options-text" placeholder="name=value, name=value" size="34"></label></fieldset>
  <fieldset><legend>Seats</legend><div id="seats"></div></fieldset>
  <button class="primary" id="start" disabled>Start the game</button>
  <details id="own">
    <summary>Your own variant: paste or upload a <code>.lg</code> file</summary>
    <p><label>Upload <input type="file" id="upload" accept=".lg,text/plain"></label>
       <label>File name <input id="filename" value="my-variant.lg" size="24"></label></p>
    <textarea id="source" spellcheck="false" placeholder='edition "house" {&#10;  title "House rules"&#10;  extends "landlords-game-1906"&#10;  source "house-rule: ours" original&#10;}'></textarea>
    <p><button id="check" disabled>Check it</button> <button id="play-own" disabled>Play it</button></p>
    <pre class="output" id="diagnostics" hidden></pre>
  </details>
  <details id="simulate-box">
    <summary>Simulate games between bots</summary>
    <p><label>Games <input id="games" type="number" value="100" min="1" max="1000" style="width: 6em"></label>
       <button id="simulate" disabled>Simulate 100 games</button>
       the summary <code>landlord-dsl simulate --games N --seed S --json</code> prints</p>
    <pre class="output" id="simulation" hidden></pre>
  </details>
  <div id="message"></div>
</section>
<main class="play" id="game" hidden>
  <div id="board"></div>
  <div class="card" id="decision">
    <div id="asking">
      <div class="prompt" id="prompt"></div>
      <div class="context" id="context"></div>
      <div class="rule" id="asked-by"></div>
      <div id="options"></div>
      <div id="bidding" hidden>
        <label>Your bid <input id="bid" type="number"></label>
        <button id="bid-button">Bid</button> <button id="pass">Pass</button>
      </div>
    </div>
    <div id="end" hidden>
      <div class="prompt">The game is over.</div>
      <table id="scores"><thead><tr><th>player</th><th>score</th></tr></thead><tbody></tbody></table>
      <p><button class="primary" id="download">Download the game's log</button>
         <button id="again">New game</button></p>
      <p class="context">Check it on a desktop with <code>landlord-dsl replay FILE</code>.</p>
    </div>
    <div id="waiting" class="context" hidden>the bots are playing&hellip;</div>
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
{{OPTIONS}}
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var worker = new Worker("worker.js");
  var pending = {}, nextId = 1;
  var timings = {ready: null, firstDecision: null, answers: []};
  var game = null;  // {board, data, holdings, edition, kinds}
  var asked = null;  // performance.now() when an answer was sent
  window.landlordPlay = {timings: timings};

  function request(op, args) {
    return new Promise(function (resolve, reject) {
      var id = nextId++;
      pending[id] = {resolve: resolve, reject: reject};
      worker.postMessage({id: id, op: op, args: args});
    });
  }
  worker.onmessage = function (event) {
    var m = event.data;
    if (m.ready !== undefined) {
      timings.ready = m.ready; timings.stages = m.stages;
      if (m.error) { say("Python did not load: " + m.error); $("status").textContent = "failed"; return; }
      loaded();
      return;
    }
    var p = pending[m.id]; delete pending[m.id];
    if (m.error) { p.reject(new Error(m.error)); return; }
    var answer = JSON.parse(m.answer);
    if (answer.ok) p.resolve(answer.result); else p.reject(new Error(answer.error));
  };
  function say(text) { $("message").textContent = text || ""; }
  function phase(name) { document.body.setAttribute("data-phase", name); }
  function busy(on) { document.body.setAttribute("data-busy", on ? "1" : "0");
    ["start", "check", "play-own", "simulate"].forEach(function (id) { $(id).disabled = on; }); }

  function loaded() {
    request("editions", {}).then(function (editions) {
      var select = $("edition");
      editions.forEach(function (e) {
        var o = document.createElement("option"); o.value = e.name;
        o.textContent = e.name + (e.title ? " \u2014 " + e.title : ""); select.appendChild(o);
      });
      select.value = "landlords-game-1906";
      drawOptions();
      $("status").textContent = "ready";
      busy(false); phase("setup");
    }, function (err) { say(err.message); });
  }

  // seats: how many, and each human or bot
  for (var k = 1; k <= 8; k++) { var o = document.createElement("option"); o.value = k; o.textContent = k; $("players").appendChild(o); }
  $("players").value = "3";
  function drawSeats() {
    var box = $("seats"), n = +$("players").value, kept = seatKinds();
    box.textContent = "";
    for (var s = 0; s < n; s++) {
      var label = document.createElement("label"), select = document.createElement("select");
      select.className = "seat"; select.setAttribute("data-seat", s);
      ["human", "bot"].forEach(function (kind) { var o = document.createElement("option"); o.value = kind; o.textContent = kind; select.appendChild(o); });
      select.value = kept[s] || (s === 0 ? "human" : "bot");
      label.appendChild(document.createTextNode("Player " + (s + 1) + " ")); label.appendChild(select); box.appendChild(label);
    }
  }
  function seatKinds() { return Array.prototype.map.call(document.querySelectorAll("#seats select"), function (x) { return x.value; }); }
  $("players").onchange = drawSeats;
  drawSeats();
  // the chosen edition's options (OPTIONS_JS)
  function drawOptions() {
    var box = $("options-form"), edition = $("edition").value;
    box.textContent = "";
    request("options", {edition: edition}).then(function (declared) {
      if ($("edition").value === edition) optionFields(box, declared);
    }, function (err) { say(err.message); });
  }
  $("edition").onchange = drawOptions;
  // a pasted file's options are those under Others only: the form's are the chosen edition's
  function optionList(own) {
    var chosen = own ? [] : chosenOptions($("options-form"));
    return chosen.concat($("options-text").value.split(",").map(function (x) { return x.trim(); }).filter(Boolean));
  }

  function begin(args) {
    say(""); busy(true); phase("starting");
    request("start", args).then(function (started) { show(started); }, function (err) { busy(false); phase("setup"); say(err.message); });
  }
  $("start").onclick = function () {
    begin({edition: $("edition").value, kinds: seatKinds(), seed: +$("seed").value, options: optionList()});
  };
  $("play-own").onclick = function () {
    begin({edition: "", text: $("source").value, filename: $("filename").value, kinds: seatKinds(), seed: +$("seed").value, options: optionList(true)});
  };
  $("check").onclick = function () {
    say(""); busy(true);
    request("check", {filename: $("filename").value, text: $("source").value}).then(function (r) {
      busy(false); var out = $("diagnostics"); out.hidden = false; out.textContent = r.stdout + r.stderr;
      out.setAttribute("data-status", r.status);
    }, function (err) { busy(false); say(err.message); });
  };
  $("upload").onchange = function () {
    var file = $("upload").files[0]; if (!file) return;
    $("filename").value = file.name;
    file.text().then(function (text) { $("source").value = text; });
  };
  $("games").oninput = function () { $("simulate").textContent = "Simulate " + $("games").value + " games"; };
  $("simulate").onclick = function () {
    say(""); busy(true);
    var out = $("simulation"); out.hidden = false; out.textContent = "playing\u2026"; out.removeAttribute("data-status");
    var own = $("own").open && $("source").value.trim() !== "";
    var args = {edition: $("edition").value, games: +$("games").value, seed: +$("seed").value, options: optionList(own)};
    if (own) { args.text = $("source").value; args.filename = $("filename").value; }
    request("simulate", args).then(function (r) {
      busy(false); out.textContent = r.stdout + r.stderr; out.setAttribute("data-status", r.status);
    }, function (err) { busy(false); out.textContent = ""; say(err.message); });
  };

  function show(started) {
    var data = started.board;
    $("setup").hidden = true; $("game").hidden = false;
    $("board").innerHTML = data.svg;  // the package's own board drawing: every text in it escaped (board.py)
    $("players-table").querySelector("tbody").textContent = "";
    $("accounts").querySelector("tbody").textContent = "";
    $("accounts").parentNode.style.display = "";
    $("story").textContent = "";
    data.holdings = [];
    game = {data: data, board: landlordBoard(data, $("board").querySelector("svg"),
            $("players-table").querySelector("tbody"), $("accounts").querySelector("tbody"))};
    busy(false);
    update(started.shown);
  }

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
    while (story.children.length > 400) story.removeChild(story.firstChild);
    story.scrollTop = story.scrollHeight;
    if (shown.frames.length) { var last = shown.frames[shown.frames.length - 1]; game.board.show(last, data.holdings[last.h]); }
    $("waiting").hidden = true;
    if (shown.request) ask(shown.request); else finish(shown);
    if (asked !== null) { timings.answers.push(performance.now() - asked); asked = null; }
  }

  function answer(action) {
    $("asking").hidden = true; $("waiting").hidden = false; phase("waiting");
    asked = performance.now();
    request("answer", {action: action}).then(update, function (err) { say(err.message); $("asking").hidden = false; phase("deciding"); });
  }

  function ask(r) {
    var names = game.data.names;
    $("asking").hidden = false; $("end").hidden = true;
    showRequest(r, names, answer, say);
    if (timings.firstDecision === null) timings.firstDecision = performance.now();
    phase("deciding");
  }

  function finish(shown) {
    $("asking").hidden = true; $("end").hidden = false;
    var body = $("scores").querySelector("tbody"); body.textContent = "";
    shown.scores.forEach(function (score, seat) {
      var tr = document.createElement("tr"), who = document.createElement("td"), v = document.createElement("td");
      who.textContent = game.data.names[seat] + (shown.winners.indexOf(seat) >= 0 ? " (winner)" : "");
      v.className = "num"; v.textContent = score; tr.appendChild(who); tr.appendChild(v); body.appendChild(tr);
    });
    phase("over");
  }

  $("download").onclick = function () {
    request("log", {}).then(function (text) {
      var a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([text], {type: "application/x-ndjson"}));
      a.download = "game.log"; document.body.appendChild(a); a.click(); a.remove();
    }, function (err) { say(err.message); });
  };
  $("again").onclick = function () { $("game").hidden = true; $("setup").hidden = false; phase("setup"); };
})();
</script>
</body>
</html>
"""
