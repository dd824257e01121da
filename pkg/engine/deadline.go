package engine

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// errDeadline ends what is read after the targets when --deadline passes.
var errDeadline = errors.New("overall deadline reached")

// afterReading bounds what a command reads after the targets by the overall deadline, counted
// from start (0: no deadline).
func afterReading(ctx context.Context, start time.Time, deadline time.Duration) (context.Context, context.CancelFunc) {
	if deadline <= 0 {
		return ctx, func() {}
	}
	return context.WithDeadlineCause(ctx, start.Add(deadline), errDeadline)
}

// deadlineWarning says that the deadline cut the cluster reads after the targets short.
func deadlineWarning(d time.Duration) string {
	return fmt.Sprintf("overall deadline reached: --deadline %s passed while the cluster was read after the targets (objects, generations, resource usage, Leases, annotations): those sections may be incomplete; raise --deadline", d)
}
