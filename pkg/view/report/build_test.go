package report

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/suppress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

func families(t *testing.T, name string) map[string]*dto.MetricFamily {
	return testpages.Parse(t, name, health.Wanted).Families
}

func TestBuildFromCapturedPages(t *testing.T) {
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	kcm := target.Target{Kind: target.KindPod, Namespace: "kube-system", Name: "kcm", Port: 10257}
	in := Input{Scope: "namespace kube-system", Now: now, Thresholds: findings.DefaultThresholds(),
		Targets: []model.Target{
			model.Of(model.Facts{Target: kcm, Window: 10 * time.Second}, []model.Page{
				{Families: families(t, "kube-controller-manager-1.prom.gz"), Time: now.Add(-10 * time.Second)},
				{Families: families(t, "kube-controller-manager-2.prom.gz"), Time: now}}),
			model.Of(model.Facts{Target: target.Target{Kind: target.KindURL, Name: "http://gone:8080/metrics"}, Err: errors.New("connection refused")}, nil),
		}}
	r := Build(in)
	if r.APIVersion != view.APIVersion || r.Kind != view.ReportKind || r.Window != "10s" || r.Summary.Targets != 2 || r.Summary.Read != 1 {
		t.Fatalf("header: %+v", r.Summary)
	}
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Error, "connection refused") {
		t.Errorf("errors: %+v", r.Errors)
	}
	if len(r.Findings) != 1 || r.Findings[0].Check != "scrape-failed" || r.Summary.Verdict != "1 controller in trouble, with 1 warning" {
		t.Errorf("findings: %+v, verdict %q", r.Findings, r.Summary.Verdict)
	}
	if len(r.Backlog) < 40 || len(r.Events) != len(r.Backlog) || len(r.Resources) != 1 {
		t.Errorf("rows: backlog %d events %d resources %d", len(r.Backlog), len(r.Events), len(r.Resources))
	}
	for _, b := range r.Backlog {
		if b.Trend == "unknown" {
			t.Errorf("%s: with two samples the trend is known", b.Queue)
		}
	}
	if r.CacheSync.Methods[0] != "informer-metrics" || !strings.Contains(r.CacheSync.Note, "API server's metrics were not read") {
		t.Errorf("cache sync: %v %q", r.CacheSync.Methods, r.CacheSync.Note)
	}
	// NaN never reaches JSON: unknown numbers are null.
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
}

// The findings Input.Suppress accepts are listed as suppressed, not as findings, and the
// summary counts only those kept: the report is built with them once.
func TestBuildSuppresses(t *testing.T) {
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	gone := model.Of(model.Facts{Target: target.Target{Kind: target.KindURL, Name: "http://gone:8080/metrics"}, Err: errors.New("connection refused")}, nil)
	var offered []findings.Finding
	in := Input{Scope: "test", Now: now, Thresholds: findings.DefaultThresholds(), Targets: []model.Target{gone},
		Suppress: func(fs []findings.Finding) ([]findings.Finding, *suppress.Accepted) {
			offered = fs
			return nil, &suppress.Accepted{Findings: []suppress.Suppressed{{Finding: fs[0], Reason: "known", Source: "test"}}}
		}}
	r := Build(in)
	if len(offered) != 1 || offered[0].Check != "scrape-failed" {
		t.Fatalf("offered to Suppress: %+v", offered)
	}
	if r.Findings == nil || len(r.Findings) != 0 || r.Suppressions == nil || len(r.Suppressions.Findings) != 1 ||
		r.Suppressions.Findings[0].Reason != "known" || r.Suppressions.Findings[0].Source != "test" ||
		r.Summary.Warning != 0 || r.Summary.Critical != 0 {
		t.Errorf("findings %+v, suppressions %+v, summary %+v", r.Findings, r.Suppressions, r.Summary)
	}
	in.Suppress = nil
	if r := Build(in); len(r.Findings) != 1 || r.Suppressions != nil || r.Summary.Warning != 1 {
		t.Errorf("without Suppress: findings %+v, suppressions %+v", r.Findings, r.Suppressions)
	}
}
