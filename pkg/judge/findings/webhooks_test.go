package findings

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// webhookPage is a controller-runtime page serving the webhook /validate with its latency
// histogram in controller-runtime's buckets (1e-8 .. 1000 s, factor 10): n[le] requests in
// each bucket (not cumulative), sum seconds in all, and requests by code.
func webhookPage(t *testing.T, n map[string]float64, sum float64, codes map[string]float64) *health.Snapshot {
	var b strings.Builder
	b.WriteString("workqueue_depth{name=\"c\",controller=\"c\"} 0\ncontroller_runtime_reconcile_total{controller=\"c\",result=\"success\"} 10\n")
	b.WriteString("# TYPE controller_runtime_webhook_latency_seconds histogram\n")
	var cum float64
	for _, le := range []string{"1e-08", "1e-07", "1e-06", "1e-05", "0.0001", "0.001", "0.01", "0.1", "1", "10", "100", "1000", "+Inf"} {
		cum += n[le]
		fmt.Fprintf(&b, "controller_runtime_webhook_latency_seconds_bucket{webhook=\"/validate\",le=%q} %g\n", le, cum)
	}
	fmt.Fprintf(&b, "controller_runtime_webhook_latency_seconds_sum{webhook=\"/validate\"} %g\ncontroller_runtime_webhook_latency_seconds_count{webhook=\"/validate\"} %g\n", sum, cum)
	for code, v := range codes {
		fmt.Fprintf(&b, "controller_runtime_webhook_requests_total{webhook=\"/validate\",code=%q} %g\n", code, v)
	}
	b.WriteString("controller_runtime_webhook_requests_in_flight{webhook=\"/validate\"} 3\n")
	return health.FromFamilies(testpages.ParseText(t, b.String()), time.Time{})
}

func TestWebhookLatency(t *testing.T) {
	th := DefaultThresholds()
	start := webhookPage(t, map[string]float64{"0.01": 100}, 0.5, map[string]float64{"200": 100, "500": 0})
	window := func(cur *health.Snapshot) []Finding {
		return Evaluate([]Target{{ID: "ns/op:9443", Kind: ControllerRuntime, Prev: start, Cur: cur, Window: 10 * time.Second}}, nil, nil, th)
	}
	for _, tc := range []struct {
		name string
		cur  *health.Snapshot
		want string
	}{
		// 15 of 40 requests took 1-10s: p90 is surely above 1s.
		{"surely slow", webhookPage(t, map[string]float64{"0.01": 125, "10": 15}, 0.5+0.125+45, map[string]float64{"200": 135, "500": 5}), "warning:webhook-latency"},
		// Every request took ~300ms: the p90 lies in the 0.1-1s bucket and the mean confirms it.
		{"all at 300ms", webhookPage(t, map[string]float64{"0.01": 100, "1": 40}, 0.5+12, map[string]float64{"200": 140}), "warning:webhook-latency"},
		// Every request took ~150ms: the interpolated p90 (0.91s) overstates, the mean says no.
		{"all at 150ms", webhookPage(t, map[string]float64{"0.01": 100, "1": 40}, 0.5+6, map[string]float64{"200": 140}), ""},
		{"fast", webhookPage(t, map[string]float64{"0.01": 200}, 1, map[string]float64{"200": 200}), ""},
		{"too few to judge", webhookPage(t, map[string]float64{"0.01": 100, "10": 5}, 15.5, map[string]float64{"200": 105}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := checks(window(tc.cur)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// The p90 interpolated in (1s, 10s] is 7.6s; the sum allows at most 1s + 30.1s/5 = 7.02s:
	// it holds 30.1s above the buckets' lower edges, shared by the five requests at or above
	// the p90's rank.
	fs := window(webhookPage(t, map[string]float64{"0.01": 125, "10": 15}, 0.5+0.125+45, map[string]float64{"200": 135, "500": 5}))
	f := fs[0]
	if f.Code != "CD216" || f.Queue != "/validate" || evidenceValue(f, "latency p90") != "7.02s (in the 1s-10s bucket)" || evidenceValue(f, "requests") != "40" ||
		evidenceValue(f, "5xx answers") != "5 of 40 (500: 5)" || evidenceValue(f, "in flight now") != "3" || evidenceValue(f, "mean latency") != "1.13s" {
		t.Errorf("finding: %+v", f)
	}
	// One sample: latency since the process started is context.
	lifetime := Target{ID: "ns/op:9443", Kind: ControllerRuntime, Cur: webhookPage(t, map[string]float64{"10": 40}, 80, map[string]float64{"200": 40})}
	if got := checks(Evaluate([]Target{lifetime}, nil, nil, th)); got != "info:webhook-latency" {
		t.Errorf("one sample: %q", got)
	}
	// A controller that serves no webhook has none of these families.
	if s := clientPage(t, map[string]float64{"200": 1}); len(s.Webhooks) != 0 {
		t.Errorf("webhooks on a page without them: %+v", s.Webhooks)
	}
}
