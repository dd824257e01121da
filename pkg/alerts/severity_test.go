package alerts

import (
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
)

// An alert has its check's catalog severity, except the two cases the check's rule raises
// above it, which take pkg/findings' escalations: the rule file and the report agree.
func TestAlertSeverities(t *testing.T) {
	raised := map[string]findings.Severity{
		Prefix + "OOMKilled":      findings.OOMKilledSeverity,
		Prefix + "SeveralLeaders": findings.SeveralLeadersSeverity,
	}
	for _, a := range mustBuild(t, DefaultOptions()).Alerts {
		d, _ := findings.Lookup(a.Check)
		want, ok := raised[a.Name]
		if !ok {
			want = d.Severity
		} else if !want.AtLeast(d.Severity) || want == d.Severity {
			t.Errorf("%s: %q does not raise the catalog's %q", a.Name, want, d.Severity)
		}
		if a.Severity != want {
			t.Errorf("%s: severity %q, want %q", a.Name, a.Severity, want)
		}
		delete(raised, a.Name)
	}
	for name := range raised {
		t.Errorf("no alert %s", name)
	}
}
