"use strict";
// The Segue playground, served at GET / (docs/playground.md). Plain DOM, no dependencies, no build
// step; every number it shows is the server's. The JSON frames play through requestAnimationFrame,
// and beside them the CSS export drives elements of its own (`data-segue`), both on one clock, so
// any difference between the two shows.

const CONTAINER = [0, 0, 320, 480];  // the presets' container: an iPhone-sized screen in points
const FPS = 60;                      // frames per second asked of the JSON the page plays
const CURVE_TRACK = 280;             // px a curve's dot travels from progress 0 to progress 1
const DOT = 24;                      // px, a curve's dot (playground.css `.dot`)
const HOLD = 0.6;                    // s the loop rests on the last frame before it starts again
const DEBOUNCE_MS = 350;             // quiet time after an edit before the request is sent
const STAGE_HEIGHT = 380;            // px, the most a stage takes on screen (it is scaled to fit)
const OVERSHOOT = 0.15;              // of the stage's height: the margin shown above and below it
/** The engines `compare` plays a spring in (docs/springs.md "Compare mode"), each with its colour
 *  on the plot (none of them the export's progress blue or velocity orange). */
const ENGINES = [["webkit", "#7b3fb3"], ["pop", "#1e9e4a"], ["rebound", "#d81b60"], ["motion", "#0097a7"],
                 ["android", "#8d6e63"], ["objcio", "#c9a100"]];
/** SwiftUI's named springs, the CSS easing strings that are springs (rule 46). */
const SPRING_NAMES = /^\s*(smooth|snappy|bouncy)\b/;

/** Timing curves to start from, beside the server's transition presets. */
const CURVES = [
  ["UIKit spring, damping ratio 0.5", { timing: { type: "spring", dampingRatio: 0.5, initialVelocity: 0 }, duration: 0.8 }],
  ["Spring: mass, stiffness, damping", { timing: { type: "spring", mass: 1, stiffness: 170, damping: 15 } }],
  ["ease-in-out", { timing: "ease-in-out", duration: 0.6 }],
  ["Overshooting cubic Bézier", { timing: "cubic-bezier(0.3, -0.4, 0.6, 1.5)", duration: 0.8 }],
  ["steps(4, jump-both)", { timing: "steps(4, jump-both)", duration: 0.8 }],
];

const $ = (id) => document.getElementById(id);
const ui = {
  preset: $("preset"), tolerance: $("tolerance"), share: $("share"), editor: $("editor"), problem: $("problem"),
  status: $("status"), jsonStage: $("json-stage"), cssStage: $("css-stage"), play: $("play"), scrub: $("scrub"),
  time: $("time"), plot: $("plot"), cssText: $("css-text"), waapiText: $("waapi-text"),
  copyCSS: $("copy-css"), copyWAAPI: $("copy-waapi"), copied: $("copied"),
  compare: $("compare"), compareLabel: $("compare-label"), analysis: $("analysis"), engines: $("engines"),
};

let presets = [];        // GET /v1/presets
let motion = null;       // what plays: { duration, times, order, views: [{ json, channels }], animations }
let exports = { css: "", waapi: "" };
let inFlight = null;     // the AbortController of the requests under way
let debounce = 0;
const exportSheet = new CSSStyleSheet();
const clock = { playing: true, t: 0, origin: 0 };

// ---------------------------------------------------------------------------------------------
// The request text: a JSON reader that says where each value is, for pointers and syntax errors

class SyntaxFault extends Error {
  constructor(message, at) { super(message); this.at = at; }
}

/** The RFC 6901 reference token of a member name. */
const pointerToken = (name) => name.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Checks `text` as RFC 8259 JSON and maps the JSON Pointer of every value to its [start, end)
 * offsets in the text. Throws a SyntaxFault at the first fault, with its offset.
 */
function locate(text) {
  const spans = new Map();
  const literal = { t: "true", f: "false", n: "null" };
  let i = 0;
  const fail = (message) => { throw new SyntaxFault(message, i); };
  const space = () => { while (" \t\n\r".includes(text[i]) && i < text.length) i++; };
  const match = (pattern, what) => {
    pattern.lastIndex = i;
    const found = pattern.exec(text);
    if (!found) fail(`not a valid ${what}`);
    i = pattern.lastIndex;
    return found[0];
  };
  const expect = (char, message) => { space(); if (text[i] !== char) fail(message); i++; };
  const members = (pointer, close, readOne) => {
    space();
    if (text[i] === close) { i++; return; }
    for (let index = 0; ; index++) {
      readOne(index);
      space();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === close) { i++; return; }
      fail(`expected \`,\` or \`${close}\``);
    }
  };
  const value = (pointer) => {
    space();
    const start = i, c = text[i];
    if (c === undefined) fail("the text ends where a value should be");
    if (c === "{") {
      i++;
      members(pointer, "}", () => {
        space();
        if (text[i] !== '"') fail("expected a member name in double quotes");
        const name = JSON.parse(match(/"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y, "string"));
        expect(":", "expected `:` after the member name");
        value(pointer + "/" + pointerToken(name));
      });
    } else if (c === "[") {
      i++;
      members(pointer, "]", (index) => value(pointer + "/" + index));
    } else if (c === '"') {
      match(/"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y, "string");
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      match(/-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y, "number");
    } else if (literal[c] && text.startsWith(literal[c], i)) {
      i += literal[c].length;
    } else {
      fail(`unexpected ${JSON.stringify(c)}`);
    }
    spans.set(pointer, [start, i]);
  };
  value("");
  space();
  if (i < text.length) fail("unexpected text after the JSON value");
  return spans;
}

/** The span of `pointer`, or of its nearest ancestor that is in the text (a missing member). */
function spanOf(spans, pointer) {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf("/"))) {
    if (spans.has(p)) return spans.get(p);
    if (p === "") return [0, 0];
  }
}

