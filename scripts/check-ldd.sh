#!/usr/bin/env bash
# Check that every shared library a binary needs is provided by a package the
# runtime image (debian:bookworm-slim + libmicrohttpd12) has.
#
# Usage: scripts/check-ldd.sh [--packages FILE | --installed] BINARY
#
#   Runs `ldd BINARY`, maps each library to its Debian package with `dpkg -S`
#   (on this host: Debian 12, the same release as the runtime image) and fails
#   (exit 1) when a library is "not found", is a shared Swift runtime library
#   (libswift*.so, libFoundation*.so, libdispatch.so, ... = the binary was not
#   built with --static-swift-stdlib), belongs to no Debian package, or belongs
#   to a package outside the allowed set.
#
#   Allowed set, default: the Depends/Pre-Depends closure (apt-cache depends,
#   from the host's dpkg status, works offline) of libmicrohttpd12 + apt + every
#   Essential/Priority:required package, i.e. what debian:bookworm-slim has
#   (libc6, libstdc++6, libgcc-s1, libgnutls30 and its dependencies, ...) plus
#   what `apt-get install --no-install-recommends libmicrohttpd12` pulls in.
#   --packages FILE: use the package names in FILE instead (one per line,
#   e.g. `dpkg-query -W -f '${Package}\n'` run inside the real runtime image).
#   --installed: the packages installed where the script runs. This is the mode
#   for running it inside the runtime image itself (scripts/docker-check.sh
#   does): ldd then resolves against the image's own files and dpkg -S against
#   the image's own package database, so the host needs none of the libraries.
#
# Exit: 0 ok, 1 a library is not provided, 2 usage/tool error.
set -euo pipefail

RUNTIME_PACKAGES=(libmicrohttpd12)

pkgfile= installed=
while [ $# -gt 0 ]; do
  case $1 in
    --packages) pkgfile=${2:?--packages needs a file}; shift 2 ;;
    --packages=*) pkgfile=${1#*=}; shift ;;
    --installed) installed=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "check-ldd: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "usage: $0 [--packages FILE | --installed] BINARY" >&2; exit 2; }
BIN=$1
[ -f "$BIN" ] || { echo "check-ldd: no such file: $BIN" >&2; exit 2; }
for t in ldd dpkg dpkg-query; do
  command -v "$t" >/dev/null || { echo "check-ldd: '$t' not found (needs a Debian host)" >&2; exit 2; }
done

# ---- allowed package set -----------------------------------------------------
declare -A allowed=()
if [ -n "$installed" ]; then
  while read -r p st; do
    [ "$st" = installed ] && allowed[${p%%:*}]=1
  done < <(dpkg-query -W -f '${Package} ${db:Status-Status}\n')
  source_desc="installed here ($(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-?}"))"
elif [ -n "$pkgfile" ]; then
  while read -r p _; do [ -n "$p" ] && allowed[${p%%:*}]=1; done < "$pkgfile"
  source_desc="packages listed in $pkgfile"
