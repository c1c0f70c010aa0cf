"""Look at the built documentation site in headless Chromium, at desktop and phone width.

    python tests/browser_check.py SITE_DIR [--shots DIR]

SITE_DIR is the output of `mkdocs build`. The site is served on a local
port and every page is loaded in a frame 1280 and 390 pixels wide; in each,
a script finds

* tables that scroll sideways, or stick out of the text column (folded
  tables are opened first);
* whether the page itself scrolls sideways;
* copy buttons on output (`text` and `lg-diff` blocks), which should have none;
* pictures (every `img` of a page's article) whose smallest text, shrunk
  to the width the page gives the picture, is under 7 CSS pixels. A picture
  states the height of its smallest text in its own pixels in
  `data-text-px` (the script that draws it measures it); one that does not
  is a problem too.

With --shots, screenshots of a few pages at both widths are written to DIR.
Prints one line per problem and exits 1 if there is any. tests/test_browser_check.py
runs it (a missing Chromium fails under CI=true).
"""

from __future__ import annotations

import argparse
import functools
import html
import http.server
import json
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

WIDTHS = (1280, 390)
MIN_TEXT_PX = 7.0
# (page, picture) whose smallest text may show smaller, and why
SMALL_TEXT_ALLOWED = {
    ("", "landlords-game-1906.svg"): "the home page's hero: the board as a picture that links to the edition "
    "page, where it is shown readable",
}
SHOT_PAGES = ("", "editions/monopoly-1933-atlantic-city/", "single-tax-report/", "engine/")

# Runs in the harness page: loads every page in a frame of each width, one at a time, and
# writes what it measured as JSON into <pre id="result">.
_HARNESS = """<!DOCTYPE html><html><body><pre id="result"></pre><script>
const PAGES = %(pages)s, WIDTHS = %(widths)s;
function measure(win, width) {
  const d = win.document, found = {tables: [], overflow: false, pictures: []};
  d.querySelectorAll("details").forEach(x => { x.open = true; });
  const article = d.querySelector("article") || d.body;
  const right = article.getBoundingClientRect().right;
  d.querySelectorAll("article table").forEach((t, i) => {
    const wrap = t.closest(".md-typeset__scrollwrap");
    const boxes = [t, wrap].filter(Boolean);
    const scrolls = boxes.some(b => b.scrollWidth > b.clientWidth + 1);
    const out = t.getBoundingClientRect().right > right + 1;
    if (scrolls || out) {
      const head = t.querySelector("th, td");
      found.tables.push({index: i, first: head ? head.textContent.trim().slice(0, 40) : "",
                         scroll: Math.max(...boxes.map(b => b.scrollWidth)),
                         width: Math.min(...boxes.map(b => b.clientWidth))});
    }
  });
  found.overflow = d.documentElement.scrollWidth > win.innerWidth + 1;
  found.copy = {output: 0, commands: 0};
  d.querySelectorAll("article [data-clipboard-target]").forEach(b => {
    const output = b.closest(".language-text, .language-lg-diff");
    if (b.offsetParent !== null) found.copy[output ? "output" : "commands"] += 1;
  });
  d.querySelectorAll("article img").forEach(img => {
    if (img.closest(".twemoji, .emojione, .gemoji") || img.offsetParent === null) return;
    const scale = img.getBoundingClientRect().width / (img.naturalWidth || 1);
    found.pictures.push({src: img.currentSrc.split("/").pop(), text: parseFloat(img.dataset.textPx) * scale,
                         stated: "textPx" in img.dataset, shown: Math.round(img.getBoundingClientRect().width)});
  });
  return found;
}
async function run() {
  const results = [];
  for (const width of WIDTHS) {
    for (const page of PAGES) {
      const frame = document.createElement("iframe");
      frame.style.width = width + "px"; frame.style.height = "900px"; frame.style.border = "0";
      document.body.appendChild(frame);
      await new Promise(done => { frame.onload = done; frame.src = "/" + page; });
      const images = [...frame.contentDocument.images];
      await Promise.all(images.map(im => im.complete ? null : new Promise(ok => { im.onload = im.onerror = ok; })));
      await new Promise(ok => setTimeout(ok, 50));
      results.push({page, width, ...measure(frame.contentWindow, width)});
      frame.remove();
    }
  }
  document.getElementById("result").textContent = JSON.stringify(results);
}
run().catch(err => { document.getElementById("result").textContent = "ERROR " + err; });
</script></body></html>
"""