/** JSON with arrays of numbers, strings and booleans on one line, everything else indented. */
function pretty(value, indent = "") {
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
    return `[\n${value.map((v) => indent + "  " + pretty(v, indent + "  ")).join(",\n")}\n${indent}]`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${indent}  ${JSON.stringify(k)}: ${pretty(v, indent + "  ")}`);
    return entries.length ? `{\n${entries.join(",\n")}\n${indent}}` : "{}";
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Problems: a syntax fault, or the server's problem+json, shown at its place in the text

function lineAndColumn(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** A compiler-style excerpt: the line of `span` with the span marked. */
function excerpt(text, [start, end]) {
  const { line, column } = lineAndColumn(text, start);
  const lineStart = start - column + 1;
  const lineEnd = text.indexOf("\n", lineStart) < 0 ? text.length : text.indexOf("\n", lineStart);
  const markEnd = Math.min(Math.max(end, start + 1), lineEnd);
  const pre = document.createElement("pre");
  const mark = document.createElement("mark");
  mark.textContent = text.slice(start, markEnd) || " ";
  pre.append(`${String(line).padStart(4)} | ${text.slice(lineStart, start)}`, mark, text.slice(markEnd, lineEnd));
  pre.title = "Select it in the editor";
  pre.addEventListener("click", () => { ui.editor.focus(); ui.editor.setSelectionRange(start, end); });
  return { pre, line, column };
}

/** Shows a problem: heading, where (pointer and line:column), an excerpt, and the detail. */
function showProblem({ heading, detail, pointer, span, parameter }) {
  const text = ui.editor.value;
  const h = document.createElement("h2");
  h.textContent = heading;
  const parts = [h];
  ui.editor.setAttribute("aria-invalid", String(span !== undefined));
  ui.tolerance.setAttribute("aria-invalid", String(parameter === "tolerance"));
  if (span !== undefined) {
    const { pre, line, column } = excerpt(text, span);
    const where = document.createElement("p");
    where.className = "where";
    where.textContent = (pointer !== undefined ? `at ${pointer || "the whole request"} · ` : "") + `line ${line}, column ${column}`;
    parts.push(where, pre);
  } else if (parameter) {
    const where = document.createElement("p");
    where.className = "where";
    where.textContent = `query parameter ${parameter}`;
    parts.push(where);
  }
  if (detail) {
    const p = document.createElement("p");
    p.textContent = detail;
    parts.push(p);
  }
  ui.problem.replaceChildren(...parts);
  ui.problem.hidden = false;
}

function clearProblem() {
  ui.problem.hidden = true;
  ui.problem.replaceChildren();
  ui.editor.setAttribute("aria-invalid", "false");
  ui.tolerance.setAttribute("aria-invalid", "false");
}

/** An answer other than 2xx, its body read as problem+json when it is one. */
class ServerProblem extends Error {
  constructor(status, body) {
    let problem;
    try { problem = JSON.parse(body); } catch { problem = null; }
    super(problem?.detail ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem && typeof problem === "object" ? problem : { title: `HTTP ${status}`, detail: body.slice(0, 300) };
  }
}

/** The page's state in `data-status` (loading, ready, invalid, problem); `data-settled` counts the
 *  requests the page has finished with, so a test can wait for the next one (docs/playground.md). */
function setStatus(status, message) {
  document.body.dataset.status = status;
  if (status !== "loading") {
    document.body.dataset.settled = String(Number(document.body.dataset.settled ?? 0) + 1);
    performance.mark("segue-settled");  // User Timing: `make bench` reads the first one
  }
  ui.status.textContent = message;
}

// ---------------------------------------------------------------------------------------------
// Requests

async function post(route, format, body, signal) {
  const query = new URLSearchParams({ format, tolerance: ui.tolerance.value.trim() });
  const response = await fetch(`/v1/${route}?${query}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body, signal,
  });
  const text = await response.text();
  if (!response.ok) throw new ServerProblem(response.status, text);
  return text;
}

/** A curve request has a top-level `timing` and neither `views` nor `transition`. */
const routeOf = (request) =>
  request && typeof request === "object" && "timing" in request && !("views" in request) && !("transition" in request)
    ? "curve" : "render";

/** Whether a timing is a spring, which `compare` can play: a `spring` object, or a SwiftUI
 *  named spring; an explicitly undamped one (damping 0) is left out, as the server refuses it. */
function isSpring(timing) {
  if (typeof timing === "string") return SPRING_NAMES.test(timing);
  if (!timing || typeof timing !== "object" || timing.type !== "spring") return false;
  return timing.damping !== 0 && timing.dampingRatio !== 0;
}

