// Package clustertools pins the Kubernetes control-plane binaries (kube-apiserver,
// kube-controller-manager) and etcd that hack/cluster builds for the local test cluster.
// It exists only so that `go build` resolves those commands at fixed versions; nothing
// here is part of kubectl-ctrldiag itself.
package clustertools
