package health

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

// The queues command parses only what WantedQueues keeps: on every captured pair of pages
// its queue figures and leadership must be exactly those of the full model.
func TestWantedQueuesGivesTheSameQueues(t *testing.T) {
	pairs := append(benchPairs, struct{ name, before, after string }{
		"kube-apiserver", "kube-apiserver-1.prom.gz", "kube-apiserver-2.prom.gz"})
	t0 := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			var got [2][]QueueStats
			var leaders [2]map[string]float64
			for i, keep := range []parse.Keep{Wanted, WantedQueues} {
				var snaps [2]*Snapshot
				for j, name := range []string{p.before, p.after} {
					page, err := parse.Parse(name, bytes.NewReader(readPage(t, name)), keep)
					if err != nil {
						t.Fatal(err)
					}
					snaps[j] = FromFamilies(page.Families, t0.Add(time.Duration(j)*10*time.Second))
				}
				got[i] = append(Queues(p.name, snaps[0], snaps[1], 10*time.Second),
					Queues(p.name, nil, snaps[1], 0)...)
				leaders[i] = snaps[1].Leader
			}
			if len(got[0]) == 0 {
				t.Fatal("no queues on the page: the test proves nothing")
			}
			// Compared as printed: the figures hold NaN, which equals nothing.
			for i := range max(len(got[0]), len(got[1])) {
				if a, b := fmt.Sprintf("%+v", at(got[0], i)), fmt.Sprintf("%+v", at(got[1], i)); a != b {
					t.Fatalf("queue %d differs:\nWanted:       %s\nWantedQueues: %s", i, a, b)
				}
			}
			if a, b := fmt.Sprint(leaders[0]), fmt.Sprint(leaders[1]); a != b {
				t.Fatalf("leadership differs: %s vs %s", a, b)
			}
		})
	}
}

func at(s []QueueStats, i int) any {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}
