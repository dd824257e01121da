package report

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// sourceControllerPage is one page of FluxCD's source-controller whose sources fail: 42 of 73
// reconciles failed since the process started and none returned success.
const sourceControllerPage = `workqueue_depth{controller="gitrepository",name="gitrepository"} 0
workqueue_adds_total{controller="gitrepository",name="gitrepository"} 73
controller_runtime_reconcile_total{controller="gitrepository",result="error"} 42
controller_runtime_reconcile_total{controller="gitrepository",result="requeue"} 0
controller_runtime_reconcile_total{controller="gitrepository",result="requeue_after"} 31
controller_runtime_reconcile_total{controller="gitrepository",result="success"} 0
controller_runtime_reconcile_errors_total{controller="gitrepository"} 42
controller_runtime_max_concurrent_reconciles{controller="gitrepository"} 2
controller_runtime_active_workers{controller="gitrepository"} 0
`

// One page (report --from-file page.txt, or --interval 0) of a controller whose lifetime
// counts say most reconciles failed: the verdict is not "healthy", and the finding says what
// one sample cannot tell and how to read a window.
func TestOnePageOfAFailingControllerIsNotHealthy(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	r := Build(Input{Scope: "file", Now: now, Thresholds: findings.DefaultThresholds(),
		Targets: []model.Target{model.Of(model.Facts{Target: target.Target{Kind: target.KindFile, Name: "page.txt"}},
			[]model.Page{{Families: testpages.ParseText(t, sourceControllerPage), Time: now}})}})
	if strings.HasPrefix(r.Summary.Verdict, "healthy") || r.Summary.Warning != 1 {
		t.Fatalf("verdict %q, findings %+v", r.Summary.Verdict, r.Findings)
	}
	f := r.Findings[0]
	if f.Check != "lifetime-failures" || !strings.Contains(f.Summary, "42 of 73 reconciles of gitrepository failed") ||
		!strings.Contains(f.Summary, "one sample cannot tell whether it still fails") || !strings.Contains(f.Summary, "--interval 30s") {
		t.Errorf("finding: %+v", f)
	}
}
