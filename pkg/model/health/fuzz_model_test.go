package health_test

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// FuzzFromFamilies: any two pages that parse give snapshots, queue figures (rates, window
// quantiles, statuses) and json and yaml output without panicking or failing to encode,
// whatever values they hold (NaN, ±Inf, resets, negative counts, queues that come and go).
func FuzzFromFamilies(f *testing.F) {
	f.Add([]byte("workqueue_adds_total{name=\"a\"} 10\nworkqueue_depth{name=\"a\"} 3\n"),
		[]byte("workqueue_adds_total{name=\"a\"} 5\nworkqueue_depth{name=\"a\"} NaN\n"), uint16(5))
	f.Add([]byte("# TYPE workqueue_queue_duration_seconds histogram\n"+
		"workqueue_queue_duration_seconds_bucket{name=\"a\",le=\"1\"} 1\n"+
		"workqueue_queue_duration_seconds_bucket{name=\"a\",le=\"+Inf\"} 2\n"+
		"workqueue_queue_duration_seconds_count{name=\"a\"} 2\nworkqueue_queue_duration_seconds_sum{name=\"a\"} 1\n"),
		[]byte("# TYPE workqueue_queue_duration_seconds histogram\n"+
			"workqueue_queue_duration_seconds_bucket{name=\"a\",le=\"1\"} +Inf\n"+
			"workqueue_queue_duration_seconds_bucket{name=\"a\",le=\"+Inf\"} +Inf\n"+
			"workqueue_queue_duration_seconds_count{name=\"a\"} 3\nworkqueue_queue_duration_seconds_sum{name=\"a\"} NaN\n"+
			"controller_runtime_reconcile_total{controller=\"a\",result=\"error\"} -Inf\n"+
			"controller_runtime_active_workers{controller=\"a\"} NaN\nleader_election_master_status{name=\"a\"} 1\n"), uint16(1))
	// Without TYPE lines: the histogram is read by the shape of its series.
	f.Add([]byte("workqueue_work_duration_seconds_bucket{name=\"a\",le=\"1\"} 1\n"+
		"workqueue_work_duration_seconds_bucket{le=\"+Inf\",name=\"a\"} 2\n"+
		"workqueue_work_duration_seconds_sum{name=\"a\"} 1\nworkqueue_work_duration_seconds_count{name=\"a\"} 2\n"),
		[]byte("workqueue_work_duration_seconds_bucket{name=\"a\",le=\"1\"} 1.5\n"+
			"workqueue_work_duration_seconds_bucket{name=\"a\",le=\"x\"} 3\n"+
			"workqueue_work_duration_seconds_count{name=\"a\"} -3\n"), uint16(10))
	f.Add([]byte(""), []byte("workqueue_longest_running_processor_seconds{name=\"b\"} +Inf\nworkqueue_retries_total{name=\"b\"} -1\n"), uint16(0))
	f.Fuzz(func(t *testing.T, before, after []byte, seconds uint16) {
		parsePage := func(b []byte) *health.Snapshot {
			p, err := parse.Parse("fuzz", bytes.NewReader(b), health.Wanted)
			if err != nil {
				return nil
			}
			return health.FromFamilies(p.Families, time.Unix(1e9, 0))
		}
		prev, cur := parsePage(before), parsePage(after)
		if cur == nil {
			return
		}
		window := time.Duration(seconds) * time.Second
		if prev == nil {
			window = 0
		}
		stats := health.Queues("fuzz", prev, cur, window)
		for _, st := range stats {
			if st.Status == "" {
				t.Fatalf("queue %q has no status", st.Queue)
			}
		}
		list := view.NewQueueList(stats, nil)
		for _, format := range []string{"json", "yaml"} {
			if err := render.Write(io.Discard, format, list); err != nil {
				t.Fatalf("-o %s: %v", format, err)
			}
		}
		if err := render.QueueTable(io.Discard, list, true, 0); err != nil {
			t.Fatalf("-o wide: %v", err)
		}
	})
}
