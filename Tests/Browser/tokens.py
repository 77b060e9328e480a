"""The design-token case of the browser suite (run.py): `POST /v1/tokens` (rule 39) in Chromium.

    python3 Tests/Browser/run.py --binary .build-release/release/segue --only tokens

The test posts TOKENS_DOCUMENT (a W3C design-token document: a duration, a cubicBezier, a transition
aliasing both, a transition whose `dev.segue` extension makes it a UIKit duration-based spring, and a
duration whose extension makes it a response spring) and puts the `text/css` answer, verbatim, in a
`<style>` of one page. For each motion token with an easing and a duration (TOKEN_ELEMENTS: enter,
sheet, bouncy) the page has one element whose rule is `transition: transform var(--<token>)`; the
script flushes style with `transform: translateX(0)`, sets `translateX(1000px)` and flushes again, so
each element starts one CSSTransition. It pauses every animation of `document.getAnimations()` and
sets each one's `currentTime` to fractions of its own duration — CHECK_FRACTIONS (0, just after 0, …,
just before the end) and run.py's check times (a 61-point grid, 0 and the end included, and 30 seeded
random times) — reading the element's transform through `getComputedStyle()` (`matrix(1, 0, 0, 1, x, 0)`)
and `computedStyleMap()` (`CSSTransformValue.toMatrix().e`). x / 1000 must equal the progress
computed HERE, from the document's own numbers and the published models — never from the CSS:

  - cubicBezier (enter: `{motion.easing.standard}` = [0.2, 0, 0, 1] over `{motion.duration.long}` =
    0.4 s): the Bézier solved for x by bisection, `bezier_progress`;
  - UIKit duration-based spring (sheet: dampingRatio 0.8 over the token's 500 ms): UIKit's own
    derivation (docs/springs.md "UIKit duration-based springs", from decompiled UIKitCore): mass 1,
    ω found by 12 Newton steps from 5/T so that the sine term's envelope is 0.001 at T (v = 0: the
    closed form ω = ln(ζ / (0.001·√(1 − ζ²))) / (ζT)), stiffness ω², damping 2ζω; the curve reads
    exactly 1 from T on. (Not ω = 2π/T: that is the response spring with response T, whose progress
    at 0.1 s here is 0.40 where UIKit's is 0.61.);
  - response spring (bouncy: response 0.5, dampingRatio 0.6): ω = 2π / response, stiffness ω²,
    damping 4πζ / response. Its CSS duration is the settling duration (the token's 300 ms is replaced,
    rule 39), so `--motion-bouncy-duration` is parsed from the CSS and used only as the time scale.

Both springs: progress 1 − e^(−ζωt)·(cos(ω_d t) + (ζω/ω_d)·sin(ω_d t)), ω_d = ω·√(1 − ζ²).
The bound is the tolerance, 0.001 (absolute, in progress), plus 1e-6 for what Chromium rounds (a
single-precision translation printed with 6 significant digits: ≤ 5e-7 of the 1000 px). The matrix's
other entries must be the identity's, and each transition's `getComputedTiming().duration` the
token's duration.

Also checked (`tokens/page`): the page raised and logged nothing; `getAnimations()` holds exactly one
CSSTransition of `transform` per element; the text is one `:root` block then one `@supports not
(animation-timing-function: linear(0, 1))` block, every token's declarations preceded by its comment
`/* a.b.c: max error E with N stops */` (E ≤ the tolerance, N the number of stops of its `linear()`,
0 for an exact easing), a `-duration`, `-easing` and shorthand for each motion token with both;
in the CSSOM the `:root` rule keeps every declaration with its value, and the `@supports` block is a
CSSSupportsRule with that condition holding one `:root` style rule whose `-easing` properties are
exactly the `linear()` easings of the main block, each a `cubic-bezier(` value `CSS.supports()`
accepts as `transition-timing-function` (and the shorthands likewise); and
`getComputedStyle(document.documentElement).getPropertyValue('--motion-sheet-duration')` is `500ms`
(the other durations as the document gives them).

The page, paused at PICTURE_MS, is kept as tokens.png (run.py's SCREENSHOT_CASES): each element on a
0 … 1000 px track, labelled, its centre marked below it (dark) and where this file expects that
centre above it (red).
"""

