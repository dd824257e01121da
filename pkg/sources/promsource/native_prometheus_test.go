package promsource_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// workqueue is a controller's workqueue families in a client_golang registry, its two
// duration histograms native (sparse buckets only, factor 1.1) as client-go's would be with
// NativeHistogramBucketFactor set.
type workqueue struct {
	adds, retries                 prometheus.Counter
	depth, unfinished, longest    prometheus.Gauge
	queueDuration, workDuration   prometheus.Observer
	queueHistogram, workHistogram prometheus.Histogram
}

func newWorkqueue(reg *prometheus.Registry) *workqueue {
	l := prometheus.Labels{"name": "q", "controller": "q"}
	native := func(name string) prometheus.Histogram {
		return prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: name, ConstLabels: l,
			NativeHistogramBucketFactor: 1.1, NativeHistogramZeroThreshold: 1e-9})
	}
	w := &workqueue{
		adds:           prometheus.NewCounter(prometheus.CounterOpts{Name: "workqueue_adds_total", Help: "adds", ConstLabels: l}),
		retries:        prometheus.NewCounter(prometheus.CounterOpts{Name: "workqueue_retries_total", Help: "retries", ConstLabels: l}),
		depth:          prometheus.NewGauge(prometheus.GaugeOpts{Name: "workqueue_depth", Help: "depth", ConstLabels: l}),
		unfinished:     prometheus.NewGauge(prometheus.GaugeOpts{Name: "workqueue_unfinished_work_seconds", Help: "unfinished", ConstLabels: l}),
		longest:        prometheus.NewGauge(prometheus.GaugeOpts{Name: "workqueue_longest_running_processor_seconds", Help: "longest", ConstLabels: l}),
		queueHistogram: native("workqueue_queue_duration_seconds"),
		workHistogram:  native("workqueue_work_duration_seconds"),
	}
	w.queueDuration, w.workDuration = w.queueHistogram, w.workHistogram
	reg.MustRegister(w.adds, w.retries, w.depth, w.unfinished, w.longest, w.queueHistogram, w.workHistogram)
	return w
}

// observe records n items that waited wait and took work.
func (w *workqueue) observe(n int, wait, work float64) {
	for range n {
		w.adds.Inc()
		w.queueDuration.Observe(wait)
		w.workDuration.Observe(work)
	}
}

// restarting serves a registry that a restart replaces.
type restarting struct {
	reg atomic.Pointer[prometheus.Registry]
}

func (r *restarting) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	promhttp.HandlerFor(r.reg.Load(), promhttp.HandlerOpts{}).ServeHTTP(w, req)
}

// process is a controller process: its registry, its workqueue and when it started.
func process(started float64) (*prometheus.Registry, *workqueue) {
	reg := prometheus.NewRegistry()
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "process_start_time_seconds", Help: "start"})
	g.Set(started)
	reg.MustRegister(g)
	return reg, newWorkqueue(reg)
}

