//go:build e2e

package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
)

// partialDoc is what a report's json says of the fleet and of a partial answer.
type partialDoc struct {
	Summary struct{ Targets, Read, Critical int } `json:"summary"`
	Fleet   []struct{ Cluster string }            `json:"fleet"`
	Partial *struct {
		MissingClusters    []string `json:"missingClusters"`
		ReplicatedClusters []string `json:"replicatedClusters"`
		Whole              bool     `json:"whole"`
		Warnings           []string `json:"warnings"`
	} `json:"partial"`
}

// Two "clusters", east and west, each an HA pair: two Prometheus replicas (external labels
// cluster and replica) with a Thanos sidecar each, scraping the same healthy operator; one
// Thanos Query deduplicating by replica reads all four over strict endpoints (so that it warns
// about a store that does not answer instead of dropping it silently). With every sidecar up
// the report is of both clusters and says nothing of a partial answer, and --fail-on critical
// passes. With one of west's replicas stopped (a rolling restart) Thanos answers partially,
// but west's series come whole from the other replica: the report says so and still passes.
// With both of west's replicas stopped, the report says partial under the verdict and in json,
// names west as missing, the run's warnings pass Thanos' words on, and --fail-on critical
// exits 3 although no finding is critical.
func TestThanosPartialAnswerNamesMissingCluster(t *testing.T) {
	crowd(t)
	f := newThanosFixture(t, "operator-partial", "healthy")
	east := startHACluster(t, f.prometheus, f.thanos, "east", f.jobs)
	west := startHACluster(t, f.prometheus, f.thanos, "west", f.jobs)
	query := promserver.ThanosQueryStrict(t, f.thanos, []string{east.A.GRPC, east.B.GRPC, west.A.GRPC, west.B.GRPC}, "--query.replica-label=replica")

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

	west.B.Stop()
	// Thanos asks the stopped sidecar at every query (a strict endpoint) and warns, while
	// replica A answers for west.
	d, j, text = report("one of west's replicas stopped")
	clusters = nil
	for _, c := range d.Fleet {
		clusters = append(clusters, c.Cluster)
	}
	slices.Sort(clusters)
	flat := strings.Join(strings.Fields(text.Stdout), " ")
	switch {
	case d.Partial == nil || !d.Partial.Whole || len(d.Partial.MissingClusters) != 0 || !slices.Equal(d.Partial.ReplicatedClusters, []string{"west"}):
		t.Errorf("one of west's replicas stopped: json partial %+v, want whole, west replicated, nothing missing:\n%s", d.Partial, j)
	case strings.Join(clusters, ",") != "east,west":
		t.Errorf("one of west's replicas stopped: the fleet is %v, want east and west:\n%s", clusters, j)
	case !strings.Contains(flat, "the stores of cluster west that did not answer have replicas that did, no series are missing"):
		t.Errorf("one of west's replicas stopped: the text report does not say no series are missing:\n%s", text)
	case j.Code != 0 || text.Code != 0:
		t.Errorf("one of west's replicas stopped: --fail-on critical exits %d (json) and %d (text), want 0:\n%s\n%s", j.Code, text.Code, j, text)
	}

	west.A.Stop()
	d, j, text = report("both of west's sidecars stopped")
	if d.Partial == nil || !slices.Equal(d.Partial.MissingClusters, []string{"west"}) || len(d.Partial.Warnings) == 0 {
		t.Fatalf("both of west's sidecars stopped: json partial %+v, want west missing with Thanos' warning:\n%s", d.Partial, j)
	}
	for _, c := range d.Fleet {
		if c.Cluster == "west" {
			t.Errorf("both of west's sidecars stopped: west is in the fleet as if read:\n%s", j)
		}
	}
	if !strings.Contains(j.Stderr, "Prometheus answered partially: ") || !strings.Contains(j.Stderr, "no series of cluster west") {
		t.Errorf("both of west's sidecars stopped: the run's warnings do not say the answer is partial, naming west:\n%s", j)
	}
	if !strings.Contains(text.Stdout, "Partial: Prometheus answered partially") || !strings.Contains(text.Stdout, "no series of cluster west") ||
		!strings.Contains(text.Stdout, "not of the whole fleet") {
		t.Errorf("both of west's sidecars stopped: the text report does not say it is partial, naming west:\n%s", text)
	}
	if d.Summary.Critical != 0 || j.Code != 3 || text.Code != 3 {
		t.Errorf("both of west's sidecars stopped: %d critical findings, --fail-on critical exits %d (json) and %d (text), want none and 3:\n%s\n%s",
			d.Summary.Critical, j.Code, text.Code, j, text)
	}
}
