package capacity

import "testing"

// The verdict rule: a few slow samples are chance, a p99 needs 100 samples to hold, and a
// break needs at least 3 samples surely over, beyond the Poisson margin.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		name   string
		counts Counts
		want   Verdict
	}{
		{"99 samples, 1 over: too few to judge, no break", Counts{99, 1, 1}, NotJudged},
		{"1000 samples, 12 over: within chance (12 < 10+6.3)", Counts{1000, 12, 12}, Unknown},
		{"1000 samples, 17 over: beyond chance", Counts{1000, 17, 17}, Breaks},
		{"9 of 9 over (the saturated demo's 5s window)", Counts{9, 9, 9}, Breaks},
		{"2 of 2 over: too few to break", Counts{2, 2, 2}, NotJudged},
		{"1000 samples, 10 over: at the budget", Counts{1000, 10, 10}, Holds},
		{"1000 samples, none surely, 50 possibly over", Counts{1000, 0, 50}, Unknown},
		{"100 samples, none over", Counts{100, 0, 0}, Holds},
		{"none", Counts{0, 0, 0}, NotJudged},
	} {
		got, why := Judge(c.counts, 0.99)
		if got != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, got, why, c.want)
		}
		if (got == NotJudged || got == Unknown) && why == "" {
			t.Errorf("%s: %s without a reason", c.name, got)
		}
	}
	if _, why := Judge(Counts{42, 0, 0}, 0.99); why != "42 samples in the window, a p99 needs 100" {
		t.Errorf("why: %q", why)
	}
}
