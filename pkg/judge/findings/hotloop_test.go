package findings

import (
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

func counted(target string, n int) *objects.View {
	return &objects.View{Kinds: []objects.Summary{{Kind: objects.Kind{Group: "g", Kind: "Widget", Resource: "widgets"},
		Controllers: []string{target + " ctrl"}, Total: n}}}
}

// Hot loops are judged per object when the objects were counted.
func TestHotLoopPerObject(t *testing.T) {
	fast := func(q *health.QueueStats) { q.WorkP50 = 0.005 }
	for _, tc := range []struct {
		name          string
		before, after map[string]float64
		objects       int // 0: not counted
		want, summary string
	}{
		// 3,000 objects each polled every 10 minutes: 5 reconciles a second, once per object per 600 s.
		{"polling at scale", map[string]float64{"requeue_after": 0}, map[string]float64{"requeue_after": 50}, 3000, "", ""},
		{"polling at scale, objects not counted", map[string]float64{"requeue_after": 0}, map[string]float64{"requeue_after": 50}, 0, "", ""},
		{"five objects requeued every 50ms", map[string]float64{"requeue_after": 0}, map[string]float64{"requeue_after": 980}, 5,
			"warning:hot-loop", "reconciles each of its 5 Widget objects 19.6 times a second"},
		{"five objects requeued every 50ms, not counted", map[string]float64{"requeue_after": 0}, map[string]float64{"requeue_after": 980}, 0,
			"warning:hot-loop", "98 times a second, 100% of them asking to be requeued"},
		// A reconcile that writes its own object re-triggers itself: every result a success.
		{"two objects that re-trigger themselves", map[string]float64{"success": 0}, map[string]float64{"success": 200}, 2,
			"warning:hot-loop", "10.0 times a second"},
		{"busy but spread over many objects", map[string]float64{"success": 0}, map[string]float64{"success": 200}, 400, "", ""},
		// 30 objects each changed from outside once a second: a busy controller, no loop.
		{"objects changed once a second each", map[string]float64{"success": 0}, map[string]float64{"success": 300}, 30, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := crTarget(queue(fast), tc.before, tc.after, 0)
			if tc.objects > 0 {
				tg.Objects = counted(tg.ID, tc.objects)
			}
			fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
			if got := checks(fs); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.summary != "" && !strings.Contains(fs[0].Summary, tc.summary) {
				t.Errorf("summary %q lacks %q", fs[0].Summary, tc.summary)
			}
		})
	}
}
