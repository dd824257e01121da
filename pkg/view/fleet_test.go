package view

import (
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// Recount after some findings were suppressed counts them out of their cluster too: its
// counts drop, its worst finding is the next one, and the clusters are ordered again.
func TestRecountTalliesTheFleet(t *testing.T) {
	r := Report{
		Fleet:     []ClusterSummary{{Cluster: "eu", Targets: 1, Read: 1}, {Cluster: "us", Targets: 2, Read: 2}},
		clusterOf: map[string]string{"eu/ns/op:8080": "eu", "us/ns/op:8080": "us", "us/kcm/10.0.0.1:10257": "us"},
		Findings: []findings.Finding{
			{Code: "CD201", Check: "stuck-worker", Severity: findings.Critical, Target: "us/ns/op:8080", Queue: "q"},
			{Code: "CD208", Check: "workers-saturated", Severity: findings.Warning, Target: "eu/ns/op:8080", Queue: "q"},
			{Code: "CD207", Check: "backlog-growing", Severity: findings.Warning, Target: "us/kcm/10.0.0.1:10257", Queue: "job"},
		}}
	r.Recount()
	if r.Fleet[0].Cluster != "us" || r.Fleet[0].Critical != 1 || r.Fleet[0].Warning != 1 || r.Fleet[0].Worst.Code != "CD201" ||
		r.Fleet[1].Cluster != "eu" || r.Fleet[1].Warning != 1 {
		t.Fatalf("fleet %+v", r.Fleet)
	}
	// us's critical finding is suppressed.
	r.Findings = r.Findings[1:]
	r.Recount()
	us := r.Fleet[1]
	if r.Fleet[0].Cluster != "eu" || us.Cluster != "us" || us.Critical != 0 || us.Warning != 1 || us.Worst.Code != "CD207" {
		t.Errorf("after suppression: fleet %+v, us %+v", r.Fleet, us)
	}
	if r.Summary.Critical != 0 || r.Summary.Warning != 2 {
		t.Errorf("summary %+v", r.Summary)
	}
}
