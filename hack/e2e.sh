#!/usr/bin/env bash
# Runs the e2e suite (test/e2e, build tag e2e) against the local control plane. If no cluster
# was up, starts one and stops it afterwards; a cluster that was already up is left running.
# Builds the pinned Thanos first (hack/thanos/build.sh; cached, so only the first run pays).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
started=0
if ! [ -f .cache/cluster/run/env.sh ] || ! KUBECONFIG=.cache/cluster/run/admin.kubeconfig kubectl get --raw=/readyz >/dev/null 2>&1; then
  started=1
fi
hack/cluster/up.sh
hack/thanos/build.sh >/dev/null
rc=0
go test -tags e2e -count=1 -timeout 80m ${E2E_RUN:+-run "$E2E_RUN"} ./test/e2e/... || rc=$?
if [ "$started" = 1 ] && [ -z "${KEEP_CLUSTER:-}" ]; then
  hack/cluster/down.sh
fi
exit $rc
