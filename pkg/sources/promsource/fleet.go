package promsource

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// clustersOf lists the distinct clusters of the targets, sorted ("" for targets without the
// cluster label).
func clustersOf(ts []target.Target) []string {
	set := map[string]bool{}
	for _, t := range ts {
		set[t.Cluster] = true
	}
	return sortedKeys(set)
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// clusterWarnings says which clusters asked for hold no controller series, and which targets
// of a fleet lack the cluster label, so that a missing cluster is never silent. A missing
// cluster's warning says, as the error of a fleet with none does, when data coarser than asked
// for may hold it (a cluster whose finer data was deleted sooner than the others').
func (s *Source) clusterWarnings(ctx context.Context) []string {
	var out []string
	found := map[string]bool{}
	unlabelled := 0
	for _, t := range s.targets {
		found[t.Cluster] = true
		if t.Cluster == "" {
			unlabelled++
		}
	}
	for _, c := range s.cfg.Clusters {
		if !found[c] {
			out = append(out, fmt.Sprintf("cluster %s: Prometheus at %s holds no controller series with %s=%q at %s: the other clusters are reported%s",
				c, s.cfg.Client.Name(), s.cfg.ClusterLabel, c, s.cfg.At.UTC().Format(time.RFC3339), s.coarserHint(ctx, s.cfg.MaxSourceResolution)))
		}
	}
	if unlabelled > 0 && len(found) > 1 {
		out = append(out, fmt.Sprintf("%d of %s %s no %s label (--cluster-label): %s listed without a cluster",
			unlabelled, printable.Plural(len(s.targets), "target"), printable.PluralVerb(unlabelled, "have"), s.cfg.ClusterLabel, map[bool]string{true: "it is", false: "they are"}[unlabelled == 1]))
	}
	return out
}

// readByCluster reads every cluster on its own, after the reading of the whole fleet failed
// with fleetErr: a cluster whose queries fail has its targets fail with the error, the others
// are read. It costs the usual queries once per cluster.
func (s *Source) readByCluster(ctx context.Context, o source.Options, fleetErr error) ([]source.Result, []string) {
	clusters := clustersOf(s.targets)
	notes := []string{fmt.Sprintf("the queries over the %s failed (%v): read cluster by cluster", printable.Plural(len(clusters), "cluster"), fleetErr)}
	var out []source.Result
	for _, c := range clusters {
		var ts []target.Target
		jobs := map[string]bool{}
		for _, t := range s.targets {
			if t.Cluster == c {
				ts = append(ts, t)
				jobs[t.Job] = true
			}
		}
		sel := s.sel
		sel.clusters = []string{c}
		rs, ns, err := s.read(ctx, o, scope{sel: sel, targets: ts, jobs: sortedKeys(jobs)})
		if late := s.late(ctx, err, ts); late != nil {
			err = late
		}
		if err != nil {
			rs = make([]source.Result, len(ts))
			for i, t := range ts {
				rs[i] = source.Result{Target: t, Err: fmt.Errorf("cluster %s: %w", clusterName(c), err)}
			}
		}
		notes = append(notes, ns...)
		out = append(out, rs...)
	}
	return out, dedupe(notes)
}

// clusterName shows a cluster, "-" for targets without the label.
func clusterName(c string) string {
	if c == "" {
		return "-"
	}
	return c
}
