package promsource

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// MinHistoryStep is the shortest step of a history: the usual scrape interval. A shorter one
// would show the same scrape several times.
const MinHistoryStep = 15 * time.Second

// minRateRange is the shortest range of the adds/s rate: four scrapes at the usual interval,
// so that a missed scrape does not leave a point without a rate.
const minRateRange = time.Minute

// History asks a server for the recent depth and adds/s of the queues of live targets, so
// that a live view starts with them. It asks two range queries whatever the number of targets.
type History struct {
	Client *Client
	// ClusterLabel names the label that tells clusters apart; Clusters, when set, narrows to
	// those values. Namespace narrows to one namespace ("" for all).
	ClusterLabel string
	Clusters     []string
	Namespace    string
	// Step is the time between two points; Points how many points, the last a step before
	// the end asked for.
	Step   time.Duration
	Points int
}

// RateRange is the range of the adds/s rate at each point: two steps, and at least a minute.
func (h History) RateRange() time.Duration { return max(2*h.Step, minRateRange) }

// Read asks for the history of targets' queues before end (the live view's first point). Only pods (by namespace and pod
// labels) and URLs (by the instance label, host:port) can be matched to series; a target
// whose queues are series of several clusters is left out with a warning (narrow it with
// Clusters).
func (h History) Read(ctx context.Context, targets []target.Target, end time.Time) ([]health.QueueHistory, []string, error) {
	sel := h.selectors(targets)
	if len(sel) == 0 || h.Points <= 0 || h.Step <= 0 {
		return nil, nil, nil
	}
	// The last point is a step before end: end is the live view's first point.
	start, last := end.Add(-time.Duration(h.Points)*h.Step), end.Add(-h.Step)
	by := "max by (" + strings.Join([]string{h.clusterLabel(), "namespace", "pod", "instance", "name"}, ", ") + ") "
	var depthQ, addsQ []string
	for _, m := range sel {
		depthQ = append(depthQ, by+"(workqueue_depth{"+m+"})")
		addsQ = append(addsQ, by+"(rate(workqueue_adds_total{"+m+"}["+promDuration(h.RateRange().Milliseconds())+"]))")
	}
	depth, err := h.Client.QueryRange(ctx, strings.Join(depthQ, " or "), start, last, h.Step)
	if err != nil {
		return nil, nil, err
	}
	adds, err := h.Client.QueryRange(ctx, strings.Join(addsQ, " or "), start, last, h.Step)
	if err != nil {
		return nil, nil, err
	}
	g := grid{start: start, step: h.Step, n: h.Points}
	out, notes := matchHistory(targets, h.clusterLabel(), g, depth.Series, adds.Series)
	return out, append(dedupe(append(warnings(depth), warnings(adds)...)), notes...), nil
}

func (h History) clusterLabel() string {
	if h.ClusterLabel == "" {
		return "cluster"
	}
	return h.ClusterLabel
}

// selectors are the label matchers of the series of targets: one for the pods, one for the
// URLs (a series is one or the other).
func (h History) selectors(targets []target.Target) []string {
	var pods, namespaces, instances []string
	for _, t := range targets {
		switch t.Kind {
		case target.KindPod:
			pods, namespaces = append(pods, t.Name), append(namespaces, t.Namespace)
		case target.KindURL:
			if in := instanceOf(t); in != "" {
				instances = append(instances, in)
			}
		}
	}
	s := selector{clusterLabel: h.clusterLabel(), clusters: h.Clusters, namespace: h.Namespace}
	var out []string
	if len(pods) > 0 {
		out = append(out, s.matchers(`namespace=~`+quote(alternation(unique(namespaces))), `pod=~`+quote(alternation(unique(pods)))))
	}
	if len(instances) > 0 {
		out = append(out, s.matchers(`instance=~`+quote(alternation(unique(instances)))))
	}
	return out
}

// instanceOf is the instance label a server scraping URL target t gives it: host:port, the
// port the scheme's when the URL has none.
func instanceOf(t target.Target) string {
	u, err := url.Parse(t.Name)
	if err != nil || u.Host == "" {
		return ""
	}
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

func unique(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// grid is the times of a history's points: start, then every step, n of them.
type grid struct {
	start time.Time
	step  time.Duration
	n     int
}

// fill puts points on the grid (into dst, NaN where none falls); a point belongs to the
// nearest time of the grid. Several series of one queue (a pod's instances over time) fill
// each other's gaps, the highest value winning where they overlap.
func (g grid) fill(dst []float64, points []Point) []float64 {
	if dst == nil {
		dst = make([]float64, g.n)
		for i := range dst {
			dst[i] = math.NaN()
		}
	}
	for _, p := range points {
		i := int(math.Round(float64(p.T.Sub(g.start)) / float64(g.step)))
		if i < 0 || i >= g.n || math.IsNaN(p.V) {
			continue
		}
		if math.IsNaN(dst[i]) || p.V > dst[i] {
			dst[i] = p.V
		}
	}
	return dst
}

// matchHistory gives each target's queues their points: a pod's are the series with its
// namespace and pod labels, a URL's those with its instance. Queues whose series come from
// several clusters are left out, with a note.
func matchHistory(targets []target.Target, clusterLabel string, g grid, depth, adds []Series) ([]health.QueueHistory, []string) {
	type key struct{ target, queue string }
	byPod, byInstance := map[[2]string]string{}, map[string]string{}
	for _, t := range targets {
		switch t.Kind {
		case target.KindPod:
			byPod[[2]string{t.Namespace, t.Name}] = t.ID()
		case target.KindURL:
			if in := instanceOf(t); in != "" {
				byInstance[in] = t.ID()
			}
		}
	}
	idOf := func(l map[string]string) string {
		if id, ok := byPod[[2]string{l["namespace"], l["pod"]}]; ok && l["pod"] != "" {
			return id
		}
		return byInstance[l["instance"]]
	}
	hist := map[key]*health.QueueHistory{}
	clusters := map[key]map[string]bool{}
	add := func(series []Series, adds bool) {
		for _, s := range series {
			id, q := idOf(s.Labels), s.Labels["name"]
			if id == "" || q == "" {
				continue
			}
			k := key{id, q}
			qh := hist[k]
			if qh == nil {
				qh = &health.QueueHistory{Target: id, Queue: q}
				hist[k], clusters[k] = qh, map[string]bool{}
			}
			clusters[k][s.Labels[clusterLabel]] = true
			if adds {
				qh.Adds = g.fill(qh.Adds, s.Points)
			} else {
				qh.Depth = g.fill(qh.Depth, s.Points)
			}
		}
	}
	add(depth, false)
	add(adds, true)
	var out []health.QueueHistory
	ambiguous := map[string]bool{}
	for k, qh := range hist {
		if len(clusters[k]) > 1 {
			ambiguous[k.target] = true
			continue
		}
		qh.Depth, qh.Adds = g.fill(qh.Depth, nil), g.fill(qh.Adds, nil)
		out = append(out, *qh)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Target < out[j].Target || out[i].Target == out[j].Target && out[i].Queue < out[j].Queue
	})
	var notes []string
	for _, id := range sortedKeys(ambiguous) {
		notes = append(notes, fmt.Sprintf("history of %s left out: the server holds its series in several clusters (narrow with --clusters)", id))
	}
	return out, notes
}
