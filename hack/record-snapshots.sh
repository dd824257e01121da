#!/usr/bin/env bash
# Records the snapshots behind the first-screen goldens: each fault scenario of the reference
# operator, and kube-controller-manager with a ReplicaSet a ResourceQuota blocks, each read by
# `kubectl ctrldiag snapshot` from the local control plane into testdata/snapshots/NAME.tar.gz.
#   make cluster && make build && hack/record-snapshots.sh [NAME...]
# Then `go test ./pkg/cmd/report -run TestFirstScreen -update` writes the goldens the unit test
# holds the report's first lines to. The scenarios run a few at a time, each in its own
# namespace, warmed up as the e2e test warms them; stale runs alone (beside other operators
# the API server slows its writes and its cache keeps up).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
run=.cache/cluster/run
[ -f "$run/env.sh" ] || { echo "record-snapshots: the local cluster is not up: make cluster" >&2; exit 1; }
# shellcheck disable=SC1091
. "$run/env.sh"
export PATH="$root/bin:$PATH"
out=testdata/snapshots
mkdir -p "$out"

# NAME WARMUP [INTERVAL]: as in test/e2e's TestReportDiagnosesEachScenario.
scenarios=(
  "healthy 10" "slow 15 13s" "saturated 15" "stuck 42" "errors 15" "hotloop 10" "throttled 15"
  "memory 20" "failing 20" "polling 25" "starved 15" "past-incident 32" "long-reconcile 40"
)
want=" $* "
picked() { [ "$want" = "  " ] || [[ "$want" == *" $1 "* ]]; }

# Namespaces of their own run: one of an earlier run may still be terminating.
stamp=$(date +%s | tail -c 5)

start() { # NAME: its operator behind pod snap-NAME-STAMP/operator (one at a time: they share a build)
  MEMORY_LIMIT=150Mi hack/cluster/behind-pod.sh "snap-$1-$stamp" operator 8080/http-metrics -- \
    "$root/bin/kubectl-ctrldiag" operator run -n "snap-$1-$stamp" --scenario "$1" \
    --metrics-bind-address "{IP}:8080" --health-probe-bind-address 0 >/dev/null
}

record() { # NAME WARMUP [INTERVAL], once started
  local name=$1 warmup=$2 interval=${3:-5s} ns="snap-$1-$stamp"
  sleep "$warmup"
  kubectl ctrldiag snapshot -n "$ns" --include-apiserver=false --interval "$interval" -f "$out/$name.tar.gz" 2>/dev/null
  # Stopped by its pid, whose file goes too: the cluster's scripts take any process named
  # there that is gone for one that failed.
  kill "$(cat "$run/pids/pod-$ns-operator")" 2>/dev/null || true
  rm -f "$run/pids/pod-$ns-operator"
  kubectl delete namespace "$ns" --wait=false >/dev/null
  echo "record-snapshots: $out/$name.tar.gz" >&2
}

if picked stale; then start stale && record stale 15; fi
batch=0
for s in "${scenarios[@]}"; do
  # shellcheck disable=SC2086
  set -- $s
  picked "$1" || continue
  start "$1"
  record "$@" &
  batch=$((batch + 1))
  if [ "$batch" = 4 ]; then wait; batch=0; fi
done
wait

if picked kcm; then
  ns=snap-quota-$stamp
  kubectl create namespace "$ns" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  kubectl apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ResourceQuota
metadata: {name: no-pods, namespace: $ns}
spec: {hard: {pods: "0"}}
YAML
  sleep 3
  kubectl apply -f - >/dev/null <<YAML
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: blocked, namespace: $ns}
spec:
  replicas: 1
  selector: {matchLabels: {app: blocked}}
  template:
    metadata: {labels: {app: blocked}}
    spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10}]}
YAML
  sleep 20
  kubectl ctrldiag snapshot -n kube-system --include-apiserver=false --interval 1s -f "$out/kcm.tar.gz" 2>/dev/null
  kubectl -n "$ns" delete replicasets --all --wait --timeout 60s >/dev/null
  kubectl delete namespace "$ns" --wait=false >/dev/null
  echo "record-snapshots: $out/kcm.tar.gz" >&2
fi
