#!/usr/bin/env python3
"""Segue response corpus: records what a frozen server answers to a few hundred requests and
checks that another build answers byte for byte the same.

    python3 scripts/corpus.py record --base http://127.0.0.1:18080 --out Tests/Fixtures/corpus/corpus.json
    python3 scripts/corpus.py record --binary /path/to/segue --out Tests/Fixtures/corpus/corpus.json
    python3 scripts/corpus.py check  --base http://127.0.0.1:18080 [--corpus FILE]
    python3 scripts/corpus.py check  --binary .build-release/release/segue [--corpus FILE]
    python3 scripts/corpus.py list   [--presets-from URL]      # the generated requests, no traffic

The request list is generated deterministically (a seeded random.Random, no clock): the README's
curl examples, hand-written cases for every request form and error, and seeded variations of
curves, renders and presets. For each request the fixture keeps the response's status, a fixed set
of headers and the SHA-256 and length of the body. A gzip body is hashed after decompression (and
marked "gzip"), so the compressor may change while the decompressed bytes and the ETag may not.

Python 3 standard library only. Traffic goes to 127.0.0.1 only, one connection per request.
"""

import argparse
import base64
import gzip
import hashlib
import http.client
import json
import os
import random
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib

SEED = 0x5E6E_2026
TIMEOUT = 10.0
FORMAT_VERSION = 1
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_CORPUS = os.path.join(ROOT, "Tests", "Fixtures", "corpus", "corpus.json")
README = os.path.join(ROOT, "README.md")

RECORDED_HEADERS = [
    "content-type", "etag", "content-encoding", "vary", "allow", "cache-control",
    "access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers",
    "access-control-max-age", "access-control-expose-headers",
    "content-security-policy", "x-content-type-options", "referrer-policy",
]

JSON_CT = {"Content-Type": "application/json"}
ETAG_PLACEHOLDER = re.compile(r"\{\{etag:(.+?)\}\}")


# ----------------------------------------------------------------------------------------------
# Request list
# ----------------------------------------------------------------------------------------------

