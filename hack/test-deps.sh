#!/usr/bin/env bash
# The one list of system packages the tests use, and the check that they are there. `make test`
# and `make e2e` run it first, so a missing package costs seconds, not a control-plane build.
#
#   hack/test-deps.sh             as root: install what is missing with apt-get (lists updated
#                                 once); otherwise: name what to install and fail
#   hack/test-deps.sh --check     never install; name what is missing and fail
#   hack/test-deps.sh --markdown  the list as docs/testing.md's "What they need" shows it
#
# Go and kubectl are not Debian packages here: they are checked and named, never installed.
set -euo pipefail

# command|package|what the tests use it for
deps=(
  "ip|iproute2|the network namespace that gives pods reachable IPs (ip), busy-port checks (ss)"
  "openssl|openssl|the control plane's certificates"
  "curl|curl|health checks of the control-plane components"
  "flock|util-linux|one control-plane build at a time"
  "make|make|the Makefile targets"
  "chromium|chromium|opening the html report in a real browser"
  "prometheus|prometheus|a real Prometheus server that --prometheus reads (pkg/sources/promsource, pkg/cmd, test/e2e)"
  "promtool|prometheus|checking and unit-testing the rules of kubectl ctrldiag rules, and backfilling the history top starts with (promtool)"
  "victoria-metrics|victoria-metrics|a second, different server of the Prometheus API (single-node VictoriaMetrics) that --prometheus reads (pkg/sources/promsource, test/e2e)"
  "tmux|tmux|driving kubectl ctrldiag top in a real terminal (test)"
)

mode=${1:-install}
case "$mode" in
  install|--check|--markdown) ;;
  *) echo "usage: hack/test-deps.sh [--check|--markdown]" >&2; exit 2 ;;
esac

if [ "$mode" = --markdown ]; then
  for d in "${deps[@]}"; do
    IFS='|' read -r cmd pkg why <<<"$d"
    echo "- \`$pkg\` (\`$cmd\`): $why"
  done
  exit 0
fi

missing=()
for d in "${deps[@]}"; do
  IFS='|' read -r cmd pkg _ <<<"$d"
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
done

tools=()
command -v go >/dev/null 2>&1 || [ -x /usr/local/go/bin/go ] ||
  tools+=("Go 1.26 (https://go.dev/dl/, unpacked into /usr/local/go)")
command -v kubectl >/dev/null 2>&1 ||
  tools+=("kubectl (https://kubernetes.io/docs/tasks/tools/)")

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$mode" = install ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test-deps: installing ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    missing=()
  else
    echo "test-deps: the tests need these packages, which are missing: ${missing[*]}" >&2
    echo "test-deps: install them first, as root: apt-get install -y ${missing[*]}" >&2
  fi
fi
for t in "${tools[@]}"; do
  echo "test-deps: the tests need $t, which is not on PATH" >&2
done
[ ${#missing[@]} -eq 0 ] && [ ${#tools[@]} -eq 0 ]
