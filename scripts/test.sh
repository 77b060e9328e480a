#!/usr/bin/env bash
# make test, after the debug build of the package and its tests:
#   - the XCTest run (unit, integration and live-server tests) keeps one core busy — it runs the
#     tests one after another (measured: 24 s of CPU in 26 s);
#   - the release build and the checks on its binary (`make release-checks`: Dockerfile lint,
#     linkage, the recorded corpus, the architecture table, the Kubernetes manifests), then the
#     system tests on that binary (Tests/System/run.py: the attack suite and the operations tests,
#     each server a real process on a loopback port), then the browser tests of the CSS and Web
#     Animations exports (Tests/Browser/run.py: headless Chromium plays them, Segue's JSON judges
#     them; pages and a screenshot in .build/browser-artefacts) and of the playground
#     (Tests/Browser/playground.py: Chromium drives `GET /` through the DevTools protocol; its
#     screenshot is .build/browser-artefacts/playground.png), run beside it on the other core.
#   - after the XCTest run, the Lottie files its export tests wrote are validated against the
#     lottie-spec schema (scripts/validate-lottie.py).
# The release checks print as they go; the tests' output is printed afterwards, so that their
# summary closes the run. Exits non-zero when either side failed.
set -uo pipefail
cd "$(dirname "$0")/.."
swift="${SWIFT:-swift}"
log=.build/unit-tests.log
mkdir -p .build

{ ${MAKE:-make} --no-print-directory release-checks \
    && { python3 Tests/System/run.py --binary .build-release/release/segue; system=$?
         python3 Tests/Browser/run.py --binary .build-release/release/segue; browser=$?
         python3 Tests/Browser/playground.py --binary .build-release/release/segue \
             && [ "$browser" -eq 0 ] && exit "$system"; }; } &
checks=$!
rm -rf .build/lottie-samples
"$swift" test --disable-swift-testing > "$log" 2>&1
tests=$?
# The Lottie files LottieExportTests wrote, against the lottie-spec JSON schema (lottie-specs).
.venv/bin/python -c 'import lottie_specs, jsonschema' 2>/dev/null \
    || .venv/bin/pip install -q --disable-pip-version-check lottie-specs jsonschema
.venv/bin/python scripts/validate-lottie.py .build/lottie-samples/*.json >> "$log" 2>&1 || tests=1
wait "$checks"
status=$?
cat "$log"
if [ "$status" -ne 0 ]; then echo "test.sh: the release checks, the system tests or the browser tests failed (exit $status)" >&2; fi
[ "$tests" -eq 0 ] && [ "$status" -eq 0 ]