from __future__ import annotations

import json
import math
import os
import re

TOLERANCE = 0.001
ROUNDING = 1e-6       # Chromium's single-precision, 6-digit transform, in progress units
SCALE = 1000.0        # progress is read as translateX over 0 … 1000 px
CHECK_FRACTIONS = [0.0, 0.002, 0.04, 0.1, 0.17, 0.25, 0.35, 0.5, 0.62, 0.75, 0.9, 0.998]
PICTURE_MS = 120.0    # the screenshot's paused time, the same for every element

TOKENS_DOCUMENT = {"motion": {
    "duration": {"$type": "duration", "long": {"$value": "0.4s"}},
    "easing": {"$type": "cubicBezier", "standard": {"$value": [0.2, 0, 0, 1]}},
    "enter": {"$type": "transition", "$value": {"duration": "{motion.duration.long}",
                                                 "timingFunction": "{motion.easing.standard}"}},
    "sheet": {"$type": "transition",
              "$value": {"duration": {"value": 500, "unit": "ms"}, "timingFunction": [0.2, 0, 0, 1]},
              "$extensions": {"dev.segue": {"timing": {"type": "spring", "dampingRatio": 0.8}}}},
    "bouncy": {"$type": "duration", "$value": "300ms",
               "$extensions": {"dev.segue": {"timing": {"type": "spring", "response": 0.5, "dampingRatio": 0.6}}}},
}}

# The motion tokens with an easing and a duration, each played by one element: path, the model.
TOKEN_ELEMENTS = ["motion.enter", "motion.sheet", "motion.bouncy"]
# Every token the CSS names (path -> which of -duration / -easing / shorthand it has).
TOKEN_DECLARATIONS = {
    "motion.duration.long": ("duration",),
    "motion.easing.standard": ("easing",),
    "motion.enter": ("easing", "duration", ""),
    "motion.sheet": ("easing", "duration", ""),
    "motion.bouncy": ("easing", "duration", ""),
}
SUPPORTS_CONDITION = "not (animation-timing-function: linear(0, 1))"


# --------------------------------------------------------------------------------------------
# The models, from the document's numbers


def bezier_progress(x1, y1, x2, y2, x):
    """cubic-bezier(x1, y1, x2, y2) at input x in [0, 1]: the parameter s with X(s) = x by bisection
    (X is monotone for x1, x2 in [0, 1]), then Y(s)."""
    def coord(p1, p2, s):
        return 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s ** 2 * p2 + s ** 3
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if coord(x1, x2, mid) < x:
            lo = mid
        else:
            hi = mid
    return coord(y1, y2, (lo + hi) / 2)


def underdamped(zeta, omega, t):
    """A unit spring from rest (mass 1, stiffness ω², damping 2ζω, ζ < 1) at t ≥ 0."""
    if t <= 0:
        return 0.0
    wd = omega * math.sqrt(1 - zeta * zeta)
    return 1 - math.exp(-zeta * omega * t) * (math.cos(wd * t) + zeta * omega / wd * math.sin(wd * t))


def uikit_omega(zeta, duration, epsilon=0.001):
    """UIKit's duration-based spring (initial velocity 0): 12 Newton steps from ω = 5/T on
    f(ω) = ε − g·e^(−ζωT), g = ζ/√(1 − ζ²), no convergence test (docs/springs.md)."""
    zeta = min(max(zeta, 1.1920929e-07), 1.0)
    duration = min(max(duration, 0.01), 10.0)
    g = zeta / math.sqrt(1 - zeta * zeta)
    w = 5 / duration
    for _ in range(12):
        e = math.exp(-zeta * w * duration)
        f = epsilon - g * e
        df = g * zeta * duration * e
        w -= f / df
    closed = math.log(zeta / (epsilon * math.sqrt(1 - zeta * zeta))) / (zeta * duration)
    if abs(w - closed) > 1e-9 * closed:   # v = 0: Newton must land on the closed form
        raise ValueError(f"UIKit ω: Newton {w} vs closed form {closed}")
    return w


