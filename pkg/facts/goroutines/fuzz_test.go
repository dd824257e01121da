package goroutines

import (
	"os"
	"strings"
	"testing"
)

// fuzzLimits are small, so that the fuzzer reaches them.
var fuzzLimits = Limits{Goroutines: 20, Frames: 8, LineBytes: 1024, KeptBytes: 8 << 10}

// FuzzParse: Parse and ParseWorkers never panic, keep within their limits, keep the same
// workers, and their profile is bounded.
func FuzzParse(f *testing.F) {
	b, err := os.ReadFile("testdata/operator.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add(string(bigDump(4<<10, 3)))
	f.Add("goroutine 1 [select, 9223372036854775807 minutes]:\nmain.(*r).processNextWorkItem()\n\t/a.go:99999999999999999999 +0x1\n")
	f.Add("goroutine 1 [running]:\ncreated by a in goroutine 2\ncreated by b\n\tx:1\n\tx:2\n...additional frames elided...\n")
	f.Add("goroutine -1 [a, -5 minutes, 3 minute]:\n\t\n(\n)\n \n")
	f.Fuzz(func(t *testing.T, in string) {
		all, _ := Parse(strings.NewReader(in), fuzzLimits)
		workers, _ := ParseWorkers(strings.NewReader(in), fuzzLimits)
		for _, d := range []*Dump{all, workers} {
			if len(d.Goroutines) > fuzzLimits.Goroutines || len(d.Goroutines)+d.Dropped > d.Total {
				t.Fatalf("%d kept, %d dropped, %d in all", len(d.Goroutines), d.Dropped, d.Total)
			}
			for _, g := range d.Goroutines {
				if len(g.Frames) > fuzzLimits.Frames || g.Waiting < 0 || g.Waiting > maxWaiting {
					t.Fatalf("goroutine %d: %d frames, waiting %s", g.ID, len(g.Frames), g.Waiting)
				}
				for _, fr := range append(g.Frames, g.CreatedBy) {
					if strings.ContainsAny(fr.Func+fr.File+g.State, "\n") || fr.Line < 0 {
						t.Fatalf("frame %+v of state %q", fr, g.State)
					}
				}
			}
		}
		if all.Total != workers.Total {
			t.Fatalf("Parse read %d goroutines, ParseWorkers %d", all.Total, workers.Total)
		}
		if all.Dropped == 0 && workers.Dropped == 0 {
			var want []Goroutine
			for _, g := range all.Goroutines {
				if isWorker(g) {
					want = append(want, g)
				}
			}
			if len(want) != len(workers.Goroutines) {
				t.Fatalf("ParseWorkers kept %d goroutines, the workers of Parse are %d", len(workers.Goroutines), len(want))
			}
			for i := range want {
				if stackKey(want[i].Frames) != stackKey(workers.Goroutines[i].Frames) || want[i].ID != workers.Goroutines[i].ID {
					t.Fatalf("worker %d differs: %+v and %+v", i, want[i], workers.Goroutines[i])
				}
			}
		}
		p := NewProfile(workers)
		if len(p.Groups) > MaxGroups || p.Workers > len(workers.Goroutines) || p.Goroutines != workers.Total {
			t.Fatalf("profile: %d groups, %d workers of %d kept", len(p.Groups), p.Workers, len(workers.Goroutines))
		}
		for _, g := range p.Groups {
			if len(g.Frames) > MaxFrames || len(g.IDs) > 5 {
				t.Fatalf("group of %d frames, %d ids", len(g.Frames), len(g.IDs))
			}
			_ = g.Describe()
		}
	})
}
