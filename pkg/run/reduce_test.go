package run

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// optionsSpy is a source that remembers the options it was read with.
type optionsSpy struct {
	source.Source
	got source.Options
}

func (s *optionsSpy) Read(ctx context.Context, o source.Options) []source.Result {
	s.got = o
	return s.Source.Read(ctx, o)
}

// report reads the API server's request latency reduced (what the model reads of it, from
// health.Reduced); queues does not read the family at all.
func TestReportReadsRequestLatencyReduced(t *testing.T) {
	page := "../../testdata/pages/kube-apiserver-1.prom.gz"
	read := source.Options{Timeout: 10 * time.Second}
	spy := &optionsSpy{Source: collect.New(collect.Config{Files: []string{page}}, nil)}
	res, err := ReportWith(context.Background(), ReportConfig{Read: read, Thresholds: findings.DefaultThresholds()}, Env{Source: spy})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Summary.Read != 1 {
		t.Fatalf("read %d targets", res.Report.Summary.Read)
	}
	r, ok := spy.got.Reduce["apiserver_request_duration_seconds"]
	if !ok || !slices.Equal(r.Labels, []string{"verb", "group", "resource", "subresource"}) || !slices.Contains(r.Drop["verb"], "WATCH") {
		t.Fatalf("report reads with Reduce %+v", spy.got.Reduce)
	}
	spy = &optionsSpy{Source: collect.New(collect.Config{Files: []string{page}}, nil)}
	if _, err := QueuesWith(context.Background(), QueuesConfig{Read: read, Thresholds: findings.DefaultThresholds()}, Env{Source: spy}); err != nil {
		t.Fatal(err)
	}
	if spy.got.Reduce != nil || spy.got.Keep("apiserver_request_duration_seconds") {
		t.Fatalf("queues reads the request latency (Reduce %+v)", spy.got.Reduce)
	}
}