def dumps(obj):
    """A request body: compact JSON, key order as written."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class Corpus:
    """Collects requests; names must be unique."""

    def __init__(self):
        self.entries = []
        self.names = set()

    def add(self, name, method, path, body=None, headers=None, body_bytes=None):
        if name in self.names:
            raise ValueError("duplicate request name " + name)
        self.names.add(name)
        req = {"method": method, "path": path, "headers": dict(headers or {})}
        if body_bytes is not None:
            req["body_b64"] = base64.b64encode(body_bytes).decode("ascii")
        elif body is not None:
            req["body"] = body if isinstance(body, str) else dumps(body)
        self.entries.append({"name": name, "request": req})
        return name

    def post(self, name, path, obj, headers=None, query=""):
        h = dict(JSON_CT)
        if headers:
            h.update(headers)
            h = {k: v for k, v in h.items() if v is not None}
        return self.add(name, "POST", path + query, obj, h)


def r3(x):
    return round(x, 3)


# --- README curl examples ---------------------------------------------------------------------

def slug(text, limit=60):
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return s[:limit].strip("-") or "example"


def parse_curl(command):
    """The request a `curl` command line sends (only the options the README uses)."""
    tokens = shlex.split(command)
    assert tokens[0] == "curl", command
    # The shell's part, not curl's: `> curve.svg`, `| jq …` (it was once read as the address).
    for k, t in enumerate(tokens):
        if t in (">", ">>", "<", "|", "&&", ";"):
            tokens = tokens[:k]
            break
    method, url, data, headers = None, None, None, {}
    compressed = False
    i = 1
    while i < len(tokens):
        t = tokens[i]
        if t in ("-s", "--silent", "-i", "-v"):
            pass
        elif t in ("-o", "-w"):
            i += 1
        elif t == "-H":
            i += 1
            k, _, v = tokens[i].partition(":")
            headers[k.strip()] = v.strip()
        elif t == "-X":
            i += 1
            method = tokens[i]
        elif t in ("-d", "--data"):
            i += 1
            data = tokens[i]
        elif t == "--compressed":
            compressed = True
        elif t.startswith("-"):
            raise ValueError("unsupported curl option %s in %r" % (t, command))
        else:
            url = t
        i += 1
    u = urllib.parse.urlsplit(url if "://" in url else "http://" + url)
    path = (u.path or "/") + ("?" + u.query if u.query else "")
    method = method or ("POST" if data is not None else "GET")
    h = {"Accept": "*/*"}
    if compressed:
        h["Accept-Encoding"] = "deflate, gzip"
    if data is not None:
        h["Content-Type"] = "application/x-www-form-urlencoded"
    for k, v in headers.items():
        # curl replaces its own default of the same name
        for existing in list(h):
            if existing.lower() == k.lower():
                del h[existing]
        h[k] = v
    return method, path, h, data


def readme_examples(text):
    """(section, comment, command) for every curl command in the README's code blocks and its
    error table."""
    out = []
    section, comment, in_code = "", "", False
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = line[3:].strip()
        if line.startswith("```"):
            in_code = not in_code
            comment = ""
        elif in_code and line.startswith("#"):
            comment = line.lstrip("# ").strip()
        elif in_code and line.startswith("curl "):
            command = line
            while True:
                try:
                    shlex.split(command)
                    break
                except ValueError:
                    i += 1
                    command += "\n" + lines[i]
            out.append((section, comment, command))
        elif not in_code and line.startswith("|"):
            for m in re.finditer(r"`(curl [^`]+)`", line):
                cells = [c.strip() for c in line.strip("|").split("|")]
                out.append((section, "%s %s" % (cells[0], cells[1]), m.group(1)))
        i += 1
    return out


def add_readme(c):
    with open(README, encoding="utf-8") as f:
        text = f.read()
    for n, (section, comment, command) in enumerate(readme_examples(text), 1):
        method, path, headers, data = parse_curl(command)
        name = "readme/%02d %s: %s" % (n, slug(section, 20), slug(comment or path))
        for k, v in list(headers.items()):
            try:
                v.encode("latin-1")
            except UnicodeEncodeError:
                # The README's `"…the ETag…"` placeholder: the same request first, for its ETag.
                src = dict(headers)
                del src[k]
                c.add(name + " (etag source)", method, path, data, src)
                headers[k] = "{{etag:%s (etag source)}}" % name
        c.add(name, method, path, data, headers)


# --- timings ----------------------------------------------------------------------------------

KEYWORDS = ["linear", "ease", "ease-in", "ease-out", "ease-in-out", "step-start", "step-end",
            "easeIn", "easeOut", "easeInOut"]
OBJECT_KEYWORDS = ["linear", "ease", "easeIn", "easeOut", "easeInOut"]
CSS_POSITIONS = ["jump-start", "jump-end", "jump-none", "jump-both", "start", "end"]
OBJ_POSITIONS = ["jumpStart", "jumpEnd", "jumpNone", "jumpBoth", "start", "end"]


def rand_bezier_points(rng):
    return [r3(rng.uniform(0, 1)), r3(rng.uniform(-0.8, 1.8)), r3(rng.uniform(0, 1)), r3(rng.uniform(-0.8, 1.8))]


def rand_linear_css(rng):
    """A CSS linear(): random outputs, input positions sometimes missing, doubled or decreasing."""
    n = rng.randint(2, 6)
    parts = []
    pos = 0
    for k in range(n):
        out = r3(rng.uniform(-0.3, 1.3)) if 0 < k < n - 1 else (0 if k == 0 else 1)
        choice = rng.random()
        item = str(out)
        if choice < 0.35:
            pass  # missing position
        elif choice < 0.55:
            item += " %g%%" % rng.randint(0, 100)  # may decrease
        elif choice < 0.7 and 0 < k < n - 1:
            a = rng.randint(0, 90)
            item += " %g%% %g%%" % (a, a + rng.randint(0, 10))
        else:
            pos = min(100, pos + rng.randint(5, 40))
            item += " %g%%" % pos
        parts.append(item)
    return "linear(%s)" % ", ".join(parts)


def rand_piecewise_points(rng):
    n = rng.randint(2, 5)
    xs = sorted(r3(rng.uniform(0, 1)) for _ in range(n - 2))
    pts = [[0, 0]] + [[x, r3(rng.uniform(-0.2, 1.2))] for x in xs] + [[1, 1]]
    return pts


def rand_bezier_timing(rng):
    k = rng.randrange(4)
    if k == 0:
        return {"type": rng.choice(OBJECT_KEYWORDS)}
    if k == 1:
        p = rand_bezier_points(rng)
        return {"type": "cubicBezier", "p1": p[:2], "p2": p[2:]}
    if k == 2:
        return rng.choice(["linear", "ease", "ease-in", "ease-out", "ease-in-out", "easeIn", "easeOut", "easeInOut"])
    return "cubic-bezier(%s)" % ", ".join(str(v) for v in rand_bezier_points(rng))


def rand_timing_nonspring(rng, allow_strings=True):
    k = rng.randrange(9 if allow_strings else 4)
    if k == 0:
        return {"type": rng.choice(OBJECT_KEYWORDS)}
    if k == 1:
        p = rand_bezier_points(rng)
        return {"type": "cubicBezier", "p1": p[:2], "p2": p[2:]}
    if k == 2:
        n = rng.randint(2, 8)
        t = {"type": "steps", "count": n}
        if rng.random() < 0.8:
            t["position"] = rng.choice(OBJ_POSITIONS)
        return t
    if k == 3:
        return {"type": "piecewiseLinear", "points": rand_piecewise_points(rng)}
    if k in (4, 5):
        return rng.choice(KEYWORDS)
    if k == 6:
        return "cubic-bezier(%s)" % ", ".join(str(v) for v in rand_bezier_points(rng))
    if k == 7:
        n = rng.randint(2, 8)
        pos = rng.choice(CSS_POSITIONS + [None])
        return "steps(%d%s)" % (n, "" if pos is None else ", " + pos)
    return rand_linear_css(rng)


def rand_spring(rng, kind=None, velocity=True):
    """A spring timing of one parameter set (kind). Returns (timing, needs_duration)."""
    kind = kind or rng.choice(["uikit", "physical", "android", "response", "perceptual", "pop", "origami"])
    t = {"type": "spring"}
    if kind == "uikit":
        t["dampingRatio"] = r3(rng.uniform(0.3, 1.0))
    elif kind == "physical":
        t["mass"] = r3(rng.uniform(0.5, 2))
        t["stiffness"] = rng.randint(80, 400)
        t["damping"] = r3(rng.uniform(8, 40))
        if rng.random() < 0.4:
            t["allowsOverdamping"] = rng.random() < 0.5
    elif kind == "android":
        t["stiffness"] = rng.choice([50, 200, 400, 1500, 10000])
        t["dampingRatio"] = rng.choice([0.2, 0.5, 0.75, 1, 1.5])
    elif kind == "response":
        t["response"] = r3(rng.uniform(0.2, 0.8))
        t["dampingRatio"] = r3(rng.uniform(0.4, 1.3))
    elif kind == "perceptual":
        t["perceptualDuration"] = r3(rng.uniform(0.2, 0.8))
        t["bounce"] = r3(rng.uniform(-0.4, 0.6))
    elif kind == "pop":
        t["bounciness"] = rng.randint(0, 20)
        t["speed"] = rng.randint(4, 20)
    elif kind == "origami":
        t["tension"] = rng.randint(40, 300)
        t["friction"] = rng.randint(7, 30)
    if velocity and rng.random() < 0.5:
        t["initialVelocity"] = r3(rng.uniform(-2, 4))
    return t, kind == "uikit"


# --- /v1/curve --------------------------------------------------------------------------------

def add_curve_cases(c, rng):
    P = "/v1/curve"
    # every CSS keyword and UIKit name
    for kw in KEYWORDS:
        c.post("curve/string %s" % kw, P, {"timing": kw, "samples": 11})
    for kw in OBJECT_KEYWORDS:
        c.post("curve/object type %s" % kw, P, {"timing": {"type": kw}, "samples": 7})
    # cubic-bezier strings, incl. overshoot and extrapolation
    c.post("curve/cubic-bezier overshoot at outside", P,
           {"timing": "cubic-bezier(0.68, -0.55, 0.265, 1.55)", "at": [-0.5, -0.1, 0, 0.25, 0.5, 1, 1.2, 2]})
    c.post("curve/cubic-bezier vertical end tangent", P, {"timing": "cubic-bezier(0, 1, 1, 0)", "samples": 9})
    c.post("curve/cubic-bezier infinite slope", P, {"timing": "cubic-bezier(0.5, 0, 0.5, 1)", "at": [0, 0.5, 1]})
    c.post("curve/cubic-bezier compact spelling", P, {"timing": "cubic-bezier(.1,.7,1,.1)", "samples": 5})
    c.post("curve/cubicBezier object duration 0.3 fps 60", P,
           {"timing": {"type": "cubicBezier", "p1": [0.25, 0.1], "p2": [0.25, 1]}, "duration": 0.3, "fps": 60})
    # steps with every position, string and object form
    for pos in CSS_POSITIONS:
        c.post("curve/steps(3, %s)" % pos, P, {"timing": "steps(3, %s)" % pos, "samples": 13})
    c.post("curve/steps(5) default position", P, {"timing": "steps(5)", "samples": 11})
    for pos in OBJ_POSITIONS:
        c.post("curve/steps object %s at outside" % pos, P,
               {"timing": {"type": "steps", "count": 4, "position": pos}, "at": [-0.25, 0, 0.25, 0.5, 0.999, 1, 1.5]})
    c.post("curve/steps object default position", P, {"timing": {"type": "steps", "count": 2}, "samples": 5})
    # linear(): missing, decreasing and doubled positions
    for label, text in [
        ("two points", "linear(0, 1)"),
        ("missing positions", "linear(0, 0.25, 0.75, 1)"),
        ("double position", "linear(0, 0.25 25% 75%, 1)"),
        ("decreasing positions", "linear(0, 0.8 60%, 0.2 40%, 1)"),
        ("position before first", "linear(0 20%, 0.5, 1 80%)"),
        ("overshooting outputs", "linear(0, 1.2 40%, 0.9 70%, 1)"),
        ("many stops", "linear(0, 0.009, 0.035 2.1%, 0.141, 0.281 6.7%, 0.723 12.9%, 0.938 16.7%, 1.017, "
                       "1.077, 1.121, 1.149 24.3%, 1.159, 1.163, 1.161, 1.154 29.9%, 1.129 32.8%, 1.051 39.6%, "
                       "1.017 43.1%, 0.991, 0.977 51%, 0.975 57.1%, 0.997 69.8%, 1.003 76.9%, 1)"),
    ]:
        c.post("curve/linear() %s" % label, P, {"timing": text, "at": [-0.2, 0, 0.1, 0.3, 0.5, 0.7, 0.9, 1, 1.3]})
    c.post("curve/piecewiseLinear object", P,
           {"timing": {"type": "piecewiseLinear", "points": [[0, 0], [0.3, 0.9], [0.3, 0.4], [1, 1]]}, "samples": 21})
    # springs: every parameter set of docs/rules.md "Spring parameter sets"
    S = lambda **kw: dict({"type": "spring"}, **kw)
    springs = [
        ("uikit dampingRatio 0.6", S(dampingRatio=0.6), {"duration": 0.8}),
        ("uikit dampingRatio 1 initialVelocity 2", S(dampingRatio=1, initialVelocity=2), {"duration": 0.5}),
        ("uikit dampingRatio 0.2 velocity -1 at beyond duration", S(dampingRatio=0.2, initialVelocity=-1),
         {"duration": 1, "at": [-0.5, 0, 0.5, 1, 1.5]}),
        ("uikit dampingRatio over 1 clamped warning", S(dampingRatio=1.4), {"duration": 0.6}),
        ("uikit duration over 10 clamped warning", S(dampingRatio=0.7), {"duration": 12, "samples": 5}),
        ("physical default-like", S(mass=1, stiffness=100, damping=10), {}),
        ("physical overdamped clamped", S(mass=1, stiffness=100, damping=40), {}),
        ("physical overdamped allowed", S(mass=1, stiffness=100, damping=40, allowsOverdamping=True), {}),
        ("physical allowsOverdamping false", S(mass=2, stiffness=300, damping=20, allowsOverdamping=False), {}),
        ("physical initialVelocity", S(mass=1, stiffness=200, damping=15, initialVelocity=5), {}),
        ("physical damping 0 with duration", S(mass=1, stiffness=100, damping=0), {"duration": 2}),
        ("physical damping 0 with at", S(mass=1, stiffness=100, damping=0), {"at": [0, 0.1, 0.5, 10]}),
        ("android stiffness 1500 ratio 0.5", S(stiffness=1500, dampingRatio=0.5), {}),
        ("android overdamped ratio 2", S(stiffness=200, dampingRatio=2), {}),
        ("android ratio 0 with duration", S(stiffness=400, dampingRatio=0), {"duration": 1}),
        ("response 0.55 0.825", S(response=0.55, dampingRatio=0.825), {}),
        ("response overdamped", S(response=0.3, dampingRatio=1.5), {}),
        ("response initialVelocity", S(response=0.4, dampingRatio=0.6, initialVelocity=-1.5), {}),
        ("perceptual 0.5 bounce 0.3", S(perceptualDuration=0.5, bounce=0.3), {}),
        ("perceptual negative bounce", S(perceptualDuration=0.5, bounce=-0.3), {}),
        ("perceptual bounce 0", S(perceptualDuration=0.4, bounce=0), {}),
        ("pop 4 12", S(bounciness=4, speed=12), {}),
        ("pop 20 20", S(bounciness=20, speed=20), {}),
        ("pop 0 0 velocity", S(bounciness=0, speed=0, initialVelocity=1), {}),
        ("origami 40 7", S(tension=40, friction=7), {}),
        ("origami 200 20 velocity", S(tension=200, friction=20, initialVelocity=3), {}),
    ]
    for label, timing, extra in springs:
        body = {"timing": timing}
        body.update(extra)
        if not any(k in body for k in ("at", "samples", "fps")):
            body["samples"] = 21
        c.post("curve/spring %s" % label, P, body)
    c.post("curve/spring fps 60 window", P, {"timing": S(response=0.5, dampingRatio=0.7), "fps": 60})
    c.post("curve/spring duration window fps 30", P,
           {"timing": S(stiffness=300, dampingRatio=0.4), "duration": 1.5, "fps": 30})
    # sampling forms
    c.post("curve/default samples", P, {"timing": "ease-in-out"})
    c.post("curve/samples 2", P, {"timing": "ease", "samples": 2})
    c.post("curve/fps 1 duration 3", P, {"timing": "linear", "duration": 3, "fps": 1})
    c.post("curve/fps non-integral grid", P, {"timing": "ease", "duration": 0.35, "fps": 24})
    c.post("curve/fps 1000", P, {"timing": "ease-out", "duration": 0.05, "fps": 1000})
    c.post("curve/at unsorted duplicates", P, {"timing": "ease-in", "at": [0.9, 0.1, 0.5, 0.5, -3, 7]})
    c.post("curve/duration 0.25 samples 5", P, {"timing": "ease", "duration": 0.25, "samples": 5})
    c.post("curve/duration 3600 samples 3", P, {"timing": "linear", "duration": 3600, "samples": 3})
    # formats
    c.post("curve/csv by query", P, {"timing": "ease-out", "samples": 5}, query="?format=csv")
    c.post("curve/csv by Accept", P, {"timing": "ease-out", "samples": 5}, headers={"Accept": "text/csv"})
    c.post("curve/csv query uppercase", P, {"timing": "ease", "samples": 4}, query="?format=CSV")
    c.post("curve/json query wins over Accept csv", P, {"timing": "ease", "samples": 4},
           headers={"Accept": "text/csv"}, query="?format=json")
    c.post("curve/Accept csv q preferred", P, {"timing": "ease", "samples": 4},
           headers={"Accept": "application/json;q=0.5, text/csv"})
    c.post("curve/Accept json q preferred", P, {"timing": "ease", "samples": 4},
           headers={"Accept": "text/csv;q=0.2, application/json;q=0.9"})
    c.post("curve/Accept text/*", P, {"timing": "ease", "samples": 4}, headers={"Accept": "text/*"})
    c.post("curve/Accept application/*", P, {"timing": "ease", "samples": 4}, headers={"Accept": "application/*"})
    c.post("curve/Accept blank", P, {"timing": "ease", "samples": 4}, headers={"Accept": " "})
    c.post("curve/spring csv", P, {"timing": S(bounciness=8, speed=10), "samples": 6}, query="?format=csv")
    # gzip: large and small bodies, several Accept-Encoding spellings
    big = {"timing": "ease", "fps": 120}
    c.post("curve/gzip large json", P, big, headers={"Accept-Encoding": "gzip"})
    c.post("curve/gzip large json identity", P, big)
    c.post("curve/gzip small json not compressed", P, {"timing": "ease", "samples": 3},
           headers={"Accept-Encoding": "gzip"})
    c.post("curve/gzip large csv", P, {"timing": S(response=0.5, dampingRatio=0.5), "fps": 240},
           headers={"Accept-Encoding": "gzip"}, query="?format=csv")
    c.post("curve/gzip x-gzip", P, {"timing": "ease-in", "samples": 101}, headers={"Accept-Encoding": "x-gzip"})
    c.post("curve/gzip star", P, {"timing": "ease-in", "samples": 101}, headers={"Accept-Encoding": "*"})
    c.post("curve/gzip q=0 refused", P, {"timing": "ease-in", "samples": 101},
           headers={"Accept-Encoding": "gzip;q=0, br"})
    c.post("curve/gzip br only", P, {"timing": "ease-in", "samples": 101}, headers={"Accept-Encoding": "br"})
    c.post("curve/gzip spring 1000 samples", P, {"timing": S(stiffness=1500, dampingRatio=0.3), "samples": 1000},
           headers={"Accept-Encoding": "deflate, gzip, br"})
    # content types that read as JSON
    for label, ct in [("no content-type", None), ("form-urlencoded", "application/x-www-form-urlencoded"),
                      ("json charset", "application/json; charset=utf-8"), ("problem+json", "application/problem+json"),
                      ("merge-patch+json", "application/merge-patch+json"), ("JSON uppercase", "Application/JSON")]:
        c.post("curve/content-type %s" % label, P, {"timing": "ease", "samples": 3}, headers={"Content-Type": ct})
    c.post("curve/duration null reads as absent", P, '{"timing": "ease", "duration": null, "samples": 3}')
    c.post("curve/spring uikit dampingRatio 0", P, {"timing": {"type": "spring", "dampingRatio": 0}, "duration": 1, "samples": 11})
    c.post("curve/whitespace body", P, '  {\n  "timing" : "ease" ,\n  "samples" : 3\n}\n')
    c.post("curve/unicode escapes in string", P, '{"timing": "\\u0065ase", "samples": 3}')


def add_curve_random(c, rng, count):
    P = "/v1/curve"
    for i in range(count):
        body = {}
        label = []
        if rng.random() < 0.35:
            t, needs_duration = rand_spring(rng)
            label.append("spring-%s" % ("uikit" if needs_duration else
                                       next(k for k in ("mass", "stiffness", "response", "perceptualDuration",
                                                        "bounciness", "tension") if k in t)))
        else:
            t, needs_duration = rand_timing_nonspring(rng), False
            label.append("timing-" + (t.split("(")[0] if isinstance(t, str) else t["type"]))
        body["timing"] = t
        if needs_duration or rng.random() < 0.4:
            body["duration"] = r3(rng.uniform(0.1, 2.0))
        mode = rng.random()
        if mode < 0.4:
            body["samples"] = rng.randint(2, 150)
            label.append("samples")
        elif mode < 0.7:
            body["fps"] = rng.choice([10, 24, 30, 60, 120])
            label.append("fps")
            if "duration" not in body and isinstance(t, dict) and t.get("type") == "spring":
                body["duration"] = r3(rng.uniform(0.2, 1.5))
        elif mode < 0.95:
            d = body.get("duration", 1)
            body["at"] = [r3(rng.uniform(-0.3 * d, 1.4 * d)) for _ in range(rng.randint(1, 12))]
            label.append("at")
        else:
            label.append("default-samples")
        headers, query = {}, ""
        x = rng.random()
        if x < 0.15:
            query = "?format=csv"
            label.append("csv")
        elif x < 0.22:
            headers["Accept"] = "text/csv"
            label.append("accept-csv")
        if rng.random() < 0.25:
            headers["Accept-Encoding"] = "gzip"
            label.append("gzip")
        c.post("curve/random %03d %s" % (i, " ".join(label)), P, body, headers=headers, query=query)


# --- /v1/render -------------------------------------------------------------------------------

def rand_transform(rng, form=None):
    form = form or rng.choice(["components", "matrix", "ops"])
    if form == "components":
        t = {}
        if rng.random() < 0.7:
            t["translation"] = [rng.randint(-100, 100), rng.randint(-100, 100)]
        if rng.random() < 0.6:
            t["scale"] = [r3(rng.uniform(0.3, 2)), r3(rng.uniform(0.3, 2))]
        if rng.random() < 0.7 or not t:
            t["rotation"] = r3(rng.uniform(-6.3, 6.3))
        return t
    if form == "matrix":
        import math
        th = rng.uniform(-3, 3)
        sx, sy = rng.uniform(0.4, 2), rng.uniform(0.4, 2)
        return {"matrix": [r3(sx * math.cos(th)), r3(sx * math.sin(th)), r3(-sy * math.sin(th)),
                           r3(sy * math.cos(th)), rng.randint(-50, 50), rng.randint(-50, 50)]}
    ops = []
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(3)
        if k == 0:
            ops.append({"translate": [rng.randint(-80, 80), rng.randint(-80, 80)]})
        elif k == 1:
            ops.append({"rotate": r3(rng.uniform(-3.2, 3.2))})
        else:
            ops.append({"scale": [r3(rng.uniform(0.5, 1.8)), r3(rng.uniform(0.5, 1.8))]})
    return {"ops": ops}


def rand_channel_value(rng, name, given=None):
    if name == "frame":
        return [rng.randint(-50, 300), rng.randint(-50, 600), rng.randint(20, 320), rng.randint(20, 568)]
    if name == "center":
        return [rng.randint(0, 400), rng.randint(0, 800)]
    if name == "bounds":
        return [0, 0, rng.randint(20, 320), rng.randint(20, 568)]
    if name == "alpha":
        return r3(rng.uniform(0, 1))
    if name == "transform":
        return rand_transform(rng)
    if name == "backgroundColor":
        return [r3(rng.uniform(0, 1)) for _ in range(4)]
    if name == "cornerRadius":
        return rng.randint(0, 40)
    if isinstance(given, list):
        return [r3(rng.uniform(-50, 50)) for _ in given]
    return r3(rng.uniform(-100, 100))


GEOMETRY_SETS = [["frame"], ["center", "bounds"], ["center"]]
OPTIONAL = ["alpha", "transform", "backgroundColor", "cornerRadius"]


def rand_view(rng):
    v = {}
    for ch in rng.choice(GEOMETRY_SETS + [[]]):
        v[ch] = rand_channel_value(rng, ch)
    for ch in OPTIONAL:
        if rng.random() < 0.4:
            v[ch] = rand_channel_value(rng, ch)
    if rng.random() < 0.4:
        v["blur"] = r3(rng.uniform(0, 10))
    if rng.random() < 0.3:
        v["uniform"] = [r3(rng.uniform(-1, 1)) for _ in range(rng.randint(2, 3))]
    if not v:
        v["alpha"] = 1
    return v


def animatable(view):
    """Channels an animation may target on this view: given ones plus defaulted built-ins."""
    chans = list(view.keys())
    for ch in OPTIONAL:
        if ch not in chans:
            chans.append(ch)
    return chans


def rand_block_timing(rng, anim):
    """Sets duration/timing on a block animation. Springs other than UIKit take no duration."""
    x = rng.random()
    if x < 0.6:
        anim["duration"] = r3(rng.uniform(0.2, 1.0))
        if rng.random() < 0.85:
            anim["timing"] = rand_timing_nonspring(rng)
    elif x < 0.8:
        anim["duration"] = r3(rng.uniform(0.3, 1.0))
        t, _ = rand_spring(rng, "uikit")
        anim["timing"] = t
    else:
        kind = rng.choice(["physical", "android", "response", "perceptual", "pop", "origami"])
        t, _ = rand_spring(rng, kind)
        if kind == "physical":
            t["damping"] = max(t["damping"], 12)
        if kind == "pop":
            t["speed"] = max(t["speed"], 8)
            t["bounciness"] = min(t["bounciness"], 12)
        if kind == "android":
            t["dampingRatio"] = max(t["dampingRatio"], 0.5)
            t["stiffness"] = max(t["stiffness"], 200)
        anim["timing"] = t


def render_base(rng):
    body = {}
    x = rng.random()
    if x < 0.7:
        body["fps"] = rng.choice([10, 15, 24, 30, 60])
    elif x < 0.8:
        pass  # default 60
    elif x < 0.9:
        body["at"] = sorted(r3(rng.uniform(0, 1.5)) for _ in range(rng.randint(1, 10)))
    else:
        body["fps"] = rng.choice([20, 30])
        body["until"] = r3(rng.uniform(0.2, 2.5))
    if rng.random() < 0.2:
        body["velocities"] = True
    return body


def rand_render_block(rng):
    body = render_base(rng)
    views = {}
    for k in range(rng.randint(1, 3)):
        views["v%d" % k] = rand_view(rng)
    body["views"] = views
    anims = []
    for k in range(rng.randint(1, 3)):
        vname = rng.choice(list(views))
        view = views[vname]
        chans = animatable(view)
        targets = rng.sample(chans, rng.randint(1, min(3, len(chans))))
        to = {}
        for ch in targets:
            if ch in ("frame", "center", "bounds") and ch not in view:
                continue
            if ch in ("blur", "uniform") and ch not in view:
                continue
            to[ch] = rand_channel_value(rng, ch, view.get(ch))
        if not to:
            to["alpha"] = r3(rng.uniform(0, 1))
        a = {"view": vname}
        if rng.random() < 0.3:
            a["id"] = "anim%d" % k
        rand_block_timing(rng, a)
        a["to"] = to
        if rng.random() < 0.3:
            a["delay"] = r3(rng.uniform(0, 0.4))
        if rng.random() < 0.2 and "duration" in a:
            a["repeatCount"] = rng.choice([0, 1, 2, 1.5, 2.25])
            if rng.random() < 0.5:
                a["autoreverses"] = True
        elif rng.random() < 0.1 and "duration" in a and "until" in body:
            a["repeatCount"] = "infinite"
        if "transform" in to and rng.random() < 0.3:
            a["rotationPath"] = "direct"
        if k > 0 and rng.random() < 0.35:
            a["blend"] = rng.choice(["additive", "replace"])
        if rng.random() < 0.1:
            a["pausesOnCompletion"] = True
        anims.append(a)
    body["animations"] = anims
    return body


def rand_keyframes(rng, view, nframes):
    chans = [ch for ch in animatable(view) if ch not in ("bounds",) and (ch in view or ch in OPTIONAL)]
    kfs = []
    start = 0.0
    for j in range(nframes):
        s = r3(min(start, 0.9))
        d = r3(rng.uniform(0.05, max(0.06, 1 - s)) if j == nframes - 1 else rng.uniform(0.05, 0.4))
        d = min(d, r3(1 - s))
        to = {}
        for ch in rng.sample(chans, rng.randint(1, min(2, len(chans)))):
            to[ch] = rand_channel_value(rng, ch, view.get(ch))
        kfs.append({"start": s, "duration": d, "to": to})
        start = s + d * rng.choice([1, 1, 0.5, 1.2])
    return kfs


def rand_render_keyframes(rng):
    body = render_base(rng)
    view = rand_view(rng)
    body["views"] = {"card": view}
    a = {"view": "card", "duration": r3(rng.uniform(0.4, 1.2))}
    if rng.random() < 0.7:
        a["timing"] = rand_timing_nonspring(rng)
    a["keyframes"] = rand_keyframes(rng, view, rng.randint(2, 4))
    if rng.random() < 0.4:
        a["calculationMode"] = rng.choice(["linear", "discrete", "paced", "cubic", "cubicPaced"])
    if rng.random() < 0.2:
        a["delay"] = r3(rng.uniform(0, 0.3))
    if rng.random() < 0.15:
        a["repeatCount"] = 2
        a["autoreverses"] = rng.random() < 0.5
    body["animations"] = [a]
    return body


def rand_values_animation(rng, mode=None, channel=None):
    """A CAKeyframeAnimation `values` animation and its view."""
    mode = mode or rng.choice(["linear", "discrete", "paced", "cubic", "cubicPaced"])
    channel = channel or rng.choice(["blur", "uniform", "center", "alpha", "frame", "transform", "backgroundColor"])
    n = rng.randint(3, 6)
    view = {}
    if channel == "uniform":
        width = rng.randint(2, 3)
        view["uniform"] = [0] * width
        values = [[r3(rng.uniform(-10, 10)) for _ in range(width)] for _ in range(n)]
    else:
        view[channel] = rand_channel_value(rng, channel, None)
        values = [rand_channel_value(rng, channel, None) for _ in range(n)]
        if channel == "frame":
            pass
    a = {"view": "v", "duration": r3(rng.uniform(0.4, 1.2)), "channel": channel, "values": values}
    if mode != "linear" or rng.random() < 0.5:
        a["calculationMode"] = mode
    if rng.random() < 0.5:
        a["timing"] = rand_timing_nonspring(rng, allow_strings=rng.random() < 0.5)
    if mode in ("linear", "discrete", "cubic") and rng.random() < 0.6:
        cnt = n + (1 if mode == "discrete" and rng.random() < 0.5 else 0)
        kt = sorted(r3(rng.uniform(0, 1)) for _ in range(cnt - 2))
        a["keyTimes"] = [0] + kt + [1]
    if mode in ("linear", "cubic") and rng.random() < 0.4:
        # segment timing functions are Béziers (CAMediaTimingFunction)
        a["timingFunctions"] = [rand_bezier_timing(rng) for _ in range(n - 1)]
    if mode in ("cubic", "cubicPaced") and rng.random() < 0.6:
        for key in ("tensionValues", "continuityValues", "biasValues"):
            if rng.random() < 0.6:
                a[key] = [r3(rng.uniform(-1, 1)) for _ in range(n)]
    return view, a


def rand_render_values(rng):
    body = render_base(rng)
    view, a = rand_values_animation(rng)
    body["views"] = {"v": view}
    if rng.random() < 0.2:
        a["repeatCount"] = rng.choice([2, 1.5])
        a["autoreverses"] = rng.random() < 0.5
    if rng.random() < 0.2:
        a["delay"] = r3(rng.uniform(0, 0.3))
    body["animations"] = [a]
    return body


COMMAND_SCRIPTS = [
    "pause-start-reverse", "stop", "stop-finish", "start-delay", "fraction-continue", "fraction-continue-timing",
    "pause-fraction-start", "reverse-twice", "addAnimations", "inactive-addAnimations-start", "pause-continue-factor",
    "running-fraction-continue-spring", "stop-finish-current", "reverse-unreversed", "pause-only",
    "fraction-only", "start-noop", "pause-reverse-continue",
]


def rand_render_commands(rng, script=None):
    script = script or rng.choice(COMMAND_SCRIPTS)
    d = r3(rng.uniform(0.6, 1.2))
    body = {"fps": rng.choice([10, 20, 30, 60])}
    if rng.random() < 0.2:
        body["velocities"] = True
    view = {"x": 0}
    if rng.random() < 0.5:
        view["center"] = [rng.randint(0, 300), rng.randint(0, 600)]
    body["views"] = {"v": view}
    a = {"id": "a", "view": "v", "duration": d, "to": {"x": rng.randint(50, 300)}}
    if "center" in view and rng.random() < 0.5:
        a["to"]["center"] = [rng.randint(0, 300), rng.randint(0, 600)]
    if rng.random() < 0.6:
        a["timing"] = rand_timing_nonspring(rng)
    if rng.random() < 0.3:
        a["scrubsLinearly"] = False
    if rng.random() < 0.2:
        a["pausesOnCompletion"] = True
    t = lambda lo, hi: r3(d * rng.uniform(lo, hi))
    cmds = []

    def cmd(at, op, **kw):
        e = {"at": at, "animation": "a", "op": op}
        e.update(kw)
        cmds.append(e)

    if script == "pause-start-reverse":
        cmd(t(0.1, 0.3), "pause")
        cmd(t(0.35, 0.5), "start")
        cmd(t(0.55, 0.8), "reverse")
    elif script == "stop":
        cmd(t(0.2, 0.7), "stop")
    elif script == "stop-finish":
        cmd(t(0.2, 0.5), "stop", withoutFinishing=False)
        cmd(t(0.55, 0.9), "finish", position=rng.choice(["start", "end", "current"]))
    elif script == "stop-finish-current":
        cmd(t(0.2, 0.5), "stop", withoutFinishing=False)
        cmd(t(0.55, 0.9), "finish", position="current")
    elif script == "start-delay":
        a["autostart"] = False
        cmd(t(0.1, 0.4), "start", delay=r3(rng.uniform(0, 0.3)))
    elif script == "fraction-continue":
        a["autostart"] = False
        cmd(t(0.0, 0.2), "fraction", value=r3(rng.uniform(0, 1)))
        cmd(t(0.3, 0.5), "continue")
    elif script == "fraction-continue-timing":
        cmd(t(0.1, 0.3), "fraction", value=r3(rng.uniform(0, 1)))
        cmd(t(0.35, 0.6), "continue", timing=rand_timing_nonspring(rng), durationFactor=r3(rng.uniform(0.3, 2)))
    elif script == "running-fraction-continue-spring":
        cmd(t(0.1, 0.3), "fraction", value=r3(rng.uniform(0.1, 0.9)))
        cmd(t(0.35, 0.6), "continue", timing=rand_spring(rng, "uikit")[0])
    elif script == "pause-fraction-start":
        cmd(t(0.1, 0.3), "pause")
        cmd(t(0.3, 0.4), "fraction", value=r3(rng.uniform(0, 1)))
        cmd(t(0.4, 0.6), "start")
    elif script == "reverse-twice":
        cmd(t(0.2, 0.4), "reverse")
        cmd(t(0.45, 0.6), "reverse", reversed=False)
    elif script == "reverse-unreversed":
        cmd(t(0.2, 0.4), "reverse", reversed=False)
    elif script == "addAnimations":
        to = {"x": rng.randint(-100, 100)}
        if "center" in view:
            to = {"center": [rng.randint(0, 300), rng.randint(0, 600)]}
        e = {}
        if rng.random() < 0.6:
            e["delayFactor"] = r3(rng.uniform(0, 0.8))
        cmd(t(0.1, 0.5), "addAnimations", to=to, **e)
    elif script == "inactive-addAnimations-start":
        a["autostart"] = False
        cmd(t(0.0, 0.1), "addAnimations", to={"x": rng.randint(-100, 100)}, delayFactor=0.5)
        cmd(t(0.2, 0.4), "start")
    elif script == "pause-continue-factor":
        cmd(t(0.2, 0.4), "pause")
        cmd(t(0.45, 0.7), "continue", durationFactor=r3(rng.uniform(0.3, 3)))
    elif script == "pause-only":
        cmd(t(0.2, 0.6), "pause")
    elif script == "fraction-only":
        a["autostart"] = rng.random() < 0.5
        cmd(t(0.1, 0.5), "fraction", value=r3(rng.uniform(0, 1)))
    elif script == "start-noop":
        cmd(t(0.1, 0.5), "start")
    elif script == "pause-reverse-continue":
        cmd(t(0.2, 0.4), "pause")
        cmd(t(0.4, 0.5), "reverse")
        cmd(t(0.5, 0.7), "continue", timing=rand_timing_nonspring(rng, allow_strings=False))
    body["animations"] = [a]
    body["commands"] = cmds
    return script, body


def rand_render_interaction(rng, kind=None):
    kind = kind or rng.choice(["updates-finish", "updates-cancel", "updates-no-end", "pan", "pinch"])
    d = r3(rng.uniform(0.3, 0.8))
    body = {"fps": rng.choice([20, 30, 60])}
    body["views"] = {"sheet": {"center": [200, 400]}, "dim": {"alpha": 0.5}}
    anims = [{"id": "dismiss", "view": "sheet", "duration": d, "timing": rng.choice(["linear", "easeInOut", "ease-out"]),
              "to": {"center": [200, rng.randint(-500, -100)]}}]
    ids = ["dismiss"]
    if rng.random() < 0.5:
        anims.append({"id": "undim", "view": "dim", "duration": d, "to": {"alpha": 0}})
        ids.append("undim")
    body["animations"] = anims
    inter = {"animations": ids}
    if rng.random() < 0.5:
        inter["completionSpeed"] = rng.choice([0.5, 1, 2, 1.5])
    if rng.random() < 0.5:
        inter["completionCurve"] = rand_timing_nonspring(rng)
    if kind.startswith("updates"):
        ups, at, p = [], 0.0, 0.0
        for _ in range(rng.randint(1, 6)):
            ups.append({"at": r3(at), "percent": r3(p)})
            at += rng.uniform(0.02, 0.1)
            p = min(1, max(0, p + rng.uniform(-0.1, 0.3)))
        inter["updates"] = ups
        if kind != "updates-no-end":
            inter["end"] = {"at": r3(at), "action": "finish" if kind == "updates-finish" else "cancel"}
            if kind == "updates-finish" and rng.random() < 0.5:
                del inter["end"]["action"]
        else:
            body["until"] = r3(at + 0.3)
            del body["fps"]
            body["fps"] = 30
    elif kind == "pan":
        dist = rng.randint(200, 900)
        samples, at, tr = [], 0.0, 0.0
        for _ in range(rng.randint(2, 8)):
            samples.append([r3(at), r3(tr)])
            at += rng.uniform(0.02, 0.08)
            tr += rng.uniform(-0.05, 0.25) * dist
        g = {"kind": "pan", "distance": dist, "samples": samples}
        if rng.random() < 0.5:
            g["threshold"] = r3(rng.uniform(0.2, 0.8))
        inter["gesture"] = g
    else:
        samples, at, scale = [], 0.0, r3(rng.uniform(0.8, 2))
        for _ in range(rng.randint(2, 7)):
            samples.append([r3(at), r3(scale), r3(rng.uniform(-8, 8))])
            at += rng.uniform(0.02, 0.08)
            scale = max(0.05, scale * rng.uniform(0.6, 1.1))
        inter["gesture"] = {"kind": "pinch", "samples": samples}
    body["interaction"] = inter
    return kind, body


PHYSICS_MODELS = ["spring", "attachment", "popSpring", "snap", "decay"]
INTEGRATORS = ["exact", "euler", "rk4"]


def rand_dynamics(rng, model, integrator):
    dyn = {"model": model}
    if model == "spring":
        if rng.random() < 0.7:
            dyn["mass"] = r3(rng.uniform(0.5, 2))
            dyn["stiffness"] = rng.randint(100, 500)
            dyn["damping"] = rng.randint(10, 40)
    elif model == "attachment":
        dyn["frequency"] = r3(rng.uniform(1.5, 5))
        dyn["damping"] = r3(rng.uniform(0.3, 1.2))
    elif model == "popSpring":
        if rng.random() < 0.7:
            dyn["bounciness"] = rng.randint(0, 15)
            dyn["speed"] = rng.randint(6, 20)
    elif model == "snap":
        if rng.random() < 0.6:
            dyn["damping"] = r3(rng.uniform(0.2, 1))
    elif model == "decay":
        if rng.random() < 0.7:
            dyn["deceleration"] = rng.choice([0.99, 0.995, 0.998])
    if integrator != "exact" or rng.random() < 0.3:
        dyn["integrator"] = integrator
    if integrator != "exact" and rng.random() < 0.3:
        dyn["tickRate"] = rng.choice([30, 60, 120])
    if rng.random() < 0.15:
        dyn["threshold"] = rng.choice([0.1, 0.5, 2])
    if rng.random() < 0.1 and model != "decay":
        dyn["restSpeed"] = 2
        dyn["restDistance"] = 0.5
    return dyn


def rand_render_physics(rng, model=None, integrator=None, extra=None):
    model = model or rng.choice(PHYSICS_MODELS)
    integrator = integrator or rng.choice(INTEGRATORS)
    extra = extra if extra is not None else rng.choice(["none", "none", "retarget", "drag", "stop", "delay"])
    if model == "decay" and extra == "retarget":
        extra = "drag"
    channel = rng.choice(["center", "x", "alpha", "cornerRadius"])
    body = {"fps": rng.choice([30, 60])}
    if rng.random() < 0.15:
        body["velocities"] = True
    view = {}
    if channel == "center":
        view["center"] = [160, rng.randint(400, 700)]
    elif channel == "x":
        view["x"] = rng.randint(-50, 50)
    elif channel == "alpha":
        view["alpha"] = r3(rng.uniform(0, 1))
    else:
        view["cornerRadius"] = rng.randint(0, 20)
    body["views"] = {"p": view}
    a = {"id": "p", "view": "p"}
    scale = {"center": 800, "x": 400, "alpha": 2, "cornerRadius": 40}[channel]
    if model == "decay":
        a["channel"] = channel
    else:
        if channel == "center":
            a["to"] = {"center": [160, rng.randint(50, 300)]}
        elif channel == "x":
            a["to"] = {"x": rng.randint(100, 300)}
        elif channel == "alpha":
            a["to"] = {"alpha": r3(rng.uniform(0, 1))}
        else:
            a["to"] = {"cornerRadius": rng.randint(0, 40)}
    if rng.random() < 0.7 or model == "decay":
        if channel == "center":
            a["velocity"] = [rng.randint(-200, 200), rng.randint(-scale, scale)]
        else:
            a["velocity"] = r3(rng.uniform(-scale, scale))
        if model == "decay" and channel != "center" and abs(a["velocity"]) < scale * 0.2:
            a["velocity"] = r3(scale * 0.5)
    a["dynamics"] = rand_dynamics(rng, model, integrator)
    cmds = []
    if extra == "retarget":
        at = r3(rng.uniform(0.05, 0.4))
        if channel == "center":
            to = {"center": [160, rng.randint(300, 700)]}
        elif channel == "alpha":
            to = r3(rng.uniform(0, 1))
        else:
            to = rng.randint(-100, 100)
        c = {"at": at, "animation": "p", "op": "retarget", "to": to}
        if rng.random() < 0.4:
            c["velocity"] = [0, rng.randint(-300, 300)] if channel == "center" else r3(rng.uniform(-scale / 2, scale / 2))
        cmds.append(c)
    elif extra == "drag":
        at = r3(rng.uniform(0.05, 0.3))
        samples, tt = [], at
        for k in range(rng.randint(2, 6)):
            if channel == "center":
                samples.append([r3(tt), 160 + rng.randint(-10, 10), 500 - 40 * k + rng.randint(-5, 5)])
            elif channel == "alpha":
                samples.append([r3(tt), r3(rng.uniform(0, 1))])
            elif channel == "cornerRadius":
                samples.append([r3(tt), rng.randint(0, 60)])
            else:
                samples.append([r3(tt), rng.randint(-50, 150)])
            tt += rng.uniform(0.02, 0.06)
        cmds.append({"at": at, "animation": "p", "op": "drag", "samples": samples})
    elif extra == "stop":
        cmds.append({"at": r3(rng.uniform(0.05, 0.3)), "animation": "p", "op": "stop"})
    elif extra == "delay":
        a["delay"] = r3(rng.uniform(0.05, 0.3))
    body["animations"] = [a]
    if cmds:
        body["commands"] = cmds
    if integrator == "euler" or (model == "decay" and channel in ("alpha",)) or rng.random() < 0.2:
        body["until"] = r3(rng.uniform(1, 2.5))
    return "%s %s %s %s" % (model, integrator, channel, extra), body


def add_render_cases(c, rng):
    P = "/v1/render"
    # block animations on every channel
    base_views = {
        "f": {"frame": [0, 568, 320, 568]},
        "cb": {"center": [160, 284], "bounds": [0, 0, 320, 568]},
    }
    channel_cases = [
        ("frame", "f", {"frame": [0, 0, 320, 568]}),
        ("center", "cb", {"center": [200, 100]}),
        ("bounds", "cb", {"bounds": [0, 0, 160, 284]}),
        ("alpha default start", "f", {"alpha": 0}),
        ("backgroundColor default start", "f", {"backgroundColor": [1, 0.5, 0, 1]}),
        ("cornerRadius default start", "f", {"cornerRadius": 24}),
        ("transform components", "cb", {"transform": {"translation": [40, -20], "scale": [0.5, 1.5], "rotation": 1.2}}),
        ("transform matrix", "cb", {"transform": {"matrix": [0, 1, -1, 0, 10, 20]}}),
        ("transform ops", "cb", {"transform": {"ops": [{"translate": [180, 0]}, {"rotate": 0.94}, {"scale": [2, 2]}]}}),
        ("transform rotation pi shorter arc", "cb", {"transform": {"rotation": 3.141592653589793}}),
        ("transform rotation over pi", "cb", {"transform": {"rotation": 4}}),
        ("transform scale 0 components", "cb", {"transform": {"scale": [0, 0]}}),
        ("transform singular matrix", "cb", {"transform": {"matrix": [0, 0, 0, 0, 0, 0]}}),
        ("transform flip", "cb", {"transform": {"scale": [-1, 1]}}),
    ]
    for label, vname, to in channel_cases:
        body = {"fps": 30, "views": {vname: base_views[vname]},
                "animations": [{"view": vname, "duration": 0.5, "to": to}]}
        c.post("render/block %s" % label, P, body)
    for label, to in [("rotation 2pi", {"transform": {"rotation": 6.283185307179586}}),
                      ("ops rotate sum", {"transform": {"ops": [{"rotate": 3}, {"rotate": 3}]}}),
                      ("matrix atan2", {"transform": {"matrix": [-1, 0, 0, -1, 0, 0]}})]:
        c.post("render/block rotationPath direct %s" % label, P,
               {"fps": 20, "views": {"v": {"transform": {"rotation": 0}}},
                "animations": [{"view": "v", "duration": 1, "timing": "linear", "rotationPath": "direct", "to": to}]})
    c.post("render/block custom scalar and vector", P,
           {"fps": 10, "views": {"v": {"blur": 0, "uniform": [0, 1, 2]}},
            "animations": [{"view": "v", "duration": 1, "to": {"blur": 8, "uniform": [3, 2, 1]}}]})
    c.post("render/block all channels velocities", P,
           {"fps": 10, "velocities": True,
            "views": {"v": {"frame": [0, 0, 100, 100], "alpha": 0.2, "transform": {"rotation": 0.1},
                            "backgroundColor": [0, 0, 0, 1], "cornerRadius": 2, "blur": 1, "tint": [0, 0]}},
            "animations": [{"view": "v", "duration": 0.8, "timing": "ease-in-out",
                            "to": {"frame": [50, 50, 200, 40], "alpha": 1, "transform": {"scale": [2, 2]},
                                   "backgroundColor": [1, 1, 1, 1], "cornerRadius": 20, "blur": 0, "tint": [5, -5]}}]})
    # docs/rules.md "The render route" example and variations
    ex = {"fps": 60, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 1}},
          "animations": [{"id": "present", "view": "card", "duration": 0.8,
                          "timing": {"type": "spring", "dampingRatio": 0.6, "initialVelocity": 0},
                          "to": {"frame": [0, 0, 320, 568]}}]}
    c.post("render/api example present", P, ex)
    c.post("render/api example present csv", P, ex, query="?format=csv")
    c.post("render/api example present Accept csv", P, ex, headers={"Accept": "text/csv"})
    c.post("render/api example present gzip", P, ex, headers={"Accept-Encoding": "gzip"})
    c.post("render/api example present csv gzip", P, ex, headers={"Accept-Encoding": "gzip"}, query="?format=csv")
    c.post("render/api example expand=false", P, ex, query="?expand=false")
    c.post("render/api example expand=true no preset", P, ex, query="?expand=true")
    # repeats, autoreverse, delays, blending, springs
    for label, extra in [("repeat 2", {"repeatCount": 2}), ("repeat 1.5 autoreverses", {"repeatCount": 1.5, "autoreverses": True}),
                         ("repeat 0", {"repeatCount": 0}), ("autoreverses", {"autoreverses": True}),
                         ("delay", {"delay": 0.25}), ("pausesOnCompletion", {"pausesOnCompletion": True}),
                         ("autostart false", {"autostart": False})]:
        a = {"view": "v", "duration": 0.5, "timing": "linear", "to": {"x": 10}}
        a.update(extra)
        c.post("render/block %s" % label, P, {"fps": 20, "views": {"v": {"x": 0}}, "animations": [a]})
    c.post("render/block repeat infinite until", P,
           {"fps": 20, "until": 1.3, "views": {"v": {"x": 0}},
            "animations": [{"view": "v", "duration": 0.4, "repeatCount": "infinite", "autoreverses": True, "to": {"x": 10}}]})
    c.post("render/block additive blend", P,
           {"fps": 4, "views": {"v": {"x": 0, "transform": {"rotation": 0}, "backgroundColor": [0, 0, 0, 1]}},
            "animations": [
                {"view": "v", "duration": 1, "timing": "linear", "to": {"x": 100, "transform": {"scale": [2, 2]},
                                                                           "backgroundColor": [0.5, 0, 0, 1]}},
                {"view": "v", "duration": 1, "delay": 0.5, "timing": "linear", "blend": "additive",
                 "to": {"x": 200, "transform": {"rotation": 1, "scale": [3, 3]}, "backgroundColor": [0, 0.5, 0, 1]}}]})
    c.post("render/block replace from presented value", P,
           {"fps": 10, "views": {"v": {"center": [0, 0]}},
            "animations": [{"view": "v", "duration": 1, "to": {"center": [100, 100]}},
                           {"view": "v", "duration": 0.5, "delay": 0.4, "to": {"center": [0, 200]}}]})
    for kind in ["physical", "android", "response", "perceptual", "pop", "origami"]:
        t, _ = rand_spring(random.Random(kind), kind, velocity=False)
        if kind == "physical":
            t["damping"] = 20
        c.post("render/block spring %s no duration" % kind, P,
               {"fps": 30, "views": {"v": {"center": [0, 0]}},
                "animations": [{"view": "v", "timing": t, "to": {"center": [100, 50]}}]})
    c.post("render/block spring uikit initialVelocity delay", P,
           {"fps": 30, "views": {"v": {"alpha": 0}},
            "animations": [{"view": "v", "duration": 0.6, "delay": 0.1,
                            "timing": {"type": "spring", "dampingRatio": 0.4, "initialVelocity": 3}, "to": {"alpha": 1}}]})
    c.post("render/block undamped spring until (the baseline answers 422)", P,
           {"fps": 20, "until": 1, "views": {"v": {"x": 0}},
            "animations": [{"view": "v", "timing": {"type": "spring", "stiffness": 100, "damping": 0}, "to": {"x": 1}}]})
    c.post("render/at grid", P,
           {"at": [0, 0, 0.1, 0.25, 0.25, 0.9, 3], "views": {"v": {"x": 0}},
            "animations": [{"view": "v", "duration": 1, "to": {"x": 1}}]})
    c.post("render/until shorter than animation", P,
           {"fps": 10, "until": 0.35, "views": {"v": {"x": 0}}, "animations": [{"view": "v", "duration": 1, "to": {"x": 1}}]})
    c.post("render/until 0", P, {"until": 0, "views": {"v": {"x": 0}}, "animations": [{"view": "v", "duration": 1, "to": {"x": 1}}]})
    c.post("render/no animations", P, {"views": {"v": {"frame": [0, 0, 10, 10]}}})
    c.post("render/fps 1000 short", P, {"fps": 1000, "views": {"v": {"x": 0}},
                                        "animations": [{"view": "v", "duration": 0.05, "to": {"x": 1}}]})
    c.post("render/fps 1", P, {"fps": 1, "views": {"v": {"x": 0}}, "animations": [{"view": "v", "duration": 3, "to": {"x": 1}}]})
    # keyframes (UIView) and values (CAKeyframeAnimation)
    c.post("render/keyframes readme rotation csv", P,
           {"at": [0, 0.15, 0.25, 0.5, 1], "views": {"card": {"transform": {"rotation": 0}}, "cover": {"alpha": 1}},
            "animations": [{"view": "card", "duration": 1, "keyframes": [
                {"start": 0, "duration": 0.15, "to": {"transform": {"rotation": -4.71238898038469}}},
                {"start": 0.15, "duration": 0.1, "to": {"transform": {"rotation": 3.141592653589793}}},
                {"start": 0.25, "duration": 0.75, "to": {"transform": {"ops": [{"translate": [180, 0]}, {"rotate": 0.94}]}}}]},
                {"view": "cover", "duration": 1, "to": {"alpha": 0}}]}, query="?format=csv")
    c.post("render/keyframes overlapping and late channel", P,
           {"fps": 20, "views": {"v": {"center": [0, 0], "alpha": 1}},
            "animations": [{"view": "v", "duration": 1, "timing": "linear", "keyframes": [
                {"start": 0, "duration": 0.5, "to": {"center": [100, 0]}},
                {"start": 0.3, "duration": 0.5, "to": {"center": [100, 100]}},
                {"start": 0.6, "duration": 0.4, "to": {"alpha": 0}}]}]})
    for mode in ["linear", "discrete", "paced", "cubic", "cubicPaced"]:
        c.post("render/keyframes calculationMode %s" % mode, P,
               {"fps": 20, "views": {"v": {"center": [0, 0]}},
                "animations": [{"view": "v", "duration": 1, "calculationMode": mode, "keyframes": [
                    {"start": 0, "duration": 0.25, "to": {"center": [100, 0]}},
                    {"start": 0.25, "duration": 0.25, "to": {"center": [100, 100]}},
                    {"start": 0.5, "duration": 0.5, "to": {"center": [0, 300]}}]}]})
    for mode in ["linear", "discrete", "paced", "cubic", "cubicPaced"]:
        c.post("render/values %s 1-D" % mode, P,
               {"fps": 10, "velocities": True, "views": {"v": {"blur": 0}},
                "animations": [{"view": "v", "duration": 1, "timing": "linear", "channel": "blur",
                                "values": [0, 8, 2, 10], "calculationMode": mode}]})
        c.post("render/values %s 2-D" % mode, P,
               {"fps": 10, "views": {"v": {"center": [0, 0]}},
                "animations": [{"view": "v", "duration": 1, "channel": "center",
                                "values": [[0, 0], [100, 0], [100, 50], [0, 200]], "calculationMode": mode}]})
    c.post("render/values cubicPaced 1-D TCB", P,
           {"fps": 10, "views": {"v": {"blur": 0}},
            "animations": [{"view": "v", "duration": 1, "channel": "blur", "values": [0, 8, 2, 10, 0],
                            "calculationMode": "cubicPaced", "tensionValues": [0, 0.5, -0.5, 1, 0],
                            "continuityValues": [0, 0.3, 0, -0.3, 0], "biasValues": [0, -1, 1, 0, 0]}]})
    c.post("render/values cubicPaced 2-D TCB", P,
           {"fps": 10, "views": {"v": {"center": [0, 0]}},
            "animations": [{"view": "v", "duration": 1, "channel": "center",
                            "values": [[0, 0], [50, 100], [200, 50], [300, 300]],
                            "calculationMode": "cubicPaced", "tensionValues": [0.2, 0.2, 0.2, 0.2],
                            "continuityValues": [0, 0, 0, 0], "biasValues": [0.5, 0, -0.5, 0]}]})
    c.post("render/values cubic TCB keyTimes", P,
           {"fps": 10, "views": {"v": {"blur": 0}},
            "animations": [{"view": "v", "duration": 1, "channel": "blur", "values": [0, 8, 2, 10],
                            "keyTimes": [0, 0.2, 0.7, 1], "calculationMode": "cubic", "tensionValues": [1, 1, 1, 1],
                            "continuityValues": [-1, -1, 0, 0], "biasValues": [0, 0, 0.5, 0.5]}]})
    c.post("render/values linear keyTimes timingFunctions", P,
           {"fps": 10, "views": {"v": {"alpha": 1}},
            "animations": [{"view": "v", "duration": 1, "channel": "alpha", "values": [1, 0, 0.5],
                            "keyTimes": [0, 0.3, 1], "timingFunctions": ["easeIn", {"type": "easeOut"}]}]})
    c.post("render/values discrete keyTimes n+1", P,
           {"fps": 10, "views": {"v": {"x": 0}},
            "animations": [{"view": "v", "duration": 1, "channel": "x", "values": [0, 5, 10],
                            "calculationMode": "discrete", "keyTimes": [0, 0.2, 0.5, 1]}]})
    c.post("render/values warnings mismatched keyTimes", P,
           {"fps": 10, "views": {"v": {"x": 0}},
            "animations": [{"view": "v", "duration": 1, "channel": "x", "values": [0, 5, 10],
                            "keyTimes": [0.1, 0.5], "timingFunctions": ["linear"], "tensionValues": [1]}]})
    c.post("render/values transform", P,
           {"fps": 10, "views": {"v": {"transform": {"rotation": 0}}},
            "animations": [{"view": "v", "duration": 1, "channel": "transform",
                            "values": [{"rotation": 0}, {"rotation": 3}, {"matrix": [1, 0, 0, 1, 50, 0]},
                                       {"ops": [{"scale": [2, 2]}]}]}]})
    c.post("render/values backgroundColor paced", P,
           {"fps": 10, "views": {"v": {"backgroundColor": [0, 0, 0, 1]}},
            "animations": [{"view": "v", "duration": 1, "channel": "backgroundColor", "calculationMode": "paced",
                            "values": [[0, 0, 0, 1], [1, 0, 0, 1], [1, 1, 0, 1]]}]})
    # commands: every op
    C = lambda at, op, **kw: dict({"at": at, "animation": "a", "op": op}, **kw)
    cmd_cases = [
        ("readme pause start reverse", {}, [C(0.3, "pause"), C(0.5, "start"), C(0.8, "reverse")]),
        ("start with delay", {"autostart": False}, [C(0.1, "start", delay=0.2)]),
        ("pause no-op twice", {}, [C(0.2, "pause"), C(0.3, "pause"), C(0.5, "start")]),
        ("stop withoutFinishing default", {}, [C(0.4, "stop")]),
        ("stop then finish end", {}, [C(0.4, "stop", withoutFinishing=False), C(0.6, "finish", position="end")]),
        ("stop then finish start", {}, [C(0.4, "stop", withoutFinishing=False), C(0.6, "finish", position="start")]),
        ("stop then finish current", {}, [C(0.4, "stop", withoutFinishing=False), C(0.6, "finish", position="current")]),
        ("reverse then unreverse", {}, [C(0.3, "reverse"), C(0.5, "reverse", reversed=False)]),
        ("reverse inactive", {"autostart": False}, [C(0.1, "reverse"), C(0.2, "start")]),
        ("fraction while running", {}, [C(0.3, "fraction", value=0.8), C(0.6, "start")]),
        ("fraction inactive then continue", {"autostart": False}, [C(0.1, "fraction", value=0.5), C(0.3, "continue")]),
        ("continue with timing and factor", {}, [C(0.2, "pause"), C(0.3, "continue", timing="ease-in", durationFactor=0.5)]),
        ("continue with uikit spring", {}, [C(0.2, "pause"),
                                            C(0.3, "continue", timing={"type": "spring", "dampingRatio": 0.5})]),
        ("continue with response spring", {}, [C(0.2, "pause"),
                                               C(0.3, "continue", timing={"type": "spring", "response": 0.3, "dampingRatio": 0.7})]),
        ("continue reversed", {}, [C(0.3, "pause"), C(0.35, "reverse"), C(0.4, "continue", durationFactor=2)]),
        ("addAnimations running", {}, [C(0.2, "addAnimations", to={"y": 50}, delayFactor=0.5)]),
        ("addAnimations inactive", {"autostart": False}, [C(0, "addAnimations", to={"y": 50}), C(0.2, "start")]),
        ("addAnimations paused", {}, [C(0.2, "pause"), C(0.3, "addAnimations", to={"x": 0}), C(0.5, "start")]),
        ("pause during delay", {"delay": 0.3}, [C(0.1, "pause"), C(0.4, "start")]),
        ("fraction cancels delay", {"delay": 0.3}, [C(0.1, "fraction", value=0.25), C(0.2, "start")]),
        ("scrubsLinearly false", {"scrubsLinearly": False, "timing": "ease-in"},
         [C(0.2, "fraction", value=0.5), C(0.4, "start")]),
        ("scrub jump warning", {"timing": "ease-in"}, [C(0.2, "fraction", value=0.5), C(0.4, "start")]),
        ("pausesOnCompletion then reverse", {"pausesOnCompletion": True}, [C(1.2, "reverse"), C(1.3, "start")]),
        ("same-time commands in array order", {}, [C(0.3, "pause"), C(0.3, "fraction", value=0.1), C(0.3, "start")]),
        ("commands out of time order", {}, [C(0.6, "start"), C(0.3, "pause")]),
    ]
    for label, extra, cmds in cmd_cases:
        a = {"id": "a", "view": "v", "duration": 1, "to": {"x": 100}}
        a.update(extra)
        c.post("render/commands %s" % label, P,
               {"fps": 10, "views": {"v": {"x": 0, "y": 0}}, "animations": [a], "commands": cmds})
    # interaction
    c.post("render/interaction updates finish", P,
           {"fps": 30, "views": {"v": {"center": [200, 400]}},
            "animations": [{"id": "dismiss", "view": "v", "duration": 0.4, "to": {"center": [200, -400]}}],
            "interaction": {"animations": ["dismiss"], "updates": [{"at": 0.0, "percent": 0.0}, {"at": 0.1, "percent": 0.25}],
                            "end": {"at": 0.4, "action": "finish"}, "completionSpeed": 1, "completionCurve": "easeInOut"}})
    c.post("render/interaction updates cancel", P,
           {"fps": 30, "views": {"v": {"center": [200, 400]}},
            "animations": [{"id": "dismiss", "view": "v", "duration": 0.4, "to": {"center": [200, -400]}}],
            "interaction": {"animations": ["dismiss"], "updates": [{"at": 0.0, "percent": 0.0}, {"at": 0.1, "percent": 0.25}],
                            "end": {"at": 0.2, "action": "cancel"}, "completionSpeed": 2, "completionCurve": "linear"}})
    c.post("render/interaction pan readme", P,
           {"fps": 30, "views": {"sheet": {"center": [200, 400]}},
            "animations": [{"id": "dismiss", "view": "sheet", "duration": 0.4, "timing": "linear", "to": {"center": [200, -400]}}],
            "interaction": {"animations": ["dismiss"], "completionSpeed": 1,
                            "gesture": {"kind": "pan", "distance": 800, "samples": [[0, 0], [0.1, 200], [0.2, 450]]}}})
    c.post("render/interaction pan cancels below threshold", P,
           {"fps": 30, "views": {"sheet": {"center": [200, 400]}},
            "animations": [{"id": "dismiss", "view": "sheet", "duration": 0.4, "timing": "linear", "to": {"center": [200, -400]}}],
            "interaction": {"animations": ["dismiss"],
                            "gesture": {"kind": "pan", "distance": 800, "threshold": 0.7,
                                        "samples": [[0, 0], [0.1, 200], [0.2, 450], [0.25, -50]]}}})
    c.post("render/interaction pinch finishes", P,
           {"fps": 30, "views": {"v": {"alpha": 1}},
            "animations": [{"id": "a", "view": "v", "duration": 0.5, "to": {"alpha": 0}}],
            "interaction": {"animations": ["a"], "gesture": {"kind": "pinch",
                                                             "samples": [[0, 1, 0], [0.1, 0.8, -2], [0.2, 0.5, -6]]}}})
    c.post("render/interaction pinch cancels", P,
           {"fps": 30, "views": {"v": {"alpha": 1}},
            "animations": [{"id": "a", "view": "v", "duration": 0.5, "to": {"alpha": 0}}],
            "interaction": {"animations": ["a"], "gesture": {"kind": "pinch",
                                                             "samples": [[0, 1, 0], [0.1, 0.9, -1], [0.2, 0.8, -2]]}}})
    # physics: every model and integrator
    for model in PHYSICS_MODELS:
        for integ in INTEGRATORS:
            r = random.Random("%s/%s" % (model, integ))
            label, body = rand_render_physics(r, model, integ, "none")
            c.post("render/physics %s" % label, P, body)
    c.post("render/physics readme pane", P,
           {"fps": 60, "views": {"pane": {"center": [160, 500]}},
            "animations": [{"view": "pane", "to": {"center": [160, 100]}, "velocity": [0, -800],
                            "dynamics": {"model": "attachment", "frequency": 3.5, "damping": 0.4}}]})
    c.post("render/physics retarget keeps velocity", P,
           {"fps": 30, "views": {"v": {"x": 0}},
            "animations": [{"id": "p", "view": "v", "to": {"x": 100}, "dynamics": {"model": "spring", "stiffness": 200, "damping": 15}}],
            "commands": [{"at": 0.2, "animation": "p", "op": "retarget", "to": -50}]})
    c.post("render/physics retarget channel map with velocity", P,
           {"fps": 30, "views": {"v": {"center": [0, 0]}},
            "animations": [{"id": "p", "view": "v", "to": {"center": [100, 100]}, "dynamics": {"model": "snap"}}],
            "commands": [{"at": 0.3, "animation": "p", "op": "retarget", "to": {"center": [0, 200]}, "velocity": [100, -100]}]})
    c.post("render/physics retarget after settle", P,
           {"fps": 30, "views": {"v": {"x": 0}},
            "animations": [{"id": "p", "view": "v", "to": {"x": 10}, "dynamics": {"model": "attachment", "frequency": 5, "damping": 1}}],
            "commands": [{"at": 2, "animation": "p", "op": "retarget", "to": 20}]})
    c.post("render/physics drag and release", P,
           {"fps": 60, "views": {"v": {"center": [160, 900]}},
            "animations": [{"id": "p", "view": "v", "to": {"center": [160, 900]}, "autostart": False,
                            "dynamics": {"model": "attachment", "frequency": 3.5, "damping": 0.4}}],
            "commands": [{"at": 0, "animation": "p", "op": "drag",
                          "samples": [[0, 160, 900], [0.05, 160, 880], [0.1, 160, 840], [0.15, 160, 780]]},
                         {"at": 0.15, "animation": "p", "op": "retarget", "to": {"center": [160, 300]}}]})
    c.post("render/physics drag two samples decay", P,
           {"fps": 30, "views": {"v": {"x": 0}},
            "animations": [{"id": "p", "view": "v", "channel": "x", "dynamics": {"model": "decay"}}],
            "commands": [{"at": 0.1, "animation": "p", "op": "drag", "samples": [[0.1, 0], [0.2, 50]]}]})
    c.post("render/physics stop", P,
           {"fps": 30, "views": {"v": {"x": 0}},
            "animations": [{"id": "p", "view": "v", "to": {"x": 100}, "dynamics": {"model": "popSpring"}}],
            "commands": [{"at": 0.2, "animation": "p", "op": "stop"}]})
    c.post("render/physics readme popSpring rk4 and decay", P,
           {"fps": 60, "views": {"v": {"x": 0, "y": 0}}, "animations": [
               {"view": "v", "to": {"x": 100}, "velocity": -500,
                "dynamics": {"model": "popSpring", "bounciness": 15, "speed": 10, "integrator": "rk4"}},
               {"view": "v", "channel": "y", "velocity": 1000, "dynamics": {"model": "decay", "deceleration": 0.998}}]})
    c.post("render/physics euler tickRate 120 restSpeed", P,
           {"fps": 60, "views": {"v": {"alpha": 0}},
            "animations": [{"view": "v", "to": {"alpha": 1},
                            "dynamics": {"model": "spring", "stiffness": 300, "damping": 20, "integrator": "euler",
                                         "tickRate": 120, "restSpeed": 0.5, "restDistance": 0.01}}]})
    c.post("render/physics overdamped spring", P,
           {"fps": 30, "views": {"v": {"cornerRadius": 0}},
            "animations": [{"view": "v", "to": {"cornerRadius": 30}, "dynamics": {"model": "spring", "stiffness": 100, "damping": 50}}]})
    c.post("render/physics delay and autostart false start", P,
           {"fps": 30, "views": {"v": {"x": 0, "y": 0}},
            "animations": [{"view": "v", "to": {"x": 100}, "delay": 0.2, "dynamics": {"model": "snap", "damping": 0.8}},
                           {"id": "q", "view": "v", "to": {"y": 100}, "autostart": False, "dynamics": {"model": "snap"}}],
            "commands": [{"at": 0.3, "animation": "q", "op": "retarget", "to": 50}]})
    # large results (streamed above 1 MiB)
    views = {"v%03d" % i: {"frame": [i, i, 10, 10], "alpha": 1} for i in range(60)}
    big = {"fps": 120, "views": views,
           "animations": [{"view": "v%03d" % i, "duration": 3, "timing": "ease-in-out",
                           "to": {"frame": [i * 2, 300 - i, 20, 20], "alpha": 0}} for i in range(60)]}
    c.post("render/large streamed json", P, big)
    c.post("render/large streamed json gzip asked", P, big, headers={"Accept-Encoding": "gzip"})
    c.post("render/large streamed csv", P, big, query="?format=csv")
    mid = {"fps": 60, "views": {"v%d" % i: {"center": [i, 0]} for i in range(10)},
           "animations": [{"view": "v%d" % i, "duration": 2, "to": {"center": [0, i * 10]}} for i in range(10)]}
    c.post("render/medium json gzip", P, mid, headers={"Accept-Encoding": "gzip"})
    c.post("render/medium csv gzip", P, mid, headers={"Accept-Encoding": "gzip"}, query="?format=csv")
    c.post("render/small gzip not compressed", P, {"fps": 2, "views": {"v": {"x": 0}},
                                                   "animations": [{"view": "v", "duration": 1, "to": {"x": 1}}]},
           headers={"Accept-Encoding": "gzip"})


def add_render_random(c, rng, count):
    P = "/v1/render"
    kinds = ["block"] * 6 + ["keyframes"] * 2 + ["values"] * 3 + ["commands"] * 3 + ["interaction"] * 2 + ["physics"] * 3
    for i in range(count):
        kind = rng.choice(kinds)
        label = kind
        if kind == "block":
            body = rand_render_block(rng)
        elif kind == "keyframes":
            body = rand_render_keyframes(rng)
        elif kind == "values":
            body = rand_render_values(rng)
            a = body["animations"][0]
            label += " %s %s" % (a.get("calculationMode", "linear"), a["channel"])
        elif kind == "commands":
            script, body = rand_render_commands(rng)
            label += " " + script
        elif kind == "interaction":
            k, body = rand_render_interaction(rng)
            label += " " + k
        else:
            k, body = rand_render_physics(rng)
            label += " " + k
        headers, query = {}, ""
        x = rng.random()
        if x < 0.12:
            query = "?format=csv"
            label += " csv"
        elif x < 0.17:
            headers["Accept"] = "text/csv"
            label += " accept-csv"
        if rng.random() < 0.2:
            headers["Accept-Encoding"] = "gzip"
            label += " gzip"
        c.post("render/random %03d %s" % (i, label), P, body, headers=headers, query=query)


# --- presets ----------------------------------------------------------------------------------

def preset_variation(rng, name, params):
    """Random values for a preset's documented parameters (by name)."""
    out = {}
    for key, spec in params.items():
        if rng.random() < 0.5:
            continue
        default = spec.get("default")
        if key == "duration":
            out[key] = r3(rng.uniform(0.2, 1.2))
        elif key == "timing":
            out[key] = rand_timing_nonspring(rng) if name in ("dropDismiss", "swipeUpDismiss") or rng.random() < 0.7 \
                else {"type": "spring", "dampingRatio": r3(rng.uniform(0.4, 1))}
        elif key == "completionCurve":
            out[key] = rand_timing_nonspring(rng)
        elif key in ("dampingRatio",):
            out[key] = r3(rng.uniform(0.2, 1))
        elif key == "initialVelocity":
            out[key] = r3(rng.uniform(-1, 3))
        elif key == "coverColor":
            out[key] = [r3(rng.uniform(0, 1)) for _ in range(4)]
        elif key == "distance":
            out[key] = rng.randint(200, 900)
        elif key == "threshold":
            out[key] = r3(rng.uniform(0.2, 0.8))
        elif key == "completionSpeed":
            out[key] = rng.choice([0.5, 1, 2])
        elif key == "frequency":
            out[key] = r3(rng.uniform(2, 5))
        elif key == "damping":
            out[key] = r3(rng.uniform(0.3, 1))
        elif key == "taps":
            out[key] = sorted(r3(rng.uniform(0.3, 1.5)) for _ in range(rng.randint(0, 2)))
        elif key == "open" and name == "pane":
            out[key] = rng.choice([rng.randint(200, 400), [rng.randint(100, 300), rng.randint(200, 400)]])
        elif key == "closed" and name == "pane":
            out[key] = rng.choice([rng.randint(800, 1100), [200, rng.randint(800, 1100)]])
        elif key == "samples" and name == "pane":
            if rng.random() < 0.3:
                out[key] = []
            else:
                y, t, s = 1300, 0.0, []
                for _ in range(rng.randint(2, 6)):
                    s.append([r3(t), y])
                    t += 0.05
                    y -= rng.randint(-10, 80)
                out[key] = s
        elif key == "samples" and name == "swipeUpDismiss":
            tr, t, s = 0.0, 0.0, []
            for _ in range(rng.randint(2, 6)):
                s.append([r3(t), r3(tr)])
                t += 0.05
                tr += rng.randint(-20, 200)
            out[key] = s
        elif isinstance(default, (int, float)) and not isinstance(default, bool):
            out[key] = default
    return out


