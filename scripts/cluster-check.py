#!/usr/bin/env python3
"""make cluster-check: two Segue instances behind Debian's nginx on loopback, one of them
stopped with SIGTERM in the middle of the traffic.

What it does, in order:
  1. Finds nginx, installing Debian's `nginx` package when missing (needs root; the package's
     own service is kept from starting). nginx runs from a private temporary prefix with
     deploy/nginx/cluster-check.conf: its own pid file, logs and temp files, no system files.
  2. Starts instances A and B of the segue binary on free loopback ports, and nginx on a third,
     with both instances in its upstream.
  3. Sends every request of a fixed set straight to A and to B: status, ETag, Content-Type,
     Content-Encoding and body bytes must be identical (the service is deterministic, so any
     replica may answer anything). A's answers become the expected answers.
  4. Runs mixed traffic through nginx from concurrent keep-alive clients: curves (JSON, CSV,
     gzip), renders, a preset, /v1/presets, /healthz, a conditional request (If-None-Match ->
     304), and large curves of varying size that keep the workers busy. Every answer is compared
     with the expected one, byte for byte.
  5. Part way through, sends SIGTERM to B while pollers ask B's /readyz directly.
  6. Checks: no request failed; both instances served traffic before the SIGTERM; B's /readyz
     answered 503 after the SIGTERM and before B exited (and never 200 again); B exited 0 within
     the drain timeout; A is healthy and ready at the end.
Ends with "N passed, M failed" (checks); exit 1 when a check failed.

Usage: scripts/cluster-check.py [--binary PATH] [--seconds S] [--clients N] [--keep]
Env: CLUSTER_SECONDS (run length, default 20), CLUSTER_CLIENTS (default 200).
Only loopback addresses are used. Python 3 standard library only.
"""
import argparse
import grp
import hashlib
import http.client
import json
import multiprocessing
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = "127.0.0.1"
DRAIN_TIMEOUT = 10          # seconds; passed to the instances as SEGUE_DRAIN_TIMEOUT
# A /readyz request sent this soon after kill() may still have been answered before the signal
# was handled; from then on only 503 (or a refused/closed connection) is acceptable.
SIGNAL_SLACK = 0.05

# ---------------------------------------------------------------------------- checks and output
results = []


def check(ok, what, detail=None):
    results.append(ok)
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    if detail and not ok:
        for line in detail if isinstance(detail, list) else [detail]:
            print("    " + line, flush=True)
    return ok


def note(text):
    print("  .. " + text, flush=True)


def finish():
    passed = sum(1 for r in results if r)
    failed = len(results) - passed
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


# ---------------------------------------------------------------------------- the request mix
def curve(body, query=""):
    return ("POST", "/v1/curve" + query, json.dumps(body).encode())


def render(body):
    return ("POST", "/v1/render", json.dumps(body).encode())


