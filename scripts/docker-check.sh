#!/usr/bin/env bash
# Offline build + run check of ./Dockerfile, without a Docker engine or registry
# (buildah and podman with locally built base images: no engine, no registry, no network beyond Debian).
#
#  1. Installs buildah podman runc debootstrap debuerreotype when missing (root).
#  2. Builds local stand-ins for the base images from Debian's mirror and the
#     local Swift toolchain (cached in $WORK/storage between runs):
#       localhost/debian:bookworm-slim, localhost/debian:bookworm  (debootstrap + debuerreotype)
#       localhost/swift:<X.Y>-bookworm  (official image's apt packages; toolchain bind-mounted)
#  3. buildah bud of the UNCHANGED Dockerfile (chroot isolation, docker format),
#     base images passed as --build-arg SWIFT_IMAGE / RUNTIME_IMAGE.
#  4. podman --runtime runc run in a private network namespace made here (never
#     podman's bridge network, never the host's ports), then the checks below.
#  Everything started here (netns, containers) is removed on exit, also on failure.
#
# Checks (each counted): image builds; image config (USER/EXPOSE/ENV/HEALTHCHECK/
# ENTRYPOINT); no missing libraries (scripts/check-ldd.sh run inside the image);
# then the service container, run --read-only (no tmpfs) with every capability
# dropped and no-new-privileges, as deploy/kubernetes runs it: runs as uid 10001;
# root filesystem read-only; GET /healthz 200; POST /v1/curve 200;
# `podman healthcheck run` healthy; SIGTERM -> exit 0.
# Last line: "N passed, M failed"; exit 1 when M > 0.
#
# Env: DOCKER_CHECK_WORK (scratch, default .docker-check), DOCKER_CHECK_REFRESH=1
#      (rebuild the cached stand-in images), SWIFT_TOOLCHAIN (default /opt/swift),
#      STORAGE_DRIVER (overlay|vfs, default overlay), KEEP_LOGS=1 (print full build log).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 2
WORK=${DOCKER_CHECK_WORK:-$ROOT/.docker-check}
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd)
TC=${SWIFT_TOOLCHAIN:-/opt/swift}
DRIVER=${STORAGE_DRIVER:-overlay}
IMAGE=localhost/segue:check
BUILD_IMAGE=localhost/segue-build:check
NAME=segue-check-$$
NETNS=segue-check-$$
PORT=8080

