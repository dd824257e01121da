package objects

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// A watch that sees more objects change than it follows keeps no more than maxFollowed of them,
// and counts the others' changes apart.
func TestTheWatchFollowsABoundedNumberOfObjects(t *testing.T) {
	defer func(n int) { maxObjects = n }(maxObjects)
	maxObjects = 5
	b := boundsFor(0)
	clock := now
	_, cancel := context.WithCancel(context.Background())
	w := &ChangeWatch{cancel: cancel, done: make(chan struct{}), now: func() time.Time { return clock },
		per: map[types.UID]*ObjectChanges{}, spec: newSpecTracker(b), ready: newReadyTracker(b)}
	close(w.done)
	w.started = clock
	seen := map[types.UID]uint64{}
	for i := range 100 {
		u := changing(fmt.Sprint(i), 1, nil, "")
		w.received(watch.Added, u, Changed(seen, watch.Added, u))
	}
	clock = clock.Add(10 * time.Second)
	c, _, _ := w.Stop()
	if len(w.per) > maxFollowed() || len(seen) > maxFollowed() {
		t.Errorf("%d objects counted, %d remembered; want at most %d", len(w.per), len(seen), maxFollowed())
	}
	if c.Count != 100 || c.Unfollowed != 100-maxFollowed() || c.ByCount[1] != maxFollowed() {
		t.Errorf("changes %+v, want 100 of which %d unfollowed", c, 100-maxFollowed())
	}
	if got := c.Served(1); got != 10 {
		t.Errorf("served %g/s, want every change (10/s)", got)
	}
}

// The failures of one kind keep a bounded number of reasons, and the first 200 characters of
// each reason's message.
func TestSummaryKeepsBoundedReasons(t *testing.T) {
	s := Summary{Kind: workload}
	long := strings.Repeat("x", 100_000)
	for i := range 2 * maxReasons {
		s.Add(obj(fmt.Sprint(i), 1, 1, 0, fmt.Sprintf("Ready=False/Reason%d/%s/1m", i, long)), now)
	}
	if len(s.Reasons) != maxReasons || s.FailedOtherReasons != maxReasons || s.Failed != 2*maxReasons {
		t.Errorf("%d reasons kept, %d objects of others, %d failed", len(s.Reasons), s.FailedOtherReasons, s.Failed)
	}
	for _, r := range s.Reasons {
		if len(r.Message) > 203 {
			t.Fatalf("reason %s keeps a message of %d bytes", r.Reason, len(r.Message))
		}
	}
}
