#!/usr/bin/env bash
# Allocates an address for a process that will stand behind a pod and prints it. As root (the
# "netns" network mode) the address is added to the cluster's network namespace, where the
# process must run (`ip netns exec ctrldiag ...`) and listen; the pod gets the address through
# the annotation ctrldiag.dev/pod-ip. In "loopback" mode it prints 127.0.0.1: port-forward only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
run="$root/.cache/cluster/run"
# shellcheck source=lib.sh
. "$here/lib.sh"
[ -f "$run/net-mode" ] || die "the local cluster is not up: run make cluster"
if [ "$(cat "$run/net-mode")" != netns ]; then echo 127.0.0.1; exit 0; fi
exec 9>"$run/pod-ip.lock"
flock 9
n=$(cat "$run/pod-ip.next" 2>/dev/null || echo 10)
[ "$n" -lt 65000 ] || die "out of pod addresses"
echo $((n + 1)) > "$run/pod-ip.next"
ip="198.18.$((1 + n / 250)).$((n % 250 + 2))"
ip netns exec "$NETNS" ip addr add "$ip/32" dev "$VETH_NS"
echo "$ip"
