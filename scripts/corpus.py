#!/usr/bin/env python3
"""Segue response corpus: what a frozen server answers to 860 requests, checked byte for byte
against another build.

    python3 scripts/corpus.py check  --binary .build-release/release/segue [--corpus FILE]
    python3 scripts/corpus.py check  --base http://127.0.0.1:18080 [--corpus FILE]
    python3 scripts/corpus.py record --binary /path/to/segue [--out FILE]
    python3 scripts/corpus.py list   [--corpus FILE]

The fixture (Tests/Fixtures/corpus/corpus.json) is the request list: each entry a name, the
request as sent, and what the server answered — its status, a fixed set of headers and the SHA-256
and length of the body. A gzip body is hashed after decompression (and marked "gzip"), so the
compressor may change while the decompressed bytes and the ETag may not.

`record` replays the fixture's own requests against a server and writes their answers: a contract
change that changes bytes re-records, and nothing else does. Two kinds of request are not taken as
stored:
- the README's curl examples (`readme/…`) are read from README.md again, so the corpus follows
  the documentation;
- a header that carried an earlier entry's ETag (a revalidation) is given that entry's new ETag.
A new request is added by hand to the fixture (with any `expect`, which `record` replaces).

Python 3 standard library only. Traffic goes to 127.0.0.1 only, one connection per request.
"""

import argparse
import base64
import gzip
import hashlib
import http.client
import json
import os
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

ETAG_PLACEHOLDER = re.compile(r"\{\{etag:(.+?)\}\}")


# ----------------------------------------------------------------------------------------------
# Request list: the fixture's own, with the README's examples read again
# ----------------------------------------------------------------------------------------------

def dumps(obj):
    """A request body: compact JSON, key order as written."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class Corpus:
    """Collects the README's requests; names must be unique."""

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


def request_list(stored):
    """The requests to record, in the fixture's order: the stored ones, with the README's examples
    read from README.md again in the place of the stored `readme/` entries (all of them, where
    the first one stood), and every header value that held an earlier entry's recorded ETag turned
    back into a {{etag:NAME}} placeholder for `resolve`."""
    readme = Corpus()
    add_readme(readme)
    entries, owner, placed = [], {}, False
    for item in stored:
        if item["name"].startswith("readme/"):
            if not placed:
                entries += readme.entries
                placed = True
            continue
        request = dict(item["request"])
        headers = {}
        for key, value in request["headers"].items():
            for tag, name in owner.items():
                if tag in value:
                    value = value.replace(tag, "{{etag:%s}}" % name)
            headers[key] = value
        request["headers"] = headers
        entries.append({"name": item["name"], "request": request})
        tag = item["expect"]["headers"].get("etag")
        if tag is not None:
            owner.setdefault(tag, item["name"])
    if not placed:
        entries += readme.entries
    names = [e["name"] for e in entries]
    if len(set(names)) != len(names):
        raise SystemExit("corpus: duplicate request names")
    return entries


def do_record(base, out):
    host, port = parse_base(base)
    stored = read_fixture(out)
    previous = {it["name"]: it["expect"] for it in stored}
    recorded, items = {}, []
    for e in request_list(stored):
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
    p = sub.add_parser("list", help="print the request names the next record would send")
    p.add_argument("--corpus", default=DEFAULT_CORPUS)
    args = ap.parse_args(argv)

    if args.command == "list":
        for e in request_list(read_fixture(args.corpus)):
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
