#!/usr/bin/env bash
# make bench (a''): CPU time per POST /v1/curve request — Segue (cache off) beside the C++ reference,
# each under the same wrk load (64 connections, 2 threads), alternated ROUNDS times (8, of CPU_SECONDS = 4 s, by default):
#
#     bash scripts/cpu-per-request.sh SEGUE_BINARY CURVE_REFERENCE_BINARY
#
# Requests per second on this two-core machine swing by ±30 % between runs, and callgrind's
# instruction counts leave out what an instruction costs (an atomic retain is one instruction). The
# CPU time each server spends per request it answers — user and system time from /proc/PID/stat over
# a wrk run, divided by the requests wrk completed — sits between the two: it is what the
# throughput ratio comes from when wrk shares the cores, and it splits into the server's own code
# (user) and the kernel's (system). Both servers run for the whole script and are measured in turn,
# so a slower or faster machine moves both alike (docs/http.md "Instructions per request").
# The paired lines pair the rounds: the mean of the per-round ratios of CPU time a request, and of
# requests a second (wrk's, in the same runs), each with its standard error: the figures to compare
# two builds or two servers by (a difference under two standard errors is noise).
set -euo pipefail
segue=${1:?usage: cpu-per-request.sh SEGUE_BINARY CURVE_REFERENCE_BINARY}
reference=${2:?usage: cpu-per-request.sh SEGUE_BINARY CURVE_REFERENCE_BINARY}
rounds=${ROUNDS:-8}
seconds=${CPU_SECONDS:-4}
lua=$(cd "$(dirname "$0")/../../shared/bench" 2>/dev/null && pwd)/curve.lua
[ -f "$lua" ] || { echo "cpu-per-request: ../shared/bench/curve.lua is missing" >&2; exit 2; }
ticks=$(getconf CLK_TCK)

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
segue_port=$(free_port)
reference_port=$(free_port)
"$segue" serve --port "$segue_port" --threads 2 --cache-entries 0 >/dev/null 2>&1 & segue_pid=$!
"$reference" "$reference_port" pool:2 >/dev/null 2>&1 & reference_pid=$!
trap 'kill $segue_pid $reference_pid 2>/dev/null || true' EXIT
for port in "$segue_port" "$reference_port"; do
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
done

# Prints "user system" clock ticks of a process, all its threads.
times_of() { awk '{ print $14, $15 }' "/proc/$1/stat"; }

# One measured run: "requests requests_per_second user_ticks system_ticks".
measure() {
  local pid=$1 port=$2 before after out
  wrk -t2 -c64 -d1s -s "$lua" "http://127.0.0.1:$port/v1/curve" >/dev/null  # warm
  before=$(times_of "$pid")
  out=$(wrk -t2 -c64 -d"${seconds}s" -s "$lua" "http://127.0.0.1:$port/v1/curve" | grep '^WRK_RESULT')
  after=$(times_of "$pid")
  echo "$(sed 's/.*requests=\([0-9]*\).* rps=\([0-9.]*\).*/\1 \2/' <<<"$out") $before $after"
}

results=()
for round in $(seq "$rounds"); do
  for name in reference segue; do
    if [ $name = segue ]; then set -- $(measure $segue_pid "$segue_port"); else set -- $(measure $reference_pid "$reference_port"); fi
    results+=("$name $1 $(( $5 - $3 )) $(( $6 - $4 )) $2")
  done
done
printf '%s\n' "${results[@]}" | awk -v ticks="$ticks" '
  { n[$1] += $2; usr[$1] += $3; sys[$1] += $4; runs[$1]++
    round = int((NR + 1) / 2); total[$1] = ($3 + $4) / ticks * 1e6 / $2
    printf "cpu round=%d server=%s user_us=%.2f system_us=%.2f total_us=%.2f\n", round, $1,
           $3 / ticks * 1e6 / $2, $4 / ticks * 1e6 / $2, total[$1]
    rate[$1] = $5
    if ($1 == "segue") {
      ratio[round] = total["segue"] / total["reference"]; rates[round] = rate["segue"] / rate["reference"]; rounds = round
    } }
  END {
    # The rounds paired: each round measures both servers back to back, so their ratio leaves out
    # the machine'"'"'s slow and fast phases; its spread gives the figure'"'"'s standard error.
    for (r = 1; r <= rounds; r++) { mean += ratio[r] / rounds; rateMean += rates[r] / rounds }
    for (r = 1; r <= rounds; r++) { spread += (ratio[r] - mean) ^ 2; rateSpread += (rates[r] - rateMean) ^ 2 }
    if (rounds > 1) {
      printf "cpu paired total segue_over_reference=%.3f standard_error=%.3f rounds=%d\n", mean, sqrt(spread / (rounds - 1) / rounds), rounds
      printf "cpu paired requests_per_second segue_over_reference=%.3f standard_error=%.3f rounds=%d\n", rateMean, sqrt(rateSpread / (rounds - 1) / rounds), rounds
    }
    for (s in n) {
      u[s] = usr[s] / ticks * 1e6 / n[s]; k[s] = sys[s] / ticks * 1e6 / n[s]
      printf "cpu server=%s rounds=%d user_us=%.2f system_us=%.2f total_us=%.2f\n", s, runs[s], u[s], k[s], u[s] + k[s]
    }
    printf "cpu segue_over_reference user=%.3f system=%.3f total=%.3f\n",
           u["segue"] / u["reference"], k["segue"] / k["reference"], (u["segue"] + k["segue"]) / (u["reference"] + k["reference"])
  }'
