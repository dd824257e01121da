package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Over a fleet the queue table starts with CLUSTER and names targets within their cluster,
// a cluster name with a slash included; one cluster keeps the plain table.
func TestQueueTableClusterColumn(t *testing.T) {
	l := view.QueueList{Clusters: []string{"eu/prod", "us"},
		Items:  []view.Queue{{Cluster: "eu/prod", Target: "eu/prod/ns/op:8080", Queue: "q", Status: "SLOW"}},
		Errors: []view.TargetError{{Cluster: "us", Target: "us/kcm/10.0.0.1:10257", Error: "cluster us: down"}}}
	var b bytes.Buffer
	if err := QueueTable(&b, l, false, 0); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || strings.Fields(lines[0])[0] != "CLUSTER" ||
		strings.Join(strings.Fields(lines[1])[:2], " ") != "us kcm/10.0.0.1:10257" ||
		strings.Join(strings.Fields(lines[2])[:3], " ") != "eu/prod ns/op:8080 q" {
		t.Errorf("table:\n%s", b.String())
	}
	l.Clusters = nil
	b.Reset()
	if err := QueueTable(&b, l, false, 0); err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(b.String(), "CLUSTER") {
		t.Errorf("one cluster, yet a CLUSTER column:\n%s", b.String())
	}
}

// A fleet report opens with the clusters worst first, and its tables of targets have a
// CLUSTER column.
func TestReportFleetSection(t *testing.T) {
	depth := 150.0
	r := view.Report{Summary: view.Summary{Targets: 2, Read: 2},
		Fleet: []view.ClusterSummary{
			{Cluster: "b", Targets: 1, Read: 1, Warning: 1, Worst: &view.FindingRef{Code: "CD208", Check: "workers-saturated",
				Severity: findings.Warning, Target: "b/ns/op:8080", Queue: "q"}},
			{Cluster: "a", Targets: 1, Read: 1}},
		Backlog: []view.Backlog{{Target: "b/ns/op:8080", Queue: "q", Depth: &depth, Trend: "rising", Status: "SLOW"}}}
	var b bytes.Buffer
	if err := ReportText(&b, r); err != nil {
		t.Fatal(err)
	}
	txt := b.String()
	flat := strings.Join(strings.Fields(txt), " ")
	for _, want := range []string{"FLEET: CLUSTERS, WORST FIRST", "b 1/1 0 1 CD208 workers-saturated ns/op:8080 ",
		"a 1/1 0 0 none", "CLUSTER TARGET QUEUE", "b ns/op:8080 q "} {
		if !strings.Contains(flat, want) {
			t.Errorf("no %q in:\n%s", want, txt)
		}
	}
	if strings.Index(txt, "FLEET") > strings.Index(txt, "1. CONTROLLER PODS") {
		t.Errorf("the fleet section is not first:\n%s", txt)
	}
	b.Reset()
	if err := ReportHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<section id="fleet">`) {
		t.Error("the html report has no fleet section")
	}
}
