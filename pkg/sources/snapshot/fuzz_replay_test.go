package snapshot

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// replaySeed is a snapshot of a pod target read twice, with its log and goroutine dump, and
// of a URL target that could not be read.
func replaySeed(tb testing.TB) []byte {
	page := []byte("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 1\n")
	results := `[{"target":{"kind":"pod","namespace":"ns","name":"op-0","port":8080},"pod":"ns/op-0",` +
		`"samples":[{"time":"2026-11-29T00:00:00Z","page":"pages/000-0.prom"},{"time":"2026-11-29T00:00:05Z","page":"pages/000-1.prom"}],` +
		`"windowNanoseconds":5000000000,"log":{"pod":"ns/op-0","lines":3,"failures":[{"controller":"c","object":"ns/x","count":2,"error":"boom"}]},` +
		`"goroutines":{"goroutines":40,"workers":2,"groups":[{"count":2,"ids":[7,9],"state":"select","longestNanoseconds":180000000000}]}},` +
		`{"target":{"kind":"url","name":"u"},"error":"refused"}]`
	return build(tb, manifestEntry(tb, SchemaVersion), entry{name: inventoryName, data: []byte(`{"targets":[{"kind":"pod","namespace":"ns","name":"op-0","port":8080}]}`)},
		entry{name: resultsName, data: []byte(results)}, entry{name: pageName(0, 0), data: page}, entry{name: pageName(0, 1), data: page})
}

// FuzzReplay checks that no snapshot the reader accepts makes its replay panic or hang: the
// inventory opens, every stored result comes back (read or saying why not) within the
// deadline, and each target's stored log and goroutine dump are looked up.
func FuzzReplay(f *testing.F) {
	page := []byte("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 1\n")
	f.Add(replaySeed(f))
	f.Add(build(f, manifestEntry(f, SchemaVersion), entry{name: inventoryName, data: []byte("{}")},
		entry{name: resultsName, data: []byte(`[{"target":{"kind":"url","name":"u"},"samples":[{"page":"pages/000-0.prom"}]}]`)},
		entry{name: pageName(0, 0), data: page}))
	f.Fuzz(func(t *testing.T, file []byte) {
		s, err := Read(bytes.NewReader(file), fuzzLimits)
		if err != nil {
			return
		}
		defer watchdog("the replay")()
		ctx := context.Background()
		p := NewReplay(s)
		if _, err := p.Open(ctx); err != nil {
			return
		}
		rctx, cancel := source.StartClock(nil, 2*time.Second).Bound(ctx)
		defer cancel()
		got := p.Read(rctx, source.Options{Keep: func(string) bool { return true }})
		if len(got) != len(s.Results) {
			t.Fatalf("%d results replayed of %d stored", len(got), len(s.Results))
		}
		for _, tg := range source.Model(got) {
			_ = p.Log(ctx, tg, logs.PodLogRequest{})
			_ = p.Goroutines(ctx, tg, goroutines.Want{}, goroutines.Bounds{})
		}
	})
}

// The seed of FuzzReplay replays: both results, the pod's log and its goroutine dump.
func TestReplayOfTheFuzzSeed(t *testing.T) {
	s, err := Read(bytes.NewReader(replaySeed(t)), fuzzLimits)
	if err != nil {
		t.Fatal(err)
	}
	p := NewReplay(s)
	ctx := context.Background()
	got := p.Read(ctx, source.Options{Keep: func(string) bool { return true }})
	if len(got) != 2 || got[0].Err != nil || len(got[0].Samples) != 2 {
		t.Fatalf("replayed %+v", got)
	}
	pod := source.Model(got)[0]
	if l := p.Log(ctx, pod, logs.PodLogRequest{}); l == nil || len(l.Failures) != 1 {
		t.Errorf("the stored log is not replayed: %+v", l)
	}
	if g := p.Goroutines(ctx, pod, goroutines.Want{}, goroutines.Bounds{}); g == nil || g.Workers != 2 {
		t.Errorf("the stored dump is not replayed: %+v", g)
	}
}
