package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// run is the events of a run of three tests: TestSlow passes after 90 s with two subtests,
// TestBroken fails and prints why, TestQuick passes; a parallel TestSlow's output interleaves.
// TestSlow's subtests run in parallel, so go test's Elapsed of it leaves them out (0).
const run = `{"Time":"2026-11-29T10:00:00Z","Action":"output","Package":"p","Output":"cluster up\n"}
{"Time":"2026-11-29T09:59:00Z","Action":"run","Package":"p","Test":"TestSlow"}
{"Time":"2026-11-29T09:59:00Z","Action":"pause","Package":"p","Test":"TestSlow"}
{"Time":"2026-11-29T10:00:01Z","Action":"cont","Package":"p","Test":"TestSlow"}
{"Time":"2026-11-29T10:00:01Z","Action":"run","Package":"p","Test":"TestSlow/a"}
{"Time":"2026-11-29T10:00:01Z","Action":"run","Package":"p","Test":"TestBroken"}
{"Time":"2026-11-29T10:00:02Z","Action":"output","Package":"p","Test":"TestSlow/a","Output":"    slow says hello\n"}
{"Time":"2026-11-29T10:00:03Z","Action":"output","Package":"p","Test":"TestBroken","Output":"    broken_test.go:9: want 1, got 2\n"}
{"Time":"2026-11-29T10:00:03Z","Action":"fail","Package":"p","Test":"TestBroken","Elapsed":2}
{"Time":"2026-11-29T10:00:03Z","Action":"run","Package":"p","Test":"TestSlow/b"}
{"Time":"2026-11-29T10:00:03Z","Action":"run","Package":"p","Test":"TestQuick"}
{"Time":"2026-11-29T10:00:03Z","Action":"pass","Package":"p","Test":"TestQuick","Elapsed":0.1}
{"Time":"2026-11-29T10:01:31Z","Action":"pass","Package":"p","Test":"TestSlow/b","Elapsed":88}
{"Time":"2026-11-29T10:01:31Z","Action":"pass","Package":"p","Test":"TestSlow","Elapsed":0}
not json: a build error
{"Time":"2026-11-29T10:01:31Z","Action":"output","Package":"p","Output":"FAIL\tp\t91.0s\n"}
{"Time":"2026-11-29T10:01:31Z","Action":"fail","Package":"p","Elapsed":91}
`

func TestSummary(t *testing.T) {
	var out bytes.Buffer
	s := newSummary(&out)
	if err := s.read(strings.NewReader(run)); err != nil {
		t.Fatal(err)
	}
	s.print(2)
	got := out.String()
	for _, want := range []string{
		"cluster up\n",
		"    broken_test.go:9: want 1, got 2\n",
		"PASS TestQuick",
		"not json: a build error\n",
		"FAIL\tp\t91.0s\n",
		"The 2 slowest tests:\n     1m30s  TestSlow (2 subtests)\n        2s  TestBroken\n",
		"3 tests: 2 passed, 1 failed, 0 skipped; their times add up to 1m32s, the run took 1m31s",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// A passing test's own output is not shown; the slowest list stops at two.
	for _, not := range []string{"slow says hello", "  TestQuick"} {
		if strings.Contains(got, not) {
			t.Errorf("output has %q:\n%s", not, got)
		}
	}
	if !s.failed {
		t.Error("a run with a failed test is not marked failed")
	}
}

func TestPassingRunIsNotFailed(t *testing.T) {
	var out bytes.Buffer
	s := newSummary(&out)
	pass := `{"Action":"run","Test":"TestA"}
{"Action":"pass","Test":"TestA","Elapsed":1}
{"Action":"pass","Elapsed":1}
`
	if err := s.read(strings.NewReader(pass)); err != nil {
		t.Fatal(err)
	}
	if s.failed {
		t.Errorf("a passing run is marked failed:\n%s", out.String())
	}
}

// A test still running when the run ends (go test's timeout panics) has its log shown, and
// the run is failed even if no fail event names it.
func TestUnfinishedTestShowsItsLog(t *testing.T) {
	var out bytes.Buffer
	s := newSummary(&out)
	hung := `{"Action":"run","Test":"TestHangs"}
{"Action":"output","Test":"TestHangs","Output":"    waiting for the pod\n"}
{"Action":"output","Output":"panic: test timed out after 60m0s\n"}
`
	if err := s.read(strings.NewReader(hung)); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "--- TestHangs did not finish; its log:\n    waiting for the pod\n") {
		t.Errorf("the unfinished test's log is not shown:\n%s", got)
	}
	if !s.failed {
		t.Error("a run with an unfinished test is not marked failed")
	}
}

// A test that waited for its phase's slot counts from the slot, not from t.Parallel: the wait
// is other tests' time.
func TestGatedTestCountsFromItsSlot(t *testing.T) {
	var out bytes.Buffer
	s := newSummary(&out)
	gated := `{"Time":"2026-11-29T07:00:00Z","Action":"run","Test":"TestLate"}
{"Time":"2026-11-29T07:00:00Z","Action":"pause","Test":"TestLate"}
{"Time":"2026-11-29T07:00:01Z","Action":"cont","Test":"TestLate"}
{"Time":"2026-11-29T07:05:01Z","Action":"output","Test":"TestLate","Output":"    gate_test.go:99: e2e gate: running in the crowd phase, after 5m0s waiting\n"}
{"Time":"2026-11-29T07:05:31Z","Action":"pass","Test":"TestLate","Elapsed":330}
`
	if err := s.read(strings.NewReader(gated)); err != nil {
		t.Fatal(err)
	}
	if len(s.results) != 1 || s.results[0].elapsed != 30*time.Second {
		t.Errorf("want TestLate at 30s (from its slot), got %+v\n%s", s.results, out.String())
	}
}