/** The body the JSON is asked with, for a curve: the editor's text with `"analysis": true` and,
 *  when the compare toggle is on and the timing is a spring, `compare` with every engine, added as
 *  members at the end of the text, so that every value keeps its place (and its pointer) and the
 *  editor keeps what the person wrote. A member the request has already is left as written. The
 *  other formats are asked with the text itself: both are JSON-only (rule 32, rule 35). */
function jsonBody(route, request, text) {
  if (route !== "curve") return { body: text, comparing: false };
  const extra = [];
  if (!("analysis" in request)) extra.push('"analysis": true');
  const comparing = "compare" in request || (ui.compare.checked && isSpring(request.timing));
  if (comparing && !("compare" in request)) extra.push(`"compare": ${JSON.stringify(ENGINES.map(([name]) => name))}`);
  if (!extra.length) return { body: text, comparing };
  const head = text.slice(0, text.lastIndexOf("}")).trimEnd();
  return { body: head + (head.endsWith("{") ? "" : ", ") + extra.join(", ") + text.slice(head.length), comparing };
}

/** The JSON answer; when the members the page added are what the server refuses (a 422 at
 *  `/analysis` or `/compare`, a 413 for their work), the plain request's answer with the refusal
 *  as a note. */
async function askJSON(route, text, body, signal) {
  try {
    return { text: await post(route, "json", body, signal) };
  } catch (error) {
    const pointer = error instanceof ServerProblem ? String(error.problem.pointer ?? "") : "";
    const added = body !== text && (/^\/(analysis|compare)(\/|$)/.test(pointer) || error.status === 413);
    if (!added) throw error;
    const plain = await post(route, "json", text, signal);
    return { text: plain, note: `Analysis not shown: ${error.status} ${error.problem.detail ?? error.problem.title ?? ""}` };
  }
}

/** Reads the editor; when it is JSON, asks for the frames and the exports and shows them. */
async function update() {
  clearTimeout(debounce);
  inFlight?.abort();
  const text = ui.editor.value;
  let spans;
  try {
    spans = locate(text);
  } catch (fault) {
    if (!(fault instanceof SyntaxFault)) throw fault;
    showProblem({ heading: "JSON syntax error", detail: fault.message, span: [fault.at, fault.at + 1] });
    setStatus("invalid", "Fix the JSON to send it.");
    return;
  }
  const request = JSON.parse(text);
  const route = routeOf(request);
  const canCompare = route === "curve" && isSpring(request.timing);
  ui.compare.disabled = !canCompare;
  ui.compareLabel.title = canCompare ? "Play this spring in six engines and overlay them on the exact curve"
    : "Compare plays a spring timing on /v1/curve";
  const { body, comparing } = jsonBody(route, request, text);
  const controller = new AbortController();
  inFlight = controller;
  setStatus("loading", `POST /v1/${route} …`);
  const started = performance.now();
  const answers = await Promise.allSettled([
    askJSON(route, text, body, controller.signal),
    ...["svg", "css", "waapi"].map((f) => post(route, f, text, controller.signal)),
  ]);
  if (controller.signal.aborted) return;
  const [json, svg, css, waapi] = answers;
  if (json.status === "rejected") {
    reportFailure(json.reason, spans);
    return;
  }
  clearProblem();
  saveToURL(text);
  const frames = JSON.parse(json.value.text);
  buildMotion(route, request, frames, css);
  showPlot(svg);
  showAnalysis(route === "curve" ? frames : null, comparing, json.value.note);
  showExports(css, waapi);
  const ms = Math.round(performance.now() - started);
  setStatus("ready", `POST /v1/${route}: JSON, SVG, CSS and WAAPI in ${ms} ms.`);
}

function reportFailure(reason, spans) {
  if (!(reason instanceof ServerProblem)) {
    showProblem({ heading: "The server could not be reached", detail: String(reason) });
    setStatus("problem", "");
    return;
  }
  const p = reason.problem;
  const pointer = typeof p.pointer === "string" ? p.pointer : undefined;
  showProblem({
    heading: `${reason.status} ${p.title ?? ""}`.trim(), detail: p.detail, pointer,
    span: pointer !== undefined ? spanOf(spans, pointer) : undefined, parameter: p.parameter,
  });
  setStatus("problem", "The server refused the request.");
}

// ---------------------------------------------------------------------------------------------
// Motion: the JSON side and the CSS side of the stage, on one clock

/** The rule 28 mapping of one view's channel values to CSS properties (as the CSS export maps them). */
function styleOf(ch) {
  const px = (v) => `${v}px`, unit = (v) => Math.min(Math.max(v, 0), 1);
  const s = {};
  if (ch.frame) {
    [s.left, s.top, s.width, s.height] = ch.frame.map(px);
  } else {
    if (ch.bounds) { s.width = px(ch.bounds[2]); s.height = px(ch.bounds[3]); }
    if (ch.center) {
      s.left = px(ch.center[0] - (ch.bounds ? ch.bounds[2] / 2 : 0));
      s.top = px(ch.center[1] - (ch.bounds ? ch.bounds[3] / 2 : 0));
    }
  }
  if (ch.alpha !== undefined) s.opacity = String(unit(ch.alpha));
  if (ch.transform) s.transform = `matrix(${ch.transform.join(", ")})`;
  if (ch.backgroundColor) {
    const [r, g, b, a] = ch.backgroundColor.map(unit);
    s.backgroundColor = `rgb(${r * 255} ${g * 255} ${b * 255} / ${a})`;
  }
  if (ch.cornerRadius !== undefined) s.borderRadius = px(Math.max(0, ch.cornerRadius));
  return s;
}

