#!/usr/bin/env bash
# Builds build/segue_<version>_<arch>.deb from a release binary (`make deb` calls this).
# Usage: deploy/debian/build-deb.sh BINARY [OUTDIR]   (OUTDIR defaults to build/)
# The version is BuildInfo.version in Sources (the one place it is written); the Depends line comes
# from dpkg-shlibdeps on the binary (what it really links), with libmicrohttpd12 and zlib1g always
# listed. Man pages: swift-argument-parser's generate-manual plugin output in $MANDIR when set and
# not empty, else generated from `segue --help` by help2man (deploy/debian/man-from-help.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=$(realpath "${1:?usage: build-deb.sh BINARY [OUTDIR]}")
out=${2:-$root/build}
mkdir -p "$out"; out=$(realpath "$out")

version=$(sed -n 's/^ *public static let version = "\([^"]*\)".*/\1/p' "$root/Sources/SegueHTTP/Observability/BuildInfo.swift")
[ -n "$version" ] || { echo "build-deb: no BuildInfo.version in Sources/SegueHTTP/Observability/BuildInfo.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)
"$binary" --version | grep -qF "segue $version" || { echo "build-deb: $binary --version does not say $version" >&2; exit 1; }

stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
pkg=$stage/pkg
install -D -m 0755 "$binary" "$pkg/usr/bin/segue"
strip --strip-unneeded "$pkg/usr/bin/segue" 2>/dev/null || true
install -D -m 0644 "$here/segue.service" "$pkg/lib/systemd/system/segue.service"
install -D -m 0644 "$here/copyright" "$pkg/usr/share/doc/segue/copyright"
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$(date -R -u -d @"${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}")/" \
    "$here/changelog" | gzip -9n > "$pkg/usr/share/doc/segue/changelog.Debian.gz"
chmod 0644 "$pkg/usr/share/doc/segue/changelog.Debian.gz"

# Man pages, gzipped.
mkdir -p "$pkg/usr/share/man/man1"
if [ -n "${MANDIR:-}" ] && ls "$MANDIR"/*.1 >/dev/null 2>&1; then
  echo "build-deb: man pages from $MANDIR (generate-manual plugin)"
  pages="$MANDIR"
else
  echo "build-deb: man pages from segue --help (help2man)"
  pages=$stage/man; bash "$here/man-from-help.sh" "$pkg/usr/bin/segue" "$pages" "$version"
fi
for page in "$pages"/*.1; do
  gzip -9n < "$page" > "$pkg/usr/share/man/man1/$(basename "$page").gz"
  chmod 0644 "$pkg/usr/share/man/man1/$(basename "$page").gz"
done

# Depends: what the binary links, with minimum versions from the shlibs/symbols files.
mkdir -p "$stage/src/debian"
printf 'Source: segue\n\nPackage: segue\nArchitecture: any\n' > "$stage/src/debian/control"
shlibs=$(cd "$stage/src" && dpkg-shlibdeps -O "$pkg/usr/bin/segue" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
depends=$shlibs
for must in libmicrohttpd12 zlib1g; do
  case ", $depends," in *", $must "*|*", $must,"*) ;; *) depends="$depends, $must" ;; esac
done

size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
mkdir -p "$pkg/DEBIAN"
cat > "$pkg/DEBIAN/control" <<CONTROL
Package: segue
Version: $version
Architecture: $arch
Maintainer: Segue maintainers <segue@localhost>
Depends: $depends
Section: web
Priority: optional
Installed-Size: $size
Description: animation-rendering HTTP service
 Segue answers HTTP requests for animation curves and renders (CSS, Web
 Animations, SVG, Lottie) with the same bytes for the same request. The
 package installs the segue command, its manual pages and a hardened systemd
 unit, segue.service (listening on 127.0.0.1:8080, not enabled by default).
CONTROL
# The unit is the admin's to enable; mark nothing as a conffile (the unit lives under /lib).
deb="$out/segue_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
echo "build-deb: $deb"
dpkg-deb --info "$deb" | sed -n '/Package:/,$p'
dpkg-deb --contents "$deb"
