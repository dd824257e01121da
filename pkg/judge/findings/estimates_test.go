package findings

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// workPage is a client-go page with one queue "q" whose work duration histogram has the
// cumulative counts cum by le (written in the order of les), sum and count.
func workPage(t *testing.T, les []string, cum map[string]float64, sum, count float64) *health.Snapshot {
	var b strings.Builder
	b.WriteString("workqueue_depth{name=\"q\"} 0\nworkqueue_adds_total{name=\"q\"} " + fmt.Sprint(count) + "\n")
	b.WriteString("# TYPE workqueue_work_duration_seconds histogram\n")
	for _, le := range les {
		fmt.Fprintf(&b, "workqueue_work_duration_seconds_bucket{name=\"q\",le=%q} %g\n", le, cum[le])
	}
	fmt.Fprintf(&b, "workqueue_work_duration_seconds_sum{name=\"q\"} %g\nworkqueue_work_duration_seconds_count{name=\"q\"} %g\n", sum, count)
	return health.FromFamilies(testpages.ParseText(t, b.String()), time.Time{})
}

func judgeOne(t *testing.T, prev, cur *health.Snapshot, th Thresholds) (health.QueueStats, []Finding) {
	t.Helper()
	tg := Target{ID: "t", Kind: ClientGo, Prev: prev, Cur: cur, Window: time.Minute}
	tg.Queues = health.Queues("t", prev, cur, time.Minute)
	Judge(&tg, th)
	return tg.Queues[0], Evaluate([]Target{tg}, nil, nil, th)
}

func findingText(f Finding) string {
	s := f.Summary
	for _, e := range f.Evidence {
		s += "; " + e.Name + ": " + e.Value
	}
	return s
}

// Three reconciles in (10s, 100s] summing to 30.005s each took at most 10.005s: the p99
// histogram_quantile interpolates (99.1s, "1m39.1s") is impossible and no finding quotes it.
func TestWorkP99BoundedBySum(t *testing.T) {
	les := []string{"1", "10", "100", "+Inf"}
	prev := workPage(t, les, map[string]float64{}, 0, 0)
	cur := workPage(t, les, map[string]float64{"100": 3, "+Inf": 3}, 30.005, 3)
	q, fs := judgeOne(t, prev, cur, DefaultThresholds())
	if q.WorkP99 > 10.005+1e-9 || q.WorkP99 < 10 || q.WorkP99AtLeast {
		t.Errorf("work p99 = %v (at least: %v), want in [10s, 10.005s]", q.WorkP99, q.WorkP99AtLeast)
	}
	if q.WorkMean < 10.0016 || q.WorkMean > 10.0017 {
		t.Errorf("work mean = %v, want 10.00167", q.WorkMean)
	}
	if got := checks(fs); got != "warning:slow-reconcile" {
		t.Fatalf("findings %q, want the slow reconciles (10s >= 1s)", got)
	}
	if s := findingText(fs[0]); strings.Contains(s, "1m39") || strings.Contains(s, "99.1") || !strings.Contains(s, "work p99: 10s") {
		t.Errorf("finding quotes %q, want the bounded p99 10s", s)
	}
}

// 99 of 100 reconciles took longer than the highest finite bucket (100ms): the p99 is only
// known to be >= 100ms. A threshold at or below the bound fires; one above it leaves the queue
// OK with a reason saying the buckets cannot tell. The same holds when the page has no +Inf
// bucket (its count stands for it).
func TestWorkP99AboveTheTopBucket(t *testing.T) {
	for _, les := range [][]string{{"0.01", "0.1", "+Inf"}, {"0.01", "0.1"}} {
		name := "with +Inf"
		if len(les) == 2 {
			name = "without +Inf"
		}
		t.Run(name, func(t *testing.T) {
			prev := workPage(t, les, map[string]float64{}, 0, 0)
			cur := workPage(t, les, map[string]float64{"0.01": 0, "0.1": 1, "+Inf": 100}, 99*0.2+0.05, 100)
			low := DefaultThresholds()
			low.SlowWork = Duration(50 * time.Millisecond)
			q, fs := judgeOne(t, prev, cur, low)
			if q.WorkP99 != 0.1 || !q.WorkP99AtLeast {
				t.Fatalf("work p99 = %v (at least: %v), want >= 0.1", q.WorkP99, q.WorkP99AtLeast)
			}
			if got := checks(fs); got != "warning:slow-reconcile" || q.Status != health.StatusSlow {
				t.Fatalf("threshold 50ms: findings %q, status %s; want slow-reconcile (p99 >= 100ms)", got, q.Status)
			}
			if v := evidenceValue(fs[0], "work p99"); v != ">= 100ms from 100 items" {
				t.Errorf("work p99 evidence %q, want >= 100ms from 100 items", v)
			}
			if !strings.Contains(fs[0].Summary, ">= 100ms") {
				t.Errorf("summary %q does not say >= 100ms", fs[0].Summary)
			}
			q, fs = judgeOne(t, prev, cur, DefaultThresholds()) // slowWork 1s, above the bound
			if len(fs) != 0 || q.Status != health.StatusOK || !strings.Contains(q.Reason, "work p99 >= 100ms") ||
				!strings.Contains(q.Reason, "cannot tell whether it reaches 1s") {
				t.Errorf("threshold 1s: findings %q, status %s, reason %q; want OK with a reason that the buckets cannot tell", checks(fs), q.Status, q.Reason)
			}
		})
	}
}

// One long item among 40 fast ones is the p99 of 40 items, but it says little of the
// controller: info, saying so. Two slow items, or a window whose every item was slow, are a
// slow controller.
func TestOneSlowItemAmongFastOnesIsInfo(t *testing.T) {
	les := []string{"0.01", "1", "10", "100", "+Inf"}
	prev := workPage(t, les, map[string]float64{}, 0, 0)
	for _, tc := range []struct {
		name      string
		cum       map[string]float64
		sum, n    float64
		want, why string
	}{
		{"1 of 40", map[string]float64{"0.01": 39, "1": 39, "10": 39, "100": 40, "+Inf": 40}, 31.2, 40, "info:slow-reconcile", "1 of 40 items over 1s"},
		{"2 of 40", map[string]float64{"0.01": 38, "1": 38, "10": 38, "100": 40, "+Inf": 40}, 62.2, 40, "warning:slow-reconcile", ""},
		{"1 of 1", map[string]float64{"100": 1, "+Inf": 1}, 31, 1, "warning:slow-reconcile", ""},
	} {
		_, fs := judgeOne(t, prev, workPage(t, les, tc.cum, tc.sum, tc.n), DefaultThresholds())
		if got := checks(fs); got != tc.want {
			t.Errorf("%s: findings %q, want %s", tc.name, got, tc.want)
			continue
		}
		if tc.why != "" && !strings.Contains(fs[0].Summary, tc.why) {
			t.Errorf("%s: the summary does not say why it is info: %s", tc.name, fs[0].Summary)
		}
	}
}