def uikit_progress(zeta, duration, t):
    """Reads exactly 1 from the duration on (the animation ends and the model value shows)."""
    return 1.0 if t >= duration else underdamped(zeta, uikit_omega(zeta, duration), t)


def response_progress(response, zeta, t):
    return underdamped(zeta, 2 * math.pi / response, t)


def seconds(text):
    m = re.fullmatch(r"([0-9.]+)(ms|s)", text)
    return float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)


def models(css_text):
    """token path -> (duration in ms, progress(t in s)), from TOKENS_DOCUMENT — the bouncy spring's
    time scale alone from the CSS (`--motion-bouncy-duration`)."""
    m = TOKENS_DOCUMENT["motion"]
    enter_ms = seconds(m["duration"]["long"]["$value"]) * 1000          # via {motion.duration.long}
    enter_bezier = m["easing"]["standard"]["$value"]                   # via {motion.easing.standard}
    sheet_d = m["sheet"]["$value"]["duration"]
    sheet_ms = sheet_d["value"] * (1 if sheet_d["unit"] == "ms" else 1000)
    sheet_zeta = m["sheet"]["$extensions"]["dev.segue"]["timing"]["dampingRatio"]
    bouncy = m["bouncy"]["$extensions"]["dev.segue"]["timing"]
    found = re.search(rf"--motion-bouncy-duration:\s*({NUMBER})ms;", css_text)
    if not found:
        raise ValueError("no `--motion-bouncy-duration: <n>ms;` in the CSS")
    bouncy_ms = float(found.group(1))
    return {
        "motion.enter": (enter_ms, lambda t: bezier_progress(*enter_bezier, t / (enter_ms / 1000))),
        "motion.sheet": (sheet_ms, lambda t: uikit_progress(sheet_zeta, sheet_ms / 1000, t)),
        "motion.bouncy": (bouncy_ms, lambda t: response_progress(bouncy["response"], bouncy["dampingRatio"], t)),
    }


# --------------------------------------------------------------------------------------------
# The page


NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"

PAGE_SCRIPT = r"""
const SPEC = JSON.parse(document.getElementById('spec').textContent);
const out = {errors: [], console: [], animations: [], readings: {}, rootRules: [], supports: [], otherRules: [],
             fallbackSupported: {}, durations: {}};
window.addEventListener('error', e => out.errors.push(String(e.message) + ' @' + e.lineno));
window.addEventListener('unhandledrejection', e => out.errors.push('unhandled rejection: ' + String(e.reason)));
for (const level of ['error', 'warn', 'log', 'info']) {
  const original = console[level].bind(console);
  console[level] = (...args) => { out.console.push(level + ': ' + args.map(String).join(' ')); original(...args); };
}
function declarations(style) {
  const d = {};
  for (let i = 0; i < style.length; i++) d[style[i]] = style.getPropertyValue(style[i]);
  return d;
}
function reading(el) {
  let typed = null;
  try {
    const v = el.computedStyleMap().get('transform');
    if (v instanceof CSSTransformValue) { const m = v.toMatrix(); typed = [m.a, m.b, m.c, m.d, m.e, m.f]; }
    else typed = 'not a CSSTransformValue: ' + String(v);
  } catch (e) { typed = 'error: ' + e; }
  return {string: getComputedStyle(el).transform, typed};
}
function run() {
  // The stylesheet as Chromium parsed it.
  for (const rule of document.getElementById('export').sheet.cssRules) {
    if (rule instanceof CSSSupportsRule) {
      out.supports.push({condition: rule.conditionText, rules: [...rule.cssRules].map(r => (
        r instanceof CSSStyleRule ? {selector: r.selectorText, declarations: declarations(r.style)} : {other: r.cssText}))});
    } else if (rule instanceof CSSStyleRule && rule.selectorText === ':root') {
      out.rootRules.push(declarations(rule.style));
    } else {
      out.otherRules.push(rule.cssText);
    }
  }
  for (const s of out.supports) for (const r of s.rules) for (const [name, value] of Object.entries(r.declarations || {}))
    out.fallbackSupported[name] = CSS.supports('transition-timing-function', value.trim())
                                  || CSS.supports('transition', 'transform ' + value.trim());
  const root = getComputedStyle(document.documentElement);
  for (const name of SPEC.durationProperties) out.durations[name] = root.getPropertyValue(name);
  // Start one transition per element: the before-change style flushed, then the new transform.
  const els = SPEC.elements.map(e => document.getElementById(e.id));
  for (const el of els) getComputedStyle(el).transform;
  for (const el of els) el.style.transform = 'translateX(' + SPEC.scale + 'px)';
  for (const el of els) getComputedStyle(el).transform;
  const anims = document.getAnimations();
  for (const a of anims) a.pause();
  for (const a of anims) {
    out.animations.push({type: a.constructor.name, target: a.effect && a.effect.target ? a.effect.target.id : null,
                         property: a.transitionProperty || null, duration: a.effect.getComputedTiming().duration});
  }
  for (const e of SPEC.elements) {
    const el = document.getElementById(e.id);
    const mine = anims.filter(a => a.effect && a.effect.target === el);
    out.readings[e.id] = [];
    if (mine.length !== 1) continue;
    for (const ms of e.times) {
      mine[0].currentTime = ms;
      out.readings[e.id].push({time: mine[0].currentTime, ...reading(el)});
    }
  }
  // The state the screenshot shows.
  for (const a of anims) a.currentTime = SPEC.pictureTime;
}
try { run(); } catch (e) { out.errors.push('page script: ' + e + ' ' + (e.stack || '')); }
document.getElementById('out').textContent = JSON.stringify(out);
"""

