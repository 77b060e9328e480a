#!/usr/bin/env bash
# make soak: 64 keep-alive connections of mixed traffic against one release binary for 5 minutes,
# with the server's resident memory sampled from /proc all along. Not part of make test.
#
# Usage: scripts/soak.sh [BINARY]          (default .build-release/release/segue)
# Env:   SOAK_SECONDS      run length (default 300; e.g. SOAK_SECONDS=30 for a quick run)
#        SOAK_CONNECTIONS  (default 64)    SOAK_THREADS  wrk threads (default 2, one per core)
#        SOAK_KEEP=1       keep the scratch directory (RSS samples, wrk output, server log)
#
# Load: Debian's wrk (installed when missing, as root) with a Lua script that mixes
#   - small curves and renders repeated verbatim (answered from the response cache),
#   - curves whose timing and sample count change with every request (200 000 different bodies,
#     so the cache keeps filling and evicting: it must stay within its byte and entry caps),
#   - CSV and gzip answers, conditional requests (If-None-Match -> 304), /v1/presets, /healthz,
#   - invalid requests (422 problem+json: error paths must not leak either).
# The Lua script judges every answer: a 200, a 304 carrying the ETag the conditional request
# named, or a 422 problem+json; any other status (400, 413, 5xx, ...) is counted as wrong.
#
# Checks, each counted, then "N passed, M failed" (exit 1 when M > 0):
#   the server starts; wrk completes requests with no socket error (connect, read, write,
#   timeout); no answer has a wrong status; RSS is flat; the server still answers
#   /healthz afterwards and exits 0 on SIGTERM.
# "Flat": the run is cut in fifths. The first fifth is warm-up (the cache fills, malloc arenas
#   grow). The largest RSS sample of the last fifth may exceed the largest of the second fifth by
#   at most 10 % of it or 4 MiB, whichever is larger. A leak of a few hundred bytes per request
#   would break that many times over in 5 minutes.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/.build-release/release/segue}
DURATION=${SOAK_SECONDS:-300}
CONNS=${SOAK_CONNECTIONS:-64}
THREADS=${SOAK_THREADS:-2}
# RSS sample period: 5 s for the full run, down to 1 s for short ones (at least ~30 samples).
INTERVAL=$(( DURATION >= 150 ? 5 : (DURATION >= 60 ? 2 : 1) ))

PASS=0 FAILN=0
ok()  { PASS=$((PASS + 1));  echo "PASS: $*"; }
bad() { FAILN=$((FAILN + 1)); echo "FAIL: $*"; }
finish() { echo "$PASS passed, $FAILN failed"; [ "$FAILN" -eq 0 ]; exit $?; }

[ -x "$BIN" ] || { echo "soak: no binary at $BIN (make release)"; bad "binary present"; finish; }
if ! command -v wrk >/dev/null; then
  [ "$(id -u)" = 0 ] || { echo "soak: wrk missing; apt-get install wrk (as root)"; bad "wrk available"; finish; }
  echo "soak: installing wrk"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk; } >/dev/null ||
    { bad "wrk available (apt-get install wrk failed)"; finish; }
fi

