#!/usr/bin/env python3
"""The render that took a worker for minutes before the work budget (docs/cost.md): `cubicPaced`
keyframes on a wide custom channel, with velocities, inside every other default limit.

    python3 Benchmarks/cost-attack.py [--width W] [--values N] [--frames F] > attack.json
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' localhost:8080/v1/render --data-binary @attack.json

Defaults give the ~460 KB body of the issue: 64 components (the widest custom channel), 1,200 keyframe values, and as many
frames at 60 fps as the 5,000,000-number limit allows with velocities (37,878).
"""
import argparse, json, random

parser = argparse.ArgumentParser()
parser.add_argument("--width", type=int, default=64)
parser.add_argument("--values", type=int, default=1200)
parser.add_argument("--frames", type=int, default=0, help="0: as many as the number limit allows")
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()
rng = random.Random(args.seed)
frames = args.frames or 5_000_000 // (1 + 2 * args.width + 3)
duration = (frames - 1) / 60
values = [[round(rng.uniform(-1, 1), 3) for _ in range(args.width)] for _ in range(args.values)]
body = {"velocities": True, "fps": 60,
        "views": {"v": {"c": [0] * args.width}},
        "animations": [{"view": "v", "channel": "c", "duration": duration, "calculationMode": "cubicPaced",
                        "values": values}]}
print(json.dumps(body, separators=(",", ":")))
