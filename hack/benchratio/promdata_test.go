package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const pageA = `# HELP workqueue_depth Current depth
# TYPE workqueue_depth gauge
workqueue_depth{name="gadget"} 8
process_start_time_seconds 1.7e+09

workqueue_work_duration_seconds_bucket{name="gadget",le="+Inf"} 10
`

const pageB = `workqueue_depth{name="gadget"} 120
process_start_time_seconds 1.7e+09
workqueue_work_duration_seconds_bucket{name="gadget",le="+Inf"} 30
`

// TestPageSamples: comments and blank lines dropped, name, labels and value apart; a sample
// with a timestamp or without a value is refused.
func TestPageSamples(t *testing.T) {
	got, err := pageSamples(strings.NewReader(pageA))
	if err != nil {
		t.Fatal(err)
	}
	want := []sampleLine{{"workqueue_depth", `name="gadget"`, "8"}, {"process_start_time_seconds", "", "1.7e+09"},
		{"workqueue_work_duration_seconds_bucket", `name="gadget",le="+Inf"`, "10"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{"workqueue_depth 1 1700000000\n", "workqueue_depth\n", "workqueue_depth} 1 {\n"} {
		if _, err := pageSamples(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestFleetTargets: every target's identity differs, and 20 namespaces hold them.
func TestFleetTargets(t *testing.T) {
	ts := fleetTargets(500)
	seen, ns := map[string]bool{}, map[string]bool{}
	for _, tg := range ts {
		if seen[tg.pod] || seen[tg.instance] {
			t.Fatalf("duplicate target %+v", tg)
		}
		seen[tg.pod], seen[tg.instance], ns[tg.namespace] = true, true, true
		if !strings.HasPrefix(tg.job, tg.namespace+"/") {
			t.Errorf("job %s outside namespace %s", tg.job, tg.namespace)
		}
	}
	if len(ns) != 20 {
		t.Errorf("%d namespaces, want 20", len(ns))
	}
}

// TestWriteFleet: one line per target, series and step, the first page's values before the
// middle and the second's from it, the target's labels first, timestamps in seconds, # EOF.
func TestWriteFleet(t *testing.T) {
	a, _ := pageSamples(strings.NewReader(pageA))
	b, _ := pageSamples(strings.NewReader(pageB))
	end := time.Unix(1_700_000_000, 0)
	var out bytes.Buffer
	if err := writeFleet(&out, fleetTargets(2), a, b, end.Add(-3*time.Minute), end.Add(-time.Minute), end, time.Minute); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4*2*3+1 || lines[len(lines)-1] != "# EOF" {
		t.Fatalf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
	for _, want := range []string{
		`workqueue_depth{instance="10.64.0.0:8443",job="team-00/controller-manager-metrics",namespace="team-00",pod="controller-0000-7d9f8b6c5-x2x4z",name="gadget"} 8 1699999820`,
		`process_start_time_seconds{instance="10.64.0.1:8443",job="team-01/controller-manager-metrics",namespace="team-01",pod="controller-0001-7d9f8b6c5-x2x4z"} 1.7e+09 1699999880`,
		`workqueue_depth{instance="10.64.0.1:8443",job="team-01/controller-manager-metrics",namespace="team-01",pod="controller-0001-7d9f8b6c5-x2x4z",name="gadget"} 120 1699999940`,
		`workqueue_work_duration_seconds_bucket{instance="10.64.0.0:8443",job="team-00/controller-manager-metrics",namespace="team-00",pod="controller-0000-7d9f8b6c5-x2x4z",name="gadget",le="+Inf"} 30 1700000000`,
	} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("missing line %s", want)
		}
	}
	if strings.Contains(out.String(), "} 120 1699999880") {
		t.Error("the second page's value before the middle")
	}
	if err := writeFleet(&out, fleetTargets(1), a, b[:2], end, end, end, time.Minute); err == nil {
		t.Error("pages of different series: no error")
	}
}

// TestWriteFleetBackfills: promtool turns what writeFleet writes into a block holding every
// series of every target (promtool is a test dependency: hack/test-deps.sh).
func TestWriteFleetBackfills(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("no promtool: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	a, _ := pageSamples(strings.NewReader(pageA))
	b, _ := pageSamples(strings.NewReader(pageB))
	end := time.Now().Add(-time.Hour).Truncate(time.Minute)
	db, err := buildStore(promtool, t.TempDir(), func(w io.Writer) error {
		return writeFleet(w, fleetTargets(3), a, b, end.Add(-15*time.Minute), end.Add(-5*time.Minute), end, time.Minute)
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(promtool, "tsdb", "list", db).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool tsdb list: %v\n%s", err, out)
	}
	// One block (or two across a 2h boundary); their series add up to 3 targets x 3 series.
	series := 0
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n")[1:] {
		f := strings.Fields(l)
		if len(f) < 7 {
			t.Fatalf("promtool tsdb list: %s", out)
		}
		var n int
		if _, err := fmt.Sscan(f[6], &n); err != nil {
			t.Fatal(err)
		}
		series += n
	}
	if series < 9 || series > 18 {
		t.Errorf("series in the blocks: %d, want 9 (18 across two blocks)\n%s", series, out)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(db), "fleet.om")); !os.IsNotExist(err) {
		t.Errorf("the OpenMetrics text is left behind: %v", err)
	}
}

// TestParsePromStats reads the cost line -v prints among other lines.
func TestParsePromStats(t *testing.T) {
	s, ok := parsePromStats("I1124 some log\nPrometheus at http://127.0.0.1:9090: 4 queries, 129500 series, 35231744 bytes\n")
	if !ok || s != (promStats{4, 129500, 35231744}) {
		t.Errorf("got %+v %v", s, ok)
	}
	if _, ok := parsePromStats("no cost here\n"); ok {
		t.Error("a cost read from no cost line")
	}
}

// TestCurlArgs: one process, the forms sent as they are, in order, --next between them.
func TestCurlArgs(t *testing.T) {
	got := curlArgs("curl", "http://h:1", []string{"query=a&time=1", "query=b&time=1"})
	one := []string{"-sS", "--fail", "--compressed", "-o", "/dev/null", "-H", "Accept: application/json", "--data-binary"}
	want := append(append(append(append([]string{"curl"}, one...), "query=a&time=1", "http://h:1/api/v1/query", "--next"), one...),
		"query=b&time=1", "http://h:1/api/v1/query")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
