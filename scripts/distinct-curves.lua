-- wrk script: POST /v1/curve, a different cubic Bézier on every request (as a design tool sends
-- while a control point is dragged), 61 samples each, as ../shared/bench/curve.lua's one request:
--   SCRIPT=scripts/distinct-curves.lua bash scripts/cpu-per-request.sh SEGUE REFERENCE
-- The control points cycle with periods 997, 101, 89 and 113 (primes: about 10^9 curves before
-- one repeats; x in (0, 1], y in [-0.5, 1.5]). The same WRK_RESULT line as curve.lua's ends the
-- run (docs/http.md "The sample-time memo").
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local n = 0
request = function()
  n = n + 1
  local x1 = (n % 997 + 1) / 998
  local y1 = (n % 101) / 50 - 0.5
  local x2 = (n % 89 + 1) / 90
  local y2 = (n % 113) / 56 - 0.5
  local body = string.format('{"timing":{"type":"cubicBezier","p1":[%.6g,%.6g],"p2":[%.6g,%.6g]},"samples":61}', x1, y1, x2, y2)
  return wrk.format(nil, nil, nil, body)
end
function done(summary, latency, requests)
  local e = summary.errors
  local rps = 0
  if summary.duration > 0 then rps = summary.requests / (summary.duration / 1e6) end
  io.write(string.format(
    "WRK_RESULT requests=%d duration_us=%d rps=%.1f p50_us=%d p90_us=%d p99_us=%d non2xx=%d errors=%d bytes=%d\n",
    summary.requests, summary.duration, rps,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout, summary.bytes))
end
