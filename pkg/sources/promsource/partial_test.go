package promsource_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// fakeThanos answers like Thanos Query over two clusters, a and b, each one controller whose
// queue added 60 items over the window. When a query is down (by its place in a run)
// cluster b's store does not answer: its series are left out and the answer
// is still a success, with the warning Thanos gives.
type fakeThanos struct {
	start, end time.Time
	// down says whether b's store is down for the n-th query of a run (0 the targets, 1 the
	// families at the window's end, 2 at its start, 3 the restarts, 4 the raw samples).
	down    func(n int) bool
	warning string
	// replicated keeps b's series in a down answer: the store that did not answer is one
	// replica of an HA pair whose other replica did.
	replicated bool
	// annotation, when set, is a PromQL annotation added to every answer.
	annotation string
}

func (f *fakeThanos) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	q := r.Form.Get("query")
	at, _ := strconv.ParseFloat(r.Form.Get("time"), 64)
	// The query's place in a run, told by what it asks: the reading sends the families at the
	// window's ends and the restarts at once, in no set order.
	n := 3
	switch {
	case strings.HasPrefix(q, "count by"):
		n = 0
	case strings.HasPrefix(q, "changes("):
	case strings.HasSuffix(q, "]"):
		n = 4 // the raw samples, after the others
	case int64(at) >= f.end.Unix():
		n = 1
	default:
		n = 2
	}
	clusters := []string{"a", "b"}
	var warnings []string
	if f.down(n) {
		warnings = []string{f.warning}
		if !f.replicated {
			clusters = []string{"a"}
		}
	}
	if f.annotation != "" {
		warnings = append(warnings, f.annotation)
	}
	type series struct {
		Metric map[string]string `json:"metric"`
		Value  []any             `json:"value"`
	}
	result := []series{}
	resultType := "vector"
	switch {
	case strings.HasPrefix(q, "changes("):
	case strings.HasSuffix(q, "]"):
		resultType = "matrix"
	default:
		adds := 100.0
		if int64(at) >= f.end.Unix() {
			adds = 160
		}
		for _, c := range clusters {
			l := func(name string, extra ...string) map[string]string {
				m := map[string]string{"cluster": c, "namespace": "ns", "pod": "op-0", "job": "op", "instance": "10.0.0.1:8080"}
				if name != "" {
					m["__name__"] = name
				}
				for i := 0; i+1 < len(extra); i += 2 {
					m[extra[i]] = extra[i+1]
				}
				return m
			}
			if strings.HasPrefix(q, "count by") {
				result = append(result, series{Metric: l(""), Value: []any{at, "2"}})
				continue
			}
			result = append(result,
				series{Metric: l("workqueue_adds_total", "name", "q"), Value: []any{at, fmt.Sprint(adds)}},
				series{Metric: l("workqueue_depth", "name", "q"), Value: []any{at, "0"}},
				series{Metric: l("process_start_time_seconds"), Value: []any{at, "1000"}})
		}
	}
	body := map[string]any{"status": "success", "data": map[string]any{"resultType": resultType, "result": result}}
	if len(warnings) > 0 {
		body["warnings"] = warnings
	}
	_ = json.NewEncoder(w).Encode(body)
}

// thanosStoreDown and thanosStreamFailed are Thanos Query's warnings for a store that is down:
// when the stream could not be opened, naming the store by its external labels, and when it
// broke, by its address only.
const (
	thanosStoreDown    = `fetch series for {cluster="b", replica="A"} Addr: 127.0.0.1:10901 MinTime: 0 MaxTime: 9223372036854775807: rpc error: code = Unavailable desc = connection refused`
	thanosReplicaDown  = `fetch series for {cluster="b", replica="B"} Addr: 127.0.0.1:10902 MinTime: 0 MaxTime: 9223372036854775807: rpc error: code = Unavailable desc = connection refused`
	thanosStreamFailed = `receive series from Addr: 127.0.0.1:10901 MinTime: 0 MaxTime: 9223372036854775807: rpc error: code = Unavailable desc = error reading from server: EOF`
)

