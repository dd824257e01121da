package suppress

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

const file = `# accepted findings
ignore:
- check: CD208
  namespace: team-a
  controller: widget
  reason: "capacity raised on 2026-12-01, watching"
  expires: 2026-12-31
- check: backlog-growing
  reason: known slow drain
`

func TestParse(t *testing.T) {
	r, err := Parse("ign.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Entries) != 2 {
		t.Fatalf("entries: %+v", r.Entries)
	}
	e := r.Entries[0]
	if e.Check != "workers-saturated" || e.Namespace != "team-a" || e.Controller != "widget" ||
		e.Reason != "capacity raised on 2026-12-01, watching" || e.Source != "ign.yaml:3" ||
		e.Expires.Format(time.DateOnly) != "2026-12-31" {
		t.Errorf("first entry: %+v", e)
	}
	if e := r.Entries[1]; e.Check != "backlog-growing" || !e.Expires.IsZero() || e.Source != "ign.yaml:8" {
		t.Errorf("second entry: %+v", e)
	}
	for _, empty := range []string{"", "ignore:\n", "# nothing\n"} {
		if r, err := Parse("e.yaml", []byte(empty)); err != nil || len(r.Entries) != 0 {
			t.Errorf("%q: %v %+v", empty, err, r)
		}
	}
}

// Every problem is an error that names the file and the line.
func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"ignore:\n- check: CD208\n", "ignore file f.yaml line 2: the entry for workers-saturated has no reason"},
		{"ignore:\n- reason: x\n", "line 2: the entry has no check"},
		{"ignore:\n- check: CD999\n  reason: x\n", `line 2: unknown check "CD999"`},
		{"ignore:\n- check: nope\n  reason: x\n", `line 2: unknown check "nope"`},
		{"ignore:\n- check: CD208\n  reason: x\n  expires: soon\n", `line 4: expires "soon" is not a date`},
		{"ignore:\n- check: CD208\n  reason: x\n  owner: me\n", `line 4: unknown key "owner"`},
		{"ignores:\n- check: CD208\n", `line 1: unknown key "ignores"`},
		{"ignore: CD208\n", "line 1: ignore must be a list"},
		{"- check: CD208\n", "line 1: want a mapping"},
		{"ignore:\n- check: CD208\n  reason: [x\n", "f.yaml line 2: did not find expected"},
		{"ignore:\n\t- check: CD208\n", "line 2"},
	} {
		_, err := Parse("f.yaml", []byte(tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "f.yaml") {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "none.yaml")); err == nil {
		t.Error("a missing file must be an error")
	}
}

func TestExpired(t *testing.T) {
	e := Entry{Expires: time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)}
	for now, want := range map[string]bool{"2026-12-31T23:59:59Z": false, "2027-01-01T00:00:00Z": true, "2026-01-01T00:00:00Z": false} {
		n, _ := time.Parse(time.RFC3339, now)
		if e.Expired(n) != want {
			t.Errorf("%s: expired %v, want %v", now, !want, want)
		}
	}
	if (Entry{}).Expired(time.Now()) {
		t.Error("an entry without expires never expires")
	}
}

func finding(check, sev, tgt, queue string) findings.Finding {
	d, _ := findings.Lookup(check)
	return findings.Finding{Code: d.Code, Check: check, Severity: findings.Severity(sev), Title: d.Title, Target: tgt, Queue: queue}
}

func sample() view.Report {
	r := view.Report{Summary: view.Summary{Targets: 2, Read: 2}, Findings: []findings.Finding{
		finding("workers-saturated", "warning", "team-a/op-1:8080", "widget"),
		finding("workers-saturated", "warning", "team-a/op-1:8080", "gadget"),
		finding("workers-saturated", "warning", "team-b/op-2:8080", "widget"),
		finding("backlog-growing", "warning", "team-b/op-2:8080", "widget"),
		finding("restarts", "info", "team-b/op-2:8080", ""),
	}}
	r.Recount()
	return r
}

// apply suppresses in r what rules and targets accept, through By, as report.Build does with
// Input.Suppress, and recounts the summary as Build does after it.
func apply(r *view.Report, rules *Rules, targets map[string]Target, now time.Time) {
	var a *Accepted
	r.Findings, a = By(rules, targets, now)(r.Findings)
	if a != nil {
		r.Suppressions = &view.Suppressions{Expired: a.Expired, Findings: []view.Suppressed{}}
		for _, f := range a.Findings {
			r.Suppressions.Findings = append(r.Suppressions.Findings, view.Suppressed{Finding: f.Finding, Reason: f.Reason, Source: f.Source})
		}
	}
	r.Recount()
}

