#!/usr/bin/env bash
# make deb-check: installs build/segue_<version>_<arch>.deb into a clean Debian bookworm root (not
# this machine) and runs it there: --version, a curve from standard input, serve + healthcheck.
# Also runs `systemd-analyze verify` on the installed deploy/debian/segue.service, in that root
# and from the host with --root.
# Usage: scripts/deb-check.sh [DEB]   (default: the newest build/segue_*.deb). Needs root.
# The root is cached in .build-debroot/bookworm (git-ignored); DEBROOT=... to put it elsewhere,
# rm -rf it to start over. Each run installs into a fresh copy (cp -a) of it, so the cache stays clean.
set -uo pipefail
cd "$(dirname "$0")/.."
deb=${1:-$(ls -t build/segue_*.deb 2>/dev/null | head -1)}
cache=${DEBROOT:-.build-debroot/bookworm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
step() { echo "deb-check: $*"; }
fail() { echo "deb-check: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot)"
[ -f "$deb" ] || fail "no package: run make deb first (looked for ${1:-build/segue_*.deb})"
version=$(dpkg-deb --field "$deb" Version) || fail "dpkg-deb --field $deb Version"
step "package $deb (version $version)"

if [ ! -x "$cache/usr/bin/apt-get" ]; then
  command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } \
    || fail "installing debootstrap"
  step "creating the clean root $cache (debootstrap --variant=minbase bookworm, once)"
  rm -rf "$cache.tmp"; mkdir -p "$(dirname "$cache")"
  debootstrap --variant=minbase bookworm "$cache.tmp" "$mirror" > "$cache.log" 2>&1 \
    || { tail -20 "$cache.log"; fail "debootstrap (log: $cache.log)"; }
  mv "$cache.tmp" "$cache"
fi
# systemd and man-db in the root, so that `systemd-analyze verify` can run there too (sysinit.target,
# man pages of Documentation=). Added to the cache once; the package under test never is.
if [ ! -x "$cache/usr/bin/systemd-analyze" ] || [ ! -x "$cache/usr/bin/man" ]; then
  step "adding systemd and man-db to the cached root (once)"
  cp /etc/resolv.conf "$cache/etc/resolv.conf"
  mount -t proc proc "$cache/proc" || fail "mount proc in $cache"
  chroot "$cache" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c \
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd man-db >/dev/null && apt-get clean'
  rc=$?; umount "$cache/proc"
  [ "$rc" = 0 ] || fail "installing systemd and man-db into $cache"
fi

root=$(mktemp -d /tmp/segue-debroot.XXXXXX)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  mountpoint -q "$root/proc" && umount "$root/proc"
  mountpoint -q "$root/proc" || rm -rf --one-file-system "$root"
}
trap cleanup EXIT
cp -a "$cache/." "$root/" || fail "copying the cached root"
# Only a fresh /proc: debootstrap made the device nodes the root needs (/dev/null, /dev/urandom).
mount -t proc proc "$root/proc" || fail "mount proc"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/" || fail "copying the package"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

step "apt-get install ./$(basename "$deb") in the clean root"
in_root sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /tmp/$(basename "$deb")" \
  > "$root.apt.log" 2>&1 || { tail -30 "$root.apt.log"; fail "apt-get install"; }
grep -E '^(Setting up|Unpacking) ' "$root.apt.log" | sed 's/^/  /'; rm -f "$root.apt.log"
in_root dpkg -s segue | grep -E '^(Status|Version|Depends):' | sed 's/^/  /'
missing=$(in_root ldd /usr/bin/segue | grep 'not found') && fail "unresolved libraries: $missing"
in_root ldd /usr/bin/segue | sed 's/^/  ldd: /'
for page in segue segue.serve segue.curve segue.healthcheck; do
  [ -f "$root/usr/share/man/man1/$page.1.gz" ] || fail "no man page $page.1.gz"
done
in_root sh -c 'ls /usr/share/man/man1/segue*' | sed 's/^/  man: /'

step "segue --version"
out=$(in_root segue --version) || fail "segue --version exited $?"
echo "  $out"
[[ $out == *"$version"* ]] || fail "segue --version does not print $version"

step "segue curve - (ease, 3 samples)"
out=$(echo '{"timing":"ease","samples":3}' | in_root segue curve -) || fail "segue curve exited $?"
echo "  $out"
[[ $out == *'"progress"'* ]] || fail "segue curve printed no \"progress\""

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
step "segue serve --port $port, then segue healthcheck --port $port"
# exec: chroot, env and segue replace the subshell, so $server is segue itself.
(exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 segue serve --port "$port") \
  > "$root/tmp/serve.log" 2>&1 &
server=$!
ok=""
for _ in $(seq 1 50); do
  if in_root segue healthcheck --port "$port"; then ok=1; break; fi
  kill -0 "$server" 2>/dev/null || break
  sleep 0.2
done
[ -n "$ok" ] || { cat "$root/tmp/serve.log"; fail "segue healthcheck --port $port never exited 0"; }
echo "  healthcheck: exit 0"
kill -TERM "$server"; wait "$server"; rc=$?; server=""
[ "$rc" = 0 ] || { cat "$root/tmp/serve.log"; fail "segue serve exited $rc after SIGTERM"; }
echo "  serve: exit 0 after SIGTERM"

step "systemd-analyze verify deploy/debian/segue.service"
cmp -s deploy/debian/segue.service "$root/lib/systemd/system/segue.service" || fail "the installed unit differs from deploy/debian/segue.service"
# In the clean root, where the package installed it: ExecStart, targets and man pages all resolve.
verify=$(in_root systemd-analyze verify /lib/systemd/system/segue.service 2>&1); rc=$?
echo "  in the root: exit $rc, output: ${verify:-(none)}"
[ "$rc" = 0 ] && [ -z "$verify" ] || fail "systemd-analyze verify in the root exited $rc or printed warnings"
# From the host against the root. --man=no: the host's man does not look into --root (the pages
# were checked just above, inside the root).
verify=$(systemd-analyze verify --man=no --root="$root" /lib/systemd/system/segue.service 2>&1); rc=$?
echo "  on the host (--root, --man=no): exit $rc, output: ${verify:-(none)}"
[ "$rc" = 0 ] && [ -z "$verify" ] || fail "systemd-analyze verify --root exited $rc or printed warnings"

step "OK: $(basename "$deb") installs into a clean bookworm root and runs there"