PAGE_STYLE = """
body { margin: 0; font: 13px sans-serif; background: #fafafa; }
h1 { font-size: 14px; margin: 6px 10px; }
.track { position: relative; margin: 18px 0 0 20px; width: 1000px; height: 44px;
         border-left: 1px solid #999; border-right: 1px solid #999;
         background: linear-gradient(#ccc, #ccc) 0 50% / 100% 1px no-repeat; }
.track > .name { position: absolute; left: 4px; top: -16px; color: #444; font-size: 12px; }
.token { position: absolute; left: -60px; top: 10px; width: 120px; height: 24px; line-height: 24px;
         text-align: center; background: rgba(40, 110, 220, 0.85); color: white; border-radius: 4px;
         font-size: 11px; transform: translateX(0); }
.token::after { content: ''; position: absolute; left: 59px; top: 24px; width: 2px; height: 12px; background: #036; }
.expected { position: absolute; top: -2px; width: 2px; height: 12px; margin-left: -1px; background: #d22; }
.scale { margin: 4px 0 0 20px; width: 1000px; display: flex; justify-content: space-between; color: #777; font-size: 11px; }
"""


def page_html(title, css_text, spec, rows):
    def esc(s):
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    tracks = "\n".join(
        f"<div class=\"track\"><span class=\"name\">{esc(label)}</span>"
        f"<div class=\"expected\" style=\"left: {x:.3f}px\" title=\"expected at {PICTURE_MS:g} ms\"></div>"
        f"<div class=\"token\" id=\"{el_id}\" style=\"transition: transform var({var})\">{esc(path)}</div></div>"
        for el_id, var, path, label, x in rows)
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title>\n"
            "<style>" + PAGE_STYLE + "</style>\n"
            "<style id=\"export\">\n" + css_text.replace("</", "<\\/") + "</style>\n"
            "</head><body>\n<h1>" + esc(title) + "</h1>\n" + tracks + "\n"
            "<div class=\"scale\"><span>0</span><span>0.25</span><span>0.5</span><span>0.75</span><span>1</span></div>\n"
            "<script type=\"application/json\" id=\"spec\">" + json.dumps(spec).replace("</", "<\\/") + "</script>\n"
            "<pre id=\"out\" hidden></pre>\n<script>" + PAGE_SCRIPT + "</script>\n</body></html>\n")


# --------------------------------------------------------------------------------------------
# The CSS text


def var_name(path):
    return "--" + path.replace(".", "-")