else
  command -v apt-cache >/dev/null || { echo "check-ldd: apt-cache not found" >&2; exit 2; }
  for p in "${RUNTIME_PACKAGES[@]}"; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || {
      echo "check-ldd: $p is not installed on this host; cannot compute its dependency closure" \
           "(apt-get install -y --no-install-recommends $p, or pass --packages FILE)" >&2
      exit 2
    }
  done
  mapfile -t seeds < <(dpkg-query -W -f '${Package} ${Essential} ${Priority} ${db:Status-Status}\n' |
                       awk '$4 == "installed" && ($2 == "yes" || $3 == "required") {print $1}')
  seeds+=(apt "${RUNTIME_PACKAGES[@]}")
  # --important = only Depends and Pre-Depends (what --no-install-recommends installs).
  while read -r p; do
    p=${p#<}; p=${p%>}; allowed[${p%%:*}]=1
  done < <(apt-cache depends --recurse --important --no-recommends --no-suggests --no-conflicts \
             --no-breaks --no-replaces --no-enhances "${seeds[@]}" 2>/dev/null | grep -v '^ ')
  source_desc="debian:bookworm-slim base (Essential/required + apt) + ${RUNTIME_PACKAGES[*]}, with dependency closure"
fi
[ "${#allowed[@]}" -gt 0 ] || { echo "check-ldd: empty allowed package set" >&2; exit 2; }

# ---- ldd ----------------------------------------------------------------------
echo "check-ldd: $BIN"
echo "check-ldd: allowed: ${#allowed[@]} packages ($source_desc)"
ldd_out=$(LC_ALL=C ldd "$BIN" 2>&1) || {
  if grep -q 'not a dynamic executable' <<<"$ldd_out"; then
    echo "check-ldd: statically linked, no shared libraries needed"
    echo "check-ldd: OK"
    exit 0
  fi
  echo "check-ldd: ldd failed:" >&2; echo "$ldd_out" >&2; exit 2
}

# dpkg -S with merged /usr: a file may be registered as /lib/... or /usr/lib/...
owner() {
  local f=$1 c out
  local -a cands=("$f")
  case $f in /usr/lib/*) cands+=("${f#/usr}") ;; /lib/*|/lib64/*) cands+=("/usr$f") ;; esac
  local r; r=$(readlink -f "$f" 2>/dev/null || true)
  if [ -n "$r" ] && [ "$r" != "$f" ]; then
    cands+=("$r")
    case $r in /usr/lib/*) cands+=("${r#/usr}") ;; /lib/*|/lib64/*) cands+=("/usr$r") ;; esac
  fi
  for c in "${cands[@]}"; do
    if out=$(dpkg -S "$c" 2>/dev/null); then
      # "pkg:arch[, pkg2:arch]: /path" -> first package, without :arch; skip diversions
      out=$(grep -v '^diversion by' <<<"$out" | head -1)
      out=${out%%: /*}; out=${out%%,*}; echo "${out%%:*}"; return 0
    fi
  done
  return 1
}

fail=0 n=0
printf '  %-32s %-24s %s\n' LIBRARY PACKAGE RESULT
while IFS= read -r line; do
  line=${line#"${line%%[![:space:]]*}"}
  [ -n "$line" ] || continue
  case $line in
    linux-vdso.so*|linux-gate.so*) continue ;;
  esac
  name=${line%% *}
  path=
  if [[ $line == *" => "* ]]; then
    rest=${line#* => }
    path=${rest%% (*}
  elif [[ $line == /* ]]; then
    path=$name      # the dynamic loader line: /lib64/ld-linux-x86-64.so.2 (0x...)
  fi
  n=$((n + 1))
  base=${name##*/}
  if [[ $line == *"not found"* ]]; then
    printf '  %-32s %-24s %s\n' "$base" - "FAIL: not found"; fail=1; continue
  fi
  case $base in
    libswift*|libFoundation*|lib_Foundation*|libdispatch.so*|libBlocksRuntime.so*|libXCTest*|libTesting.so*)
      printf '  %-32s %-24s %s\n' "$base" - "FAIL: shared Swift runtime library ($path); build with --static-swift-stdlib"
      fail=1; continue ;;
  esac
  if [ -z "$path" ]; then
    printf '  %-32s %-24s %s\n' "$base" - "FAIL: cannot parse ldd line: $line"; fail=1; continue
  fi
  if ! pkg=$(owner "$path"); then
    printf '  %-32s %-24s %s\n' "$base" - "FAIL: $path belongs to no Debian package"; fail=1; continue
  fi
  if [ -n "${allowed[$pkg]:-}" ]; then
    printf '  %-32s %-24s %s\n' "$base" "$pkg" ok
  else
    printf '  %-32s %-24s %s\n' "$base" "$pkg" "FAIL: package $pkg is not in the runtime image"; fail=1
  fi
done <<<"$ldd_out"

if [ "$fail" -ne 0 ]; then
  echo "check-ldd: FAILED: $BIN needs libraries the runtime image does not provide (see above)" >&2
  exit 1
fi
echo "check-ldd: OK: all $n libraries are provided by the runtime image"
