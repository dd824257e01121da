package source

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Clock is a run's one clock: when the run started and how long it may take (--deadline).
// The run bounds its context with it once, at its start; every source, reader and replay
// reads that context and none counts a deadline of its own.
type Clock struct {
	// Start is when the run started, read once; Limit is --deadline (0: none).
	Start time.Time
	Limit time.Duration
}

// StartClock reads now once and returns the clock of a run that may take limit.
func StartClock(now func() time.Time, limit time.Duration) Clock {
	if now == nil {
		now = time.Now
	}
	return Clock{Start: now(), Limit: limit}
}

// Bound returns ctx ended at the run's deadline, Start + Limit, with a cause that says so
// (DeadlineOf); a clock without a limit returns ctx as it is.
func (c Clock) Bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.Limit <= 0 {
		return ctx, func() {}
	}
	return context.WithDeadlineCause(ctx, c.Start.Add(c.Limit), deadlineCause{limit: c.Limit})
}

// deadlineCause is the cause of a run's context ended by its deadline.
type deadlineCause struct{ limit time.Duration }

func (c deadlineCause) Error() string { return "overall deadline reached" }

// DeadlineOf returns --deadline when ctx was ended by the run's deadline (Clock.Bound), and
// false otherwise (cancelled, a shorter timeout of its own, or not ended).
func DeadlineOf(ctx context.Context) (time.Duration, bool) {
	var c deadlineCause
	if ctx.Err() == nil || !errors.As(context.Cause(ctx), &c) {
		return 0, false
	}
	return c.limit, true
}

// DeadlineError says that the run's overall deadline passed: what had not happened by then,
// what had been read, and what to do. Every source and every verb says it with this type.
type DeadlineError struct {
	// Deadline is --deadline.
	Deadline time.Duration
	// Before is what had not happened when it passed ("before this target answered").
	Before string
	// Read is what had been read by then ("" when it is not worth saying).
	Read string
	// Hint is what else to do, after "raise --deadline, " ("or name fewer targets"; "" for
	// nothing else).
	Hint string
	// Err is what the deadline stopped, when it says more than the deadline does (a FIFO
	// nobody wrote to); nil otherwise.
	Err error
}

func (e *DeadlineError) Error() string {
	msg := fmt.Sprintf("overall deadline reached: --deadline %s passed %s", e.Deadline, e.Before)
	if e.Read != "" {
		msg += " (read by then: " + e.Read + ")"
	}
	msg += "; raise --deadline"
	if e.Hint != "" {
		msg += ", " + e.Hint
	}
	if e.Err != nil {
		msg = e.Err.Error() + ": " + msg
	}
	return msg
}

func (e *DeadlineError) Unwrap() error { return e.Err }

// Late returns the DeadlineError of a run whose context ctx was ended by its deadline, with
// what had not happened (before), what was read (read) and what else to do (hint); nil when
// ctx did not end so.
func Late(ctx context.Context, before, read, hint string) error {
	d, ok := DeadlineOf(ctx)
	if !ok {
		return nil
	}
	return &DeadlineError{Deadline: d, Before: before, Read: read, Hint: hint}
}

// Stopped is err said as the run's DeadlineError when the deadline ended ctx (err, what the
// deadline stopped, is its Err); err itself otherwise.
func Stopped(ctx context.Context, err error, before, hint string) error {
	d, ok := DeadlineOf(ctx)
	if err == nil || !ok {
		return err
	}
	return &DeadlineError{Deadline: d, Before: before, Hint: hint, Err: err}
}
