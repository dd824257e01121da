#!/usr/bin/env bash
# Build the release archives of kubectl-ctrldiag, reproducibly.
#
#   hack/dist.sh                       # all platforms into dist/
#   PLATFORMS=linux/amd64 hack/dist.sh # only some platforms
#
# Output (DIST_DIR, default dist/, git-ignored, recreated on each run):
#   kubectl-ctrldiag_<version>_<os>_<arch>.tar.gz   the plugin, kubectl-ctrldiag, and the
#                                                   reference operator it runs for `operator ...`,
#                                                   kubectl-ctrldiag-operator (.exe on windows),
#                                                   kubectl's completion hooks for the plugin
#                                                   and the operator, kubectl_complete-ctrldiag
#                                                   and kubectl_complete-ctrldiag-operator (sh
#                                                   scripts; .cmd on windows), from hack/completion,
#                                                   + LICENSE
#   checksums.txt                                   sha256sum format, sorted by name
#   BUILDINFO                                       version, commit, epoch, Go toolchain
#
# Inputs and where they come from:
#   VERSION            env, else the VERSION file at the repository root (e.g. v0.1.0).
#                      A file rather than `git describe`: the krew manifest must name the
#                      version before the tag exists, and a source tarball without .git still
#                      builds. Bump it in the commit that prepares a release.
#   COMMIT             env, else the last commit that changed a file that can end up in the
#                      archives: everything except the paths in not_inputs below (the krew
#                      manifest and its tooling, tests, docs, the test cluster, the Makefile).
#                      So committing the rendered plugins/ctrldiag.yaml, or a test or README
#                      change, leaves the archives byte-identical and the manifest valid.
#                      "-dirty" is appended when such files have uncommitted or untracked
#                      changes.
#   SOURCE_DATE_EPOCH  env, else the commit time of COMMIT. Used as the build date stamped
#                      into the binary and as the mtime of every archive entry.
#
# Two runs on the same commit with the same Go toolchain give byte-identical archives:
# -trimpath, CGO_ENABLED=0, -buildvcs=false, an empty build id, fixed GOAMD64/GOARM64, and
# archives written by hack/archive (sorted entries, fixed mtime, uid/gid 0, ustar, no gzip
# name or time).
set -euo pipefail
export LC_ALL=C # byte order for globs and sorting

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

module=github.com/ctrldiag/kubectl-ctrldiag
binary=kubectl-ctrldiag
dist="${DIST_DIR:-$root/dist}"
platforms="${PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}"

die() { echo "dist: $*" >&2; exit 1; }

version="${VERSION:-}"
if [[ -z "$version" ]]; then
  [[ -f VERSION ]] || die "no VERSION file at $root and VERSION is not set"
  version="$(tr -d '[:space:]' < VERSION)"
fi
[[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$ ]] \
  || die "version \"$version\" is not a semantic version with a v prefix (e.g. v0.1.0)"

in_git=false
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then in_git=true; fi
# Paths that never go into a binary or an archive (git pathspecs).
not_inputs=(
  ':(exclude)plugins' ':(exclude)krew-manifest.yaml' ':(exclude)hack/krew-manifest.sh'
  ':(exclude)hack/krewmanifest' ':(exclude)hack/cluster' ':(exclude)test' ':(exclude).ci'
  ':(exclude)Makefile' ':(exclude).gitignore' ':(exclude,glob)**/*.md'
  ':(exclude,glob)**/*_test.go' ':(exclude,glob)**/testdata/**'
)
commit="${COMMIT:-}"
if [[ -z "$commit" ]]; then
  $in_git || die "not a git checkout: set COMMIT and SOURCE_DATE_EPOCH"
  commit="$(git log -1 --format=%H -- . "${not_inputs[@]}")"
  [[ -n "$commit" ]] || die "no commit found"
  if [[ -n "$(git status --porcelain -- . "${not_inputs[@]}")" ]]; then
    echo "dist: warning: uncommitted changes, the build is stamped ${commit:0:12}-dirty and is not reproducible" >&2
    commit="${commit}-dirty"
  fi
fi
epoch="${SOURCE_DATE_EPOCH:-}"
if [[ -z "$epoch" ]]; then
  $in_git || die "not a git checkout: set SOURCE_DATE_EPOCH"
  epoch="$(git log -1 --format=%ct "${commit%-dirty}")"
fi
[[ "$epoch" =~ ^[0-9]+$ ]] || die "SOURCE_DATE_EPOCH \"$epoch\" is not a Unix time"
build_date="$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -r "$epoch" +%Y-%m-%dT%H:%M:%SZ)"

[[ -f LICENSE ]] || die "no LICENSE at $root"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rm -rf "$dist"
mkdir -p "$dist"

# The archive writer runs on this machine, whatever the target platform.
env -u GOOS -u GOARCH CGO_ENABLED=0 GOFLAGS=-mod=readonly go build -o "$work/archive" ./hack/archive

ldflags="-s -w -buildid= -X $module/pkg/version.version=$version -X $module/pkg/version.commit=$commit -X $module/pkg/version.buildDate=$build_date"
echo "dist: $binary $version (commit $commit, built $build_date) with $(go env GOVERSION)" >&2
for p in $platforms; do
  os="${p%/*}" arch="${p#*/}"
  suffix=""
  [[ "$os" == windows ]] && suffix=".exe"
  entries=()
  for b in "$binary" "$binary-operator"; do
    out="$work/${os}_${arch}/$b$suffix"
    echo "dist: building $b for $os/$arch" >&2
    GOOS="$os" GOARCH="$arch" CGO_ENABLED=0 GOAMD64=v1 GOARM64=v8.0 GOFLAGS=-mod=readonly \
      go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$out" "./cmd/$b"
    entries+=("$b$suffix=$out")
  done
  for complete in kubectl_complete-ctrldiag kubectl_complete-ctrldiag-operator; do
    [[ "$os" == windows ]] && complete+=".cmd"
    [[ -f "hack/completion/$complete" ]] || die "no hack/completion/$complete"
    entries+=("$complete=$root/hack/completion/$complete")
  done
  "$work/archive" -o "$dist/${binary}_${version}_${os}_${arch}.tar.gz" -mtime "$epoch" \
    "${entries[@]}" "LICENSE=$root/LICENSE"
done

if command -v sha256sum >/dev/null; then sum=(sha256sum); else sum=(shasum -a 256); fi
archives=()
for a in "$dist"/*.tar.gz; do archives+=("${a##*/}"); done
(cd "$dist" && "${sum[@]}" -- "${archives[@]}" > checksums.txt)
cat > "$dist/BUILDINFO" <<INFO
version=$version
commit=$commit
sourceDateEpoch=$epoch
buildDate=$build_date
go=$(go env GOVERSION)
INFO
echo "dist: wrote ${#archives[@]} archives, checksums.txt and BUILDINFO to $dist" >&2
