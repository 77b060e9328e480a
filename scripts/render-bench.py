#!/usr/bin/env python3
"""make bench, part (c): POST /v1/render against a running Segue.

1. The issue's render: 1,000 frames x 100 views x 3 channels (center, alpha, cornerRadius),
   each view animated — wall time, response MB/s and the server's peak RSS.
2. Keyframe modes: 1,000 frames x 100 views, each view's `center` on 5 `values` keyframes, the
   identical request in `linear`, `cubic` and `cubicPaced` mode — wall time of each and the ratio
   cubicPaced / linear (the arc-length inversion's price; docs/keyframes.md "cubicPaced").
3. Scaling: the same shape of request from 10^3 to 10^7 output numbers — time per number and
   the server's peak RSS after each (VmHWM only grows). A render holds its samples, 8 bytes a
   number, while it is sent (docs/http.md "Memory"): the column grows by about that, while the
   text, 19 bytes a number, is held one 64 KiB piece at a time.

usage: render-bench.py PORT SERVER_PID
"""
import json
import sys
import time
import urllib.request

port, pid = int(sys.argv[1]), int(sys.argv[2])
url = f"http://127.0.0.1:{port}/v1/render"


def rss_kib():
    with open(f"/proc/{pid}/status") as status:
        fields = dict(line.split(":", 1) for line in status)
    return int(fields["VmHWM"].split()[0]), int(fields["VmRSS"].split()[0])


def post(body, repeats=3):
    data = json.dumps(body).encode()
    best, size = None, 0
    for _ in range(repeats):
        start = time.perf_counter()
        request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:
            size = 0
            while True:
                chunk = response.read(1 << 16)
                if not chunk:
                    break
                size += len(chunk)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, size


def views_request(views, frames, channels):
    fps = 100
    body = {"fps": fps, "until": (frames - 1) / fps, "views": {}, "animations": []}
    for i in range(views):
        name = f"v{i}"
        view, target = {}, {}
        for channel, (start, end) in channels.items():
            view[channel] = start(i) if callable(start) else start
            target[channel] = end(i) if callable(end) else end
        body["views"][name] = view
        body["animations"].append({"view": name, "duration": max(0.01, (frames - 1) / fps), "delay": 0,
                                   "timing": "easeInOut", "to": target})
    return body


print("render 1,000 frames x 100 views x 3 channels (center, alpha, cornerRadius):")
issue = views_request(100, 1000, {"center": (lambda i: [i, 0], lambda i: [i, 500]), "alpha": (1, 0),
                                  "cornerRadius": (0, 12)})
seconds, size = post(issue)
hwm, _ = rss_kib()
print(f"  wall {seconds * 1000:.1f} ms  response {size / 1e6:.2f} MB  {size / 1e6 / seconds:.1f} MB/s  "
      f"peak RSS {hwm / 1024:.1f} MiB")



def keyframes_request(views, frames, mode):
    """Every view's `center` through 5 keyframes (a different zigzag per view), in `mode`."""
    fps = 100
    body = {"fps": fps, "until": (frames - 1) / fps, "views": {}, "animations": []}
    for i in range(views):
        name = f"v{i}"
        values = [[i + 40 * k, (k * 37 + i * 11) % 97 * 5] for k in range(5)]
        body["views"][name] = {"center": values[0]}
        body["animations"].append({"view": name, "channel": "center", "duration": (frames - 1) / fps,
                                   "timing": "linear", "calculationMode": mode, "values": values})
    return body


print("keyframe modes, 1,000 frames x 100 views, `center` on 5 values (best of 5):")
times = {}
for mode in ["linear", "cubic", "cubicPaced"]:
    times[mode], size = post(keyframes_request(100, 1000, mode), repeats=5)
    print(f"  {mode:>10} {times[mode] * 1000:8.1f} ms  response {size / 1e6:.2f} MB")
print(f"  cubicPaced / linear = {times['cubicPaced'] / times['linear']:.2f} (goal <= 1.5)  "
      f"cubic / linear = {times['cubic'] / times['linear']:.2f}")

print("scaling (100 views x a 10-number custom channel, 100 animations; 1,301 numbers per frame):")
print(f"  {'numbers':>10} {'frames':>7} {'bytes':>12} {'ms':>9} {'ns/number':>10} {'peak RSS MiB':>13}")
for exponent in range(3, 8):
    numbers = 10 ** exponent
    frames = max(1, -(-numbers // 1301))
    body = views_request(100, frames, {"x": ([0] * 10, [1] * 10)})
    seconds, size = post(body, repeats=1 if exponent == 7 else 3)
    hwm, _ = rss_kib()
    actual = frames * 1301
    print(f"  {actual:>10} {frames:>7} {size:>12} {seconds * 1000:>9.1f} {seconds / actual * 1e9:>10.1f} {hwm / 1024:>13.1f}")
