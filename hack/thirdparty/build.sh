#!/usr/bin/env bash
# Builds the third-party controllers the tests run, from the pinned Go modules here
# (hack/thirdparty/<name>/go.mod), into thirdparty/bin-<key> of the user's cache
# (hack/cache-dir.sh), where <key> hashes every pin, main.go, this script and the Go version. A second run with
# the same pins, from any checkout, does nothing. Prints the bin folder on stdout; it holds
#   source-controller        Flux source-controller (github.com/fluxcd/source-controller)
#   cert-manager-controller  cert-manager's controllers (hack/thirdparty/cert-manager/main.go)
#   external-dns             external-dns with only the inmemory provider (hack/thirdparty/external-dns/main.go)
# Each is built from its own small module, not with `go install ...@version`, which refuses
# replace directives and cannot build cert-manager's controller command (see NOTES.md). Only Go
# modules are downloaded (from the Go proxy); the builds run with `nice`, as they take minutes
# each on a cold cache. THIRDPARTY=name[,name] builds (and checks for) only those.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/hack/thirdparty"
all=(source-controller cert-manager external-dns)
IFS=, read -r -a want <<<"${THIRDPARTY:-$(IFS=,; echo "${all[*]}")}"

key=$( { cat "$0"; for d in "${all[@]}"; do cat "$here/$d"/go.mod "$here/$d"/go.sum "$here/$d"/*.go; done;
         GOTOOLCHAIN=local go env GOVERSION; } | sha256sum | cut -c1-16)
cache=$("$root/hack/cache-dir.sh")
bin="$cache/thirdparty/bin-$key"
binary() { case $1 in cert-manager) echo cert-manager-controller ;; *) echo "$1" ;; esac; }
built() { for d in "${want[@]}"; do [ -x "$bin/$(binary "$d")" ] || return 1; done; }
if built; then
  echo "$bin"
  exit 0
fi

log() { echo "thirdparty build: $*" >&2; }
mkdir -p "$cache/thirdparty"
exec 9>"$cache/thirdparty/build.lock"
flock 9 # one build at a time; the one that waited finds the binaries
if built; then
  echo "$bin"
  exit 0
fi
export CGO_ENABLED=0 GOFLAGS=-mod=readonly GOTOOLCHAIN=local
mkdir -p "$bin"
version() { (cd "$here/$2" && go list -m -f '{{.Version}}' "$1"); }
for d in "${want[@]}"; do
  b=$(binary "$d")
  [ -x "$bin/$b" ] && continue
  case $d in
    source-controller)
      pkg=github.com/fluxcd/source-controller ldflags="-s -w"
      v=$(version $pkg "$d") ;;
    cert-manager)
      pkg=. v=$(version github.com/cert-manager/cert-manager "$d")
      ldflags="-s -w -X github.com/cert-manager/cert-manager/pkg/util.AppVersion=$v" ;;
    external-dns)
      pkg=. v=$(version sigs.k8s.io/external-dns "$d")
      ldflags="-s -w -X sigs.k8s.io/external-dns/pkg/apis/externaldns.Version=$v" ;;
    *) echo "thirdparty build: unknown controller $d (known: ${all[*]})" >&2; exit 2 ;;
  esac
  log "$d $v (minutes on a cold cache)"
  start=$(date +%s)
  # Built to a temporary name in the same folder: a binary is there whole, or not at all.
  (cd "$here/$d" && nice -n 10 go build -trimpath -ldflags "$ldflags" -o "$bin/.$b.partial" "$pkg")
  mv "$bin/.$b.partial" "$bin/$b"
  log "$d done in $(( $(date +%s) - start ))s"
done
echo "$bin"
