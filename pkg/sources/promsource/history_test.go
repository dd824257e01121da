package promsource

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

var t0 = time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)

// points are values at t0, t0+15s, ...; NaN leaves a time out.
func points(vs ...float64) []Point {
	var out []Point
	for i, v := range vs {
		if !math.IsNaN(v) {
			out = append(out, Point{T: t0.Add(time.Duration(i) * 15 * time.Second), V: v})
		}
	}
	return out
}

func same(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

var nan = math.NaN()

// A point falls on the nearest time of the grid; times without one are NaN; points outside
// the grid are dropped; two series of one queue fill each other's gaps.
func TestGridFill(t *testing.T) {
	g := grid{start: t0, step: 15 * time.Second, n: 4}
	off := []Point{{T: t0.Add(-15 * time.Second), V: 9}, {T: t0.Add(16 * time.Second), V: 2}, {T: t0.Add(60 * time.Second), V: 9}}
	got := g.fill(nil, off)
	if want := []float64{nan, 2, nan, nan}; !same(got, want) {
		t.Errorf("fill %v, want %v", got, want)
	}
	got = g.fill(got, points(nan, 1, nan, 4))
	if want := []float64{nan, 2, nan, 4}; !same(got, want) {
		t.Errorf("second series %v, want %v", got, want)
	}
}

// Series are matched to live targets by namespace and pod (pods) or instance (URLs), queue by
// name; series of other pods, and targets that cannot match (the API server), are left out;
// a queue whose series are in two clusters is left out with a note.
func TestMatchHistory(t *testing.T) {
	pod := target.Target{Kind: target.KindPod, Namespace: "ops", Name: "op-0", Port: 8080}
	url := target.Target{Kind: target.KindURL, Name: "http://127.0.0.1:9100/metrics"}
	twin := target.Target{Kind: target.KindPod, Namespace: "ops", Name: "twin", Port: 8080}
	api := target.Target{Kind: target.KindAPIServer}
	g := grid{start: t0, step: 15 * time.Second, n: 3}
	l := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	depth := []Series{
		{Labels: l("namespace", "ops", "pod", "op-0", "instance", "10.0.0.1:8080", "name", "widgets"), Points: points(1, 2, 3)},
		{Labels: l("namespace", "other", "pod", "op-0", "instance", "10.0.0.2:8080", "name", "widgets"), Points: points(7, 7, 7)},
		{Labels: l("instance", "127.0.0.1:9100", "name", "q"), Points: points(5, nan, 6)},
		{Labels: l("cluster", "a", "namespace", "ops", "pod", "twin", "name", "w"), Points: points(1, 1, 1)},
		{Labels: l("cluster", "b", "namespace", "ops", "pod", "twin", "name", "w"), Points: points(2, 2, 2)},
	}
	adds := []Series{
		{Labels: l("namespace", "ops", "pod", "op-0", "instance", "10.0.0.1:8080", "name", "widgets"), Points: points(nan, 0.5, 1.5)},
	}
	got, notes := matchHistory([]target.Target{pod, url, twin, api}, "cluster", g, depth, adds)
	if len(got) != 2 {
		t.Fatalf("%d histories, want 2: %+v", len(got), got)
	}
	u, p := got[0], got[1] // sorted by target ID: the URL's sorts first
	if u.Target != url.ID() || u.Queue != "q" || !same(u.Depth, []float64{5, nan, 6}) || !same(u.Adds, []float64{nan, nan, nan}) {
		t.Errorf("URL's history %+v", u)
	}
	if p.Target != "ops/op-0:8080" || p.Queue != "widgets" || !same(p.Depth, []float64{1, 2, 3}) || !same(p.Adds, []float64{nan, 0.5, 1.5}) {
		t.Errorf("pod's history %+v", p)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "ops/twin:8080") || !strings.Contains(notes[0], "--clusters") {
		t.Errorf("notes %v", notes)
	}
}

// The queries narrow to the pods (namespace and pod) and to the URLs' instances, the port the
// scheme's when the URL gives none; the API server gives no selector.
func TestHistorySelectors(t *testing.T) {
	h := History{Namespace: "ops", Clusters: []string{"a"}}
	got := h.selectors([]target.Target{
		{Kind: target.KindPod, Namespace: "ops", Name: "op-0"}, {Kind: target.KindPod, Namespace: "ops", Name: "op-1"},
		{Kind: target.KindURL, Name: "https://metrics.example"}, {Kind: target.KindAPIServer},
	})
	want := []string{`cluster=~"a", namespace="ops", namespace=~"ops", pod=~"op-0|op-1"`, `cluster=~"a", namespace="ops", instance=~"metrics\\.example:443"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("selectors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := (History{}).selectors([]target.Target{{Kind: target.KindAPIServer}}); len(s) != 0 {
		t.Errorf("API server only: %v", s)
	}
	if r := (History{Step: 2 * time.Second}).RateRange(); r != time.Minute {
		t.Errorf("rate range %s", r)
	}
}
