package model

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// LeaseHolders lists the Leases (coordination.k8s.io) of each namespace, in pages, and returns
// their holders. It is best effort: a namespace whose Leases may not be listed, or any other
// error, gives no holders and no error, since the leader is then only unknown.
func LeaseHolders(ctx context.Context, client kubernetes.Interface, namespaces []string) []Holder {
	var out []Holder
	for _, ns := range namespaces {
		opts := metav1.ListOptions{Limit: 500}
		for {
			list, err := client.CoordinationV1().Leases(ns).List(ctx, opts)
			if err != nil {
				break
			}
			for _, l := range list.Items {
				if l.Spec.HolderIdentity != nil && *l.Spec.HolderIdentity != "" {
					out = append(out, Holder{Namespace: l.Namespace, Lease: l.Name, Identity: *l.Spec.HolderIdentity})
				}
			}
			if list.Continue == "" {
				break
			}
			opts.Continue = list.Continue
		}
	}
	return out
}

// UnsureLeader returns the namespaces of the replicas that belong to a workload of two or more
// replicas none of whose metrics say it leads: only those need the Leases.
func UnsureLeader(reps []Replica) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range Elections(reps, nil) {
		if len(e.Replicas) >= 2 && e.Claims == 0 && !seen[e.Namespace] {
			seen[e.Namespace] = true
			out = append(out, e.Namespace)
		}
	}
	return out
}
