package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Rows that carry their queue-wait service level (top) get WAIT SLO after QUEUE p99, "-" on a
// row without one; a list without any (queues) keeps its columns.
func TestQueueTableWaitSLOColumn(t *testing.T) {
	l := view.QueueList{Items: []view.Queue{
		{Target: "a", Queue: "widget", Status: "OK", Window: "2s", QueueWait: &view.Objective{Verdict: "breaks"}},
		{Target: "a", Queue: "gadget", Status: "OK", Window: "2s"},
	}, Errors: []view.TargetError{{Target: "b", Error: "refused"}}}
	var out bytes.Buffer
	if err := QueueTable(&out, l, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	fields := func(i int) []string { return strings.Fields(lines[i]) }
	if h := strings.Join(fields(0), " "); !strings.Contains(h, "QUEUE p99 WAIT SLO WORK p99") {
		t.Errorf("header %q, want WAIT SLO after QUEUE p99", h)
	}
	for i, want := range map[int]string{1: "-", 2: "breaks", 3: "-"} {
		if f := fields(i); len(f) < 7 || f[6] != want {
			t.Errorf("row %d %q: WAIT SLO %q", i, lines[i], want)
		}
	}
	l.Items[0].QueueWait = nil
	out.Reset()
	if err := QueueTable(&out, l, true); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "WAIT SLO") {
		t.Errorf("a list without service levels shows WAIT SLO:\n%s", out.String())
	}
}