const mix = (a, b, f) => (Array.isArray(a) ? a.map((x, k) => x + (b[k] - x) * f) : a + (b - a) * f);

/** Index `k` into `order` and the fraction f with times[order[k]] ≤ t ≤ times[order[k + 1]]. */
function bracket(times, order, t) {
  let lo = 0, hi = order.length - 1;
  if (hi <= 0 || t <= times[order[0]]) return [0, 0];
  if (t >= times[order[hi]]) return [hi, 0];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[order[mid]] <= t) lo = mid; else hi = mid;
  }
  const t0 = times[order[lo]], t1 = times[order[lo + 1]];
  return [lo, t1 > t0 ? (t - t0) / (t1 - t0) : 0];
}

function makeView(stage, id, index, attribute, extraClass) {
  const view = document.createElement("div");
  view.className = "view" + (extraClass ? " " + extraClass : "");
  view.setAttribute(attribute, id);
  view.style.setProperty("--hue", String((210 + index * 67) % 360));
  const label = document.createElement("span");
  label.textContent = id;
  view.append(label);
  stage.append(view);
  return view;
}

/** The box the CSS export positions its views in: the export measures positions from the
 *  request's container's origin (docs/exports.md "Units"), so its elements go into a box placed at
 *  that origin on the stage, whose coordinates are the channels'. */
function containerBox(stage, request) {
  const container = request.transition?.container ?? request.container;
  const box = document.createElement("div");
  box.className = "container-box";
  if (Array.isArray(container) && container.length === 4) {
    box.style.left = `${container[0]}px`;
    box.style.top = `${container[1]}px`;
  }
  stage.append(box);
  return box;
}

/** The stage's size: the request's container, or every frame's rectangle with the origin. */
function stageSize(request, frames) {
  const container = request.transition?.container ?? request.container;
  if (Array.isArray(container) && container.length === 4 && container[2] > 0 && container[3] > 0) {
    return [container[0] + container[2], container[1] + container[3]];
  }
  let width = 1, height = 1;
  for (const channels of Object.values(frames.views)) {
    channels.frame?.forEach(([x, y, w, h]) => { width = Math.max(width, x + w); height = Math.max(height, y + h); });
    channels.center?.forEach(([x, y], k) => {
      const [w, h] = channels.bounds ? channels.bounds[k].slice(2) : [0, 0];
      width = Math.max(width, x + w / 2);
      height = Math.max(height, y + h / 2);
    });
  }
  return [width, height];
}

/** Empties both stages and gives them `size`, in the request's points. */
function sizeStages([width, height]) {
  for (const stage of [ui.jsonStage, ui.cssStage]) {
    stage.replaceChildren();
    stage.style.width = `${width}px`;
    stage.style.height = `${height}px`;
  }
  scaleStages();
}

/** Scales both stages down (or up to 1.5×) to fit their column and STAGE_HEIGHT, with a margin of
 *  OVERSHOOT × the stage's height above and below it, so that a spring's overshoot past the
 *  container's edge shows instead of being cut off. */
function scaleStages() {
  const width = parseFloat(ui.jsonStage.style.width), height = parseFloat(ui.jsonStage.style.height);
  const margin = OVERSHOOT * height;
  const room = ui.jsonStage.parentElement.clientWidth || width;
  const scale = Math.min(1.5, room / width, STAGE_HEIGHT / (height + 2 * margin));
  const left = Math.max(0, (room - width * scale) / 2);
  for (const stage of [ui.jsonStage, ui.cssStage]) {
    stage.style.transform = `translate(${left}px, ${margin * scale}px) scale(${scale})`;
    stage.parentElement.style.height = `${Math.ceil((height + 2 * margin) * scale)}px`;
  }
}

/** The easing function of a curve's CSS export: its one line that is not a comment. */
const easingOf = (css) => css.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("/*")).pop() ?? "linear";

