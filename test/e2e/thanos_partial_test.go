//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/promserver"
)

// partialDoc is what a report's json says of the fleet and of a partial answer.
type partialDoc struct {
	Summary struct{ Targets, Read, Critical int } `json:"summary"`
	Fleet   []struct{ Cluster string }            `json:"fleet"`
	Partial *struct {
		MissingClusters []string `json:"missingClusters"`
		Warnings        []string `json:"warnings"`
	} `json:"partial"`
}

// Two "clusters", east and west, each a Prometheus (external label cluster) with a Thanos
// sidecar, scrape the same healthy operator; one Thanos Query reads both over strict endpoints
// (so that it warns about a store that does not answer instead of dropping it silently). With
// both sidecars up the report is of both clusters and says nothing of a partial answer, and
// --fail-on critical passes. With west's sidecar stopped, Thanos answers partially: the report
// says so under the verdict and in json, names west as missing, the run's warnings pass
// Thanos' words on, and --fail-on critical exits 3 although no finding is critical.
func TestThanosPartialAnswerNamesMissingCluster(t *testing.T) {
	prometheus, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real Prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	thanos := thanosBin(t)
	ns := newNamespace(t)
	p := operatorBehindPod(t, ns, "operator-partial", "healthy")
	cfg := func(cluster string) string {
		return fmt.Sprintf(`global: {scrape_interval: 2s, scrape_timeout: 1s, external_labels: {cluster: %q}}
scrape_configs:
  - job_name: operator
    static_configs:
      - targets: [%q]
        labels: {namespace: %q, pod: %q}
`, cluster, p.Listen[8080], ns, p.Name)
	}
	east := promserver.PrometheusWithSidecar(t, prometheus, thanos, cfg("east"))
	west := promserver.PrometheusWithSidecar(t, prometheus, thanos, cfg("west"))
	query := promserver.ThanosQueryStrict(t, thanos, []string{east.GRPC, west.GRPC})

	const window = 20 * time.Second
	time.Sleep(15*time.Second + window)
	report := func(name string, args ...string) (partialDoc, Result, Result) {
		t.Helper()
		// A little in the past, so that both Prometheus have scraped the window's end.
		at := time.Now().Add(-3 * time.Second).UTC().Format(time.RFC3339)
		base := []string{"report", "--prometheus", query, "--window", window.String(), "--at", at, "-A", "--fail-on", "critical"}
		j := ctrldiag(t, append(append(base, "-o", "json"), args...)...)
		var d partialDoc
		if j.Code != 0 && j.Code != 3 {
			t.Fatalf("%s: report -o json exit %d:\n%s", name, j.Code, j)
		}
		if err := json.Unmarshal([]byte(j.Stdout), &d); err != nil {
			t.Fatalf("%s: report -o json is not JSON: %v\n%s", name, err, j)
		}
		text := ctrldiag(t, append(base, args...)...)
		return d, j, text
	}

	d, j, text := report("both stores up")
	var clusters []string
	for _, c := range d.Fleet {
		clusters = append(clusters, c.Cluster)
	}
	slices.Sort(clusters)
	switch {
	case d.Partial != nil || strings.Contains(j.Stderr, "partially") || strings.Contains(text.Stdout, "Partial:"):
		t.Errorf("both stores up: the report speaks of a partial answer (%+v):\n%s\n%s", d.Partial, j, text)
	case strings.Join(clusters, ",") != "east,west":
		t.Errorf("both stores up: the fleet is %v, want east and west:\n%s", clusters, j)
	case j.Code != 0 || text.Code != 0:
		t.Errorf("both stores up, a healthy operator: --fail-on critical exits %d (json) and %d (text), want 0:\n%s\n%s", j.Code, text.Code, j, text)
	}

	west.Stop()
	// Thanos asks the stopped sidecar at every query (a strict endpoint) and warns.
	d, j, text = report("west's sidecar stopped")
	if d.Partial == nil || !slices.Equal(d.Partial.MissingClusters, []string{"west"}) || len(d.Partial.Warnings) == 0 {
		t.Fatalf("west's sidecar stopped: json partial %+v, want west missing with Thanos' warning:\n%s", d.Partial, j)
	}
	for _, c := range d.Fleet {
		if c.Cluster == "west" {
			t.Errorf("west's sidecar stopped: west is in the fleet as if read:\n%s", j)
		}
	}
	if !strings.Contains(j.Stderr, "Prometheus answered partially: ") || !strings.Contains(j.Stderr, "no series of cluster west") {
		t.Errorf("west's sidecar stopped: the run's warnings do not say the answer is partial, naming west:\n%s", j)
	}
	if !strings.Contains(text.Stdout, "Partial: Prometheus answered partially") || !strings.Contains(text.Stdout, "no series of cluster west") ||
		!strings.Contains(text.Stdout, "not of the whole fleet") {
		t.Errorf("west's sidecar stopped: the text report does not say it is partial, naming west:\n%s", text)
	}
	if d.Summary.Critical != 0 || j.Code != 3 || text.Code != 3 {
		t.Errorf("west's sidecar stopped: %d critical findings, --fail-on critical exits %d (json) and %d (text), want none and 3:\n%s\n%s",
			d.Summary.Critical, j.Code, text.Code, j, text)
	}
}