// TestNativeHistogramsFromARealPrometheus starts a real Prometheus with native histograms
// enabled, scraping (over protobuf) pages served by client_golang registries whose workqueue
// duration histograms are native only: no _bucket series reaches the server. Observations
// with known values are made before the window (slow ones) and inside it; the source's two
// samples give the model the window's counts exactly and its quantiles within the resolution
// of the native buckets, the slow observations before the window left out. A second
// controller restarts inside the window: what it observed on both sides of the restart counts.
func TestNativeHistogramsFromARealPrometheus(t *testing.T) {
	t.Parallel() // it mostly waits on a real server's scrapes: beside the others that do
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real Prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	reg, wq := process(1000)
	before, old := process(1000)
	rs := &restarting{}
	rs.reg.Store(before)
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.Handle("/restart", rs)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	target := strings.TrimPrefix(srv.URL, "http://")
	url := promserver.PrometheusNativeHistograms(t, bin, fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: native
    static_configs: [{targets: [%[1]q], labels: {namespace: ns1, pod: operator-0}}]
  - job_name: restart
    metrics_path: /restart
    static_configs: [{targets: [%[1]q], labels: {namespace: ns1, pod: operator-1}}]
`, target))
	client, err := promsource.NewClient(promsource.ClientConfig{URL: url, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}

	// Before the window: 50 slow items (2 s waiting, 3 s working), in each process.
	wq.observe(50, 2, 3)
	wq.depth.Set(7)
	old.observe(50, 2, 3)
	waitJobScrapes(t, client, 2, 2)
	start := time.Now()
	// In the window: 100 items, 60 waited 10 ms and 40 waited 0.5 s; 90 took 0.2 s and 10 took
	// 1.5 s. One retry. The other process works 20 items of 1.5 s, then restarts and works 30
	// of 0.2 s.
	wq.observe(60, 0.01, 0.2)
	wq.observe(30, 0.5, 0.2)
	wq.observe(10, 0.5, 1.5)
	wq.retries.Inc()
	wq.depth.Set(3)
	old.observe(20, 0.5, 1.5)
	waitJobScrapes(t, client, 2, 2)
	after, restarted := process(2000)
	rs.reg.Store(after)
	restarted.observe(30, 0.01, 0.2)
	waitJobScrapes(t, client, 2, 2)
	end := time.Now()

	// The server holds the durations as native histograms, not as _bucket series.
	r, err := client.Query(context.Background(), `{__name__=~"workqueue_(queue|work)_duration_seconds(_bucket)?"}`, end)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Series) != 4 {
		t.Fatalf("Prometheus holds %+v, want the durations of both processes as native histograms only", r.Series)
	}
	for _, sr := range r.Series {
		if sr.Points[0].H == nil {
			t.Fatalf("Prometheus holds %v as floats, want native histograms only", sr.Labels)
		}
	}

	src := promsource.New(promsource.Config{Client: client, At: end, Window: end.Sub(start)})
	if _, err := src.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	queries := client.Stats().Queries
	results := src.Read(context.Background(), source.Options{Keep: func(f string) bool { return health.Wanted(f) || knobs.Wanted(f) }})
	if n := client.Stats().Queries - queries; n != 4 {
		t.Errorf("queries = %d, want 4 (both ends, restarts, the raw samples of the restarted target)", n)
	}
	if len(results) != 2 {
		t.Fatalf("results %+v", results)
	}
	for _, r := range results {
		if r.Err != nil || len(r.Samples) != 2 {
			t.Fatalf("%s: %v, %d samples", r.ID(), r.Err, len(r.Samples))
		}
	}
	got := results[0]
	if results[0].Target.Name != "operator-0" {
		got, results[1] = results[1], results[0]
		results[0] = got
	}
	restartQueue(t, results[1])
	endWork := got.Samples[1].Families["workqueue_work_duration_seconds"]
	if endWork == nil || len(endWork.Metric) != 1 {
		t.Fatalf("no work duration histogram at the window's end: %v", got.Samples[1].Families)
	}
	if h := endWork.Metric[0].GetHistogram(); h.GetSampleCountFloat() != 150 || !near(h.GetSampleSum(), 50*3+90*0.2+10*1.5) {
		t.Errorf("work duration at the end: count %g sum %g, want 150 and %g", h.GetSampleCountFloat(), h.GetSampleSum(), 50*3+90*0.2+10*1.5)
	}

	th := findings.DefaultThresholds()
	rt, _ := findings.Read(got.Model(), th, nil)
	if len(rt.Queues) != 1 {
		t.Fatalf("queues %+v", rt.Queues)
	}
	q := rt.Queues[0]
	secs := got.Window.Seconds()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"adds/s", q.AddsPerSecond, 100 / secs}, {"done/s", q.CompletionsPerSecond, 100 / secs},
		{"retries/s", q.RetriesPerSecond, 1 / secs}, {"depth", q.Depth, 3}, {"depth before", q.DepthBefore, 7},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	// Quantiles: within the width of the native bucket holding the value (at most 10% at
	// factor 1.1); the slow observations before the window (2 s, 3 s) must not show.
	checkQuantiles(t, "", q, "a native bucket's width")
	// The report reads the same queue: its backlog drains at the window's completions.
	rep := report.Build(report.Input{Thresholds: th, Now: end, Targets: source.Model(results[:1])})
	if len(rep.Errors) != 0 || len(rep.Backlog) != 1 || rep.Backlog[0].DrainSeconds == nil || !near(*rep.Backlog[0].DrainSeconds, 3/(100/secs)) {
		t.Errorf("report errors %+v, backlog %+v: want the queue read above, draining 3 items at %g/s", rep.Errors, rep.Backlog, 100/secs)
	}
	for _, f := range rep.Findings {
		t.Logf("%s %s %s: %s %v", f.Severity, f.Code, f.Queue, f.Summary, f.Evidence)
	}
}

// restartQueue checks the queue of the process restarted in the window: 20 slow items before
// the restart, 30 fast ones after, all counted.
func restartQueue(t *testing.T, r source.Result) {
	t.Helper()
	rt, _ := findings.Read(r.Model(), findings.DefaultThresholds(), nil)
	if len(rt.Queues) != 1 {
		t.Fatalf("restarted: queues %+v", rt.Queues)
	}
	q := rt.Queues[0]
	secs := r.Window.Seconds()
	if !near(q.AddsPerSecond, 50/secs) || !near(q.CompletionsPerSecond, 50/secs) {
		t.Errorf("restarted: adds/s %g, done/s %g, want both %g (20 before the restart, 30 after)", q.AddsPerSecond, q.CompletionsPerSecond, 50/secs)
	}
	checkQuantiles(t, "restarted: ", q, "the observations before the restart count")
}

// checkQuantiles holds q's queue and work p50 and p99 to the values observed in the window
// (10ms and 500ms waits, 200ms and 1.5s reconciles), within 10%; why says why they must be.
func checkQuantiles(t *testing.T, prefix string, q health.QueueStats, why string) {
	t.Helper()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"queue p50", q.QueueP50, 0.01}, {"queue p99", q.QueueP99, 0.5}, {"work p50", q.WorkP50, 0.2}, {"work p99", q.WorkP99, 1.5},
	} {
		if !(math.Abs(c.got-c.want) <= 0.1*c.want) {
			t.Errorf("%s%s = %g, want %g within 10%% (%s)", prefix, c.name, c.got, c.want, why)
		}
	}
}
