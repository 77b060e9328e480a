#!/usr/bin/env python3
"""`make bench` (g): `segue tokens` on a file of 500 motion tokens, one process.

The file mixes what design systems keep (docs/tokens.md): 200 cubicBezier easings, 150 durations
in both notations, and 150 transitions, a third of them carrying a Segue spring in each
parametrisation (UIKit, SwiftUI, Core Animation, Android, perceptual, POP, Origami), a fifth
naming their duration and easing by alias. Prints the wall and CPU time and the peak RSS of
`segue tokens FILE` (CSS) and `--format json`.

Usage: tokens-bench.py SEGUE_BINARY
"""
import json, resource, subprocess, sys, tempfile, time

SPRINGS = [
    {"type": "spring", "dampingRatio": 0.8},
    {"type": "spring", "response": 0.5, "dampingRatio": 0.7},
    {"type": "spring", "mass": 1, "stiffness": 170, "damping": 15},
    {"type": "spring", "stiffness": 1500, "dampingRatio": 0.5},
    {"type": "spring", "perceptualDuration": 0.4, "bounce": 0.2},
    {"type": "spring", "bounciness": 10, "speed": 12},
    {"type": "spring", "tension": 40, "friction": 7},
]


def document() -> dict:
    easing = {"$type": "cubicBezier"}
    for i in range(200):
        easing[f"e{i}"] = {"$value": [round(0.1 + 0.004 * i, 3), 0, round(0.2 + 0.003 * i, 3), 1]}
    duration = {"$type": "duration"}
    for i in range(150):
        duration[f"d{i}"] = {"$value": {"value": 100 + 2 * i, "unit": "ms"} if i % 2 else f"{100 + 2 * i}ms"}
    transition = {"$type": "transition"}
    for i in range(150):
        value = {"duration": {"value": 200 + i, "unit": "ms"}, "timingFunction": [0.2, 0, 0, 1]}
        if i % 5 == 0:
            value = {"duration": f"{{motion.duration.d{i}}}", "timingFunction": f"{{motion.easing.e{i}}}"}
        token = {"$value": value}
        if i % 3 == 0:
            spring = dict(SPRINGS[i // 3 % len(SPRINGS)])
            if "dampingRatio" in spring and len(spring) == 2:
                spring["dampingRatio"] = round(0.5 + 0.004 * i, 3)
            token["$extensions"] = {"dev.segue": {"timing": spring}}
        transition[f"t{i}"] = token
    return {"motion": {"easing": easing, "duration": duration, "transition": transition}}


def main() -> None:
    binary = sys.argv[1]
    with tempfile.NamedTemporaryFile("w", suffix=".tokens.json", delete=False) as f:
        json.dump(document(), f)
        path = f.name
    for args in ([], ["--format", "json"]):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run([binary, "tokens", path, *args], capture_output=True, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"tokens-cli tokens=500 format={'json' if args else 'css'} wall_ms={wall * 1000:.0f} cpu_ms={cpu * 1000:.0f} "
              f"peak_rss_mb={after.ru_maxrss / 1024:.1f} bytes={len(out.stdout)}")


if __name__ == "__main__":
    main()
