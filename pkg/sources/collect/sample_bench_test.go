package collect

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// BenchmarkScrape reads N local targets (httptest servers serving a captured controller-runtime
// page) through URL sources, one sample each, as `queues --interval 0` does: fetch, stream,
// filter, parse. Each server answers after a fixed latency, standing for the time a real
// endpoint (and the API server's proxy in front of it) takes to answer; with latency 0 the
// run is bound by the CPU. The baseline is sequential scraping (Concurrency 1); the other
// runs use the default concurrency and a wider one. retained-B/target is the heap the results
// keep per target after a GC (what grows with the number of targets).
func BenchmarkScrape(b *testing.B) {
	page, err := os.ReadFile("../../../testdata/pages/controller-runtime-1.prom")
	if err != nil {
		b.Fatal(err)
	}
	const targets = 50
	for _, latency := range []time.Duration{10 * time.Millisecond, 0} {
		var sources []scrape.Source
		client, err := scrape.NewHTTPClient(scrape.HTTPConfig{})
		if err != nil {
			b.Fatal(err)
		}
		for range targets {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				time.Sleep(latency)
				w.Header().Set("Content-Type", "text/plain; version=0.0.4")
				_, _ = w.Write(page)
			}))
			b.Cleanup(srv.Close)
			src, err := scrape.NewURLSource(srv.URL+"/metrics", client, scrape.HTTPConfig{})
			if err != nil {
				b.Fatal(err)
			}
			sources = append(sources, src)
		}
		for _, c := range []struct {
			name        string
			concurrency int
		}{{"baseline=sequential", 1}, {"default-concurrency", 0}, {"concurrency-32", 32}} {
			b.Run(fmt.Sprintf("targets-%d-latency-%s/%s", targets, latency, c.name), func(b *testing.B) {
				b.ReportAllocs()
				var retained uint64
				for range b.N {
					var before, after runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&before)
					res := Collect(context.Background(), sources, source.Options{Timeout: 10 * time.Second, Concurrency: c.concurrency, Keep: health.Wanted})
					b.StopTimer()
					for _, r := range res {
						if r.Err != nil || len(r.Samples) != 1 {
							b.Fatalf("%s: %d samples, err %v", r.ID(), len(r.Samples), r.Err)
						}
					}
					runtime.GC()
					runtime.ReadMemStats(&after)
					if after.HeapAlloc > before.HeapAlloc {
						retained = max(retained, (after.HeapAlloc-before.HeapAlloc)/targets)
					}
					runtime.KeepAlive(res)
					b.StartTimer()
				}
				b.ReportMetric(float64(retained), "retained-B/target")
			})
		}
	}
}
