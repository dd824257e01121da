package promsource_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// restartFormat is a small controller's page, which restarts inside the window.
const restartFormat = `# TYPE process_start_time_seconds gauge
process_start_time_seconds %d
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="q",controller="q"} %d
# TYPE workqueue_depth gauge
workqueue_depth{name="q",controller="q"} %d
# TYPE workqueue_work_duration_seconds histogram
workqueue_work_duration_seconds_bucket{name="q",controller="q",le="0.1"} %d
workqueue_work_duration_seconds_bucket{name="q",controller="q",le="1"} %d
workqueue_work_duration_seconds_bucket{name="q",controller="q",le="+Inf"} %d
workqueue_work_duration_seconds_sum{name="q",controller="q"} %g
workqueue_work_duration_seconds_count{name="q",controller="q"} %d
`

// restartPage renders the small controller's page: adds, depth, and work observations
// (fast ones below 0.1 s, slow ones between 0.1 and 1 s).
func restartPage(started, adds, depth, fast, slow int) []byte {
	return fmt.Appendf(nil, restartFormat, started, adds, depth, fast, fast+slow, fast+slow, 0.05*float64(fast)+0.5*float64(slow), fast+slow)
}

// fixture reads a captured page of the repository (gzip or not).
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "pages", name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// pages serve, by path, one page per phase: the window starts in phase 0 and ends in phase 3.
type pages struct {
	phase atomic.Int32
	by    map[string][4][]byte
}

