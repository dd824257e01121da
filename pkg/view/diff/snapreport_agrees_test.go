package diff

import (
	"encoding/json"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// A stored report agrees with the one made when it says the same, however it is laid out;
// one finding more or less, or a file that is no report, disagrees.
func TestAgrees(t *testing.T) {
	made := view.Report{Kind: view.ReportKind, Scope: "metrics read directly (--url, --from-file)",
		Summary:  view.Summary{Targets: 1, Read: 1, Warning: 1, Verdict: "1 warning"},
		Findings: []findings.Finding{{Code: "CD102", Severity: findings.Warning, Target: "t", Queue: "widget"}}}
	compact, _ := json.Marshal(made)
	indented, _ := json.MarshalIndent(made, "", "  ")
	healthy := made
	healthy.Findings, healthy.Summary = nil, view.Summary{Targets: 1, Read: 1, Verdict: "healthy"}
	edited, _ := json.Marshal(healthy)
	for _, tc := range []struct {
		name   string
		stored string
		want   bool
	}{
		{"compact", string(compact), true},
		{"indented", string(indented) + "\n", true},
		{"edited to healthy", string(edited), false},
		{"not JSON", "{", false},
		{"another kind", `{"kind":"Other"}`, false},
	} {
		if got := Agrees([]byte(tc.stored), made); got != tc.want {
			t.Errorf("%s: Agrees = %v, want %v", tc.name, got, tc.want)
		}
	}
}
