#!/usr/bin/env python3
"""Browser tests for Segue's CSS and Web Animations exports: Chromium plays them, Segue's JSON judges.

    python3 Tests/Browser/run.py --binary .build-release/release/segue [--chromium chromium]
                                 [--artefacts .build/browser-artefacts] [--only NAME]

One server (`segue serve --host 127.0.0.1 --port 0`) answers every request. For each case — curves
(`/v1/curve`) and renders (`/v1/render`) — the test fetches `format=css` and `format=waapi` (at the
default tolerance 0.001, one case at 0.01), and `format=json` with `at` set to the exact times it
will check. It writes ONE self-contained HTML page per case into the artefacts directory:

  - the CSS export in a `<style>` with one `<div data-segue="VIEW">` per view in a relative
    container (for a curve: a div whose `left` runs from 0px to 1000px with the easing);
  - the WAAPI export on other divs through `el.animate(keyframes, options)` (custom properties
    registered with `CSS.registerProperty` from the export's own `properties` list, as a page
    using the WAAPI export alone must do);
  - a script that pauses every animation (`document.getAnimations()`), sets `currentTime` to each
    check time (≥ 50 per case: a uniform grid with 0 and the end, plus seeded random times) and
    reads each property twice — through `getComputedStyle()` (strings: `123.456px`, `matrix(…)`,
    `rgba(…)`, `getPropertyValue('--glow')`) and through `computedStyleMap()` (typed numbers,
    `CSSTransformValue.toMatrix()`), writing everything as JSON into `<pre id="out">`.

`chromium --headless=new --dump-dom` runs each page; the readings are compared with Segue's JSON at
the same times, per component, against the contract's bound (docs/rules.md rule 26):
tolerance × max(1, range), range being the component's max − min over the export request's frames
(for `left`/`top` from `center` and `bounds`: the larger range of the two components they come
from; for curves the bound is `tolerance`, absolute). `opacity` and colours are compared with the
JSON value clamped to [0, 1], as CSS clamps them and the export follows the clamped value.

Allowance for what the browser rounds (added to the bound; `allowance()` below):
  - every reading: Chromium keeps computed lengths, numbers and transform parameters in single
    precision, so 1e-6 × max(1, |value|) (for the transform's a–d: × max(1, largest of |a|…|d|),
    since a rotation's float angle moves every entry by that much); ≈ 0.1 % of the bound;
  - `getComputedStyle()` strings: printed with 6 significant digits, so half a unit of the 6th
    digit on top (≤ 5e-6 relative);
  - `getComputedStyle()` `width`/`height`: the *used* value from layout, in 1/64 px layout units
    (truncated), so 1/64 px — the typed reading of the same property has no such allowance;
  - `background-color`: Chromium keeps a legacy `rgb()` colour with 8-bit channels — a keyframe
    value `rgb(241.5 55 13.5 / 0.963)` reads back as `rgba(242, 55, 14, 0.965)`, through CSS and
    WAAPI alike, and the WAAPI path interpolates between those rounded values — and CSSOM prints
    r, g, b as integers and alpha with 2–3 decimals chosen to keep the 8-bit alpha (Chromium's
    Color::SerializeAsCSSColor). So half a step for the stored keyframes plus the printing:
    1/255 for r, g, b and 1.5/255 for alpha. No Chromium API gives a colour more precisely, so
    colours are checked to 8 bits: at tolerance 0.001 (0.26 of a step) the bound itself cannot
    be observed.

Also checked: the page raised no error and logged nothing on the console (in-page handlers and the
`CONSOLE` lines of `--enable-logging=stderr`), every declaration of the CSS export parsed (the
`cssText` Chromium keeps lists it), every WAAPI keyframe kept its properties (`getKeyframes()`),
`getAnimations()` found one animation per view, and the exports' own `maxError` is within the
tolerance.

Every render case runs twice (rule 42): `NAME@layout` (`?geometry=layout`, the checks above, the
WAAPI elements positioned by the export's own `style`) and `NAME@transform` (the default geometry,
`?geometry=transform`). Each element's computed `z-index` must be its place in the JSON `stacking`
(rule 40; `render-main`'s card has `zIndex` 3, so it is not the request order).

Geometry on the compositor (rule 42) — `NAME@transform`, the preset pages, the scoped and the trigger
page. The request gets a `container` [x, y, w, h] (RENDER_CONTAINERS; presets carry theirs) and each
export is shown in container divs of the request's size and of SIZE_FACTOR (1.5) × it: `units=px`
(boxes stay put) and `units=container` (boxes scale by 1.5; the CSS container's `container-type`
and `position` come from the export's own `[data-P-container]` rule, which must open the
stylesheet), for CSS and WAAPI. Each view's element is compared, at every check time, by its BORDER
BOX as drawn — `getBoundingClientRect()` minus the container's — with the box UIKit draws from the
JSON frame at that time: centre c (frame centre, or `center`), size w × h (frame or `bounds`), the
transform [a, b, c, d, tx, ty]; drawn centre T = c + (tx, ty), drawn edges E1 = (a·w, b·w),
E2 = (c·h, d·h); the quad T ± E1/2 ± E2/2 and its axis-aligned box
left/right = Tx ∓ (|E1x| + |E2x|)/2, top/bottom = Ty ∓ (|E1y| + |E2y|)/2, minus the container's
origin, × 1.5 in the larger container under container units. The other properties (opacity,
background-color, border-radius, custom properties) are compared as above.

  The bound. Rule 42 fits what is drawn: T, E1 and E2, each component within tolerance × max(1, its
  range over the export request's frames) =: tol·sT, tol·sE1, tol·sE2 (the ranges computed here
  from the JSON frames, exactly as the export defines them). A box edge is Tx ± (|E1x| + |E2x|)/2
  and | |u| − |v| | ≤ |u − v|, so
      |left − left_UIKit| ≤ tol · (sTx + (sE1x + sE2x)/2)          (likewise right; y with the y parts)
  — tolerance × (max(1, range of the centre/translation) + (max(1, range of each drawn edge
  component))/2, summed over the two edges), × 1.5 where the drawing scales.
  Allowance (in page px, added): the element's static box is laid out in 1/64 px layout units — left
  and width each off by ≤ 1/64, so the transform origin (50 % 50 %) by ≤ 1/64 + 1/128, and the
  half-size the transform maps by ≤ 1/128, which the element's CSS matrix entries [A C; B D]
  (= [a·w/w0 …], w0 × h0 the laid-out box) stretch: 1/64 + 1/128 + (|A| + |C|)/128 for x,
  (|B| + |D|)/128 for y; plus single precision as above, 1e-6 × (1 + |edge| + |E1| + |E2|).

Stacking (rule 40) — `stacking-PRESET` for every preset of `GET /v1/presets` (their order checked
against PRESET_STACKING, UIKit's) and `stacking-render-zindex` (views with `zIndex` 2, -1 and none):
the CSS export and the WAAPI export (`?prefix=w`) in two containers, each view's element inserted in
REVERSE stacking order so that only `z-index` can draw the right one on top. Paused at mid-transition
(at a quarter for the presets of PRESET_PROBE_AT, whose leaving view is almost gone by then),
`document.elementFromPoint` at points (a 15 × 15 grid of the container, kept where every view's
edge is ≥ 4 px + the bound away; a moving and a still view covering the point first) must return
the element of the view covering the point that comes last in `stacking`.

Scoping (rule 43) — `scoped-two-exports`: slideDismiss `?prefix=a` and bouncePresent `?prefix=b` (both
with views `from` and `to`) as two stylesheets in one document, and their WAAPI exports
`?prefix=c`/`d` found by the export's `selector`: every box within the bound, every element with
exactly one animation (`getAnimations()`) named `P-<view>` (CSS `animationName`, WAAPI `options.id`),
the WAAPI view shape {selector, style, zIndex, keyframes, options} checked, hit tests as above.
`trigger-dropDismiss`: `?prefix=t&trigger=.is-presented`; before the class is set,
`document.getAnimations()` is empty and every view sits at the JSON's t = 0 (box and properties);
after it is set on an ancestor, the views animate and match the JSON at every check time, while a
copy of the views outside that ancestor has no animation and stays at t = 0 throughout.
`http/bad-parameters`: prefix `9x`, `a b`, `-x`, 65 letters; trigger `{`, `a, b`, 201 characters,
a trigger on format=waapi; units=container without a container (css, waapi); units=em;
geometry=matrix — each a 422 whose `parameter` names it; and four valid neighbours answer 200.

Design tokens (rule 39) — `tokens` (Tests/Browser/tokens.py): the CSS `POST /v1/tokens` answers for a
document with a cubicBezier transition, a UIKit spring and a response spring, as one stylesheet; one
element per motion token with `transition: transform var(--<token>)`, each transition paused at
≥ 100 times over its duration, its translateX / 1000 compared with progress computed from the document by
the published models (a Bézier solver, UIKit's and SwiftUI's spring formulas), within the tolerance
+ 1e-6; and the CSSOM of the `:root` and `@supports not (animation-timing-function: linear(0, 1))`
blocks. Kept as tokens.png.

One line per test (case × export: `page` for the page checks, `css`, `waapi`, or per container
group), with the worst reading as a fraction of bound + allowance for the typed, the string and
the box readings (and `hit` for the hit tests), then `N passed, M failed`; exit status 1 when a
test failed. Screenshots (SCREENSHOT_CASES): render-main@layout, the two scoped exports side by side
mid-transition, dropDismiss's stacking and the tokens page, as PNGs in the artefacts directory.
Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import math
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

HOST = "127.0.0.1"
BINARY = None
CHROMIUM = "chromium"
ARTEFACTS = ".build/browser-artefacts"
CURVE_SCALE = 1000.0   # a curve's progress is read as `left` in px over 0 … 1000
GRID = 61              # uniform check times per case, 0 and the end included
RANDOM_TIMES = 30      # plus this many seeded random times

# --------------------------------------------------------------------------------------------
# The cases


CURVES = [
    ("curve-spring-mass", {"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 10}}, 0.001),
    ("curve-spring-uikit", {"timing": {"type": "spring", "dampingRatio": 0.6}, "duration": 0.6}, 0.001),
    ("curve-spring-uikit-tol0.01", {"timing": {"type": "spring", "dampingRatio": 0.6}, "duration": 0.6}, 0.01),
    ("curve-cubic-bezier", {"timing": "cubic-bezier(0.3, -0.4, 0.6, 1.5)", "duration": 0.8}, 0.001),
    ("curve-steps", {"timing": "steps(4, jump-both)", "duration": 0.5}, 0.001),
]

RENDER_MAIN = {
    "fps": 30,
    "views": {
        "card": {"frame": [20, 30, 100, 80], "alpha": 1, "zIndex": 3,
                 "transform": {"translation": [0, 0], "scale": [1, 1], "rotation": 0},
                 "backgroundColor": [1, 0.2, 0, 1]},
        "light": {"glow": 0, "tint": [0, 1, 10]},
    },
    "animations": [
        {"id": "move", "view": "card", "duration": 0.8, "timing": {"type": "spring", "dampingRatio": 0.5},
         "to": {"frame": [220, 150, 160, 120]}},
        {"id": "fade", "view": "card", "duration": 0.6, "delay": 0.1, "timing": "easeInOut", "to": {"alpha": 0.25}},
        {"id": "turn", "view": "card", "duration": 1.0, "timing": "cubic-bezier(0.3, -0.4, 0.6, 1.5)",
         "to": {"transform": {"rotation": 3, "scale": [1.5, 0.75]}}},
        {"id": "paint", "view": "card", "duration": 0.9, "timing": "linear",
         "to": {"backgroundColor": [0, 0.5, 1, 0.3]}},
        {"id": "glow", "view": "light", "duration": 1.0, "timing": "easeOut", "to": {"glow": 5}},
        {"id": "tint", "view": "light", "timing": {"type": "spring", "stiffness": 200, "damping": 12},
         "to": {"tint": [1, -2, 300]}},
    ],
}

RENDER_CENTER = {
    "fps": 30,
    "views": {"pane": {"center": [160, 300], "bounds": [0, 0, 200, 100], "cornerRadius": 4}},
    "animations": [
        {"id": "slide", "view": "pane", "duration": 0.7, "timing": {"type": "spring", "dampingRatio": 0.7},
         "to": {"center": [260, 120]}},
        {"id": "grow", "view": "pane", "duration": 0.5, "delay": 0.2, "timing": "easeIn",
         "to": {"bounds": [0, 0, 120, 180], "cornerRadius": 20}},
    ],
}

RENDER_KEYFRAMES = {
    "fps": 30,
    "views": {"dot": {"frame": [0, 0, 40, 40], "phase": 0}},
    "animations": [
        {"id": "path", "view": "dot", "duration": 1.2, "timing": "linear", "channel": "frame",
         "values": [[0, 0, 40, 40], [200, 40, 60, 60], [120, 200, 40, 40], [300, 260, 80, 50]],
         "calculationMode": "cubic"},
        {"id": "spin", "view": "dot", "duration": 1, "timing": "easeInOut", "to": {"phase": 10}},
    ],
    "commands": [
        {"at": 0.3, "animation": "path", "op": "pause"},
        {"at": 0.5, "animation": "path", "op": "start"},
        {"at": 0.8, "animation": "path", "op": "reverse"},
        {"at": 0.6, "animation": "spin", "op": "reverse"},
    ],
}

RENDERS = [
    ("render-main", RENDER_MAIN, 0.001),
    ("render-main-tol0.01", RENDER_MAIN, 0.01),
    ("render-center-bounds", RENDER_CENTER, 0.001),
    ("render-keyframes-commands", RENDER_KEYFRAMES, 0.001),
]

# Cases whose page is also kept as a PNG (window size): the layout page of the main render, the two
# scoped exports side by side (their stacking visible mid-transition) and dropDismiss's stacking.
SCREENSHOT_CASES = {"render-main@layout": (800, 600), "scoped-two-exports": (1000, 400),
                    "stacking-dropDismiss": (560, 430), "tokens": (1100, 260)}

# --------------------------------------------------------------------------------------------
# The server under test: the system tests' (Tests/System/run.py: `segue serve --port 0`, the bound
# port read from the "listening on" line or the JSON log record), with the POST helpers used here.


def _system_tests():
    """Tests/System/run.py as a module (its name, `run`, is this file's too)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "System", "run.py")
    spec = importlib.util.spec_from_file_location("segue_system_tests", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_system = _system_tests()


class Server(_system.Server):
    def start(self):
        _system.BINARY = BINARY
        return super().start()

    def get(self, path):
        conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            return r.status, r.read().decode("utf-8")
        finally:
            conn.close()

    def post(self, path, body):
        """POST a JSON body; returns (status, content type, text)."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        try:
            conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            return r.status, (r.getheader("Content-Type") or "").split(";")[0].strip(), r.read().decode("utf-8")
        finally:
            conn.close()

    def fetch(self, path, body, want_type):
        status, ctype, text = self.post(path, body)
        if status != 200 or ctype != want_type:
            raise TestFailure(f"POST {path} -> {status} {ctype}: {text[:300]} (body {json.dumps(body)[:300]})")
        return text


class TestFailure(Exception):
    pass


# --------------------------------------------------------------------------------------------
# Check times


def check_times(end: float, seed: str) -> list[float]:
    """A uniform grid over [0, end] (0 and end included) plus seeded random times, sorted."""
    rnd = random.Random(seed)
    ts = {end * k / (GRID - 1) for k in range(GRID)} | {0.0, end}
    ts |= {rnd.uniform(0, end) for _ in range(RANDOM_TIMES)}
    return sorted(ts)


# --------------------------------------------------------------------------------------------
# Expected values: what each browser reading should show, from Segue's JSON


class Prop:
    """One CSS property of one view: the names, how to read it and, per check-time index, Segue's
    components with their bounds."""

    def __init__(self, css, kind, expected, scales, clamp=False):
        self.css = css            # CSS name (`left`, `--glow`, `background-color`)
        self.kind = kind          # length | number | transform | color
        self.expected = expected  # index -> [components]
        self.scales = scales      # per component: max(1, range)
        self.clamp = clamp


def value_range(values):
    return max(1.0, max(values) - min(values)) if values else 1.0


def render_props(view: str, frames_json: dict, at_json: dict) -> list[Prop]:
    """The rule 28 mapping of a view's channels (as RenderExport.properties), with Segue's values
    at the check times (`at_json`) and the ranges over the export request's frames (`frames_json`)."""
    fr = frames_json["views"][view]
    at = at_json["views"][view]

    def comp(channel, k):
        return lambda i: at[channel][i][k] if isinstance(at[channel][i], list) else at[channel][i]

    def rng(channel, k):
        return value_range([(v[k] if isinstance(v, list) else v) for v in fr[channel]])

    out: list[Prop] = []
    if "frame" in at:
        for k, name in enumerate(["left", "top", "width", "height"]):
            out.append(Prop(name, "length", (lambda f: lambda i: [f(i)])(comp("frame", k)), [rng("frame", k)]))
    else:
        if "center" in at and "bounds" in at:
            for k, name in enumerate(["left", "top"]):
                def corner(i, k=k):
                    return [at["center"][i][k] - at["bounds"][i][k + 2] / 2]
                out.append(Prop(name, "length", corner, [max(rng("center", k), rng("bounds", k + 2))]))
        elif "center" in at:
            for k, name in enumerate(["left", "top"]):
                out.append(Prop(name, "length", (lambda f: lambda i: [f(i)])(comp("center", k)), [rng("center", k)]))
        if "bounds" in at:
            for k, name in ((2, "width"), (3, "height")):
                out.append(Prop(name, "length", (lambda f: lambda i: [f(i)])(comp("bounds", k)), [rng("bounds", k)]))
    for channel in at:
        if channel in ("frame", "center", "bounds"):
            continue
        if channel == "alpha":
            out.append(Prop("opacity", "number", lambda i: [at["alpha"][i]], [rng("alpha", 0)], clamp=True))
        elif channel == "transform":
            out.append(Prop("transform", "transform", lambda i: list(at["transform"][i]),
                            [rng("transform", k) for k in range(6)]))
        elif channel == "backgroundColor":
            out.append(Prop("background-color", "color", lambda i: list(at["backgroundColor"][i]),
                            [rng("backgroundColor", k) for k in range(4)], clamp=True))
        elif channel == "cornerRadius":
            out.append(Prop("border-top-left-radius", "length", lambda i: [at["cornerRadius"][i]],
                            [rng("cornerRadius", 0)]))
        elif isinstance(at[channel][0], list):
            for k in range(len(at[channel][0])):
                out.append(Prop(f"--{channel}-{k}", "number", (lambda f: lambda i: [f(i)])(comp(channel, k)),
                                [rng(channel, k)]))
        else:
            out.append(Prop(f"--{channel}", "number", (lambda f: lambda i: [f(i)])(comp(channel, 0)),
                            [rng(channel, 0)]))
    return out


# --------------------------------------------------------------------------------------------
# Parsing the browser's strings


NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def parse_string(kind, s: str):
    """getComputedStyle() text -> components, or None when it does not parse."""
    s = (s or "").strip()
    if kind in ("length", "number"):
        m = re.fullmatch(rf"({NUM})(px)?(?:\s+{NUM}(?:px)?)?", s)  # `4px` or `4px 4px` (a radius)
        return [float(m.group(1))] if m else None
    if kind == "transform":
        if s == "none":
            return [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
        m = re.fullmatch(r"matrix\(([^)]*)\)", s)
        if not m:
            return None
        parts = [p.strip() for p in m.group(1).split(",")]
        return [float(p) for p in parts] if len(parts) == 6 else None
    if kind == "color":
        m = re.fullmatch(r"rgba?\(([^)]*)\)", s)
        if not m:
            return None
        parts = [p.strip() for p in m.group(1).replace("/", ",").split(",")]
        if len(parts) not in (3, 4):
            return None
        rgb = [float(p) / 255 for p in parts[:3]]
        return rgb + [float(parts[3]) if len(parts) == 4 else 1.0]
    return None


def sig6(v: float) -> float:
    """Half a unit of the 6th significant digit of |v| (Chromium prints numbers so)."""
    if v == 0:
        return 0.0
    return 0.5 * 10 ** (math.floor(math.log10(abs(v))) - 5)


def allowance(prop: Prop, k: int, source: str, segue: list[float], browser: list[float]) -> float:
    """What the browser's storage and printing may add to an exact value (see the module doc)."""
    v = max(abs(segue[k]), abs(browser[k]))
    if prop.kind == "transform" and k < 4:
        mag = max(1.0, *(abs(x) for x in segue[:4]))
    else:
        mag = max(1.0, v)
    a = 1e-6 * mag
    if source == "string":
        if prop.kind == "color":
            # 8-bit storage of the keyframe values (half a step) + 8-bit printing (half a step
            # for r, g, b; up to a whole step for alpha).
            return a + (1.5 / 255 if k == 3 else 1 / 255)
        if prop.css in ("width", "height"):
            return a + 1 / 64
        a += sig6(v)
    return a


# --------------------------------------------------------------------------------------------
# Pages


# A property's typed reading: computedStyleMap() as numbers (a transform as its 2-D matrix).
TYPED_READING_JS = r"""
function typed(el, name, kind) {
  let v;
  try { v = el.computedStyleMap().get(name); } catch (e) { return 'error: ' + e; }
  if (v === null || v === undefined) return null;
  if (kind === 'transform') {
    if (v instanceof CSSKeywordValue) return v.value === 'none' ? [1, 0, 0, 1, 0, 0] : null;
    if (!(v instanceof CSSTransformValue)) return null;
    const m = v.toMatrix();
    return [m.a, m.b, m.c, m.d, m.e, m.f];
  }
  if (v instanceof CSSUnitValue) return [v.value];
  return null;
}
"""

PAGE_SCRIPT = TYPED_READING_JS + r"""
const SPEC = JSON.parse(document.getElementById('spec').textContent);
const out = {errors: [], console: [], readings: {}, animations: 0, cssRules: [], waapiKeyframes: {}, times: [],
             info: {}, containers: {}, probes: [], before: null, viewport: [innerWidth, innerHeight]};
window.addEventListener('error', e => out.errors.push(String(e.message) + ' @' + e.lineno));
window.addEventListener('unhandledrejection', e => out.errors.push('unhandled rejection: ' + String(e.reason)));
for (const level of ['error', 'warn', 'log', 'info']) {
  const original = console[level].bind(console);
  console[level] = (...args) => { out.console.push(level + ': ' + args.map(String).join(' ')); original(...args); };
}
// A target's element: by id, or by selector (within a container, as a page holding several exports finds it).
function element(t) {
  if (t.element) return document.getElementById(t.element);
  const root = t.within ? document.getElementById(t.within) : document;
  return root ? root.querySelector(t.selector) : null;
}
// One reading of a target: its properties (string and typed) and, when asked, its border box as
// drawn — getBoundingClientRect() relative to its container's — [left, top, right, bottom].
function readRow(target, el) {
  const cs = getComputedStyle(el);
  const row = {};
  for (const p of target.props) row[p.css] = {string: cs.getPropertyValue(p.css), typed: typed(el, p.css, p.kind)};
  if (target.box) {
    const c = document.getElementById(target.box).getBoundingClientRect();
    const r = el.getBoundingClientRect();
    row.box = [r.left - c.left, r.top - c.top, r.right - c.left, r.bottom - c.top];
  }
  return row;
}
function run() {
  // The WAAPI half: custom properties registered as the CSS export's @property rules register them.
  for (const property of SPEC.register) {
    try { CSS.registerProperty(property); }
    catch (e) { out.errors.push('registerProperty ' + property.name + ': ' + e); }
  }
  // A trigger export: read everything before the trigger's class is set, then set it.
  if (SPEC.trigger) {
    const before = {animations: document.getAnimations().length, rows: {}};
    for (const target of SPEC.targets) {
      const el = element(target);
      if (el) before.rows[target.id] = readRow(target, el);
    }
    out.before = before;
    document.getElementById(SPEC.trigger.element).classList.add(SPEC.trigger.className);
  }
  for (const w of SPEC.waapi) {
    const el = element(w);
    if (!el) { out.errors.push('no element for the WAAPI view ' + (w.key || w.element)); continue; }
    if (w.style) Object.assign(el.style, w.style);
    const anim = el.animate(w.keyframes, w.options);
    out.waapiKeyframes[w.key || w.element] = anim.effect.getKeyframes().map(k => Object.keys(k).filter(
      x => !['offset', 'computedOffset', 'easing', 'composite'].includes(x)).sort());
  }
  for (const sheet of document.styleSheets) {
    if (!sheet.ownerNode || !sheet.ownerNode.id.startsWith('export')) continue;
    for (const rule of sheet.cssRules) {
      if (rule instanceof CSSKeyframesRule) {
        out.cssRules.push({type: 'keyframes', name: rule.name, keyframes: [...rule.cssRules].map(k => k.cssText)});
      } else if (rule instanceof CSSPropertyRule) {
        out.cssRules.push({type: 'property', name: rule.name, initial: rule.initialValue});
      } else if (rule instanceof CSSStyleRule) {
        out.cssRules.push({type: 'style', selector: rule.selectorText, text: rule.cssText});
      } else {
        out.cssRules.push({type: 'other', text: rule.cssText});
      }
    }
  }
  const anims = document.getAnimations();
  out.animations = anims.length;
  for (const target of SPEC.targets) {
    const el = element(target);
    out.info[target.id] = el ? {zIndex: getComputedStyle(el).zIndex,
                                animations: el.getAnimations().map(a => a.animationName || a.id || '?')} : null;
  }
  for (const id of SPEC.containers || []) {
    const cs = getComputedStyle(document.getElementById(id));
    out.containers[id] = {containerType: cs.containerType, position: cs.position};
  }
  for (const a of anims) a.pause();
  for (const target of SPEC.targets) out.readings[target.id] = [];
  for (const ms of SPEC.times) {
    for (const a of anims) a.currentTime = ms;
    out.times.push(anims.length ? anims.map(a => a.currentTime) : []);
    for (const target of SPEC.targets) {
      const el = element(target);
      out.readings[target.id].push(el ? readRow(target, el) : null);
    }
  }
  // Hit tests: which element is drawn on top at a point of a container, at a paused time.
  for (const probe of SPEC.probes || []) {
    for (const a of anims) a.currentTime = probe.time;
    const c = document.getElementById(probe.container).getBoundingClientRect();
    const el = document.elementFromPoint(c.left + probe.x, c.top + probe.y);
    out.probes.push(el ? (el.dataset.probe || el.id || el.tagName) : null);
  }
  // The state the screenshot shows.
  for (const a of anims) a.currentTime = SPEC.pictureTime;
}
try { run(); } catch (e) { out.errors.push('page script: ' + e + ' ' + (e.stack || '')); }
document.getElementById('out').textContent = JSON.stringify(out);
"""

PAGE_STYLE = """
body { margin: 0; font: 11px sans-serif; background: #fafafa; }
h1 { font-size: 13px; margin: 4px 8px; }
.stage { position: absolute; top: 24px; width: 780px; height: 1100px; transform: scale(0.5); transform-origin: 0 0;
         border: 1px dashed #bbb; }
.stage > .label { position: absolute; left: 4px; bottom: 4px; font-size: 20px; color: #666; }
.v { outline: 2px solid rgba(0, 0, 0, 0.6); width: 60px; height: 24px; font-size: 16px;
     box-shadow: 0 0 calc(var(--glow, 0) * 6px) orange; }
"""


def html_page(title, export_css, body_html, spec, heading=" — left: format=css, right: format=waapi") -> str:
    """The page: `export_css` one stylesheet's text or a list of them (each its own `<style>`)."""
    def esc(s):
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    sheets = [export_css] if isinstance(export_css, str) else list(export_css)
    styles = "".join(f"<style id=\"export{'' if n == 0 else '-' + str(n)}\">\n" + css.replace("</", "<\\/") + "</style>\n"
                     for n, css in enumerate(sheets))
    spec_json = json.dumps(spec).replace("</", "<\\/")
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title>\n"
            "<style>" + PAGE_STYLE + PAGE_STYLE_SCENES + "</style>\n" + styles +
            "</head><body>\n<h1>" + esc(title) + esc(heading) + "</h1>\n"
            + body_html +
            "\n<script type=\"application/json\" id=\"spec\">" + spec_json + "</script>\n"
            "<pre id=\"out\" hidden></pre>\n<script>" + PAGE_SCRIPT + "</script>\n</body></html>\n")


def stages(css_views: list[tuple[str, str]], waapi_views: list[tuple[str, str]]) -> str:
    """Two half-size stages side by side; each view a div (attributes given by the caller)."""
    def stage(left, label, views):
        divs = "\n".join(f"  <div class=\"v\" {attrs}>{label_text}</div>" for attrs, label_text in views)
        return (f"<div class=\"stage\" style=\"left: {left}px\"><span class=\"label\">{label}</span>\n"
                + divs + "\n</div>")
    return stage(8, "CSS", css_views) + "\n" + stage(408, "WAAPI", waapi_views)


# --------------------------------------------------------------------------------------------
# Running Chromium


def run_chromium(page_path, screenshot=None, window=(800, 600)):
    """--dump-dom of the page (or a screenshot). Returns (dom, the page's console lines, exit status).
    The window matters for `elementFromPoint` (viewport points only) and for the screenshot."""
    profile = tempfile.mkdtemp(prefix="segue-chromium-")
    try:
        args = [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0"]
        args += [f"--window-size={window[0]},{window[1]}"]
        if screenshot:
            args += [f"--screenshot={screenshot}"]
        else:
            args += ["--dump-dom"]
        url = pathlib.Path(os.path.abspath(page_path)).as_uri()
        p = subprocess.run(args + [url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=90)
        err = p.stderr.decode("utf-8", "replace")
        console = [line for line in err.splitlines()
                   if "CONSOLE" in line and url in line or "Uncaught" in line]
        return p.stdout.decode("utf-8", "replace"), console, p.returncode
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def page_output(dom: str, page_path: str):
    """The page's JSON from the dumped DOM, also kept beside the page as <case>.readings.json."""
    m = re.search(r'<pre id="out"[^>]*>(.*?)</pre>', dom, re.S)
    if not m:
        raise TestFailure("no <pre id=\"out\"> in the dumped DOM: " + dom[:300].replace("\n", " "))
    text = m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    if not text.strip():
        raise TestFailure("the page wrote no readings")
    with open(os.path.splitext(page_path)[0] + ".readings.json", "w") as f:
        f.write(text)
    return json.loads(text)


def run_page(name, title, export_css, body_html, spec, window=(800, 600), **kw):
    """Writes the case's page into the artefacts, runs it in Chromium; returns (readings, console
    lines, the page's path)."""
    page = os.path.join(ARTEFACTS, f"{name}.html")
    with open(page, "w") as f:
        f.write(html_page(title, export_css, body_html, spec, **kw))
    dom, console, _ = run_chromium(page, window=window)
    return page_output(dom, page), console, page


# --------------------------------------------------------------------------------------------
# Comparison


class Result:
    def __init__(self, name):
        self.name = name
        self.failures: list[str] = []
        self.count = 0
        # per reading (typed, string, box): (worst error / (bound + allowance), where)
        self.worst: dict[str, tuple[float, str]] = {}

    def fail(self, msg):
        self.failures.append(msg)

    def note(self, source, ratio, where):
        self.count += 1
        if source not in self.worst or ratio > self.worst[source][0]:
            self.worst[source] = (ratio, where)


def fmt(x):
    return f"{x:.9g}"


def compare(res: Result, case, prop: Prop, t, reading, segue, scale_tol, bound_override=None, label=None):
    """One property at one time, from both readings (typed and string)."""
    what = label or prop.css
    for source in ("typed", "string"):
        raw = reading.get(source)
        if source == "typed":
            if raw is None:
                if prop.kind != "color" and prop.css != "border-top-left-radius":
                    res.fail(f"{case}: {what} at t={t!r}s: computedStyleMap() gave no typed value")
                continue
            if isinstance(raw, str):
                res.fail(f"{case}: {what} at t={t!r}s: computedStyleMap(): {raw}")
                continue
            got = [float(x) for x in raw]
        else:
            got = parse_string(prop.kind, raw)
            if got is None:
                res.fail(f"{case}: {what} at t={t!r}s: getComputedStyle() gave {raw!r}, which does not parse")
                continue
        if len(got) != len(segue):
            res.fail(f"{case}: {what} at t={t!r}s: {len(got)} components from {source}, Segue has {len(segue)}")
            continue
        if prop.kind == "color":
            # Colours are compared as drawn: premultiplied by alpha (docs/exports.md "Colours").
            got, segue = premultiplied(got), premultiplied(segue)
        for k, (b, s) in enumerate(zip(got, segue)):
            bound = bound_override if bound_override is not None else scale_tol * prop.scales[k]
            allow = allowance(prop, k, source, segue, got)
            err = abs(b - s)
            ratio = err / (bound + allow) if bound + allow > 0 else (0.0 if err == 0 else math.inf)
            comp_name = what + (f"[{k}]" if len(segue) > 1 else "")
            res.note(source, ratio, f"{comp_name} t={t:.6g}s")
            if not err <= bound + allow:
                res.fail(f"{case}: {comp_name} at t={t!r}s ({source} {raw!r}): browser {fmt(b)}, Segue {fmt(s)}, "
                         f"|diff| {err:.3g} > bound {bound:.3g} (+ allowance {allow:.2g})")


def clamp01(v):
    return min(max(v, 0.0), 1.0)


def premultiplied(rgba):
    """[r·a, g·a, b·a, a], components clamped to [0, 1] as CSS clamps them."""
    a = clamp01(rgba[3])
    return [clamp01(c) * a for c in rgba[:3]] + [a]


def common_checks(res: Result, case, out, console, expected_animations, css_text=None, waapi_views=None):
    for e in out.get("errors", []):
        res.fail(f"{case}: page error: {e}")
    for c in out.get("console", []):
        res.fail(f"{case}: page console: {c}")
    for c in console:
        res.fail(f"{case}: Chromium console line from the page: {c.strip()[:300]}")
    if out.get("animations") != expected_animations:
        res.fail(f"{case}: document.getAnimations() found {out.get('animations')} animations, expected {expected_animations}")
    if css_text is not None:
        check_css_parsed(res, case, css_text, out.get("cssRules", []))
    if waapi_views is not None:
        for element, keyframes in waapi_views.items():
            kept = out.get("waapiKeyframes", {}).get(element)
            want = [sorted(k for k in kf if k not in ("offset", "easing", "composite")) for kf in keyframes]
            if kept != want:
                diff = next((i for i, (a, b) in enumerate(zip(kept or [], want)) if a != b), None)
                res.fail(f"{case}: WAAPI keyframes of {element} lost properties: getKeyframes() "
                         f"#{diff}: {kept[diff] if kept and diff is not None else kept} vs export "
                         f"{want[diff] if diff is not None else len(want)}")


def check_css_parsed(res: Result, case, css_text, rules):
    """Every @keyframes block and declaration of the export survived Chromium's parser."""
    text = re.sub(r"/\*.*?\*/", "", css_text, flags=re.S)
    props = re.findall(r"@property\s+(--[\w-]+)", text)
    got_props = [r["name"] for r in rules if r["type"] == "property"]
    if sorted(props) != sorted(got_props):
        res.fail(f"{case}: @property rules {props} in the export, Chromium kept {got_props}")
    for m in re.finditer(r"@keyframes\s+([\w-]+)\s*\{(.*?)\n\}", text, re.S):
        name, body = m.group(1), m.group(2)
        blocks = re.findall(r"([\d.]+%)\s*\{([^}]*)\}", body)
        parsed = next((r for r in rules if r["type"] == "keyframes" and r["name"] == name), None)
        if parsed is None:
            res.fail(f"{case}: @keyframes {name} missing after parsing")
            continue
        if len(parsed["keyframes"]) != len(blocks):
            res.fail(f"{case}: @keyframes {name}: {len(blocks)} blocks in the export, Chromium kept {len(parsed['keyframes'])}")
            continue
        for (sel, decls), kept in zip(blocks, parsed["keyframes"]):
            names = [d.split(":")[0].strip() for d in decls.split(";") if d.strip()]
            for n in names:
                if not re.search(r"(^|[{;\s])" + re.escape(n) + r"\s*:", kept):
                    res.fail(f"{case}: @keyframes {name} {sel}: Chromium dropped `{n}` ({kept[:200]})")
    # Every rule outside @keyframes (a view's rule, the trigger's rule, the container rule) kept with
    # its selector and every declaration.
    kept_rules = [r for r in rules if r["type"] == "style"]
    depth = 0
    for line in text.splitlines():
        if depth == 0 and not line.startswith("@"):
            m = re.fullmatch(r"(\S[^{]*?)\s*\{(.*)\}\s*", line)
            if m:
                selector = re.sub(r"\s+", " ", m.group(1)).strip()
                kept = [r for r in kept_rules if re.sub(r"\s+", " ", r["selector"]).strip() == selector]
                if not kept:
                    res.fail(f"{case}: the rule `{line[:120]}` did not survive parsing (kept: "
                             f"{[r['selector'] for r in kept_rules][:8]})")
                else:
                    for d in m.group(2).split(";"):
                        n = d.split(":")[0].strip()
                        if n and not any(re.search(r"(^|[{;\s])" + re.escape(n) + r"\s*:", r["text"]) for r in kept):
                            res.fail(f"{case}: rule `{selector}`: Chromium dropped `{n}` ({kept[0]['text'][:200]})")
        depth += line.count("{") - line.count("}")


# --------------------------------------------------------------------------------------------
# Curve cases


def curve_case(server: Server, name, body, tol, results: list[Result]):
    q = f"&tolerance={tol}" if tol != 0.001 else ""
    base = server.fetch("/v1/curve?format=json", dict(body, samples=3), "application/json")
    duration = json.loads(base)["duration"]
    times = check_times(duration, name)
    at_json = json.loads(server.fetch("/v1/curve?format=json", dict(body, at=times), "application/json"))
    if len(at_json["progress"]) != len(times):
        raise TestFailure(f"{name}: JSON answered {len(at_json['progress'])} progress values for {len(times)} times")
    css_text = server.fetch("/v1/curve?format=css" + q, body, "text/css")
    waapi = json.loads(server.fetch("/v1/curve?format=waapi" + q, body, "application/json"))
    # The export verbatim (its comments and the easing on its own line) as the value of
    # `animation-timing-function`: comments are allowed inside a declaration.
    style = ("@keyframes segue-progress { from { left: 0px; } to { left: %gpx; } }\n"
             "#css-curve { position: absolute; animation: segue-progress %rs linear both;\n"
             "  animation-timing-function:\n%s; }\n" % (CURVE_SCALE, duration, css_text.strip()))
    prog = [{"css": "left", "kind": "length"}]
    targets = [{"id": "css", "selector": "#css-curve", "props": prog},
               {"id": "waapi", "selector": "#waapi-curve", "props": prog}]
    frames = [{"left": "0px"}, {"left": f"{CURVE_SCALE:g}px"}]
    waapi_specs = [{"element": "waapi-curve", "keyframes": frames,
                    "options": {"duration": waapi["duration"], "easing": waapi["easing"], "fill": "both"}}]
    css_divs = [("id=\"css-curve\" style=\"top: 40px\"", "progress")]
    waapi_divs = [("id=\"waapi-curve\" style=\"position: absolute; top: 40px\"", "progress")]
    if waapi.get("fallback"):
        targets.append({"id": "fallback", "selector": "#waapi-fallback", "props": prog})
        waapi_specs.append({"element": "waapi-fallback", "keyframes": frames,
                            "options": {"duration": waapi["duration"], "easing": waapi["fallback"]["easing"],
                                        "fill": "both"}})
        waapi_divs.append(("id=\"waapi-fallback\" style=\"position: absolute; top: 100px\"", "fallback"))
    spec = {"times": [t * 1000 for t in times], "targets": targets, "waapi": waapi_specs, "register": [],
            "pictureTime": duration * 1000 * 0.4}
    out, console, page = run_page(name, f"{name}: {json.dumps(body)} tolerance {tol}", style, stages(css_divs, waapi_divs), spec)

    res_common = Result(f"{name}/page")
    common_checks(res_common, name, out, console, len(waapi_specs) + 1,
                  waapi_views={w["element"]: w["keyframes"] for w in waapi_specs})
    check_times_read(res_common, name, out, spec["times"])
    results.append(res_common)

    prop = Prop("left", "length", None, [1.0])
    for target, label in (("css", "css"), ("waapi", "waapi"), ("fallback", "waapi fallback")):
        if target not in out["readings"]:
            continue
        res = Result(f"{name}/{label}")
        bound = None
        if target == "fallback":
            stated = waapi["fallback"]["maxError"]
            bound = stated  # the fallback is judged by the error it states, not by the tolerance
        elif waapi["maxError"] > tol:
            res.fail(f"{name}: the export states maxError {waapi['maxError']} > tolerance {tol}")
        for i, t in enumerate(times):
            r = out["readings"][target][i]["left"]
            reading = {"typed": [x / CURVE_SCALE for x in r["typed"]] if isinstance(r["typed"], list) else r["typed"],
                       "string": r["string"]}
            got = parse_string("length", reading["string"])
            if got is not None:
                reading["string"] = repr(got[0] / CURVE_SCALE)
            compare(res, name, prop, t, reading, [at_json["progress"][i]], tol, bound_override=bound,
                    label=f"{label} progress (left / {CURVE_SCALE:g})")
        results.append(res)
    return page


def check_times_read(res: Result, case, out, times_ms):
    for i, (want, got) in enumerate(zip(times_ms, out.get("times", []))):
        if any(abs(g - want) > 1e-9 * max(1, want) for g in got):
            res.fail(f"{case}: currentTime read back {got[:3]} for {want} ms")
            break
    if len(out.get("times", [])) != len(times_ms):
        res.fail(f"{case}: the page checked {len(out.get('times', []))} times of {len(times_ms)}")


# --------------------------------------------------------------------------------------------
# Render cases


def render_case(server: Server, name, body, tol, results: list[Result]):
    """`geometry=layout` (rule 28's mapping, rule 42's `layout`): every property compared with Segue's
    JSON, and each element's `z-index` with its place in `stacking` (rule 40)."""
    name = f"{name}@layout"
    q = (f"&tolerance={tol}" if tol != 0.001 else "") + "&geometry=layout"
    frames_json = json.loads(server.fetch("/v1/render?format=json", body, "application/json"))
    end = frames_json["duration"]
    times = check_times(end, name)
    at_body = {k: v for k, v in body.items() if k != "fps"}
    at_body["at"] = times
    at_json = json.loads(server.fetch("/v1/render?format=json", at_body, "application/json"))
    if len(at_json["t"]) != len(times):
        raise TestFailure(f"{name}: JSON answered {len(at_json['t'])} frames for {len(times)} times")
    if at_json["duration"] != end:
        raise TestFailure(f"{name}: the `at` request's duration {at_json['duration']} differs from {end}")
    css_text = server.fetch("/v1/render?format=css" + q, body, "text/css")
    waapi = json.loads(server.fetch("/v1/render?format=waapi" + q, body, "application/json"))
    if abs(waapi["duration"] - end * 1000) > 1e-9 * end * 1000:
        raise TestFailure(f"{name}: WAAPI duration {waapi['duration']} ms, JSON end {end} s")

    views = list(at_json["views"])
    props = {v: render_props(v, frames_json, at_json) for v in views}
    targets, waapi_specs, css_divs, waapi_divs, register = [], [], [], [], set()
    for n, v in enumerate(views):
        spec_props = [{"css": p.css, "kind": p.kind} for p in props[v]]
        targets.append({"id": f"css:{v}", "selector": f"[data-segue={json.dumps(v)}]", "props": spec_props})
        targets.append({"id": f"waapi:{v}", "selector": f"#waapi-{n}", "props": spec_props})
        css_divs.append((f"data-segue=\"{v}\"", v))
        # Positioned by the export's own `style` (applied by the page script), as a page using the
        # WAAPI export alone does.
        waapi_divs.append((f"id=\"waapi-{n}\"", v))
        w = waapi["views"][v]
        waapi_specs.append({"element": f"waapi-{n}", "keyframes": w["keyframes"], "options": w["options"],
                            "style": w["style"]})
        for kf in w["keyframes"]:
            register |= {k for k in kf if k.startswith("--")}
    # The export lists what to register; every custom property it animates must be in that list.
    listed = {p["name"] for p in waapi["properties"]}
    if register - listed:
        raise TestFailure(f"{name}: WAAPI `properties` lacks {sorted(register - listed)}")
    spec = {"times": [t * 1000 for t in times], "targets": targets, "waapi": waapi_specs,
            "register": waapi["properties"], "pictureTime": end * 1000 * 0.3}
    out, console, page = run_page(name, f"{name}: tolerance {tol}", css_text, stages(css_divs, waapi_divs), spec)

    res_common = Result(f"{name}/page")
    common_checks(res_common, name, out, console, 2 * len(views), css_text=css_text,
                  waapi_views={w["element"]: w["keyframes"] for w in waapi_specs})
    check_stacking_json(res_common, name, body, at_json)
    for v in views:
        layer = at_json["stacking"].index(v)
        check_waapi_view(res_common, name, waapi["views"][v], v, "segue", layer, placed=False)
        for kind in ("css", "waapi"):
            info = out.get("info", {}).get(f"{kind}:{v}")
            if not info or info["zIndex"] != str(layer):
                res_common.fail(f"{name}: {kind} {v}: computed z-index {info and info['zIndex']!r}, its place in "
                                f"stacking {at_json['stacking']} is {layer}")
    check_times_read(res_common, name, out, spec["times"])
    if waapi["maxError"] > tol:
        res_common.fail(f"{name}: the WAAPI export states maxError {waapi['maxError']} > tolerance {tol}")
    m = re.search(r"max error (\S+) with", css_text)
    if m and float(m.group(1)) > tol:
        res_common.fail(f"{name}: the CSS comment states max error {m.group(1)} > tolerance {tol}")
    results.append(res_common)

    for kind in ("css", "waapi"):
        res = Result(f"{name}/{kind}")
        for v in views:
            rows = out["readings"].get(f"{kind}:{v}", [])
            if len(rows) != len(times):
                res.fail(f"{name}: {len(rows)} readings of {kind}:{v} for {len(times)} times")
                continue
            for p in props[v]:
                for i, t in enumerate(times):
                    segue = p.expected(i)
                    if p.clamp:
                        segue = [clamp01(x) for x in segue]
                    compare(res, name, p, t, rows[i][p.css], segue, tol, label=f"{kind} {v} {p.css}")
        results.append(res)
    return page


# --------------------------------------------------------------------------------------------
# Geometry on the compositor, stacking, scoping (rules 40–43)
#
# The pages below hold several exports at once, each view's element inside a container div (its
# id `cid`) and found there by the export's own selector. What is compared:
#   - the border box as drawn (`box_expected`), for views that have a position and a size;
#   - every other property of rule 28 (opacity, background-color, border-radius, custom
#     properties) as `render_case` compares them;
#   - each element's computed `z-index` (its place in `stacking`) and its animations (exactly one,
#     named `P-<view>` by the CSS export or given that id by the WAAPI one).

GEOMETRY_CHANNELS = ("frame", "center", "bounds", "transform")
GEOMETRY_PROPERTIES = ("left", "top", "width", "height", "transform")  # what geometry=transform moves into one transform
SIZE_FACTOR = 1.5          # the second container size: 1.5 × the request's container
PROBE_MARGIN = 4.0         # px a probe point keeps from every view's edge (plus the bound)
PRESET_STACKING = {        # docs/rules.md rule 40: the presets stack as UIKit does, bottom to top
    "bouncePresent": ["from", "to"], "slideDismiss": ["to", "from"], "zoomPush": ["from", "to"],
    "zoomPop": ["to", "from"], "dropDismiss": ["to", "cover", "from"], "crossDissolve": ["from", "to"],
    "swipeUpDismiss": ["to", "from"], "pane": ["pane"], "push": ["from", "dim", "to"], "pop": ["to", "dim", "from"],
    "coverVertical": ["from", "to"], "coverVerticalDismiss": ["to", "from"], "pageSheet": ["from", "to"],
    "pageSheetDismiss": ["to", "from"],
}
PRESET_PROBE_AT = {        # where the hit tests pause, as a fraction of the end (else 0.5, mid-transition): on
    # a critically damped spring the leaving view has gone ~95 % of its way at half the time, and
    # what is left of it over the uncovered view is thinner than the probe grid
    "pop": 0.25, "coverVerticalDismiss": 0.25, "pageSheetDismiss": 0.25,
}
PRESET_CONTAINER = [20, 40, 240, 360]
RENDER_CONTAINERS = {      # a `container` for the plain render cases: origin away from 0, not square
    "render-main": [12, 18, 400, 300], "render-main-tol0.01": [12, 18, 400, 300],
    "render-center-bounds": [-30, 40, 360, 420], "render-keyframes-commands": [5, -10, 380, 330],
}
RENDER_ZINDEX = {          # rule 40's `zIndex`: stacking b (-1), c (0), a (2) — not the request order
    "fps": 30, "container": [0, 0, 300, 240],
    "views": {
        "a": {"frame": [20, 20, 140, 120], "zIndex": 2},
        "b": {"frame": [90, 60, 160, 140], "zIndex": -1},
        "c": {"center": [120, 130], "bounds": [0, 0, 150, 100], "transform": {"rotation": 0}},
    },
    "animations": [
        {"id": "slide", "view": "a", "duration": 0.6, "timing": "easeInOut", "to": {"frame": [120, 90, 140, 120]}},
        {"id": "turn", "view": "c", "duration": 0.6, "timing": "linear", "to": {"transform": {"rotation": 0.8}}},
    ],
}
TRIGGER_CLASS = "is-presented"


def view_geometry(ch: dict, i: int):
    """UIKit's drawing of a view at sample i: the drawn centre T = c + (tx, ty) and the drawn edge
    vectors E1 = M·(w, 0), E2 = M·(0, h) (M the transform's [a b; c d]); None without geometry."""
    if not any(c in ch for c in GEOMETRY_CHANNELS):
        return None
    if "frame" in ch:
        f = ch["frame"][i]
        cx, cy, w, h = f[0] + f[2] / 2, f[1] + f[3] / 2, f[2], f[3]
    else:
        c = ch["center"][i] if "center" in ch else [0.0, 0.0]
        b = ch["bounds"][i] if "bounds" in ch else [0.0, 0.0, 0.0, 0.0]
        cx, cy, w, h = c[0], c[1], b[2], b[3]
    m = ch["transform"][i] if "transform" in ch else [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    return {"T": (cx + m[4], cy + m[5]), "E1": (m[0] * w, m[1] * w), "E2": (m[2] * h, m[3] * h),
            "size": (w, h), "m": m, "sized": "frame" in ch or "bounds" in ch}


def quad_box(g):
    """The axis-aligned box of the drawn quad T ± E1/2 ± E2/2: [left, top, right, bottom]."""
    hx = (abs(g["E1"][0]) + abs(g["E2"][0])) / 2
    hy = (abs(g["E1"][1]) + abs(g["E2"][1])) / 2
    return [g["T"][0] - hx, g["T"][1] - hy, g["T"][0] + hx, g["T"][1] + hy]


class SceneData:
    """One render request (a preset or plain views) with its container, Segue's JSON at the
    check times and over its own frames, and what the comparison needs per view."""

    def __init__(self, server: Server, name, body, container, times, tol=0.001):
        self.name, self.body, self.container, self.times, self.tol = name, body, container, times, tol
        self.frames = json.loads(server.fetch("/v1/render?format=json", body, "application/json"))
        at_body = {k: v for k, v in body.items() if k != "fps"}
        at_body["at"] = times
        self.at = json.loads(server.fetch("/v1/render?format=json", at_body, "application/json"))
        if len(self.at["t"]) != len(times):
            raise TestFailure(f"{name}: JSON answered {len(self.at['t'])} frames for {len(times)} times")
        self.end = self.frames["duration"]
        self.views = list(self.at["views"])
        self.stacking = self.at.get("stacking")
        if not isinstance(self.stacking, list) or sorted(self.stacking) != sorted(self.views):
            raise TestFailure(f"{name}: JSON `stacking` {self.stacking!r} is not an order of the views {self.views}")
        self.props = {v: [p for p in render_props(v, self.frames, self.at)
                          if p.css not in GEOMETRY_PROPERTIES] for v in self.views}
        # Per view with geometry: max(1, range) of T and of E1, E2 over the export request's frames,
        # and the box the element is laid out in (the first frame's size; the largest if it is 0).
        self.geo = {}
        n_frames = len(self.frames["t"])
        for v in self.views:
            ch = self.frames["views"][v]
            gs = [view_geometry(ch, i) for i in range(n_frames)]
            if gs[0] is None or not gs[0]["sized"]:
                continue
            comps = lambda key, k: value_range([g[key][k] for g in gs])
            w0 = gs[0]["size"][0] or max(abs(g["size"][0]) for g in gs) or 1.0
            h0 = gs[0]["size"][1] or max(abs(g["size"][1]) for g in gs) or 1.0
            moving = any(json.dumps(ch[c][i]) != json.dumps(ch[c][0]) for c in ch for i in range(n_frames))
            self.geo[v] = {"sT": (comps("T", 0), comps("T", 1)), "sE1": (comps("E1", 0), comps("E1", 1)),
                           "sE2": (comps("E2", 0), comps("E2", 1)), "size0": (w0, h0), "moving": moving}

    def layer(self, v):
        return self.stacking.index(v)

    def box_expected(self, v, i, k):
        """At sample i, in a container k × the request's: the expected box relative to the container
        (positions from the container's origin), the bound and the allowance per coordinate."""
        g = view_geometry(self.at["views"][v], i)
        info = self.geo[v]
        ox, oy = self.container[0], self.container[1]
        box = quad_box(g)
        exp = [(box[0] - ox) * k, (box[1] - oy) * k, (box[2] - ox) * k, (box[3] - oy) * k]
        bx = self.tol * (info["sT"][0] + (info["sE1"][0] + info["sE2"][0]) / 2) * k
        by = self.tol * (info["sT"][1] + (info["sE1"][1] + info["sE2"][1]) / 2) * k
        # The element's CSS matrix entries (the transform scales the laid-out box w0 × h0).
        w, h = g["size"]
        w0, h0 = info["size0"]
        m = g["m"]
        A, B, C, D = m[0] * w / w0, m[1] * w / w0, m[2] * h / h0, m[3] * h / h0
        ext = (math.hypot(*g["E1"]) + math.hypot(*g["E2"])) * k
        allow = []
        for n, e in enumerate(exp):
            layout = 1 / 64 + 1 / 128 + ((abs(A) + abs(C)) if n % 2 == 0 else (abs(B) + abs(D))) / 128
            allow.append(layout + 1e-6 * (1 + abs(e) + ext))
        return exp, [bx, by, bx, by], allow

    def quad(self, v, i):
        g = view_geometry(self.at["views"][v], i)
        return None if g is None or not g["sized"] else g

    def probe_points(self, i, bound_px):
        """Points (relative to the container's origin) at sample i, each with the views covering it,
        kept only where every view's edge is at least PROBE_MARGIN + bound away. Points covered by a
        moving and a still view first, then by several views, then by one."""
        cx, cy, W, H = self.container
        quads = {v: self.quad(v, i) for v in self.views}
        found = []
        for gx in range(1, 16):
            for gy in range(1, 16):
                px, py = cx + W * gx / 16, cy + H * gy / 16
                covering, clear = [], True
                for v, g in quads.items():
                    if g is None:
                        continue
                    state = point_in_quad((px, py), g, PROBE_MARGIN + bound_px)
                    if state is None:
                        clear = False
                        break
                    if state:
                        covering.append(v)
                if clear and covering:
                    moving = {self.geo[v]["moving"] for v in covering if v in self.geo}
                    rank = 0 if moving == {True, False} else (1 if len(covering) > 1 else 2)
                    found.append((rank, tuple(sorted(covering)), px - cx, py - cy, covering))
        found.sort(key=lambda f: (f[0], f[1]))
        chosen, per_set = [], {}
        for rank, key, x, y, covering in found:
            if per_set.get(key, 0) >= 2 or len(chosen) >= 6:
                continue
            per_set[key] = per_set.get(key, 0) + 1
            top = max(covering, key=self.layer)
            chosen.append({"x": x, "y": y, "covering": covering, "top": top})
        return chosen


def point_in_quad(p, g, margin):
    """True: p lies inside the drawn quad by ≥ margin; False: outside by ≥ margin; None: too close."""
    (e1x, e1y), (e2x, e2y) = g["E1"], g["E2"]
    det = e1x * e2y - e1y * e2x
    dx, dy = p[0] - g["T"][0], p[1] - g["T"][1]
    l1, l2 = math.hypot(e1x, e1y), math.hypot(e2x, e2y)
    if abs(det) < 1e-9 or l1 == 0 or l2 == 0:
        return False if math.hypot(dx, dy) > margin + (l1 + l2) / 2 else None
    u = (dx * e2y - dy * e2x) / det      # P − T = u·E1 + v·E2
    w = (e1x * dy - e1y * dx) / det
    du = (abs(u) - 0.5) * abs(det) / l2  # signed distance to the nearer of the edges along E2
    dw = (abs(w) - 0.5) * abs(det) / l1
    if du <= -margin and dw <= -margin:
        return True
    if max(du, dw) >= margin:
        return False
    return None


def check_stacking_json(res: Result, case, body, answer):
    """`stacking` as rule 40 orders it: a preset's as UIKit stacks it; plain views by zIndex, ties in
    request order (a stable sort)."""
    if "transition" in body:
        want = PRESET_STACKING.get(body["transition"]["preset"])
    else:
        names = list(body["views"])
        want = sorted(names, key=lambda n: (body["views"][n].get("zIndex", 0), names.index(n)))
    if answer.get("stacking") != want:
        res.fail(f"{case}: JSON stacking {answer.get('stacking')!r}, rule 40 gives {want!r}")


def check_waapi_view(res: Result, case, wv, v, prefix, layer, placed, units="px"):
    """The WAAPI view's shape (rule 40, 42, 43)."""
    keys = {"selector", "style", "zIndex", "keyframes", "options"}
    if set(wv) != keys:
        res.fail(f"{case}: WAAPI view {v} has members {sorted(wv)}, expected {sorted(keys)}")
        return
    if wv["selector"] != f"[data-{prefix}={json.dumps(v)}]":
        res.fail(f"{case}: WAAPI view {v}: selector {wv['selector']!r}, expected [data-{prefix}=\"{v}\"]")
    if wv["zIndex"] != layer or not isinstance(wv["zIndex"], (int, float)):
        res.fail(f"{case}: WAAPI view {v}: zIndex {wv['zIndex']!r}, its place in stacking is {layer}")
    opts = wv["options"]
    want_opts = {"id": f"{prefix}-{v}", "fill": "both", "easing": "linear", "iterations": 1}
    for key, val in want_opts.items():
        if opts.get(key) != val:
            res.fail(f"{case}: WAAPI view {v}: options.{key} {opts.get(key)!r}, expected {val!r}")
    st = wv["style"]
    for key, val in (("position", "absolute"), ("transformOrigin", "50% 50%"), ("zIndex", str(layer))):
        if st.get(key) != val:
            res.fail(f"{case}: WAAPI view {v}: style.{key} {st.get(key)!r}, expected {val!r}")
    box_keys = {"left", "top", "width", "height"}
    if placed:
        unit = {"px": ("px", "px"), "container": ("cqw", "cqh")}[units]
        for key in sorted(box_keys):
            want_unit = unit[0] if key in ("left", "width") else unit[1]
            if not re.fullmatch(rf"{NUM}{want_unit}", str(st.get(key, ""))):
                res.fail(f"{case}: WAAPI view {v}: style.{key} {st.get(key)!r} is not a length in {want_unit}")
        animated = {k for kf in wv["keyframes"] for k in kf} & box_keys
        if animated:
            res.fail(f"{case}: WAAPI view {v}: geometry=transform animates {sorted(animated)} (rule 42: placed once)")
    elif box_keys & set(st):
        res.fail(f"{case}: WAAPI view {v}: geometry=layout style has {sorted(box_keys & set(st))}")


def check_css_transform_export(res: Result, case, css_text, scene: SceneData, prefix, units):
    """Rule 42 in the CSS text: the container rule first (container units), the box static."""
    body = [l for l in re.sub(r"/\*.*?\*/", "", css_text, flags=re.S).splitlines() if l.strip()]
    container_rule = f"[data-{prefix}-container] {{ container-type: size; position: relative; }}"
    if units == "container" and (not body or body[0] != container_rule):
        res.fail(f"{case}: units=container: the stylesheet starts with {body[:1]!r}, not `{container_rule}`")
    if units == "px" and any("container-type" in l for l in body):
        res.fail(f"{case}: units=px writes a container rule")
    for m in re.finditer(r"@keyframes\s+([\w-]+)\s*\{(.*?)\n\}", css_text, re.S):
        for prop in ("left", "top", "width", "height"):
            if re.search(rf"[{{;]\s*{prop}\s*:", m.group(2)):
                res.fail(f"{case}: @keyframes {m.group(1)} animates `{prop}` under geometry=transform")
    if units == "container":
        # Every length in container units (border-radius stays in px: one radius cannot be cqw and cqh).
        bad = [l for l in body if re.search(r"\dpx\b", re.sub(r"border-radius:[^;]*;", "", l))]
        if bad:
            res.fail(f"{case}: units=container writes a px length: {bad[0][:160]}")


def compare_box(res: Result, case, label, t, got, exp, bound, allow):
    if not isinstance(got, list) or len(got) != 4:
        res.fail(f"{case}: {label} at t={t!r}s: no box reading ({got!r})")
        return
    for k, side in enumerate(("left", "top", "right", "bottom")):
        err = abs(got[k] - exp[k])
        ratio = err / (bound[k] + allow[k])
        res.note("box", ratio, f"{label} {side} t={t:.6g}s")
        if not err <= bound[k] + allow[k]:
            res.fail(f"{case}: {label} box {side} at t={t!r}s: browser {fmt(got[k])}, UIKit draws {fmt(exp[k])}, "
                     f"|diff| {err:.3g} > bound {bound[k]:.3g} (+ allowance {allow[k]:.2g})")


class Placement:
    """One export of one scene shown in one container."""

    def __init__(self, scene: SceneData, kind, prefix, units, cid, k, export, label, probe=False,
                 wrapper=None, idle=False):
        self.scene, self.kind, self.prefix, self.units, self.cid, self.k = scene, kind, prefix, units, cid, k
        self.export, self.label, self.probe, self.wrapper, self.idle = export, label, probe, wrapper, idle
        # How the drawing scales with the container: container units follow its size, px do not.
        self.scale = k if units == "container" else 1.0

    def expected_animations(self, v):
        return [] if self.idle else [f"{self.prefix}-{v}"]


PAGE_STYLE_SCENES = """
.slots { display: flex; flex-wrap: wrap; gap: 14px 18px; padding: 4px 8px; align-items: flex-start; }
.slot > .label { font-size: 11px; color: #444; margin-bottom: 2px; }
.ctr { outline: 1px dashed #888; overflow: hidden; isolation: isolate; background: #fff; }
.pos { position: relative; }
.v { font-size: 14px; color: #fff; text-shadow: 0 0 2px #000; outline-width: 1px; }
.v > .tag { position: absolute; left: 6px; pointer-events: none; white-space: nowrap; }
""" + "".join(f".c{i} {{ background-color: hsl({(210 + 67 * i) % 360} 65% 55%); }}\n" for i in range(8))


def scene_page(placements: list[Placement], times, picture_ms, trigger=None, probe_s=None):
    """The body and spec of a page holding `placements` (elements in REVERSE stacking order, so only
    `z-index` can put the right one on top); the hit tests at `probe_s`, one of `times` (default: half
    of each scene's end)."""
    slots, targets, waapi_specs, containers, register, probes = [], [], [], [], [], []
    registered = set()
    for pl in placements:
        sc = pl.scene
        W, H = sc.container[2] * pl.k, sc.container[3] * pl.k
        attrs = f'id="{pl.cid}" style="width: {W:g}px; height: {H:g}px'
        if pl.kind == "css" and pl.units == "container":
            attrs += f'" class="ctr" data-{pl.prefix}-container'   # positioned by the export's rule
            containers.append(pl.cid)
        elif pl.units == "container":
            attrs += '; container-type: size" class="ctr pos"'     # a WAAPI page does this itself
        else:
            attrs += '" class="ctr pos"'
        divs = []
        for v in reversed(sc.stacking):
            idx = sc.views.index(v)
            tag = f'<span class="tag" style="top: {6 + 20 * sc.layer(v)}px">{pl.prefix}:{v}</span>'
            divs.append(f'  <div class="v c{idx}" data-{pl.prefix}="{v}" data-probe="{pl.cid}:{v}">{tag}</div>')
            t = {"id": f"{pl.cid}:{v}", "within": pl.cid, "selector": f'[data-{pl.prefix}="{v}"]',
                 "props": [{"css": p.css, "kind": p.kind} for p in sc.props[v]]}
            if v in sc.geo:
                t["box"] = pl.cid
            targets.append(t)
            if pl.kind == "waapi":
                wv = pl.export["views"][v]
                waapi_specs.append({"key": f"{pl.cid}:{v}", "within": pl.cid, "selector": wv["selector"],
                                    "keyframes": wv["keyframes"], "options": wv["options"], "style": wv["style"]})
        if pl.kind == "waapi":
            for prop in pl.export["properties"]:
                if prop["name"] not in registered:
                    registered.add(prop["name"])
                    register.append(prop)
        wrapper = f' id="{pl.wrapper}"' if pl.wrapper else ""
        slots.append(f'<div class="slot"{wrapper}><div class="label">{pl.label}</div>\n<div {attrs}>\n'
                     + "\n".join(divs) + "\n</div></div>")
        if pl.probe:
            at = sc.end / 2 if probe_s is None else probe_s
            i = sc.times.index(at)
            bound_px = max(max(sc.box_expected(v, i, 1)[1]) for v in sc.geo) if sc.geo else 0
            for p in sc.probe_points(i, bound_px):
                probes.append({"time": at * 1000, "container": pl.cid, "x": p["x"] * pl.scale, "y": p["y"] * pl.scale,
                               "expect": f"{pl.cid}:{p['top']}", "covering": p["covering"], "scene": sc.name})
    body = "<div class=\"slots\">\n" + "\n".join(slots) + "\n</div>"
    spec = {"times": [t * 1000 for t in times], "targets": targets, "waapi": waapi_specs, "register": register,
            "containers": containers, "probes": probes, "pictureTime": picture_ms}
    if trigger:
        spec["trigger"] = trigger
    return body, spec


def check_scene_page(case, out, console, placements: list[Placement], spec, css_texts, results: list[Result],
                     group=lambda pl: f"{pl.kind}-{pl.units}"):
    """The page checks, then per group of placements every element's readings against UIKit's drawing."""
    page = Result(f"{case}/page")
    expected = sum(len(pl.scene.views) for pl in placements if not pl.idle)
    common_checks(page, case, out, console, expected, css_text="\n".join(css_texts) if css_texts else None,
                  waapi_views={w["key"]: w["keyframes"] for w in spec["waapi"]})
    check_times_read(page, case, out, spec["times"])
    for pl in placements:
        sc = pl.scene
        for v in sc.views:
            info = out.get("info", {}).get(f"{pl.cid}:{v}")
            if info is None:
                page.fail(f"{case}: {pl.cid}: no element for view {v} (selector [data-{pl.prefix}=\"{v}\"])")
                continue
            if info["zIndex"] != str(sc.layer(v)):
                page.fail(f"{case}: {pl.cid} {v}: computed z-index {info['zIndex']!r}, its place in stacking "
                          f"{sc.stacking} is {sc.layer(v)}")
            if info["animations"] != pl.expected_animations(v):
                page.fail(f"{case}: {pl.cid} {v}: element's animations {info['animations']}, expected exactly "
                          f"{pl.expected_animations(v)}")
    for cid, cs in out.get("containers", {}).items():
        if cs != {"containerType": "size", "position": "relative"}:
            page.fail(f"{case}: container {cid} (the export's [data-P-container] rule): computed {cs}")
    for n, (probe, got) in enumerate(zip(spec["probes"], out.get("probes", []))):
        page.note("hit", 0.0 if got == probe["expect"] else math.inf, f"{probe['container']} ({probe['x']:.0f}, {probe['y']:.0f})")
        if got != probe["expect"]:
            page.fail(f"{case}: elementFromPoint({probe['x']:.1f}, {probe['y']:.1f}) in {probe['container']} at "
                      f"t={probe['time'] / 1000:g}s: got {got!r}; views covering the point {probe['covering']}, "
                      f"stacking puts {probe['expect']!r} on top")
    if len(out.get("probes", [])) != len(spec["probes"]):
        page.fail(f"{case}: {len(out.get('probes', []))} hit tests read of {len(spec['probes'])}")
    results.append(page)

    groups: dict[str, Result] = {}
    for pl in placements:
        res = groups.setdefault(group(pl), Result(f"{case}/{group(pl)}"))
        check_placement_readings(res, case, pl, out)
    results.extend(groups.values())
    return page


def check_placement_readings(res: Result, case, pl: Placement, out):
    """Every view of a placement at every check time."""
    sc = pl.scene
    for v in sc.views:
        rows = out["readings"].get(f"{pl.cid}:{v}", [])
        if len(rows) != len(sc.times):
            res.fail(f"{case}: {len(rows)} readings of {pl.cid}:{v} for {len(sc.times)} times")
            continue
        for i, t in enumerate(sc.times):
            j = 0 if pl.idle else i   # an idle view stays at its first frame
            compare_view_row(res, case, pl, v, rows[i], j, t)


def compare_view_row(res: Result, case, pl: Placement, v, row, j, t):
    sc = pl.scene
    label = f"{pl.cid} {v}"
    if row is None:
        res.fail(f"{case}: {label}: no element at t={t!r}s")
        return
    if v in sc.geo:
        exp, bound, allow = sc.box_expected(v, j, pl.scale)
        compare_box(res, case, label, t, row.get("box"), exp, bound, allow)
    for p in sc.props[v]:
        segue = p.expected(j)
        if p.clamp:
            segue = [clamp01(x) for x in segue]
        compare(res, case, p, t, row[p.css], segue, sc.tol, label=f"{label} {p.css}")


# --- the cases ---------------------------------------------------------------------------------


def render_transform_case(server: Server, name, body, tol, results: list[Result]):
    """Rule 42's default `geometry=transform` for a plain render given a container: the CSS and
    WAAPI exports in px and in container units, each in a container of the request's size and of
    SIZE_FACTOR × it — px boxes stay put, container-unit boxes scale — compared with the box UIKit
    draws from Segue's JSON."""
    case = f"{name}@transform"
    container = RENDER_CONTAINERS[name]
    body = dict(body, container=container)
    q = f"&tolerance={tol}" if tol != 0.001 else ""
    times = check_times(json.loads(server.fetch("/v1/render?format=json", body, "application/json"))["duration"], name)
    sc = SceneData(server, case, body, container, times, tol)
    css_px = server.fetch("/v1/render?format=css" + q, body, "text/css")
    explicit = server.fetch("/v1/render?format=css&geometry=transform&units=px&prefix=segue" + q, body, "text/css")
    css_cq = server.fetch("/v1/render?format=css&units=container&prefix=cq" + q, body, "text/css")
    waapi_px = json.loads(server.fetch("/v1/render?format=waapi&prefix=w" + q, body, "application/json"))
    waapi_cq = json.loads(server.fetch("/v1/render?format=waapi&units=container&prefix=wq" + q, body, "application/json"))
    pls = []
    for kind, units, prefix, export in (("css", "px", "segue", css_px), ("css", "container", "cq", css_cq),
                                        ("waapi", "px", "w", waapi_px), ("waapi", "container", "wq", waapi_cq)):
        for k, tag in ((1.0, "1x"), (SIZE_FACTOR, f"{SIZE_FACTOR:g}x")):
            pls.append(Placement(sc, kind, prefix, units, f"{kind}-{units}-{tag}", k, export,
                                 f"{kind} units={units} prefix={prefix}, container {tag}"))
    html, spec = scene_page(pls, times, sc.end * 1000 * 0.3)
    out, console, _ = run_page(case, f"{case}: tolerance {tol}, container {container}", [css_px, css_cq], html,
                               spec, window=(1800, 1400), heading=" — geometry=transform")
    page = check_scene_page(case, out, console, pls, spec, [css_px, css_cq], results)
    if explicit != css_px:
        page.fail(f"{case}: the default export differs from ?geometry=transform&units=px&prefix=segue")
    check_stacking_json(page, case, body, sc.at)
    for prefix, units, text in (("segue", "px", css_px), ("cq", "container", css_cq)):
        check_css_transform_export(page, case, text, sc, prefix, units)
    for prefix, units, w in (("w", "px", waapi_px), ("wq", "container", waapi_cq)):
        if w["maxError"] > tol:
            page.fail(f"{case}: WAAPI {units} states maxError {w['maxError']} > tolerance {tol}")
        for v in sc.views:
            check_waapi_view(page, case, w["views"][v], v, prefix, sc.layer(v), placed=v in sc.geo, units=units)


def stacking_case(server: Server, name, body, container, results: list[Result]):
    """A preset (or a render with zIndex): the CSS and WAAPI exports (geometry=transform, px) checked
    through time like the others, and at mid-transition `elementFromPoint` at points the views
    cover returns the one `stacking` puts on top."""
    end = json.loads(server.fetch("/v1/render?format=json", body, "application/json"))["duration"]
    probe_at = end * PRESET_PROBE_AT.get(body.get("transition", {}).get("preset"), 0.5)
    times = sorted(set(check_times(end, name)) | {probe_at})
    sc = SceneData(server, name, body, container, times)
    css = server.fetch("/v1/render?format=css", body, "text/css")
    waapi = json.loads(server.fetch("/v1/render?format=waapi&prefix=w", body, "application/json"))
    pls = [Placement(sc, "css", "segue", "px", "css", 1.0, css, "css", probe=True),
           Placement(sc, "waapi", "w", "px", "waapi", 1.0, waapi, "waapi prefix=w", probe=True)]
    html, spec = scene_page(pls, times, probe_at * 1000, probe_s=probe_at)
    out, console, page_path = run_page(name, f"{name}: stacking {sc.stacking}, paused at t = {probe_at:g}s", css, html,
                                       spec, window=(1400, 900), heading="")
    page = check_scene_page(name, out, console, pls, spec, [css], results, group=lambda pl: pl.kind)
    check_stacking_json(page, name, body, sc.at)
    check_css_transform_export(page, name, css, sc, "segue", "px")
    for v in sc.views:
        check_waapi_view(page, name, waapi["views"][v], v, "w", sc.layer(v), placed=v in sc.geo)
    multi = [p for p in spec["probes"] if len(p["covering"]) > 1]
    if len(sc.views) > 1 and len(multi) < 2:   # both exports: at least one point each where views overlap
        page.fail(f"{name}: no point at t={probe_at:g}s where two views overlap clear of every edge")
    return page_path


def scoped_case(server: Server, results: list[Result]):
    """Rule 43: slideDismiss (prefix a) and bouncePresent (prefix b) as two stylesheets in one document,
    and their WAAPI exports (prefixes c, d) — the views of both are named `from` and `to`. Each
    element gets exactly its own animation; every box follows its own scene; hit tests show each
    scene's stacking."""
    name = "scoped-two-exports"
    slide = {"transition": {"preset": "slideDismiss", "container": [0, 0, 200, 300], "duration": 0.6}}
    bounce = {"transition": {"preset": "bouncePresent", "container": [16, 24, 200, 300], "duration": 0.6}}
    end = 0.6
    times = sorted(set(check_times(end, name)) | {end / 2})
    a = SceneData(server, "slideDismiss", slide, slide["transition"]["container"], times)
    b = SceneData(server, "bouncePresent", bounce, bounce["transition"]["container"], times)
    if a.end != end or b.end != end:
        raise TestFailure(f"{name}: durations {a.end}, {b.end}, asked {end}")
    css_a = server.fetch("/v1/render?format=css&prefix=a", slide, "text/css")
    css_b = server.fetch("/v1/render?format=css&prefix=b", bounce, "text/css")
    w_c = json.loads(server.fetch("/v1/render?format=waapi&prefix=c", slide, "application/json"))
    w_d = json.loads(server.fetch("/v1/render?format=waapi&prefix=d", bounce, "application/json"))
    pls = [Placement(a, "css", "a", "px", "css-a", 1.0, css_a, "css ?prefix=a — slideDismiss", probe=True),
           Placement(b, "css", "b", "px", "css-b", 1.0, css_b, "css ?prefix=b — bouncePresent", probe=True),
           Placement(a, "waapi", "c", "px", "waapi-c", 1.0, w_c, "waapi ?prefix=c — slideDismiss", probe=True),
           Placement(b, "waapi", "d", "px", "waapi-d", 1.0, w_d, "waapi ?prefix=d — bouncePresent", probe=True)]
    html, spec = scene_page(pls, times, end / 2 * 1000)
    out, console, page_path = run_page(name, f"{name}: two scoped exports, paused at t = {end / 2:g}s", [css_a, css_b],
                                       html, spec, window=(1400, 900), heading="")
    page = check_scene_page(name, out, console, pls, spec, [css_a, css_b], results, group=lambda pl: pl.cid)
    for text, prefix in ((css_a, "a"), (css_b, "b")):
        names = set(re.findall(r"@keyframes\s+([\w-]+)", text))
        if names != {f"{prefix}-from", f"{prefix}-to"}:
            page.fail(f"{name}: ?prefix={prefix}: @keyframes {sorted(names)}")
        if re.search(r"data-segue|segue-", re.sub(r"/\*.*?\*/", "", text, flags=re.S)):
            page.fail(f"{name}: ?prefix={prefix} still writes the default prefix")
    for w, prefix, sc in ((w_c, "c", a), (w_d, "d", b)):
        for v in sc.views:
            check_waapi_view(page, name, w["views"][v], v, prefix, sc.layer(v), placed=True)
    return page_path


def trigger_case(server: Server, results: list[Result]):
    """Rule 43's `trigger`: dropDismiss with ?prefix=t&trigger=.is-presented. Before the class is set the
    views sit at their first frame and nothing animates; once an ancestor has the class, they run
    and match the JSON at paused times. A second copy outside that ancestor never moves."""
    name = "trigger-dropDismiss"
    body = {"transition": {"preset": "dropDismiss", "container": [0, 0, 200, 280]}}
    end = json.loads(server.fetch("/v1/render?format=json", body, "application/json"))["duration"]
    times = check_times(end, name)
    sc = SceneData(server, name, body, body["transition"]["container"], times)
    css = server.fetch(f"/v1/render?format=css&prefix=t&trigger=.{TRIGGER_CLASS}", body, "text/css")
    pls = [Placement(sc, "css", "t", "px", "triggered", 1.0, css, f"under #stage.{TRIGGER_CLASS}", wrapper="stage"),
           Placement(sc, "css", "t", "px", "idle", 1.0, css, "outside it (never triggered)", idle=True)]
    html, spec = scene_page(pls, times, end * 1000 * 0.4, trigger={"element": "stage", "className": TRIGGER_CLASS})
    out, console, _ = run_page(name, f"{name}: ?trigger=.{TRIGGER_CLASS}", css, html, spec, window=(1000, 700),
                               heading="")
    page = check_scene_page(name, out, console, pls, spec, [css], results, group=lambda pl: pl.cid)
    before = out.get("before") or {}
    res = Result(f"{name}/before-trigger")
    if before.get("animations") != 0:
        res.fail(f"{name}: before .{TRIGGER_CLASS} is set document.getAnimations() has {before.get('animations')} "
                 f"animations, expected none")
    if times[0] != 0:
        raise TestFailure(f"{name}: the first check time is {times[0]}, not 0")
    for pl in pls:
        for v in sc.views:
            compare_view_row(res, name, pl, v, before.get("rows", {}).get(f"{pl.cid}:{v}"), 0, 0.0)
    for v in sc.views:
        want = [f".{TRIGGER_CLASS} [data-t={json.dumps(v)}]"]
        rules = [r["selector"] for r in out.get("cssRules", []) if r["type"] == "style" and "animation" in r["text"]
                 and f'"{v}"' in r["selector"]]
        if rules != want:
            res.fail(f"{name}: the rules animating {v}: {rules}, expected {want}")
    results.append(res)


def http_case(server: Server, results: list[Result]):
    """Rule 42/43's 422s: each bad parameter refused, naming it in `parameter`."""
    from urllib.parse import quote
    res = Result("http/bad-parameters")
    preset = {"transition": {"preset": "slideDismiss", "container": [0, 0, 200, 300]}}
    plain = dict(RENDER_CENTER)   # no container
    cases = [
        ("css", f"prefix={quote('9x')}", preset, "prefix"),
        ("css", f"prefix={quote('a b')}", preset, "prefix"),
        ("waapi", f"prefix={quote('-x')}", preset, "prefix"),
        ("css", "prefix=" + "a" * 65, preset, "prefix"),
        ("css", f"trigger={quote('{')}", preset, "trigger"),
        ("css", f"trigger={quote('a, b')}", preset, "trigger"),
        ("css", "trigger=" + "a" * 201, preset, "trigger"),
        ("waapi", f"trigger={quote('.is-presented')}", preset, "trigger"),
        ("css", "units=container", plain, "units"),
        ("waapi", "units=container", plain, "units"),
        ("css", "units=em", preset, "units"),
        ("css", "geometry=matrix", preset, "geometry"),
    ]
    for fmt_, query, body, param in cases:
        path = f"/v1/render?format={fmt_}&{query}"
        status, ctype, text = server.post(path, body)
        res.count += 1
        try:
            problem = json.loads(text)
        except ValueError:
            problem = None
        if status != 422 or not isinstance(problem, dict) or problem.get("parameter") != param:
            res.fail(f"POST {path[:80]}: {status} {ctype} parameter {problem.get('parameter') if isinstance(problem, dict) else None!r}"
                     f", expected 422 naming {param!r}: {text[:200]}")
    for fmt_, query, body in (("css", "prefix=" + "a" * 64, preset), ("css", "trigger=" + quote("#x > .y:hover [data-k]"), preset),
                              ("waapi", "units=container", preset), ("css", "units=container", dict(plain, container=[0, 0, 10, 10]))):
        status, ctype, text = server.post(f"/v1/render?format={fmt_}&{query}", body)
        res.count += 1
        if status != 200:
            res.fail(f"POST /v1/render?format={fmt_}&{query[:70]}: {status}, a valid request: {text[:200]}")
    results.append(res)


def tokens_case(server: Server, results: list[Result]):
    """Rule 39's CSS custom properties played by Chromium: Tests/Browser/tokens.py."""
    import tokens
    return tokens.run_case(sys.modules[__name__], server, results)


# --------------------------------------------------------------------------------------------


def report(r: Result, elapsed: float, verbose: bool) -> bool:
    """Prints one test's line (and its first problems); true when it passed."""
    worst = "".join(f", worst {src} {r.worst[src][0]:.3f} ({r.worst[src][1]})" if r.worst[src][0] > 0
                    else f", {src} exact" for src in r.worst) if r.count else ""
    if r.failures:
        shown = r.failures if verbose else r.failures[:5]
        more = f" (+{len(r.failures) - len(shown)} more)" if len(r.failures) > len(shown) else ""
        print(f"FAIL {r.name} ({elapsed:.1f}s): {len(r.failures)} problems{more}; {r.count} comparisons{worst}",
              flush=True)
        for msg in shown:
            print(f"     - {msg}", flush=True)
        return False
    print(f"ok   {r.name} ({elapsed:.1f}s)" + (f"  [{r.count} comparisons{worst}]" if r.count else ""), flush=True)
    return True


def main():
    global BINARY, CHROMIUM, ARTEFACTS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", required=True, help="the segue binary")
    ap.add_argument("--chromium", default="chromium", help="the Chromium binary (default: chromium)")
    ap.add_argument("--artefacts", default=".build/browser-artefacts", help="where the pages and the screenshot go")
    ap.add_argument("--only", action="append", help="run only cases whose name contains this (repeatable)")
    ap.add_argument("--verbose", action="store_true", help="print every violation, not the first five per test")
    args = ap.parse_args()
    BINARY = os.path.abspath(args.binary)
    if not os.access(BINARY, os.X_OK):
        print(f"not an executable: {BINARY}", file=sys.stderr)
        return 2
    CHROMIUM = shutil.which(args.chromium) or args.chromium
    if not os.access(CHROMIUM, os.X_OK):
        print(f"Chromium not found: {args.chromium} (Debian: apt-get install chromium; or make deps)", file=sys.stderr)
        return 2
    ARTEFACTS = args.artefacts
    os.makedirs(ARTEFACTS, exist_ok=True)

    # (name, runner(server, results) -> a page for a screenshot or None)
    cases = [(n, (lambda n, b, t: lambda srv, res: curve_case(srv, n, b, t, res))(n, b, t)) for n, b, t in CURVES]
    for n, b, t in RENDERS:
        cases.append((f"{n}@layout", (lambda n, b, t: lambda srv, res: render_case(srv, n, b, t, res))(n, b, t)))
        cases.append((f"{n}@transform", (lambda n, b, t: lambda srv, res: render_transform_case(srv, n, b, t, res))(n, b, t)))
    cases.append(("stacking-presets", None))   # expanded below from GET /v1/presets
    cases.append(("stacking-render-zindex",
                  lambda srv, res: stacking_case(srv, "stacking-render-zindex", RENDER_ZINDEX, RENDER_ZINDEX["container"], res)))
    cases.append(("scoped-two-exports", scoped_case))
    cases.append(("trigger-dropDismiss", trigger_case))
    cases.append(("http-bad-parameters", http_case))
    cases.append(("tokens", tokens_case))

    t_all = time.monotonic()
    server = Server().start()
    passed = failed = 0
    screenshots = []
    try:
        expanded = []
        for name, runner in cases:
            if runner is not None:
                expanded.append((name, runner))
                continue
            status, text = server.get("/v1/presets")
            presets = [p["name"] for p in json.loads(text)["presets"]] if status == 200 else []
            if sorted(presets) != sorted(PRESET_STACKING):
                print(f"FAIL presets: GET /v1/presets lists {presets}; rule 40's stacking is known for "
                      f"{sorted(PRESET_STACKING)}", flush=True)
                failed += 1
            for preset in presets:
                body = {"transition": {"preset": preset, "container": PRESET_CONTAINER}}
                expanded.append((f"stacking-{preset}", (lambda b, n: lambda srv, res: stacking_case(
                    srv, n, b, PRESET_CONTAINER, res))(body, f"stacking-{preset}")))
        expanded = [c for c in expanded if not args.only or any(o in c[0] for o in args.only)]
        if not expanded:
            print(f"no case matches {args.only}", file=sys.stderr)
            return 2
        for name, runner in expanded:
            t0 = time.monotonic()
            results: list[Result] = []
            try:
                page = runner(server, results)
                if name in SCREENSHOT_CASES and page:
                    screenshots.append((page, SCREENSHOT_CASES[name]))
            except TestFailure as e:
                r = Result(f"{name}/setup")
                r.fail(str(e))
                results.append(r)
            except Exception as e:
                r = Result(f"{name}/setup")
                r.fail(f"crashed: {e.__class__.__name__}: {e} @ "
                       + traceback.format_exc(limit=-1).strip().splitlines()[-3].strip())
                results.append(r)
            el = time.monotonic() - t0
            for r in results:
                if report(r, el, args.verbose):
                    passed += 1
                else:
                    failed += 1
        for screenshot_page, window in screenshots:
            shot = os.path.join(ARTEFACTS, os.path.splitext(os.path.basename(screenshot_page))[0] + ".png")
            try:
                os.remove(shot)
            except FileNotFoundError:
                pass
            _, console, rc = run_chromium(screenshot_page, screenshot=os.path.abspath(shot), window=window)
            ok = os.path.exists(shot) and os.path.getsize(shot) > 1000
            if ok:
                passed += 1
                print(f"ok   screenshot ({shot})", flush=True)
            else:
                failed += 1
                print(f"FAIL screenshot: no PNG at {shot} (chromium exit {rc})", flush=True)
    finally:
        server.stop()
    print(f"{passed} passed, {failed} failed ({time.monotonic() - t_all:.1f}s); pages in {ARTEFACTS}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
