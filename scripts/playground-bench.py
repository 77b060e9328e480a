#!/usr/bin/env python3
"""make bench (e): the playground's size and its load time in headless Chromium.

    python3 scripts/playground-bench.py --binary .build-release/release/segue [--runs 10]

Starts `segue serve --port 0`, reads `GET /` as identity and as gzip (bytes on the wire), then opens
the page in a fresh headless Chromium tab `runs` times (Tests/Browser/cdp.py) and reports, from
the page's own clock (Navigation Timing and the `segue-settled` User Timing mark the page sets when
a request is finished): the time to the `load` event, and to the first preset rendered — presets
fetched, JSON, SVG, CSS and WAAPI of `bouncePresent` answered and shown. Median, min and max.
"""

import argparse
import http.client
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "Tests", "Browser"))
import run as browser_tests  # noqa: E402  (the server helper)
from cdp import Browser  # noqa: E402


def size(port, coding):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/", headers={"Accept-Encoding": coding})
    body = conn.getresponse().read()
    conn.close()
    return len(body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    browser_tests.BINARY = os.path.abspath(args.binary)
    server = browser_tests.Server().start()
    try:
        print(f"page bytes: identity {size(server.port, 'identity')}, gzip {size(server.port, 'gzip')}")
        loads, readies = [], []
        with Browser() as browser:
            for _ in range(args.runs):
                page = browser.new_page()
                page.navigate(f"http://127.0.0.1:{server.port}/")
                page.wait_for("performance.getEntriesByName('segue-settled').length > 0", interval=0.01)
                load, ready, state = page.evaluate(
                    "[performance.getEntriesByType('navigation')[0].loadEventEnd,"
                    " performance.getEntriesByName('segue-settled')[0].startTime, document.body.dataset.status]")
                if state != "ready":
                    raise SystemExit(f"the page settled in {state}")
                loads.append(load)
                readies.append(ready)
                page.send("Page.close")
        for name, values in (("load event", loads), ("first preset rendered", readies)):
            print(f"{name}: median {statistics.median(values):.1f} ms (min {min(values):.1f}, max {max(values):.1f}; "
                  f"{len(values)} fresh tabs)")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
