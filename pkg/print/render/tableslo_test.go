package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Rows that carry their queue-wait service level (top) get WAIT SLO after WINDOW (the columns
// before keep their places), "-" on a row without one, before the columns of wide; a list
// without any (queues) keeps its columns.
func TestQueueTableWaitSLOColumn(t *testing.T) {
	l := view.QueueList{Items: []view.Queue{
		{Target: "a", Queue: "widget", Status: "OK", Window: "2s", QueueWait: &view.Objective{Verdict: "breaks"}},
		{Target: "a", Queue: "gadget", Status: "OK", Window: "2s"},
	}, Errors: []view.TargetError{{Target: "b", Error: "refused"}}}
	var out bytes.Buffer
	if err := QueueTable(&out, l, false, 200); err != nil { // room for every column
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	fields := func(i int) []string { return strings.Fields(lines[i]) }
	if h := strings.Join(fields(0), " "); !strings.HasSuffix(h, "STATUS WINDOW WAIT SLO") {
		t.Errorf("header %q, want WAIT SLO after WINDOW", h)
	}
	for i, want := range map[int]string{1: "-", 2: "breaks", 3: "-"} {
		if f := fields(i); len(f) != 12 || f[11] != want {
			t.Errorf("row %d %q: WAIT SLO %q", i, lines[i], want)
		}
	}
	out.Reset()
	if err := QueueTable(&out, l, true, 0); err != nil {
		t.Fatal(err)
	}
	if h := strings.Fields(strings.Split(out.String(), "\n")[0]); strings.Join(h[13:16], " ") != "WAIT SLO WORKERS" {
		t.Errorf("wide header %q, want WAIT SLO before WORKERS", h)
	}
	l.Items[0].QueueWait = nil
	out.Reset()
	if err := QueueTable(&out, l, true, 0); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "WAIT SLO") {
		t.Errorf("a list without service levels shows WAIT SLO:\n%s", out.String())
	}
}
