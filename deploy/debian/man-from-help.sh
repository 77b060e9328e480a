#!/usr/bin/env bash
# Fallback man pages when swift-argument-parser's generate-manual plugin cannot run: one page per
# command from its --help, by help2man (installed from Debian when missing), named like the
# plugin's (segue.1, segue.<command>.1).
# Usage: man-from-help.sh BINARY OUTDIR VERSION
set -euo pipefail
binary=$(realpath "$1") out=$2 version=$3
command -v help2man >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq help2man >/dev/null; }
mkdir -p "$out"
help2man --no-info --version-string="$version" --name="animation-rendering HTTP service" "$binary" > "$out/segue.1"
wrappers=$(mktemp -d); trap 'rm -rf "$wrappers"' EXIT
# Command names are the lines indented by exactly two spaces under SUBCOMMANDS:.
for sub in $("$binary" --help | sed -n '/^SUBCOMMANDS:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'); do
  printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$binary" "$sub" > "$wrappers/segue.$sub"; chmod +x "$wrappers/segue.$sub"
  help2man --no-info --no-discard-stderr --version-string="$version" --name="segue $sub" \
    "$wrappers/segue.$sub" > "$out/segue.$sub.1"
done
