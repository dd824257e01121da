package run

import (
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
)

// eventsLookback is how long before the window's start a Warning event's last occurrence may
// be and still count: a failing object's retries back off, and its events with them.
const eventsLookback = 5 * time.Minute

// eventsSince is when the Warning events read begin: the earliest first sample of the
// targets, or now, less eventsLookback.
func eventsSince(targets []model.Target, now time.Time) time.Time {
	start := now
	for _, t := range targets {
		if f := t.First(); f != nil && !f.Time.IsZero() && f.Time.Before(start) {
			start = f.Time
		}
	}
	return start.Add(-eventsLookback)
}
