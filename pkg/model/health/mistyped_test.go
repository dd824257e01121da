package health

import (
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
)

// A gauge declared as a histogram loses its value in the parser and a duration declared as a
// summary has no buckets: both are listed, and their figures are unknown. A counter declared
// as a gauge is read as it is, and families the model does not read are not judged.
func TestMistypedFamilies(t *testing.T) {
	s := loadText(t, `# TYPE workqueue_depth histogram
workqueue_depth{name="a"} 3
# TYPE workqueue_work_duration_seconds summary
workqueue_work_duration_seconds{name="a",quantile="0.99"} 2
workqueue_work_duration_seconds_sum{name="a"} 4
workqueue_work_duration_seconds_count{name="a"} 2
# TYPE workqueue_adds_total gauge
workqueue_adds_total{name="a"} 7
# TYPE some_latency_seconds summary
some_latency_seconds_sum 1
some_latency_seconds_count 1
`)
	want := []Mistyped{
		{Family: "workqueue_depth", Declared: "histogram", Read: "gauge, counter or untyped"},
		{Family: "workqueue_work_duration_seconds", Declared: "summary", Read: "histogram"},
	}
	if !reflect.DeepEqual(s.Mistyped, want) {
		t.Fatalf("Mistyped = %+v, want %+v", s.Mistyped, want)
	}
	q := s.Queues["a"]
	if q == nil || !math.IsNaN(q.Depth) || q.WorkDuration != nil || q.Adds != 7 {
		t.Fatalf("queue a = %+v", q)
	}
}

// No real page is judged mistyped: the check must not cry wolf.
func TestNoFixtureIsMistyped(t *testing.T) {
	entries, err := os.ReadDir(testpages.Dir())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !strings.Contains(e.Name(), ".prom") {
			continue
		}
		n++
		if m := load(t, e.Name()).Mistyped; len(m) != 0 {
			t.Errorf("%s: %+v", e.Name(), m)
		}
	}
	if n < 5 {
		t.Fatalf("only %d pages in %s", n, testpages.Dir())
	}
}
