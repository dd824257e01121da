package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// runTop executes `top args...` with test streams (not a terminal) and returns stdout, stderr
// and the error.
func runTop(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	g := testGlobals()
	cmd := NewTopCmd(g, streams)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

// growing serves, at /metrics, a queue "reconcile" whose depth grows by 40 and whose adds
// grow by 50 at every request, and at /flaky a page only for the first request, then 503.
func growing(t *testing.T) *httptest.Server {
	var n, flaky atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/metrics":
			i := n.Add(1)
			fmt.Fprintf(w, "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"reconcile\"} %d\n"+
				"# TYPE workqueue_adds_total counter\nworkqueue_adds_total{name=\"reconcile\"} %d\n", 40*i, 1000+50*i)
		case "/flaky":
			if flaky.Add(1) > 1 {
				http.Error(w, "gone", http.StatusServiceUnavailable)
				return
			}
			fmt.Fprint(w, "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"other\"} 0\n")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Not on a terminal, top prints one table per refresh under its time and window: the first
// without rates, the next with the adds/s between refreshes, the depth climbing to BACKLOG; a
// target that goes away becomes an ERROR row and is named on stderr.
func TestStreamsOneTablePerRefresh(t *testing.T) {
	srv := growing(t)
	// -o wide: every column in its place (80 columns would leave some out).
	out, errOut, err := runTop(t, "--url", srv.URL+"/metrics", "--url", srv.URL+"/flaky", "--refresh", "300ms", "--count", "3", "-o", "wide")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	t.Logf("stdout:\n%s", out)
	tables := strings.Split(out, "\n\n")
	if len(tables) != 3 {
		t.Fatalf("%d tables, want 3:\n%s", len(tables), out)
	}
	header := regexp.MustCompile(`^# \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ  window: (\S+)\nTARGET +QUEUE +DEPTH +ADDS/s`)
	for i, tb := range tables {
		m := header.FindStringSubmatch(tb)
		if m == nil {
			t.Fatalf("table %d has no header:\n%s", i, tb)
		}
		if (i == 0) != (m[1] == "lifetime") {
			t.Errorf("table %d: window %s", i, m[1])
		}
	}
	row := func(tb, target string) []string {
		for _, l := range strings.Split(tb, "\n") {
			if f := strings.Fields(l); len(f) > 0 && f[0] == target {
				return f
			}
		}
		t.Fatalf("no row of %s in:\n%s", target, tb)
		return nil
	}
	first, last := row(tables[0], srv.URL+"/metrics"), row(tables[2], srv.URL+"/metrics")
	if first[2] != "40" || first[3] != "-" || last[2] != "120" || last[9] != "BACKLOG" {
		t.Errorf("first %v, last %v: depth 40 then 120 (BACKLOG), no adds/s at first", first, last)
	}
	// 50 adds in about 300ms: about 167/s, whatever the scheduling, well above 50 and below 500.
	var adds float64
	fmt.Sscanf(last[3], "%g", &adds)
	if adds < 50 || adds > 500 {
		t.Errorf("adds/s %s", last[3])
	}
	if f := row(tables[2], srv.URL+"/flaky"); f[9] != "ERROR" {
		t.Errorf("the target that went away: %v", f)
	}
	if !strings.Contains(errOut, "error: "+srv.URL+"/flaky: ") || !strings.Contains(errOut, "503") {
		t.Errorf("stderr:\n%s", errOut)
	}
}

func TestTopUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--url", "http://x", "--refresh", "10ms"}, "--refresh must be at least 100ms"},
		{[]string{"--url", "http://x", "--count", "-1"}, "--count"},
		{[]string{"--url", "http://x", "--rediscover", "-1s"}, "--rediscover must be 0 (never) or positive"},
		{[]string{"--from-file", "a.prom"}, "saved pages"},
		{[]string{"--url", "http://x", "--prometheus", "http://p:9090", "--at", "-1h"}, "--at: a live view's history ends now"},
		{[]string{"--url", "http://x", "--prometheus", "p:9090"}, "--prometheus"},
		{[]string{"--url", "http://x", "--clusters", "a"}, "--clusters applies only with --prometheus"},
		{[]string{"--url", "localhost:8080"}, `--url "localhost:8080": not a URL with a scheme; did you mean http://localhost:8080?`},
		{[]string{"--url", "http://x", "-o", "markdown"}, `unknown output format "markdown": use one of table, wide, json, yaml, name, custom-columns=`},
		{[]string{"--url", "http://x", "-o", "jsonpath={.items["}, "-o jsonpath:"},
		{[]string{"--url", "http://x", "--sort-by", "{.items["}, "--sort-by"},
	} {
		_, _, err := runTop(t, tt.args...)
		if code, msg := cli.CodeFor(err); code != cli.ExitUsage || !strings.Contains(msg, tt.want) {
			t.Errorf("%v: code %d, %q; want a usage error with %q", tt.args, code, msg, tt.want)
		}
	}
}

