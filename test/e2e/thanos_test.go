//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
)

// thanosBin is the pinned Thanos (hack/thanos/build.sh; hack/e2e.sh builds it first, so this
// only finds it in the cache).
func thanosBin(t *testing.T) string {
	t.Helper()
	out, err := exec.Command(filepath.Join(env.root, "hack/thanos/build.sh")).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("hack/thanos/build.sh (the Thanos these tests run): %v\n%s", err, stderr)
	}
	return strings.TrimSpace(string(out))
}

// thanosFixture is what each Thanos test starts from: Debian's Prometheus, the pinned Thanos,
// a namespace of the test's own, and the reference operator behind a pod there, with the
// scrape_configs entries that read it (jobs).
type thanosFixture struct {
	prometheus, thanos, ns, jobs string
}

// newThanosFixture starts the operator pod name running scenario in a new namespace.
func newThanosFixture(t *testing.T, name, scenario string) thanosFixture {
	t.Helper()
	prometheus, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real Prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	f := thanosFixture{prometheus: prometheus, thanos: thanosBin(t), ns: newNamespace(t)}
	p := operatorBehindPod(t, f.ns, name, scenario)
	f.jobs = fmt.Sprintf(`
  - job_name: operator
    static_configs:
      - targets: [%q]
        labels: {namespace: %q, pod: %q}
`, p.Listen[8080], f.ns, p.Name)
	return f
}

// haCluster is one "cluster" of a fleet as HA pairs run it: two Prometheus replicas scraping the
// same targets, told apart by the external label replica (A, B) and sharing the external label
// cluster, each with a Thanos sidecar.
type haCluster struct {
	name string
	A, B *promserver.Sidecar
}

// startHACluster starts the two replicas of cluster name scraping jobs (scrape_configs entries,
// without the cluster label: it is the replicas' external label).
func startHACluster(t *testing.T, prometheus, thanos, name, jobs string) haCluster {
	t.Helper()
	cfg := func(replica string) string {
		return fmt.Sprintf("global: {scrape_interval: 2s, scrape_timeout: 1s, external_labels: {cluster: %q, replica: %q}}\nscrape_configs:%s", name, replica, jobs)
	}
	return haCluster{name: name, A: promserver.PrometheusWithSidecar(t, prometheus, thanos, cfg("A")),
		B: promserver.PrometheusWithSidecar(t, prometheus, thanos, cfg("B"))}
}

// Two Prometheus replicas scrape the same operator, each with a Thanos sidecar; Thanos Query
// reads both. Whether Thanos deduplicates (asked with --replica-label, over the replica label
// it was started with) or the tool does (a Query started without one answers both replicas'
// series, which the tool reads once by its default replica labels), every queue is one row
// with the adds/s of a single replica read directly, never two rows or a doubled rate; the
// same through a Thanos Query Frontend in front of the deduplicating Query.
func TestThanosHAPairReadOnce(t *testing.T) {
	crowd(t)
	f := newThanosFixture(t, "operator-ha", "saturated")
	prometheus, thanos, ns := f.prometheus, f.thanos, f.ns
	c := startHACluster(t, prometheus, thanos, "e2e-ha", f.jobs)
	endpoints := []string{c.A.GRPC, c.B.GRPC}
	dedup := promserver.ThanosQuery(t, thanos, endpoints, "--query.replica-label=replica")
	raw := promserver.ThanosQuery(t, thanos, endpoints)
	frontend := promserver.ThanosQueryFrontend(t, thanos, dedup)

	const window = 20 * time.Second
	time.Sleep(15*time.Second + window)
	// One instant for every read, a little in the past so that both replicas have scraped it.
	at := time.Now().Add(-3 * time.Second).UTC().Format(time.RFC3339)
	read := func(name string, args ...string) map[string]float64 {
		t.Helper()
		l, r := queuesJSON(t, append([]string{"--window", window.String(), "--at", at, "-n", ns}, args...)...)
		if r.Code != 0 {
			t.Fatalf("%s: queues exit %d:\n%s", name, r.Code, r)
		}
		rates := map[string]float64{}
		for _, it := range l.Items {
			// By queue: the operator is the one target, named with the cluster label
			// (an external label) through Thanos, without it from a replica directly.
			k := it.Queue
			if _, dup := rates[k]; dup {
				t.Errorf("%s: queue %s is listed twice:\n%s", name, k, r.Stdout)
			}
			if it.AddsPerSecond == nil {
				t.Fatalf("%s: queue %s has no adds/s:\n%s", name, k, r.Stdout)
			}
			rates[k] = *it.AddsPerSecond
		}
		if len(rates) == 0 {
			t.Fatalf("%s: no queues:\n%s", name, r)
		}
		t.Logf("%s: %v", name, rates)
		return rates
	}
	// The setup holds what a fleet of HA pairs holds: the Query without a replica label
	// answers both replicas' series of the operator.
	if got := replicasAnswered(t, raw, fmt.Sprintf(`workqueue_adds_total{namespace=%q}`, ns)); got != "A,B" {
		t.Fatalf("thanos query without a replica label answers the replicas %q, want A,B", got)
	}
	single := map[string]map[string]float64{"A": read("replica A", "--prometheus", c.A.Prometheus), "B": read("replica B", "--prometheus", c.B.Prometheus)}
	reads := map[string]map[string]float64{
		"thanos deduplicating (--replica-label replica)":     read("thanos, dedup", "--prometheus", dedup, "--replica-label", "replica"),
		"the tool deduplicating (default replica labels)":    read("thanos, no dedup", "--prometheus", raw),
		"thanos query frontend over the deduplicating query": read("thanos query frontend", "--prometheus", frontend, "--replica-label", "replica"),
	}
	busy := 0
	for name, rates := range reads {
		if len(rates) != len(single["A"]) {
			t.Errorf("%s: %d queues, want %d as one replica: %v against %v", name, len(rates), len(single["A"]), rates, single["A"])
		}
		for k, v := range rates {
			a, okA := single["A"][k]
			b, okB := single["B"][k]
			if !okA || !okB {
				t.Errorf("%s: queue %s, which the replicas read directly do not list", name, k)
				continue
			}
			if a > 0.5 {
				busy++
			}
			// One replica's rate: equal to A's or B's (they scrape at their own moments,
			// so they differ a little), and far from their sum.
			lo, hi := math.Min(a, b), math.Max(a, b)
			if v < lo*0.85-0.05 || v > hi*1.15+0.05 {
				t.Errorf("%s: queue %s at %.3f adds/s, want a single replica's (A %.3f, B %.3f)", name, k, v, a, b)
			}
		}
	}
	if busy == 0 {
		t.Fatalf("no queue adds more than 0.5/s: the comparison would not tell a doubled rate: %v", single["A"])
	}
}

// replicasAnswered is the values of the replica label in the answer of the Thanos Query at
// base to expr, not deduplicated, sorted and joined by commas.
func replicasAnswered(t *testing.T, base, expr string) string {
	t.Helper()
	resp, err := http.PostForm(base+"/api/v1/query", url.Values{"query": {"count by (replica) (" + expr + ")"}, "dedup": {"false"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var body struct {
		Data struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	var reps []string
	for _, r := range body.Data.Result {
		reps = append(reps, r.Metric["replica"])
	}
	sort.Strings(reps)
	return strings.Join(reps, ",")
}
