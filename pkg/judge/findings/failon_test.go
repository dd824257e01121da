package findings

import (
	"fmt"
	"strings"
	"testing"
)

// Each scale's words, help and default, as report and diff have always said them.
func TestScaleWords(t *testing.T) {
	for _, tc := range []struct {
		scale        FailOnScale
		values, help string
	}{
		{FailOnReported, "none warning critical", "Exit 3 when a finding reaches this severity: none, warning or critical"},
		{FailOnAppeared, "none new-warning new-critical", "Exit 3 when a finding of this severity appeared: none, new-warning or new-critical"},
	} {
		if got := strings.Join(tc.scale.Values(), " "); got != tc.values {
			t.Errorf("values %q, want %q", got, tc.values)
		}
		if got := tc.scale.Help(); got != tc.help {
			t.Errorf("help %q, want %q", got, tc.help)
		}
	}
}

// Every value of both scales against findings of every severity: a level fails on a finding
// of its severity or worse, none never, and an empty set or an unknown severity never.
func TestFails(t *testing.T) {
	sets := map[string][]Finding{"no finding": nil}
	for _, s := range []Severity{Info, Warning, Critical, "", "fatal"} {
		sets[fmt.Sprintf("one %q", s)] = []Finding{{Severity: s}}
	}
	sets["info and warning"] = []Finding{{Severity: Info}, {Severity: Warning}}
	sets["unknown and critical"] = []Finding{{Severity: "fatal"}, {Severity: Critical}}
	reads := map[string]Severity{"none": "", "warning": Warning, "critical": Critical,
		"new-warning": Warning, "new-critical": Critical}
	fails := map[Severity][]string{ // level: the sets it fails on
		"":       {},
		Warning:  {`one "warning"`, `one "critical"`, "info and warning", "unknown and critical"},
		Critical: {`one "critical"`, "unknown and critical"},
	}
	for _, scale := range []FailOnScale{FailOnReported, FailOnAppeared} {
		for _, v := range scale.Values() {
			l, err := scale.Parse(v)
			if err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			if l.Severity != reads[v] {
				t.Fatalf("%s reads as %q, want %q", v, l.Severity, reads[v])
			}
			want := fails[l.Severity]
			for name, fs := range sets {
				if got := l.Fails(fs); got != contains(want, name) {
					t.Errorf("--fail-on %s, %s: fails %v", v, name, got)
				}
			}
		}
	}
}

// A value of another scale, or in another case, is refused with the values and the one meant.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		scale FailOnScale
		v     string
		want  string
	}{
		{FailOnReported, "sometimes", `must be none, warning or critical, got "sometimes"`},
		{FailOnReported, "", `must be none, warning or critical, got ""`},
		{FailOnReported, "info", `must be none, warning or critical, got "info"`},
		{FailOnReported, "new-warning", `must be none, warning or critical, got "new-warning" (did you mean warning?)`},
		{FailOnReported, "Critical", `must be none, warning or critical, got "Critical" (did you mean critical?)`},
		{FailOnReported, "NONE", `must be none, warning or critical, got "NONE" (did you mean none?)`},
		{FailOnAppeared, "sometimes", `must be none, new-warning or new-critical, got "sometimes"`},
		{FailOnAppeared, "warning", `must be none, new-warning or new-critical, got "warning" (did you mean new-warning?)`},
		{FailOnAppeared, "critical", `must be none, new-warning or new-critical, got "critical" (did you mean new-critical?)`},
		{FailOnAppeared, "new-info", `must be none, new-warning or new-critical, got "new-info"`},
		{FailOnAppeared, "new-none", `must be none, new-warning or new-critical, got "new-none"`},
	} {
		l, err := tc.scale.Parse(tc.v)
		if err == nil || err.Error() != tc.want || l != (FailOnLevel{}) {
			t.Errorf("%q: %v %+v, want %s", tc.v, err, l, tc.want)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
