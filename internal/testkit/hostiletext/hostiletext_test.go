package hostiletext

import "testing"

func TestProblem(t *testing.T) {
	for _, tt := range []struct {
		out  string
		want bool
	}{
		{"TARGET\tQUEUE\nns/op  " + Shown + "\n", false},
		{Name, true},
		{"a\x1b[31mred", true},
		{"a\u202eb", true},
		{"a\u0085b", true},
		{"fine\n  ::warning::x", true},
		{"a::b\n", false},
	} {
		if got := Problem(tt.out) != ""; got != tt.want {
			t.Errorf("Problem(%q) = %q, want a problem: %v", tt.out, Problem(tt.out), tt.want)
		}
	}
}
