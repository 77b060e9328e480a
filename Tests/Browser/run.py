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
tolerance. A screenshot of the first render page goes to the artefacts directory.

One line per test (case × export: `page` for the page checks, `css`, `waapi`), with the worst
reading as a fraction of bound + allowance for the typed and the string readings, then
`N passed, M failed`; exit status 1 when a test failed.
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
        "card": {"frame": [20, 30, 100, 80], "alpha": 1,
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

SCREENSHOT_CASE = "render-main"

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
const out = {errors: [], console: [], readings: {}, animations: 0, cssRules: [], waapiKeyframes: {}, times: []};
window.addEventListener('error', e => out.errors.push(String(e.message) + ' @' + e.lineno));
window.addEventListener('unhandledrejection', e => out.errors.push('unhandled rejection: ' + String(e.reason)));
for (const level of ['error', 'warn', 'log', 'info']) {
  const original = console[level].bind(console);
  console[level] = (...args) => { out.console.push(level + ': ' + args.map(String).join(' ')); original(...args); };
}
function run() {
  // The WAAPI half: custom properties registered as the CSS export's @property rules register them.
  for (const property of SPEC.register) {
    try { CSS.registerProperty(property); }
    catch (e) { out.errors.push('registerProperty ' + property.name + ': ' + e); }
  }
  for (const w of SPEC.waapi) {
    const el = document.getElementById(w.element);
    const anim = el.animate(w.keyframes, w.options);
    out.waapiKeyframes[w.element] = anim.effect.getKeyframes().map(k => Object.keys(k).filter(
      x => !['offset', 'computedOffset', 'easing', 'composite'].includes(x)).sort());
  }
  for (const sheet of document.styleSheets) {
    if (!sheet.ownerNode || sheet.ownerNode.id !== 'export') continue;
    for (const rule of sheet.cssRules) {
      if (rule instanceof CSSKeyframesRule) {
        out.cssRules.push({type: 'keyframes', name: rule.name, keyframes: [...rule.cssRules].map(k => k.cssText)});
      } else if (rule instanceof CSSPropertyRule) {
        out.cssRules.push({type: 'property', name: rule.name, initial: rule.initialValue});
      } else {
        out.cssRules.push({type: 'other', text: rule.cssText});
      }
    }
  }
  const anims = document.getAnimations();
  out.animations = anims.length;
  for (const a of anims) a.pause();
  for (const target of SPEC.targets) out.readings[target.id] = [];
  for (const ms of SPEC.times) {
    for (const a of anims) a.currentTime = ms;
    out.times.push(anims.length ? anims.map(a => a.currentTime) : []);
    for (const target of SPEC.targets) {
      const el = document.querySelector(target.selector);
      const cs = getComputedStyle(el);
      const row = {};
      for (const p of target.props) row[p.css] = {string: cs.getPropertyValue(p.css), typed: typed(el, p.css, p.kind)};
      out.readings[target.id].push(row);
    }
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


def html_page(title, export_css, body_html, spec) -> str:
    def esc(s):
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    spec_json = json.dumps(spec).replace("</", "<\\/")
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title>\n"
            "<style>" + PAGE_STYLE + "</style>\n"
            "<style id=\"export\">\n" + export_css.replace("</", "<\\/") + "</style>\n"
            "</head><body>\n<h1>" + esc(title) + " — left: format=css, right: format=waapi</h1>\n"
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


def run_chromium(page_path, screenshot=None):
    """--dump-dom of the page (or a screenshot). Returns (dom, the page's console lines, exit status)."""
    profile = tempfile.mkdtemp(prefix="segue-chromium-")
    try:
        args = [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0"]
        if screenshot:
            args += [f"--screenshot={screenshot}", "--window-size=800,600"]
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


def run_page(name, title, export_css, body_html, spec):
    """Writes the case's page into the artefacts, runs it in Chromium; returns (readings, console
    lines, the page's path)."""
    page = os.path.join(ARTEFACTS, f"{name}.html")
    with open(page, "w") as f:
        f.write(html_page(title, export_css, body_html, spec))
    dom, console, _ = run_chromium(page)
    return page_output(dom, page), console, page


# --------------------------------------------------------------------------------------------
# Comparison


class Result:
    def __init__(self, name):
        self.name = name
        self.failures: list[str] = []
        self.count = 0
        # per reading: (error / (bound + allowance), where); the typed readings' allowance is tiny
        self.worst = {"typed": (0.0, ""), "string": (0.0, "")}

    def fail(self, msg):
        self.failures.append(msg)


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
            res.count += 1
            ratio = err / (bound + allow) if bound + allow > 0 else (0.0 if err == 0 else math.inf)
            comp_name = what + (f"[{k}]" if len(segue) > 1 else "")
            if ratio > res.worst[source][0]:
                res.worst[source] = (ratio, f"{comp_name} t={t:.6g}s")
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
    others = [r["text"] for r in rules if r["type"] == "other"]
    for view_rule in re.findall(r"\[data-segue=[^\]]+\][^\n]*", text):
        if not any("animation" in o and o.startswith(view_rule.split("]")[0] + "]") for o in others):
            res.fail(f"{case}: the rule `{view_rule[:120]}` did not survive parsing (kept: {others})")


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
    q = f"&tolerance={tol}" if tol != 0.001 else ""
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
        waapi_divs.append((f"id=\"waapi-{n}\" style=\"position: absolute; transform-origin: 50% 50%\"", v))
        w = waapi["views"][v]
        waapi_specs.append({"element": f"waapi-{n}", "keyframes": w["keyframes"], "options": w["options"]})
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


def report(r: Result, elapsed: float, verbose: bool) -> bool:
    """Prints one test's line (and its first problems); true when it passed."""
    worst = "".join(f", worst {src} {r.worst[src][0]:.3f} ({r.worst[src][1]})" if r.worst[src][0] > 0
                    else f", {src} exact" for src in ("typed", "string")) if r.count else ""
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

    cases = [("curve", n, b, t) for n, b, t in CURVES] + [("render", n, b, t) for n, b, t in RENDERS]
    cases = [c for c in cases if not args.only or any(o in c[1] for o in args.only)]
    if not cases:
        print(f"no case matches {args.only}", file=sys.stderr)
        return 2

    t_all = time.monotonic()
    server = Server().start()
    passed = failed = 0
    screenshot_page = None
    try:
        for kind, name, body, tol in cases:
            t0 = time.monotonic()
            results: list[Result] = []
            try:
                page = (curve_case if kind == "curve" else render_case)(server, name, body, tol, results)
                if name == SCREENSHOT_CASE or (kind == "render" and screenshot_page is None):
                    screenshot_page = page
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
        if screenshot_page:
            shot = os.path.join(ARTEFACTS, os.path.splitext(os.path.basename(screenshot_page))[0] + ".png")
            try:
                os.remove(shot)
            except FileNotFoundError:
                pass
            _, console, rc = run_chromium(screenshot_page, screenshot=os.path.abspath(shot))
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
