package snapshot

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// errDeadline is the cause of the replay's end when Options.Deadline passes.
var errDeadline = errors.New("overall deadline reached")

// stopped is the error of a stored result left unparsed because ctx ended: the overall
// deadline, in the words a live reading uses, or what else ended it.
func stopped(ctx context.Context, deadline time.Duration) error {
	if context.Cause(ctx) == errDeadline {
		return fmt.Errorf("overall deadline reached: --deadline %s passed before this target's stored pages were parsed; raise --deadline, or name fewer targets", deadline)
	}
	return fmt.Errorf("not replayed: %w", context.Cause(ctx))
}
