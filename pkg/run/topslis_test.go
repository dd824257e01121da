package run

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// waitsSource serves one target whose queue "widget" has, at its n-th Read, counted the waits
// cum(n) gives (cumulative: under 100ms, and over 1s), 2s apart.
type waitsSource struct {
	t     *testing.T
	reads int
	cum   func(n int) (fast, slow float64)
}

func (s *waitsSource) Open(context.Context) (*source.Inventory, error) {
	return &source.Inventory{Targets: []target.Target{{Kind: target.KindURL, Name: "a"}}}, nil
}

func (s *waitsSource) Read(context.Context, source.Options) []source.Result {
	fast, slow := s.cum(s.reads)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(s.reads) * 2 * time.Second)
	s.reads++
	text := fmt.Sprintf(`# TYPE workqueue_depth gauge
workqueue_depth{name="widget"} 0
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="widget"} %[3]g
# TYPE workqueue_queue_duration_seconds histogram
workqueue_queue_duration_seconds_bucket{name="widget",le="0.1"} %[1]g
workqueue_queue_duration_seconds_bucket{name="widget",le="1"} %[1]g
workqueue_queue_duration_seconds_bucket{name="widget",le="10"} %[3]g
workqueue_queue_duration_seconds_bucket{name="widget",le="+Inf"} %[3]g
workqueue_queue_duration_seconds_sum{name="widget"} %[4]g
workqueue_queue_duration_seconds_count{name="widget"} %[3]g
`, fast, slow, fast+slow, 0.05*fast+5*slow)
	p, err := parse.Parse("test", strings.NewReader(text), nil)
	if err != nil {
		s.t.Fatal(err)
	}
	return []source.Result{{Target: target.Target{Kind: target.KindURL, Name: "a"}, Samples: []source.Sample{{Families: p.Families, Time: at}}}}
}

// Every frame of top judges each queue's waits over its own window as the report does: the
// first frame (lifetime, start-up included) and a quiet one (two slow waits) are not judged;
// 150 fast waits hold; 200 waits of which 100 over 1s break the objective, in the row and
// with CD223 among the frame's findings.
func TestTopJudgesTheQueueWaitSLOPerFrame(t *testing.T) {
	cum := [][2]float64{{1000, 500}, {1000, 502}, {1150, 502}, {1250, 602}}
	src := &waitsSource{t: t, cum: func(n int) (float64, float64) { return cum[n][0], cum[n][1] }}
	top := newFrames(QueuesConfig{Thresholds: findings.DefaultThresholds()}, Env{Source: src})
	for n, want := range []struct {
		verdict, why string
		waits        float64
	}{
		{"not-judged", "the first refresh", -1},
		{"not-judged", "2 waits in 2s, a p99 needs 100: a longer --refresh", 2},
		{"holds", "", 150},
		{"breaks", "", 200},
	} {
		f, err := top.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(f.List.Items) != 1 || f.List.Items[0].QueueWait == nil {
			t.Fatalf("frame %d: items %+v, want widget with its queue wait", n, f.List.Items)
		}
		o := f.List.Items[0].QueueWait
		if o.Verdict != want.verdict || !strings.HasPrefix(o.Why, want.why) || (want.why == "") != (o.Why == "") {
			t.Errorf("frame %d: verdict %q (%s), want %q (%s)", n, o.Verdict, o.Why, want.verdict, want.why)
		}
		if want.waits >= 0 && (o.Samples == nil || *o.Samples != want.waits) {
			t.Errorf("frame %d: waits %v, want %g", n, o.Samples, want.waits)
		}
		cd223 := false
		for _, fd := range f.Findings {
			cd223 = cd223 || fd.Code == "CD223"
		}
		if cd223 != (want.verdict == "breaks") {
			t.Errorf("frame %d: CD223 %v with verdict %s", n, cd223, o.Verdict)
		}
	}
}
