//go:build envtest

package operator_test

import (
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// timed is a page and when it was read.
type timed struct {
	f  families
	at time.Time
}

func (in *instance) timedSample(t *testing.T) timed {
	t.Helper()
	at := time.Now()
	return timed{f: in.sample(t), at: at}
}

// judge runs the findings over two pages of the operator (prev nil: one page), as report does,
// and keeps those about queue: the operators this process ran before leave their series in
// the shared registry, and so on the page.
func judge(queue string, prev *timed, cur timed) []findings.Finding {
	c := health.FromFamilies(cur.f, cur.at)
	tg := findings.Target{ID: "op", Cur: c, Kind: findings.KindOf(c, nil)}
	if prev != nil {
		tg.Prev, tg.Window = health.FromFamilies(prev.f, prev.at), cur.at.Sub(prev.at)
	}
	tg.Queues = health.Queues(tg.ID, tg.Prev, tg.Cur, tg.Window)
	var out []findings.Finding
	for _, f := range findings.Evaluate([]findings.Target{tg}, nil, nil, findings.DefaultThresholds()) {
		if f.Queue == queue {
			out = append(out, f)
		}
	}
	return out
}

// top is the first warning or critical finding's check, "" when there is none.
func top(fs []findings.Finding) string {
	for _, f := range fs {
		if f.Severity != findings.Info {
			return f.Check
		}
	}
	return ""
}

func raised(fs []findings.Finding, check string) *findings.Finding {
	for i := range fs {
		if fs[i].Check == check {
			return &fs[i]
		}
	}
	return nil
}

// The starved scenario's ground truth: the objects of the initial list wait at priority -100
// and do not drain while the workers serve priority 0, and priority-starvation is the top
// finding over report's 5 s windows. A healthy and a saturated operator never raise it.
func TestStarvedScenario(t *testing.T) {
	in := start(t, "starved", "starved", nil)
	in.waitForController(t, "")
	time.Sleep(10 * time.Second)
	var pages []timed // one a second for 10 s
	for i := 0; i <= 10; i++ {
		if i > 0 {
			time.Sleep(time.Second)
		}
		pages = append(pages, in.timedSample(t))
	}
	a, b, c := pages[0], pages[5], pages[10]

	low := func(s timed) float64 {
		return s.f.sum("workqueue_depth", map[string]string{"name": in.controller, "priority": "-100"})
	}
	high := func(s timed) float64 {
		return s.f.sum("workqueue_depth", map[string]string{"name": in.controller, "priority": "0"})
	}
	done := c.f.histogram("workqueue_work_duration_seconds", map[string]string{"name": in.controller}).count -
		a.f.histogram("workqueue_work_duration_seconds", map[string]string{"name": in.controller}).count
	secs := c.at.Sub(a.at).Seconds()
	t.Logf("starved: depth -100 %v -> %v -> %v, depth 0 %v -> %v -> %v, %.1f done/s, active %v/%v",
		low(a), low(b), low(c), high(a), high(b), high(c), done/secs,
		c.f.sum("controller_runtime_active_workers", map[string]string{"controller": in.controller}),
		c.f.sum("controller_runtime_max_concurrent_reconciles", map[string]string{"controller": in.controller}))
	var lows, highs []float64
	for i, p := range pages {
		lows, highs = append(lows, low(p)), append(highs, high(p))
		if i > 0 && low(p) < low(pages[i-1]) || low(p) < 20 {
			t.Errorf("depth at priority -100 fell to %v after %v: want 20 or more and never falling", low(p), low(pages[i-1]))
		}
	}
	t.Logf("each second: depth -100 %v, depth 0 %v", lows, highs)
	if done/secs < 1 {
		t.Errorf("%.1f items done a second, want the workers busy with priority 0 (about 2/s)", done/secs)
	}
	if high(c)-high(a) >= 10 {
		t.Errorf("depth at priority 0 %v -> %v: the events must keep up, or this is saturation", high(a), high(c))
	}

	for _, w := range [][2]timed{{a, b}, {b, c}} {
		fs := judge(in.controller, &w[0], w[1])
		if got := top(fs); got != "priority-starvation" {
			t.Errorf("top finding %q, want priority-starvation; all: %v", got, checksOf(fs))
			continue
		}
		f := raised(fs, "priority-starvation")
		t.Logf("%s: %s", f.Code, f.Summary)
		if raised(fs, "workers-saturated") != nil {
			t.Errorf("workers-saturated beside priority-starvation on one queue: %v", checksOf(fs))
		}
	}
	if f := raised(judge(in.controller, nil, c), "priority-starvation"); f != nil {
		t.Errorf("one page raised %s %s: %s", f.Severity, f.Check, f.Summary)
	}
	in.stop(t)

	for _, sc := range []struct {
		name string
		warm time.Duration
	}{{"healthy", 8 * time.Second}, {"saturated", 10 * time.Second}} {
		t.Run(sc.name, func(t *testing.T) {
			in := start(t, "starvation-"+sc.name, sc.name, nil)
			in.waitForController(t, "")
			time.Sleep(sc.warm)
			a := in.timedSample(t)
			time.Sleep(5 * time.Second)
			b := in.timedSample(t)
			fs := judge(in.controller, &a, b)
			t.Logf("%s: %v", sc.name, checksOf(fs))
			if f := raised(fs, "priority-starvation"); f != nil {
				t.Errorf("%s raised priority-starvation: %s", sc.name, f.Summary)
			}
			in.stop(t)
		})
	}
}

func checksOf(fs []findings.Finding) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, string(f.Severity)+":"+f.Check+"@"+f.Queue)
	}
	return out
}