def root_blocks(css_text):
    """(the main `:root` block's body, the @supports condition, the @supports `:root` body), or a
    problem string."""
    text = css_text.strip()
    m = re.fullmatch(r":root \{\n(.*?)\n\}\n@supports ([^{]*?) \{\n  :root \{\n(.*?)\n  \}\n\}", text, re.S)
    if not m:
        return f"not one `:root {{…}}` block then one `@supports … {{ :root {{…}} }}` block: {text[:200]!r}…"
    return m.group(1), m.group(2), m.group(3)


def parse_root(body):
    """The main block's tokens, in order: [(path, comment, {property: value})]; declarations before
    any comment go under path None."""
    tokens = []
    for line in body.splitlines():
        line = line.strip()
        c = re.fullmatch(r"/\* ([\w.-]+)(?:: (.*?))? \*/", line)
        if c:
            tokens.append((c.group(1), c.group(2), {}))
            continue
        d = re.fullmatch(r"(--[\w-]+):\s*(.*);", line)
        if d and tokens:
            tokens[-1][2][d.group(1)] = d.group(2)
        elif line:
            tokens.append((None, line, {}))
    return tokens


def declared(body):
    return dict(re.findall(r"(--[\w-]+):\s*([^;]*);", body))


def stops(easing):
    m = re.fullmatch(r"linear\((.*)\)", easing)
    return len(m.group(1).split(",")) if m else 0


def check_text(res, css_text):
    """The comments, names and blocks of the answer; returns (main block, @supports block) or None."""
    blocks = root_blocks(css_text)
    if isinstance(blocks, str):
        res.fail(f"tokens: {blocks}")
        return None
    main, condition, fallback = blocks
    if condition != f"({SUPPORTS_CONDITION})" and condition != SUPPORTS_CONDITION:
        res.fail(f"tokens: the @supports condition is {condition!r}, expected {SUPPORTS_CONDITION!r}")
    tokens = parse_root(main)
    paths = [p for p, _, _ in tokens]
    if paths != list(TOKEN_DECLARATIONS):
        res.fail(f"tokens: the :root block's tokens {paths}, expected {list(TOKEN_DECLARATIONS)} (document order)")
    for path, comment, decls in tokens:
        if path not in TOKEN_DECLARATIONS:
            continue
        want = {var_name(path) + (f"-{k}" if k else "") for k in TOKEN_DECLARATIONS[path]}
        if set(decls) != want:
            res.fail(f"tokens: {path} declares {sorted(decls)}, expected {sorted(want)}")
        easing = decls.get(var_name(path) + "-easing")
        if easing is None:
            continue
        m = re.match(rf"max error ({NUMBER}) with (\d+) stops", comment or "")
        if not m:
            res.fail(f"tokens: {path}'s comment is {comment!r}, expected `max error E with N stops`")
            continue
        if float(m.group(1)) > TOLERANCE:
            res.fail(f"tokens: {path} states max error {m.group(1)} > tolerance {TOLERANCE}")
        if int(m.group(2)) != stops(easing):
            res.fail(f"tokens: {path} states {m.group(2)} stops, its easing has {stops(easing)}: {easing[:80]}")
        duration = decls.get(var_name(path) + "-duration")
        shorthand = decls.get(var_name(path))
        if duration is not None and shorthand != f"{duration} {easing}":
            res.fail(f"tokens: {path}: the shorthand {shorthand[:80]!r} is not `<duration> <easing>` "
                     f"({duration} {easing[:40]}…)")
    return main, fallback


# --------------------------------------------------------------------------------------------
# The case


