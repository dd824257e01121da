#!/usr/bin/env bash
# make demo: the main job on the embedded default. Starts the local control plane (building it
# once), runs the reference operator behind a pod in namespace ctrldiag-demo with a fault
# scenario (DEMO_SCENARIO, default saturated), then runs kubectl ctrldiag through kubectl,
# exactly as a user would: targets, queues and the report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scenario=${DEMO_SCENARIO:-saturated}
ns=ctrldiag-demo
hack/cluster/up.sh
# shellcheck disable=SC1091
. .cache/cluster/run/env.sh
export PATH="$root/bin:$PATH"

if [ -t 2 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
say() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain" >&2; }
if [ "$CTRLDIAG_CLUSTER_NET" != netns ]; then
  echo "demo: not running as root, so the cluster has no network namespace for pod IPs: the API" >&2
  echo "demo: server cannot proxy to pods and everything below goes through port-forward." >&2
fi

pidfile=.cache/cluster/run/pids/pod-$ns-operator
if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
  echo "demo: the reference operator already runs in $ns (stop it with make cluster-down)" >&2
else
  echo "demo: starting the reference operator with scenario '$scenario' behind pod $ns/operator" >&2
  MEMORY_LIMIT=150Mi hack/cluster/behind-pod.sh "$ns" operator 8080/http-metrics -- \
    "$root/bin/kubectl-ctrldiag-operator" run -n "$ns" --scenario "$scenario" \
    --metrics-bind-address "{IP}:8080" --health-probe-bind-address 0
  echo "demo: letting the scenario run for 20 seconds..." >&2
  sleep 20
fi

say kubectl ctrldiag targets -n $ns -o wide
kubectl ctrldiag targets -n $ns -o wide
say kubectl ctrldiag queues -n $ns
kubectl ctrldiag queues -n $ns
say kubectl ctrldiag report -n $ns
kubectl ctrldiag report -n $ns
echo >&2
echo "demo: the cluster and the operator stay up; use them with: export KUBECONFIG=$KUBECONFIG" >&2
echo "demo: other scenarios: make cluster-down; DEMO_SCENARIO=stuck make demo (healthy slow saturated stuck errors hotloop throttled stale memory starved failing polling)" >&2