// A partial answer is never read as the whole fleet: the run's warnings say "Prometheus
// answered partially" with the server's words, and the missing cluster is named, whether the
// warning names its store (Thanos' external labels), the cluster was seen in a whole answer
// (the targets found, then lacking in the window's reading), or its series were there at the
// window's start and are not at its end. Targets of a cluster missing from the reading are
// errors that say so, not targets that stopped being scraped. A whole answer, and one with a
// PromQL annotation only, are not partial.
func TestPartialAnswers(t *testing.T) {
	end := time.Unix(1700000600, 0)
	start := end.Add(-10 * time.Minute)
	// The queries of a run, in order: the targets (Open), the families at the window's end,
	// at its start, the restarts.
	const targetsQ, endQ, startQ = 0, 1, 2
	cases := []struct {
		name        string
		down        func(n int) bool
		warning     string
		annotation  string
		replicated  bool
		whole       bool // every cluster's series read: the down store's replica answered
		missing     []string
		read        []string // clusters whose target is read
		failedB     bool     // b's target listed, failing for the partial answer
		partialNote bool
	}{
		{name: "whole", down: func(int) bool { return false }, read: []string{"a", "b"}},
		{name: "a PromQL annotation only", down: func(int) bool { return false }, read: []string{"a", "b"},
			annotation: `PromQL info: metric might not be a counter, name does not end in _total/_sum/_count/_bucket: "workqueue_depth"`},
		{name: "store down, named by its labels", down: func(int) bool { return true }, warning: thanosStoreDown,
			missing: []string{"b"}, read: []string{"a"}, partialNote: true},
		{name: "store down after the targets were found", down: func(n int) bool { return n != targetsQ }, warning: thanosStreamFailed,
			missing: []string{"b"}, read: []string{"a"}, failedB: true, partialNote: true},
		{name: "present at the window's start, absent at its end", down: func(n int) bool { return n == targetsQ || n == endQ },
			warning: thanosStreamFailed, missing: []string{"b"}, read: []string{"a"}, partialNote: true},
		{name: "one replica of an HA pair down", down: func(int) bool { return true }, warning: thanosReplicaDown, replicated: true,
			read: []string{"a", "b"}, whole: true, partialNote: true},
		{name: "absent at the window's start only", down: func(n int) bool { return n == startQ }, warning: thanosStreamFailed,
			read: []string{"a", "b"}, partialNote: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeThanos{start: start, end: end, down: tc.down, warning: tc.warning, annotation: tc.annotation, replicated: tc.replicated}
			srv := httptest.NewServer(f)
			defer srv.Close()
			client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			src := promsource.New(promsource.Config{Client: client, At: end, Window: end.Sub(start)})
			inv, err := src.Open(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			results := src.Read(context.Background(), source.Options{})
			var said []string
			said = append(said, inv.Warnings...)
			var read []string
			failedB := false
			for _, r := range results {
				said = append(said, r.Notes...)
				if r.Err == nil {
					read = append(read, r.Target.Cluster)
				} else if r.Target.Cluster == "b" && strings.Contains(r.Err.Error(), "cluster b: Prometheus answered partially") {
					failedB = true
				} else {
					t.Errorf("%s: unexpected error %v", r.ID(), r.Err)
				}
			}
			all := strings.Join(said, "\n")
			if !slices.Equal(read, tc.read) || failedB != tc.failedB {
				t.Errorf("read clusters %v (b failing for the partial answer: %v), want %v (%v)\n%s", read, failedB, tc.read, tc.failedB, all)
			}
			if !tc.partialNote {
				if inv.Partial != nil || strings.Contains(all, "partially") {
					t.Errorf("a whole answer said partial: %+v\n%s", inv.Partial, all)
				}
				if tc.annotation != "" && !strings.Contains(all, "Prometheus warns: PromQL info") {
					t.Errorf("the annotation is not passed on:\n%s", all)
				}
				return
			}
			if inv.Partial == nil || !slices.Contains(inv.Partial.Warnings, tc.warning) {
				t.Fatalf("partial %+v, want the warning %q", inv.Partial, tc.warning)
			}
			if !strings.Contains(all, "Prometheus answered partially: "+tc.warning) {
				t.Errorf("the run's warnings do not pass the server's on:\n%s", all)
			}
			if !slices.Equal(inv.Partial.MissingClusters, tc.missing) {
				t.Errorf("missing clusters %v, want %v", inv.Partial.MissingClusters, tc.missing)
			}
			if len(tc.missing) > 0 && !strings.Contains(all, "no series of cluster b (cluster): what is read is not the whole fleet") {
				t.Errorf("the run's warnings do not name the missing cluster:\n%s", all)
			}
			if inv.Partial.Whole() != tc.whole {
				t.Errorf("whole %v, want %v: %+v", inv.Partial.Whole(), tc.whole, inv.Partial)
			}
			if tc.whole && (!slices.Equal(inv.Partial.ReplicatedClusters, []string{"b"}) || !strings.Contains(all, "the stores of cluster b that did not answer have replicas that did, no series are missing")) {
				t.Errorf("replicated clusters %v, want b said to be whole:\n%s", inv.Partial.ReplicatedClusters, all)
			}
			if len(tc.missing) == 0 && !tc.whole && !strings.Contains(all, "which clusters cannot be told") {
				t.Errorf("the run's warnings do not say the answer is partial:\n%s", all)
			}
		})
	}
}

