#!/usr/bin/env python3
"""make bench (a'): instructions per POST /v1/curve through the real transport, counted by
`valgrind --tool=callgrind` — stable where wall-clock rates swing ±30 % on this machine.

    python3 scripts/callgrind-curve.py --segue .build-release/release/segue [--bench .build-release/release/segue-bench]
                                       [--shared ../shared/bench]

Each server runs under callgrind (all threads, instructions only) and is sent the benchmark request
of ../shared/bench/curve.lua (61 samples of CSS ease) N times, one after another on one keep-alive
connection; it is then stopped (SIGTERM) and the total instruction count read. Two runs, with
N = 200 and N = 1200, give the cost per request as their difference ÷ 1000, which leaves out
start-up and shut-down. Servers: Segue with the response cache off (the job itself, as every
distinct request pays it) and on (identical requests), the bare C libmicrohttpd server (the HTTP
floor) and the C++ reference (the same job with std::to_chars), the last two built from
../shared/bench when it is there. Each in libmicrohttpd's pool of 2 threads, as in compare-http.sh.

With `--bench`, the handler alone is counted too (`segue-bench`'s `handlerRun`: the service's
answer to the same request, no socket, cache off; two runs of 800 and 2,800 requests, their
difference ÷ 2,000), and Segue's transport budget is printed: the cache-off total less the
handler — libmicrohttpd, the access handler, the log line and the metrics — beside the bare C
server's whole total, and beside a second floor (Benchmarks/mhd-six-headers.c): libmicrohttpd
answering with the six headers Segue's contract puts on a curve (the bare server sends one) and
doing nothing else.

Beside each total, a few parts of it (callgrind's inclusive counts, differenced the same way): the
clearing of libmicrohttpd's connection pool that every server on it pays (`memset`), the response
headers (`MHD_add_response_header`) and Segue's log line and metrics. The transport budget is then
printed again without the pool clearing, and without the log line and metrics that the bare server
does not have.

For Segue, the atomic read-modify-writes of its own code and Swift runtime are counted too: the
executions of its `lock`-prefixed instructions (found by objdump in the binary; callgrind records
each instruction's count with --dump-instr=yes), differenced the same way, and of them those of
reference counting: in `swift_retain`, `swift_release` and the runtime's `RefCounts` (the last
release of an object, which marks it deinitialising). callgrind counts each as one instruction, but each costs about
as much as a cache miss on this machine (docs/http.md "Atomics, counted and priced").
"""