function buildMotion(route, request, frames, css) {
  const times = frames.t;
  const order = times.map((_, k) => k).sort((a, b) => times[a] - times[b]);
  const duration = Math.max(0, times[order[order.length - 1]] ?? 0);
  const views = [];
  let sheet = css.status === "fulfilled" ? css.value : "";
  if (route === "curve") {
    sizeStages([CURVE_TRACK + DOT, DOT * 3]);
    const json = makeView(ui.jsonStage, "curve", 0, "data-view", "dot");
    makeView(ui.cssStage, "curve", 0, "data-segue", "dot");
    json.style.top = `${DOT}px`;
    views.push({ json, channels: { progress: frames.progress }, curve: true });
    sheet = sheet && `@keyframes segue-curve { from { left: 0px; } to { left: ${CURVE_TRACK}px; } }\n`
      + `[data-segue="curve"] { top: ${DOT}px; animation: segue-curve ${frames.duration}s ${easingOf(sheet)} both; }\n`;
  } else {
    sizeStages(stageSize(request, frames));
    // Colours by request order (the Lottie export's palette); the JSON side stacks its views as
    // the answer's `stacking` says, the CSS side by the export's own z-index (rule 40).
    const layer = new Map((frames.stacking ?? []).map((id, k) => [id, k]));
    const box = containerBox(ui.cssStage, request);
    Object.entries(frames.views).forEach(([id, channels], index) => {
      const json = makeView(ui.jsonStage, id, index, "data-view");
      json.style.zIndex = String(layer.get(id) ?? 0);
      views.push({ json, channels });
      makeView(box, id, index, "data-segue");
    });
  }
  try {
    exportSheet.replaceSync(sheet);
  } catch (error) {
    exportSheet.replaceSync("");
  }
  document.adoptedStyleSheets = [exportSheet];
  getComputedStyle(ui.cssStage.querySelector("[data-segue]") ?? ui.cssStage).opacity;  // starts the CSS animations now
  const animations = document.getAnimations();
  animations.forEach((a) => a.pause());
  motion = { duration, times, order, views, animations };
  ui.scrub.max = String(Math.round(duration * 1000));
  clock.origin = performance.now() - clock.t * 1000;
  show(Math.min(clock.t, duration));
}

/** Both sides at time t (s): the JSON frames interpolated, the CSS animations seeked. */
function show(t) {
  clock.t = t;
  if (motion) {
    const [k, f] = bracket(motion.times, motion.order, t);
    const i = motion.order[k], j = motion.order[Math.min(k + 1, motion.order.length - 1)];
    for (const { json, channels, curve } of motion.views) {
      if (curve) {
        json.style.left = `${mix(channels.progress[i], channels.progress[j], f) * CURVE_TRACK}px`;
        continue;
      }
      const values = {};
      for (const [name, series] of Object.entries(channels)) values[name] = mix(series[i], series[j], f);
      Object.assign(json.style, styleOf(values));
      for (const [name, v] of Object.entries(values)) {
        if (!(name in styleNames)) setCustom(json, name, v);
      }
    }
    for (const animation of motion.animations) animation.currentTime = t * 1000;
  }
  ui.scrub.value = String(Math.round(t * 1000));
  ui.time.value = `${t.toFixed(3)} s`;
}

const styleNames = { frame: 1, center: 1, bounds: 1, alpha: 1, transform: 1, backgroundColor: 1, cornerRadius: 1 };

/** A custom channel as the export names it: `--c`, or `--c-0`, `--c-1`, … for a vector. */
function setCustom(element, name, value) {
  if (Array.isArray(value)) value.forEach((v, k) => element.style.setProperty(`--${name}-${k}`, String(v)));
  else element.style.setProperty(`--${name}`, String(value));
}

function tick(now) {
  if (motion && clock.playing) {
    const loop = motion.duration + HOLD;
    const t = ((now - clock.origin) / 1000) % loop;
    show(Math.min(t, motion.duration));
  }
  requestAnimationFrame(tick);
}

function setPlaying(playing) {
  clock.playing = playing;
  clock.origin = performance.now() - clock.t * 1000;
  ui.play.textContent = playing ? "Pause" : "Play";
  ui.play.setAttribute("aria-pressed", String(playing));
}

// ---------------------------------------------------------------------------------------------
// The SVG plot and the exports

/** The SVG export, inline in a shadow root. Its own style elements are taken out of the text
 *  before it is parsed (the page's Content-Security-Policy admits no inline style, and Chromium
 *  checks even a DOMParser document against it) and become a constructed style sheet of the shadow
 *  root, scoped to the plot. */
function showPlot(answer) {
  const root = ui.plot.shadowRoot ?? ui.plot.attachShadow({ mode: "open" });
  if (answer.status === "rejected") {
    const p = document.createElement("p");
    p.textContent = `No plot: ${answer.reason.message}`;
    root.adoptedStyleSheets = [];
    root.replaceChildren(p);
    return;
  }
  const rules = [];
  const text = answer.value.replace(/<style\b[^>]*>([\s\S]*?)<\/style>/g, (_, css) => { rules.push(css); return ""; });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(rules.join("\n") + "\n:host{display:block}svg{display:block;width:100%;height:auto}\n" + MARK_STYLE);
  root.adoptedStyleSheets = [sheet];
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  root.replaceChildren(document.importNode(doc.documentElement, true));
}

// ---------------------------------------------------------------------------------------------
// The motion analysis and the engines, drawn over the curve's plot

/** The marks' rules, in the plot's shadow root beside the export's own. Labels have a white halo
 *  so that they stay readable over grid lines and curves. */
const MARK_STYLE = `
.marks text{font-size:10.5px;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
.marks .dot{stroke:#fff;stroke-width:1.5}
.marks .extreme{fill:#1f63c6}.marks .halfway{fill:#fff;stroke:#1f63c6;stroke-width:1.5}
.marks .settle{stroke:#2e7d32;stroke-width:1;stroke-dasharray:3 3}.marks text.settle{fill:#2e7d32;stroke:#fff;stroke-dasharray:none}
.marks .peak{stroke:#d9731a;stroke-width:1;stroke-dasharray:1 2}.marks text.peak{fill:#b35400;stroke:#fff;stroke-dasharray:none}
.engines polyline{fill:none;stroke-width:1;stroke-opacity:.9;stroke-linejoin:round}
.engines text{font-size:10px;paint-order:stroke;stroke:#fff;stroke-width:3px}
.engines .stop{stroke-width:1.5}`;

