#!/usr/bin/env bash
# Stops the local control plane started by up.sh and every process started behind a pod, by the
# pids recorded in .cache/cluster/run/pids, removes the network namespace and veth pair, and
# deletes the state folder. Safe to run when nothing is up.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
run="$root/.cache/cluster/run"
# shellcheck source=lib.sh
. "$here/lib.sh"

pids=()
for f in "$run"/pids/*; do
  [ -e "$f" ] || continue
  p=$(cat "$f")
  kill -0 "$p" 2>/dev/null && { kill -TERM "$p" 2>/dev/null; pids+=("$p"); }
done
for _ in $(seq 1 40); do
  alive=0
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
  [ "$alive" = 0 ] && break
  sleep 0.25
done
for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null; done

if [ "$(cat "$run/net-mode" 2>/dev/null)" = netns ] || ip netns list 2>/dev/null | grep -qw "$NETNS"; then
  ip link del "$VETH_HOST" 2>/dev/null
  ip netns del "$NETNS" 2>/dev/null
fi
rm -rf "$run"
log "down"
