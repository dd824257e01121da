package suppress

import (
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// A deep queue that does not grow was reported as backlog-growing before backlog-high had a
// check of its own: ignores of backlog-growing (by slug or code, in a file or an annotation)
// still accept it. An ignore of backlog-high does not accept a growing backlog.
func TestIgnoreOfTheOldCheckCoversTheSplitOne(t *testing.T) {
	deep := func() view.Report {
		r := view.Report{Summary: view.Summary{Targets: 1, Read: 1}, Findings: []findings.Finding{
			finding("backlog-high", "warning", "team-b/op-2:8080", "widget"),
			finding("backlog-growing", "warning", "team-b/op-2:8080", "gadget"),
		}}
		r.Recount()
		return r
	}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, file, annotation string
		want                   []string // suppressed checks
	}{
		{"file, slug", "ignore:\n- check: backlog-growing\n  controller: widget\n  reason: known slow drain\n", "", []string{"backlog-high"}},
		{"file, code", "ignore:\n- check: CD211\n  reason: known\n", "", []string{"backlog-growing", "backlog-high"}},
		{"annotation, code", "", "CD211", []string{"backlog-growing", "backlog-high"}},
		{"annotation, slug", "", "backlog-growing", []string{"backlog-growing", "backlog-high"}},
		{"the new check alone", "ignore:\n- check: backlog-high\n  reason: draining\n", "backlog-high", []string{"backlog-high"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rules *Rules
			if tc.file != "" {
				var err error
				if rules, err = Parse("ign.yaml", []byte(tc.file)); err != nil {
					t.Fatal(err)
				}
			}
			ann := map[string]string{}
			if tc.annotation != "" {
				ann[AnnotationKey] = tc.annotation
			}
			ts, warnings := Targets([]model.Target{result("team-b", "op-2", "op", ann)}, nil)
			if len(warnings) != 0 {
				t.Fatalf("warnings %q", warnings)
			}
			r := deep()
			apply(&r, rules, ts, now)
			var got []string
			if r.Suppressions != nil {
				for _, s := range r.Suppressions.Findings {
					got = append(got, s.Check)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("suppressed %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("suppressed %v, want %v", got, tc.want)
				}
			}
			if r.Summary.Warning != 2-len(tc.want) {
				t.Errorf("summary %+v", r.Summary)
			}
		})
	}
}
