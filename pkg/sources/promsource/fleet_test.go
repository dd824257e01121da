package promsource_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
)

// controllerFormat is a controller-runtime controller's page: workers, reconciles, adds,
// depth, queue wait (fast below 0.1 s, slow between 10 and 100 s) and work time (below 1 s).
const controllerFormat = `# TYPE process_start_time_seconds gauge
process_start_time_seconds 1000
# TYPE controller_runtime_active_workers gauge
controller_runtime_active_workers{controller="op"} %[1]d
# TYPE controller_runtime_max_concurrent_reconciles gauge
controller_runtime_max_concurrent_reconciles{controller="op"} 2
# TYPE controller_runtime_reconcile_total counter
controller_runtime_reconcile_total{controller="op",result="success"} %[2]d
controller_runtime_reconcile_total{controller="op",result="error"} 0
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="op",controller="op"} %[3]d
# TYPE workqueue_retries_total counter
workqueue_retries_total{name="op",controller="op"} 0
# TYPE workqueue_depth gauge
workqueue_depth{name="op",controller="op"} %[4]d
# TYPE workqueue_queue_duration_seconds histogram
workqueue_queue_duration_seconds_bucket{name="op",controller="op",le="0.1"} %[5]d
workqueue_queue_duration_seconds_bucket{name="op",controller="op",le="10"} %[5]d
workqueue_queue_duration_seconds_bucket{name="op",controller="op",le="100"} %[6]d
workqueue_queue_duration_seconds_bucket{name="op",controller="op",le="+Inf"} %[6]d
workqueue_queue_duration_seconds_sum{name="op",controller="op"} %[7]g
workqueue_queue_duration_seconds_count{name="op",controller="op"} %[6]d
# TYPE workqueue_work_duration_seconds histogram
workqueue_work_duration_seconds_bucket{name="op",controller="op",le="1"} %[2]d
workqueue_work_duration_seconds_bucket{name="op",controller="op",le="+Inf"} %[2]d
workqueue_work_duration_seconds_sum{name="op",controller="op"} %[8]g
workqueue_work_duration_seconds_count{name="op",controller="op"} %[2]d
`

// controllerPage renders the page after done reconciles (each waited fast, or slow when
// slow), with depth items waiting and active workers busy.
func controllerPage(active, done, depth int, slow bool) []byte {
	fast, all, waited := done, done, 0.05*float64(done)
	if slow {
		fast, waited = 0, 50*float64(done)
	}
	return fmt.Appendf(nil, controllerFormat, active, done, done+depth, depth, fast, all, waited, 0.5*float64(done))
}

