package findings

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// clientPage is a controller-runtime page whose REST client counted requests by code.
func clientPage(t *testing.T, codes map[string]float64) *health.Snapshot {
	var b strings.Builder
	b.WriteString("workqueue_depth{name=\"c\",controller=\"c\"} 0\ncontroller_runtime_reconcile_total{controller=\"c\",result=\"success\"} 10\n")
	for code, n := range codes {
		fmt.Fprintf(&b, "rest_client_requests_total{code=%q,host=\"10.0.0.1:443\",method=\"PATCH\"} %g\n", code, n)
	}
	return health.FromFamilies(testpages.ParseText(t, b.String()), time.Time{})
}

// apfPage is an API server page: the watch cache that tells its kind, rejections by priority
// level, FlowSchema and reason, and the queue wait histogram of level "workload-low" with
// `waits` requests of which `slow` waited between 1 and 2 seconds (the rest under 5ms).
func apfPage(t *testing.T, rejected map[string]float64, waits, slow float64) *health.Snapshot {
	var b strings.Builder
	b.WriteString("apiserver_watch_cache_resource_version{group=\"\",resource=\"pods\"} 100\nworkqueue_depth{name=\"q\"} 0\n")
	b.WriteString("# TYPE apiserver_flowcontrol_rejected_requests_total counter\n")
	for key, n := range rejected {
		pl, fs, _ := strings.Cut(key, "/")
		fmt.Fprintf(&b, "apiserver_flowcontrol_rejected_requests_total{flow_schema=%q,priority_level=%q,reason=\"concurrency-limit\"} %g\n", fs, pl, n)
	}
	b.WriteString("# TYPE apiserver_flowcontrol_current_inqueue_requests gauge\n")
	b.WriteString("apiserver_flowcontrol_current_inqueue_requests{flow_schema=\"service-accounts\",priority_level=\"workload-low\"} 2\n")
	b.WriteString("# TYPE apiserver_flowcontrol_request_wait_duration_seconds histogram\n")
	l := `execute="true",flow_schema="service-accounts",priority_level="workload-low"`
	for _, bk := range []struct {
		le string
		n  float64
	}{{"0", 0}, {"0.005", waits - slow}, {"1", waits - slow}, {"2", waits}, {"+Inf", waits}} {
		fmt.Fprintf(&b, "apiserver_flowcontrol_request_wait_duration_seconds_bucket{%s,le=%q} %g\n", l, bk.le, bk.n)
	}
	fmt.Fprintf(&b, "apiserver_flowcontrol_request_wait_duration_seconds_sum{%s} %g\n", l, 1.5*slow)
	fmt.Fprintf(&b, "apiserver_flowcontrol_request_wait_duration_seconds_count{%s} %g\n", l, waits)
	return health.FromFamilies(testpages.ParseText(t, b.String()), time.Time{})
}

func evidenceValue(f Finding, name string) string {
	for _, e := range f.Evidence {
		if strings.HasPrefix(e.Name, name) {
			return e.Value
		}
	}
	return "(none)"
}

// A controller answered 429 in the window is throttled by the server, and a set of failures
// that are all 429s is that, not api-errors; 5xx beside them are api-errors too.
func TestServerThrottlingOfAController(t *testing.T) {
	th := DefaultThresholds()
	window := func(before, after map[string]float64) Target {
		return Target{ID: "ns/op:8080", Kind: ControllerRuntime, Prev: clientPage(t, before), Cur: clientPage(t, after), Window: 5 * time.Second}
	}
	fs := Evaluate([]Target{window(map[string]float64{"200": 100, "429": 2}, map[string]float64{"200": 140, "429": 12})}, nil, nil, th)
	if got := checks(fs); got != "warning:server-throttling" {
		t.Fatalf("429s only: %q", got)
	}
	f := fs[0]
	if f.Code != "CD215" || evidenceValue(f, "429 answers") != "10" || evidenceValue(f, "requests") != "50" || evidenceValue(f, "throttled ratio") != "20.0%" ||
		!strings.Contains(f.Summary, "429 Too Many Requests to 10 of 50 requests in the last 5s") {
		t.Errorf("finding: %+v", f)
	}
	if got := checks(Evaluate([]Target{window(map[string]float64{"200": 100, "429": 2}, map[string]float64{"200": 140, "429": 4})}, nil, nil, th)); got != "" {
		t.Errorf("two 429s in the window, 4 since start: %q", got)
	}
	if got := checks(Evaluate([]Target{window(map[string]float64{"200": 100}, map[string]float64{"200": 140, "429": 3, "503": 2})}, nil, nil, th)); got != "warning:api-errors warning:server-throttling" {
		t.Errorf("429s and 503s: %q", got)
	}
	// One sample: 429s since the process started are context.
	lifetime := Target{ID: "ns/op:8080", Kind: ControllerRuntime, Cur: clientPage(t, map[string]float64{"200": 100, "429": 50})}
	fs = Evaluate([]Target{lifetime}, nil, nil, th)
	if got := checks(fs); got != "info:server-throttling" || !strings.Contains(fs[0].Summary, "since the process started") {
		t.Errorf("one sample: %q %+v", got, fs)
	}
}

