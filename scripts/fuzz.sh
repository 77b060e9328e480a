#!/usr/bin/env bash
# Builds the libFuzzer harnesses and runs them, one after the other:
#   json  the JSON reader/writer (Fuzz/JSONReaderFuzz.swift);
#   dtoa  the shortest-double formatter against Swift's description (Fuzz/ShortestDoubleFuzz.swift).
#
#   scripts/fuzz.sh [runs]        # default 1000000 executions of each
#
# Environment:
#   TARGET=json|dtoa|all  which harness (default all)
#   FUZZ_FLAGS="…"        extra libFuzzer flags (e.g. "-jobs=2 -workers=2" or "-max_total_time=600")
#   SWIFTC=…              the compiler (default: swiftc on PATH, else /opt/swift/usr/bin/swiftc)
#
# The build goes around SwiftPM (Package.swift has no fuzz target): swiftc with
# -sanitize=fuzzer,address compiles the harness into one module with the SegueJSON module's
# sources, which import nothing of the project. Everything lands in .build-fuzz/
# (gitignored): the binaries, a corpus per harness (seeds rewritten on every run; the inputs
# libFuzzer finds accumulate) and crash artifacts. Exits non-zero when a fuzzer found a crash.
set -euo pipefail

runs="${1:-1000000}"
target="${TARGET:-all}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

swiftc="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
out=.build-fuzz
obj="$out/fuzz-obj"
artifacts="$out/fuzz-artifacts"
mkdir -p "$obj" "$artifacts"
flags=(-sanitize=fuzzer,address -parse-as-library -O -use-ld=lld)
# Swift's own backtracer is off: libFuzzer reports the trap of a failed check, and ASan misreads
# the backtracer's stack reads.
export SWIFT_BACKTRACE=enable=no

# build HARNESS BINARY: the harness and the SegueJSON module's sources, one module.
build() {
    # shellcheck disable=SC2046
    "$swiftc" "${flags[@]}" -module-name SegueJSONFuzz $(find Sources/SegueJSON -name '*.swift' | LC_ALL=C sort) \
        "$1" -o "$out/$2"
}

# run BINARY CORPUS [libFuzzer flags…]: -max_len caps the input size; the final stats go to stderr.
run() {
    local binary=$1 corpus=$2
    shift 2
    set +e
    # shellcheck disable=SC2086
    "$out/$binary" -runs="$runs" -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" ${FUZZ_FLAGS:-} "$corpus"
    local status=$?
    set -e
    return "$status"
}

json() {
    local corpus="$out/corpus"
    mkdir -p "$corpus"
    # 1. Build.
    build Fuzz/JSONReaderFuzz.swift json-fuzz

    # 2. Seed corpus: a few valid request documents and edge cases.
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
    seed number '2.2250738585072011e-308'
    seed scalars 'true'
    seed nested '[[[[{"a":[{"b":{}}]}]]]]'
    printf '{"\xd6\x96n// ig":' > "$corpus/seed-combining-name.json"  # a member name starting with a combining mark

    # A dictionary of JSON tokens helps the mutator build syntax.
    cat > "$out/json.dict" <<'DICT'
"{"
"}"
"["
"]"
":"
","
"\""
"\\\""
"\\\\"
"\\/"
"\\b"
"\\n"
"\\u"
"\\u0000"
"\\uD83D\\uDE00"
"\\uDC00"
"true"
"false"
"null"
"-0"
"0."
"e+"
"E-"
"1e308"
"1e400"
"NaN"
"Infinity"
"\xc3\xa9"
"\xf0\x9f\x98\x80"
"\xed\xa0\x80"
DICT

    # 3. Run.
    run json-fuzz "$corpus" -max_len=4096 -dict="$out/json.dict"
}

# The formatter: inputs are bit patterns (8 bytes a double) or decimal text; the seeds are the
# edge cases of docs/numbers.md as bit patterns.
dtoa() {
    local corpus="$out/dtoa-corpus"
    mkdir -p "$corpus"
    build Fuzz/ShortestDoubleFuzz.swift dtoa-fuzz
    local name bits
    for bits in 0000000000000001 000fffffffffffff 0010000000000000 7fefffffffffffff 3ff0000000000000 \
                3fb999999999999a 3ee4f8b588e368f1 4340000000000000 4340000000000001 43e0000000000000 \
                7e37e43c8800759c 44b52d02c7e14af6 c2e7f2f7430e17cc 3fd5555555555555; do
        name="$corpus/seed-$bits"
        printf '%s' "$bits" | sed 's/../&\n/g' | sed '/^$/d' | tac | while read -r byte; do printf "\\x$byte"; done > "$name"
    done
    printf '%s' '0.1' > "$corpus/seed-text-0.1"
    printf '%s' '1e-05' > "$corpus/seed-text-1e-05"
    printf '%s' '2.2250738585072011e-308' > "$corpus/seed-text-subnormal"
    run dtoa-fuzz "$corpus" -max_len=64
}

status=0
case "$target" in
    json) json || status=$? ;;
    dtoa) dtoa || status=$? ;;
    all) json || status=$?; dtoa || status=$? ;;
    *) echo "fuzz.sh: TARGET must be json, dtoa or all" >&2; exit 2 ;;
esac
exit "$status"
