package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// reportPages are the saved page pairs (before, after) the report-against-queues benchmark
// reads, in turn, one pair a target.
var reportPages = [][2]string{
	{"controller-runtime-1.prom", "controller-runtime-2.prom"},
	{"controller-runtime-1.prom", "controller-runtime-2.prom"},
	{"kube-controller-manager-1.prom.gz", "kube-controller-manager-2.prom.gz"},
}

// BenchmarkReportCPU is one run of `report` against one run of `queues` over the same saved
// pages: 30 targets of two pages each (60 pages; captured controller-runtime and
// kube-controller-manager pages, each target its own copy), read, turned into the model and
// judged. cpu-ms/run is the process's CPU time per run; `queues` is the baseline, and `report`
// should cost at most 1.3x its CPU (hack/benchratio checks the ratio).
func BenchmarkReportCPU(b *testing.B) {
	dir := b.TempDir()
	const targets = 30
	files := make([]string, 0, targets)
	for i := range targets {
		pair := reportPages[i%len(reportPages)]
		var paths [2]string
		for j, name := range pair {
			page, err := os.ReadFile(filepath.Join("../../testdata/pages", name))
			if err != nil {
				b.Fatal(err)
			}
			paths[j] = filepath.Join(dir, fmt.Sprintf("target-%02d-%d-%s", i, j+1, name))
			if err := os.WriteFile(paths[j], page, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		files = append(files, paths[0]+","+paths[1])
	}
	env := func() Env { return Env{Source: collect.New(collect.Config{Files: files}, nil)} }
	read := source.Options{Timeout: 10 * time.Second, Interval: 10 * time.Second}
	th := findings.DefaultThresholds()
	runs := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"baseline=queues", func(ctx context.Context) error {
			res, err := QueuesWith(ctx, QueuesConfig{Read: read, Thresholds: th}, env())
			if err == nil && len(res.List.Errors) > 0 {
				err = fmt.Errorf("%+v", res.List.Errors)
			}
			return err
		}},
		{"report", func(ctx context.Context) error {
			res, err := ReportWith(ctx, ReportConfig{Read: read, Thresholds: th}, env())
			if err == nil && res.Report.Summary.Read != targets {
				err = fmt.Errorf("read %d of %d targets", res.Report.Summary.Read, targets)
			}
			return err
		}},
	}
	for _, c := range runs {
		b.Run(fmt.Sprintf("pages-%d/%s", 2*targets, c.name), func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			if err := c.run(ctx); err != nil { // warm
				b.Fatal(err)
			}
			start := cpuTime(b)
			b.ResetTimer()
			for range b.N {
				if err := c.run(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(cpuTime(b)-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/run")
		})
	}
}
