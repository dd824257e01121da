#!/usr/bin/env bash
# Starts the local control plane: etcd, kube-apiserver, kube-controller-manager, kube-scheduler
# and kwok (one fake node), from the binaries hack/cluster/build.sh pins. Reuses a cluster that
# is already up.
#
# Network: as root, a network namespace "ctrldiag" joined to the host by a veth pair
# (host 198.18.0.1 <-> namespace 198.18.0.2, a TEST-NET range) holds the pod IPs, so the API
# server's proxy can reach processes that stand behind pods (see pod.sh). The node and every
# control-plane component use 198.18.0.1, like a kubeadm node's host network. Without root,
# everything binds 127.0.0.1 and only port-forward can reach pods (the API server refuses to
# proxy to loopback addresses); CTRLDIAG_CLUSTER_NET=loopback forces that mode.
#
# State (PKI, kubeconfigs, logs, pids, etcd data) lives in .cache/cluster/run; env.sh there
# exports KUBECONFIG and the network facts for scripts and tests.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
run="$root/.cache/cluster/run"
# shellcheck source=lib.sh
. "$here/lib.sh"

# One start at a time: a second up.sh run meanwhile (two test runs, two shells) waits for the
# first and then finds the cluster up, instead of taking its half-built state for stale.
mkdir -p "$root/.cache/cluster"
exec 8>"$root/.cache/cluster/up.lock"
flock 8

# start_kwok NODE_IP POD_CIDR: the fake kubelet of node ctrldiag-node. It serves port-forward
# (PortForward) and `kubectl logs` (Logs: a pod's container log read from a CRI-format file).
# The node lease keeps the node Ready: status heartbeats alone come less often than the node
# lifecycle controller's grace period, which would then mark every pod not ready.
kwok_crds=PortForward,Logs
start_kwok() {
  start kwok "$bin/kwok" --kubeconfig="$run/kwok.kubeconfig" --config="$here/kwok-stages.yaml" \
    --manage-all-nodes=true --node-ip="$1" --node-port=10250 \
    --server-address="$1:10250" --cidr="$2" --enable-crds="$kwok_crds" \
    --node-lease-duration-seconds=40 \
    --tls-cert-file="$run/pki/kwok.crt" --tls-private-key-file="$run/pki/kwok.key"
}

if cluster_healthy; then
  # A cluster started by an older up.sh: install the CRDs it lacks and restart kwok (only kwok)
  # if it runs without every CRD it should serve.
  export KUBECONFIG="$run/admin.kubeconfig"
  kubectl apply -f "$here/manifests/" >/dev/null
  if ! tr '\0' '\n' <"/proc/$(cat "$run/pids/kwok")/cmdline" | grep -qx -- "--enable-crds=$kwok_crds"; then
    log "restarting kwok with --enable-crds=$kwok_crds"
    . "$run/env.sh"
    pod_cidr=127.1.0.1/16
    [ "$CTRLDIAG_CLUSTER_NET" = netns ] && pod_cidr=198.18.128.1/17
    old=$(cat "$run/pids/kwok")
    kill -TERM "$old"
    for _ in $(seq 1 40); do kill -0 "$old" 2>/dev/null || break; sleep 0.25; done
    kill -0 "$old" 2>/dev/null && kill -KILL "$old"
    bin=$("$here/build.sh")
    start_kwok "$CTRLDIAG_NODE_IP" "$pod_cidr"
    wait_for "kwok to serve on $CTRLDIAG_NODE_IP:10250" 60 bash -c "exec 3<>/dev/tcp/$CTRLDIAG_NODE_IP/10250"
  fi
  log "already up (KUBECONFIG=$run/admin.kubeconfig)"
  exit 0
fi
if [ -d "$run" ]; then
  log "removing a stale cluster state"
  "$here/down.sh" >/dev/null 2>&1 || true
fi

