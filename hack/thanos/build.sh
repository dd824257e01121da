#!/usr/bin/env bash
# Builds the pinned Thanos (hack/thanos/go.mod) that the e2e tests run, into
# thanos/bin-<key>/thanos of the user's cache (hack/cache-dir.sh), where <key> hashes the pins,
# the build tags and the Go version. A second run with the same pins, from any checkout, does
# nothing. Prints the binary's path on stdout.
#
# Thanos is built from this small module rather than with `go install ...@version`, which
# refuses Thanos' replace directives (go.mod copies them). The tags are Thanos' own release
# tags: netgo, and slicelabels, without which the sidecar panics on its first Series call.
# Only Go modules are downloaded (from the Go proxy); the build runs with `nice`, as it takes
# minutes on a cold cache.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/hack/thanos"
tags=netgo,slicelabels

key=$( { cat "$here/go.mod" "$here/go.sum"; echo "tags=$tags"; GOTOOLCHAIN=local go env GOVERSION; } | sha256sum | cut -c1-16)
cache=$("$root/hack/cache-dir.sh")
bin="$cache/thanos/bin-$key"
if [ -x "$bin/thanos" ]; then
  echo "$bin/thanos"
  exit 0
fi

mkdir -p "$cache/thanos"
exec 9>"$cache/thanos/build.lock"
flock 9 # one build at a time; the one that waited finds the binary
if [ -x "$bin/thanos" ]; then
  echo "$bin/thanos"
  exit 0
fi
version=$(sed -n 's#^require github.com/thanos-io/thanos \(v[^ ]*\)$#\1#p' "$here/go.mod")
echo "thanos build: $version (a few minutes on a cold cache)" >&2
start=$(date +%s)
tmp="$bin.partial"
rm -rf "$tmp"; mkdir -p "$tmp"
(cd "$here" && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=readonly nice -n 10 \
  go build -trimpath -tags "$tags" -ldflags "-s -w -X github.com/prometheus/common/version.Version=${version#v}" -o "$tmp/thanos" github.com/thanos-io/thanos/cmd/thanos)
rm -rf "$bin"; mv "$tmp" "$bin"
echo "thanos build: done in $(( $(date +%s) - start ))s" >&2
echo "$bin/thanos"
