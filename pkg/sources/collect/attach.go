package collect

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// WithCluster is a source whose targets are read elsewhere (a Prometheus server), with the
// kubeconfig's cluster added for what only the cluster holds (the pods behind the targets,
// the objects, the Leases, generation lag, the metrics API's usage) when that cluster is the
// one read, as the cluster source gives them. Reading the cluster is best effort: no
// kubeconfig, an API server out of reach or a refused list leave those sections absent, with
// why, and the targets' reading stands.
type WithCluster struct {
	Inner source.Source
	// Kube connects to the cluster; called only when Absent finds nothing against it.
	Kube func() (*Kube, error)
	// Absent says why the cluster cannot be the one the targets were read from ("" when it
	// may be; the pods the targets name then decide, see Pods).
	Absent func(targets []target.Target) string
	// Pods decides from the pods the targets name ("namespace/pod") and those found in the
	// cluster whether it is the one read: "" when it is, otherwise why not.
	Pods func(named []string, found map[string]bool, where string) string
	// Now is the time the cluster is read (for ClusterRead).
	Now func() time.Time

	// pods are the pods Open found behind the targets, by "namespace/pod"; nil when the
	// cluster was not read.
	pods map[string]*corev1.Pod
	// watchEnv is what the pods' WATCH_NAMESPACE(S) resolved to (see source.Inventory).
	watchEnv map[string]map[string]*knobs.WatchEnv
}

var _ source.Source = (*WithCluster)(nil)

// Prefetch lets the inner source begin reading, when it can (source.Prefetcher).
func (w *WithCluster) Prefetch(ctx context.Context, o source.Options) {
	if pf, ok := w.Inner.(source.Prefetcher); ok {
		pf.Prefetch(ctx, o)
	}
}

// Open opens the inner source and adds the cluster when it is the one read.
func (w *WithCluster) Open(ctx context.Context) (*source.Inventory, error) {
	inv, err := w.Inner.Open(ctx)
	if err != nil || inv.Cluster != nil || inv.ClusterAbsent != "" || inv.ClusterRead != "" {
		return inv, err
	}
	if why := w.Absent(inv.Targets); why != "" {
		inv.ClusterAbsent = why
		return inv, nil
	}
	k, err := w.Kube()
	if err != nil {
		inv.ClusterAbsent = "no cluster to read: " + err.Error()
		return inv, nil
	}
	named := namedPods(inv.Targets)
	pods, why := listPods(ctx, k, named)
	if why == "" {
		found := map[string]bool{}
		for key := range pods {
			found[key] = true
		}
		why = w.Pods(named, found, " ("+k.Config.Host+")")
	}
	if why != "" {
		inv.ClusterAbsent = why
		return inv, nil
	}
	for _, key := range named {
		if pods[key] == nil {
			inv.Warnings = append(inv.Warnings, fmt.Sprintf("pod %s, named by the series, is not in the cluster now (gone or replaced)", key))
		}
	}
	inv.Pods, w.pods = pods, pods
	inv.WatchEnv = watchEnvs(ctx, k.Client, pods)
	w.watchEnv = inv.WatchEnv
	inv.Cluster = &cluster{kube: k}
	inv.ClusterRead = fmt.Sprintf("the kubeconfig's cluster (%s) as it was at %s", k.Config.Host, w.Now().UTC().Format(time.RFC3339))
	return inv, nil
}

// Read reads the inner source and gives each target the pod behind it, when found.
func (w *WithCluster) Read(ctx context.Context, o source.Options) []source.Result {
	results := w.Inner.Read(ctx, o)
	for i := range results {
		t := results[i].Target
		if results[i].Pod == nil && t.Namespace != "" && t.Name != "" {
			results[i].Pod = w.pods[t.Namespace+"/"+t.Name]
			results[i].WatchEnv = w.watchEnv[t.Namespace+"/"+t.Name]
		}
	}
	return results
}

// namedPods are the "namespace/pod" the targets name, sorted.
func namedPods(ts []target.Target) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if t.Namespace == "" || t.Name == "" || (t.Kind != target.KindSeries && t.Kind != target.KindPod) {
			continue
		}
		if key := t.Namespace + "/" + t.Name; !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
	}
	sort.Strings(out)
	return out
}

// listPods lists the pods of the namespaces of named, once per namespace, and keeps the named
// ones; a list that fails gives why, in one line.
func listPods(ctx context.Context, k *Kube, named []string) (map[string]*corev1.Pod, string) {
	want := map[string]bool{}
	var namespaces []string
	for _, key := range named {
		want[key] = true
		ns, _, _ := strings.Cut(key, "/")
		if len(namespaces) == 0 || namespaces[len(namespaces)-1] != ns {
			namespaces = append(namespaces, ns)
		}
	}
	pods := map[string]*corev1.Pod{}
	for _, ns := range namespaces {
		opts := metav1.ListOptions{Limit: 500}
		for {
			list, err := k.Client.CoreV1().Pods(ns).List(ctx, opts)
			if apierrors.IsForbidden(err) {
				return nil, fmt.Sprintf("you may not list pods in namespace %s of the kubeconfig's cluster", ns)
			}
			if err != nil {
				return nil, "the kubeconfig's cluster could not be read: " + unreachable(k, err).Error()
			}
			for i := range list.Items {
				p := &list.Items[i]
				if key := p.Namespace + "/" + p.Name; want[key] {
					pods[key] = p
				}
			}
			if list.Continue == "" {
				break
			}
			opts.Continue = list.Continue
		}
	}
	return pods, ""
}