t0=$SECONDS
lap() { echo "== [$((SECONDS - t0))s] $*"; }
die() { echo "docker-check: ERROR: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (buildah/podman storage, ip netns, debootstrap)"
exec 9>"$WORK/lock"
flock -n 9 || die "another docker-check.sh is running ($WORK/lock)"

G=(--root "$WORK/storage" --runroot "$WORK/runroot" --storage-driver "$DRIVER")
B() { buildah "${G[@]}" "$@"; }
P() { podman "${G[@]}" --runtime runc --cgroup-manager cgroupfs --events-backend file "$@"; }

# ---- cleanup (trap) ------------------------------------------------------------
BUILDAH_CTRS=()
cleanup() {
  local rc=$?
  if [ -n "${RUN_STARTED:-}" ]; then
    P rm -f -i -t 0 "$NAME" >/dev/null 2>&1 || true
    P rm -f -i -t 0 "$NAME-x" >/dev/null 2>&1 || true
  fi
  for c in "${BUILDAH_CTRS[@]}"; do B rm "$c" >/dev/null 2>&1 || true; done
  [ -e "/var/run/netns/$NETNS" ] && { ip netns del "$NETNS" 2>/dev/null || true; }
  return $rc
}
trap cleanup EXIT
trap 'echo "docker-check: interrupted" >&2; echo "${PASS:-0} passed, $((${FAILN:-0} + 1)) failed"; exit 130' INT TERM

# ---- 1. tools --------------------------------------------------------------------
lap "tools"
need=()
for c in buildah podman runc debootstrap debuerreotype-init curl ip flock python3; do
  command -v "$c" >/dev/null || need+=("$c")
done
if ((${#need[@]})); then
  echo "installing (missing: ${need[*]})"
  { apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      buildah podman runc debootstrap debuerreotype curl iproute2 util-linux python3; } \
    > "$WORK/apt.log" 2>&1 || { tail -20 "$WORK/apt.log"; die "apt-get install failed"; }
fi
[ -x "$TC/usr/bin/swift" ] || die "no Swift toolchain at $TC (set SWIFT_TOOLCHAIN)"
V=$("$TC/usr/bin/swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -1)
[ -n "$V" ] || die "cannot read the Swift version of $TC"
SWIFT_TAG=localhost/swift:$V-bookworm

# ---- 2. stand-in base images (cached) -------------------------------------------------
SRC=/etc/apt/sources.list.d/debian.sources
[ -f "$SRC" ] || die "$SRC missing (expects a Debian 12 host)"
MIRROR=$(awk '/^URIs:/{print $2; exit}' "$SRC")

have_image() { B inspect --type image "$1" >/dev/null 2>&1; }
if [ "${DOCKER_CHECK_REFRESH:-0}" = 1 ]; then
  lap "refresh: removing cached stand-ins"
  B rmi -f localhost/debian:bookworm-slim localhost/debian:bookworm "$SWIFT_TAG" >/dev/null 2>&1 || true
  rm -rf "$WORK/rootfs-min" "$WORK/rootfs-min.done"
fi

mkrootfs() { # $1=dir $2=slim|full: the steps the official debian:* images use
  local d=$1
  date +%s > "$d/debuerreotype-epoch"
  debuerreotype-minimizing-config "$d" &&
  rm -f "$d/etc/apt/sources.list" &&
  grep -v '^#' "$SRC" > "$d/etc/apt/sources.list.d/debian.sources" &&
  debuerreotype-apt-get "$d" update -qq &&
  debuerreotype-apt-get "$d" dist-upgrade -yqq >/dev/null &&
  debuerreotype-apt-get "$d" clean &&
  rm -rf "$d"/var/lib/apt/lists/* &&
  { [ "$2" != slim ] || debuerreotype-slimify "$d"; } &&
  debuerreotype-fixup "$d"
}
import_tar() { # $1=tar $2=tag
  local c
  c=$(B from scratch) || return 1
  BUILDAH_CTRS+=("$c")
  B add "$c" "$1" / >/dev/null &&
  B config --cmd '["bash"]' --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$c" &&
  B commit --rm -q "$c" "$2" >/dev/null
}

if ! have_image localhost/debian:bookworm-slim || ! have_image localhost/debian:bookworm; then
  if [ ! -e "$WORK/rootfs-min.done" ]; then
    lap "debootstrap --variant=minbase bookworm ($MIRROR)"
    rm -rf "$WORK/rootfs-min"
    debootstrap --variant=minbase bookworm "$WORK/rootfs-min" "$MIRROR" > "$WORK/debootstrap.log" 2>&1 ||
      { tail -20 "$WORK/debootstrap.log"; die "debootstrap failed"; }
    touch "$WORK/rootfs-min.done"
  fi
  for v in slim full; do
    tag=localhost/debian:bookworm; [ $v = slim ] && tag=localhost/debian:bookworm-slim
    have_image "$tag" && continue
    lap "stand-in $tag"
    rm -rf "$WORK/rootfs-$v" && cp -a "$WORK/rootfs-min" "$WORK/rootfs-$v" || die "cp rootfs"
    mkrootfs "$WORK/rootfs-$v" $v > "$WORK/rootfs-$v.log" 2>&1 || { tail -20 "$WORK/rootfs-$v.log"; die "rootfs $v failed"; }
    debuerreotype-tar "$WORK/rootfs-$v" "$WORK/debian-$v.tar" >> "$WORK/rootfs-$v.log" 2>&1 || die "debuerreotype-tar $v failed"
    import_tar "$WORK/debian-$v.tar" "$tag" || die "import $tag failed"
    rm -rf "$WORK/rootfs-$v" "$WORK/debian-$v.tar"
  done
fi

if ! have_image "$SWIFT_TAG"; then
  lap "stand-in $SWIFT_TAG (toolchain bind-mounted from $TC)"
  c=$(B from --pull=never localhost/debian:bookworm) || die "buildah from localhost/debian:bookworm"
  BUILDAH_CTRS+=("$c")
  # Same apt packages as the official swift:6.x bookworm image (swiftlang/swift-docker).
  B run --isolation chroot "$c" -- sh -c 'export DEBIAN_FRONTEND=noninteractive; apt-get -q update >/dev/null && apt-get -q install -y binutils libicu-dev libcurl4-openssl-dev libedit-dev libsqlite3-dev libncurses-dev libpython3-dev libxml2-dev pkg-config uuid-dev tzdata git gcc libstdc++-12-dev >/dev/null && rm -r /var/lib/apt/lists/*' \
    > "$WORK/swift-image.log" 2>&1 || { tail -20 "$WORK/swift-image.log"; die "swift stand-in: apt-get failed"; }
  # Dangling symlinks until the toolchain is bind-mounted at build time.
  B run --isolation chroot "$c" -- sh -c "mkdir -p /opt/swift/$V && for f in $(cd "$TC/usr/bin" && echo *); do ln -sf /opt/swift/$V/usr/bin/\$f /usr/bin/\$f; done" \
    >> "$WORK/swift-image.log" 2>&1 || die "swift stand-in: symlinks failed"
  # SwiftPM dependencies (none today) resolve from the host's local package mirror, if any.
  B run --isolation chroot "$c" -- sh -c 'for u in https://github.com/ git@github.com: ssh://git@github.com/; do git config --system --add url./opt/swift-packages/.insteadOf "$u"; done' \
    >> "$WORK/swift-image.log" 2>&1 || die "swift stand-in: git config failed"
  B config --env PATH=/opt/swift/$V/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
           --env LD_LIBRARY_PATH=/opt/swift/$V/usr/lib/swift/linux --env SWIFT_PREFIX=/opt/swift/$V "$c" &&
  B commit --rm -q "$c" "$SWIFT_TAG" >/dev/null || die "swift stand-in: commit failed"
fi

# ---- checks -----------------------------------------------------------------------------
PASS=0 FAILN=0
ok()  { PASS=$((PASS + 1));  echo "PASS: $*"; }
bad() { FAILN=$((FAILN + 1)); echo "FAIL: $*"; }
finish() {
  lap "done${1:+; $1}"
  echo "$PASS passed, $FAILN failed"
  [ "$FAILN" -eq 0 ]
  exit $?
}
RUN_CHECKS=(config libs uid read-only healthz curve healthcheck sigterm)

# Remove images that are neither tagged nor an ancestor (.Parent chain) of a tagged
# image: old build layers go, the layer cache of the current build stays.
gc_images() {
  local -A parent=() keep=()
  local id par ntags i
  local -a ids tagged=() drop=()
  mapfile -t ids < <(P images -a -q --no-trunc 2>/dev/null | sed 's/^sha256://')
  ((${#ids[@]})) || return 0
  while read -r id par ntags; do
    parent[$id]=$par
    [ "$ntags" != 0 ] && tagged+=("$id")
  done < <(P image inspect --format '{{.Id}} {{if .Parent}}{{.Parent}}{{else}}-{{end}} {{len .RepoTags}}' "${ids[@]}" 2>/dev/null)
  for i in "${tagged[@]}"; do
    while [ -n "$i" ] && [ "$i" != - ] && [ -z "${keep[$i]:-}" ]; do keep[$i]=1; i=${parent[$i]:-}; done
  done
  for id in "${ids[@]}"; do [ -n "${keep[$id]:-}" ] || drop+=("$id"); done
  ((${#drop[@]})) && P rmi -f "${drop[@]}" >/dev/null 2>&1
  return 0
}

# ---- 3. build ---------------------------------------------------------------------------
lap "buildah bud (SWIFT_IMAGE=$SWIFT_TAG RUNTIME_IMAGE=localhost/debian:bookworm-slim)"
VOL=(--volume "$TC:/opt/swift/$V:ro")
[ -d /opt/swift-packages ] && VOL+=(--volume /opt/swift-packages:/opt/swift-packages:ro)
bt=$SECONDS
# The build stage is tagged too (same layer cache, so the 2nd bud is instant): that
# keeps its last layer (the compiled package) out of the dangling-image prune below.
BUD=(bud --isolation chroot --layers --pull=never --format docker "${VOL[@]}"
     --build-arg SWIFT_IMAGE="$SWIFT_TAG" --build-arg RUNTIME_IMAGE=localhost/debian:bookworm-slim
     -f "$ROOT/Dockerfile")
if B "${BUD[@]}" --target build -t "$BUILD_IMAGE" "$ROOT" > "$WORK/build.log" 2>&1 &&
   B "${BUD[@]}" -t "$IMAGE" "$ROOT" >> "$WORK/build.log" 2>&1; then
  ok "image builds ($((SECONDS - bt))s, $(B images --format '{{.Size}}' "$IMAGE" | head -1))"
  [ "${KEEP_LOGS:-0}" = 1 ] && cat "$WORK/build.log"
  gc_images
else
  bad "image builds (log: $WORK/build.log):"
  { grep -E '(^|[^a-z])(error|Error):' "$WORK/build.log" | grep -v '`- error' | head -15
    echo "    ..."; grep -v '^[[:space:]]*$' "$WORK/build.log" | tail -5; } | sed 's/^/    /'
  for c in "${RUN_CHECKS[@]}"; do bad "$c (not run: no image)"; done
  finish
fi

# ---- image config -----------------------------------------------------------------------
# Docker-format config as JSON, checked with python3 (buildah's --format has no json).
cfg_problems=$(B inspect --type image "$IMAGE" 2>&1 | python3 -c '
import json, sys
try:
    c = json.load(sys.stdin)["Docker"]["config"]
except Exception as e:
    print("cannot read image config: %s" % e); sys.exit()
env = c.get("Env") or []
want = {
    "USER": (c.get("User"), "10001:10001"),
    "EXPOSE": (sorted(c.get("ExposedPorts") or {}), ["8080/tcp"]),
    "HEALTHCHECK": ((c.get("Healthcheck") or {}).get("Test"), ["CMD", "/usr/local/bin/segue", "healthcheck"]),
    "ENTRYPOINT": (c.get("Entrypoint"), ["/usr/local/bin/segue"]),
    "CMD": (c.get("Cmd"), ["serve"]),
}
for k, (got, exp) in want.items():
    if got != exp: print("%s=%s (want %s)" % (k, json.dumps(got), json.dumps(exp)))
for e in ("SEGUE_HOST=0.0.0.0", "SEGUE_PORT=8080"):
    if e not in env: print("ENV lacks %s" % e)
if any(e.startswith("DEBIAN_FRONTEND=") for e in env): print("DEBIAN_FRONTEND leaked into the runtime ENV")
')
problems=()
[ -z "$cfg_problems" ] || mapfile -t problems <<<"$cfg_problems"
if ((${#problems[@]} == 0)); then
  ok "image config (USER 10001:10001, EXPOSE 8080/tcp, ENV SEGUE_HOST/SEGUE_PORT, HEALTHCHECK, ENTRYPOINT segue with CMD serve)"
else
  bad "image config: $(IFS=';'; echo "${problems[*]}")"
fi

RUN_STARTED=1
# ---- libraries: check-ldd.sh inside the image ------------------------------------------
# The script is bind-mounted into a one-shot container of the image and run there with
# --installed: ldd resolves against the image's own files and dpkg -S against the image's own
# package database, so the host needs neither libmicrohttpd nor any other runtime library
# (a fresh machine has none of them; that was why the check used to fail there).
lib_problems=()
rm -f "$WORK/check-ldd.out"
P run --rm --pull=never --network none --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 \
  --read-only --volume "$ROOT/scripts/check-ldd.sh:/opt/check-ldd.sh:ro" \
  --entrypoint bash "$IMAGE" /opt/check-ldd.sh --installed /usr/local/bin/segue \
  > "$WORK/check-ldd.out" 2>&1 || lib_problems+=("check-ldd.sh in the image failed")
grep -v 'systemd' "$WORK/check-ldd.out" | sed 's/^/    /'
grep -q 'not found' "$WORK/check-ldd.out" && lib_problems+=("a library is not found in the image")
if ((${#lib_problems[@]} == 0)); then
  ok "binary has no missing libraries ($(sed -n 's/.*OK: all \([0-9]*\) libraries.*/\1/p' "$WORK/check-ldd.out") shared libs, all from the image's packages)"
else
  bad "libraries: ${lib_problems[*]}"
fi

# ---- 4. run in a private network namespace -------------------------------------------
lap "run in netns $NETNS"
ip netns add "$NETNS" || die "ip netns add $NETNS"
ip -n "$NETNS" link set lo up
NS() { ip netns exec "$NETNS" "$@"; }
# Locked down as deploy/kubernetes/deployment.yaml runs it: read-only root filesystem with no
# tmpfs anywhere (the service writes nothing), every capability dropped, no privilege escalation.
if ! P run -d --name "$NAME" --pull=never --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 \
       --read-only --read-only-tmpfs=false --cap-drop ALL --security-opt no-new-privileges \
       --network "ns:/var/run/netns/$NETNS" "$IMAGE" > "$WORK/run.out" 2> "$WORK/podman.err"; then
  grep -v 'systemd' "$WORK/podman.err" | tail -10 | sed 's/^/    /'
  for c in uid read-only healthz curve healthcheck sigterm; do bad "$c (not run: container did not start)"; done
  finish
fi
running() { [ "$(P inspect "$NAME" --format '{{.State.Running}}' 2>/dev/null)" = true ]; }
code=000
rm -f "$WORK/healthz.body"
for _ in $(seq 1 75); do
  code=$(NS curl -sS -o "$WORK/healthz.body" -w '%{http_code}' -m 2 "http://127.0.0.1:$PORT/healthz" 2>/dev/null) || code=000
  [ "$code" = 200 ] && break
  running || break
  sleep 0.2
done
echo "container log:"; P logs "$NAME" 2>&1 | grep -v 'systemd connection' | tail -5 | sed 's/^/    /'

# uid: of PID 1 (segue itself) when running, else of a one-shot container of the image
if running; then
  ids=$(P exec "$NAME" sh -c 'u=$(awk "/^Uid:/{print \$2}" /proc/1/status); g=$(awk "/^Gid:/{print \$2}" /proc/1/status); echo "$u:$g"' 2>&1 | tail -1)
  how="PID 1 of the running container"
else
  ids=$(P run --rm --pull=never --network none --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 \
          --entrypoint sh "$IMAGE" -c 'echo "$(id -u):$(id -g)"' 2>&1 | tail -1)
  how="one-shot container; the service container is not running"
fi
if [ "$ids" = "10001:10001" ]; then ok "runs as uid:gid $ids ($how)"; else bad "runs as uid 10001 (got: $ids; $how)"; fi

# the command line through the image: `run IMAGE curve -` with the request on standard input, the
# image's root read-only and no network; the answer is the curve's CSS easing
cli=$(printf '%s' '{"timing": "ease-in-out"}' | P run --rm -i --pull=never --read-only --network none \
        --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 "$IMAGE" curve - --format css 2>&1 | tail -1)
if [ "$cli" = "ease-in-out" ]; then
  ok "the image runs the command line (run IMAGE curve - --format css, read-only): $cli"
else
  bad "run IMAGE curve - --format css: $cli"
fi

# read-only: /tmp is world-writable in the image, so only a read-only mount makes this fail
ro_cfg=$(P inspect "$NAME" --format '{{.HostConfig.ReadonlyRootfs}}' 2>/dev/null)
if running; then
  ro_err=$(P exec "$NAME" sh -c 'touch /tmp/.docker-check-probe 2>&1 && echo WRITABLE' 2>&1 | grep -v systemd | tail -1)
else
  ro_err="(container not running)"
fi
if [ "$ro_cfg" = true ] && [[ $ro_err == *"Read-only file system"* ]]; then
  ok "runs with a read-only root filesystem and no tmpfs (a write to /tmp: $ro_err)"
else
  bad "read-only root filesystem (ReadonlyRootfs=$ro_cfg; a write to /tmp: $ro_err)"
fi

# /healthz
if [ "$code" = 200 ]; then
  ok "GET /healthz -> 200 $(head -c 200 "$WORK/healthz.body")"
else
  bad "GET /healthz -> $code (container running: $(running && echo yes || echo no))"
fi

# POST /v1/curve
rm -f "$WORK/curve.body"
code=$(NS curl -sS -o "$WORK/curve.body" -w '%{http_code}' -m 5 -X POST -H 'Content-Type: application/json' \
         --data '{"timing":"ease","samples":3}' "http://127.0.0.1:$PORT/v1/curve" 2>"$WORK/curve.err") || true
if [ "$code" = 200 ]; then
  ok "POST /v1/curve {\"timing\":\"ease\",\"samples\":3} -> 200 $(head -c 200 "$WORK/curve.body")"
else
  bad "POST /v1/curve -> ${code:-000} $(head -c 300 "$WORK/curve.body" 2>/dev/null) $(head -c 200 "$WORK/curve.err")"
fi

# HEALTHCHECK
hc_rc=0
P healthcheck run "$NAME" > "$WORK/healthcheck.out" 2>&1 || hc_rc=$?
hc_status=$(P inspect "$NAME" --format '{{.State.Health.Status}}' 2>/dev/null)
if [ "$hc_rc" = 0 ] && [ "$hc_status" = healthy ]; then
  ok "podman healthcheck run -> rc 0, $hc_status"
else
  bad "podman healthcheck run -> rc $hc_rc, status '$hc_status': $(grep -v systemd "$WORK/healthcheck.out" | tail -3 | tr '\n' ' ')"
fi

# SIGTERM -> graceful exit 0
st=$SECONDS
was_running=yes; running || was_running=no
P stop -t 10 "$NAME" >/dev/null 2>"$WORK/stop.err"
ec=$(P inspect "$NAME" --format '{{.State.ExitCode}}' 2>&1)
if [ "$was_running" = no ]; then
  bad "SIGTERM: the container had already exited (exit code $ec) before podman stop"
elif [ "$ec" = 0 ]; then
  ok "SIGTERM (podman stop -t 10) -> exit code 0 after $((SECONDS - st))s"
else
  bad "SIGTERM (podman stop -t 10) -> exit code $ec after $((SECONDS - st))s"
  P logs "$NAME" 2>&1 | grep -v 'systemd connection' | tail -5 | sed 's/^/    /'
fi

finish "image $IMAGE $(B images --format '{{.Size}}' "$IMAGE" | head -1); storage $(du -sh "$WORK/storage" 2>/dev/null | cut -f1)"
