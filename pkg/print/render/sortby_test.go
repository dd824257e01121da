package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

func queuesOf(depths ...*float64) view.QueueList {
	l := view.QueueList{APIVersion: view.APIVersion, Kind: "QueueList"}
	for i, d := range depths {
		l.Items = append(l.Items, view.Queue{Target: "t", Queue: string(rune('a' + i)), Depth: d, Status: "OK"})
	}
	return l
}

func num(v float64) *float64 { return &v }

// --sort-by orders numbers by value (not as text), keeps the order of ties, puts items
// without the value last, and leaves its input alone.
func TestSortBy(t *testing.T) {
	in := queuesOf(num(10), nil, num(9), num(100), num(9))
	for _, c := range []struct{ path, want string }{
		{".depth", "c e a d b"},
		{"{.depth}", "c e a d b"},
		{".queue", "a b c d e"},
		{".nope", "a b c d e"},
	} {
		out, err := printer.SortBy(in, c.path, nil)
		if err != nil {
			t.Fatalf("printer.SortBy(%s): %v", c.path, err)
		}
		var got []string
		for _, it := range out.(view.QueueList).Items {
			got = append(got, it.Queue)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("printer.SortBy(%s) = %v, want %s", c.path, got, c.want)
		}
	}
	if in.Items[0].Queue != "a" || in.Items[3].Queue != "d" {
		t.Errorf("SortBy changed its input: %+v", in.Items)
	}
}

func TestSortByRefuses(t *testing.T) {
	if _, err := printer.SortBy(view.Report{}, ".x", nil); err == nil || !strings.Contains(err.Error(), "items of a list") {
		t.Errorf("SortBy of a report = %v, want an error about lists", err)
	}
	for _, p := range []string{"", "{.items[", "  ", ".nope", "{.depth.x}", ".status[0]", ".Depth"} {
		if err := printer.CheckSortBy(p, view.QueueItem{}); err == nil || !strings.Contains(err.Error(), "--sort-by") {
			t.Errorf("printer.CheckSortBy(%q) = %v, want an error naming --sort-by", p, err)
		}
	}
}

// A path of plain fields must name a field of the item's -o json form (a map's keys and a
// path with filters or wildcards are not known before the items are).
func TestCheckSortByKnowsTheItemsFields(t *testing.T) {
	for _, p := range []string{".depth", "{.status}", " .queue ", ".depthByPriority.0", ".queueWait.verdict", ".items[*].x", "..depth"} {
		if err := printer.CheckSortBy(p, view.QueueItem{}); err != nil {
			t.Errorf("printer.CheckSortBy(%q) = %v, want no error", p, err)
		}
	}
	if err := printer.CheckSortBy(".nope", view.QueueItem{}); err == nil || !strings.Contains(err.Error(), "no such field") {
		t.Errorf("printer.CheckSortBy(.nope) = %v, want that the items have no such field", err)
	}
}

// --sort-by .status orders the queues worst first, as the table does, not by the text.
func TestSortByStatusIsBySeverity(t *testing.T) {
	in := view.QueueList{}
	for i, st := range []string{"OK", "SLOW", "ERROR", "BACKLOG", "STUCK", "OK"} {
		in.Items = append(in.Items, view.Queue{Target: "t", Queue: string(rune('a' + i)), Status: st})
	}
	out, err := printer.SortBy(in, ".status", view.QueueRanks)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range out.(view.QueueList).Items {
		got = append(got, it.Status)
	}
	if want := "ERROR STUCK BACKLOG SLOW OK OK"; strings.Join(got, " ") != want {
		t.Errorf("sorted by .status: %v, want %s", got, want)
	}
}

// --no-headers leaves the header line out of the table and of custom columns; --sort-by
// orders the rows of both.
func TestWriteList(t *testing.T) {
	l := queuesOf(num(10), nil, num(9))
	for _, c := range []struct {
		format string
		o      ListOptions
		first  string
	}{
		{"", ListOptions{}, "TARGET"},
		{"", ListOptions{NoHeaders: true}, "t"},
		{"wide", ListOptions{NoHeaders: true, SortBy: ".depth"}, "t"},
		{"custom-columns=Q:.queue", ListOptions{}, "Q"},
		{"custom-columns=Q:.queue", ListOptions{NoHeaders: true, SortBy: ".depth"}, "c"},
		{"custom-columns=Q:.queue", ListOptions{NoHeaders: true, SortBy: "{.queue}"}, "a"},
	} {
		var buf bytes.Buffer
		if err := WriteList(&buf, c.format, l, c.o); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		want := 4
		if c.o.NoHeaders {
			want = 3
		}
		if f := strings.Fields(lines[0]); len(f) == 0 || f[0] != c.first || len(lines) != want {
			t.Errorf("-o %q %+v:\n%s\nwant %d lines, the first starting %q", c.format, c.o, buf.String(), want, c.first)
		}
		if c.o.SortBy == ".depth" && c.format == "wide" && !strings.Contains(lines[0], "   c   ") {
			t.Errorf("--sort-by .depth: first row %q, want queue c (depth 9)", lines[0])
		}
	}
}
