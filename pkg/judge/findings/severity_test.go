package findings

import (
	"fmt"
	"testing"
)

// The one ranking: critical, warning, info, worst first; an unknown severity below info.
func TestSeverityRank(t *testing.T) {
	for _, tc := range []struct {
		s     Severity
		rank  int
		known bool
	}{
		{Critical, 0, true},
		{Warning, 1, true},
		{Info, 2, true},
		{"", 3, false},
		{"fatal", 3, false},
		{"Warning", 3, false},
	} {
		if got := tc.s.Rank(); got != tc.rank {
			t.Errorf("%q.Rank() = %d, want %d", tc.s, got, tc.rank)
		}
		if got := tc.s.Known(); got != tc.known {
			t.Errorf("%q.Known() = %v, want %v", tc.s, got, tc.known)
		}
	}
	if got := fmt.Sprint(Severities()); got != "[critical warning info]" {
		t.Errorf("Severities() = %s", got)
	}
	Severities()[0] = Info // a copy: the ranking cannot be changed from outside
	if Critical.Rank() != 0 {
		t.Error("Severities() handed out the ranking itself")
	}
}

// AtLeast over every pair, unknown severities included.
func TestSeverityAtLeast(t *testing.T) {
	all := []Severity{Critical, Warning, Info, "", "fatal"}
	atLeast := map[[2]Severity]bool{
		{Critical, Critical}: true, {Critical, Warning}: true, {Critical, Info}: true,
		{Warning, Warning}: true, {Warning, Info}: true,
		{Info, Info}: true,
	}
	for _, s := range all {
		for _, level := range all {
			if got, want := s.AtLeast(level), atLeast[[2]Severity{s, level}]; got != want {
				t.Errorf("%q.AtLeast(%q) = %v, want %v", s, level, got, want)
			}
		}
	}
}

// Worst and Sort read the same ranking.
func TestWorstAndSortFollowTheRanking(t *testing.T) {
	for _, tc := range []struct {
		in   []Severity
		want Severity
	}{
		{nil, ""},
		{[]Severity{Info}, Info},
		{[]Severity{Info, Warning}, Warning},
		{[]Severity{Warning, Critical, Info}, Critical},
		{[]Severity{"fatal", Info}, Info},
		{[]Severity{Critical, "fatal"}, Critical},
	} {
		var fs []Finding
		for i, s := range tc.in {
			fs = append(fs, Finding{Severity: s, Target: fmt.Sprint(i)})
		}
		if got := Worst(fs); got != tc.want {
			t.Errorf("Worst(%v) = %q, want %q", tc.in, got, tc.want)
		}
		Sort(fs)
		for i := 1; i < len(fs); i++ {
			if fs[i-1].Severity.Rank() > fs[i].Severity.Rank() {
				t.Errorf("Sort(%v): %q before %q", tc.in, fs[i-1].Severity, fs[i].Severity)
			}
		}
	}
}

// The escalations raise their check above the catalog's severity: else they say nothing.
func TestEscalationsRaiseTheirCheck(t *testing.T) {
	for check, s := range map[string]Severity{"memory-pressure": OOMKilledSeverity, "leader-election": SeveralLeadersSeverity} {
		d, ok := Lookup(check)
		if !ok || !s.Known() || s.Rank() >= d.Severity.Rank() {
			t.Errorf("%s: catalog %q, escalation %q", check, d.Severity, s)
		}
	}
}
