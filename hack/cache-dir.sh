#!/usr/bin/env bash
# Prints the folder that keeps the pinned binaries the tests build (the control plane, Thanos)
# across checkouts, as Go's build cache does: $CTRLDIAG_CACHE if set, else
# $XDG_CACHE_HOME/kubectl-ctrldiag, else ~/.cache/kubectl-ctrldiag. Each binary sits under a key
# that hashes its pins, build tags and the Go version, so clones never share a wrong one.
# `make clean-cache` removes the folder.
set -euo pipefail
if [ -n "${CTRLDIAG_CACHE:-}" ]; then
  echo "$CTRLDIAG_CACHE"
elif [ -n "${XDG_CACHE_HOME:-}" ]; then
  echo "$XDG_CACHE_HOME/kubectl-ctrldiag"
else
  echo "${HOME:?HOME is not set; set CTRLDIAG_CACHE}/.cache/kubectl-ctrldiag"
fi