/** Seconds as the labels print them: the server's number to the millisecond. */
const seconds = (t) => `${t.toFixed(3)} s`;
/** A deviation or a velocity as the labels print them: the server's number to 4 significant digits. */
const figure = (v) => String(Number(v.toPrecision(4)));

/** An element in the SVG namespace (the plot's own, so that no address is written here). */
function svgElement(name, attributes, text) {
  const element = document.createElementNS(ui.plot.shadowRoot.querySelector("svg").namespaceURI, name);
  for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, String(v));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** The least-squares line through (xs[i], ys[i]): [slope, intercept]. */
function fit(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n, my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < n; i++) { sxy += (xs[i] - mx) * (ys[i] - my); sxx += (xs[i] - mx) ** 2; }
  const slope = sxx > 0 ? sxy / sxx : NaN;
  return [slope, my - slope * mx];
}

/** The plot's axes, read off the export itself: its progress path goes through every sample in
 *  sample order (rule 27), so the linear maps from the JSON's t and progress to the path's
 *  vertices are the plot's time and progress axes, whatever its layout. Null when they cannot be
 *  read (no plot, or a flat curve). */
function plotAxes(svg, frames) {
  const d = svg?.querySelector("path.progress")?.getAttribute("d") ?? "";
  const vertices = [...d.matchAll(/[ML]\s*(-?[\d.]+(?:e[-+]?\d+)?)[\s,]+(-?[\d.]+(?:e[-+]?\d+)?)/gi)].map((m) => [Number(m[1]), Number(m[2])]);
  if (vertices.length !== frames.t.length || vertices.length < 2) return null;
  const [ax, bx] = fit(frames.t, vertices.map((v) => v[0]));
  const [ay, by] = fit(frames.progress, vertices.map((v) => v[1]));
  if (!Number.isFinite(ax) || !Number.isFinite(ay) || ax === 0 || ay === 0) return null;
  const frame = svg.querySelector("rect.axis");
  const box = frame ? ["x", "y", "width", "height"].map((k) => Number(frame.getAttribute(k))) : null;
  const tMin = Math.min(...frames.t), tMax = Math.max(...frames.t);
  const area = box ? { left: box[0], top: box[1], right: box[0] + box[2], bottom: box[1] + box[3] }
    : { left: ax * tMin + bx, right: ax * tMax + bx, top: ay * Math.max(...frames.progress) + by, bottom: ay * Math.min(...frames.progress) + by };
  return { x: (t) => ax * t + bx, y: (p) => ay * p + by, area, tMin, tMax };
}

/** Places labels in rows, each at its x (left-aligned after it, or right-aligned before it near
 *  the right edge), in the first row where it overlaps no label already there; row 0 at `y0`,
 *  further rows `step` away. */
function layOut(group, area, labels, y0, step) {
  const rows = [];
  for (const { x, text, className, mark } of [...labels].sort((a, b) => a.x - b.x)) {
    const label = svgElement("text", { class: className, "data-mark": mark }, text);
    group.append(label);
    const width = label.getComputedTextLength();
    const right = x + 3 + width <= area.right - 2;
    const from = right ? x + 3 : x - 3 - width, to = from + width;
    let row = rows.findIndex((spans) => spans.every(([a, b]) => to + 6 <= a || from >= b + 6));
    if (row < 0) { rows.push([]); row = rows.length - 1; }
    rows[row].push([from, to]);
    label.setAttribute("x", (right ? x + 3 : x - 3).toFixed(2));
    label.setAttribute("y", (y0 + row * step).toFixed(2));
    if (!right) label.setAttribute("text-anchor", "end");
  }
}

/** The analysis and the engines over the curve's plot, the summary under it and the engines'
 *  table; `frames` is null for a render. */
