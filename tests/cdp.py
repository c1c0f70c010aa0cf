"""Headless Chromium driven over the DevTools protocol, through a pipe: no port, no websocket, no package.

Chromium's `--remote-debugging-pipe` reads protocol commands (JSON, each ended by a NUL byte) from file
descriptor 3 and writes answers and events to 4. `Browser` starts Chromium so, with every host but the
loopback one unreachable (a dead proxy for everything else, no name resolution), and opens one page;
`Page.evaluate` runs JavaScript there and returns its value, `wait_for` polls an expression until it is
true. Used by tests/test_play_page.py and benchmarks/bench_play_page.py.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any


def find_chromium() -> str | None:
    """Return the path of a Chromium or Chrome executable, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class ProtocolError(RuntimeError):
    """Chromium answered a command with an error, or a page's script threw."""


class Browser:
    """A headless Chromium with one page, driven through a pipe; use as a context manager."""

    def __init__(self, executable: str, profile: Path, downloads: Path | None = None, width: int = 1280) -> None:
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # Chromium wants them as descriptors 3 and 4: give the child copies above any it has, then move them
        high_r, high_w = os.dup(to_chrome_r) + 100, os.dup(from_chrome_w) + 100
        os.dup2(to_chrome_r, high_r)
        os.dup2(from_chrome_w, high_w)

        def descriptors() -> None:  # in the child, before exec
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        args = [
            executable,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            # the network is off but for the loopback server: other hosts go to a proxy nobody listens on
            # (loopback addresses never use a proxy) and no name resolves
            "--proxy-server=http://127.0.0.1:9",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            f"--window-size={width},1000",
            f"--user-data-dir={profile}",
            "--remote-debugging-pipe",
            "about:blank",
        ]
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=descriptors,
        )
        for fd in (to_chrome_r, from_chrome_w, high_r, high_w):
            os.close(fd)
        self._out, self._in = to_chrome_w, from_chrome_r
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self.device: dict[str, Any] | None = None
        if downloads is not None:
            self.command("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        target = self.command("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.command("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.command("Runtime.enable", session=self.session)
        self.command("Page.enable", session=self.session)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End Chromium (the process this object started)."""
        for fd in (self._out, self._in):
            try:
                os.close(fd)
            except OSError:
                pass
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def _message(self, timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self._in], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._in, 1 << 20)
            if not chunk:
                raise ProtocolError("Chromium closed the pipe (it has ended)")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def command(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None, timeout: float = 60
    ) -> dict[str, Any]:
        """Send a protocol command; return its result (events that come first are kept in `events`).

        :raises ProtocolError: Chromium answered with an error.
        """
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._out, json.dumps(message).encode("utf-8") + b"\0")
        while True:
            answer = self._message(timeout)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise ProtocolError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def new_context(self) -> Tab:
        """Open a page in a browser context of its own (its own cookies and storage: another device);
        return it."""
        context = self.command("Target.createBrowserContext")["browserContextId"]
        target = self.command("Target.createTarget", {"url": "about:blank", "browserContextId": context})["targetId"]
        session = self.command("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.command("Runtime.enable", session=session)
        self.command("Page.enable", session=session)
        return Tab(self, session)

    def evaluate(self, expression: str, timeout: float = 60, session: str | None = None) -> Any:
        """Run JavaScript in the page (or the page of `session`; a promise is awaited); return its value
        (JSON-able).

        :raises ProtocolError: the script threw.
        """
        result = self.command(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
            session=session or self.session,
            timeout=timeout,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise ProtocolError(details.get("exception", {}).get("description") or details.get("text"))
        return result["result"].get("value")

    def goto(self, url: str, session: str | None = None) -> None:
        """Open `url` in the page (or the page of `session`)."""
        self.command("Page.navigate", {"url": url}, session=session or self.session)

    def wait_for(self, expression: str, timeout: float = 60, every: float = 0.02, session: str | None = None) -> Any:
        """Poll a JavaScript expression until it is truthy; return its value.

        :raises TimeoutError: it was not within `timeout` seconds.
        """
        end = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression, session=session)
            except ProtocolError:  # (the page is between two documents)
                value = None
            if value:
                return value
            if time.monotonic() > end:
                raise TimeoutError(f"still false after {timeout} s: {expression}")
            time.sleep(every)

    def emulate(self, width: int, height: int, scale: float = 1, mobile: bool = False) -> None:
        """Show the page as a device shows it: `width` by `height` CSS pixels, `scale` device pixels to one,
        a phone's viewport (the page's `<meta name="viewport">` obeyed) if `mobile`; screenshots keep it."""
        self.device = {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile}
        self.command("Emulation.setDeviceMetricsOverride", self.device, session=self.session)

    def screenshot(self, path: Path, *selectors: str) -> None:
        """Write a PNG into `path`: of the page at its full height, or of the smallest box around the
        elements the CSS `selectors` name."""
        import base64

        # a window as tall as the page, so that nothing is beyond it (and the layout does not change between
        # measuring the box and taking the picture)
        device = self.device or {"width": self.evaluate("window.innerWidth"), "deviceScaleFactor": 1, "mobile": False}
        height = self.evaluate("Math.ceil(document.documentElement.scrollHeight)")
        metrics = {**device, "height": height}
        self.command("Emulation.setDeviceMetricsOverride", metrics, session=self.session)
        box = self.evaluate(
            "(function (selectors) {"
            " var boxes = selectors.length ? selectors.map(s => document.querySelector(s).getBoundingClientRect())"
            " : [{left: 0, top: 0, right: document.documentElement.clientWidth,"
            " bottom: document.documentElement.scrollHeight}];"
            " var x = Math.min(...boxes.map(b => b.left)) + scrollX, y = Math.min(...boxes.map(b => b.top)) + scrollY;"
            " return {x: Math.floor(x), y: Math.floor(y),"
            " width: Math.ceil(Math.max(...boxes.map(b => b.right)) + scrollX - Math.floor(x)),"
            " height: Math.ceil(Math.max(...boxes.map(b => b.bottom)) + scrollY - Math.floor(y)), scale: 1}; })"
            f"({json.dumps(list(selectors))})"
        )
        shot = self.command(
            "Page.captureScreenshot",
            {"format": "png", "clip": box},
            session=self.session,
        )
        if self.device is None:
            self.command("Emulation.clearDeviceMetricsOverride", session=self.session)
        else:
            self.command("Emulation.setDeviceMetricsOverride", self.device, session=self.session)
        path.write_bytes(base64.b64decode(shot["data"]))


class Tab:
    """A page of a browser context of its own (`Browser.new_context`): evaluate, goto and wait_for there."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser, self.session = browser, session

    def evaluate(self, expression: str, timeout: float = 60) -> Any:
        """Run JavaScript in this page; return its value (Browser.evaluate)."""
        return self.browser.evaluate(expression, timeout, session=self.session)

    def goto(self, url: str) -> None:
        """Open `url` in this page."""
        self.browser.goto(url, session=self.session)

    def wait_for(self, expression: str, timeout: float = 60, every: float = 0.02) -> Any:
        """Poll a JavaScript expression in this page until it is truthy; return its value (Browser.wait_for)."""
        return self.browser.wait_for(expression, timeout, every, session=self.session)


class Server:
    """A folder served on a free loopback port from a thread (a context manager); `paths` lists every path
    asked for, `origin` is its http://127.0.0.1:PORT."""

    def __init__(self, root: Path) -> None:
        import functools
        import http.server
        import threading

        paths: list[str] = []
        self.paths = paths

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                paths.append(self.path)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=root))
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving and free the port."""
        self.httpd.shutdown()
        self.httpd.server_close()