JSON = {"Content-Type": "application/json"}
# name -> (method, path, body, headers). Each is sent straight to both instances first.
FIXED = {
    "curve-ease": curve({"timing": "ease", "samples": 50}) + (JSON,),
    "curve-bezier-at": curve({"timing": "cubic-bezier(0.68, -0.55, 0.265, 1.55)", "at": [-0.1, 0.5, 1.2]}) + (JSON,),
    "curve-spring": curve({"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 10}, "fps": 60}) + (JSON,),
    "curve-csv": curve({"timing": "ease-out", "samples": 200}, "?format=csv") + (JSON,),
    "curve-gzip": curve({"timing": "ease", "fps": 120}) + (dict(JSON, **{"Accept-Encoding": "gzip"}),),
    "render-spring": render({"fps": 60, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 1}},
                             "animations": [{"id": "present", "view": "card", "duration": 0.8,
                                             "timing": {"type": "spring", "dampingRatio": 0.6},
                                             "to": {"frame": [0, 0, 320, 568]}}]}) + (JSON,),
    "render-physics": render({"fps": 60, "views": {"pane": {"center": [160, 500]}},
                              "animations": [{"view": "pane", "to": {"center": [160, 100]}, "velocity": [0, -800],
                                              "dynamics": {"model": "attachment", "frequency": 3.5, "damping": 0.4}}]}) + (JSON,),
    "render-preset": render({"fps": 60, "transition": {"preset": "pane", "container": [0, 0, 400, 1000],
                                                       "samples": [[0, 900], [0.1, 820], [0.2, 740]], "taps": [0.4]}}) + (JSON,),
    "presets": ("GET", "/v1/presets", None, {}),
    "healthz": ("GET", "/healthz", None, {}),
    # If-None-Match is filled in with curve-ease's ETag once it is known (expect 304).
    "curve-ease-304": curve({"timing": "ease", "samples": 50}) + (dict(JSON),),
    "curve-large": curve({"timing": {"type": "spring", "response": 0.5, "dampingRatio": 0.7}, "samples": 30000}) + (JSON,),
}
# How often each kind appears in a client's cycle; "varied" = a large curve whose size changes
# with every request (so the response cache cannot answer it: real work in flight at SIGTERM).
MIX = (["curve-ease"] * 3 + ["curve-bezier-at", "curve-spring", "curve-csv", "curve-gzip", "curve-gzip"]
       + ["render-spring", "render-physics", "render-preset"] + ["presets", "healthz", "curve-ease-304"]
       + ["curve-large"] + ["varied"] * 3)


def varied_request(n):
    samples = 5000 + (n * 7919) % 40000
    body = {"timing": {"type": "spring", "stiffness": 200 + n % 300, "dampingRatio": 0.5}, "samples": samples}
    return ("POST", "/v1/curve", json.dumps(body).encode(), JSON), samples


# ---------------------------------------------------------------------------- HTTP helpers
class Answer:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers}
        self.body = body

    def key(self):
        """What must be identical between instances and through nginx."""
        h = self.headers
        return (self.status, h.get("etag"), h.get("content-type"), h.get("content-encoding"),
                hashlib.sha256(self.body).hexdigest())


def fetch(port, method, path, body=None, headers=None, timeout=30, conn=None):
    own = conn is None
    if own:
        conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return Answer(r.status, r.getheaders(), r.read())
    finally:
        if own:
            conn.close()


def wait_http(port, path="/healthz", seconds=15, proc=None):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            return None
        try:
            a = fetch(port, "GET", path, timeout=2)
            if a.status == 200:
                return a
        except OSError:
            pass
        time.sleep(0.1)
    return None


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------- processes
def ensure_nginx():
    path = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if path:
        return path
    if os.geteuid() != 0:
        print("cluster-check: nginx is not installed; run as root (or: apt-get install nginx)")
        return None
    print("cluster-check: installing Debian's nginx", flush=True)
    # Debian's postinst starts the nginx service; a policy-rc.d that answers 101 stops that
    # (when the machine has none already), so nothing listens on port 80 afterwards.
    policy = "/usr/sbin/policy-rc.d"
    made_policy = not os.path.exists(policy)
    if made_policy:
        with open(policy, "w") as f:
            f.write("#!/bin/sh\n# temporary, scripts/cluster-check.py: no service starts\nexit 101\n")
        os.chmod(policy, 0o755)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "nginx"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
    except subprocess.CalledProcessError as e:
        print("cluster-check: apt-get failed: %s" % e)
        return None
    finally:
        if made_policy:
            os.remove(policy)
    return shutil.which("nginx") or "/usr/sbin/nginx"