// Not on a terminal there are no sparklines: --prometheus is accepted but never asked (a
// server that is down changes nothing), and the tables are those of the targets.
func TestStreamDoesNotAskPrometheus(t *testing.T) {
	srv := growing(t)
	var asked atomic.Int64
	prom := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer prom.Close()
	out, errOut, err := runTop(t, "--url", srv.URL+"/metrics", "--prometheus", prom.URL, "--refresh", "200ms", "--count", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if asked.Load() != 0 || strings.Contains(errOut, "history") || strings.Count(out, "reconcile") != 2 {
		t.Errorf("asked %d times; stdout:\n%s\nstderr:\n%s", asked.Load(), out, errOut)
	}
}

// -o prints each refresh as queues prints its list: -o json one QueueList document per
// refresh, naming its time; --sort-by orders each refresh's rows; --no-headers leaves out the
// time line and the header of every table.
func TestPrintsEachRefreshAsAsked(t *testing.T) {
	// targets are the flags of a session on a new server, whose queue starts at depth 40.
	targets := func(args ...string) []string {
		srv := growing(t)
		return append([]string{"--url", srv.URL + "/metrics", "--url", srv.URL + "/flaky", "--refresh", "200ms", "--count", "2"}, args...)
	}
	out, errOut, err := runTop(t, targets("-o", "json", "--sort-by", ".queue")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var lists []view.QueueList
	for {
		var l view.QueueList
		if err := dec.Decode(&l); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("-o json: not a stream of JSON documents: %v\n%s", err, out)
		}
		lists = append(lists, l)
	}
	if len(lists) != 2 {
		t.Fatalf("-o json --count 2: %d documents, want one per refresh:\n%s", len(lists), out)
	}
	first := lists[0]
	if first.Kind != "QueueList" || first.Time.IsZero() || !lists[1].Time.After(first.Time) {
		t.Errorf("-o json: kind %q, times %v %v: want QueueLists naming each refresh's time", first.Kind, first.Time, lists[1].Time)
	}
	if len(first.Items) != 2 || first.Items[0].Queue != "other" || first.Items[1].Queue != "reconcile" {
		t.Errorf("--sort-by .queue: want other before reconcile in the first refresh, got %+v", first.Items)
	}
	if got := lists[1].Items; len(got) != 1 || got[0].Queue != "reconcile" || *got[0].Depth != 80 || len(lists[1].Errors) != 1 {
		t.Errorf("second refresh: want reconcile at depth 80 and the flaky target an error, got %+v %+v", got, lists[1].Errors)
	}

	out, errOut, err = runTop(t, targets("--no-headers", "-o", "wide")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if strings.Contains(out, "# ") || strings.Contains(out, "TARGET") || strings.Count(out, "/metrics   reconcile") != 2 || strings.Count(out, "\n") != 5 || strings.Count(out, "\n\n") != 1 {
		t.Errorf("--no-headers -o wide: want the rows of two refreshes, a blank line between, no time or header line:\n%s", out)
	}

	out, _, err = runTop(t, targets("-o", "yaml")...)
	if err != nil || strings.Count(out, "kind: QueueList\n") != 2 || strings.Count(out, "\n---\n") != 1 || strings.HasPrefix(out, "---") {
		t.Errorf("-o yaml: want two documents, \"---\" between: %v\n%s", err, out)
	}

	out, _, err = runTop(t, targets("-o", `jsonpath={range .items[*]}{.queue}={.depth}{"\n"}{end}`)...)
	if err != nil || out != "reconcile=40\nother=0\nreconcile=80\n" {
		t.Errorf("-o jsonpath: %v %q, want each refresh's queues and depths", err, out)
	}
}
