"""A small Chrome DevTools Protocol client over `--remote-debugging-pipe` (Python standard library only).

Chromium started with `--remote-debugging-pipe` reads protocol messages from file descriptor 3 and
writes its own to descriptor 4, each a JSON object followed by a NUL byte. One page target is
created and attached in flat mode; commands go to it with its `sessionId`. Every event is kept, so
a test can ask afterwards what the console said.

    with Browser(chromium="chromium") as browser:
        page = browser.new_page(width=1400, height=1000)
        page.navigate("http://127.0.0.1:8080/")
        page.wait_for("document.body.dataset.status === 'ready'")
        print(page.evaluate("document.title"))
        page.screenshot("shot.png")
        print(page.console_problems())  # [(source, text)]
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time


class ProtocolError(Exception):
    pass


class Browser:
    def __init__(self, chromium="chromium", extra_args=()):
        self.chromium = chromium
        self.extra_args = list(extra_args)
        self.proc = None
        self._next_id = 0
        self._replies: dict[int, dict] = {}
        self.events: list[dict] = []
        self._cv = threading.Condition()
        self._profile = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()

        def place_pipes():
            # Fresh descriptors first, so that moving one onto 3 or 4 cannot close the other.
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self._profile = tempfile.mkdtemp(prefix="segue-chromium-")
        args = [self.chromium, "--headless=new", "--remote-debugging-pipe", "--no-first-run",
                "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--no-sandbox",
                f"--user-data-dir={self._profile}", *self.extra_args]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=place_pipes, pass_fds=(3, 4))
        os.close(to_child_r)
        os.close(from_child_w)
        self._out = os.fdopen(to_child_w, "wb", buffering=0)
        self._in = os.fdopen(from_child_r, "rb", buffering=0)
        threading.Thread(target=self._read, daemon=True).start()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            try:
                self.send("Browser.close", timeout=5)
            except Exception:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self._profile:
            shutil.rmtree(self._profile, ignore_errors=True)

    def _read(self):
        buffer = b""
        while True:
            chunk = self._in.read(1 << 16)
            if not chunk:
                break
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            with self._cv:
                for raw in messages:
                    message = json.loads(raw)
                    if "id" in message:
                        self._replies[message["id"]] = message
                    else:
                        self.events.append(message)
                self._cv.notify_all()
        with self._cv:
            self._cv.notify_all()

    def send(self, method, params=None, session=None, timeout=60):
        with self._cv:
            self._next_id += 1
            ident = self._next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self._out.write(json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self._cv:
            while ident not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise ProtocolError(f"{method}: no answer within {timeout} s")
                self._cv.wait(min(left, 0.1))
            reply = self._replies.pop(ident)
        if "error" in reply:
            raise ProtocolError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def new_page(self, width=1400, height=1000):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page", "Runtime", "Log"):
            page.send(f"{domain}.enable")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        return page


class Page:
    def __init__(self, browser: Browser, session: str):
        self.browser = browser
        self.session = session

    def send(self, method, params=None, timeout=60):
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def events(self, method=None):
        with self.browser._cv:
            return [e for e in self.browser.events
                    if e.get("sessionId") == self.session and (method is None or e["method"] == method)]

    def navigate(self, url, timeout=30):
        seen = len(self.events("Page.loadEventFired"))
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + timeout
        while len(self.events("Page.loadEventFired")) <= seen:
            if time.monotonic() > deadline:
                raise ProtocolError(f"{url} did not load within {timeout} s")
            time.sleep(0.02)

    def evaluate(self, expression, timeout=60):
        """The value of a JavaScript expression (awaited when it is a promise), as JSON data."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise ProtocolError(f"{expression[:80]}: {details.get('exception', {}).get('description') or details}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=30, interval=0.05):
        """Polls until `expression` is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise ProtocolError(f"timed out after {timeout} s waiting for {expression}")
            time.sleep(interval)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def mark(self):
        """The number of the page's events so far: a point to ask `console_problems` from."""
        return len(self.events())

    def console_problems(self, start=0, end=None):
        """Everything the page reported as an error or a warning between two marks: uncaught
        exceptions, console errors and warnings, and the browser's own log entries (CSP refusals,
        failed loads, answers with an error status). Each as (source, text)."""
        out = []
        for e in self.events()[start:end]:
            method, p = e["method"], e["params"]
            if method == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                out.append(("exception", d.get("exception", {}).get("description") or d.get("text", "")))
            elif method == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning", "assert"):
                out.append((f"console.{p['type']}",
                            " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])))
            elif method == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                entry = p["entry"]
                out.append((entry["source"], f"{entry['level']}: {entry['text']} {entry.get('url', '')}".strip()))
        return out