// TestFleet reads two clusters from a real Prometheus: two scrape jobs relabelled
// cluster="a" (a healthy controller) and cluster="b" (a saturated one), and a third job
// without a cluster label. The queue table has a CLUSTER column; the report ranks b first with
// its saturation, then a with nothing; a cluster asked for but absent is a warning. When the
// queries over the whole fleet fail, each cluster is asked on its own: the one whose queries
// fail is an error of its own, the other is still read and judged.
func TestFleet(t *testing.T) {
	t.Parallel() // it mostly waits on a real server's scrapes: beside the others that do
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real Prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	p := &pages{by: map[string][4][]byte{
		"/healthy": {controllerPage(0, 100, 0, false), controllerPage(1, 110, 0, false), controllerPage(0, 120, 0, false), controllerPage(0, 130, 0, false)},
		"/saturated": {controllerPage(2, 100, 100, true), controllerPage(2, 104, 120, true), controllerPage(2, 108, 140, true),
			controllerPage(2, 112, 160, true)},
	}}
	srv := httptest.NewServer(p)
	defer srv.Close()
	target := strings.TrimPrefix(srv.URL, "http://")
	promURL := promserver.Prometheus(t, bin, fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: op-a
    metrics_path: /healthy
    static_configs: [{targets: [%[1]q], labels: {cluster: a, namespace: ns, pod: op-0}}]
  - job_name: op-b
    metrics_path: /saturated
    static_configs: [{targets: [%[1]q], labels: {cluster: b, namespace: ns, pod: op-0}}]
  - job_name: op-nolabel
    metrics_path: /healthy
    static_configs: [{targets: [%[1]q], labels: {namespace: other, pod: op-0}}]
`, target))
	client, err := promsource.NewClient(promsource.ClientConfig{URL: promURL, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	waitJobScrapes(t, client, 3, 2)
	start := time.Now()
	for phase := int32(1); phase <= 3; phase++ {
		p.phase.Store(phase)
		waitJobScrapes(t, client, 3, 2)
	}
	end := time.Now()
	ctx := context.Background()
	th := findings.DefaultThresholds()
	cfg := promsource.Config{Client: client, At: end, Window: end.Sub(start)}

	t.Run("queues", func(t *testing.T) {
		res, err := run.QueuesWith(ctx, run.QueuesConfig{Thresholds: th}, run.Env{Source: promsource.New(cfg)})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(res.List.Clusters, ","); got != ",a,b" {
			t.Errorf("clusters %q, want \",a,b\" (the unlabelled targets, a, b)", got)
		}
		if !contains(res.Warnings, "1 of 3 targets has no cluster label (--cluster-label): it is listed without a cluster") {
			t.Errorf("no warning about the target without a cluster label: %q", res.Warnings)
		}
		var out bytes.Buffer
		if err := render.QueueTable(&out, res.List, false, 0); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 4 || !strings.HasPrefix(lines[0], "CLUSTER ") {
			t.Fatalf("table:\n%s", out.String())
		}
		// Worst first: b's saturated queue, then the healthy ones; TARGET within the cluster.
		if f := strings.Fields(lines[1]); f[0] != "b" || f[1] != "ns/op-0:"+port(target) || !slices.Contains(f, "BACKLOG") {
			t.Errorf("first row %q, want b's saturated queue (BACKLOG: 160 items, rising), named ns/op-0:%s", lines[1], port(target))
		}
		for _, l := range lines[2:] {
			if f := strings.Fields(l); !slices.Contains(f, "OK") {
				t.Errorf("row %q, want OK", l)
			}
		}
	})

	t.Run("report ranks the worst cluster first", func(t *testing.T) {
		res, err := run.ReportWith(ctx, run.ReportConfig{Thresholds: th}, run.Env{Source: promsource.New(cfg)})
		if err != nil {
			t.Fatal(err)
		}
		fl := res.Report.Fleet
		if len(fl) != 3 {
			t.Fatalf("fleet %+v, want 3 clusters", fl)
		}
		if fl[0].Cluster != "b" || fl[0].Worst == nil || fl[0].Worst.Check != "workers-saturated" || fl[0].Read != 1 {
			t.Errorf("first cluster %+v, want b with workers-saturated", fl[0])
		}
		for _, c := range fl[1:] {
			if c.Critical+c.Warning > 0 || c.Read != 1 {
				t.Errorf("cluster %q: %+v, want read and healthy", c.Cluster, c)
			}
		}
		if len(res.Report.Findings) == 0 || res.Report.Findings[0].Target != "b/ns/op-0:"+port(target) {
			t.Errorf("first finding %+v, want b's", res.Report.Findings)
		}
		var out bytes.Buffer
		if err := render.ReportText(&out, res.Report); err != nil {
			t.Fatal(err)
		}
		txt := out.String()
		if !strings.Contains(txt, "FLEET: CLUSTERS, WORST FIRST") || !strings.Contains(txt, "CD208 workers-saturated") {
			t.Errorf("no fleet section naming b's saturation:\n%s", txt)
		}
	})

	t.Run("a cluster asked for but absent is a warning", func(t *testing.T) {
		c := cfg
		c.Clusters = []string{"a", "c"}
		inv, err := promsource.New(c).Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(inv.Targets) != 1 || inv.Targets[0].Cluster != "a" {
			t.Errorf("targets %+v, want a's only", inv.Targets)
		}
		if !contains(inv.Warnings, "cluster c: Prometheus at") {
			t.Errorf("warnings %q, want one about cluster c", inv.Warnings)
		}
	})

	t.Run("one cluster's failure does not sink the others", func(t *testing.T) {
		// A proxy answers every query except those about a's series alone as a Thanos
		// store that is down would (the targets are found, then every reading fails).
		front := httptest.NewServer(failingProxy(t, promURL, func(q string) bool {
			return !strings.HasPrefix(q, "count by") && !strings.Contains(q, `cluster=~"a"`)
		}))
		defer front.Close()
		fc, err := promsource.NewClient(promsource.ClientConfig{URL: front.URL, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		c := cfg
		c.Client = fc
		res, err := run.ReportWith(ctx, run.ReportConfig{Thresholds: th}, run.Env{Source: promsource.New(c)})
		if err != nil {
			t.Fatal(err)
		}
		r := res.Report
		if r.Summary.Read != 1 || r.Summary.Targets != 3 {
			t.Errorf("read %d of %d, want 1 of 3 (a's)", r.Summary.Read, r.Summary.Targets)
		}
		if !contains(res.Warnings, "read cluster by cluster") {
			t.Errorf("warnings %q, want one saying the clusters were read one by one", res.Warnings)
		}
		errs := map[string]string{}
		for _, e := range r.Errors {
			errs[e.Cluster] = e.Error
		}
		if !strings.Contains(errs["b"], "cluster b: Prometheus at") || !strings.Contains(errs["b"], "store b is down") {
			t.Errorf("b's error %q, want the server's words", errs["b"])
		}
		if _, ok := errs["a"]; ok {
			t.Errorf("a failed: %s", errs["a"])
		}
		for _, c := range r.Fleet {
			if c.Cluster == "a" && (c.Read != 1 || c.Critical+c.Warning > 0) {
				t.Errorf("cluster a: %+v, want read and healthy", c)
			}
		}
		if r.Fleet[len(r.Fleet)-1].Cluster != "a" {
			t.Errorf("fleet order %+v: the healthy cluster a should come last", r.Fleet)
		}
	})
}

// failingProxy forwards queries to the server at base, except those fail says fail, which it
// answers 503 with the API's error body.
func failingProxy(t *testing.T, base string, fail func(query string) bool) http.Handler {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		form, _ := url.ParseQuery(string(body))
		if fail(form.Get("query")) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"status":"error","errorType":"unavailable","error":"store b is down"}`)
			return
		}
		proxy.ServeHTTP(w, r)
	})
}

func contains(ss []string, part string) bool {
	for _, s := range ss {
		if strings.Contains(s, part) {
			return true
		}
	}
	return false
}