function showAnalysis(frames, comparing, note) {
  const svg = ui.plot.shadowRoot?.querySelector("svg");
  const analysis = frames?.analysis, compare = comparing ? frames?.compare : undefined;
  const axes = frames && svg ? plotAxes(svg, frames) : null;
  ui.analysis.hidden = !(analysis || note);
  ui.analysis.textContent = [analysis && summary(analysis), note].filter(Boolean).join(" ");
  showEngines(compare);
  if (!axes || !(analysis || compare)) return;
  const { x, y, area, tMin, tMax } = axes;
  const at = (t) => x(Math.min(Math.max(t, tMin), tMax));  // a time past the window sits on its edge
  if (compare) drawEngines(svg, compare, frames.t, axes);
  if (!analysis) return;
  const marks = svgElement("g", { class: "marks" });
  svg.append(marks);
  // Times: vertical lines across the plot, labelled along its bottom.
  const lines = [];
  const vertical = (mark, t, className, text) => {
    if (t === null || t === undefined) return;
    marks.append(svgElement("line", { class: className, "data-mark": mark, "data-t": t,
      x1: at(t).toFixed(2), y1: area.top, x2: at(t).toFixed(2), y2: area.bottom }));
    lines.push({ x: at(t), text: (t > tMax ? "→ " : "") + text, className, mark });
  };
  vertical("peak-velocity", analysis.peakVelocityAt, "peak",
           `peak velocity ${figure(analysis.peakVelocity)}/s at ${seconds(analysis.peakVelocityAt ?? 0)}`);
  vertical("settle-0.01", analysis.settle["0.01"], "settle", `1 % at ${seconds(analysis.settle["0.01"] ?? 0)}`);
  vertical("settle-0.001", analysis.settle["0.001"], "settle", `0.1 % at ${seconds(analysis.settle["0.001"] ?? 0)}`);
  // Points on the curve: the extremes and the halfway time, labelled beside them.
  const points = [];
  const point = (mark, t, p, className, text, above) => {
    if (t === null || t === undefined) return;
    marks.append(svgElement("circle", { class: `dot ${className}`, "data-mark": mark, "data-t": t, "data-progress": p,
      cx: at(t).toFixed(2), cy: y(p).toFixed(2), r: 4 }));
    points.push({ x: at(t), y: y(p), text, mark, above });
  };
  if (analysis.overshoot > 0) point("overshoot", analysis.overshootAt, 1 + analysis.overshoot, "extreme",
                                    `overshoot ${figure(analysis.overshoot)} at ${seconds(analysis.overshootAt)}`, true);
  if (analysis.undershoot > 0) point("undershoot", analysis.undershootAt, -analysis.undershoot, "extreme",
                                     `undershoot ${figure(analysis.undershoot)} at ${seconds(analysis.undershootAt)}`, false);
  point("halfway", analysis.halfway, 0.5, "halfway", `halfway at ${seconds(analysis.halfway ?? 0)}`, false);
  for (const { x: px, y: py, text, mark, above } of points) {
    const label = svgElement("text", { class: "point", "data-mark": mark }, text);
    marks.append(label);
    const width = label.getComputedTextLength();
    const right = px + 8 + width <= area.right - 2;
    label.setAttribute("x", (right ? px + 8 : px - 8).toFixed(2));
    label.setAttribute("y", Math.min(Math.max(py + (above ? -7 : 12), area.top + 11), area.bottom - 4).toFixed(2));
    if (!right) label.setAttribute("text-anchor", "end");
  }
  layOut(marks, area, lines, area.bottom - 6, -13);
}

/** The analysis in one line of text, for a reader who does not look at the plot. */
function summary(a) {
  const parts = [];
  if (a.overshoot > 0) parts.push(`overshoot ${figure(a.overshoot)} at ${seconds(a.overshootAt)}`);
  if (a.undershoot > 0) parts.push(`undershoot ${figure(a.undershoot)} at ${seconds(a.undershootAt)}`);
  parts.push(`peak velocity ${figure(a.peakVelocity)}/s` + (a.peakVelocityAt === null ? "" : ` at ${seconds(a.peakVelocityAt)}`));
  if (a.halfway !== null) parts.push(`halfway at ${seconds(a.halfway)}`);
  const band = (key, name) => (a.settle[key] === null ? `never settles within ${name}` : `within ${name} from ${seconds(a.settle[key])}`);
  parts.push(`${band("0.01", "1 %")}, ${band("0.001", "0.1 %")}`);
  parts.push(`${a.oscillations} sign change${a.oscillations === 1 ? "" : "s"} about 1`);
  return `Analysis: ${parts.join(" · ")}.`;
}

/** Each engine's progress as a thin polyline over the exact curve, with a tick on the line at
 *  progress 1 where the engine stops, labelled with its name. */
function drawEngines(svg, compare, times, { x, y, area, tMax }) {
  const group = svgElement("g", { class: "engines" });
  svg.append(group);  // before the labels are laid out: a detached text has no length
  // A nested <svg> over the plot area with the same user units clips the lines to the area.
  const [w, h] = [area.right - area.left, area.bottom - area.top];
  const lines = svgElement("svg", { x: area.left, y: area.top, width: w, height: h, viewBox: `${area.left} ${area.top} ${w} ${h}` });
  group.append(lines);
  const labels = [];
  for (const [name, colour] of ENGINES) {
    const engine = compare[name];
    if (!engine) continue;
    const points = engine.progress.map((p, i) => `${x(times[i]).toFixed(2)},${y(p).toFixed(2)}`).join(" ");
    const line = svgElement("polyline", { "data-engine": name, points, stroke: colour });
    line.append(svgElement("title", {}, `${name}: max deviation ${engine.maxDeviation}`));
    lines.append(line);
    const stop = engine.settlingDuration;
    const sx = stop === null || stop > tMax ? area.right : x(stop);
    group.append(svgElement("line", { class: "stop", x1: sx.toFixed(2), x2: sx.toFixed(2), y1: (y(1) - 4).toFixed(2),
                                      y2: (y(1) + 4).toFixed(2), stroke: colour }));
    labels.push({ x: sx, text: stop === null || stop > tMax ? `${name} →` : name, className: `engine ${name}`, mark: name });
  }
  layOut(group, area, labels, y(1) + 16, 12);
  for (const label of group.querySelectorAll("text")) {
    label.setAttribute("fill", ENGINES.find(([name]) => name === label.dataset.mark)[1]);
    label.setAttribute("data-engine", label.dataset.mark);
    label.removeAttribute("data-mark");
  }
}

