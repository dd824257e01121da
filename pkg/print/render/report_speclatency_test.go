package render

import (
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
)

// A kind whose objects say neither when they were observed nor when they were Ready shows
// dashes and says why, never a latency of zero; a kind not watched (an error) has no row.
func TestSpecLatencySectionNotMeasurable(t *testing.T) {
	job := objects.Kind{Group: "batch", Version: "v1", Kind: "Job", Resource: "jobs", Namespaced: true}
	v := &objects.View{Kinds: []objects.Summary{
		{Kind: job, SpecLatency: &objects.SpecLatency{Seconds: 10, Changes: 2, Pending: 2, NoObservedGeneration: true},
			TimeToReady: &objects.TimeToReady{Seconds: 10, Changes: 2, Pending: 2, NoReadyCondition: true}},
		{Kind: objects.Kind{Kind: "Widget"}, Error: "may not list widgets", SpecLatency: &objects.SpecLatency{}},
	}}
	s, ok := specLatencySection(v)
	if !ok || len(s.Rows) != 1 {
		t.Fatalf("rows %v, want the Job only", s.Rows)
	}
	got := strings.Join(s.Rows[0], "|")
	if want := "Job|2|0|-|-|-|2|-|-|no observedGeneration: when the controller acts is not measurable; no Ready condition"; got != want {
		t.Errorf("row\n%s\nwant\n%s", got, want)
	}
	old := objects.Summary{Kind: objects.Kind{Kind: "Legacy"}, SpecLatency: &objects.SpecLatency{NoStatusSubresource: true},
		TimeToReady: &objects.TimeToReady{NoStatusSubresource: true}}
	if s, _ := specLatencySection(&objects.View{Kinds: []objects.Summary{old}}); len(s.Rows) != 1 || s.Rows[0][1] != "-" ||
		!strings.Contains(s.Rows[0][9], "no /status subresource") {
		t.Errorf("a kind without /status: %v", s.Rows)
	}
	if _, ok := specLatencySection(&objects.View{Kinds: []objects.Summary{{Kind: job}}}); ok {
		t.Error("a kind not watched (a snapshot, --url) made a table")
	}
}