def shipped_settings():
    """deploy/nginx/segue.env: the SEGUE_* settings the instances behind nginx run with."""
    settings = {}
    with open(os.path.join(ROOT, "deploy", "nginx", "segue.env")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, value = line.partition("=")
                settings[name.strip()] = value.strip()
    return settings


class Instance:
    def __init__(self, name, binary, workdir):
        self.name = name
        self.port = free_port()
        self.log_path = os.path.join(workdir, "segue-%s.log" % name)
        env = dict(os.environ, **shipped_settings(), SEGUE_DRAIN_TIMEOUT=str(DRAIN_TIMEOUT))
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([binary, "serve", "--host", HOST, "--port", str(self.port)],
                                     stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.exited_at = None
        self.exited = threading.Event()
        threading.Thread(target=self._reap, daemon=True).start()

    def _reap(self):
        self.proc.wait()
        self.exited_at = time.monotonic()
        self.exited.set()

    def tail(self, n=8):
        try:
            with open(self.log_path, "rb") as f:
                lines = f.read().decode("utf-8", "replace").splitlines()
            return ["%s| %s" % (self.name, line[:300]) for line in lines[-n:]]
        except OSError:
            return []

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(DRAIN_TIMEOUT + 5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def start_nginx(nginx, prefix, port, upstream_ports):
    for d in ("logs", "tmp"):
        os.makedirs(os.path.join(prefix, d), exist_ok=True)
    user = ""
    if os.geteuid() == 0:
        # As root, nginx's workers switch to an unprivileged user; the prefix must be reachable.
        group = "nogroup"
        try:
            grp.getgrnam(group)
        except KeyError:
            group = "nobody"
        user = "user nobody %s;" % group
        os.chmod(prefix, 0o755)
    servers = "\n".join("        server %s:%d max_fails=1 fail_timeout=10s;" % (HOST, p) for p in upstream_ports)
    with open(os.path.join(ROOT, "deploy", "nginx", "cluster-check.conf")) as f:
        conf = f.read()
    conf = (conf.replace("@PREFIX@", prefix).replace("@USER@", user)
            .replace("@LISTEN@", str(port)).replace("@SERVERS@", servers))
    conf_path = os.path.join(prefix, "nginx.conf")
    with open(conf_path, "w") as f:
        f.write(conf)
    base = [nginx, "-p", prefix + "/", "-c", conf_path, "-e", os.path.join(prefix, "logs", "error.log")]
    t = subprocess.run(base + ["-t", "-q"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if t.returncode != 0:
        return None, t.stdout
    return subprocess.Popen(base, stdout=subprocess.DEVNULL, stderr=open(os.path.join(prefix, "logs", "stderr"), "wb")), ""


# ---------------------------------------------------------------------------- traffic
class Traffic:
    """The clients, as threads in child processes of at most CLIENTS_PER_PROCESS each: hundreds of
    threads in one interpreter starve its other threads of the GIL, and the SIGTERM to B, meant for
    a third of the run, went out after the traffic had ended. Times are CLOCK_MONOTONIC, the same
    in every process; each child sends its counts back when its clients are done."""

    CLIENTS_PER_PROCESS = 25

    def __init__(self, port, expected, clients, stop_at):
        self.port, self.expected, self.stop_at = port, expected, stop_at
        self.clients = clients
        self.lock = threading.Lock()
        self.ok = 0
        self.failures = []          # (time, kind, reason)
        self.per_kind = {}
        self.last_ok_at = 0.0
        self.processes = []
        self.results = None

    def start(self):
        context = multiprocessing.get_context("fork")
        self.results = context.Queue()
        count = -(-self.clients // self.CLIENTS_PER_PROCESS)
        for p in range(count):
            indexes = list(range(p, self.clients, count))
            process = context.Process(target=self.run_clients, args=(indexes,), daemon=True)
            process.start()
            self.processes.append(process)

    def run_clients(self, indexes):
        """In a child: its share of the clients, then its counts to the parent."""
        threads = [threading.Thread(target=self.client, args=(i,), daemon=True) for i in indexes]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.results.put((self.ok, self.failures, self.per_kind, self.last_ok_at))

    def join(self):
        for _ in self.processes:
            ok, failures, per_kind, last_ok_at = self.results.get()
            self.ok += ok
            self.failures += failures
            for kind, n in per_kind.items():
                self.per_kind[kind] = self.per_kind.get(kind, 0) + n
            self.last_ok_at = max(self.last_ok_at, last_ok_at)
        for process in self.processes:
            process.join()

    def validate(self, kind, answer, samples):
        if kind == "varied":
            if answer.status != 200:
                return "status %d: %s" % (answer.status, answer.body[:200])
            try:
                n = len(json.loads(answer.body)["t"])
            except (ValueError, KeyError, TypeError) as e:
                return "unreadable body (%s, %d bytes)" % (e, len(answer.body))
            return None if n == samples else "%d samples, expected %d" % (n, samples)
        want = self.expected[kind]
        if answer.key() != want:
            got = answer.key()
            names = ("status", "ETag", "Content-Type", "Content-Encoding", "body sha256")
            diffs = ["%s %r (expected %r)" % (nm, g, w) for nm, g, w in zip(names, got, want) if g != w]
            return "; ".join(diffs)
        return None

    def client(self, index):
        conn = None
        n = index * 1000
        i = index
        while time.monotonic() < self.stop_at:
            kind = MIX[i % len(MIX)]
            i += 1
            samples = None
            if kind == "varied":
                (method, path, body, headers), samples = varied_request(n)
                n += 1
            else:
                method, path, body, headers = FIXED[kind]
            t = time.monotonic()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
                answer = fetch(self.port, method, path, body, headers, conn=conn)
                reason = self.validate(kind, answer, samples)
                if answer.headers.get("connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as e:
                reason = "%s: %s" % (type(e).__name__, e)
                if conn is not None:
                    conn.close()
                conn = None
            with self.lock:
                self.per_kind[kind] = self.per_kind.get(kind, 0) + 1
                if reason is None:
                    self.ok += 1
                    self.last_ok_at = max(self.last_ok_at, time.monotonic())
                else:
                    self.failures.append((t, kind, reason))
        if conn is not None:
            conn.close()


class ReadyPoller:
    """Asks one instance's /readyz over and over on keep-alive connections and records
    (time sent, outcome, time answered): the outcome is an HTTP status, 'refused' (nothing
    listening) or 'closed'."""

    def __init__(self, port, stop_event, gap):
        self.port, self.stop_event, self.gap = port, stop_event, gap
        self.events = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        conn = None
        while not self.stop_event.is_set():
            t = time.monotonic()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(HOST, self.port, timeout=5)
                a = fetch(self.port, "GET", "/readyz", conn=conn)
                outcome = a.status
                if a.headers.get("connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except ConnectionRefusedError:
                outcome = "refused"
                conn = None
                time.sleep(0.01)
            except (OSError, http.client.HTTPException):
                outcome = "closed"
                if conn is not None:
                    conn.close()
                conn = None
            self.events.append((t, outcome, time.monotonic()))
            if self.gap:
                time.sleep(self.gap)
        if conn is not None:
            conn.close()


def summarize(events, since):
    """Run-length summary of outcomes from `since` on, e.g. '200 x41, 503 x3, refused x9'."""
    out = []
    for t, o, _ in events:
        if t < since:
            continue
        if out and out[-1][0] == o:
            out[-1][1] += 1
        else:
            out.append([o, 1])
    return ", ".join("%s x%d" % (o, c) for o, c in out) or "(none)"


# ---------------------------------------------------------------------------- the run
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build-release", "release", "segue"))
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("CLUSTER_SECONDS", 20)))
    ap.add_argument("--clients", type=int, default=int(os.environ.get("CLUSTER_CLIENTS", 200)))
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    args = ap.parse_args()
    if not os.access(args.binary, os.X_OK):
        print("cluster-check: no binary at %s (make release)" % args.binary)
        check(False, "segue binary present")
        return finish()
    nginx = ensure_nginx()
    if not check(nginx is not None, "nginx available (%s)" % nginx):
        return finish()

    work = tempfile.mkdtemp(prefix="segue-cluster-")
    instances, nginx_proc = [], None
    try:
        a = Instance("A", args.binary, work)
        b = Instance("B", args.binary, work)
        instances = [a, b]
        up = [wait_http(i.port, proc=i.proc) is not None for i in instances]
        if not check(all(up), "instances A (port %d) and B (port %d) answer GET /healthz 200" % (a.port, b.port),
                     a.tail() + b.tail()):
            return finish()
        ready = {i.name: fetch(i.port, "GET", "/readyz").status for i in instances}
        check(all(s == 200 for s in ready.values()), "GET /readyz 200 on both before the run (%s)"
              % ", ".join("%s %s" % kv for kv in ready.items()))

        lb_port = free_port()
        nginx_proc, err = start_nginx(nginx, os.path.join(work, "nginx"), lb_port, [a.port, b.port])
        lb_ok = nginx_proc is not None and wait_http(lb_port, proc=nginx_proc) is not None
        if not check(lb_ok, "nginx (port %d, prefix %s) proxies GET /healthz" % (lb_port, os.path.join(work, "nginx")),
                     err.splitlines()[-5:] if err else None):
            return finish()

        # ---- identical answers straight from each instance
        expected, differ = {}, []
        etag = fetch(a.port, *FIXED["curve-ease"]).headers.get("etag")
        if etag:
            FIXED["curve-ease-304"][3]["If-None-Match"] = etag
        for name, (method, path, body, headers) in FIXED.items():
            ka = fetch(a.port, method, path, body, headers).key()
            kb = fetch(b.port, method, path, body, headers).key()
            expected[name] = ka
            if ka != kb:
                differ.append("%s: A %s / B %s" % (name, ka, kb))
        for n in (0, 1):
            req, _ = varied_request(n)
            if fetch(a.port, *req).key() != fetch(b.port, *req).key():
                differ.append("varied request %d differs" % n)
        statuses = sorted({"%s %s" % (k, v[0]) for k, v in expected.items() if v[0] != 200})
        check(not differ and expected["curve-ease-304"][0] == 304 and expected["curve-gzip"][3] == "gzip",
              "identical status, ETag, type, encoding and bytes from A and B for %d requests "
              "(gzip, CSV, 304 included: %s)" % (len(FIXED) + 2, ", ".join(statuses) or "all 200"), differ)

        # ---- mixed traffic through nginx, SIGTERM to B part way
        start = time.monotonic()
        stop_at = start + args.seconds
        term_at = start + max(2.0, args.seconds * 0.3)
        traffic = Traffic(lb_port, expected, args.clients, stop_at)
        poll_stop = threading.Event()
        # Four pollers back to back and one every 20 ms. After SIGTERM the listening socket is
        # closed, so the 503 can only come back on a connection opened before it; the more of
        # them are busy at that moment, the surer one request is in flight to receive it.
        pollers = [ReadyPoller(b.port, poll_stop, 0) for _ in range(4)] + [ReadyPoller(b.port, poll_stop, 0.02)]
        print("== traffic: %d clients through nginx for %.0f s; SIGTERM to B at %.1f s"
              % (args.clients, args.seconds, term_at - start), flush=True)
        traffic.start()
        time.sleep(max(0.0, term_at - start - 1.0))
        for p in pollers:
            p.thread.start()
        time.sleep(max(0.0, term_at - time.monotonic()))
        sent_term = time.monotonic()
        b.proc.send_signal(signal.SIGTERM)
        b.exited.wait(DRAIN_TIMEOUT + 5)
        time.sleep(0.2)
        poll_stop.set()
        for p in pollers:
            p.thread.join()
        traffic.join()
        elapsed = time.monotonic() - start

        # ---- requests
        total = traffic.ok + len(traffic.failures)
        kinds = ", ".join("%s %d" % kv for kv in sorted(traffic.per_kind.items()))
        fails = ["%+.2fs %s: %s" % (t - sent_term, k, r[:300]) for t, k, r in traffic.failures[:12]]
        check(total > 0 and not traffic.failures,
              "%d requests through nginx in %.1f s, %d failed (%s)" % (total, elapsed, len(traffic.failures), kinds),
              fails)

        # nginx's access log tells which instance answered each request
        by_upstream, retried, before_term = {}, 0, {}
        try:
            with open(os.path.join(work, "nginx", "logs", "access.log")) as f:
                for line in f:
                    m = re.search(r"upstream=(\S+(?:, \S+)*) upstream_status", line)
                    if not m:
                        continue
                    addrs = m.group(1).split(", ")
                    retried += len(addrs) > 1
                    by_upstream[addrs[-1]] = by_upstream.get(addrs[-1], 0) + 1
        except OSError:
            pass
        names = {"%s:%d" % (HOST, i.port): i.name for i in instances}
        served = {names.get(k, k): v for k, v in by_upstream.items()}
        check(served.get("A", 0) > 0 and served.get("B", 0) > 0,
              "both instances answered through nginx (%s; %d requests retried on the other instance)"
              % (", ".join("%s %d" % kv for kv in sorted(served.items())), retried))
        after = traffic.last_ok_at - (b.exited_at or stop_at)
        check(b.exited.is_set() and after > 0,
              "requests kept succeeding after B exited (for %.1f s more)" % max(after, 0))

        # ---- B's drain
        # A poll answered before kill() must be 200; one sent after kill() (plus a little
        # slack for the signal to be handled) must never be 200 again, and at least one poll
        # answered after kill() and before B exited must be 503. Polls in between (sent
        # before, answered after) may be either.
        events = sorted(e for p in pollers for e in p.events)
        answered_before = [e for e in events if e[2] < sent_term]
        after_term = [e for e in events if e[2] >= sent_term]
        saw_503 = any(o == 503 for t, o, r in after_term if b.exited_at is None or r <= b.exited_at)
        ready_after = [o for t, o, r in events if t >= sent_term + SIGNAL_SLACK and o == 200]
        check(bool(answered_before) and all(o == 200 for t, o, r in answered_before),
              "B's /readyz 200 before the SIGTERM (%s)" % summarize(answered_before, 0))
        check(saw_503 and not ready_after,
              "B's /readyz answered 503 after the SIGTERM, before it exited, and never 200 again "
              "(answered after SIGTERM: %s)" % summarize(after_term, 0))
        if b.exited.is_set():
            took = b.exited_at - sent_term
            check(b.proc.returncode == 0 and took <= DRAIN_TIMEOUT + 1,
                  "B exited with status %s %.2f s after SIGTERM (drain timeout %d s)"
                  % (b.proc.returncode, took, DRAIN_TIMEOUT), b.tail())
        else:
            check(False, "B exited within %d s of SIGTERM" % (DRAIN_TIMEOUT + 5), b.tail())

        # ---- A carries on
        h = fetch(a.port, "GET", "/healthz").status
        r = fetch(a.port, "GET", "/readyz").status
        check(a.proc.poll() is None and h == 200 and r == 200,
              "A still serving at the end (GET /healthz %d, GET /readyz %d)" % (h, r))
        try:
            with open(os.path.join(work, "nginx", "logs", "error.log")) as f:
                errs = [l.strip() for l in f if "[error]" in l or "[crit]" in l or "[alert]" in l]
        except OSError:
            errs = []
        note("nginx error log: %d upstream error line(s)%s" % (len(errs), (": " + errs[0][:200]) if errs else ""))
        return finish()
    finally:
        if nginx_proc is not None and nginx_proc.poll() is None:
            nginx_proc.send_signal(signal.SIGQUIT)
            try:
                nginx_proc.wait(10)
            except subprocess.TimeoutExpired:
                nginx_proc.kill()
        for i in instances:
            i.stop()
        if args.keep:
            print("cluster-check: logs kept in %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
