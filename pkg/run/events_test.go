package run

import (
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// The Warning events read begin eventsLookback before the earliest first sample.
func TestEventsSince(t *testing.T) {
	now := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	at := func(ts ...time.Time) model.Target {
		var t model.Target
		for _, x := range ts {
			t.Snapshots = append(t.Snapshots, &health.Snapshot{Time: x})
		}
		return t
	}
	targets := []model.Target{at(now.Add(-10*time.Second), now), at(now.Add(-30*time.Second), now), at()}
	if got, want := eventsSince(targets, now), now.Add(-30*time.Second-eventsLookback); !got.Equal(want) {
		t.Errorf("eventsSince = %s, want %s", got, want)
	}
	if got, want := eventsSince(nil, now), now.Add(-eventsLookback); !got.Equal(want) {
		t.Errorf("with no target, eventsSince = %s, want %s", got, want)
	}
}
