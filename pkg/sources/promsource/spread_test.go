package promsource

import (
	"sync/atomic"
	"testing"
)

// spread calls work on every item exactly once, however many there are.
func TestSpreadCoversEveryItemOnce(t *testing.T) {
	for _, n := range []int{0, 1, spreadMin - 1, spreadMin, 1000, 12345} {
		seen := make([]atomic.Int32, n)
		spread(n, func(lo, hi int) {
			if lo < 0 || hi > n || lo >= hi {
				t.Errorf("n=%d: range [%d, %d)", n, lo, hi)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: item %d done %d times", n, i, c)
			}
		}
	}
}
