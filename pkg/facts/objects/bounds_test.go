package objects

import (
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/watch"
)

// The spec-latency objective is one of the watch's bounds, so its counts say exactly how many
// changes were over it: against 3s (between the default 2s and 5s) a change acted on in 2.5s
// is on time and one in 4s over, where the default bounds could only say both possibly were.
func TestBoundsForAnObjective(t *testing.T) {
	if b := boundsFor(3 * time.Second); len(b) != len(specBounds)+1 || !slices.IsSorted(b) || b[6] != 3 {
		t.Fatalf("bounds for 3s: %v, want the default ones with 3 between 2 and 5", b)
	}
	for _, d := range []time.Duration{5 * time.Second, 0, -time.Second} {
		if b := boundsFor(d); !slices.Equal(b, specBounds) {
			t.Errorf("bounds for %s: %v, want the default ones", d, b)
		}
	}
	at := func(s float64) time.Time { return now.Add(time.Duration(s * float64(time.Second))) }
	for _, c := range []struct {
		name             string
		b                bounds
		surely, possibly float64
	}{
		{"the objective a bound", boundsFor(3 * time.Second), 1, 1},
		{"the default bounds", specBounds, 0, 2},
	} {
		s := newSpecTracker(c.b)
		s.seed(specObj("a", 1, 1, time.Time{}), at(0))
		s.seed(specObj("b", 1, 1, time.Time{}), at(0))
		s.event(watch.Modified, specObj("a", 2, 1, time.Time{}), at(1))
		s.event(watch.Modified, specObj("b", 2, 1, time.Time{}), at(1))
		s.event(watch.Modified, specObj("a", 2, 2, time.Time{}), at(3.5)) // 2.5s
		s.event(watch.Modified, specObj("b", 2, 2, time.Time{}), at(5))   // 4s
		n, surely, possibly, _ := s.result(10, at(10)).Samples(3)
		if n != 2 || surely != c.surely || possibly != c.possibly {
			t.Errorf("%s: %v changes, %v surely and %v possibly over 3s; want 2, %v, %v", c.name, n, surely, possibly, c.surely, c.possibly)
		}
	}
}