def run_case(suite, server, results):
    """`suite` is run.py's module (its Chromium runner, Result, TestFailure and the artefacts dir).
    Returns the page's path, for the screenshot."""
    name = "tokens"
    css_text = server.fetch("/v1/tokens", TOKENS_DOCUMENT, "text/css")
    try:
        expected = models(css_text)
    except ValueError as e:
        raise suite.TestFailure(f"{name}: {e}")
    elements = []
    rows = []
    for n, path in enumerate(TOKEN_ELEMENTS):
        duration_ms, progress = expected[path]
        el_id = f"token-{n}"
        fractions = sorted(set(CHECK_FRACTIONS) | set(suite.check_times(1.0, f"{name}/{path}")))
        elements.append({"id": el_id, "path": path, "times": [f * duration_ms for f in fractions]})
        x = SCALE * (1.0 if PICTURE_MS >= duration_ms else progress(PICTURE_MS / 1000))
        rows.append((el_id, var_name(path), path,
                     f"{path}: transition: transform var({var_name(path)}) — {duration_ms:g} ms", x))
    duration_props = [var_name(p) + "-duration" for p, kinds in TOKEN_DECLARATIONS.items() if "duration" in kinds]
    spec = {"elements": elements, "scale": SCALE, "pictureTime": PICTURE_MS, "durationProperties": duration_props}
    title = (f"POST /v1/tokens: each element's transition paused at {PICTURE_MS:g} ms "
             f"(centre: dark tick below, expected: red tick above)")
    page = os.path.join(suite.ARTEFACTS, f"{name}.html")
    with open(page, "w") as f:
        f.write(page_html(title, css_text, spec, rows))
    dom, console, _ = suite.run_chromium(page, window=(1100, 300))
    out = suite.page_output(dom, page)

    res = suite.Result(f"{name}/page")
    for e in out.get("errors", []):
        res.fail(f"{name}: page error: {e}")
    for c in out.get("console", []):
        res.fail(f"{name}: page console: {c}")
    for c in console:
        res.fail(f"{name}: Chromium console line from the page: {c.strip()[:300]}")
    blocks = check_text(res, css_text)
    if blocks is not None:
        check_cssom(res, name, out, *blocks)
    check_durations(res, name, out, expected)
    anims = out.get("animations", [])
    targets = sorted(a["target"] or "" for a in anims)
    if sorted(e["id"] for e in elements) != targets:
        res.fail(f"{name}: document.getAnimations() targets {targets}, expected one per element")
    for a in anims:
        if a["type"] != "CSSTransition" or a["property"] != "transform":
            res.fail(f"{name}: an animation {a['type']} of {a['property']!r} on {a['target']}, expected a "
                     f"CSSTransition of 'transform'")
    results.append(res)

    for e in elements:
        duration_ms, progress = expected[e["path"]]
        r = suite.Result(f"{name}/{e['path']}")
        timing = next((a["duration"] for a in anims if a["target"] == e["id"]), None)
        if timing is None or abs(timing - duration_ms) > 1e-9 * duration_ms:
            r.fail(f"{name}: {e['path']}: the transition's duration is {timing} ms, the token's {duration_ms:g} ms")
        readings = out.get("readings", {}).get(e["id"], [])
        if len(readings) != len(e["times"]):
            r.fail(f"{name}: {e['path']}: {len(readings)} readings for {len(e['times'])} times")
        for ms, reading in zip(e["times"], readings):
            if abs(reading["time"] - ms) > 1e-9 * max(1.0, ms):
                r.fail(f"{name}: {e['path']}: currentTime read back {reading['time']} for {ms} ms")
            want = progress(ms / 1000)
            compare_reading(r, e["path"], ms, reading, want)
        results.append(r)
    return page


def compare_reading(r, path, ms, reading, want):
    """x / 1000 of both readings against the expected progress, the other entries the identity's."""
    m = re.fullmatch(r"matrix\(([^)]*)\)", reading["string"] or "")
    parts = [float(p) for p in m.group(1).split(",")] if m else None
    got = {"string": parts if parts and len(parts) == 6 else None,
           "typed": reading["typed"] if isinstance(reading["typed"], list) else None}
    for source, matrix in got.items():
        if matrix is None:
            r.fail(f"tokens: {path} at {ms:g} ms: {source} reading {reading[source]!r} is not a 2-D matrix")
            continue
        if any(abs(v - i) > 1e-6 for v, i in zip(matrix[:4] + matrix[5:], [1, 0, 0, 1, 0])):
            r.fail(f"tokens: {path} at {ms:g} ms: {source} matrix {matrix} is not a translateX")
        x = matrix[4] / SCALE
        err = abs(x - want)
        bound = TOLERANCE + ROUNDING
        r.note(source, err / bound, f"|diff| {err:.2g} at {ms:.6g} ms")
        if not err <= bound:
            r.fail(f"tokens: {path} at {ms:.6g} ms ({source} {reading[source]!r}): browser progress {x:.9g}, "
                   f"expected {want:.9g}, |diff| {err:.3g} > {TOLERANCE} + {ROUNDING:g}")


