#!/usr/bin/env bash
# Runs a local process behind a pod of the local cluster, for demos and by hand:
#   [MEMORY_LIMIT=150Mi] [IMAGE=REF] [ARGS=auto|JSON-ARRAY] \
#     behind-pod.sh NAMESPACE NAME PORT[/PORTNAME] [...] -- COMMAND [ARGS...]
# "{IP}" in COMMAND and ARGS becomes the pod's IP, which the process must listen on. The pod
# (label app=NAME) becomes Ready on the kwok node with that IP; a kwok PortForward sends
# `kubectl port-forward` to the process. The process runs in the cluster's network namespace
# (as root) with KUBECONFIG pointing at the admin kubeconfig, logs to
# .cache/cluster/run/logs/pod-NAMESPACE-NAME.log and, in the CRI log format that a kwok Logs
# object serves to `kubectl logs`, to pod-NAMESPACE-NAME.cri.log there (through hack/crilog), and
# is stopped by down.sh (its pid is kept).
# The pod's container has image ctrldiag.dev/behind-pod:local and no args, unless IMAGE names
# another image (a third-party controller's real one, e.g. ghcr.io/fluxcd/source-controller:v1.9.6,
# by which the plugin recognises it) and ARGS gives the container's args: "auto" for the
# process's own ARGS after COMMAND ("{IP}" replaced), or a JSON array of strings.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
run="$root/.cache/cluster/run"
# shellcheck source=lib.sh
. "$here/lib.sh"
[ $# -ge 4 ] || die "usage: behind-pod.sh NAMESPACE NAME PORT[/PORTNAME]... -- COMMAND [ARGS...]"
ns=$1 name=$2; shift 2
ports=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do ports+=("$1"); shift; done
[ "${1:-}" = -- ] || die "missing -- before the command"
shift
[ -f "$run/env.sh" ] || die "the local cluster is not up: run make cluster"
. "$run/env.sh"

ip=$("$here/pod-ip.sh")
cport='' fwd=''
for p in "${ports[@]}"; do
  num=${p%%/*} pname=''
  [ "$p" != "$num" ] && pname=${p#*/}
  cport+="{\"containerPort\":$num${pname:+,\"name\":\"$pname\"}},"
  fwd+="{\"ports\":[$num],\"target\":{\"address\":\"$ip\",\"port\":$num}},"
done
resources=''
[ -n "${MEMORY_LIMIT:-}" ] && resources=",\"resources\":{\"limits\":{\"memory\":\"$MEMORY_LIMIT\"}}"
args=()
for a in "$@"; do args+=("${a//\{IP\}/$ip}"); done
image=${IMAGE:-ctrldiag.dev/behind-pod:local}
cargs=''
case ${ARGS:-} in
  '') ;;
  auto) cargs=",\"args\":$(jq -nc '$ARGS.positional' --args -- "${args[@]:1}")" ;;
  *) cargs=",\"args\":$(jq -ce 'if type == "array" and all(type == "string") then . else error("ARGS: not an array of strings") end' <<<"$ARGS")" \
       || die "ARGS must be auto or a JSON array of strings" ;;
esac

kubectl create namespace "$ns" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl apply -f - >/dev/null <<JSON
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"$name","namespace":"$ns","labels":{"app":"$name"},
 "annotations":{"ctrldiag.dev/pod-ip":"$ip"}},
 "spec":{"nodeName":"$NODE_NAME","terminationGracePeriodSeconds":0,
  "containers":[{"name":"main","image":"$image"$cargs,"ports":[${cport%,}]$resources}]}}
JSON
kubectl apply -f - >/dev/null <<JSON
{"apiVersion":"kwok.x-k8s.io/v1alpha1","kind":"PortForward","metadata":{"name":"$name","namespace":"$ns"},
 "spec":{"forwards":[${fwd%,}]}}
JSON
cri_file="$run/logs/pod-$ns-$name.cri.log"
kubectl apply -f - >/dev/null <<JSON
{"apiVersion":"kwok.x-k8s.io/v1alpha1","kind":"Logs","metadata":{"name":"$name","namespace":"$ns"},
 "spec":{"logs":[{"containers":["main"],"logsFile":"$cri_file","follow":true}]}}
JSON

log_file="$run/logs/pod-$ns-$name.log"
mkdir -p "$run/bin"
(cd "$root" && go build -o "$run/bin/crilog" ./hack/crilog)
: >"$cri_file"
if [ -n "${CTRLDIAG_NETNS:-}" ]; then
  nohup "$run/bin/crilog" "$cri_file" -- ip netns exec "$CTRLDIAG_NETNS" "${args[@]}" >"$log_file" 2>&1 </dev/null &
else
  nohup "$run/bin/crilog" "$cri_file" -- "${args[@]}" >"$log_file" 2>&1 </dev/null &
fi
echo $! > "$run/pids/pod-$ns-$name"
wait_for "pod $ns/$name Ready" 60 sh -c \
  "kubectl -n $ns get pod $name -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True"
first=${ports[0]%%/*}
wait_for "the process to listen on $ip:$first" 60 bash -c "exec 3<>/dev/tcp/$ip/$first"
log "pod $ns/$name ($ip) stands for pid $(cat "$run/pids/pod-$ns-$name"); log: $log_file"