WORK=$(mktemp -d /tmp/segue-soak.XXXXXX)
SERVER= SAMPLER=
cleanup() {
  [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null
  [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null && { kill -TERM "$SERVER"; wait "$SERVER" 2>/dev/null; }
  if [ "${SOAK_KEEP:-0}" = 1 ]; then echo "soak: scratch kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'echo "soak: interrupted"; exit 130' INT TERM

# ---- the server -------------------------------------------------------------------------
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Warnings and errors only: one log line per request would be most of the work at this rate.
SEGUE_LOG_LEVEL=warning "$BIN" serve --host 127.0.0.1 --port "$PORT" 2> "$WORK/server.log" > /dev/null &
SERVER=$!
up=no
for _ in $(seq 1 100); do
  curl -fsS -o /dev/null -m 1 "http://127.0.0.1:$PORT/healthz" 2>/dev/null && { up=yes; break; }
  kill -0 "$SERVER" 2>/dev/null || break
  sleep 0.1
done
if [ $up = yes ]; then ok "server $BIN listens on 127.0.0.1:$PORT (pid $SERVER)"
else bad "server starts"; tail -5 "$WORK/server.log"; finish; fi
ETAG=$(curl -fsS -D - -o /dev/null "http://127.0.0.1:$PORT/v1/curve" -d '{"timing":"ease","samples":40}' |
       tr -d '\r' | awk 'tolower($1) == "etag:" {print $2}')

# ---- the load -------------------------------------------------------------------------------
cat > "$WORK/soak.lua" <<EOF
-- wrk script: a cycle of fixed requests; every 4th request is a curve not asked for before.
local etag = '$ETAG'
local json = { ["Content-Type"] = "application/json" }
local fixed = {
  -- { method, path, body, extra headers, the status it should get }
  { "POST", "/v1/curve", '{"timing":"ease","samples":40}', nil, 200 },
  { "POST", "/v1/curve", '{"timing":"ease","samples":40}', { ["If-None-Match"] = etag }, 304 },
  { "POST", "/v1/curve?format=csv", '{"timing":"ease-in-out","samples":300}', nil, 200 },
  { "POST", "/v1/curve", '{"timing":"ease","fps":120}', { ["Accept-Encoding"] = "gzip" }, 200 },
  { "POST", "/v1/curve", '{"timing":{"type":"spring","mass":1,"stiffness":100,"damping":10},"fps":60}', nil, 200 },
  { "POST", "/v1/render", '{"fps":60,"views":{"card":{"frame":[0,568,320,568],"alpha":1}},"animations":[{"view":"card","duration":0.8,"timing":{"type":"spring","dampingRatio":0.6},"to":{"frame":[0,0,320,568]}}]}', nil, 200 },
  { "POST", "/v1/render", '{"fps":60,"views":{"pane":{"center":[160,500]}},"animations":[{"view":"pane","to":{"center":[160,100]},"velocity":[0,-800],"dynamics":{"model":"attachment","frequency":3.5,"damping":0.4}}]}', nil, 200 },
  { "POST", "/v1/render", '{"fps":60,"transition":{"preset":"pane","container":[0,0,400,1000],"samples":[[0,900],[0.1,820],[0.2,740]],"taps":[0.4]}}', nil, 200 },
  { "GET", "/v1/presets", nil, nil, 200 },
  { "GET", "/healthz", nil, nil, 200 },
  -- invalid on purpose: 422 problem+json
  { "POST", "/v1/curve", '{"timing":"ease","samples":-1}', nil, 422 },
  { "POST", "/v1/render", '{"fps":60,"views":{"v":{"x":0}},"animations":[{"view":"w","duration":1,"to":{"x":1}}]}', nil, 422 },
}

-- wrk runs one Lua state per thread, shared by all of that thread's connections, and response()
-- is not told which request it answers. So each answer is judged by itself: 200 (JSON or CSV),
-- 304 (only with the ETag the conditional request named) and 422 (problem+json: the invalid
-- requests) are the statuses this mix can get; anything else (400, 413, 5xx, ...) is wrong.
-- Globals, so that done() can read them from each thread with thread:get().
n, f, id = 0, 0, 0
good, wrong, statuses = 0, 0, {}
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

function init(args)
  n = id * 7919
end

local function headers(extra)
  local h = { ["Content-Type"] = "application/json" }
  if extra then for k, v in pairs(extra) do h[k] = v end end
  return h
end

function request()
  n = n + 1
  if n % 4 == 0 then
    -- 200 000 distinct bodies: the stiffness and the sample count both change
    local body = string.format('{"timing":{"type":"spring","stiffness":%d,"dampingRatio":0.6},"samples":%d}',
                               100 + n % 100, 20 + (n * 37) % 2000)
    return wrk.format("POST", "/v1/curve", json, body)
  end
  f = f + 1
  local r = fixed[(f % #fixed) + 1]
  return wrk.format(r[1], r[2], headers(r[4]), r[3])
end

local function fine(status, hdrs)
  local ctype = hdrs["Content-Type"] or hdrs["content-type"] or ""
  if status == 200 then return true end
  if status == 304 then return (hdrs["ETag"] or hdrs["etag"]) == etag end
  if status == 422 then return ctype:find("application/problem+json", 1, true) ~= nil end
  return false
end

function response(status, hdrs, body)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
  if fine(status, hdrs) then good = good + 1 else wrong = wrong + 1 end
end

function done(summary, latency, requests)
  local g, w, all = 0, 0, {}
  for _, t in ipairs(threads) do
    g = g + t:get("good")
    w = w + t:get("wrong")
    for k, v in pairs(t:get("statuses")) do all[k] = (all[k] or 0) + v end
  end
  local keys = {}
  for k in pairs(all) do table.insert(keys, k) end
  table.sort(keys)
  local parts = {}
  for _, k in ipairs(keys) do table.insert(parts, k .. " x" .. all[k]) end
  io.write("lua: statuses " .. table.concat(parts, ", ") .. "\n")
  io.write(string.format("lua: expected statuses %d, unexpected %d\n", g, w))
end
EOF

# RSS of the server from /proc every INTERVAL seconds: "elapsed_seconds rss_kib"
sample_rss() {
  local start=$SECONDS rss
  while kill -0 "$SERVER" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$SERVER/status" 2>/dev/null) && [ -n "$rss" ] &&
      echo "$((SECONDS - start)) $rss" >> "$WORK/rss.txt"
    sleep "$INTERVAL"
  done
}
sample_rss &
SAMPLER=$!

echo "== wrk: $CONNS connections, $THREADS threads, ${DURATION} s; RSS every ${INTERVAL} s"
wrk --threads "$THREADS" --connections "$CONNS" --duration "${DURATION}s" --timeout 10s --latency \
    --script "$WORK/soak.lua" "http://127.0.0.1:$PORT/" > "$WORK/wrk.out" 2>&1
wrk_rc=$?
kill "$SAMPLER" 2>/dev/null; wait "$SAMPLER" 2>/dev/null; SAMPLER=
sed -n '/requests in/p; /Requests\/sec/p; /Latency  /p; /99%/p; /Socket errors/p; /Non-2xx/p; /^lua:/p' "$WORK/wrk.out" | sed 's/^ */    /'

# ---- requests ---------------------------------------------------------------------------------
total=$(awk '/requests in/ {print $1; exit}' "$WORK/wrk.out")
sock=$(sed -n 's/.*Socket errors: connect \([0-9]*\), read \([0-9]*\), write \([0-9]*\), timeout \([0-9]*\).*/\1 \2 \3 \4/p' "$WORK/wrk.out")
read -r e_conn e_read e_write e_timeout <<<"${sock:-0 0 0 0}"
sock_total=$((e_conn + e_read + e_write + e_timeout))
wrong=$(sed -n 's/^lua: expected statuses [0-9]*, unexpected \([0-9]*\)$/\1/p' "$WORK/wrk.out")
if [ "$wrk_rc" = 0 ] && [ "${total:-0}" -gt 0 ] && [ "$sock_total" = 0 ]; then
  ok "$total requests over $CONNS connections in ${DURATION} s, 0 socket errors"
else
  bad "wrk (exit $wrk_rc): ${total:-0} requests; socket errors connect $e_conn, read $e_read, write $e_write, timeout $e_timeout"
  [ "$wrk_rc" = 0 ] || tail -5 "$WORK/wrk.out" | sed 's/^/    /'
fi
if [ -n "$wrong" ] && [ "$wrong" = 0 ]; then
  ok "every answer is a 200, a 304 with the right ETag or a 422 problem+json ($(sed -n 's/^lua: statuses //p' "$WORK/wrk.out"))"
else
  bad "answers with an unexpected status: ${wrong:-unknown}"
fi

# ---- RSS ----------------------------------------------------------------------------------------
if ! python3 - "$WORK/rss.txt" "$DURATION" > "$WORK/rss.verdict" <<'EOF'
import sys
samples = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
duration = float(sys.argv[2])
def window(lo, hi):
    return [kib for t, kib in samples if lo * duration <= t < hi * duration] or [0]
warm, first, last = window(0, 0.2), window(0.2, 0.4), window(0.8, 1.01)
first_max, last_max = max(first), max(last)
allowed = max(first_max * 0.10, 4 * 1024)
mib = lambda kib: kib / 1024.0
# a compact trace: one sample per tenth of the run
step = max(1, len(samples) // 10)
trace = " ".join("%ds:%.0f" % (t, mib(k)) for t, k in samples[::step])
print("RSS MiB over time: %s" % trace)
print("RSS max: warm-up %.1f MiB, second fifth %.1f MiB, last fifth %.1f MiB (growth %+.1f MiB, allowed %.1f MiB, %d samples)"
      % (mib(max(warm)), mib(first_max), mib(last_max), mib(last_max - first_max), mib(allowed), len(samples)))
sys.exit(0 if len(samples) >= 5 and first_max > 0 and last_max - first_max <= allowed else 1)
EOF
then flat=no; else flat=yes; fi
sed -n '1p' "$WORK/rss.verdict" | sed 's/^/    /'
if [ $flat = yes ]; then ok "RSS flat: $(sed -n '2p' "$WORK/rss.verdict")"
else bad "RSS not flat: $(sed -n '2p' "$WORK/rss.verdict" 2>/dev/null || echo 'no samples')"; fi

# ---- afterwards -----------------------------------------------------------------------------
code=$(curl -sS -o /dev/null -w '%{http_code}' -m 5 "http://127.0.0.1:$PORT/healthz" 2>/dev/null) || code=000
st=$SECONDS
kill -TERM "$SERVER" 2>/dev/null
rc=0
for _ in $(seq 1 150); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$SERVER" 2>/dev/null; then rc=timeout; kill -KILL "$SERVER"; fi
wait "$SERVER" 2>/dev/null; wrc=$?
[ "$rc" = timeout ] || rc=$wrc
SERVER=
if [ "$code" = 200 ] && [ "$rc" = 0 ]; then
  ok "afterwards GET /healthz 200, and SIGTERM -> exit 0 in $((SECONDS - st)) s"
else
  bad "afterwards GET /healthz $code; SIGTERM -> exit $rc"
  tail -5 "$WORK/server.log" | sed 's/^/    /'
fi
finish
