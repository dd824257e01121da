#!/usr/bin/env bash
# Records the snapshots behind the first-screen goldens: each fault scenario of the reference
# operator, Flux's source-controller in two faults, cert-manager with an Issuer that fails,
# external-dns that cannot sync, and kube-controller-manager with a
# ReplicaSet a ResourceQuota blocks, each read by
# `kubectl ctrldiag snapshot` from the local control plane into testdata/snapshots/NAME.tar.gz.
#   make cluster && make build && hack/record-snapshots.sh [NAME...]
# Then `go test ./pkg/cmd -run TestFirstScreen -update` writes the goldens the unit test
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

# Flux's source-controller (pinned, hack/thirdparty) as its manifests run it, in two faults:
# flux-refused (GitRepositories whose git server refuses) and flux-hang (a git server that never
# answers holds both workers), as test/e2e's TestFluxSourceController makes them.
flux() { # NAME URL COUNT TIMEOUT: records NAME once the workers hold two GitRepositories
  local name=$1 url=$2 n=$3 timeout=$4 ns="snap-$1-$stamp"
  local bin storage
  bin=$(THIRDPARTY=source-controller hack/thirdparty/build.sh)
  storage=$(mktemp -d)
  kubectl apply --server-side -f "$(cd hack/thirdparty/source-controller && go list -m -f '{{.Dir}}' github.com/fluxcd/source-controller)/config/crd/bases" >/dev/null
  local flags=(--watch-all-namespaces=false --metrics-addr=:8080 --health-addr=:9440 --storage-addr=:9090 "--storage-path=$storage" --log-encoding=json)
  IMAGE=ghcr.io/fluxcd/source-controller:v1.9.6 ARGS=$(jq -nc '$ARGS.positional' --args -- "${flags[@]}") \
    hack/cluster/behind-pod.sh "$ns" source-controller 8080/http-prom 9440/healthz 9090/http -- \
    env "RUNTIME_NAMESPACE=$ns" "$bin/source-controller" --watch-all-namespaces=false --metrics-addr={IP}:8080 \
    --health-addr={IP}:9440 --storage-addr={IP}:9090 "--storage-path=$storage" --log-encoding=json >/dev/null
  for i in $(seq 1 "$n"); do
    printf -- '---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: %s-%d, namespace: %s}\nspec: {url: "%s", interval: 1m, timeout: %s, ref: {branch: main}}\n' \
      "$name" "$i" "$ns" "$url" "$timeout"
  done | kubectl apply -f - >/dev/null
  sleep 5
  kubectl ctrldiag snapshot -n "$ns" --include-apiserver=false --interval 10s -f "$out/$name.tar.gz" 2>/dev/null
  for p in source-controller git; do
    [ -f "$run/pids/pod-$ns-$p" ] || continue
    kill "$(cat "$run/pids/pod-$ns-$p")" 2>/dev/null || true
    rm -f "$run/pids/pod-$ns-$p"
  done
  kubectl -n "$ns" patch gitrepositories --all --type merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" --wait=false >/dev/null
  rm -rf "$storage"
  echo "record-snapshots: $out/$name.tar.gz" >&2
}
if picked flux-refused; then flux flux-refused http://127.0.0.1:1/x.git 3 20s; fi
if picked flux-hang; then
  ns=snap-flux-hang-$stamp
  go build -o "$run/bin/servepage" ./test/e2e/servepage
  : >"$run/empty.prom"
  hack/cluster/behind-pod.sh "$ns" git 8080/web -- "$run/bin/servepage" --listen "{IP}:8080" --file "$run/empty.prom" --hang >/dev/null
  flux flux-hang "http://$(kubectl -n "$ns" get pod git -o jsonpath='{.status.podIP}'):8080/x.git" 8 60s
fi

if picked cert-manager-issuer; then # a CA Issuer whose Secret does not exist, beside one that works
  ns=snap-cert-manager-$stamp
  bin=$(THIRDPARTY=cert-manager hack/thirdparty/build.sh)
  kubectl apply --server-side -f "$(cd hack/thirdparty/cert-manager && go list -m -f '{{.Dir}}' github.com/cert-manager/cert-manager)/deploy/crds" >/dev/null
  flags=(--namespace="$ns" --cluster-resource-namespace="$ns" --leader-elect=false)
  IMAGE=quay.io/jetstack/cert-manager-controller:v1.21.2 ARGS=$(jq -nc '$ARGS.positional' --args -- "${flags[@]}" --metrics-listen-address=:9402) \
    hack/cluster/behind-pod.sh "$ns" cert-manager 9402/http-metrics -- \
    "$bin/cert-manager-controller" --kubeconfig="$KUBECONFIG" "${flags[@]}" --metrics-listen-address={IP}:9402 >/dev/null
  kubectl apply -f - >/dev/null <<YAML
apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: selfsigned, namespace: $ns}
spec: {selfSigned: {}}
---
apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: ca-nosecret, namespace: $ns}
spec: {ca: {secretName: does-not-exist}}
YAML
  sleep 3
  kubectl ctrldiag snapshot -n "$ns" --include-apiserver=false --interval 10s -f "$out/cert-manager-issuer.tar.gz" 2>/dev/null
  kill "$(cat "$run/pids/pod-$ns-cert-manager")" 2>/dev/null || true
  rm -f "$run/pids/pod-$ns-cert-manager"
  kubectl delete namespace "$ns" --wait=false >/dev/null
  echo "record-snapshots: $out/cert-manager-issuer.tar.gz" >&2
fi
if picked external-dns-unsynced; then # a ServiceAccount that may read Services only: its sources never get ready
  ns=snap-external-dns-$stamp
  bin=$(THIRDPARTY=external-dns hack/thirdparty/build.sh)
  kubectl create namespace "$ns" >/dev/null
  kubectl -n "$ns" create serviceaccount external-dns >/dev/null
  kubectl -n "$ns" create role services-only --verb=get,list,watch --resource=services >/dev/null
  kubectl -n "$ns" create rolebinding services-only --role=services-only --serviceaccount="$ns:external-dns" >/dev/null
  kc=$(mktemp)
  kubectl config view --raw --minify --flatten >"$kc"
  kubectl --kubeconfig "$kc" config set-credentials external-dns --token="$(kubectl -n "$ns" create token external-dns)" >/dev/null
  kubectl --kubeconfig "$kc" config set-context --current --user external-dns >/dev/null
  flags=(--provider=inmemory --source=service --namespace="$ns" --policy=sync --registry=txt --txt-owner-id=snap --interval=3s)
  IMAGE=registry.k8s.io/external-dns/external-dns:v0.22.0 ARGS=$(jq -nc '$ARGS.positional' --args -- "${flags[@]}" --metrics-address=:7979) \
    hack/cluster/behind-pod.sh "$ns" external-dns 7979/http -- \
    "$bin/external-dns" --kubeconfig="$kc" "${flags[@]}" --metrics-address={IP}:7979 >/dev/null
  kubectl ctrldiag snapshot -n "$ns" --include-apiserver=false --interval 10s -f "$out/external-dns-unsynced.tar.gz" 2>/dev/null
  kill "$(cat "$run/pids/pod-$ns-external-dns")" 2>/dev/null || true
  rm -f "$run/pids/pod-$ns-external-dns" "$kc"
  kubectl delete namespace "$ns" --wait=false >/dev/null
  echo "record-snapshots: $out/external-dns-unsynced.tar.gz" >&2
fi

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