func (p *pages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ps, ok := p.by[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	_, _ = w.Write(ps[p.phase.Load()])
}

// backend is a real server that speaks the Prometheus API, started with a scrape
// configuration: Prometheus, and VictoriaMetrics (single node) as a second, different one.
type backend struct {
	name, bin, pkg string
	start          func(t *testing.T, bin, cfg string) string
}

var backends = []backend{
	{name: "prometheus", bin: "prometheus", pkg: "prometheus", start: promserver.Prometheus},
	{name: "victoria-metrics", bin: "victoria-metrics", pkg: "victoria-metrics", start: promserver.VictoriaMetrics},
}

// TestAgreesWithADirectRead starts each real backend scraping real captured pages every
// second (a controller-runtime operator, kube-controller-manager, the API server) and a small
// controller that restarts, then reads it through the source: the model and the findings are
// the ones a direct read of the pages at the window's ends gives, and the restarted
// controller's counters count what it did on both sides of the restart.
func TestAgreesWithADirectRead(t *testing.T) {
	t.Parallel() // it mostly waits on a real server's scrapes: beside the others that do
	phases := func(name string) [4][]byte {
		first, last := fixture(t, fmt.Sprintf(name, 1)), fixture(t, fmt.Sprintf(name, 2))
		return [4][]byte{first, first, first, last}
	}
	p := &pages{by: map[string][4][]byte{
		"/cr":        phases("controller-runtime-%d.prom"),
		"/kcm":       phases("kube-controller-manager-%d.prom.gz"),
		"/apiserver": phases("kube-apiserver-%d.prom.gz"),
		// 100 adds at the start, 110 (+10, and 4 slow reconciles), then the restart: 2 (+2),
		// then 5 (+3): 15 adds in the window, 4 of 7 observations slow.
		"/restart": {restartPage(1000, 100, 3, 40, 2), restartPage(1000, 110, 3, 40, 6), restartPage(2000, 2, 1, 1, 0), restartPage(2000, 5, 0, 3, 0)},
	}}
	srv := httptest.NewServer(p)
	defer srv.Close()
	target := strings.TrimPrefix(srv.URL, "http://")

	// Every backend scrapes the same pages at once.
	clients := make([]*promsource.Client, len(backends))
	for i, b := range backends {
		bin, err := exec.LookPath(b.bin)
		if err != nil {
			t.Fatalf("this test runs a real %s: install Debian's %s package (hack/test-deps.sh does, as root)", b.name, b.pkg)
		}
		url := b.start(t, bin, scrapeConfig(target))
		if clients[i], err = promsource.NewClient(promsource.ClientConfig{URL: url, Timeout: 10 * time.Second}); err != nil {
			t.Fatal(err)
		}
	}
	waitAll := func() {
		for _, c := range clients {
			waitScrapes(t, c, 2)
		}
	}
	// Every phase is scraped twice; the window starts in phase 0 and ends in phase 3.
	waitAll()
	start := time.Now()
	for phase := int32(1); phase <= 3; phase++ {
		p.phase.Store(phase)
		waitAll()
	}
	end := time.Now()
	for i, b := range backends {
		t.Run(b.name, func(t *testing.T) { agrees(t, clients[i], target, start, end) })
	}
}

// agrees reads the pages through the source from one backend and compares them with a direct
// read.
func agrees(t *testing.T, client *promsource.Client, target string, start, end time.Time) {
	ctx := context.Background()
	queries := client.Stats().Queries
	src := promsource.New(promsource.Config{Client: client, At: end, Window: end.Sub(start)})
	inv, err := src.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	results := src.Read(ctx, source.Options{Keep: func(f string) bool { return health.Wanted(f) || knobs.Wanted(f) }})
	if n := client.Stats().Queries - queries; n != 5 {
		t.Errorf("queries = %d, want 5 (targets, both ends, restarts, the raw samples of the restarted target)", n)
	}
	byID := map[string]source.Result{}
	for _, r := range results {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.ID(), r.Err)
		}
		byID[r.ID()] = r
	}
	want := map[string]string{
		"c1/ns1/operator-0:" + port(target): "controller-runtime-%d.prom",
		"kcm/" + target:                     "kube-controller-manager-%d.prom.gz",
		"apiserver/" + target:               "kube-apiserver-%d.prom.gz",
	}
	if len(inv.Targets) != len(want)+1 {
		t.Fatalf("targets %v, want %d", ids(results), len(want)+1)
	}
	th := findings.DefaultThresholds()
	for id, name := range want {
		got, ok := byID[id]
		if !ok {
			t.Fatalf("no target %s among %v", id, ids(results))
		}
		if len(got.Samples) != 2 {
			t.Fatalf("%s: %d samples, want 2", id, len(got.Samples))
		}
		direct := source.Result{Target: got.Target, Window: got.Window, Samples: []source.Sample{
			{Families: parsed(t, fixture(t, fmt.Sprintf(name, 1))), Time: got.Samples[0].Time},
			{Families: parsed(t, fixture(t, fmt.Sprintf(name, 2))), Time: got.Samples[1].Time},
		}}
		compareQueues(t, id, direct, got, th)
		compareFindings(t, id, direct, got, th)
	}

	restart := byID["restart/"+target]
	if len(restart.Samples) != 2 {
		t.Fatalf("restart: %d samples, want 2", len(restart.Samples))
	}
	rt, _ := findings.Read(restart.Model(), th, nil)
	if len(rt.Queues) != 1 {
		t.Fatalf("restart: queues %+v", rt.Queues)
	}
	q := rt.Queues[0]
	secs := restart.Window.Seconds()
	if !near(q.AddsPerSecond, 15/secs) {
		t.Errorf("restart: adds/s %g, want %g (10 before the restart, 5 after)", q.AddsPerSecond, 15/secs)
	}
	if q.Depth != 0 {
		t.Errorf("restart: depth %g, want 0", q.Depth)
	}
	// 4 slow observations before the restart, 3 fast after: p99 among the slow ones (the
	// restarted process alone saw only fast ones).
	if !(q.WorkP99 > 0.1 && q.WorkP99 <= 1) {
		t.Errorf("restart: work p99 %g, want in (0.1s, 1s] (the slow observations before the restart count)", q.WorkP99)
	}
}

func port(hostPort string) string {
	_, p, _ := net.SplitHostPort(hostPort)
	return p
}

func ids(rs []source.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID())
	}
	return out
}

