#!/usr/bin/env python3
"""`make bench` (h): 1,000 curve requests as one batch against the same 1,000 as single requests
over one kept-alive connection (rule 36; the goal is the batch at ≥ 2× the throughput).

The lines are distinct curves (JSON, CSV and CSS formats, springs and Béziers, 20–120 samples),
so with the response cache off (`--cache-entries 0`, as here) every one is computed. Each side
runs 5 times, alternated, on one server; printed: the median wall time of each, the throughput
ratio, and the server's CPU time per request (user + system from /proc), which leaves out the
client's own cost.

Usage: batch-bench.py SEGUE_BINARY
"""
import http.client, json, os, re, statistics, subprocess, sys, time


def lines():
    out = []
    for i in range(1000):
        if i % 3 == 0:
            body = {"timing": {"type": "spring", "dampingRatio": round(0.4 + i % 50 / 100, 2)}, "duration": 0.5 + i % 7 / 10,
                    "samples": 20 + i % 100}
        else:
            body = {"timing": f"cubic-bezier({i % 10 / 10}, {i % 7 / 10}, 0.58, 1)", "samples": 20 + i % 100}
        out.append({"path": "/v1/curve", "body": body, "format": ["json", "csv", "css"][i % 3], "id": f"c{i}"})
    return out


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_batch(port, payload):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/v1/batch", body=payload, headers={"Content-Type": "application/x-ndjson"})
    body = conn.getresponse().read()
    conn.close()
    assert body.count(b"\n") == 1000 and b'"status":200' in body
    return body


def run_singles(port, requests):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for line in requests:
        conn.request("POST", f"/v1/curve?format={line['format']}", body=json.dumps(line["body"]).encode(),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        assert response.status == 200
    conn.close()


def main():
    binary = sys.argv[1]
    server = subprocess.Popen([binary, "serve", "--port", "0", "--cache-entries", "0", "--log-level", "warning"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r":(\d+) ", server.stdout.readline()).group(1))
        requests = lines()
        payload = "".join(json.dumps(x) + "\n" for x in requests).encode()
        run_batch(port, payload)  # warm-up
        run_singles(port, requests[:100])
        timings = {"batch": [], "singles": []}
        cpu = {"batch": [], "singles": []}
        for _ in range(5):
            for name, job in (("batch", lambda: run_batch(port, payload)), ("singles", lambda: run_singles(port, requests))):
                c0, t0 = cpu_seconds(server.pid), time.perf_counter()
                job()
                timings[name].append(time.perf_counter() - t0)
                cpu[name].append(cpu_seconds(server.pid) - c0)
        batch, singles = statistics.median(timings["batch"]), statistics.median(timings["singles"])
        print(f"batch of 1000 curve lines: {batch * 1e3:.1f} ms  ({1000 / batch:.0f} lines/s), "
              f"server CPU {statistics.median(cpu['batch']) * 1e3:.0f} ms")
        print(f"1000 single requests, one keep-alive connection: {singles * 1e3:.1f} ms  ({1000 / singles:.0f} req/s), "
              f"server CPU {statistics.median(cpu['singles']) * 1e3:.0f} ms")
        print(f"throughput ratio batch / singles: {singles / batch:.2f}x (goal >= 2x)")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
