#!/usr/bin/env bash
# Builds the libFuzzer harness for the JSON reader/writer (Fuzz/JSONReaderFuzz.swift) and runs it.
#
#   scripts/fuzz.sh [runs]        # default 1000000 executions
#
# Extra libFuzzer flags can be passed in FUZZ_FLAGS (e.g. FUZZ_FLAGS="-jobs=2 -workers=2").
# The build goes around SwiftPM (Package.swift has no fuzz target): SegueEngine is compiled as a
# static library + module first, then the SegueCodec sources and the harness as one module, all
# with -sanitize=fuzzer,address. Everything lands in .build-fuzz/ (gitignored); the seed corpus is
# rewritten into .build-fuzz/corpus on every run and the inputs libFuzzer finds accumulate there.
# Exits with the fuzzer's status (0 = no crash, leak or timeout in `runs` executions).
set -euo pipefail

runs="${1:-1000000}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

swiftc="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
out=.build-fuzz
obj="$out/fuzz-obj"
corpus="$out/corpus"
mkdir -p "$obj" "$corpus"

# 1. SegueEngine as its own module (SegueCodec's files say `import SegueEngine`).
"$swiftc" -sanitize=fuzzer,address -parse-as-library -O -use-ld=lld \
    -module-name SegueEngine -emit-module -emit-module-path "$obj/SegueEngine.swiftmodule" \
    -emit-library -static -o "$obj/libSegueEngine.a" Sources/SegueEngine/*.swift

# 2. SegueCodec + the harness as one executable module (the harness sees internal API).
# shellcheck disable=SC2046
"$swiftc" -sanitize=fuzzer,address -parse-as-library -O -use-ld=lld \
    -module-name SegueCodecFuzz -I "$obj" \
    $(find Sources/SegueCodec -name '*.swift' | LC_ALL=C sort) Fuzz/JSONReaderFuzz.swift \
    "$obj/libSegueEngine.a" -o "$out/json-fuzz"

# 3. Seed corpus: a few valid request documents and edge cases.
seed() { printf '%s' "$2" > "$corpus/seed-$1.json"; }
seed curve-string '{"timing": "ease-in-out", "duration": 0.35, "samples": 11}'
seed curve-spring '{"timing": {"type": "spring", "dampingRatio": 0.6, "initialVelocity": 0}, "duration": 0.8, "fps": 60}'
seed curve-at '{"timing":{"type":"cubicBezier","p1":[0.25,0.1],"p2":[0.25,1]},"at":[0,0.5,1,1.25,-0.25,1e-3,2.5E+0]}'
seed curve-linear '{"timing": "linear(0, 0.25 75%, 1)", "duration": 1}'
seed render '{
  "fps": 60,
  "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 1}},
  "animations": [
    {"id": "present", "view": "card", "duration": 0.8,
     "timing": {"type": "spring", "dampingRatio": 0.6, "initialVelocity": 0},
     "to": {"frame": [0, 0, 320, 568]}}
  ],
  "velocities": true, "until": null
}'
seed physics '{"id":"pane","view":"pane","to":{"center":[160,100]},"velocity":[0,-800],"dynamics":{"model":"attachment","frequency":3.5,"damping":0.4,"integrator":"rk4"}}'
seed strings '["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC\uD83D\uDE00", "é€😀", "~0~1/", "", "\u0000"]'
seed numbers '[0, -0, 1, -1, 0.1, -0.0, 1e5, 1E-5, 1.5e+300, 4.9e-324, 1.7976931348623157e308, 9223372036854775807, 12345678901234567890123, 0.30000000000000004]'
seed scalars 'true'
seed nested '[[[[{"a":[{"b":{}}]}]]]]'

# 4. Run. -max_len caps the input size; stats go to stderr.
set +e
# shellcheck disable=SC2086
"$out/json-fuzz" -runs="$runs" -max_len=4096 -print_final_stats=1 ${FUZZ_FLAGS:-} "$corpus"
status=$?
set -e
exit "$status"
