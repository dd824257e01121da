package cmd

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/tmuxterm"
)

// backfill is five minutes of samples, every 5 s up to now, in the OpenMetrics text format:
// the queue "climbing" of instance, its depth one more every second and its adds two a
// second; and the same queue of another instance, a million deep, which must not be taken
// for it.
func backfill(instance string, now time.Time) string {
	var depth, adds strings.Builder
	start := now.Add(-5 * time.Minute).Truncate(5 * time.Second)
	for ts := start; ts.Before(now); ts = ts.Add(5 * time.Second) {
		s, at := ts.Sub(start).Seconds(), float64(ts.Unix())
		fmt.Fprintf(&depth, "workqueue_depth{job=\"ctl\",instance=%q,name=\"climbing\"} %g %g\n", instance, s, at)
		fmt.Fprintf(&depth, "workqueue_depth{job=\"other\",instance=\"127.0.0.1:1\",name=\"climbing\"} 1e6 %g\n", at)
		fmt.Fprintf(&adds, "workqueue_adds_total{job=\"ctl\",instance=%q,name=\"climbing\"} %g %g\n", instance, 2*s, at)
	}
	return "# TYPE workqueue_depth gauge\n" + depth.String() + "# TYPE workqueue_adds counter\n" + adds.String() + "# EOF\n"
}

// sparks are the depth and adds/s sparklines of queue's row on screen: the 12 cells after
// the DEPTH column (7 wide) and after the ADDS/s one (8 wide), columns a space apart.
func sparks(screen, queue string) (depth, adds string) {
	r := []rune(rowOf(screen, queue))
	i := strings.Index(string(r), " "+queue+" ")
	if i < 0 {
		return "", ""
	}
	i = len([]rune(string(r)[:i])) + 1 + len(queue)
	for i < len(r) && r[i] == ' ' {
		i++ // the rest of QUEUE's width: DEPTH starts at its first digit
	}
	d := i + 8
	a := d + 12 + 1 + 9
	if a+12 > len(r) {
		return "", ""
	}
	return string(r[d : d+12]), string(r[a : a+12])
}

// TestTopStartsWithHistoryFromPrometheus runs `top --url --prometheus` in tmux against a real
// Prometheus holding the last five minutes of a queue (backfilled by promtool) while the
// target itself is read live: the first frame's sparklines are full, the depth climbing as
// the series did up to the live depth, adds/s at its steady 2/s (the first frame has no rate
// of its own: its cell is blank); the other instance's queue, a million deep, is not mixed in.
func TestTopStartsWithHistoryFromPrometheus(t *testing.T) {
	prom, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real Prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("this test backfills a real Prometheus with promtool: install Debian's prometheus package")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"climbing\"} 400\n"+
			"# TYPE workqueue_adds_total counter\nworkqueue_adds_total{name=\"climbing\"} 9000\n")
	}))
	defer srv.Close()
	bin := buildBinary(t) // first: the history must end about when top starts
	promURL := promserver.PrometheusBackfilled(t, prom, promtool, "scrape_configs: []\n", backfill(strings.TrimPrefix(srv.URL, "http://"), time.Now()))
	// A refresh of 15s (the shortest step of history) leaves the first frame on screen a while.
	x := tmuxterm.New(t, fmt.Sprintf("%s top --url %s/metrics --prometheus %s --refresh 15s; echo \"exit status $?\"; sleep 600",
		bin, srv.URL, promURL))
	s := x.WaitFor(30*time.Second, "the first frame", contains("climbing", "TOP FINDING"))
	depth, adds := sparks(s, "climbing")
	t.Logf("depth %q, adds/s %q in\n%s", depth, adds, s)
	if strings.Contains(s, "warning") {
		t.Errorf("a warning:\n%s", s)
	}
	levels := []rune("▁▂▃▄▅▆▇█")
	level := func(r rune) int {
		for i, l := range levels {
			if l == r {
				return i
			}
		}
		return -1
	}
	d := []rune(depth)
	if len(d) != 12 || level(d[11]) != 7 || level(d[0]) < 0 || level(d[0]) >= level(d[10]) {
		t.Fatalf("depth sparkline %q: want 12 cells climbing to the live depth", depth)
	}
	for i := 1; i < len(d); i++ {
		if level(d[i]) < level(d[i-1]) {
			t.Errorf("depth sparkline %q goes down at %d: the series only climbs", depth, i)
		}
	}
	if want := strings.Repeat("█", 11) + " "; adds != want {
		t.Errorf("adds/s sparkline %q, want %q: 2/s all along, then the first frame without a rate", adds, want)
	}
	x.Keys("q")
	x.WaitFor(15*time.Second, "the exit", contains("exit status 0"))
}

// A server that does not answer leaves the sparklines empty and says so; the view starts.
func TestTopWithoutHistoryWarns(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"climbing\"} 400\n")
	}))
	defer srv.Close()
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	bin := buildBinary(t)
	x := tmuxterm.New(t, fmt.Sprintf("%s top --url %s/metrics --prometheus %s --refresh 15s; echo \"exit status $?\"; sleep 600",
		bin, srv.URL, down.URL))
	s := x.WaitFor(30*time.Second, "the first frame", contains("climbing", "TOP FINDING"))
	if !strings.Contains(s, "no history, the sparklines start empty") {
		t.Errorf("no warning of the missing history:\n%s", s)
	}
	if depth, _ := sparks(s, "climbing"); depth != strings.Repeat(" ", 11)+"█" {
		t.Errorf("depth sparkline %q: want the first frame's point alone", depth)
	}
	x.Keys("q")
	x.WaitFor(15*time.Second, "the exit", contains("exit status 0"))
}
