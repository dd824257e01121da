#!/usr/bin/env bash
# Render plugins/ctrldiag.yaml, the manifest of the krew custom index this repository is,
# from the template krew-manifest.yaml and the archives hack/dist.sh put in dist/.
# The result is validated with krew's rules and every archive is installed the way krew
# would before the file is written. Commit plugins/ctrldiag.yaml afterwards; committing it
# does not change the archives (hack/dist.sh stamps the last commit outside plugins/).
#
#   hack/dist.sh && hack/krew-manifest.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
GOFLAGS=-mod=readonly go run ./hack/krewmanifest/render \
  -template krew-manifest.yaml -dist "${DIST_DIR:-dist}" -o plugins/ctrldiag.yaml
