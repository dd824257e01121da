package events

import (
	"context"
	"strings"
	"testing"
)

// The events of one object keep a message as the grouped events do: one line, cut.
func TestObjectEventsKeepABoundedMessage(t *testing.T) {
	huge := strings.Repeat("quota exceeded\n", 10000)
	c := client(func(string) bool { return true },
		event("shop", "e1", "Warning", "FailedCreate", "replicaset-controller", "apps/v1", "ReplicaSet", "web", 3, now, huge))
	evs, err := NewObjects(c).Of(context.Background(), "shop", "ReplicaSet", "web")
	if err != nil || len(evs) != 1 {
		t.Fatalf("events %+v, %v", evs, err)
	}
	if m := evs[0].Message; len(m) > maxMessage+len("...") || strings.Contains(m, "\n") {
		t.Errorf("a message of %d bytes kept as %d bytes, newlines: %v", len(huge), len(m), strings.Contains(m, "\n"))
	}
}
