package render

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// fitTable leaves out the droppable columns in their order, only while the table is too wide,
// and never one it was not told it may.
func TestFitTableDropsInOrderUntilItFits(t *testing.T) {
	header := []string{"NAME", "A", "B", "C"}
	rows := [][]string{{"a-rather-long-name", strings.Repeat("a", 20), strings.Repeat("b", 20), strings.Repeat("c", 20)}}
	for _, tt := range []struct {
		width int
		drop  []string
		want  []string
	}{
		{width: 200, drop: []string{"C", "B"}, want: header},
		{width: 70, drop: []string{"C", "B"}, want: []string{"NAME", "A", "B"}},
		{width: 40, drop: []string{"C", "B"}, want: []string{"NAME", "A"}},
		{width: 10, drop: []string{"C", "B"}, want: []string{"NAME", "A"}}, // NAME and A stay
		{width: 40, drop: []string{"B", "C"}, want: []string{"NAME", "A"}},
		{width: 70, drop: []string{"B", "C"}, want: []string{"NAME", "A", "C"}},
	} {
		h, r := fitTable(header, rows, tt.width, tt.drop)
		if !slices.Equal(h, tt.want) || len(r[0]) != len(h) {
			t.Errorf("width %d, drop %v: got %v (row %v), want %v", tt.width, tt.drop, h, r[0], tt.want)
		}
	}
}

// The queue table keeps to the width it is given: the detail goes first, TARGET only when one
// target has every row, and -o wide keeps everything.
func TestQueueTableFitsItsWidth(t *testing.T) {
	num := func(v float64) *float64 { return &v }
	item := func(target, queue string) view.Queue {
		return view.Queue{Target: target, Queue: queue, Depth: num(120), AddsPerSecond: num(39.6), RetriesPerSecond: num(0),
			QueueP99Seconds: num(2.8), WorkP99Seconds: num(0.359), UnfinishedWorkSeconds: num(2.6), LongestRunningSeconds: num(2.6),
			Status: "BACKLOG", Window: "10s"}
	}
	one := view.QueueList{Items: []view.Queue{item("kube-system/kube-controller-manager-node-1:10257", "resource_quota_controller_resource_changes")}}
	two := view.QueueList{Items: []view.Queue{item("ns/operator-a:8080", "widget"), item("ns/operator-b:8080", "gadget")}}
	for _, tt := range []struct {
		name   string
		l      view.QueueList
		width  int
		header string
	}{
		{"one target, 80", one, 80, "QUEUE DEPTH QUEUE p99 STATUS"},
		{"two targets, 80", two, 80, "TARGET QUEUE DEPTH ADDS/s QUEUE p99 WORK p99 STATUS"},
		{"two targets, 200", two, 200, "TARGET QUEUE DEPTH ADDS/s RETRIES/s QUEUE p99 WORK p99 UNFINISHED LONGEST STATUS WINDOW"},
	} {
		var b strings.Builder
		if err := QueueTable(&b, tt.l, false, tt.width); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if got := strings.Join(strings.Fields(lines[0]), " "); got != tt.header {
			t.Errorf("%s: header %q, want %q\n%s", tt.name, got, tt.header, b.String())
		}
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > tt.width {
				t.Errorf("%s: a line of %d columns: %q", tt.name, n, l)
			}
		}
		var w strings.Builder
		if err := QueueTable(&w, tt.l, true, tt.width); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(w.String(), "TARGET ") || !strings.Contains(w.String(), " UNFINISHED ") {
			t.Errorf("%s: -o wide must keep every column:\n%s", tt.name, w.String())
		}
	}
}

// A section whose names are too long for two side by side, even without its droppable
// columns, is written as records: each row's first cell, then its other cells one a line.
func TestSectionTooWideIsRecords(t *testing.T) {
	long := "e2e-testreportobjectsquotablockedreplicaset-123791/blocked"
	s := section{Title: "Log", Header: []string{"TARGET", "WHAT", "OBJECT", "COUNT", "DETAIL"},
		Rows: [][]string{{"kube-system/kcm:10257", "Reconciler error", long, "1", "pods \"blocked-x\" is forbidden: exceeded quota: no-pods"}},
		Cut:  "DETAIL"}
	var b strings.Builder
	tt := textTables{width: 80}
	ew := &errWriter{w: &b}
	tt.write(ew, s, "LOG\n")
	got := b.String()
	for _, want := range []string{"kube-system/kcm:10257\n  Reconciler error\n", "    OBJECT: " + long + "\n", "    COUNT: 1\n", "    DETAIL: pods \"blocked-x\" is forbidden: exceeded quota: no-pods\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
}