def add_presets(c, rng, presets, count):
    P = "/v1/render"
    containers = [[0, 0, 390, 844], [0, 0, 320, 568], [10, 20, 768, 1024]]
    for p in presets:
        name = p["name"]
        body = {"transition": {"preset": name, "container": [0, 0, 390, 844]}}
        c.post("preset/%s defaults" % name, P, body)
        c.post("preset/%s defaults expand=true" % name, P, body, query="?expand=true")
        c.post("preset/%s defaults fps 30 csv" % name, P,
               {"fps": 30, "transition": {"preset": name, "container": [0, 0, 320, 568]}}, query="?format=csv")
        params = {k: v["default"] for k, v in p.get("parameters", {}).items() if v.get("default") is not None}
        body = {"fps": 30, "transition": dict({"preset": name, "container": [0, 0, 320, 568]}, **params)}
        c.post("preset/%s explicit defaults" % name, P, body)
    names = [p["name"] for p in presets]
    for i in range(count):
        p = presets[i % len(presets)]
        name = p["name"]
        tr = {"preset": name, "container": rng.choice(containers)}
        tr.update(preset_variation(rng, name, p.get("parameters", {})))
        body = {"transition": tr}
        if rng.random() < 0.5:
            body["fps"] = rng.choice([20, 30, 60])
        query = "?expand=true" if rng.random() < 0.3 else ""
        headers = {"Accept-Encoding": "gzip"} if rng.random() < 0.2 else {}
        c.post("preset/random %03d %s%s" % (i, name, " expand" if query else ""), P, body, headers=headers, query=query)
    c.post("preset/readme pane dragged and tapped", P,
           {"fps": 60, "transition": {"preset": "pane", "container": [0, 0, 400, 1000],
                                      "samples": [[0, 900], [0.1, 820], [0.2, 740]], "taps": [0.4]}})
    assert len(set(names)) == len(names)


