#!/usr/bin/env bash
# Runs the e2e suite (test/e2e, build tag e2e) against the local control plane. If no cluster
# was up, starts one and stops it afterwards; a cluster that was already up is left running.
# The pinned Thanos (hack/thanos/build.sh; cached, so only the first run pays) and the pinned
# third-party controllers (hack/thirdparty/build.sh) are built in the background, each on one
# core at the lowest priority, while the suite starts: the tests that run them wait for them.
#
# The tests mostly wait (sampling windows, scrapes, scenarios warming up), so most of them run
# side by side, in three phases (test/e2e/gate_test.go): first the ones that need the cluster
# alone (a "Runs alone:" comment says why), one at a time; then the calm ones, which measure
# rates through the API server, E2E_CALM of them at once (default 3); then the crowd,
# E2E_PARALLEL at once (default 8), the longest first in each phase. The output is go
# test's, shortened by hack/testtimes: a line per test, a failed test's whole log, and at the
# end the slowest tests and the totals; the raw `go test -json` stays in .cache/e2e/last.json.
#   E2E_RUN=TestQueues make e2e     one test (a go test -run pattern)
#   KEEP_CLUSTER=1 make e2e         leave a cluster this run started up afterwards
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
started=0
if ! [ -f .cache/cluster/run/env.sh ] || ! KUBECONFIG=.cache/cluster/run/admin.kubeconfig kubectl get --raw=/readyz >/dev/null 2>&1; then
  started=1
fi
hack/cluster/up.sh
mkdir -p .cache/e2e
# One core and the lowest priority: the tests that run first measure timings.
GOMAXPROCS=1 nice -n 19 hack/thanos/build.sh >/dev/null 2>.cache/e2e/thanos-build.log &
thanos=$!
# The third-party controllers the tests run (hack/thirdparty), beside Thanos, the same way, one
# build at a time: a test that needs one waits for that one only. Cold and after Thanos (11
# minutes on one core), they held their tests 19 minutes past the rest of the suite.
(for c in source-controller external-dns cert-manager; do
   GOMAXPROCS=1 nice -n 19 env THIRDPARTY=$c hack/thirdparty/build.sh >/dev/null
 done) 2>.cache/e2e/thirdparty-build.log &
thirdparty=$!
go build -o .cache/e2e/testtimes ./hack/testtimes
rc=0
go test -tags e2e -count=1 -timeout 60m -parallel "${E2E_PARALLEL:-8}" -json ${E2E_RUN:+-run "$E2E_RUN"} ./test/e2e/... 2>&1 |
  .cache/e2e/testtimes -json-out .cache/e2e/last.json || rc=$?
wait "$thanos" || { echo "e2e: the Thanos build failed:" >&2; cat .cache/e2e/thanos-build.log >&2; rc=1; }
wait "$thirdparty" || { echo "e2e: the third-party build failed:" >&2; cat .cache/e2e/thirdparty-build.log >&2; rc=1; }
if [ "$started" = 1 ] && [ -z "${KEEP_CLUSTER:-}" ]; then
  hack/cluster/down.sh
fi
exit $rc
