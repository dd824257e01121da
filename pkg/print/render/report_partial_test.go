package render

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// partialError is the error sampling gives a target whose second read failed.
const partialError = "second sample (rates and window quantiles unavailable, lifetime figures shown): connection refused"

// partialReport is a report over three targets: the reference operator, read twice 10 s
// apart; kube-controller-manager, whose second sample failed, so it is judged over its
// lifetime; and an operator that could not be read at all.
func partialReport(t *testing.T) view.Report {
	t.Helper()
	a, b := loadPage(t, "controller-runtime-1.prom"), loadPage(t, "controller-runtime-2.prom")
	kcm := loadPage(t, "kube-controller-manager-1.prom.gz")
	return report.Build(report.Input{
		Scope: "all namespaces",
		Targets: source.Model([]source.Result{
			{Target: target.Target{Kind: target.KindURL, Name: "http://op:8080/metrics"}, Window: 10 * time.Second,
				Samples: []source.Sample{{Families: a.Families, Time: fixtureNow.Add(-10 * time.Second)}, {Families: b.Families, Time: fixtureNow}}},
			{Target: target.Target{Kind: target.KindPod, Namespace: "kube-system", Name: "kcm", Port: 10257},
				Samples: []source.Sample{{Families: kcm.Families, Time: fixtureNow.Add(-10 * time.Second)}}, Err: errors.New(partialError)},
			{Target: target.Target{Kind: target.KindURL, Name: "http://gone:8080/metrics"}, Err: errors.New("connection refused")},
		}),
		Thresholds: findings.DefaultThresholds(),
		Now:        fixtureNow,
	})
}

// Every format lists the error of the target read once, says that it was judged over its
// lifetime, and says in the header that not every target had the report's window.
func TestReportPartialRead(t *testing.T) {
	r := partialReport(t)
	want := map[string][]string{
		"txt": {
			"window 10s (lifetime for 1 target: see below),",
			"Busiest first, over the last 10s (lifetime for 1 target: see below);",
			// wrapped in 80 columns, under the target's name
			"\nTARGETS THAT COULD NOT BE READ, OR ONLY ONCE\n" +
				"  kube-system/kcm:10257 (judged over its lifetime): second sample (rates and\n" +
				"    window quantiles unavailable, lifetime figures shown): connection refused\n" +
				"  http://gone:8080/metrics: connection refused\n",
		},
		"md": {
			"window 10s (lifetime for 1 target: see below),",
			"\n## Targets that could not be read, or only once\n\n" +
				"- `kube-system/kcm:10257` (judged over its lifetime): " + partialError + "\n" +
				"- `http://gone:8080/metrics`: connection refused\n",
		},
		"html": {
			"<dt>Window</dt><dd>10s (lifetime for 1 target: see below)</dd>",
			`<a href="#errors">Unread or partly read targets</a>`,
			"<h2>Targets that could not be read, or only once</h2>",
			"<li><code>kube-system/kcm:10257</code> (judged over its lifetime): " + partialError + "</li>",
			"<li><code>http://gone:8080/metrics</code>: connection refused</li>",
		},
	}
	for ext, render := range reportFormats {
		t.Run(ext, func(t *testing.T) {
			var buf bytes.Buffer
			if err := render(&buf, r); err != nil {
				t.Fatal(err)
			}
			flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
			for _, w := range want[ext] {
				// The text wraps in 80 columns: its lines are compared as running text.
				if !strings.Contains(buf.String(), w) && (ext != "txt" || !strings.Contains(flat(buf.String()), flat(w))) {
					t.Errorf("the output lacks %q", w)
				}
			}
			if ext == "html" {
				checkBalanced(t, buf.String())
			}
			if ext != "json" && ext != "yaml" {
				return
			}
			var got struct {
				Window string              `json:"window"`
				Errors []map[string]string `json:"errors"`
			}
			if err := yaml.Unmarshal(buf.Bytes(), &got); err != nil { // json is yaml
				t.Fatal(err)
			}
			wantErrs := []map[string]string{
				{"target": "kube-system/kcm:10257", "error": partialError, "window": "lifetime"},
				{"target": "http://gone:8080/metrics", "error": "connection refused"},
			}
			if got.Window != "10s" || len(got.Errors) != len(wantErrs) {
				t.Fatalf("window %q, errors %v", got.Window, got.Errors)
			}
			for i, e := range wantErrs {
				if len(got.Errors[i]) != len(e) || got.Errors[i]["target"] != e["target"] || got.Errors[i]["error"] != e["error"] ||
					got.Errors[i]["window"] != e["window"] {
					t.Errorf("errors[%d] = %v, want %v", i, got.Errors[i], e)
				}
			}
		})
	}
}

// The window and the errors' heading read as before when no target was read only once: the
// golden report (every target read twice, one not at all) shows it in full.
func TestReportWindowWithoutPartialReads(t *testing.T) {
	for _, r := range []view.Report{
		{Window: "5s"},
		{Window: "5s", Errors: []view.TargetError{{Target: "a", Error: "connection refused"}}},
		{Window: view.Lifetime, Errors: []view.TargetError{{Target: "a", Error: "x", Window: view.Lifetime}}},
	} {
		if got := reportWindow(r); got != r.Window {
			t.Errorf("%+v: window %q", r, got)
		}
	}
	if got := errorsTitle(view.Report{Errors: []view.TargetError{{Target: "a", Error: "x"}}}); got != "Targets that could not be read" {
		t.Errorf("title %q", got)
	}
}