// The report over a partial answer holds it (json's partial, with the missing cluster) and,
// with --fail-on set, fails whatever its findings: what is missing may hold any of them. A
// whole answer neither holds it nor fails for it.
func TestReportOverPartialAnswer(t *testing.T) {
	end := time.Unix(1700000600, 0)
	for _, tc := range []struct{ down, replicated bool }{{false, false}, {true, false}, {true, true}} {
		down := tc.down
		warning := thanosStoreDown
		if tc.replicated {
			warning = thanosReplicaDown
		}
		f := &fakeThanos{start: end.Add(-10 * time.Minute), end: end, down: func(int) bool { return down }, warning: warning, replicated: tc.replicated}
		srv := httptest.NewServer(f)
		client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		for _, level := range []string{"none", "critical"} {
			fail, err := findings.FailOnReported.Parse(level)
			if err != nil {
				t.Fatal(err)
			}
			res, err := run.ReportWith(context.Background(), run.ReportConfig{Thresholds: findings.DefaultThresholds(), FailOn: fail},
				run.Env{Source: promsource.New(promsource.Config{Client: client, At: end, Window: 10 * time.Minute})})
			if err != nil {
				t.Fatal(err)
			}
			p := res.Report.Partial
			switch {
			case !down && (p != nil || res.Failed()):
				t.Errorf("whole answer, --fail-on %s: partial %+v, failed %v", level, p, res.Failed())
			case tc.replicated && (p == nil || len(p.MissingClusters) != 0 || !p.Whole || strings.Join(p.ReplicatedClusters, ",") != "b" || res.Failed()):
				// A rolling restart of one replica misses no series: no reason to fail.
				t.Errorf("one replica of b down, --fail-on %s: partial %+v, failed %v; want whole, not failed", level, p, res.Failed())
			case tc.replicated:
			case down && (p == nil || strings.Join(p.MissingClusters, ",") != "b" || len(p.Warnings) != 1 || p.Whole):
				t.Errorf("b's store down: partial %+v", p)
			case down && res.Failed() != (level != "none"):
				t.Errorf("b's store down, --fail-on %s: failed %v", level, res.Failed())
			case res.Report.Summary.Critical > 0:
				t.Errorf("the healthy controller has critical findings: %+v", res.Report.Findings)
			}
		}
		srv.Close()
	}
}

// A warning the targets' query gave is said once, not again for every query of the reading.
func TestPartialWarningSaidOnce(t *testing.T) {
	end := time.Unix(1700000600, 0)
	srv := httptest.NewServer(&fakeThanos{start: end.Add(-10 * time.Minute), end: end, down: func(int) bool { return true }, warning: thanosStoreDown})
	defer srv.Close()
	client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	src := promsource.New(promsource.Config{Client: client, At: end, Window: 10 * time.Minute})
	inv, err := src.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	said := append([]string(nil), inv.Warnings...)
	for _, r := range src.Read(context.Background(), source.Options{}) {
		said = append(said, r.Notes...)
	}
	if n := strings.Count(strings.Join(said, "\n"), "Prometheus answered partially: "+thanosStoreDown); n != 1 {
		t.Errorf("the warning is said %d times, want once:\n%s", n, strings.Join(said, "\n"))
	}
}