# --- errors -----------------------------------------------------------------------------------

def add_errors(c):
    P, R = "/v1/curve", "/v1/render"
    # 400: syntax, types, numbers, nesting, encoding
    raw = [
        ("empty body", P, ""),
        ("truncated object", P, '{"timing": "ease"'),
        ("trailing comma", P, '{"timing": "ease",}'),
        ("single quotes", P, "{'timing': 'ease'}"),
        ("top-level array", P, '["ease"]'),
        ("top-level string", P, '"ease"'),
        ("trailing garbage", P, '{"timing": "ease"} x'),
        ("NaN literal", P, '{"timing": "ease", "duration": NaN}'),
        ("Infinity literal", P, '{"timing": "ease", "duration": Infinity}'),
        ("number beyond double", P, '{"timing": "ease", "duration": 1e400}'),
        ("leading zero number", P, '{"timing": "ease", "samples": 010}'),
        ("bad escape", P, '{"timing": "e\\qase"}'),
        ("lone surrogate escape", P, '{"timing": "\\ud800"}'),
        ("control char in string", P, '{"timing": "ea\tse"}'),
        ("duplicate key", P, '{"timing": "ease", "timing": "linear"}'),
        ("nesting over 64", P, '{"timing": "ease", "at": ' + "[" * 70 + "]" * 70 + "}"),
        ("render nesting over 64", R, '{"views": ' + '{"a":' * 70 + "1" + "}" * 70 + "}"),
        ("wrong type timing number", P, '{"timing": 5}'),
        ("wrong type samples string", P, '{"timing": "ease", "samples": "5"}'),
        ("wrong type at object", P, '{"timing": "ease", "at": {}}'),
        ("wrong type at element", P, '{"timing": "ease", "at": [0, "1"]}'),
        ("wrong type views array", R, '{"views": []}'),
        ("wrong type animations object", R, '{"views": {"v": {"x": 0}}, "animations": {}}'),
        ("wrong type velocities string", R, '{"views": {"v": {"x": 0}}, "velocities": "yes"}'),
    ]
    for label, path, body in raw:
        c.post("error/%s %s" % (path.rsplit("/", 1)[1], label), path, body)
    c.add("error/curve invalid UTF-8", "POST", P, headers=JSON_CT, body_bytes=b'{"timing": "ea\xffse"}')
    c.add("error/curve invalid UTF-8 overlong", "POST", P, headers=JSON_CT, body_bytes=b'{"timing": "\xc0\xafease"}')
    c.add("error/render invalid UTF-8 key", "POST", R, headers=JSON_CT, body_bytes=b'{"views": {"\xfe": {"x": 0}}}')
    # 422: curve
    bad_curve = [
        ("missing timing", {"samples": 5}),
        ("unknown member", {"timing": "ease", "sample": 5}),
        ("unknown timing keyword", {"timing": "bounce"}),
        ("unknown timing type", {"timing": {"type": "bounce"}}),
        ("cubic-bezier x out of range", {"timing": {"type": "cubicBezier", "p1": [1.5, 0], "p2": [0.5, 1]}}),
        ("cubic-bezier string x negative", {"timing": "cubic-bezier(-0.1, 0, 1, 1)"}),
        ("cubic-bezier three args", {"timing": "cubic-bezier(0.1, 0, 1)"}),
        ("steps(1, jump-none)", {"timing": "steps(1, jump-none)"}),
        ("steps(0)", {"timing": "steps(0)"}),
        ("steps fractional count", {"timing": {"type": "steps", "count": 2.5}}),
        ("steps unknown position", {"timing": {"type": "steps", "count": 2, "position": "middle"}}),
        ("linear() one stop", {"timing": "linear(0.5)"}),
        ("linear() bad syntax", {"timing": "linear(0, , 1)"}),
        ("piecewiseLinear one point", {"timing": {"type": "piecewiseLinear", "points": [[0, 0]]}}),
        ("samples 1", {"timing": "ease", "samples": 1}),
        ("samples fractional", {"timing": "ease", "samples": 2.5}),
        ("samples and fps", {"timing": "ease", "samples": 5, "fps": 10}),
        ("fps and at", {"timing": "ease", "fps": 10, "at": [0]}),
        ("fps 0", {"timing": "ease", "fps": 0}),
        ("fps 1001", {"timing": "ease", "fps": 1001}),
        ("duration negative", {"timing": "ease", "duration": -1}),
        ("duration 0", {"timing": "ease", "duration": 0}),
        ("duration over 3600", {"timing": "ease", "duration": 3601}),
        ("empty at", {"timing": "ease", "at": []}),
        ("uikit spring without duration", {"timing": {"type": "spring", "dampingRatio": 0.5}}),
        ("undamped spring without duration or at", {"timing": {"type": "spring", "stiffness": 100, "damping": 0}}),
        ("ambiguous spring sets", {"timing": {"type": "spring", "response": 0.5, "bounce": 0.2}}),
        ("ambiguous spring mass and tension", {"timing": {"type": "spring", "mass": 1, "tension": 40}}),
        ("spring no parameters", {"timing": {"type": "spring"}}),
        ("spring negative mass", {"timing": {"type": "spring", "mass": -1, "stiffness": 100, "damping": 10}}),
        ("spring zero stiffness", {"timing": {"type": "spring", "stiffness": 0, "dampingRatio": 0.5}}),
        ("spring unknown member", {"timing": {"type": "spring", "response": 0.5, "dampingRatio": 0.5, "foo": 1}}),
        ("spring bounce out of range", {"timing": {"type": "spring", "perceptualDuration": 0.5, "bounce": 1.5}}),
        ("spring allowsOverdamping wrong set", {"timing": {"type": "spring", "response": 0.5, "dampingRatio": 0.5,
                                                           "allowsOverdamping": True}}),
        ("timing object unknown member", {"timing": {"type": "ease", "p1": [0, 0]}}),
    ]
    for label, body in bad_curve:
        c.post("error/curve %s" % label, P, body)
    # 422: render
    V = {"v": {"x": 0}}
    A = lambda **kw: dict({"view": "v", "duration": 1, "to": {"x": 1}}, **kw)
    bad_render = [
        ("missing views", {"animations": []}),
        ("unknown top-level member", {"views": V, "frames": 10}),
        ("unknown animation member", {"views": V, "animations": [A(speed=2)]}),
        ("unknown view", {"views": V, "animations": [A(view="w")]}),
        ("frame with center", {"views": {"v": {"frame": [0, 0, 1, 1], "center": [0, 0]}}}),
        ("geometry without default", {"views": V, "animations": [A(to={"frame": [0, 0, 1, 1]})]}),
        ("center on frame view", {"views": {"v": {"frame": [0, 0, 1, 1]}}, "animations": [A(to={"center": [0, 0]})]}),
        ("custom channel not given", {"views": V, "animations": [A(to={"y": 1})]}),
        ("custom channel length mismatch", {"views": {"v": {"u": [0, 0]}}, "animations": [A(to={"u": [1, 2, 3]})]}),
        ("frame wrong length", {"views": {"v": {"frame": [0, 0, 1]}}}),
        ("alpha array", {"views": {"v": {"alpha": [1]}}}),
        ("transform matrix wrong length", {"views": {"v": {"transform": {"matrix": [1, 0, 0, 1]}}}}),
        ("transform two forms", {"views": {"v": {"transform": {"matrix": [1, 0, 0, 1, 0, 0], "rotation": 1}}}}),
        ("transform unknown op", {"views": {"v": {"transform": {"ops": [{"skew": 1}]}}}}),
        ("duration missing", {"views": V, "animations": [{"view": "v", "to": {"x": 1}}]}),
        ("duration negative", {"views": V, "animations": [A(duration=-1)]}),
        ("duration with physical spring", {"views": V, "animations": [A(timing={"type": "spring", "mass": 1, "stiffness": 100,
                                                                                "damping": 10})]}),
        ("undamped spring without until", {"views": V, "animations": [{"view": "v", "to": {"x": 1},
                                                                       "timing": {"type": "spring", "stiffness": 100,
                                                                                  "damping": 0}}]}),
        ("infinite repeat without until", {"views": V, "animations": [A(repeatCount="infinite")]}),
        ("negative repeatCount", {"views": V, "animations": [A(repeatCount=-1)]}),
        ("repeatCount string", {"views": V, "animations": [A(repeatCount="forever")]}),
        ("negative delay", {"views": V, "animations": [A(delay=-0.1)]}),
        ("unknown blend", {"views": V, "animations": [A(blend="multiply")]}),
        ("unknown rotationPath", {"views": V, "animations": [A(rotationPath="longest")]}),
        ("duplicate ids", {"views": V, "animations": [A(id="a"), A(id="a")]}),
        ("to and keyframes", {"views": V, "animations": [A(keyframes=[{"start": 0, "duration": 1, "to": {"x": 1}}])]}),
        ("keyframe past 1", {"views": V, "animations": [{"view": "v", "duration": 1, "keyframes": [
            {"start": 0.5, "duration": 0.6, "to": {"x": 1}}]}]}),
        ("keyframes with spring", {"views": V, "animations": [{"view": "v", "duration": 1,
                                                               "timing": {"type": "spring", "dampingRatio": 0.5},
                                                               "keyframes": [{"start": 0, "duration": 1, "to": {"x": 1}}]}]}),
        ("unknown calculationMode", {"views": V, "animations": [{"view": "v", "duration": 1, "channel": "x",
                                                                 "values": [0, 1], "calculationMode": "spline"}]}),
        ("values without channel", {"views": V, "animations": [{"view": "v", "duration": 1, "values": [0, 1]}]}),
        ("values empty", {"views": V, "animations": [{"view": "v", "duration": 1, "channel": "x", "values": []}]}),
        ("fps 0", {"fps": 0, "views": V}),
        ("fps over 1000", {"fps": 1001, "views": V}),
        ("at and fps", {"at": [0], "fps": 10, "views": V}),
        ("at and until", {"at": [0], "until": 1, "views": V}),
        ("at decreasing", {"at": [0.5, 0.1], "views": V}),
        ("at negative", {"at": [-0.1], "views": V}),
        ("until negative", {"until": -1, "views": V}),
        ("until over 3600", {"until": 4000, "views": V}),
        ("alpha velocity without dynamics", {"views": V, "animations": [A(velocity=3)]}),
    ]
    for label, body in bad_render:
        c.post("error/render %s" % label, R, body)
    # illegal animator commands and malformed commands
    CA = lambda at, op, **kw: dict({"at": at, "animation": "a", "op": op}, **kw)
    base = lambda extra=None: [dict({"id": "a", "view": "v", "duration": 1, "to": {"x": 1}}, **(extra or {}))]
    bad_cmds = [
        ("finish while running", base(), [CA(0.2, "finish", position="end")]),
        ("continue while running", base(), [CA(0.2, "continue")]),
        ("stop while inactive", base({"autostart": False}), [CA(0.2, "stop")]),
        ("continue while inactive", base({"autostart": False}), [CA(0.2, "continue")]),
        ("start while stopped", base(), [CA(0.2, "stop", withoutFinishing=False), CA(0.3, "start")]),
        ("pause while stopped", base(), [CA(0.2, "stop", withoutFinishing=False), CA(0.3, "pause")]),
        ("stop after completion", base(), [CA(1.5, "stop")]),
        ("unknown op", base(), [CA(0.2, "rewind")]),
        ("unknown animation", base(), [{"at": 0.2, "animation": "b", "op": "pause"}]),
        ("missing at", base(), [{"animation": "a", "op": "pause"}]),
        ("negative at", base(), [CA(-1, "pause")]),
        ("fraction out of range", base(), [CA(0.2, "fraction", value=1.5)]),
        ("finish unknown position", base(), [CA(0.2, "stop", withoutFinishing=False), CA(0.3, "finish", position="middle")]),
        ("durationFactor 0", base(), [CA(0.2, "pause"), CA(0.3, "continue", durationFactor=0)]),
        ("retarget on block animation", base(), [CA(0.2, "retarget", to={"x": 2})]),
        ("command unknown member", base(), [CA(0.2, "pause", value=1)]),
        ("fraction on infinite repeat", base({"repeatCount": "infinite"}), [CA(0.2, "fraction", value=0.5)]),
    ]
    for label, anims, cmds in bad_cmds:
        body = {"views": V, "animations": anims, "commands": cmds}
        if anims[0].get("repeatCount") == "infinite":
            body["until"] = 1
        c.post("error/render command %s" % label, R, body)
    # physics errors
    PA = lambda **kw: dict({"id": "p", "view": "v", "to": {"x": 10}, "dynamics": {"model": "spring"}}, **kw)
    bad_phys = [
        ("decay with to", [PA(dynamics={"model": "decay"})], []),
        ("decay without channel", [{"id": "p", "view": "v", "dynamics": {"model": "decay"}}], []),
        ("unknown model", [PA(dynamics={"model": "gravity"})], []),
        ("unknown integrator", [PA(dynamics={"model": "spring", "integrator": "verlet"})], []),
        ("tickRate 0", [PA(dynamics={"model": "spring", "integrator": "euler", "tickRate": 0})], []),
        ("deceleration 1", [{"id": "p", "view": "v", "channel": "x", "dynamics": {"model": "decay", "deceleration": 1}}], []),
        ("attachment without frequency", [PA(dynamics={"model": "attachment"})], []),
        ("negative damping", [PA(dynamics={"model": "spring", "damping": -1})], []),
        ("physics with duration", [PA(duration=1)], []),
        ("physics on frame", [{"id": "p", "view": "f", "to": {"frame": [0, 0, 2, 2]}, "dynamics": {"model": "spring"}}], []),
        ("two channels", [PA(to={"x": 1, "y": 2})], []),
        ("stop withoutFinishing false", [PA()], [{"at": 0.1, "animation": "p", "op": "stop", "withoutFinishing": False}]),
        ("pause on physics", [PA()], [{"at": 0.1, "animation": "p", "op": "pause"}]),
        ("retarget decay", [{"id": "p", "view": "v", "channel": "x", "velocity": 100, "dynamics": {"model": "decay"}}],
         [{"at": 0.1, "animation": "p", "op": "retarget", "to": 5}]),
        ("drag samples decreasing", [PA()], [{"at": 0.1, "animation": "p", "op": "drag",
                                              "samples": [[0.2, 1], [0.15, 2]]}]),
        ("drag sample before command", [PA()], [{"at": 0.3, "animation": "p", "op": "drag", "samples": [[0.2, 1], [0.4, 2]]}]),
        ("additive blend", [PA(blend="additive")], []),
        ("unknown dynamics member", [PA(dynamics={"model": "spring", "gravity": 1})], []),
    ]
    for label, anims, cmds in bad_phys:
        body = {"views": {"v": {"x": 0, "y": 0}, "f": {"frame": [0, 0, 1, 1]}}, "animations": anims}
        if cmds:
            body["commands"] = cmds
        c.post("error/render physics %s" % label, R, body)
    # interaction errors
    IA = [{"id": "a", "view": "v", "duration": 1, "to": {"x": 1}}]
    bad_inter = [
        ("no animations", {"animations": []}),
        ("unknown animation", {"animations": ["b"]}),
        ("gesture and updates", {"animations": ["a"], "updates": [], "gesture": {"kind": "pinch", "samples": [[0, 1, 0]]}}),
        ("percent out of range", {"animations": ["a"], "updates": [{"at": 0, "percent": 2}]}),
        ("updates decreasing", {"animations": ["a"], "updates": [{"at": 0.5, "percent": 0}, {"at": 0.1, "percent": 0.2}]}),
        ("end unknown action", {"animations": ["a"], "end": {"at": 0.5, "action": "abort"}}),
        ("pan without distance", {"animations": ["a"], "gesture": {"kind": "pan", "samples": [[0, 0]]}}),
        ("unknown gesture", {"animations": ["a"], "gesture": {"kind": "swipe", "samples": [[0, 0]]}}),
        ("completionSpeed 0", {"animations": ["a"], "completionSpeed": 0, "updates": [{"at": 0, "percent": 0.5}]}),
        ("spring completionCurve", {"animations": ["a"], "completionCurve": {"type": "spring", "dampingRatio": 0.5},
                                    "updates": [{"at": 0, "percent": 0.5}]}),
        ("pinch sample width", {"animations": ["a"], "gesture": {"kind": "pinch", "samples": [[0, 1]]}}),
    ]
    for label, inter in bad_inter:
        c.post("error/render interaction %s" % label, R, {"views": V, "animations": IA, "interaction": inter})
    # presets errors
    c.post("error/preset unknown name", R, {"transition": {"preset": "flip", "container": [0, 0, 10, 10]}})
    c.post("error/preset missing container", R, {"transition": {"preset": "crossDissolve"}})
    c.post("error/preset unknown parameter", R,
           {"transition": {"preset": "crossDissolve", "container": [0, 0, 10, 10], "speed": 2}})
    c.post("error/preset bad duration", R,
           {"transition": {"preset": "crossDissolve", "container": [0, 0, 10, 10], "duration": -1}})
    c.post("error/preset transition with views", R,
           {"views": V, "transition": {"preset": "crossDissolve", "container": [0, 0, 10, 10]}})
    # 413: result limits
    c.post("error/curve 413 samples", P, {"timing": "ease", "samples": 100000000})
    c.post("error/curve 413 fps grid", P, {"timing": "ease", "duration": 3600, "fps": 1000})
    c.post("error/curve 413 samples 100001", P, {"timing": "ease", "samples": 100001})
    c.post("curve/samples 100000 at the limit csv gzip", P, {"timing": "linear", "samples": 100000},
           headers={"Accept-Encoding": "gzip"}, query="?format=csv")
    c.post("error/render 413 frames", R, {"fps": 1000, "until": 3600, "views": V})
    c.post("error/render 413 numbers", R,
           {"fps": 1000, "until": 4, "views": {"v%d" % i: {"u": [0] * 64} for i in range(20)}})
    c.post("error/render custom channel over 64 numbers", R, {"views": {"v": {"u": [0] * 65}}})
    c.post("error/render 413 physics steps", R,
           {"until": 600, "fps": 1, "views": {"v": {"c%d" % i: [0, 0] for i in range(4)}},
            "animations": [{"view": "v", "to": {"c%d" % i: [1, 1]},
                            "dynamics": {"model": "spring", "damping": 0, "integrator": "rk4", "tickRate": 1000}}
                           for i in range(4)]})
    # 406, 415, query errors
    body = {"timing": "ease", "samples": 3}
    for fmt in ["lottie", "xml"]:
        c.post("error/curve 406 format=%s" % fmt, P, body, query="?format=" + fmt)
    # `?format=` (empty) shares the response cache's key with no `format` (a baseline quirk): a body
    # sent nowhere else, so the answer does not depend on what the cache holds.
    c.post("error/curve 406 format=(empty)", P, {"timing": "ease", "samples": 4, "duration": 0.5}, query="?format=")
    c.post("error/render 406 format=xml", R, {"views": V}, query="?format=xml")
    for acc in ["image/png", "application/json;q=0", "text/csv;q=0, application/xml"]:
        c.post("error/curve 406 Accept %s" % acc, P, body, headers={"Accept": acc})
    c.post("error/curve 406 before body syntax", P, "{", query="?format=xml")
    for q in ["0", "0.2", "nan", "x"]:
        c.post("error/curve tolerance=%s" % q, P, body, query="?format=css&tolerance=" + q)
    # Exports (rules 26-29): the exact forms, a fitted spring, and renders in every format.
    spring = {"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 10}}
    for fmt in ["svg", "css", "waapi"]:
        c.post("export/curve ease format=%s" % fmt, P, body, query="?format=" + fmt)
        c.post("export/curve spring format=%s" % fmt, P, spring, query="?format=" + fmt)
    c.post("export/curve spring css tolerance=1e-4", P, spring, query="?format=css&tolerance=1e-4")
    for acc in ["text/css", "image/svg+xml"]:
        c.post("export/curve Accept %s" % acc, P, body, headers={"Accept": acc})
    render = {"views": {"card": {"frame": [0, 568, 320, 568], "alpha": 0, "transform": {"rotation": 0},
                                 "backgroundColor": [1, 0, 0, 1], "glow": 0}},
              "animations": [{"view": "card", "duration": 0.8, "timing": {"type": "spring", "dampingRatio": 0.6},
                              "to": {"frame": [0, 0, 320, 568]}},
                             {"view": "card", "duration": 0.5, "timing": "easeInOut",
                              "to": {"alpha": 1, "transform": {"rotation": 3}, "backgroundColor": [0, 0, 1, 0.5], "glow": 4}}]}
    for fmt in ["svg", "css", "waapi", "lottie"]:
        c.post("export/render format=%s" % fmt, R, render, query="?format=" + fmt)
    for ct in ["text/plain", "application/xml", "multipart/form-data; boundary=x", "text/json"]:
        c.post("error/curve 415 %s" % ct, P, body, headers={"Content-Type": ct})
    c.post("error/render 415 text/plain", R, {"views": V}, headers={"Content-Type": "text/plain"})
    c.post("error/render expand=maybe", R, {"views": V}, query="?expand=maybe")
    c.post("error/render expand=true with csv", R, {"views": V}, query="?expand=true&format=csv")
    # 404, 405
    for path in ["/v1/curves", "/v2/curve", "/nope", "/v1/render/extra", "/v1/presets/pane", "/V1/curve", "/v1"]:
        c.add("error/404 GET %s" % path, "GET", path, headers={})
    c.post("error/404 POST /v1/curves", "/v1/curves", {})
    for method, path in [("GET", "/v1/curve"), ("PUT", "/v1/curve"), ("DELETE", "/v1/render"), ("PATCH", "/v1/render"),
                         ("GET", "/v1/render"), ("POST", "/v1/presets"), ("POST", "/healthz"), ("HEAD", "/v1/curve"),
                         ("DELETE", "/v1/presets")]:
        c.add("error/405 %s %s" % (method, path), method, path, headers={})


# --- other routes, preflight, revalidation, HEAD ----------------------------------------------

def add_http(c):
    # The playground (docs/playground.md): its bytes and its Content-Security-Policy header.
    c.add("http/GET / playground", "GET", "/", headers={})
    c.add("http/HEAD / playground", "HEAD", "/", headers={})
    c.add("http/GET / playground gzip", "GET", "/", headers={"Accept-Encoding": "gzip"})
    c.add("error/405 POST /", "POST", "/", headers={})
    c.add("http/GET /healthz", "GET", "/healthz", headers={})
    c.add("http/HEAD /healthz", "HEAD", "/healthz", headers={})
    c.add("http/GET /v1/presets", "GET", "/v1/presets", headers={})
    c.add("http/GET /v1/presets query ignored", "GET", "/v1/presets?expand=true", headers={})
    c.add("http/HEAD /v1/presets", "HEAD", "/v1/presets", headers={})
    c.add("http/GET /v1/presets gzip", "GET", "/v1/presets", headers={"Accept-Encoding": "gzip"})
    c.add("http/GET /healthz gzip small", "GET", "/healthz", headers={"Accept-Encoding": "gzip"})
    pre = {"Origin": "https://example.com", "Access-Control-Request-Method": "POST",
           "Access-Control-Request-Headers": "content-type, if-none-match"}
    for path in ["/v1/curve", "/v1/render", "/v1/presets", "/healthz", "/"]:
        c.add("http/OPTIONS preflight %s" % path, "OPTIONS", path, headers=pre)
    c.add("http/OPTIONS bare /v1/curve", "OPTIONS", "/v1/curve", headers={})
    c.add("http/OPTIONS unknown path", "OPTIONS", "/v1/nothing", headers=pre)
    c.add("http/OPTIONS * ", "OPTIONS", "*", headers={})
    c.post("http/CORS origin on POST", "/v1/curve", {"timing": "ease", "samples": 3},
           headers={"Origin": "https://example.com"})
    # revalidation: the ETag of a first answer, then If-None-Match with it
    P, R = "/v1/curve", "/v1/render"
    cb = {"timing": "ease-in-out", "samples": 31}
    src = c.post("http/etag source curve", P, cb)
    c.post("http/If-None-Match curve 304", P, cb, headers={"If-None-Match": "{{etag:%s}}" % src})
    c.post("http/If-None-Match weak form 304", P, cb, headers={"If-None-Match": "W/{{etag:%s}}" % src})
    c.post("http/If-None-Match list 304", P, cb, headers={"If-None-Match": '"0000000000000000", {{etag:%s}}' % src})
    c.post("http/If-None-Match star 304", P, cb, headers={"If-None-Match": "*"})
    c.post("http/If-None-Match other tag 200", P, cb, headers={"If-None-Match": '"0123456789abcdef"'})
    c.post("http/If-None-Match tag of other body 200", P, {"timing": "ease-in-out", "samples": 32},
           headers={"If-None-Match": "{{etag:%s}}" % src})
    c.post("http/If-None-Match identity tag gzip request 200", P, cb,
           headers={"If-None-Match": "{{etag:%s}}" % src, "Accept-Encoding": "gzip"})
    gsrc = c.post("http/etag source curve gzip", P, cb, headers={"Accept-Encoding": "gzip"})
    c.post("http/If-None-Match curve gzip 304", P, cb,
           headers={"If-None-Match": "{{etag:%s}}" % gsrc, "Accept-Encoding": "gzip"})
    csrc = c.post("http/etag source curve csv", P, cb, query="?format=csv")
    c.post("http/If-None-Match curve csv 304", P, cb, headers={"If-None-Match": "{{etag:%s}}" % csrc}, query="?format=csv")
    c.post("http/If-None-Match json tag on csv 200", P, cb, headers={"If-None-Match": "{{etag:%s}}" % src},
           query="?format=csv")
    rb = {"fps": 20, "views": {"v": {"x": 0}}, "animations": [{"view": "v", "duration": 1, "to": {"x": 1}}]}
    rsrc = c.post("http/etag source render", R, rb)
    c.post("http/If-None-Match render 304", R, rb, headers={"If-None-Match": "{{etag:%s}}" % rsrc})
    psrc = c.add("http/etag source presets", "GET", "/v1/presets", headers={})
    c.add("http/If-None-Match presets 304", "GET", "/v1/presets", headers={"If-None-Match": "{{etag:%s}}" % psrc})
    c.add("http/If-None-Match presets HEAD 304", "HEAD", "/v1/presets", headers={"If-None-Match": "{{etag:%s}}" % psrc})
    c.post("http/If-None-Match on error stays 422", P, {"timing": "nope"}, headers={"If-None-Match": "*"})
    # the same request twice (the second from the response cache) answers the same bytes
    c.post("http/repeat 1", R, rb, headers={"Accept-Encoding": "gzip"})
    c.post("http/repeat 2 cached", R, rb, headers={"Accept-Encoding": "gzip"})
    c.post("http/X-Request-Id ignored in body", P, cb, headers={"X-Request-Id": "corpus-1"})


def build(presets):
    rng = random.Random(SEED)
    c = Corpus()
    add_http(c)
    add_readme(c)
    add_curve_cases(c, rng)
    add_render_cases(c, rng)
    add_presets(c, rng, presets, 32)
    add_errors(c)
    add_curve_random(c, rng, 90)
    add_render_random(c, rng, 130)
    for e in c.entries:
        body = e["request"].get("body", "")
        if len(body.encode("utf-8")) >= 20_000:
            raise ValueError("request body of %s is %d bytes" % (e["name"], len(body)))
    return c.entries


# ----------------------------------------------------------------------------------------------
# HTTP
# ----------------------------------------------------------------------------------------------

def parse_base(base):
    u = urllib.parse.urlsplit(base)
    if u.scheme != "http" or u.hostname != "127.0.0.1" or not u.port:
        raise SystemExit("corpus: --base must be http://127.0.0.1:PORT (loopback only), not %r" % base)
    return u.hostname, u.port


def send(host, port, req):
    """One request on a new connection; returns (status, headers dict, raw body)."""
    body = None
    if "body_b64" in req:
        body = base64.b64decode(req["body_b64"])
    elif "body" in req:
        body = req["body"].encode("utf-8")
    conn = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
    try:
        conn.putrequest(req["method"], req["path"], skip_accept_encoding=True)
        for k, v in req["headers"].items():
            conn.putheader(k, v)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.putheader("Connection", "close")
        conn.endheaders(body)
        resp = conn.getresponse()
        data = resp.read()
        headers = {}
        for name in RECORDED_HEADERS:
            values = resp.msg.get_all(name)
            if values:
                headers[name] = ", ".join(values)
        return resp.status, headers, data
    finally:
        conn.close()


def outcome(status, headers, data):
    result = {"status": status, "headers": headers}
    if headers.get("content-encoding", "").lower() == "gzip":
        data = gzip.decompress(data)
        result["gzip"] = True
    result["sha256"] = hashlib.sha256(data).hexdigest()
    result["length"] = len(data)
    return result


def resolve(req, recorded):
    """Replaces {{etag:NAME}} in header values with the ETag recorded for NAME."""
    headers = {}
    for k, v in req["headers"].items():
        def sub(m):
            name = m.group(1)
            if name not in recorded or "etag" not in recorded[name]["headers"]:
                raise ValueError("no ETag recorded for %r" % name)
            return recorded[name]["headers"]["etag"]
        headers[k] = ETAG_PLACEHOLDER.sub(sub, v)
    out = dict(req)
    out["headers"] = headers
    return out


# ----------------------------------------------------------------------------------------------
# Server process (--binary)
# ----------------------------------------------------------------------------------------------

class Server:
    """Starts `BINARY serve` on a free loopback port and stops it on exit (always)."""

    def __init__(self, binary):
        self.binary = os.path.abspath(binary)
        self.proc = None
        self.log = None
        self.port = None

    def __enter__(self):
        if not os.access(self.binary, os.X_OK):
            raise SystemExit("corpus: %s is not an executable" % self.binary)
        for attempt in range(3):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
            s.close()
            self.log = tempfile.TemporaryFile()
            self.proc = subprocess.Popen([self.binary, "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                                         stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
            if self._wait_healthy():
                return self
            self._stop()
        raise SystemExit("corpus: %s did not answer /healthz" % self.binary)

    def _wait_healthy(self):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._dump_log()
                return False
            try:
                status, _, _ = send("127.0.0.1", self.port, {"method": "GET", "path": "/healthz", "headers": {}})
                if status == 200:
                    return True
            except OSError:
                pass
            time.sleep(0.05)
        self._dump_log()
        return False

    def _dump_log(self):
        try:
            self.log.seek(0)
            tail = self.log.read()[-2000:].decode("utf-8", "replace")
            if tail:
                sys.stderr.write("corpus: server output:\n" + tail + "\n")
        except Exception:
            pass

    def _stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log is not None:
            self.log.close()
        self.proc, self.log = None, None

    def __exit__(self, *exc):
        self._stop()
        return False

    @property
    def base(self):
        return "http://127.0.0.1:%d" % self.port


# ----------------------------------------------------------------------------------------------
# Fixture file
# ----------------------------------------------------------------------------------------------

def write_fixture(path, items):
    """One request per line inside a JSON array, so a diff shows which requests changed."""
    lines = [json.dumps(item, ensure_ascii=False, separators=(", ", ": ")) for item in items]
    text = ('{"format": %d,\n "about": %s,\n "recordedHeaders": %s,\n "requests": [\n%s\n]}\n'
            % (FORMAT_VERSION,
               json.dumps("Segue response corpus: scripts/corpus.py record writes it, scripts/corpus.py check replays it. "
                          "Gzip bodies are hashed after decompression."),
               json.dumps(RECORDED_HEADERS), ",\n".join(lines)))
    json.loads(text)  # well-formed
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return len(text.encode("utf-8"))


def read_fixture(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != FORMAT_VERSION:
        raise SystemExit("corpus: %s has format %r, expected %d" % (path, doc.get("format"), FORMAT_VERSION))
    return doc["requests"]


# ----------------------------------------------------------------------------------------------
# Commands
# ----------------------------------------------------------------------------------------------

def fetch_presets(host, port):
    status, _, data = send(host, port, {"method": "GET", "path": "/v1/presets", "headers": {}})
    if status != 200:
        raise SystemExit("corpus: GET /v1/presets answered %d" % status)
    return json.loads(data)["presets"]


def summarize(items):
    counts = {}
    for it in items:
        path = it["request"]["path"].split("?")[0]
        route = path if path in ("/v1/curve", "/v1/render", "/v1/presets", "/healthz") else "other"
        key = (route, it["expect"]["status"])
        counts[key] = counts.get(key, 0) + 1
    for (route, status), n in sorted(counts.items()):
        print("  %-12s %3d  %4d" % (route, status, n))


def retagged(expect, got):
    """True when the bytes changed but the ETag did not: a streamed body's tag is derived from the
    request and OutputRevision, so a change to its bytes needs a new revision."""
    tag = got["headers"].get("etag")
    return (tag is not None and tag == expect["headers"].get("etag")
            and (got["sha256"], got["length"]) != (expect["sha256"], expect["length"]))


STALE_TAG = ("the bytes changed under an unchanged ETag: change OutputRevision.current "
             "(Sources/SegueCodec/OutputRevision.swift)")


def do_record(base, out):
    host, port = parse_base(base)
    entries = build(fetch_presets(host, port))
    previous = {it["name"]: it["expect"] for it in read_fixture(out)} if os.path.exists(out) else {}
    recorded, items = {}, []
    for e in entries:
        req = resolve(e["request"], recorded)
        status, headers, data = send(host, port, req)
        result = outcome(status, headers, data)
        recorded[e["name"]] = result
        items.append({"name": e["name"], "request": req, "expect": result})
    stale = [it["name"] for it in items if it["name"] in previous and retagged(previous[it["name"]], it["expect"])]
    if stale:
        raise SystemExit("corpus: not recorded: %s — %s" % (STALE_TAG, "; ".join(stale)))
    size = write_fixture(out, items)
    fives = [it["name"] for it in items if it["expect"]["status"] >= 500]
    print("corpus: recorded %d requests into %s (%d bytes)" % (len(items), out, size))
    summarize(items)
    if fives:
        print("corpus: WARNING: 5xx answers recorded for: " + "; ".join(fives))
    return 0


def compare(expect, got):
    diffs = []
    if got["status"] != expect["status"]:
        diffs.append("status %s, expected %s" % (got["status"], expect["status"]))
    for name in RECORDED_HEADERS:
        a, b = expect["headers"].get(name), got["headers"].get(name)
        if a != b:
            diffs.append("header %s: %s, expected %s" % (name, "(absent)" if b is None else repr(b),
                                                          "(absent)" if a is None else repr(a)))
    if got.get("gzip", False) != expect.get("gzip", False):
        diffs.append("gzip %s, expected %s" % (got.get("gzip", False), expect.get("gzip", False)))
    if got["sha256"] != expect["sha256"] or got["length"] != expect["length"]:
        diffs.append("body digest %s… (%d bytes), expected %s… (%d bytes)"
                     % (got["sha256"][:16], got["length"], expect["sha256"][:16], expect["length"]))
    if retagged(expect, got):
        diffs.append(STALE_TAG)
    return diffs


def do_check(base, corpus, verbose=False):
    host, port = parse_base(base)
    items = read_fixture(corpus)
    passed = failed = 0
    for it in items:
        try:
            status, headers, data = send(host, port, it["request"])
            try:
                got = outcome(status, headers, data)
                diffs = compare(it["expect"], got)
            except (OSError, EOFError, zlib.error) as err:
                diffs = ["body is not valid gzip: %s" % err]
        except (OSError, http.client.HTTPException) as err:
            diffs = ["request failed: %s: %s" % (type(err).__name__, err)]
        if diffs:
            failed += 1
            print("FAIL %s [%s %s]: %s" % (it["name"], it["request"]["method"], it["request"]["path"], "; ".join(diffs)))
        else:
            passed += 1
            if verbose:
                print("ok   %s" % it["name"])
    print("corpus: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    for name in ("record", "check"):
        p = sub.add_parser(name)
        g = p.add_mutually_exclusive_group(required=True)
        g.add_argument("--base", help="a running server, http://127.0.0.1:PORT")
        g.add_argument("--binary", help="start this segue binary on a free loopback port for the run")
        if name == "record":
            p.add_argument("--out", default=DEFAULT_CORPUS)
        else:
            p.add_argument("--corpus", default=DEFAULT_CORPUS)
            p.add_argument("-v", "--verbose", action="store_true")
    p = sub.add_parser("list", help="print the generated request names (presets from a server, or none)")
    p.add_argument("--base", help="a running server to read GET /v1/presets from")
    args = ap.parse_args(argv)

    if args.command == "list":
        presets = fetch_presets(*parse_base(args.base)) if args.base else []
        for e in build(presets):
            print(e["name"])
        return 0

    def run(base):
        if args.command == "record":
            return do_record(base, args.out)
        return do_check(base, args.corpus, args.verbose)

    if args.binary:
        # A TERM (make's timeout, CI cancel) unwinds through Server.__exit__, which stops the child.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
        with Server(args.binary) as server:
            return run(server.base)
    return run(args.base)


if __name__ == "__main__":
    sys.exit(main())