bin=$("$here/build.sh")
# Fixed ports: say which one is taken instead of failing later in a component's log.
busy=$(ss -Hltn 2>/dev/null | awk '{print $4}' | grep -E ':(2379|2380|6443|10250|10257|10259)$' || true)
[ -z "$busy" ] || die "in use: $(echo $busy): another cluster or program listens there (make cluster-down in its clone, or stop it)"
mkdir -p "$run"/{pki,logs,pids,etcd}
started=$(date +%s)

# --- network -----------------------------------------------------------------------------------
mode=${CTRLDIAG_CLUSTER_NET:-}
if [ -z "$mode" ]; then
  if [ "$(id -u)" = 0 ] && ip netns list >/dev/null 2>&1; then mode=netns; else mode=loopback; fi
fi
case "$mode" in
  netns)
    # A namespace left by a cluster whose state folder is gone (another clone, a crash) is ours
    # by name: replace it.
    ip link del "$VETH_HOST" 2>/dev/null || true
    ip netns del "$NETNS" 2>/dev/null || true
    ip netns add "$NETNS"
    ip link add "$VETH_HOST" type veth peer name "$VETH_NS"
    ip link set "$VETH_NS" netns "$NETNS"
    ip addr add "$NODE_IP/16" dev "$VETH_HOST"
    ip link set "$VETH_HOST" up
    ip netns exec "$NETNS" ip addr add "$NS_IP/16" dev "$VETH_NS"
    ip netns exec "$NETNS" ip link set "$VETH_NS" up
    ip netns exec "$NETNS" ip link set lo up
    node_ip=$NODE_IP
    pod_cidr=198.18.128.1/17
    ;;
  loopback)
    node_ip=127.0.0.1
    pod_cidr=127.1.0.1/16
    ;;
  *) die "CTRLDIAG_CLUSTER_NET must be netns or loopback, not $mode" ;;
esac
echo "$mode" > "$run/net-mode"

# --- PKI -----------------------------------------------------------------------------------------
pki="$run/pki"
"$here/pki.sh" "$pki" "$node_ip"

kubeconfig() { # name user cert key
  local f="$run/$1.kubeconfig"
  KUBECONFIG=$f kubectl config set-cluster local --server="https://$node_ip:6443" \
    --certificate-authority="$pki/ca.crt" --embed-certs=true >/dev/null
  KUBECONFIG=$f kubectl config set-credentials "$2" --client-certificate="$pki/$3.crt" \
    --client-key="$pki/$3.key" --embed-certs=true >/dev/null
  KUBECONFIG=$f kubectl config set-context local --cluster=local --user="$2" >/dev/null
  KUBECONFIG=$f kubectl config use-context local >/dev/null
  chmod 600 "$f"
}
kubeconfig admin ctrldiag-admin admin
kubeconfig restricted ctrldiag-restricted restricted
kubeconfig controller-manager system:kube-controller-manager controller-manager
kubeconfig scheduler system:kube-scheduler scheduler
kubeconfig kwok kwok kwok-client

# --- etcd ----------------------------------------------------------------------------------------
start etcd "$bin/etcd" --name=ctrldiag --data-dir="$run/etcd" \
  --listen-client-urls=http://127.0.0.1:2379 --advertise-client-urls=http://127.0.0.1:2379 \
  --listen-peer-urls=http://127.0.0.1:2380 --initial-advertise-peer-urls=http://127.0.0.1:2380 \
  --initial-cluster=ctrldiag=http://127.0.0.1:2380 --unsafe-no-fsync --log-level=warn
wait_for "etcd" 30 curl -sf http://127.0.0.1:2379/health

