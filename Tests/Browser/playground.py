#!/usr/bin/env python3
"""Browser test of the playground (`GET /`, docs/playground.md): headless Chromium uses the page the
real binary serves, as a person would, through the Chrome DevTools Protocol (`cdp.py`).

    python3 Tests/Browser/playground.py --binary .build-release/release/segue [--chromium chromium]
                                        [--artefacts .build/browser-artefacts]

One server (`segue serve --port 0`), one browser. The tests, one line each:

  - `page`: `GET /` is one HTML document with no external reference (no `http:`/`https:` address,
    no `src`), served with a `Content-Security-Policy` of `default-src 'none'` and hash sources
    only (no `'unsafe-inline'`), and it reaches the `ready` state with the first preset.
  - `preset/NAME`, for every preset of `GET /v1/presets`: chosen from the menu, it renders; the SVG
    plot (in the plot's shadow root) has at least one `<path>` per view channel with a non-empty
    `d`; each stage has one element per view; then, paused with the scrubber at times that are
    exact frame times (multiples of 50 ms at 60 fps), every CSS-driven element (`[data-segue]`,
    the default export: geometry=transform) has the border box UIKit draws from Segue's JSON frame
    at that time, and its `opacity`, `background-color` and `border-radius` equal the frame's,
    within the export bound (the same comparisons and browser allowances as run.py), and the
    JSON-driven element (`[data-view]`) shows that frame exactly with the rule 28 mapping
    (`left`, `top`, `width`, `height`, `opacity`, `transform`, …; allowance only).
  - `curve`: a timing-curve example plays; the CSS-driven dot's `left` is progress × 280 px within
    0.001 × 280 px, the JSON-driven dot's exactly.
  - `analysis`: the spring examples and the overshooting Bézier, compare off: the page asks the
    JSON with `analysis: true` and draws it on the plot; every mark sits where the server's
    analysis puts it on the export's own axes (the time axis from the frame rectangle and the
    sample window, the progress axis from the reference lines at 0 and 1), within 0.05 user units:
    the overshoot and undershoot points, the halfway point, the peak-velocity and settle lines;
    the settle labels print the server's times; no engine is drawn; the editor text is unchanged.
  - `compare/spring`: the compare toggle on: six engine polylines, each through the server's
    `compare` progress on the same axes, and six table rows whose `data-value` is the JSON's
    `maxDeviation` (and `settlingDuration`) exactly and whose text prints it; the shared link
    holds `compare=1`; the page kept as `playground-compare.png`.
  - `compare/bezier`: with the toggle still on, a Bézier: the toggle is disabled, no request the
    page sends has `compare`, no problem is shown, no engine is drawn, the analysis still is.
  - `bad-edit/syntax`: a comma removed from the request: the page shows the fault at the line and
    column Python's own JSON reader reports, and marks the editor invalid.
  - `bad-edit/problem`: a preset with `dampingRatio: -1`: the page shows the server's 422 with its
    pointer (the same as a direct POST answers) and the excerpt marks the offending value.
  - `bad-edit/tolerance`: tolerance `abc` marks the tolerance field (the 422 names `parameter`).
  - `share`: the address after a run, opened in a new page, restores the request and renders.
  - `copy`: Copy CSS reports the export's length.
  - `screenshot`: the page paused mid-way through `dropDismiss`, kept as `playground.png`.
  - `console`: neither page logged an error or a warning, threw, or had anything refused by its
    Content-Security-Policy, over the whole session.
Exit status 1 when a test failed. Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as exports  # noqa: E402  (the server, the rule 28 expectations and the comparisons)
from cdp import Browser  # noqa: E402

TOLERANCE = 0.001
CURVE_TRACK = 280.0  # px, playground.js CURVE_TRACK


def get(port, path):
    conn = http.client.HTTPConnection(exports.HOST, port, timeout=30)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


# What the page shows of elements: each property read as a string and as a typed value.
READ_JS = "(REQUEST) => {" + exports.TYPED_READING_JS + r"""
  const out = {};
  for (const [selector, props] of Object.entries(REQUEST)) {
    const el = document.querySelector(selector);
    if (!el) { out[selector] = null; continue; }
    const cs = getComputedStyle(el);
    out[selector] = {};
    for (const [css, kind] of props) out[selector][css] = {string: cs.getPropertyValue(css), typed: typed(el, css, kind)};
    // The border box in the stage's own units, relative to the box the element is positioned in
    // (the stage is scaled to fit its column).
    const stage = el.closest(".stage"), parent = el.offsetParent ?? stage;
    const scale = stage.getBoundingClientRect().width / stage.offsetWidth;
    const r = el.getBoundingClientRect(), p = parent.getBoundingClientRect();
    out[selector].box = [(r.left - p.left) / scale, (r.top - p.top) / scale, (r.right - p.left) / scale, (r.bottom - p.top) / scale];
  }
  return out;
}"""


def read(page, request):
    """{selector: [[css, kind], …]} → {selector: {css: {string, typed}}}."""
    return page.evaluate(f"({READ_JS})({json.dumps(request)})")


def status(page):
    return page.evaluate("document.body.dataset.status")


def settle(page, action, timeout=60):
    """Runs the JavaScript `action` and waits until the page has finished the request it starts
    (`data-settled` counts them); returns the state it settled in: ready, invalid or problem."""
    before = int(page.evaluate("document.body.dataset.settled ?? '0'"))
    page.evaluate(f"(() => {{ {action} }})()")
    return page.wait_for(f"Number(document.body.dataset.settled ?? 0) > {before} && document.body.dataset.status",
                         timeout=timeout)


def set_value(element_id, value, event):
    """JavaScript that sets a control's value and fires the event a person's change would."""
    return (f"const e = document.getElementById({json.dumps(element_id)}); e.value = {json.dumps(value)};"
            f" e.dispatchEvent(new Event({json.dumps(event)}));")


def choose(page, value):
    return settle(page, set_value("preset", value, "change"))


def edit(page, text):
    return settle(page, set_value("editor", text, "input"))


def scrub(page, ms):
    page.evaluate(f"(() => {{ {set_value('scrub', str(ms), 'input')} }})()")


def frame_times_ms(duration):
    """Times that are exact 60 fps frame times (multiples of 50 ms) spread over [0, duration]."""
    last = int(duration * 1000 // 50) * 50
    picks = {0, last, 50 * round(last * 0.3 / 50), 50 * round(last * 0.55 / 50), 50 * round(last * 0.8 / 50)}
    return sorted(picks)


def check_stage(res, server, page, name, request, frames, times_ms):
    """The CSS-driven and JSON-driven elements at each time against Segue's JSON there. The JSON
    side shows the frames with the rule 28 mapping, property by property; the CSS side plays the
    default export (geometry=transform, rule 42), so its elements' border boxes are compared with
    the box UIKit draws (run.py's `SceneData.box_expected`), and its other properties one by one."""
    at_request = {k: v for k, v in request.items() if k not in ("fps", "samples", "at")}
    at_request["at"] = [ms / 1000 for ms in times_ms]
    at_json = json.loads(server.fetch("/v1/render", at_request, "application/json"))
    props = {view: exports.render_props(view, frames, at_json) for view in frames["views"]}
    container = request.get("transition", {}).get("container") or request.get("container") or [0, 0, 1, 1]
    scene = exports.SceneData(server, name, request, container, [ms / 1000 for ms in times_ms], tol=TOLERANCE)
    for i, ms in enumerate(times_ms):
        scrub(page, ms)
        want = {}
        for view, plist in props.items():
            kinds = [[p.css, p.kind] for p in plist]
            want[f'[data-segue="{view}"]'] = kinds
            want[f'[data-view="{view}"]'] = kinds
        readings = read(page, want)
        for view, plist in props.items():
            css_side, json_side = readings[f'[data-segue="{view}"]'], readings[f'[data-view="{view}"]']
            if css_side is None or json_side is None:
                res.fail(f"{name}: no element for view {view}")
                continue
            if view in scene.geo:
                expected, bound, allow = scene.box_expected(view, i, 1)
                exports.compare_box(res, name, f"CSS-driven {view}", ms / 1000, css_side["box"], expected, bound, allow)
            for p in plist:
                segue = p.expected(i)
                if p.clamp:
                    segue = [exports.clamp01(v) for v in segue]
                if p.css not in exports.GEOMETRY_PROPERTIES or view not in scene.geo:
                    exports.compare(res, name, p, ms / 1000, css_side[p.css], segue, TOLERANCE,
                                    label=f"CSS-driven {view} {p.css}")
                exports.compare(res, name, p, ms / 1000, json_side[p.css], segue, TOLERANCE, bound_override=0.0,
                                label=f"JSON-driven {view} {p.css}")


def test_preset(server, page, name):
    res = exports.Result(f"preset/{name}")
    state = choose(page, f"preset:{name}")
    if state != "ready":
        res.fail(f"the page settled in `{state}`: {page.evaluate('document.getElementById(`problem`).textContent')}")
        return res
    text = page.evaluate("document.getElementById('editor').value")
    if f'"preset": "{name}"' not in text:
        res.fail(f"the editor does not hold the preset: {text[:200]}")
    request = json.loads(text)
    frames = json.loads(server.fetch("/v1/render", request, "application/json"))
    channels = sum(len(ch) for ch in frames["views"].values())
    paths = page.evaluate("[...document.getElementById('plot').shadowRoot.querySelectorAll('path')]"
                          ".filter(p => (p.getAttribute('d') || '').length > 2).length")
    if paths < channels:
        res.fail(f"the SVG plot has {paths} paths with data for {channels} view channels")
    counts = page.evaluate("[document.querySelectorAll('#json-stage [data-view]').length,"
                           " document.querySelectorAll('#css-stage [data-segue]').length]")
    if counts != [len(frames["views"]), len(frames["views"])]:
        res.fail(f"stages hold {counts} elements for {len(frames['views'])} views")
    check_stage(res, server, page, res.name, request, frames, frame_times_ms(frames["duration"]))
    return res


def test_curve(server, page):
    res = exports.Result("curve")
    state = choose(page, "curve:0")
    if state != "ready":
        res.fail(f"the page settled in `{state}`")
        return res
    request = json.loads(page.evaluate("document.getElementById('editor').value"))
    frames = json.loads(server.fetch("/v1/curve", request, "application/json"))
    left = exports.Prop("left", "length", None, [1.0])
    for ms in frame_times_ms(frames["duration"]):
        at = {k: v for k, v in request.items() if k not in ("fps", "samples")} | {"at": [ms / 1000]}
        progress = json.loads(server.fetch("/v1/curve", at, "application/json"))["progress"][0]
        scrub(page, ms)
        r = read(page, {'[data-segue="curve"]': [["left", "length"]], '[data-view="curve"]': [["left", "length"]]})
        want = [progress * CURVE_TRACK]
        exports.compare(res, "curve", left, ms / 1000, r['[data-segue="curve"]']["left"], want, TOLERANCE,
                        bound_override=TOLERANCE * CURVE_TRACK, label="CSS-driven dot left")
        exports.compare(res, "curve", left, ms / 1000, r['[data-view="curve"]']["left"], want, TOLERANCE,
                        bound_override=0.0, label="JSON-driven dot left")
    return res


ENGINES = ["webkit", "pop", "rebound", "motion", "android", "objcio"]
MARK_BOUND = 0.05  # SVG user units: the export's coordinates are rounded to 0.01

# The plot's marks, engines, table and frame, as the page shows them.
MARKS_JS = r"""(() => {
  const svg = document.getElementById('plot').shadowRoot.querySelector('svg');
  const attrs = (e) => Object.fromEntries([...e.attributes].map((a) => [a.name, a.value]));
  const frame = svg.querySelector('rect.axis');
  return {
    frame: ['x', 'y', 'width', 'height'].map((k) => Number(frame.getAttribute(k))),
    refs: [...svg.querySelectorAll('line.ref')].map((l) => Number(l.getAttribute('y1'))),
    marks: [...svg.querySelectorAll('.marks [data-mark]')].map((e) => ({tag: e.tagName, text: e.textContent, ...attrs(e)})),
    engines: [...svg.querySelectorAll('polyline[data-engine]')].map((e) => ({engine: e.dataset.engine, points: e.getAttribute('points')})),
    engineLabels: [...svg.querySelectorAll('.engines text')].map((e) => e.textContent),
    tableHidden: document.getElementById('engines').hidden,
    rows: [...document.querySelectorAll('#engines tbody tr')].map((r) => ({engine: r.dataset.engine,
      cells: Object.fromEntries([...r.querySelectorAll('td[data-key]')].map((c) => [c.dataset.key, {value: c.dataset.value, text: c.textContent}]))})),
    summary: document.getElementById('analysis').textContent,
    compareDisabled: document.getElementById('compare').disabled,
    compareChecked: document.getElementById('compare').checked,
    problemHidden: document.getElementById('problem').hidden,
  };
})()"""

# Records the body of every POST the page sends from now on (the page calls the global `fetch`).
RECORD_JS = """(() => { window.__segueBodies = []; if (!window.__segueFetch) { window.__segueFetch = window.fetch;
  window.fetch = (url, init) => { if (init && init.body) window.__segueBodies.push(String(url) + ' ' + init.body);
  return window.__segueFetch(url, init); }; } })()"""


class PlotAxes:
    """The export's axes, read independently of the page's own reading: the frame rectangle is
    the plot area, the time axis spans the sample window exactly, and the progress axis is the
    linear map through the reference lines at progress 0 and 1 (CurveSVG.swift)."""

    def __init__(self, shown, times):
        left, top, width, height = shown["frame"]
        self.left, self.right, self.top, self.bottom = left, left + width, top, top + height
        self.t0, self.t1 = min(times), max(times)
        y0, y1 = sorted(shown["refs"], reverse=True)[:2]  # progress 0 is lower on the page than 1
        self.y0, self.y1 = y0, y1

    def x(self, t):
        t = min(max(t, self.t0), self.t1)
        return self.left + (t - self.t0) / (self.t1 - self.t0) * (self.right - self.left)

    def y(self, p):
        return self.y0 + p * (self.y1 - self.y0)


def seconds(t):
    return f"{t:.3f} s"


def figure(v):
    """playground.js `figure`: the number to 4 significant digits (JavaScript and Python print it
    differently, so a printed figure is compared as the number it reads as: `same_figure`)."""
    return float(f"{v:.4g}")


def same_figure(text, v):
    try:
        return float(text) == figure(v)
    except ValueError:
        return False


def marks_of(shown):
    out = {}
    for m in shown["marks"]:
        out.setdefault(m["data-mark"], []).append(m)
    return out


def close_to(res, label, got, want, bound=MARK_BOUND):
    if got is None or abs(float(got) - want) > bound:
        res.fail(f"{label}: {got} on the page, {want:.3f} from the server's numbers")


def check_marks(res, name, shown, analysis, times):
    axes = PlotAxes(shown, times)
    marks = marks_of(shown)

    def point(mark, t, p):
        circles = [m for m in marks.get(mark, []) if m["tag"] == "circle"]
        labels = [m for m in marks.get(mark, []) if m["tag"] == "text"]
        if t is None:
            if circles:
                res.fail(f"{name}: a {mark} point for a curve without one")
            return
        if len(circles) != 1 or len(labels) != 1:
            res.fail(f"{name}: {len(circles)} {mark} points and {len(labels)} labels")
            return
        close_to(res, f"{name} {mark} x", circles[0]["cx"], axes.x(t))
        close_to(res, f"{name} {mark} y", circles[0]["cy"], axes.y(p))
        if seconds(t) not in labels[0]["text"]:
            res.fail(f"{name}: the {mark} label {labels[0]['text']!r} does not print {seconds(t)}")

    def line(mark, t, words):
        lines = [m for m in marks.get(mark, []) if m["tag"] == "line"]
        labels = [m for m in marks.get(mark, []) if m["tag"] == "text"]
        if t is None:
            if lines:
                res.fail(f"{name}: a {mark} line for a time that is null")
            return
        if len(lines) != 1 or len(labels) != 1:
            res.fail(f"{name}: {len(lines)} {mark} lines and {len(labels)} labels")
            return
        close_to(res, f"{name} {mark} x1", lines[0]["x1"], axes.x(t))
        close_to(res, f"{name} {mark} x2", lines[0]["x2"], axes.x(t))
        for word in words + [seconds(t)]:
            if word not in labels[0]["text"]:
                res.fail(f"{name}: the {mark} label {labels[0]['text']!r} does not say {word!r}")

    a = analysis
    point("overshoot", a["overshootAt"] if a["overshoot"] > 0 else None, 1 + a["overshoot"])
    point("undershoot", a["undershootAt"] if a["undershoot"] > 0 else None, -a["undershoot"])
    point("halfway", a["halfway"], 0.5)
    line("peak-velocity", a["peakVelocityAt"], ["peak velocity"])
    peak = [m["text"] for m in marks.get("peak-velocity", []) if m["tag"] == "text"]
    printed = re.search(r"peak velocity (\S+)/s", peak[0]) if peak else None
    if a["peakVelocityAt"] is not None and not (printed and same_figure(printed.group(1), a["peakVelocity"])):
        res.fail(f"{name}: the peak velocity label {peak} does not print {a['peakVelocity']}")
    line("settle-0.01", a["settle"]["0.01"], ["1 %"])
    line("settle-0.001", a["settle"]["0.001"], ["0.1 %"])
    if f"{a['oscillations']} sign change" not in shown["summary"]:
        res.fail(f"{name}: the summary {shown['summary']!r} does not count {a['oscillations']} sign changes")


def set_compare(page, on):
    """Turns the compare toggle on or off as a click would; returns the state the page settled in
    (None when it was already so, or when the toggle is disabled: then it is only set, as the
    next request will read it)."""
    if page.evaluate("document.getElementById('compare').checked") == on:
        return None
    if page.evaluate("document.getElementById('compare').disabled"):
        page.evaluate(f"document.getElementById('compare').checked = {json.dumps(on)}")
        return None
    return settle(page, "document.getElementById('compare').click();")


def test_analysis(server, page):
    res = exports.Result("analysis")
    set_compare(page, False)
    for preset in ["curve:0", "curve:1", "curve:3"]:
        state = choose(page, preset)
        if state != "ready":
            res.fail(f"{preset}: the page settled in `{state}`")
            continue
        text = page.evaluate("document.getElementById('editor').value")
        request = json.loads(text)
        if "analysis" in request or "compare" in request:
            res.fail(f"{preset}: the editor's text was changed: {text[:200]}")
        frames = json.loads(server.fetch("/v1/curve", request | {"analysis": True}, "application/json"))
        shown = page.evaluate(MARKS_JS)
        check_marks(res, preset, shown, frames["analysis"], frames["t"])
        if shown["engines"] or not shown["tableHidden"]:
            res.fail(f"{preset}: engines drawn with compare off")
    return res


def test_compare_spring(server, page, artefacts):
    res = exports.Result("compare/spring")
    choose(page, "curve:1")
    if page.evaluate("document.getElementById('compare').disabled"):
        res.fail("the compare toggle is disabled for a spring")
        return res
    state = set_compare(page, True)
    if state != "ready":
        res.fail(f"the page settled in `{state}` with compare on")
        return res
    request = json.loads(page.evaluate("document.getElementById('editor').value"))
    frames = json.loads(server.fetch("/v1/curve", request | {"analysis": True, "compare": ENGINES}, "application/json"))
    shown = page.evaluate(MARKS_JS)
    axes = PlotAxes(shown, frames["t"])
    check_marks(res, "curve:1 compared", shown, frames["analysis"], frames["t"])
    if sorted(e["engine"] for e in shown["engines"]) != sorted(ENGINES):
        res.fail(f"engine polylines: {[e['engine'] for e in shown['engines']]}")
    for e in shown["engines"]:
        want = frames["compare"][e["engine"]]["progress"]
        points = [tuple(map(float, p.split(","))) for p in e["points"].split()]
        if len(points) != len(want):
            res.fail(f"{e['engine']}: {len(points)} points for {len(want)} samples")
            continue
        worst = max(max(abs(x - axes.x(t)), abs(y - axes.y(p))) for (x, y), t, p in zip(points, frames["t"], want))
        if worst > MARK_BOUND:
            res.fail(f"{e['engine']}: a polyline vertex {worst:.3f} user units from the server's progress")
    if sorted(label.split()[0] for label in shown["engineLabels"]) != sorted(ENGINES):
        res.fail(f"engine labels: {shown['engineLabels']}")
    if shown["tableHidden"] or sorted(r["engine"] for r in shown["rows"]) != sorted(ENGINES):
        res.fail(f"the engines' table: hidden {shown['tableHidden']}, rows {[r['engine'] for r in shown['rows']]}")
    for row in shown["rows"]:
        engine = frames["compare"][row["engine"]]
        deviation, stop = row["cells"]["maxDeviation"], row["cells"]["settlingDuration"]
        if float(deviation["value"]) != engine["maxDeviation"] or not same_figure(deviation["text"], engine["maxDeviation"]):
            res.fail(f"{row['engine']}: maxDeviation shown {deviation}, the server's {engine['maxDeviation']}")
        want_stop = engine["settlingDuration"]
        if (want_stop is None and stop["value"] != "null") or (
                want_stop is not None and (float(stop["value"]) != want_stop or stop["text"] != seconds(want_stop))):
            res.fail(f"{row['engine']}: settlingDuration shown {stop}, the server's {want_stop}")
    if "compare=1" not in page.evaluate("location.hash"):
        res.fail("the shared link does not hold compare=1")
    page.evaluate("document.querySelector('figure.plot').scrollIntoView()")
    path = os.path.join(artefacts, "playground-compare.png")
    page.screenshot(path)
    page.evaluate("window.scrollTo(0, 0)")
    return res


def test_compare_bezier(server, page):
    res = exports.Result("compare/bezier")
    set_compare(page, True)
    page.evaluate(RECORD_JS)
    state = choose(page, "curve:3")
    shown = page.evaluate(MARKS_JS)
    bodies = page.evaluate("window.__segueBodies")
    if state != "ready" or not shown["problemHidden"]:
        res.fail(f"the page settled in `{state}`, problem hidden {shown['problemHidden']}")
    if not shown["compareDisabled"]:
        res.fail("the compare toggle is enabled for a Bézier")
    if not bodies or any('"compare"' in b for b in bodies):
        res.fail(f"requests sent: {bodies}")
    if not any('"analysis": true' in b for b in bodies):
        res.fail(f"no request asked for the analysis: {bodies}")
    if shown["engines"] or not shown["tableHidden"]:
        res.fail("engines drawn for a Bézier")
    if "overshoot" not in marks_of(shown) or "undershoot" not in marks_of(shown):
        res.fail(f"the Bézier's extremes are not marked: {list(marks_of(shown))}")
    set_compare(page, False)
    return res


def problem_text(page):
    return page.evaluate("(() => { const p = document.getElementById('problem');"
                         " return {hidden: p.hidden, where: p.querySelector('.where')?.textContent ?? '',"
                         " mark: p.querySelector('mark')?.textContent ?? '', text: p.textContent,"
                         " editor: document.getElementById('editor').getAttribute('aria-invalid'),"
                         " tolerance: document.getElementById('tolerance').getAttribute('aria-invalid')}; })()")


def test_bad_syntax(page):
    res = exports.Result("bad-edit/syntax")
    choose(page, "preset:bouncePresent")
    text = page.evaluate("document.getElementById('editor').value")
    broken = text.replace(",", "", 1)
    try:
        json.loads(broken)
        res.fail("the broken text still parses")
        return res
    except json.JSONDecodeError as e:
        line, column = e.lineno, e.colno
    if edit(page, broken) != "invalid":
        res.fail(f"status {status(page)} after a syntax error")
    p = problem_text(page)
    if p["hidden"] or f"line {line}, column {column}" not in p["where"] or p["editor"] != "true":
        res.fail(f"expected the fault at line {line}, column {column}; the page shows {p}")
    return res


def test_bad_value(server, page):
    res = exports.Result("bad-edit/problem")
    choose(page, "preset:bouncePresent")
    text = page.evaluate("document.getElementById('editor').value")
    bad = re.sub(r'"dampingRatio": [0-9.]+', '"dampingRatio": -1', text)
    code, _, body = server.post("/v1/render", json.loads(bad))
    pointer = json.loads(body).get("pointer")
    if code != 422 or not pointer:
        res.fail(f"the server answered {code} {body[:200]} (a 422 with a pointer was expected)")
        return res
    if edit(page, bad) != "problem":
        res.fail(f"status {status(page)} after a 422")
    p = problem_text(page)
    line = bad[:bad.index('"dampingRatio": -1')].count("\n") + 1
    if f"at {pointer}" not in p["where"] or f"line {line}," not in p["where"] or p["mark"] != "-1" or "422" not in p["text"]:
        res.fail(f"expected 422 at {pointer}, line {line}, marking `-1`; the page shows {p}")
    return res


def test_bad_tolerance(page):
    res = exports.Result("bad-edit/tolerance")
    choose(page, "preset:bouncePresent")
    state = settle(page, set_value("tolerance", "abc", "input"))
    p = problem_text(page)
    if state != "problem" or "tolerance" not in p["where"] or p["tolerance"] != "true":
        res.fail(f"status {state}; the page shows {p}")
    if settle(page, set_value("tolerance", "0.001", "input")) != "ready":
        res.fail("the page did not recover with tolerance 0.001")
    return res


def test_share(browser, page):
    res = exports.Result("share")
    choose(page, "preset:zoomPush")
    text = page.evaluate("document.getElementById('editor').value")
    edited = text.replace('"duration": 0.4', '"duration": 0.55')
    edit(page, edited)
    url = page.evaluate("location.href")
    second = browser.new_page()
    second.navigate(url)
    state = second.wait_for("Number(document.body.dataset.settled ?? 0) > 0 && document.body.dataset.status")
    restored = second.evaluate("document.getElementById('editor').value")
    if state != "ready" or restored != edited:
        res.fail(f"the shared address restored {restored[:120]!r} in state {state}")
    for source, line in second.console_problems():
        res.fail(f"the shared page's console: {source}: {line}")
    return res


def test_copy(server, page):
    res = exports.Result("copy")
    state = choose(page, "preset:crossDissolve")
    text = page.evaluate("document.getElementById('editor').value")
    css = server.fetch("/v1/render?format=css&tolerance=0.001", json.loads(text), "text/css")
    page.evaluate("document.getElementById('copy-css').click()")
    said = page.wait_for("document.getElementById('copied').textContent")
    if state != "ready" or said != f"CSS copied ({len(css)} characters).":
        res.fail(f"Copy CSS said {said!r}; the export has {len(css)} characters")
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--artefacts", default=".build/browser-artefacts")
    args = ap.parse_args()
    exports.BINARY = os.path.abspath(args.binary)
    chromium = shutil.which(args.chromium) or args.chromium
    os.makedirs(args.artefacts, exist_ok=True)
    started = time.monotonic()
    server = exports.Server().start()
    results = []
    try:
        with Browser(chromium=chromium) as browser:
            page = browser.new_page(width=1400, height=1000)
            results.append(guarded("page", lambda: test_page(server, page)))
            presets = json.loads(get(server.port, "/v1/presets")[2])["presets"]
            tests = [(f"preset/{p['name']}", lambda n=p["name"]: test_preset(server, page, n)) for p in presets]
            tests += [("curve", lambda: test_curve(server, page)),
                      ("analysis", lambda: test_analysis(server, page)),
                      ("compare/spring", lambda: test_compare_spring(server, page, args.artefacts)),
                      ("compare/bezier", lambda: test_compare_bezier(server, page))]
            for name, test in tests:
                results.append(guarded(name, test))
            # The bad edits make the server answer 4xx, which Chromium logs as failed loads: those
            # lines, and only those, are expected while they run.
            refused_from = page.mark()
            for name, test in [("bad-edit/syntax", lambda: test_bad_syntax(page)),
                               ("bad-edit/problem", lambda: test_bad_value(server, page)),
                               ("bad-edit/tolerance", lambda: test_bad_tolerance(page))]:
                results.append(guarded(name, test))
            refused_to = page.mark()
            for name, test in [("share", lambda: test_share(browser, page)), ("copy", lambda: test_copy(server, page)),
                               ("screenshot", lambda: test_screenshot(page, args.artefacts))]:
                results.append(guarded(name, test))
            console = exports.Result("console")
            for start, end, refusals_expected in [(0, refused_from, False), (refused_from, refused_to, True),
                                                  (refused_to, None, False)]:
                for source, line in page.console_problems(start, end):
                    if not (refusals_expected and source == "network" and "status of 422" in line):
                        console.fail(f"{source}: {line}")
            results.append((console, 0.0))
    finally:
        server.stop()
    passed = sum(exports.report(r, elapsed, verbose=False) for r, elapsed in results)
    failed = len(results) - passed
    print(f"playground: {passed} passed, {failed} failed ({time.monotonic() - started:.1f}s)")
    return 1 if failed else 0


def guarded(name, test):
    """Runs one test; a crash is its failure. Returns the result and the seconds it took."""
    started = time.monotonic()
    try:
        res = test()
    except Exception as e:
        res = exports.Result(name)
        res.fail(f"crashed: {e.__class__.__name__}: {e} @ " + traceback.format_exc(limit=-1).strip().splitlines()[-3].strip())
    return res, time.monotonic() - started


def test_page(server, page):
    res = exports.Result("page")
    code, headers, body = get(server.port, "/")
    html = body.decode("utf-8")
    csp = headers.get("content-security-policy", "")
    if code != 200 or not headers.get("content-type", "").startswith("text/html"):
        res.fail(f"GET / answered {code} {headers.get('content-type')}")
    if "default-src 'none'" not in csp or "unsafe" in csp or "'sha256-" not in csp:
        res.fail(f"Content-Security-Policy: {csp!r}")
    external = re.findall(r"https?://|\bsrc\s*=|@import|url\(", html)
    if external:
        res.fail(f"the page refers outside itself: {external}")
    page.navigate(f"http://{exports.HOST}:{server.port}/")
    state = page.wait_for("Number(document.body.dataset.settled ?? 0) > 0 && document.body.dataset.status")
    if state != "ready":
        res.fail(f"the first preset settled in `{state}`")
    return res


def test_screenshot(page, artefacts):
    res = exports.Result("screenshot")
    choose(page, "preset:dropDismiss")
    scrub(page, 450)
    path = os.path.join(artefacts, "playground.png")
    page.screenshot(path)
    if not os.path.exists(path) or os.path.getsize(path) < 10_000:
        res.fail(f"no screenshot at {path}")
    return res


if __name__ == "__main__":
    sys.exit(main())