// On the API server, a priority level that rejects requests in the window is server-throttling
// about that level, naming the FlowSchema; a controller's finding in the same report names the
// rejecting levels.
func TestServerThrottlingOnTheAPIServer(t *testing.T) {
	th := DefaultThresholds()
	api := Target{ID: "apiserver", Prev: apfPage(t, map[string]float64{"starved/op-writes": 4}, 100, 0),
		Cur: apfPage(t, map[string]float64{"starved/op-writes": 16, "workload-low/service-accounts": 1}, 130, 0), Window: 5 * time.Second}
	api.Kind = KindOf(api.Cur, nil)
	if api.Kind != KubeAPIServer {
		t.Fatalf("kind %s", api.Kind)
	}
	fs := Evaluate([]Target{api}, nil, nil, th)
	if got := checks(fs); got != "warning:server-throttling" {
		t.Fatalf("rejections: %q", got)
	}
	f := fs[0]
	if f.Queue != "starved" || evidenceValue(f, "rejected (429)") != "12" || evidenceValue(f, "rejected by") != "FlowSchema op-writes, reason concurrency-limit: 12" ||
		!strings.Contains(f.Summary, "priority level starved rejected 12 requests with 429 in the last 5s") ||
		!strings.Contains(f.Recommendation, "nominalConcurrencyShares") {
		t.Errorf("finding: %+v", f)
	}

	op := Target{ID: "ns/op:8080", Kind: ControllerRuntime, Prev: clientPage(t, map[string]float64{"200": 10}),
		Cur: clientPage(t, map[string]float64{"200": 20, "429": 12}), Window: 5 * time.Second}
	fs = Evaluate([]Target{op, api}, nil, nil, th)
	if got := checks(fs); got != "warning:server-throttling warning:server-throttling" {
		t.Fatalf("both: %q", got)
	}
	for _, f := range fs {
		if f.Target != op.ID {
			continue
		}
		want := "starved 12 (FlowSchema op-writes, reason concurrency-limit: 12; 0 waiting now, wait p99 unknown) | workload-low 1 (FlowSchema service-accounts, reason concurrency-limit: 1; 2 waiting now, wait p99"
		if got := evidenceValue(f, "priority levels rejecting on apiserver in the last 5s"); !strings.HasPrefix(got, want) {
			t.Errorf("the controller's evidence of the API server:\n got %s\nwant %s...", got, want)
		}
	}

	// The API server rejected nothing in the window: the controller's finding says so.
	quiet := api
	quiet.Prev = quiet.Cur
	fs = Evaluate([]Target{op, quiet}, nil, nil, th)
	if got := checks(fs); got != "warning:server-throttling" || !strings.HasPrefix(evidenceValue(fs[0], "priority levels rejecting"), "none") {
		t.Errorf("no rejections on the API server: %q %+v", got, fs)
	}

	// Long waits in a level's queues, without rejections: 12 of 40 requests waited 1-2s.
	waiting := Target{ID: "apiserver", Kind: KubeAPIServer, Prev: apfPage(t, nil, 100, 0), Cur: apfPage(t, nil, 140, 12), Window: 5 * time.Second}
	fs = Evaluate([]Target{waiting}, nil, nil, th)
	if got := checks(fs); got != "warning:server-throttling" || fs[0].Queue != "workload-low" || evidenceValue(fs[0], "queue wait p99") != "1.97s" {
		t.Errorf("long waits: %q %+v", got, fs)
	}
	// Too few waits to judge a p99.
	few := Target{ID: "apiserver", Kind: KubeAPIServer, Prev: apfPage(t, nil, 100, 0), Cur: apfPage(t, nil, 105, 5), Window: 5 * time.Second}
	if got := checks(Evaluate([]Target{few}, nil, nil, th)); got != "" {
		t.Errorf("five slow waits: %q", got)
	}
	// One sample: rejections since the API server started are context.
	if got := checks(Evaluate([]Target{{ID: "apiserver", Kind: KubeAPIServer, Cur: api.Cur}}, nil, nil, th)); got != "info:server-throttling" {
		t.Errorf("one sample: %q", got)
	}
}

// The real API server at rest has flow control series (waits at workload-high and
// leader-election, none rejected) and raises nothing: the test of the control plane at rest
// covers these families.
func TestIdleAPIServerFlowControlIsQuiet(t *testing.T) {
	a, b := load(t, "kube-apiserver-1.prom.gz"), load(t, "kube-apiserver-2.prom.gz")
	if len(b.FlowControl.Wait) == 0 || len(b.FlowControl.InQueue) == 0 {
		t.Fatalf("no flow control series on the captured page: %+v", b.FlowControl)
	}
	tg := Target{ID: "apiserver", Kind: KubeAPIServer, Prev: a, Cur: b, Window: 10 * time.Second}
	levels := priorityLevels(tg)
	if len(levels) == 0 {
		t.Fatal("no priority level waited in the window: the test proves nothing")
	}
	for _, l := range levels {
		if l.rejected != 0 || !(l.waitP99 < 0.005) {
			t.Errorf("idle level %+v", l)
		}
	}
}
