package collect

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

var _ source.Rediscoverer = (*Pages)(nil)

// Rediscovers reports whether Rediscover can find anything new: the source was opened and
// found its targets by discovery. TARGET arguments and URLs were named, and stay as they are.
func (p *Pages) Rediscovers() bool {
	return p.inv != nil && p.k != nil && p.conn != nil && len(p.cfg.Discover.Explicit) == 0
}

// Rediscover finds the cluster's targets again, for a live view whose pods come and go (a
// rollout replaces them): the same LISTs as Open's discovery, with the permissions Open
// learnt, and access reviews only for namespaces not seen before. Targets that appeared are
// read from now on; targets gone are no longer read and the kept port-forwards of their pods
// are closed, while those of the pods still there are kept for reuse. A pod read before that
// is still running but no longer ready stays a target: it exists, and its failures are worth
// a row. The URL targets stay as they are. When Rediscovers is false it returns the
// inventory unchanged.
func (p *Pages) Rediscover(ctx context.Context) (*source.Inventory, error) {
	if !p.Rediscovers() {
		return p.inv, nil
	}
	res, err := discover.Discover(ctx, p.k.Client, p.disc)
	if err != nil {
		return nil, err
	}
	inv := &source.Inventory{Targets: res.Targets, Skipped: res.Skipped, Pods: res.Pods, Warnings: res.Warnings, Cluster: p.inv.Cluster,
		WatchEnv: p.inv.WatchEnv}
	inv.Targets = append(inv.Targets, stillThere(p.inv, res)...)
	pages, err := p.clusterSources(ctx, p.k, inv)
	if err != nil {
		return nil, err
	}
	inv.Targets = append(append([]target.Target(nil), p.inv.Targets[:p.ndirect]...), inv.Targets...)
	p.pages = append(append([]scrape.Source(nil), p.pages[:p.ndirect]...), pages...)
	pods := map[string]bool{}
	for _, t := range inv.Targets {
		if t.Kind == target.KindPod {
			pods[t.ID()] = true
		}
	}
	p.forward.Retain(pods)
	p.inv = inv
	return inv, nil
}

// stillThere are the pod targets of old that res did not find again although their pod is
// still listed, running and not being deleted (it is only not ready now).
func stillThere(old *source.Inventory, res discover.Result) []target.Target {
	found := map[string]bool{}
	for _, t := range res.Targets {
		found[t.ID()] = true
	}
	var out []target.Target
	check := func(t target.Target) {
		if t.Kind != target.KindPod || found[t.ID()] {
			return
		}
		pod := res.Pods[t.Namespace+"/"+t.Name]
		if pod != nil && pod.DeletionTimestamp == nil && pod.Status.Phase == corev1.PodRunning {
			found[t.ID()] = true
			out = append(out, t)
		}
	}
	for _, t := range old.Targets {
		check(t)
	}
	for _, r := range old.Unreadable {
		check(r.Target)
	}
	return out
}