// Split leaves the findings it is given as they were: the report is built once, with what it
// keeps, and nothing is rewritten after.
func TestSplitLeavesItsInput(t *testing.T) {
	rules, err := Parse("ign.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	r := sample()
	before := slices.Clone(r.Findings)
	kept, s := Split(r.Findings, rules, targets, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if s == nil || len(kept) != 3 || !slices.EqualFunc(r.Findings, before, func(a, b findings.Finding) bool {
		return a.Code == b.Code && a.Target == b.Target && a.Queue == b.Queue
	}) {
		t.Errorf("kept %d, suppressions %+v; the input changed: %+v", len(kept), s, r.Findings)
	}
}

var targets = map[string]Target{"team-a/op-1:8080": {Namespace: "team-a"}, "team-b/op-2:8080": {Namespace: "team-b"}}

// An entry suppresses only the findings its namespace and controller select; the summary is
// recounted from what is left.
func TestApply(t *testing.T) {
	rules, err := Parse("ign.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	r := sample()
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	apply(&r, rules, targets, now)
	if r.Suppressions == nil || len(r.Suppressions.Findings) != 2 || len(r.Findings) != 3 {
		t.Fatalf("suppressed %+v, kept %+v", r.Suppressions, r.Findings)
	}
	got := r.Suppressions.Findings
	if got[0].Target != "team-a/op-1:8080" || got[0].Queue != "widget" || got[0].Source != "ign.yaml:3" || got[0].Reason != "capacity raised on 2026-12-01, watching" {
		t.Errorf("first: %+v", got[0])
	}
	if got[1].Check != "backlog-growing" || got[1].Source != "ign.yaml:8" {
		t.Errorf("second: %+v", got[1])
	}
	if r.Summary.Warning != 2 || r.Summary.Info != 1 || r.Summary.Verdict != "2 controllers in trouble, with 2 warnings (2 findings suppressed by ign.yaml)" {
		t.Errorf("summary %+v", r.Summary)
	}

	// After the expiry day the entry no longer applies and says so.
	r = sample()
	apply(&r, rules, targets, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC))
	if len(r.Suppressions.Findings) != 1 || r.Suppressions.Findings[0].Check != "backlog-growing" || r.Summary.Warning != 3 ||
		len(r.Suppressions.Expired) != 1 || !strings.Contains(r.Suppressions.Expired[0], "ign.yaml:3: the entry for workers-saturated expired on 2026-12-31") {
		t.Errorf("expired: %+v %+v", r.Suppressions, r.Summary)
	}

	// Nothing to suppress: the report is left as it was.
	r = sample()
	apply(&r, nil, targets, now)
	if r.Suppressions != nil || len(r.Findings) != 5 {
		t.Errorf("no rules: %+v", r.Suppressions)
	}
}

func result(ns, pod, workload string, annotations map[string]string) model.Target {
	return model.Target{Facts: model.Facts{Target: target.Target{Kind: target.KindPod, Namespace: ns, Name: pod, Port: 8080, Workload: workload},
		Pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: pod, Annotations: annotations}}}}
}

// The annotation suppresses the checks it names, for its own workload only.
func TestAnnotation(t *testing.T) {
	ts, warnings := Targets([]model.Target{
		result("team-a", "op-1", "op", nil),
		result("team-b", "op-2", "op", map[string]string{AnnotationKey: "CD208, backlog-growing,CD999"}),
	}, nil)
	if len(warnings) != 1 || !strings.Contains(warnings[0], `unknown check "CD999"`) || !strings.Contains(warnings[0], "pod team-b/op-2") {
		t.Errorf("warnings %q", warnings)
	}
	r := sample()
	apply(&r, nil, ts, time.Now())
	if r.Suppressions == nil || len(r.Suppressions.Findings) != 2 {
		t.Fatalf("suppressed %+v", r.Suppressions)
	}
	for _, s := range r.Suppressions.Findings {
		if s.Target != "team-b/op-2:8080" || s.Source != "annotation ctrldiag.io/ignore on pod team-b/op-2" {
			t.Errorf("suppressed %+v", s)
		}
	}
	if len(r.Findings) != 3 || r.Findings[0].Target != "team-a/op-1:8080" || r.Summary.Warning != 2 {
		t.Errorf("kept %+v, summary %+v", r.Findings, r.Summary)
	}
	if _, ok := ts["team-b/op"].Ignore["workers-saturated"]; ts["team-b/op"].Namespace != "team-b" || !ok {
		t.Errorf("the workload's entry: %+v", ts["team-b/op"])
	}
}

// The workload object's annotation counts as the pod's does; each suppressed finding names
// the object whose annotation accepted its check.
func TestWorkloadAnnotation(t *testing.T) {
	results := []model.Target{
		result("team-a", "op-1", "deployment/op", nil),
		result("team-b", "op-2", "statefulset/op", map[string]string{AnnotationKey: "backlog-growing"}),
	}
	if keys := WorkloadKeys(results); len(keys) != 2 || keys[0] != "team-a/deployment/op" || keys[1] != "team-b/statefulset/op" {
		t.Fatalf("workload keys %q", keys)
	}
	ts, warnings := Targets(results, map[string]string{"team-b/statefulset/op": "CD208,nonsense", "team-a/deployment/other": "CD208"})
	if len(warnings) != 1 || !strings.Contains(warnings[0], `statefulset/op in team-b: unknown check "nonsense"`) {
		t.Errorf("warnings %q", warnings)
	}
	r := sample()
	apply(&r, nil, ts, time.Now())
	if r.Suppressions == nil || len(r.Suppressions.Findings) != 2 {
		t.Fatalf("suppressed %+v", r.Suppressions)
	}
	want := map[string]string{"workers-saturated": "annotation ctrldiag.io/ignore on statefulset/op in team-b",
		"backlog-growing": "annotation ctrldiag.io/ignore on pod team-b/op-2"}
	for _, s := range r.Suppressions.Findings {
		if s.Target != "team-b/op-2:8080" || s.Source != want[s.Check] {
			t.Errorf("suppressed %s by %q, want %q", s.Check, s.Source, want[s.Check])
		}
	}
}

func TestLoadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "i.yaml")
	if err := os.WriteFile(p, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := LoadFile(p)
	if err != nil || len(r.Entries) != 2 || r.Entries[0].Source != p+":3" {
		t.Fatalf("%v %+v", err, r)
	}
}
