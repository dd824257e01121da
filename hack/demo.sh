#!/usr/bin/env bash
# make demo: the main job on the embedded default. Starts the local control plane (building it
# once), then runs kubectl ctrldiag against it through kubectl, exactly as a user would.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
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

say kubectl ctrldiag version
kubectl ctrldiag version
say kubectl get pods -A -o wide
kubectl get pods -A -o wide
echo >&2
echo "demo: the cluster stays up; use it with: export KUBECONFIG=$KUBECONFIG" >&2
echo "demo: stop it with: make cluster-down" >&2
