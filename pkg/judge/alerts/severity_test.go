package alerts

import (
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// An alert has its check's catalog severity, except the two cases the check's rule raises
// above it, which take pkg/judge/findings' escalations, and a queue's retries, which the report
// warns on only with failures the rules cannot read: the rule file and the report agree.
func TestAlertSeverities(t *testing.T) {
	raised := map[string]findings.Severity{
		Prefix + "OOMKilled":       findings.OOMKilledSeverity,
		Prefix + "SeveralLeaders":  findings.SeveralLeadersSeverity,
		Prefix + "QueueRetryStorm": findings.Info,
	}
	for _, a := range mustBuild(t, DefaultOptions()).Alerts {
		d, _ := findings.Lookup(a.Check)
		want, ok := raised[a.Name]
		if !ok {
			want = d.Severity
		} else if want == d.Severity {
			t.Errorf("%s: %q is the catalog's", a.Name, want)
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
