package access

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
)

// Each keeps the allowed names in the order given, asks at most parallelReviews at once, and
// stops at the first error in that order.
func TestEach(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}
	var running, most atomic.Int32
	ok, failed, err := Each(context.Background(), names, func(_ context.Context, n string) (bool, error) {
		r := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if r <= m || most.CompareAndSwap(m, r) {
				break
			}
		}
		return n != "b" && n != "k", nil
	})
	if err != nil || failed != "" || !slices.Equal(ok, []string{"a", "c", "d", "e", "f", "g", "h", "i", "j", "l"}) {
		t.Errorf("allowed %q, failed %q, err %v", ok, failed, err)
	}
	if most.Load() > parallelReviews {
		t.Errorf("%d reviews at once, want at most %d", most.Load(), parallelReviews)
	}
	boom := errors.New("boom")
	ok, failed, err = Each(context.Background(), names, func(_ context.Context, n string) (bool, error) {
		if n == "d" || n == "h" {
			return false, boom
		}
		return true, nil
	})
	if ok != nil || failed != "d" || !errors.Is(err, boom) {
		t.Errorf("with errors at d and h: allowed %q, failed %q, err %v; want the one at d", ok, failed, err)
	}
}
