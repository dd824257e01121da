package view

import (
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Frame is one refresh of `top`: every target read once, its rates over the time since the
// refresh before (the first frame has none: lifetime quantiles, no rates).
type Frame struct {
	// Time is when the refresh began.
	Time time.Time
	// List is the queue table, worst first; targets that failed this time are its Errors.
	List QueueList
	// Findings are the findings of the targets read, judged with the same thresholds that
	// give the STATUS column; the details of a queue show its own.
	Findings []findings.Finding
	// Warnings are the source's warnings (the first frame) and what the targets said while
	// being read (a fallback to port-forward), for stderr or a status line.
	Warnings []string
	// History is, in the first frame of a Top with a History, the queues' recent depth and
	// adds/s, which the points of the frames continue.
	History []health.QueueHistory
}

// Window is the frame's window in the table's words: "lifetime" or a duration.
func (f *Frame) Window() string {
	if f.List.Window == "" {
		return Lifetime
	}
	return f.List.Window
}