func parsed(t *testing.T, page []byte) map[string]*dto.MetricFamily {
	t.Helper()
	pg, err := parse.Parse("page", bytes.NewReader(page), func(f string) bool { return health.Wanted(f) || knobs.Wanted(f) })
	if err != nil {
		t.Fatal(err)
	}
	return pg.Families
}

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// compareQueues checks that every queue has the same figures from both reads.
func compareQueues(t *testing.T, id string, direct, got source.Result, th findings.Thresholds) {
	t.Helper()
	dt, _ := findings.Read(direct.Model(), th, nil)
	gt, _ := findings.Read(got.Model(), th, nil)
	if len(dt.Queues) == 0 {
		t.Fatalf("%s: the direct read has no queue: the test reads the wrong pages", id)
	}
	if len(dt.Queues) != len(gt.Queues) {
		t.Fatalf("%s: %d queues from Prometheus, %d from the pages", id, len(gt.Queues), len(dt.Queues))
	}
	for i := range dt.Queues {
		d, g := dt.Queues[i], gt.Queues[i]
		if d.Queue != g.Queue || d.Status != g.Status {
			t.Errorf("%s: queue %d is %s %s from Prometheus, %s %s from the pages", id, i, g.Queue, g.Status, d.Queue, d.Status)
			continue
		}
		for _, f := range []struct {
			name string
			d, g float64
		}{
			{"depth", d.Depth, g.Depth}, {"adds/s", d.AddsPerSecond, g.AddsPerSecond}, {"retries/s", d.RetriesPerSecond, g.RetriesPerSecond},
			{"done/s", d.CompletionsPerSecond, g.CompletionsPerSecond}, {"errors/s", d.ReconcileErrorsPerSecond, g.ReconcileErrorsPerSecond},
			{"queue p50", d.QueueP50, g.QueueP50}, {"queue p99", d.QueueP99, g.QueueP99}, {"work p50", d.WorkP50, g.WorkP50}, {"work p99", d.WorkP99, g.WorkP99},
			{"unfinished", d.Unfinished, g.Unfinished}, {"longest", d.Longest, g.Longest}, {"depth before", d.DepthBefore, g.DepthBefore},
			{"active workers", d.ActiveWorkers, g.ActiveWorkers}, {"max workers", d.MaxWorkers, g.MaxWorkers},
		} {
			if !near(f.d, f.g) {
				t.Errorf("%s %s: %s %g from Prometheus, %g from the pages", id, d.Queue, f.name, f.g, f.d)
			}
		}
	}
}

// compareFindings checks that the report raises the same findings, with the same evidence.
func compareFindings(t *testing.T, id string, direct, got source.Result, th findings.Thresholds) {
	t.Helper()
	now := got.Samples[1].Time
	dr := report.Build(report.Input{Thresholds: th, Now: now, Targets: source.Model([]source.Result{direct})})
	gr := report.Build(report.Input{Thresholds: th, Now: now, Targets: source.Model([]source.Result{got})})
	df, gf := findingLines(dr), findingLines(gr)
	if strings.Join(df, "\n") != strings.Join(gf, "\n") {
		t.Errorf("%s: findings differ\nfrom Prometheus:\n%s\nfrom the pages:\n%s", id, strings.Join(gf, "\n"), strings.Join(df, "\n"))
	}
}

func findingLines(r view.Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, fmt.Sprintf("%s %s %s %s: %s %v", f.Severity, f.Code, f.Target, f.Queue, f.Summary, f.Evidence))
	}
	return out
}

// scrapeConfig scrapes the pages of TestAgreesWithADirectRead every second.
func scrapeConfig(target string) string {
	return fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: cr
    metrics_path: /cr
    static_configs:
      - targets: [%[1]q]
        labels: {cluster: c1, namespace: ns1, pod: operator-0}
  - job_name: kcm
    metrics_path: /kcm
    static_configs: [{targets: [%[1]q]}]
  - job_name: apiserver
    metrics_path: /apiserver
    static_configs: [{targets: [%[1]q]}]
  - job_name: restart
    metrics_path: /restart
    static_configs: [{targets: [%[1]q]}]
`, target)
}

// waitScrapes waits until every one of the 4 jobs has been scraped n more times (its up series
// has n more samples), at most 30 s.
func waitScrapes(t *testing.T, c *promsource.Client, n int) {
	t.Helper()
	waitJobScrapes(t, c, 4, n)
}

// waitJobScrapes waits until each of jobs jobs has been scraped n more times, at most 30 s.
func waitJobScrapes(t *testing.T, c *promsource.Client, jobs, n int) {
	t.Helper()
	count := func() map[string]float64 {
		r, err := c.Query(context.Background(), `count_over_time(up[1h])`, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for _, s := range r.Series {
			out[s.Labels["job"]] = s.Points[0].V
		}
		return out
	}
	before := count()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		now := count()
		ok := len(now) == jobs
		for job, v := range now {
			ok = ok && v >= before[job]+float64(n)
		}
		if ok {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("the jobs were not scraped %d more times within 30s", n)
}
