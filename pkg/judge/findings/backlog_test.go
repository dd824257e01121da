package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// A check's name never contradicts its evidence: a backlog that falls from 600 to 300 in 30s
// is a deep one that drains (backlog-high), never backlog-growing; one that rises is growing,
// deep or not; one sample of a deep queue says its trend is unknown.
func TestBacklogNameFollowsTheTrend(t *testing.T) {
	ok, okAfter := map[string]float64{"success": 0}, map[string]float64{"success": 10}
	for _, tc := range []struct {
		name          string
		before, after float64
		window        time.Duration
		want, says    string
	}{
		{"falling", 600, 300, 30 * time.Second, "warning:backlog-high", "300 items wait in ctrl, down from 600 in the last 30s: draining"},
		{"steady", 300, 300, 30 * time.Second, "warning:backlog-high", "steady, but deep"},
		{"rising slowly", 300, 305, 30 * time.Second, "warning:backlog-high", "up from 300 in the last 30s (less than 10)"},
		{"rising", 300, 600, 30 * time.Second, "warning:backlog-growing", "600 items wait in ctrl, up from 300 in the last 30s"},
		{"rising, shallow", 5, 20, 30 * time.Second, "warning:backlog-growing", "up from 5"},
		{"one sample", 0, 600, 0, "warning:backlog-high", "one sample: whether it grows or drains is unknown"},
		{"shallow", 50, 40, 30 * time.Second, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := crTarget(queue(func(q *health.QueueStats) {
				q.DepthBefore, q.Depth, q.Window = tc.before, tc.after, tc.window
			}), ok, okAfter, 0)
			tg.Window = tc.window
			if tc.window == 0 {
				tg.Prev = nil
			}
			fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
			if got := checks(fs); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.want != "" && !strings.Contains(fs[0].Summary, tc.says) {
				t.Errorf("summary %q lacks %q", fs[0].Summary, tc.says)
			}
			Judge(&tg, DefaultThresholds())
			if tc.want != "" && tg.Queues[0].Status != health.StatusBacklog {
				t.Errorf("status %s", tg.Queues[0].Status)
			}
		})
	}
}

// backlog-high was part of backlog-growing before it had a check of its own: what selects the
// old check selects it too; nothing else is selected by another check.
func TestBacklogHighIsSelectedByTheCheckItCameFrom(t *testing.T) {
	if got := strings.Join(SelectedBy("backlog-high"), ","); got != "backlog-high,backlog-growing" {
		t.Errorf("backlog-high: %s", got)
	}
	for _, d := range Catalog() {
		if d.Check != "backlog-high" && len(SelectedBy(d.Check)) != 1 {
			t.Errorf("%s is selected by %v", d.Check, SelectedBy(d.Check))
		}
	}
}