# --- kube-apiserver ----------------------------------------------------------------------------
cp "$here/audit-policy.yaml" "$run/audit-policy.yaml"
start kube-apiserver "$bin/kube-apiserver" \
  --etcd-servers=http://127.0.0.1:2379 \
  --bind-address="$node_ip" --advertise-address="$node_ip" --secure-port=6443 \
  --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
  --client-ca-file="$pki/ca.crt" \
  --kubelet-client-certificate="$pki/apiserver-kubelet-client.crt" \
  --kubelet-client-key="$pki/apiserver-kubelet-client.key" \
  --authorization-mode=Node,RBAC \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
  --service-cluster-ip-range=198.18.64.0/24 \
  --audit-policy-file="$run/audit-policy.yaml" --audit-log-path="$run/logs/audit.log" \
  --audit-log-maxsize=200 --audit-log-maxbackup=1 \
  --enable-priority-and-fairness=true --profiling=false
export KUBECONFIG="$run/admin.kubeconfig"
wait_for "kube-apiserver /readyz" 60 kubectl get --raw=/readyz

# --- objects the rest needs ----------------------------------------------------------------------
kubectl apply -f "$here/manifests/" >/dev/null
sed "s/@NODE_IP@/$node_ip/g" "$here/node.yaml" | kubectl apply -f - >/dev/null

# --- kube-controller-manager ----------------------------------------------------------------------
# Through crilog, which also writes its output in the CRI log format, as a kubelet does: the
# kwok Logs object of its pod (below) serves that file to `kubectl logs` and to report.
mkdir -p "$run/bin"
(cd "$root" && go build -o "$run/bin/crilog" ./hack/crilog)
: >"$run/logs/kube-controller-manager.cri.log"
start kube-controller-manager "$run/bin/crilog" "$run/logs/kube-controller-manager.cri.log" -- "$bin/kube-controller-manager" \
  --kubeconfig="$run/controller-manager.kubeconfig" \
  --authentication-kubeconfig="$run/controller-manager.kubeconfig" \
  --authorization-kubeconfig="$run/controller-manager.kubeconfig" \
  --authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics \
  --bind-address="$node_ip" --secure-port=10257 --cert-dir="$run/pki/controller-manager-serving" \
  --leader-elect=true --controllers='*' --use-service-account-credentials=true \
  --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
  --cluster-signing-cert-file="$pki/ca.crt" --cluster-signing-key-file="$pki/ca.key"

# --- kube-scheduler: so that pods of Deployments land on the kwok node ---------------------------
start kube-scheduler "$bin/kube-scheduler" \
  --kubeconfig="$run/scheduler.kubeconfig" \
  --authentication-kubeconfig="$run/scheduler.kubeconfig" \
  --authorization-kubeconfig="$run/scheduler.kubeconfig" \
  --bind-address="$node_ip" --secure-port=10259 --leader-elect=true

# --- kwok: the fake kubelet of node ctrldiag-node ------------------------------------------------
start_kwok "$node_ip" "$pod_cidr"

wait_for "node $NODE_NAME Ready" 60 sh -c \
  "kubectl get node $NODE_NAME -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True"
wait_for "the default ServiceAccount" 60 kubectl -n default get serviceaccount default

# kube-controller-manager shown the way kubeadm clusters show it: a host-network pod in
# kube-system whose IP is the node's, so its real /metrics is reachable through the pod.
sed "s/@NODE_NAME@/$NODE_NAME/g; s/@NODE_IP@/$node_ip/g; s|@RUN@|$run|g" "$here/kube-controller-manager-pod.yaml" |
  kubectl apply -f - >/dev/null
wait_for "pod kube-system/kube-controller-manager-$NODE_NAME Ready" 60 sh -c \
  "kubectl -n kube-system get pod kube-controller-manager-$NODE_NAME -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True"

cat > "$run/env.sh" <<EOF
# Written by hack/cluster/up.sh: source it to use the local cluster.
export KUBECONFIG=$run/admin.kubeconfig
export CTRLDIAG_CLUSTER_RUN=$run
export CTRLDIAG_CLUSTER_NET=$mode
export CTRLDIAG_NODE_IP=$node_ip
export CTRLDIAG_NETNS=$( [ "$mode" = netns ] && echo "$NETNS" )
EOF
log "up in $(( $(date +%s) - started ))s (network: $mode). Use: export KUBECONFIG=$run/admin.kubeconfig"