/** The engines' table: a swatch, the name, maxDeviation and settlingDuration, the server's numbers
 *  (exact in each cell's `data-value` and title). */
function showEngines(compare) {
  const body = ui.engines.tBodies[0];
  body.replaceChildren();
  ui.engines.hidden = !compare;
  if (!compare) return;
  for (const [name, colour] of ENGINES) {
    const engine = compare[name];
    if (!engine) continue;
    const row = document.createElement("tr");
    row.dataset.engine = name;
    const label = document.createElement("td");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.setProperty("--engine", colour);
    label.append(swatch, name);
    const cell = (value, text, key) => {
      const td = document.createElement("td");
      td.dataset.key = key;
      td.dataset.value = String(value);
      td.title = String(value);
      td.textContent = text;
      return td;
    };
    const stop = engine.settlingDuration;
    row.append(label, cell(engine.maxDeviation, figure(engine.maxDeviation), "maxDeviation"),
               cell(stop, stop === null ? "not within the horizon" : seconds(stop), "settlingDuration"));
    body.append(row);
  }
}

function showExports(css, waapi) {
  const text = (answer) => (answer.status === "fulfilled" ? answer.value : "");
  const note = (answer) => (answer.status === "fulfilled" ? answer.value : `/* not available: ${answer.reason.message} */`);
  exports = { css: text(css), waapi: text(waapi) };
  ui.cssText.textContent = note(css);
  ui.waapiText.textContent = waapi.status === "fulfilled" ? JSON.stringify(JSON.parse(waapi.value), null, 2) : note(waapi);
  ui.copyCSS.disabled = !exports.css;
  ui.copyWAAPI.disabled = !exports.waapi;
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No asynchronous clipboard outside a secure context: copy from a selection instead.
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  ui.copied.textContent = `${what} copied (${text.length} characters).`;
}

// ---------------------------------------------------------------------------------------------
// Presets, the shareable URL, and the controls

function presetRequest(name) {
  const preset = presets.find((p) => p.name === name);
  const parameters = Object.fromEntries(Object.entries(preset.parameters).map(([k, v]) => [k, v.default]));
  return { transition: { preset: preset.name, container: CONTAINER, ...parameters }, fps: FPS };
}

function fillPresetMenu() {
  const group = (label, entries) => {
    const g = document.createElement("optgroup");
    g.label = label;
    for (const [value, text, title] of entries) {
      const option = new Option(text, value);
      if (title) option.title = title;
      g.append(option);
    }
    return g;
  };
  ui.preset.replaceChildren(
    new Option("(your request)", ""),
    group("Transitions", presets.map((p) => [`preset:${p.name}`, p.name, p.description])),
    group("Timing curves", CURVES.map(([label], k) => [`curve:${k}`, label])),
  );
}

function choose(value) {
  const [kind, key] = value.split(":");
  if (kind === "preset") ui.editor.value = pretty(presetRequest(key));
  else if (kind === "curve") ui.editor.value = pretty({ ...CURVES[Number(key)][1], fps: FPS });
  else return;
  clock.t = 0;
  update();
}

/** The request and the tolerance in the URL's fragment, so the address can be shared. */
function saveToURL(text) {
  const fragment = new URLSearchParams({ tolerance: ui.tolerance.value.trim(), request: text });
  if (ui.compare.checked) fragment.set("compare", "1");
  history.replaceState(null, "", `#${fragment}`);
}

function loadFromURL() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const request = fragment.get("request");
  if (request === null) return false;
  ui.editor.value = request;
  ui.tolerance.value = fragment.get("tolerance") ?? "0.001";
  ui.compare.checked = fragment.get("compare") === "1";
  ui.preset.value = "";
  return true;
}

function wire() {
  const later = () => { clearTimeout(debounce); debounce = setTimeout(update, DEBOUNCE_MS); };
  ui.editor.addEventListener("input", () => { ui.preset.value = ""; later(); });
  ui.tolerance.addEventListener("input", later);
  ui.compare.addEventListener("change", update);
  ui.preset.addEventListener("change", () => choose(ui.preset.value));
  ui.play.addEventListener("click", () => setPlaying(!clock.playing));
  ui.scrub.addEventListener("input", () => { setPlaying(false); show(Number(ui.scrub.value) / 1000); });
  ui.copyCSS.addEventListener("click", () => copy(exports.css, "CSS"));
  ui.copyWAAPI.addEventListener("click", () => copy(exports.waapi, "WAAPI"));
  ui.share.addEventListener("click", () => copy(location.href, "Link"));
  window.addEventListener("hashchange", () => { if (loadFromURL()) update(); });
  window.addEventListener("resize", () => { if (motion) scaleStages(); });
}

async function start() {
  wire();
  try {
    const response = await fetch("/v1/presets");
    presets = (await response.json()).presets;
  } catch (error) {
    showProblem({ heading: "GET /v1/presets failed", detail: String(error) });
  }
  fillPresetMenu();
  if (loadFromURL()) {
    update();
  } else {
    ui.preset.value = presets.length ? `preset:${presets[0].name}` : "curve:0";
    choose(ui.preset.value);
  }
  requestAnimationFrame(tick);
}

start();
