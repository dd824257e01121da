package diff

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// manyPages are two reports of n saved pages each, every page running the same queues: each
// page could be any page of the other side.
func manyPages(n int) (before, after view.Report) {
	targets := map[string][]string{}
	for i := range n {
		targets[fmt.Sprintf("page-%04d.prom", i)] = kcmQueues
	}
	return pageReport(targets, 0), pageReport(targets, 5)
}

// Matching thousands of targets without a workload that share all their names keeps a few
// candidates per target, not a pair for every two of them (which took gigabytes), and still
// matches each page to the page of its name, the closest of equals.
func TestMatchingManyLoneTargetsIsBounded(t *testing.T) {
	const n = 1500
	before, after := manyPages(n)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	ib, ia := identities(before, after)
	runtime.ReadMemStats(&m1)
	for i := range n {
		name := fmt.Sprintf("page-%04d.prom", i)
		if ib[name] != name || ia[name] != name {
			t.Fatalf("%s is %q before and %q after, want itself on both sides", name, ib[name], ia[name])
		}
	}
	// The pairs kept are at most maxCandidates a target, 40 bytes each; the index and the
	// maps of names are a few hundred bytes a target.
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > n*4096 {
		t.Errorf("matching %d targets a side allocated %d bytes, want at most %d", n, alloc, n*4096)
	}
	if testing.Verbose() {
		t.Logf("allocated %d bytes", m1.TotalAlloc-m0.TotalAlloc)
	}
}

// Of many candidates, a before target keeps the closest maxCandidates, in closer order.
func TestKeepClosest(t *testing.T) {
	var kept []pair
	for i := range 3 * maxCandidates {
		kept = keepClosest(kept, pair{b: "x", a: fmt.Sprintf("a-%02d", i), score: float64(i%7) / 7})
	}
	if len(kept) != maxCandidates {
		t.Fatalf("kept %d, want %d", len(kept), maxCandidates)
	}
	for i := 1; i < len(kept); i++ {
		if !closer(kept[i-1], kept[i]) {
			t.Errorf("%+v before %+v", kept[i-1], kept[i])
		}
	}
	if kept[0].score != 6.0/7 || kept[0].a != "a-06" {
		t.Errorf("closest %+v, want a-06 at 6/7", kept[0])
	}
}

// BenchmarkDiffMatch compares two reports of many saved pages that run the same queues.
func BenchmarkDiffMatch(b *testing.B) {
	for _, n := range []int{100, 2000} {
		before, after := manyPages(n)
		b.Run(fmt.Sprintf("targets-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				Compare(before, after, "a", "b")
			}
		})
	}
}
