#!/usr/bin/env bash
# make bench: Segue's figures next to the C and C++ anchors of ../shared/bench, measured in one run.
#   (a) POST /v1/curve (61 samples, CSS ease) under wrk: Segue vs the bare C libmicrohttpd server
#       and the C++ reference server (../shared/bench/compare-http.sh) with the cache on, off, and
#       off with one I/O thread (latency: threads vs cores) against the C servers with two threads
#       and with one; each server's CPU time per request,
#       user and system, alternated under the same load (scripts/cpu-per-request.sh); then instructions per
#       request through the real transport, all four counted by callgrind, and the handler alone, which
#       gives the transport budget beside the bare C server and beside libmicrohttpd sending Segue's
#       six response headers (Benchmarks/mhd-six-headers.c), and Segue's atomic read-modify-writes
#       per request (scripts/callgrind-curve.py);
#   (b) the engine's ns per sample vs ../shared/bench/engine_reference.c, with Swift ÷ C ratios;
#   (c) POST /v1/render: the 1,000 x 100 x 3 render and the scaling from 10^3 to 10^7 numbers;
#   (d) exports: stops per spring beside the greedy minimum (docs/exports.md), and issue 29's N-view
#       scene (N = 10, 100, 1000) in every web format beside its JSON, with the work estimate;
#   (e) the playground (GET /): its size, and its load time in headless Chromium;
#   (f) number formatting: ns per number written by TextWriter.number (Swift's description before,
#       the Schubfach formatter now) beside a C++17 std::to_chars writer of the same numbers
#       (Benchmarks/number-writer.cpp), with the ratios (docs/numbers.md "Cost");
#   (g) `segue tokens` on a 500-token file, one process (scripts/tokens-bench.py);
#   (h) 1,000 curve lines in one batch against 1,000 single requests over one keep-alive
#       connection (scripts/batch-bench.py);
#   (i) what `analysis` and `compare` (all six engines) add to a 101-sample spring curve request
#       (segue-bench curve-extras): CPU time, then instructions counted by callgrind;
#   (j) what the sample-time memo saves on a curve's JSON body (segue-bench memo).
# Where ../shared/bench is absent (a clone elsewhere) only Segue's own figures are printed.
set -euo pipefail
bin=${1:?usage: bench.sh RELEASE_BIN_DIR}
bin=$(cd "$bin" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
shared="$here/../shared/bench"
SECONDS_PER_RUN=${BENCH_SECONDS:-10}

need() { command -v "$1" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk; need curl curl; need gcc build-essential; need g++ g++

echo "== (b) engine: ns per sample (median of 5 runs, 10^7 samples)"
swift_out=$("$bin/segue-bench" 10000000 5)
if [ -f "$shared/engine_reference.c" ]; then
  work=$(mktemp -d)
  gcc -O2 -std=c11 -o "$work/engine_reference" "$shared/engine_reference.c" -lm
  c_out=$("$work/engine_reference" 10000000 5)
  printf '%s\n' "$c_out" | sed 's/^/C     /'
  printf '%s\n' "$swift_out" | sed 's/^/Swift /'
  join <(printf '%s\n' "$swift_out" | awk '{split($2,a,"="); print $1, a[2]}' | sort) \
       <(printf '%s\n' "$c_out" | awk '{split($2,a,"="); print $1, a[2]}' | sort) \
    | awk '{ printf "%s swift_ns=%.2f c_ns=%.2f ratio_swift_over_c=%.3f\n", $1, $2, $3, $2 / $3 }'
  rm -rf "$work"
else
  printf '%s\n' "$swift_out"
fi

echo
echo "== (a) HTTP: POST /v1/curve, 61 samples of CSS ease"
if [ -f "$shared/compare-http.sh" ]; then
  # As deployed (identical requests answered from the response cache), then with the cache off
  # (every request parsed, sampled and written).
  for cache in 4096 0; do
    echo "-- segue --cache-entries $cache"
    (cd "$here" && bash "$shared/compare-http.sh" "$bin/segue serve --port \$PORT --threads 2 --cache-entries $cache" "$SECONDS_PER_RUN")
  done
  # Threads against cores for latency: wrk shares the two cores, so two I/O threads and wrk's two
  # threads contend for them; one I/O thread leaves wrk a core (docs/http.md "Threads against
  # cores for latency"). One I/O thread against the C servers with their default pool of two
  # (what giving up a thread costs), then against the same servers with one thread (MHD_MODE,
  # compare-http.sh's own setting): the same threads, the same cores.
  echo "-- segue --cache-entries 0 --threads 1 (one I/O thread: the latency side of threads vs cores), C servers pool:2"
  (cd "$here" && bash "$shared/compare-http.sh" "$bin/segue serve --port \$PORT --threads 1 --cache-entries 0" "$SECONDS_PER_RUN")
  echo "-- segue --cache-entries 0 --threads 1, C servers with one thread too (MHD_MODE=pool:1)"
  (cd "$here" && MHD_MODE=pool:1 bash "$shared/compare-http.sh" "$bin/segue serve --port \$PORT --threads 1 --cache-entries 0" "$SECONDS_PER_RUN")
  # What the cache-off ratio comes from: each server's CPU time per request, user and system,
  # under the same load, alternated (steadier than req/s, and it counts what an instruction costs).
  echo "-- CPU time per request: Segue (cache off, 2 threads) beside the C++ reference, alternated (scripts/cpu-per-request.sh)"
  work=$(mktemp -d)
  g++ -O2 -std=c++17 -o "$work/curve_reference" "$shared/curve_reference.cpp" $(pkg-config --cflags --libs libmicrohttpd)
  bash "$here/scripts/cpu-per-request.sh" "$bin/segue" "$work/curve_reference"
  rm -rf "$work"
else
  port=18089
  "$bin/segue" serve --port $port >/dev/null & pid=$!
  trap 'kill $pid 2>/dev/null || true' EXIT
  sleep 1
  body='{"timing":"ease","samples":61}'
  printf 'wrk.method="POST"\nwrk.body=%q\nwrk.headers["Content-Type"]="application/json"\n' "$body" > /tmp/segue-bench.lua
  wrk -t2 -c64 -d"${SECONDS_PER_RUN}s" --latency -s /tmp/segue-bench.lua "http://127.0.0.1:$port/v1/curve"
fi
echo "-- instructions per request (valgrind --tool=callgrind; the figure to quote on this noisy machine)"
need valgrind valgrind
python3 "$here/scripts/callgrind-curve.py" --segue "$bin/segue" --bench "$bin/segue-bench" --shared "$shared"

echo
echo "== (c) render: wall time, MB/s, peak RSS; time and RSS from 10^3 to 10^7 numbers"
port=18090
# Limits raised (numbers, samples, work, and the response memory its samples take: 8 bytes a
# number) so that the largest case is rendered, not refused.
"$bin/segue" serve --port $port --threads 2 --max-numbers 20000000 --max-samples 1000000 --max-work 1000000000000 \
  --max-response-memory 1073741824 \
  >/dev/null 2>&1 & pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do "$bin/segue" healthcheck --port $port && break; sleep 0.1; done
python3 "$here/scripts/render-bench.py" $port $pid
kill $pid 2>/dev/null || true
wait $pid 2>/dev/null || true

echo
echo "== (d) exports: linear() stops per spring at 1e-3 and 1e-4 beside the greedy minimum; N views × a spring block on frame, alpha and rotation, 61 frames, each format against JSON (goal ≤ 5×)"
"$bin/segue-bench" exports
echo "-- the work estimate over the measured CPU time (docs/cost.md): requests, then exports of every kind of channel (goal 0.5–2)"
"$bin/segue-bench" cost

echo
echo "== (e) playground: GET / size, and its load time in headless Chromium"
python3 "$here/scripts/playground-bench.py" --binary "$bin/segue"

echo
echo "== (f) number formatting: ns per number (median of 5 runs, 10^7 numbers a stream), Swift beside C++ std::to_chars"
work=$(mktemp -d)
swift_out=$("$bin/segue-bench" numbers "$work")
g++ -O2 -std=c++17 -o "$work/number-writer" "$here/Benchmarks/number-writer.cpp"
cpp_out=$("$work/number-writer" "$work/render.f64" "$work/random.f64")
printf '%s\n%s\n' "$swift_out" "$cpp_out"
printf '%s\n%s\n' "$swift_out" "$cpp_out" | awk '
  { for (i = 2; i <= NF; i++) { split($i, kv, "="); field[kv[1]] = kv[2] }
    ns[field["stream"], field["writer"]] = field["ns_per_number"]; streams[field["stream"]] = 1 }
  END { for (s in streams) {
          before = ns[s, "swift-description"]; now = ns[s, "swift-schubfach"]; cpp = ns[s, "cpp-to_chars"]
          printf "numbers stream=%s swift_ns=%.2f cpp_ns=%.2f ratio_swift_over_cpp=%.3f throughput_vs_cpp=%.3f speedup_over_description=%.2f\n",
                 s, now, cpp, now / cpp, cpp / now, before / now } }'
rm -rf "$work"

echo
echo "== (g) design tokens: segue tokens on 500 motion tokens (50 springs), one process"
python3 "$here/scripts/tokens-bench.py" "$bin/segue"

echo
echo "== (h) batch: 1,000 curve lines in one POST /v1/batch against 1,000 requests on one keep-alive connection"
python3 "$here/scripts/batch-bench.py" "$bin/segue"

echo
echo "== (i) curve analysis and compare: ns per 101-sample spring request, in process, cache off"
"$bin/segue-bench" curve-extras
# The same three requests counted by callgrind, steady where the CPU-time ratios above swing by
# ±10 %: each answered 200 and 1,200 times, the difference ÷ 1,000 (start-up cancels).
echo "-- instructions per request (valgrind --tool=callgrind, a copy without DWARF 5 debug info)"
need valgrind valgrind
work=$(mktemp -d)
objcopy --strip-debug "$bin/segue-bench" "$work/segue-bench"
plain=0
for name in plain analysis compare-6; do
  for n in 200 1200; do
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" "$work/segue-bench" curve-extras count "$name" "$n" >/dev/null 2>&1
  done
  low=$(awk '/^summary:/ { print $2 }' "$work/cg.200"); high=$(awk '/^summary:/ { print $2 }' "$work/cg.1200")
  per=$(( (high - low) / 1000 ))
  [ "$name" = plain ] && plain=$per
  awk -v n="$name" -v p="$per" -v b="$plain" 'BEGIN { printf "%s instructions_per_request=%d ratio_to_plain=%.3f\n", n, p, p / b }'
done
rm -rf "$work"

echo
echo "== (j) the sample-time memo: a curve's JSON body with a warm memo and without, ns per body (docs/http.md)"
"$bin/segue-bench" memo
