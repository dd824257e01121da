package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// 99 of 100 items took longer than the highest finite bucket (100ms), with and without the
// +Inf bucket on the page: the table shows the p99 as the bound it is, ">= 100ms", not as
// "100ms", and -o json says so next to the number; -o wide shows the mean.
func TestQueueTableShowsAQuantileAboveTheTopBucketAsABound(t *testing.T) {
	for _, les := range [][]string{{"0.01", "0.1", "+Inf"}, {"0.01", "0.1"}} {
		t.Run(strings.Join(les, ","), func(t *testing.T) {
			page := func(cum map[string]float64, sum, count float64) *health.Snapshot {
				var b strings.Builder
				b.WriteString("workqueue_depth{name=\"q\"} 0\n# TYPE workqueue_work_duration_seconds histogram\n")
				for _, le := range les {
					fmt.Fprintf(&b, "workqueue_work_duration_seconds_bucket{name=\"q\",le=%q} %g\n", le, cum[le])
				}
				fmt.Fprintf(&b, "workqueue_work_duration_seconds_sum{name=\"q\"} %g\nworkqueue_work_duration_seconds_count{name=\"q\"} %g\n", sum, count)
				return health.FromFamilies(testpages.ParseText(t, b.String()), time.Time{})
			}
			prev := page(map[string]float64{}, 0, 0)
			cur := page(map[string]float64{"0.1": 1, "+Inf": 100}, 99*0.2+0.05, 100)
			l := view.NewQueueList(health.Queues("t", prev, cur, time.Minute), nil)
			var b bytes.Buffer
			if err := QueueTable(&b, l, true, 0); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			header, row := strings.Fields(strings.Split(out, "\n")[0]), strings.Split(out, "\n")[1]
			if !strings.Contains(row, " >= 100ms ") || !strings.Contains(out, "WORK MEAN") || !strings.Contains(row, " 198ms ") {
				t.Errorf("table (header %v):\n%s", header, out)
			}
			js, err := json.Marshal(l.Items[0])
			if err != nil {
				t.Fatal(err)
			}
			if s := string(js); !strings.Contains(s, `"workP99Seconds":0.1,`) || !strings.Contains(s, `"workP99AtLeast":true`) ||
				!strings.Contains(s, `"workMeanSeconds":0.1985`) {
				t.Errorf("json: %s", s)
			}
		})
	}
}

func TestQuantile(t *testing.T) {
	v := 0.1
	if got := Quantile(&v, true); got != ">= 100ms" {
		t.Errorf("Quantile(0.1, at least) = %q", got)
	}
	if got := Quantile(&v, false); got != "100ms" {
		t.Errorf("Quantile(0.1) = %q", got)
	}
	if got := Quantile(nil, true); got != "-" {
		t.Errorf("Quantile(nil, at least) = %q", got)
	}
}
