package promsource

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// ClusterOfNow says whether the sections that need the cluster itself (pods, objects, Leases,
// generation lag, the metrics API's usage) may be read from the current kubeconfig's cluster
// beside series read from a server: "" when they may, otherwise why not, in one line. They may
// when the window ends now, or less than one window ago (a pod's restarts and last termination
// are the cluster's now, so they sit beside the window only when the window is now), and the
// targets are in one cluster (one value of the cluster label, or none). Whether that cluster is
// the kubeconfig's is told afterwards by the pods the series name: see PodsOfNow.
func ClusterOfNow(at, now time.Time, window time.Duration, targets []target.Target, clusterLabel string) string {
	if ago := now.Sub(at); ago > window {
		return fmt.Sprintf("the report is about %s, %s ago, and the cluster can only be read as it is now",
			at.UTC().Format(time.RFC3339), ago.Round(time.Second))
	}
	clusters := map[string]bool{}
	for _, t := range targets {
		if t.Cluster != "" {
			clusters[t.Cluster] = true
		}
	}
	if len(clusters) > 1 {
		names := make([]string, 0, len(clusters))
		for c := range clusters {
			names = append(names, c)
		}
		sort.Strings(names)
		return fmt.Sprintf("the series span %d clusters (%s=%s) and the kubeconfig points at one: narrow with --clusters to the kubeconfig's cluster",
			len(names), clusterLabel, joinShort(names, 3))
	}
	return ""
}

// PodsOfNow says whether the kubeconfig's cluster is the one whose series were read, from the
// pods the series name ("namespace/pod") and those of them found in that cluster: "" when at
// least one was found (pod names carry their ReplicaSet's and their own random suffixes, so
// one found by name is the same pod), otherwise why not, in one line.
func PodsOfNow(named []string, found map[string]bool, context string) string {
	if len(named) == 0 {
		return "the series name no pods (no namespace and pod labels)"
	}
	for _, p := range named {
		if found[p] {
			return ""
		}
	}
	return fmt.Sprintf("none of the %d pods the series name (%s) is in the kubeconfig's cluster%s: it is not the cluster read, or they are gone",
		len(named), joinShort(named, 3), context)
}

// joinShort joins up to n names and says how many more there are.
func joinShort(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}
