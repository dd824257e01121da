package findings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// cert-manager's real page counts syncs and errors per controller and no queue: the failure
// checks judge its controllers from those counts, and it is no controller-runtime process.
func TestCertManagerSyncCounts(t *testing.T) {
	at := time.Date(2026, 12, 5, 23, 4, 21, 0, time.UTC)
	b, err := os.ReadFile(filepath.Join(testpages.Dir(), "cert-manager-fault.prom"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	cur := health.FromFamilies(testpages.ParseText(t, page), at)
	if cur.SyncsOnly != health.CertManager || KindOf(cur, nil) != ClientGo {
		t.Fatalf("cert-manager's page: syncs only %q, kind %s", cur.SyncsOnly, KindOf(cur, nil))
	}
	issuers := cur.Controllers["issuers"]
	if issuers == nil || issuers.ReconcileErrors != 7 || issuers.Reconciles() != 12 || cur.Queues["issuers"] == nil {
		t.Fatalf("issuers: %+v, queue %+v", issuers, cur.Queues["issuers"])
	}
	if c := cur.Controllers["certificates-readiness"]; c == nil || c.ReconcileErrors != 0 || c.Reconciles() != 38 {
		t.Fatalf("certificates-readiness, which failed none: %+v", c)
	}

	// Ten seconds before, the Issuer had failed 5 of 7 syncs: 2 more failed in the window, of 5.
	before := strings.NewReplacer(`sync_error_count{controller="issuers"} 7`, `sync_error_count{controller="issuers"} 2`,
		`sync_call_count{controller="issuers"} 12`, `sync_call_count{controller="issuers"} 7`).Replace(page)
	prev := health.FromFamilies(testpages.ParseText(t, before), at.Add(-10*time.Second))
	target := Target{ID: "cm/cert-manager:9402", Kind: KindOf(cur, nil), Prev: prev, Cur: cur, Window: 10 * time.Second,
		Queues: health.Queues("cm/cert-manager:9402", prev, cur, 10*time.Second)}
	var failing []Finding
	for _, f := range Evaluate([]Target{target}, nil, nil, DefaultThresholds()) {
		if f.Severity != Info {
			failing = append(failing, f)
		}
	}
	if len(failing) != 1 || failing[0].Check != "persistent-failures" || failing[0].Queue != "issuers" ||
		!strings.Contains(failing[0].Summary, "5 of 5 reconciles failed") {
		t.Fatalf("want persistent-failures of issuers alone, got %s: %v", checks(failing), failing)
	}
}
