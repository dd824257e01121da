# Shared names and helpers of the hack/cluster scripts (sourced, not run).
# Callers set $here (this folder) and $run (the state folder).

NETNS=ctrldiag            # network namespace that holds the pod IPs
VETH_HOST=ctrldiag0       # host end of the veth pair
VETH_NS=ctrldiag1         # namespace end
NODE_IP=198.18.0.1        # host end: the node, API server, kube-controller-manager, kwok
NS_IP=198.18.0.2          # namespace end
NODE_NAME=ctrldiag-node   # the kwok node

log() { echo "cluster: $*" >&2; }
die() { echo "cluster: error: $*" >&2; exit 1; }

# start NAME CMD...: runs CMD in the background with its output in logs/NAME.log and its pid in
# pids/NAME, detached from the caller's terminal and in a session of its own, so that it
# outlives this script and whatever started it: a shell or CI step that ends by signalling its
# process group (a cancelled job, a closed terminal) must not take the cluster with it while
# another run still uses it. down.sh stops it by its pid.
start() {
  local name=$1; shift
  # 8>&-: a long-lived process must not hold up.sh's start lock (fd 8) after up.sh ends.
  # setsid execs CMD (the background child is no process group leader), so $! is CMD's pid.
  setsid nohup "$@" >"$run/logs/$name.log" 2>&1 </dev/null 8>&- &
  echo $! >"$run/pids/$name"
}

# wait_for WHAT SECONDS CMD...: retries CMD every 0.25 s until it succeeds or SECONDS pass;
# on time-out shows the end of every component's log and fails.
wait_for() {
  local what=$1 secs=$2; shift 2
  local deadline=$(( $(date +%s) + secs ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      for f in "$run"/logs/*.log; do
        [ "$(basename "$f")" = audit.log ] && continue
        echo "--- tail of $f" >&2; tail -n 15 "$f" >&2
      done
      die "timed out after ${secs}s waiting for $what"
    fi
    for f in "$run"/pids/*; do
      [ -e "$f" ] || continue
      kill -0 "$(cat "$f")" 2>/dev/null || { tail -n 30 "$run/logs/$(basename "$f").log" >&2; die "$(basename "$f") exited while waiting for $what"; }
    done
    sleep 0.25
  done
}

# cluster_healthy: every component of the cluster in $run is alive and the API server is ready.
cluster_healthy() {
  [ -f "$run/env.sh" ] || return 1
  local p
  for p in etcd kube-apiserver kube-controller-manager kube-scheduler kwok; do
    [ -f "$run/pids/$p" ] && kill -0 "$(cat "$run/pids/$p")" 2>/dev/null || return 1
  done
  KUBECONFIG="$run/admin.kubeconfig" kubectl get --raw=/readyz >/dev/null 2>&1
}
