package health

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

// benchPair is a target's two saved pages, 10 seconds apart.
var benchPairs = []struct{ name, before, after string }{
	{"controller-runtime", "controller-runtime-1.prom", "controller-runtime-2.prom"},
	{"kube-controller-manager", "kube-controller-manager-1.prom.gz", "kube-controller-manager-2.prom.gz"},
}

func readPage(b testing.TB, name string) []byte {
	b.Helper()
	raw, err := os.ReadFile("../../../testdata/pages/" + name)
	if err != nil {
		b.Fatal(err)
	}
	if !strings.HasSuffix(name, ".gz") {
		return raw
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

func parsePage(b *testing.B, page []byte) map[string]*dto.MetricFamily {
	p, err := parse.Parse("bench", bytes.NewReader(page), Wanted)
	if err != nil {
		b.Fatal(err)
	}
	return p.Families
}

// BenchmarkModel measures the model of one target: two snapshots, then rates and window
// quantiles of every queue. The baseline is the filtered parse of the same two pages, so the
// ratio says what the model adds to reading the pages.
func BenchmarkModel(b *testing.B) {
	t0 := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	for _, p := range benchPairs {
		before, after := readPage(b, p.before), readPage(b, p.after)
		b.Run(p.name+"/baseline=parse-filtered", func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				parsePage(b, before)
				parsePage(b, after)
			}
		})
		fb, fa := parsePage(b, before), parsePage(b, after)
		b.Run(p.name+"/snapshots+rates+quantiles", func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				prev := FromFamilies(fb, t0)
				cur := FromFamilies(fa, t0.Add(10*time.Second))
				if len(Queues("bench", prev, cur, 10*time.Second)) == 0 {
					b.Fatal("no queues")
				}
			}
		})
	}
}

// BenchmarkQuantile is one p99 over the bucket deltas of a window.
func BenchmarkQuantile(b *testing.B) {
	before := FromFamilies(parsePage(b, readPage(b, "kube-controller-manager-1.prom.gz")), time.Time{})
	after := FromFamilies(parsePage(b, readPage(b, "kube-controller-manager-2.prom.gz")), time.Time{})
	var cur, prev *Histogram
	for name, q := range after.Queues {
		if q.WorkDuration != nil && before.Queues[name] != nil {
			cur, prev = q.WorkDuration, before.Queues[name].WorkDuration
			break
		}
	}
	if cur == nil {
		b.Fatal("no work duration histogram")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = cur.Since(prev).Quantile(0.99)
	}
}