def check_cssom(res, name, out, main, fallback):
    """The :root rule kept every declaration with its value; the @supports block is a CSSSupportsRule
    holding one :root rule that redefines exactly the linear() easings (and their shorthands) as
    cubic-bezier() values Chromium accepts."""
    def norm(s):
        return re.sub(r"\s+", " ", s).strip()
    roots, supports = out.get("rootRules", []), out.get("supports", [])
    if len(roots) != 1 or len(supports) != 1 or out.get("otherRules"):
        res.fail(f"{name}: CSSOM: {len(roots)} :root rules, {len(supports)} @supports rules, other rules "
                 f"{out.get('otherRules')}; expected one of each")
        return
    want = declared(main)
    kept = roots[0]
    if set(kept) != set(want):
        res.fail(f"{name}: the :root rule kept {sorted(kept)}, the CSS declares {sorted(want)}")
    for prop, value in want.items():
        if prop in kept and norm(kept[prop]) != norm(value):
            res.fail(f"{name}: :root {prop}: CSSOM {kept[prop][:80]!r}, the CSS {value[:80]!r}")
    s = supports[0]
    if norm(s["condition"]) != SUPPORTS_CONDITION:
        res.fail(f"{name}: the CSSSupportsRule's conditionText is {s['condition']!r}")
    inner = [r for r in s["rules"] if r.get("selector") == ":root"]
    if len(inner) != 1 or len(s["rules"]) != 1:
        res.fail(f"{name}: the @supports block holds {s['rules']}, expected one :root rule")
        return
    decls = inner[0]["declarations"]
    linear = {p for p, v in want.items() if p.endswith("-easing") and v.startswith("linear(")}
    easings = {p for p in decls if p.endswith("-easing")}
    if easings != linear or not linear:
        res.fail(f"{name}: the @supports :root redefines {sorted(easings)}, the linear() easings are {sorted(linear)}")
    for p in easings:
        if not decls[p].strip().startswith("cubic-bezier("):
            res.fail(f"{name}: @supports {p}: {decls[p]!r} is not a cubic-bezier()")
        short = p[: -len("-easing")]
        if norm(decls.get(short, "")) != norm(f"{want.get(short + '-duration', '?')} {decls[p]}"):
            res.fail(f"{name}: @supports {short}: {decls.get(short)!r}, expected `<duration> {decls[p]}`")
    if set(decls) != easings | {p[: -len("-easing")] for p in easings}:
        res.fail(f"{name}: the @supports :root declares {sorted(decls)}")
    if norm(fallback) and set(declared(fallback)) != set(decls):
        res.fail(f"{name}: the @supports text declares {sorted(declared(fallback))}, CSSOM kept {sorted(decls)}")
    for p, ok in out.get("fallbackSupported", {}).items():
        if not ok:
            res.fail(f"{name}: @supports {p}: CSS.supports() refuses {decls.get(p)!r}")


def check_durations(res, name, out, expected):
    """getComputedStyle(:root) gives each `-duration` as the document gives it (`--motion-sheet-duration`
    exactly `500ms`), the settling spring's as the CSS's own time scale."""
    got = out.get("durations", {})
    bouncy_ms = expected["motion.bouncy"][0]
    want = {"--motion-duration-long-duration": "400ms", "--motion-enter-duration": "400ms",
            "--motion-sheet-duration": "500ms", "--motion-bouncy-duration": f"{bouncy_ms!r}ms"}
    for prop, value in want.items():
        v = got.get(prop) or ""
        if prop == "--motion-bouncy-duration" and re.fullmatch(rf"{NUMBER}ms", v):
            ok = abs(float(v[:-2]) - bouncy_ms) <= 1e-9 * bouncy_ms
        else:
            ok = v == value
        if not ok:
            res.fail(f"{name}: getComputedStyle(:root).getPropertyValue({prop!r}) is {got.get(prop)!r}, "
                     f"expected {value!r}")
