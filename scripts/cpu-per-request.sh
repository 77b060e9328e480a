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
# two builds or two servers by (a difference under two standard errors is noise). The error
# describes one run: separate runs on the same code differ by up to 5 % on this machine, so two
# builds are compared in one run: BASELINE=OTHER_SEGUE_BINARY adds it to every round, and the
# paired lines of segue over baseline follow. SCRIPT=WRK_LUA replaces the benchmark request of
# ../shared/bench/curve.lua (one curve, sent again and again), e.g. with scripts/distinct-curves.lua
# (a different curve on every request).
set -euo pipefail
segue=${1:?usage: cpu-per-request.sh SEGUE_BINARY CURVE_REFERENCE_BINARY}
reference=${2:?usage: cpu-per-request.sh SEGUE_BINARY CURVE_REFERENCE_BINARY}
rounds=${ROUNDS:-8}
seconds=${CPU_SECONDS:-4}
lua=${SCRIPT:-$(cd "$(dirname "$0")/../../shared/bench" 2>/dev/null && pwd)/curve.lua}
[ -f "$lua" ] || { echo "cpu-per-request: $lua is missing" >&2; exit 2; }
ticks=$(getconf CLK_TCK)

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
names=(reference segue)
[ -n "${BASELINE:-}" ] && names+=(baseline)
declare -A port pid
for name in "${names[@]}"; do
  port[$name]=$(free_port)
  case $name in
    reference) "$reference" "${port[$name]}" pool:2 >/dev/null 2>&1 & ;;
    segue) "$segue" serve --port "${port[$name]}" --threads 2 --cache-entries 0 >/dev/null 2>&1 & ;;
    baseline) "$BASELINE" serve --port "${port[$name]}" --threads 2 --cache-entries 0 >/dev/null 2>&1 & ;;
  esac
  pid[$name]=$!
done
trap 'kill ${pid[*]} 2>/dev/null || true' EXIT
for name in "${names[@]}"; do
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/${port[$name]}") 2>/dev/null && break; sleep 0.1; done
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

# One line a run: "round server requests user_ticks system_ticks requests_per_second".
results=()
for round in $(seq "$rounds"); do
  for name in "${names[@]}"; do
    set -- $(measure "${pid[$name]}" "${port[$name]}")
    results+=("$round $name $1 $(( $5 - $3 )) $(( $6 - $4 )) $2")
  done
done
printf '%s\n' "${results[@]}" | awk -v ticks="$ticks" '
  { r = $1; s = $2; n[s] += $3; usr[s] += $4; sys[s] += $5; runs[s]++; rounds = r
    total[r, s] = ($4 + $5) / ticks * 1e6 / $3; rate[r, s] = $6
    printf "cpu round=%d server=%s user_us=%.2f system_us=%.2f total_us=%.2f\n", r, s,
           $4 / ticks * 1e6 / $3, $5 / ticks * 1e6 / $3, total[r, s] }
  # The rounds paired: each round measures every server back to back, so a ratio of two leaves
  # out the machine'"'"'s slow and fast phases; its spread gives the figure'"'"'s standard error.
  function paired(what, a, b, values,    i, mean, spread) {
    for (i = 1; i <= rounds; i++) mean += values[i] / rounds
    for (i = 1; i <= rounds; i++) spread += (values[i] - mean) ^ 2
    printf "cpu paired %s %s_over_%s=%.3f standard_error=%.3f rounds=%d\n", what, a, b, mean, sqrt(spread / (rounds - 1) / rounds), rounds
  }
  function pairs(a, b,    i, cpu, requests) {
    for (i = 1; i <= rounds; i++) { cpu[i] = total[i, a] / total[i, b]; requests[i] = rate[i, a] / rate[i, b] }
    paired("total", a, b, cpu)
    paired("requests_per_second", a, b, requests)
  }
  END {
    if (rounds > 1) { pairs("segue", "reference"); if ("baseline" in n) pairs("segue", "baseline") }
    for (s in n) {
      u[s] = usr[s] / ticks * 1e6 / n[s]; k[s] = sys[s] / ticks * 1e6 / n[s]
      printf "cpu server=%s rounds=%d user_us=%.2f system_us=%.2f total_us=%.2f\n", s, runs[s], u[s], k[s], u[s] + k[s]
    }
    printf "cpu segue_over_reference user=%.3f system=%.3f total=%.3f\n",
           u["segue"] / u["reference"], k["segue"] / k["reference"], (u["segue"] + k["segue"]) / (u["reference"] + k["reference"])
  }'
