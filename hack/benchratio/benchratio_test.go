package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sampleOutput = `goos: linux
BenchmarkParse/page/baseline=expfmt-full-2   	 3	 100000000 ns/op	  30.00 MB/s	400000000 B/op	 1000 allocs/op
BenchmarkParse/page/baseline=expfmt-full-2   	 3	 120000000 ns/op	  25.00 MB/s	400000000 B/op	 1000 allocs/op
BenchmarkParse/page/baseline=expfmt-full-2   	 3	 300000000 ns/op	  10.00 MB/s	400000000 B/op	 1000 allocs/op
BenchmarkParse/page/filtered-2               	 3	   4000000 ns/op	 750.00 MB/s	  2000000 B/op	   10 allocs/op
BenchmarkParse/page/filtered-2               	 3	   5000000 ns/op	 600.00 MB/s	  2000000 B/op	   10 allocs/op
BenchmarkParse/page/filtered-2               	 3	   6000000 ns/op	 500.00 MB/s	  2000000 B/op	   10 allocs/op
BenchmarkQuantile-2   	  520608	      2565 ns/op	    1136 B/op	      13 allocs/op
PASS
`

// TestRatios: medians per benchmark, ratios against the group's baseline, the table and the
// target lines.
func TestRatios(t *testing.T) {
	res, err := parseBench(strings.NewReader(sampleOutput))
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 {
		t.Fatalf("%d results, want 3", len(res))
	}
	base, cur := find(res, "Parse/page", "baseline=expfmt-full"), find(res, "Parse/page", "filtered")
	if base == nil || cur == nil || base.runs() != 3 {
		t.Fatalf("results: %+v", res)
	}
	if s, ok := ratio(base, cur, "ns/op"); !ok || s != 24 { // 120 ms / 5 ms: medians
		t.Errorf("speed-up = %v, want 24", s)
	}
	if got := human(438112) + " " + human(11889) + " " + human(7142) + " " + human(0.517) + " " + human(1); got != "438.1k 11.9k 7142 0.52 1" {
		t.Errorf("human: %s", got)
	}
	if s, ok := ratio(base, cur, "B/op"); !ok || s != 200 {
		t.Errorf("bytes ratio = %v, want 200", s)
	}
	table := benchTable(res)
	for _, want := range []string{"| Parse/page | filtered | 3 | 5.00 ms | 600 | 2.00M | 10 | 24.00x | 1/200.0 |", "| Quantile |  | 1 | 2.6 µs |", "| 400.00M | 1000 |"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestWriteSections: a section is replaced in place; the others and text after them stay.
func TestWriteSections(t *testing.T) {
	path := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	if err := writeSections(path, map[string]string{"a": "A1\n", "b": "B1\n"}, []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n## Notes\nkept\n")
	f.Close()
	if err := writeSections(path, map[string]string{"a": "A2\n"}, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	got := string(b)
	for _, want := range []string{"# Benchmarks", "A2\n", "B1\n", "## Notes\nkept\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "A1") || strings.Index(got, "A2") > strings.Index(got, "B1") {
		t.Errorf("section a not replaced in place:\n%s", got)
	}
}
