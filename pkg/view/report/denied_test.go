package report

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// A user confined to their namespace may not read the API server's /metrics: the report of
// their healthy controller says so in a note with the rule that would read it and the flag
// that skips it, and raises no finding; any other failure of the API server's read, or of
// another target, stays a failed target with scrape-failed.
func TestAPIServerTheUserMayNotReadIsANote(t *testing.T) {
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	kcm := target.Target{Kind: target.KindPod, Namespace: "kube-system", Name: "kcm", Port: 10257}
	read := model.Of(model.Facts{Target: kcm, Window: 10 * time.Second}, []model.Page{
		{Families: families(t, "kube-controller-manager-1.prom.gz"), Time: now.Add(-10 * time.Second)},
		{Families: families(t, "kube-controller-manager-2.prom.gz"), Time: now}})
	apiserver := target.Target{Kind: target.KindAPIServer, Name: "apiserver"}
	denied := model.Of(model.Facts{Target: apiserver, Err: &access.Error{Missing: []access.Permission{access.APIServerMetrics()}}}, nil)

	r := Build(Input{Scope: "namespace kube-system", Now: now, Thresholds: findings.DefaultThresholds(), Targets: []model.Target{read, denied}})
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], `nonResourceURLs ["/metrics"]`) || !strings.Contains(r.Notes[0], "--include-apiserver=false") {
		t.Errorf("notes %q: want the rule and the flag named", r.Notes)
	}
	if len(r.Errors) != 0 || r.Summary.Targets != 1 || r.Summary.Read != 1 {
		t.Errorf("errors %+v, %d of %d read: the API server the user may not read is no failed target", r.Errors, r.Summary.Read, r.Summary.Targets)
	}
	for _, f := range r.Findings {
		if f.Check == "scrape-failed" {
			t.Errorf("finding %s on %s", f.Check, f.Target)
		}
	}

	// Refused by the server itself (no RBAC pre-check said so): a failure like any other.
	refused := model.Of(model.Facts{Target: apiserver, Err: errors.New("500 Internal Server Error")}, nil)
	r = Build(Input{Scope: "namespace kube-system", Now: now, Thresholds: findings.DefaultThresholds(), Targets: []model.Target{read, refused}})
	if len(r.Notes) != 0 || len(r.Errors) != 1 || r.Summary.Targets != 2 {
		t.Errorf("a failing API server: notes %q, errors %+v, %d targets", r.Notes, r.Errors, r.Summary.Targets)
	}
	if got := r.Findings; len(got) == 0 || got[0].Check != "scrape-failed" {
		t.Errorf("a failing API server raises no scrape-failed: %+v", got)
	}
}
