# Pinned versions of the local control plane. Changing one rebuilds the binaries.
# K8S_VERSION must match hack/cluster/tools/go.mod; ETCD_VERSION hack/cluster/etcd/go.mod.
K8S_VERSION=v1.36.3
ETCD_VERSION=v3.6.5
KWOK_VERSION=v0.8.0
