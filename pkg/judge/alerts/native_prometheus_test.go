package alerts

import (
	"context"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
)

// durations are a workqueue's two duration histograms in a registry of their own, native
// only (factor 1.1) or classic with client-go's buckets.
type durations struct{ queue, work prometheus.Histogram }

func newDurations(native bool) (*prometheus.Registry, durations) {
	opts := func(name string) prometheus.HistogramOpts {
		o := prometheus.HistogramOpts{Name: name, Help: name, ConstLabels: prometheus.Labels{"name": "q"}}
		if native {
			o.NativeHistogramBucketFactor, o.NativeHistogramZeroThreshold = 1.1, 1e-9
		} else {
			o.Buckets = prometheus.ExponentialBuckets(10e-9, 10, 12)
		}
		return o
	}
	d := durations{queue: prometheus.NewHistogram(opts("workqueue_queue_duration_seconds")),
		work: prometheus.NewHistogram(opts("workqueue_work_duration_seconds"))}
	reg := prometheus.NewRegistry()
	reg.MustRegister(d.queue, d.work)
	return reg, d
}

func (d durations) observe(n int, wait, work float64) {
	for range n {
		d.queue.Observe(wait)
		d.work.Observe(work)
	}
}

// TestRulesReadNativeHistograms has a real Prometheus, native histograms enabled, evaluate the
// rules over two controllers fed the same items: one exports its durations as native
// histograms only, the other as classic ones. The native one gets every figure the classic
// one gets, each once: the same mean wait (exact: a sum over a count), the same completions,
// and work quantiles within a native bucket of the true ones.
func TestRulesReadNativeHistograms(t *testing.T) {
	t.Parallel() // it mostly waits on a real server's scrapes: beside the others that do
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real Prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	o := DefaultOptions()
	o.Window = 10 * time.Second
	var rules strings.Builder
	if err := Write(&rules, "yaml", mustBuild(t, o), Meta{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rulesFile := filepath.Join(dir, "rules.yaml")
	if err := os.WriteFile(rulesFile, []byte(rules.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	nativeReg, native := newDurations(true)
	classicReg, classic := newDurations(false)
	nsrv := httptest.NewServer(promhttp.HandlerFor(nativeReg, promhttp.HandlerOpts{}))
	defer nsrv.Close()
	csrv := httptest.NewServer(promhttp.HandlerFor(classicReg, promhttp.HandlerOpts{}))
	defer csrv.Close()
	url := promserver.PrometheusNativeHistograms(t, bin, fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 900ms
  evaluation_interval: 1s
rule_files: [%q]
scrape_configs:
  - job_name: native
    static_configs: [{targets: [%q]}]
  - job_name: classic
    static_configs: [{targets: [%q]}]
`, rulesFile, strings.TrimPrefix(nsrv.URL, "http://"), strings.TrimPrefix(csrv.URL, "http://")))
	client, err := promsource.NewClient(promsource.ClientConfig{URL: url, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	query := func(expr string) map[string]float64 {
		t.Helper()
		r, err := client.Query(context.Background(), expr, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for _, s := range r.Series {
			if _, twice := out[s.Labels["job"]]; twice {
				t.Errorf("%s: two series for job %s", expr, s.Labels["job"])
			}
			out[s.Labels["job"]] = s.Points[0].V
		}
		return out
	}
	// Both targets scraped for longer than the window before the items, so that both rates
	// extrapolate alike (to the window's ends).
	waitFor(t, "both jobs scraped for a window", func() bool {
		up := query(`count_over_time(up[1m])`)
		return up["native"] >= 12 && up["classic"] >= 12
	})
	// 90 items waited 10ms and took 0.2s; 10 waited 0.5s and took 1.5s.
	for _, d := range []durations{native, classic} {
		d.observe(90, 0.01, 0.2)
		d.observe(10, 0.5, 1.5)
	}
	waitMean := (90*0.01 + 10*0.5) / 100
	records := []string{rec(o, recWorkP99), rec(o, recWorkP50), rec(o, recQueueMean), rec(o, recCompletions)}
	var got map[string]map[string]float64
	waitFor(t, "the records of both jobs, the items in their window", func() bool {
		got = map[string]map[string]float64{}
		for _, r := range records {
			got[r] = query(r)
		}
		m := got[rec(o, recQueueMean)]
		return len(got[rec(o, recWorkP99)]) == 2 && near(m["native"], waitMean) && near(m["classic"], waitMean)
	})
	t.Logf("records: %v", got)
	if r := query(`{__name__=~"workqueue_work_duration_seconds_(bucket|count)", job="native"}`); len(r) != 0 {
		t.Fatalf("the native target has classic series too: %v", r)
	}
	// Both scraped every second, at their own moments: the rates differ by where the window
	// cuts the scrapes, at most a scrape of the ten.
	if c := got[rec(o, recCompletions)]; !(c["native"] > 0) || math.Abs(c["native"]-c["classic"]) > 0.15*c["classic"] {
		t.Errorf("completions/s %v, want about the same for both", c)
	}
	// The true p99 and p50 of the work times are 1.5s and 0.2s: native buckets of factor 1.1
	// read them within 10 %.
	if p := got[rec(o, recWorkP99)]["native"]; math.Abs(p-1.5) > 0.15 {
		t.Errorf("native work p99 %g, want 1.5 within 10 %%", p)
	}
	if p := got[rec(o, recWorkP50)]["native"]; math.Abs(p-0.2) > 0.02 {
		t.Errorf("native work p50 %g, want 0.2 within 10 %%", p)
	}
}

// rec is the recorded series' name for the options' window.
func rec(o Options, name string) string {
	b := builder{o: o, w: promDuration(o.Window)}
	return b.rec(name)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// waitFor polls ok for up to 40s.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(40 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}
