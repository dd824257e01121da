package health

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

// withoutComments is page as `grep -v '^#'` leaves it: valid text exposition, every family
// untyped.
func withoutComments(page []byte) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(page, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte("#")) {
			out = append(out, line...)
		}
	}
	return out
}

// snapshotOf parses page as the commands do and builds its snapshot.
func snapshotOf(t *testing.T, page []byte) (*Snapshot, []Mistyped) {
	t.Helper()
	p, err := parse.Parse("page", bytes.NewReader(page), Wanted)
	if err != nil {
		t.Fatal(err)
	}
	return FromFamilies(p.Families, time.Unix(1e9, 0)), MistypedFamilies(p.Families)
}

// histogramsOf lists every histogram of a snapshot, by where it is.
func histogramsOf(s *Snapshot) map[string]Histogram {
	out := map[string]Histogram{}
	put := func(key string, h *Histogram) {
		if h != nil {
			out[key] = *h
		}
	}
	for n, q := range s.Queues {
		put("queue "+n, q.QueueDuration)
		put("work "+n, q.WorkDuration)
	}
	put("rate limiter", s.Client.RateLimiterDuration)
	for k, i := range s.Informers {
		put(fmt.Sprintf("informer %+v", k), i.ProcessingLatency)
	}
	for f, h := range s.FlowControl.Wait {
		put(fmt.Sprintf("apf wait %+v", f), h)
	}
	for p, w := range s.Webhooks {
		put("webhook "+p, w.Latency)
	}
	return out
}

// A page without TYPE lines reads as the same page with them: the histograms by the shape of
// their series, the gauges and counters as they are, and the queues judged the same.
func TestPageWithoutTypesReadsAsTyped(t *testing.T) {
	for _, pages := range [][2]string{
		{"controller-runtime-1.prom", "controller-runtime-2.prom"},
		{"kube-controller-manager-1.prom.gz", "kube-controller-manager-2.prom.gz"},
		{"kube-apiserver-1.prom.gz", "kube-apiserver-2.prom.gz"},
	} {
		t.Run(pages[0], func(t *testing.T) {
			before, after := readPage(t, pages[0]), readPage(t, pages[1])
			typedPrev, _ := snapshotOf(t, before)
			typed, _ := snapshotOf(t, after)
			prev, _ := snapshotOf(t, withoutComments(before))
			cur, mistyped := snapshotOf(t, withoutComments(after))
			if len(cur.Mistyped) != 0 || len(mistyped) != 0 {
				t.Errorf("mistyped: %+v, %+v", cur.Mistyped, mistyped)
			}
			want, got := histogramsOf(typed), histogramsOf(cur)
			if len(want) == 0 {
				t.Fatal("the page has no histogram the model reads")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("histograms without TYPE:\n%+v\nwith:\n%+v", got, want)
			}
			w, g := fmt.Sprintf("%+v", Queues("t", typedPrev, typed, 30*time.Second)), fmt.Sprintf("%+v", Queues("t", prev, cur, 30*time.Second))
			if g != w {
				t.Errorf("queues without TYPE:\n%s\nwith:\n%s", g, w)
			}
			var names, typedNames []string
			for n := range cur.Families {
				names = append(names, n)
			}
			for n := range typed.Families {
				typedNames = append(typedNames, n)
			}
			sort.Strings(names)
			sort.Strings(typedNames)
			if !reflect.DeepEqual(names, typedNames) {
				t.Errorf("families without TYPE %v, with %v", names, typedNames)
			}
		})
	}
}

// Untyped parts that do not have a histogram's shape are listed, not read: bucket series
// without an le label or with one that is no number, a negative count, or no buckets at all.
// The figures drawn from them are unknown, and the page is not changed.
func TestUntypedPartsNotAHistogram(t *testing.T) {
	const sumCount = "workqueue_work_duration_seconds_sum{name=\"a\"} 4\nworkqueue_work_duration_seconds_count{name=\"a\"} 2\n"
	for name, page := range map[string]string{
		"no le":          "workqueue_work_duration_seconds_bucket{name=\"a\"} 2\n" + sumCount,
		"le not a bound": "workqueue_work_duration_seconds_bucket{name=\"a\",le=\"soon\"} 2\n" + sumCount,
		"negative count": "workqueue_work_duration_seconds_bucket{name=\"a\",le=\"+Inf\"} -2\n" + sumCount,
		"no buckets":     sumCount,
		"no count":       "workqueue_work_duration_seconds_bucket{name=\"a\",le=\"+Inf\"} 2\nworkqueue_work_duration_seconds_sum{name=\"a\"} 4\n",
	} {
		t.Run(name, func(t *testing.T) {
			s, mistyped := snapshotOf(t, []byte("workqueue_depth{name=\"a\"} 1\n"+page))
			want := []Mistyped{{Family: "workqueue_work_duration_seconds", Declared: "untyped", Read: "histogram"}}
			if !reflect.DeepEqual(s.Mistyped, want) || !reflect.DeepEqual(mistyped, want) {
				t.Errorf("Mistyped = %+v, %+v, want %+v", s.Mistyped, mistyped, want)
			}
			if q := s.Queues["a"]; q == nil || q.WorkDuration != nil || q.Depth != 1 {
				t.Errorf("queue a = %+v", q)
			}
		})
	}
}

// The series of an untyped histogram are grouped by their labels in any order, their buckets
// sorted, and counts that are not integers kept; the page as parsed is left as it is.
func TestUntypedHistogramSeries(t *testing.T) {
	page := "workqueue_queue_duration_seconds_bucket{le=\"+Inf\",name=\"a\"} 4\n" +
		"workqueue_queue_duration_seconds_bucket{name=\"a\",le=\"1\"} 3\n" +
		"workqueue_queue_duration_seconds_bucket{name=\"a\",le=\"0.1\"} 1\n" +
		"workqueue_queue_duration_seconds_sum{name=\"a\"} 2.5\n" +
		"workqueue_queue_duration_seconds_count{name=\"a\"} 4\n" +
		"workqueue_queue_duration_seconds_bucket{name=\"b\",le=\"+Inf\"} 1.5\n" +
		"workqueue_queue_duration_seconds_bucket{name=\"b\",le=\"1\"} 0.5\n" +
		"workqueue_queue_duration_seconds_sum{name=\"b\"} 1\n" +
		"workqueue_queue_duration_seconds_count{name=\"b\"} 1.5\n"
	p, err := parse.Parse("page", strings.NewReader(page), Wanted)
	if err != nil {
		t.Fatal(err)
	}
	s := FromFamilies(p.Families, time.Time{})
	a, b := s.Queues["a"].QueueDuration, s.Queues["b"].QueueDuration
	wantA := &Histogram{Buckets: []Bucket{{0.1, 1}, {1, 3}, {math.Inf(1), 4}}, Count: 4, Sum: 2.5}
	wantB := &Histogram{Buckets: []Bucket{{1, 0.5}, {math.Inf(1), 1.5}}, Count: 1.5, Sum: 1}
	if !reflect.DeepEqual(a, wantA) {
		t.Errorf("queue a: %+v, want %+v", a, wantA)
	}
	if !reflect.DeepEqual(b, wantB) {
		t.Errorf("queue b: %+v, want %+v", b, wantB)
	}
	if p.Families["workqueue_queue_duration_seconds"] != nil || p.Families["workqueue_queue_duration_seconds_bucket"] == nil {
		t.Errorf("the parsed page was changed: %v", p.Families)
	}
}