def find_chromium() -> str | None:
    """Return the path of a Chromium or Chrome executable, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def _chrome(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    base = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--hide-scrollbars",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
    ]
    return subprocess.run(base + list(args), capture_output=True, text=True, timeout=600, check=False)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


class _Server:
    """The site on a free local port, served from a thread."""

    def __init__(self, root: Path):
        handler = functools.partial(_QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def pages(site: Path) -> list[str]:
    """Return the address, relative to the site root, of every page of a built site."""
    found = []
    for index in site.rglob("index.html"):
        folder = index.parent.relative_to(site)
        if "assets" not in folder.parts:
            found.append("" if folder == Path(".") else folder.as_posix() + "/")
    return sorted(found)


def measure(site: Path, browser: str, work: Path, which: list[str] | None = None) -> list[dict]:
    """Return, for every page (or those in `which`) and width, the sideways-scrolling tables, page overflow
    and picture text sizes."""
    harness = site / "__browser_check__.html"
    harness.write_text(
        _HARNESS % {"pages": json.dumps(pages(site) if which is None else which), "widths": json.dumps(WIDTHS)},
        encoding="utf-8",
    )
    server = _Server(site)
    try:
        proc = _chrome(
            browser,
            work / "profile",
            "--window-size=1400,1000",
            "--virtual-time-budget=600000",
            "--dump-dom",
            server.url + harness.name,
        )
    finally:
        server.close()
        harness.unlink()
    start = proc.stdout.find('<pre id="result">')
    if proc.returncode != 0 or start < 0:
        raise RuntimeError(f"Chromium failed: {proc.stderr[-2000:]}")
    text = html.unescape(proc.stdout[start + len('<pre id="result">') : proc.stdout.index("</pre>", start)])
    if not text.startswith("["):
        raise RuntimeError(f"the check did not finish: {text[:500]!r}")
    return json.loads(text)


def problems(results: list[dict]) -> list[str]:
    """Return one sentence per problem found in the measurements."""
    found = []
    for r in results:
        where = f"/{r['page']} at {r['width']} px"
        for t in r["tables"]:
            found.append(f"{where}: table {t['index']} ({t['first']!r}) is {t['scroll']} px wide in {t['width']} px")
        if r["overflow"]:
            found.append(f"{where}: the page scrolls sideways")
        if r["copy"]["output"]:
            found.append(f"{where}: {r['copy']['output']} output blocks have a copy button")
        for p in r["pictures"]:
            if not p["stated"]:
                found.append(f"{where}: {p['src']} does not state its smallest text (data-text-px)")
            elif not p["text"] >= MIN_TEXT_PX and (r["page"], p["src"]) not in SMALL_TEXT_ALLOWED:
                found.append(
                    f"{where}: the smallest text of {p['src']} shows at {p['text']:.1f} px "
                    f"(picture {p['shown']} px wide)"
                )
    return found


def screenshots(site: Path, browser: str, out: Path, work: Path, which=SHOT_PAGES) -> list[Path]:
    """Write a screenshot of some pages at each width into `out`; return the files written."""
    out.mkdir(parents=True, exist_ok=True)
    server = _Server(site)
    written = []
    try:
        for page in which:
            for width in WIDTHS:
                target = out / f"{page.strip('/').replace('/', '_') or 'home'}-{width}.png"
                _chrome(
                    browser,
                    work / "profile",
                    f"--window-size={width},1600",
                    f"--screenshot={target}",
                    "--virtual-time-budget=5000",
                    server.url + page,
                )
                if target.exists() and target.stat().st_size:
                    written.append(target)
    finally:
        server.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a site built by mkdocs build")
    parser.add_argument("--shots", type=Path, help="write screenshots of some pages here")
    args = parser.parse_args(argv)
    browser = find_chromium()
    if browser is None:
        print("no Chromium found", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as work:
        if args.shots:
            for shot in screenshots(args.site, browser, args.shots, Path(work)):
                print(f"wrote {shot}")
        results = measure(args.site, browser, Path(work))
    found = problems(results)
    for line in found:
        print(line)
    print(f"{len(results)} page views checked, {len(found)} problems", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
