package run

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTopRefresh is one refresh of `top` over 1 and 50 local targets (httptest servers
// serving a captured controller-runtime page, in this process: their CPU is counted too):
// read every target once, pair with the refresh before, judge, list. cpu-ms/refresh is the
// process's CPU time per refresh. The baseline opens a new source at every refresh, as running
// `queues --interval 0` in a loop would (new connections every time); "kept" is top's way, one
// source read again and again.
func BenchmarkTopRefresh(b *testing.B) {
	page, err := os.ReadFile("../../testdata/pages/controller-runtime-1.prom")
	if err != nil {
		b.Fatal(err)
	}
	cfg := QueuesConfig{Thresholds: findings.DefaultThresholds(), Read: source.Options{Timeout: 10 * time.Second}}
	for _, targets := range []int{1, 50} {
		var urls []string
		for range targets {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/plain; version=0.0.4")
				_, _ = w.Write(page)
			}))
			b.Cleanup(srv.Close)
			urls = append(urls, srv.URL+"/metrics")
		}
		newTop := func() *Frames {
			return newFrames(cfg, Env{Source: collect.New(collect.Config{URLs: urls}, nil)})
		}
		for _, c := range []struct {
			name   string
			reopen bool
		}{{"baseline=reopened", true}, {"kept", false}} {
			b.Run(fmt.Sprintf("targets-%d/%s", targets, c.name), func(b *testing.B) {
				b.ReportAllocs()
				ctx := context.Background()
				top := newTop()
				if _, err := top.Next(ctx); err != nil { // warm: the first refresh opens
					b.Fatal(err)
				}
				start := cpuTime(b)
				b.ResetTimer()
				for range b.N {
					if c.reopen {
						top = newTop()
					}
					f, err := top.Next(ctx)
					if err != nil || len(f.List.Errors) > 0 {
						b.Fatalf("%v %+v", err, f.List.Errors)
					}
				}
				b.StopTimer()
				b.ReportMetric(float64(cpuTime(b)-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/refresh")
			})
		}
	}
}
