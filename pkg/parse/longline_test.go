package parse

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// hugeHelpPage is a controller's page whose HELP lines are size bytes long each.
func hugeHelpPage(size int) []byte {
	help := strings.Repeat("x", size)
	return []byte("# HELP workqueue_depth " + help + "\n# TYPE workqueue_depth gauge\n" +
		"workqueue_depth{name=\"widget\"} 3\n" +
		"# HELP unrelated_total " + help + "\n# TYPE unrelated_total counter\n" +
		"unrelated_total{path=\"" + strings.Repeat("p", size) + "\"} 1\n" +
		"workqueue_adds_total{name=\"widget\"} 7\n")
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// HELP text is kept nowhere, and a long line the parser does not read (a HELP line, a sample
// of a family not kept) is skipped without being held: parsing a page of 8 MB lines
// allocates a small part of one of them, filtered or not.
func TestHugeHelpLinesAreNotKept(t *testing.T) {
	page := hugeHelpPage(8 << 20)
	keep := func(n string) bool { return strings.HasPrefix(n, "workqueue_") }
	for _, k := range []Keep{keep, nil} {
		var p *Page
		var err error
		n := allocated(func() { p, err = Parse("page", bytes.NewReader(page), k) })
		if k == nil {
			// Unfiltered, the long sample line is read, and is too long.
			var tl *LineTooLongError
			if !errors.As(err, &tl) || tl.Line != 6 {
				t.Errorf("unfiltered: error %v, want line 6 too long", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if n > 2<<20 {
			t.Errorf("parsing allocated %d bytes for 8 MB lines it does not keep", n)
		}
		if len(p.Families) != 2 || p.Families["workqueue_depth"].GetMetric()[0].GetGauge().GetValue() != 3 {
			t.Fatalf("families %v", p.Families)
		}
		for name, f := range p.Families {
			if f.Help != nil {
				t.Errorf("%s keeps %d bytes of HELP text", name, len(f.GetHelp()))
			}
		}
	}
}

// A line the parser reads is bounded too: one sample of a kept family longer than
// MaxLineBytes stops the page with an error naming the line, before it is held whole.
func TestLongKeptLineIsRefused(t *testing.T) {
	page := []byte("workqueue_depth{name=\"a\"} 1\nworkqueue_depth{name=\"" + strings.Repeat("a", 3*MaxLineBytes) + "\"} 1\n")
	var err error
	n := allocated(func() { _, err = Parse("page", bytes.NewReader(page), keepModel) })
	var tl *LineTooLongError
	if !errors.As(err, &tl) || tl.Line != 2 || !strings.Contains(err.Error(), "line 2 is longer than") {
		t.Fatalf("error %v, want line 2 too long", err)
	}
	if n > 3*MaxLineBytes {
		t.Errorf("parsing allocated %d bytes", n)
	}
}

// BenchmarkHugeHelpLines reports what a page of 8 MB HELP lines costs (-benchmem).
func BenchmarkHugeHelpLines(b *testing.B) {
	page := hugeHelpPage(8 << 20)
	keep := func(n string) bool { return strings.HasPrefix(n, "workqueue_") }
	b.ReportAllocs()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, err := Parse("page", bytes.NewReader(page), keep); err != nil {
			b.Fatal(err)
		}
	}
}
