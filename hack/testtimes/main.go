// Command testtimes reads `go test -json` on stdin and prints what a plain `go test` would, only
// shorter: one line per finished top-level test, the whole output of a test that failed, the
// package's own lines, the log of a test still running when the run ended, and at the end the
// slowest tests with their times and the totals.
// hack/e2e.sh pipes the e2e suite through it, so every run says where its minutes went.
//
//	go test -json ./test/e2e/ | go run ./hack/testtimes [-top 15] [-json-out FILE]
//
// It exits 1 when a test or a package failed, 0 otherwise; a malformed line is printed as is.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64 // seconds
	Output  string
}

// result is a finished top-level test.
type result struct {
	name    string
	action  string // pass, fail or skip
	elapsed time.Duration
	subs    int // subtests that ran
}

func main() {
	top := flag.Int("top", 15, "how many of the slowest tests to list")
	jsonOut := flag.String("json-out", "", "also copy the input to this `file` (new or regular; replaced)")
	flag.Parse()
	in := io.Reader(os.Stdin)
	if *jsonOut != "" {
		f, err := createRegular(*jsonOut)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testtimes:", err)
			os.Exit(2)
		}
		defer f.Close()
		in = io.TeeReader(os.Stdin, f)
	}
	s := newSummary(os.Stdout)
	if err := s.read(in); err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		os.Exit(2)
	}
	s.print(*top)
	if s.failed {
		os.Exit(1)
	}
}

// createRegular creates path, or truncates it when it is a regular file; anything else (a
// link, a device, a folder) is refused.
func createRegular(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s exists and is not a regular file", path)
	}
	return os.Create(path)
}

// summary follows the events of one `go test -json` run.
type summary struct {
	w       io.Writer
	pending map[string][]string // output of running top-level tests (with their subtests')
	subs    map[string]int
	started map[string]time.Time // when each running top-level test last started or went on
	// gated holds the tests that said gateMarker: their time starts there, not at t.Parallel.
	gated   map[string]bool
	results []result
	first   time.Time
	last    time.Time
	failed  bool
}

func newSummary(w io.Writer) *summary {
	return &summary{w: w, pending: map[string][]string{}, subs: map[string]int{}, started: map[string]time.Time{}, gated: map[string]bool{}}
}

func (s *summary) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			fmt.Fprintf(s.w, "%s\n", line) // not an event: a build error, say
			continue
		}
		s.add(e)
	}
	s.unfinished()
	return sc.Err()
}

// unfinished prints the log of each test that was still running when the run ended (a
// timeout's panic, a crash): the run failed there, and its log says where.
func (s *summary) unfinished() {
	names := make([]string, 0, len(s.pending))
	for name := range s.pending {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s.failed = true
		fmt.Fprintf(s.w, "--- %s did not finish; its log:\n", name)
		for _, o := range s.pending[name] {
			fmt.Fprint(s.w, o)
		}
	}
}

func (s *summary) add(e event) {
	if !e.Time.IsZero() {
		if s.first.IsZero() {
			s.first = e.Time
		}
		s.last = e.Time
	}
	if e.Test == "" {
		switch e.Action {
		case "output":
			fmt.Fprint(s.w, e.Output)
		case "fail":
			s.failed = true
		}
		return
	}
	name, _, isSub := strings.Cut(e.Test, "/")
	switch e.Action {
	case "output":
		s.pending[name] = append(s.pending[name], e.Output)
		if !isSub && strings.Contains(e.Output, gateMarker) {
			s.started[name], s.gated[name] = e.Time, true
		}
	case "run", "cont":
		if isSub {
			if e.Action == "run" {
				s.subs[name]++
			}
			return
		}
		if !s.gated[name] {
			s.started[name] = e.Time
		}
	case "pass", "fail", "skip":
		if isSub {
			return
		}
		// go test's own time of a test whose subtests run in parallel leaves them out: the
		// wall time since the test started (or went on after t.Parallel) counts them. A test
		// that waited for a slot of the e2e suite's phases counts from the slot.
		elapsed := seconds(e.Elapsed)
		if start, ok := s.started[name]; ok && !start.IsZero() && (s.gated[name] || e.Time.Sub(start) > elapsed) {
			elapsed = e.Time.Sub(start)
		}
		r := result{name: name, action: e.Action, elapsed: elapsed, subs: s.subs[name]}
		s.results = append(s.results, r)
		if e.Action == "fail" {
			s.failed = true
			for _, o := range s.pending[name] {
				fmt.Fprint(s.w, o)
			}
		} else {
			fmt.Fprintf(s.w, "%-4s %-52s %8s\n", strings.ToUpper(e.Action), name, r.elapsed.Round(100*time.Millisecond))
		}
		delete(s.pending, name)
		delete(s.subs, name)
		delete(s.started, name)
		delete(s.gated, name)
	}
}

// gateMarker starts a line the e2e suite's phases (test/e2e/gate_test.go) log when a test gets
// its slot, after waiting for it.
const gateMarker = "e2e gate: running"

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

// print writes the slowest n tests, then the counts and totals.
func (s *summary) print(n int) {
	if len(s.results) == 0 {
		return
	}
	sorted := append([]result(nil), s.results...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].elapsed > sorted[j].elapsed })
	if n > len(sorted) {
		n = len(sorted)
	}
	fmt.Fprintf(s.w, "\nThe %d slowest tests:\n", n)
	for _, r := range sorted[:n] {
		line := fmt.Sprintf("  %8s  %s", r.elapsed.Round(100*time.Millisecond), r.name)
		if r.subs > 0 {
			line += fmt.Sprintf(" (%d subtests)", r.subs)
		}
		fmt.Fprintln(s.w, line)
	}
	var sum time.Duration
	count := map[string]int{}
	for _, r := range s.results {
		sum += r.elapsed
		count[r.action]++
	}
	fmt.Fprintf(s.w, "%d tests: %d passed, %d failed, %d skipped; their times add up to %s, the run took %s\n",
		len(s.results), count["pass"], count["fail"], count["skip"],
		sum.Round(time.Second), s.last.Sub(s.first).Round(time.Second))
}
