package render

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// benchList is the queue list of 200 kube-controller-manager-like targets (two samples each):
// about the output of `queues -A` on a big cluster.
func benchList(b *testing.B, targets int) view.QueueList {
	snap := func(name string, t time.Time) *health.Snapshot {
		raw, err := os.ReadFile("../../../testdata/pages/" + name)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		p, err := parse.Parse(name, zr, health.Wanted)
		if err != nil {
			b.Fatal(err)
		}
		return health.FromFamilies(p.Families, t)
	}
	t0 := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	prev := snap("kube-controller-manager-1.prom.gz", t0)
	cur := snap("kube-controller-manager-2.prom.gz", t0.Add(10*time.Second))
	var stats []health.QueueStats
	for i := range targets {
		stats = append(stats, health.Queues(fmt.Sprintf("ns-%d/kube-controller-manager-%d", i%20, i), prev, cur, 10*time.Second)...)
	}
	health.Sort(stats)
	return view.NewQueueList(stats, nil)
}

// BenchmarkRender renders the queues of 200 targets as the table (and -o wide). The baseline
// is encoding/json of the same list (what -o json costs).
func BenchmarkRender(b *testing.B) {
	l := benchList(b, 200)
	b.Logf("%d rows", len(l.Items))
	b.Run("queues-200-targets/baseline=encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if err := json.NewEncoder(io.Discard).Encode(l); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, wide := range []bool{false, true} {
		name := "table"
		if wide {
			name = "table-wide"
		}
		b.Run("queues-200-targets/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if err := QueueTable(io.Discard, l, wide, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
