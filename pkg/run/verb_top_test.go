package run

import (
	"testing"
	"time"
)

// The step of the history is the refresh, but at least the usual scrape interval.
func TestHistoryStep(t *testing.T) {
	if s := historyStep(2 * time.Second); s != 15*time.Second {
		t.Errorf("2s: %s", s)
	}
	if s := historyStep(time.Minute); s != time.Minute {
		t.Errorf("1m: %s", s)
	}
}
