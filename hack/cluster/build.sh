#!/usr/bin/env bash
# Builds the local control plane's binaries (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, kwok)
# from pinned Go module versions into cluster/bin-<key> of the user's cache (hack/cache-dir.sh),
# where <key> hashes every pin and the Go version. A second run with the same pins, from any
# checkout, does nothing. Prints the bin folder on stdout.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/hack/cluster"
# shellcheck source=versions.sh
. "$here/versions.sh"

key=$( { cat "$here/tools/go.mod" "$here/tools/go.sum" "$here/etcd/go.mod" "$here/etcd/go.sum";
         echo "kwok=$KWOK_VERSION k8s=$K8S_VERSION"; go env GOVERSION; } | sha256sum | cut -c1-16)
cache=$("$root/hack/cache-dir.sh")
bin="$cache/cluster/bin-$key"
built() { for b in kube-apiserver kube-controller-manager kube-scheduler etcd kwok; do [ -x "$bin/$b" ] || return 1; done; }
if built; then
  echo "$bin"
  exit 0
fi

log() { echo "cluster build: $*" >&2; }
mkdir -p "$cache/cluster"
exec 9>"$cache/cluster/build.lock"
flock 9 # one build at a time; the one that waited finds the binaries
if built; then
  echo "$bin"
  exit 0
fi
tmp="$bin.partial"
rm -rf "$tmp"; mkdir -p "$tmp"
export CGO_ENABLED=0 GOFLAGS=-mod=mod GOTOOLCHAIN=local

major=${K8S_VERSION#v}; major=${major%%.*}
minor=${K8S_VERSION#v*.}; minor=${minor%%.*}
ver="-X k8s.io/component-base/version.gitVersion=$K8S_VERSION -X k8s.io/component-base/version.gitMajor=$major -X k8s.io/component-base/version.gitMinor=$minor"
ver="$ver -X k8s.io/client-go/pkg/version.gitVersion=$K8S_VERSION -X k8s.io/client-go/pkg/version.gitMajor=$major -X k8s.io/client-go/pkg/version.gitMinor=$minor"
ver="$ver -X k8s.io/component-base/version.gitTreeState=clean -X k8s.io/component-base/version.buildDate=1970-01-01T00:00:00Z"

start=$(date +%s)
log "etcd $ETCD_VERSION"
(cd "$here/etcd" && go build -trimpath -ldflags "-s -w" -o "$tmp/etcd" .)
log "kwok $KWOK_VERSION"
GOBIN="$tmp" go install -trimpath -ldflags "-s -w" "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
for c in kube-apiserver kube-controller-manager kube-scheduler; do
  log "$c $K8S_VERSION (several minutes on a cold cache)"
  (cd "$here/tools" && go build -trimpath -ldflags "-s -w $ver" -o "$tmp/$c" "k8s.io/kubernetes/cmd/$c")
done
rm -rf "$bin"; mv "$tmp" "$bin"
log "done in $(( $(date +%s) - start ))s"
echo "$bin"