import argparse
import glob
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SIX_HEADERS = "libmicrohttpd, six headers"
BODY = b'{"timing":{"type":"cubicBezier","p1":[0.25,0.1],"p2":[0.25,1]},"samples":61}'
RUNS = (200, 1200)
# Swift seeds its hashing per process, so a dictionary's probes, and with them a few hundred
# instructions a request, differ from run to run; a fixed seed makes the count repeat.
STEADY_HASHING = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(port, proc, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited early ({proc.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("server did not start under callgrind")


def drive(port, n):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    for _ in range(n):
        conn.request("POST", "/v1/curve", body=BODY, headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        r.read()
        if r.status != 200:
            raise SystemExit(f"status {r.status}")
    conn.close()


# Parts of a server's count printed beside its total (inclusive instructions of the functions whose
# names contain the second element): what every libmicrohttpd server pays, and what Segue adds.
PARTS = (("libmicrohttpd's pool clearing (memset)", "memset"),
         ("response headers (MHD_add_response_header)", "MHD_add_response_header"),
         ("log line and metrics (SegueService.observe)", "ServiceV7observe"))


def parts_of(path):
    """Inclusive instructions of each of PARTS in one callgrind output (the largest matching function)."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                          capture_output=True, text=True).stdout
    found = dict.fromkeys((name for name, _ in PARTS), 0)
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) (?:\(.*?\))?\s+\S*?:(\S+)", line)
        if not m:
            continue
        for name, needle in PARTS:
            if needle in m.group(2):
                found[name] = max(found[name], int(m.group(1).replace(",", "")))
    return found


def lock_addresses(binary):
    """The addresses of the `lock`-prefixed instructions (atomic read-modify-writes) in `binary`."""
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True,
                             check=True).stdout
    return {int(m.group(1), 16) for m in re.finditer(r"(?m)^\s*([0-9a-f]+):\s+lock ", listing)}


def atomics_of(path, binary, locks):
    """Executions of the instructions at `locks` in `binary`'s code in one callgrind output written with
    --dump-instr=yes: all of them, and those of reference counting (swift_retain, swift_release,
    RefCounts). Positions are absolute or relative to the line before (+N, -N, *); the line after a
    `calls=` line is the call's inclusive cost, not an instruction of the caller."""
    names, objects = {}, {}
    current_object = function = None
    address, after_call = 0, False
    total = counting = 0
    with open(path) as f:
        for line in f:
            m = re.match(r"(c?ob|c?fn)=\((\d+)\)(?: (.*))?", line)
            if m:
                table = objects if m.group(1).endswith("ob") else names
                if m.group(3):
                    table[m.group(2)] = m.group(3).strip()
                if m.group(1) == "ob":
                    current_object = objects.get(m.group(2))
                elif m.group(1) == "fn":
                    function = names.get(m.group(2))
                continue
            if line.startswith("calls="):
                after_call = True
                continue
            m = re.match(r"(0x[0-9a-f]+|[+-]\d+|\*)\s+\S+\s+(\d+)", line)
            if not m:
                continue
            position = m.group(1)
            if position.startswith("0x"):
                address = int(position, 16)
            elif position != "*":
                address += int(position)
            if after_call:
                after_call = False
                continue
            if address in locks and current_object == binary:
                total += int(m.group(2))
                if function and (function.startswith(("swift_retain", "swift_release")) or "RefCounts" in function):
                    counting += int(m.group(2))
    return total, counting


def count(command, n, work, locks=None):
    """Total instructions of one server process that answered `n` requests, its PARTS, and with
    `locks` (the lock-prefixed instructions of command[0]) its atomics (`atomics_of`)."""
    port = free_port()
    out = os.path.join(work, f"cg.{n}.%p")
    argv = ["valgrind", "--tool=callgrind", "--quiet", f"--dump-instr={'yes' if locks else 'no'}", "--collect-jumps=no",
            f"--callgrind-out-file={out}"] + [a.replace("$PORT", str(port)) for a in command]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=STEADY_HASHING)
    try:
        wait_up(port, proc)
        drive(port, 20)  # warm: lazy initialisation is not per-request cost
        drive(port, n)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    total = 0
    parts = dict.fromkeys((name for name, _ in PARTS), 0)
    atomics = (0, 0)
    for path in glob.glob(os.path.join(work, f"cg.{n}.*")):
        with open(path) as f:
            for line in f:
                m = re.match(r"(?:summary|totals):\s+(\d+)", line)
                if m:
                    total = max(total, int(m.group(1))) if line.startswith("totals") else total + int(m.group(1))
        for name, value in parts_of(path).items():
            parts[name] += value
        if locks:
            atomics = tuple(a + b for a, b in zip(atomics, atomics_of(path, command[0], locks)))
        os.remove(path)
    return total, parts, atomics


def per_request(command, work, locks=None):
    """Instructions per request, per request of each of PARTS, and atomics per request (all, and
    those of reference counting) when `locks` is given."""
    (low, low_parts, low_atomics), (high, high_parts, high_atomics) = (count(command, n, work, locks) for n in RUNS)
    span = RUNS[1] - RUNS[0]
    return ((high - low) / span, {name: (high_parts[name] - low_parts[name]) / span for name in high_parts},
            tuple((b - a) / span for a, b in zip(low_atomics, high_atomics)))


HANDLER = "$s11segue_bench10handlerRunyyF"
# segue-bench's handler loop runs sampleCount / 500 requests, twice with `1` run.
HANDLER_RUNS = ((200_000, 800), (700_000, 2_800))


def handler_per_request(bench, work):
    """Instructions per request of the service's answer alone (segue-bench's handlerRun)."""
    totals = []
    for samples, requests in HANDLER_RUNS:
        out = os.path.join(work, f"handler.{samples}")
        subprocess.run(["valgrind", "--tool=callgrind", "--quiet", "--dump-instr=no", "--collect-jumps=no",
                        f"--toggle-collect={HANDLER}", f"--callgrind-out-file={out}", bench, str(samples), "1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=STEADY_HASHING)
        with open(out) as f:
            totals.append((requests, max(int(m.group(1)) for m in re.finditer(r"(?m)^(?:summary|totals):\s+(\d+)", f.read()))))
        os.remove(out)
    (low_n, low), (high_n, high) = totals
    return (high - low) / (high_n - low_n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--segue", required=True)
    ap.add_argument("--bench", help="segue-bench, to count the handler alone and print the transport budget")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "bench"))
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is required (apt-get install valgrind)")
    work = tempfile.mkdtemp(prefix="callgrind-curve.")
    # valgrind 3.19 cannot read the DWARF 5 the Swift toolchain writes: count a copy without it
    # (the symbol table stays, so callgrind_annotate still names functions).
    segue = os.path.join(work, "segue")
    subprocess.run(["objcopy", "--strip-debug", os.path.abspath(args.segue), segue], check=True)
    servers = [("segue --cache-entries 0", [segue, "serve", "--port", "$PORT", "--cache-entries", "0"]),
               ("segue (cache on)", [segue, "serve", "--port", "$PORT"])]
    if os.path.isdir(args.shared):
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libmicrohttpd"], capture_output=True,
                               text=True, check=True).stdout.split()
        subprocess.run(["gcc", "-O2", "-o", f"{work}/mhd_baseline", f"{args.shared}/mhd_baseline.c", *flags], check=True)
        subprocess.run(["g++", "-O2", "-std=c++17", "-o", f"{work}/curve_reference", f"{args.shared}/curve_reference.cpp",
                        *flags], check=True)
        servers += [("bare C libmicrohttpd", [f"{work}/mhd_baseline", "$PORT", "pool:2"]),
                    ("C++ reference", [f"{work}/curve_reference", "$PORT", "pool:2"])]
    # The second floor: libmicrohttpd sending Segue's six contract headers and nothing else.
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libmicrohttpd"], capture_output=True,
                           text=True, check=True).stdout.split()
    six = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Benchmarks", "mhd-six-headers.c")
    subprocess.run(["gcc", "-O2", "-o", f"{work}/mhd-six-headers", six, *flags], check=True)
    servers.append((SIX_HEADERS, [f"{work}/mhd-six-headers", "$PORT"]))
    results, parts = {}, {}
    locks = lock_addresses(segue)
    for name, command in servers:
        results[name], parts[name], atomics = per_request(command, work, locks if command[0] == segue else None)
        print(f"{name:26s} {results[name]:12,.0f} instructions per request", flush=True)
        for part, value in parts[name].items():
            if value >= 1:
                print(f"    of which {part:46s} {value:9,.0f}")
        if command[0] == segue:
            print(f"    atomic read-modify-writes in Segue's code and runtime: {atomics[0]:,.0f} per request, "
                  f"{atomics[1]:,.0f} of them reference counting (retains, releases, deallocations)")
    handler = None
    if args.bench:
        bench = os.path.join(work, "segue-bench")
        subprocess.run(["objcopy", "--strip-debug", os.path.abspath(args.bench), bench], check=True)
        handler = handler_per_request(bench, work)
        print(f"{'segue handler alone':26s} {handler:12,.0f} instructions per request (no socket, cache off)")
    shutil.rmtree(work, ignore_errors=True)
    base = results.get("bare C libmicrohttpd")
    if handler is not None:
        transport = results["segue --cache-entries 0"] - handler
        print(f"segue transport (cache-off total - handler) {transport:,.0f} instructions per request"
              + (f"; bare C libmicrohttpd {base:,.0f}; ratio {transport / base:.3f} (goal <= 1.3)" if base else ""))
        if base:
            # The same ratio without the pool clearing both pay byte by byte (docs/http.md
            # "Instructions per request"), and without the log line and metrics the bare server lacks.
            clearing = PARTS[0][0]
            own, floor = transport - parts["segue --cache-entries 0"][clearing], base - parts["bare C libmicrohttpd"][clearing]
            observed = own - parts["segue --cache-entries 0"][PARTS[2][0]]
            print(f"  beyond the pool clearing: segue {own:,.0f}, bare C {floor:,.0f}, ratio {own / floor:.2f}; "
                  f"without the log line and metrics {observed:,.0f}, ratio {observed / floor:.2f}")
        six = results[SIX_HEADERS]
        print(f"segue transport ÷ libmicrohttpd sending Segue's six response headers ({six:,.0f}): "
              f"{transport / six:.3f}")
    if base:
        for name in ("segue --cache-entries 0", "segue (cache on)", "C++ reference"):
            print(f"{name} ÷ bare C: {results[name] / base:.2f}")
        print(f"segue --cache-entries 0 ÷ C++ reference: {results['segue --cache-entries 0'] / results['C++ reference']:.2f}")


if __name__ == "__main__":
    main()
