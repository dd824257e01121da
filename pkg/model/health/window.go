package health

import (
	"fmt"
	"math"
	"time"
)

// Slack allowed to WorkBeyondWindow before the work done contradicts the window: a share of
// it, and a fixed time per worker, for the few milliseconds between a sample's time and the
// moment the page was written.
const (
	windowSlackShare   = 0.1
	windowSlackSeconds = 0.5
)

// WorkBeyondWindow says why the work a queue finished over its window cannot have been done in
// it ("" when it can, or when the figures to tell are missing): w workers finish at most w x
// window seconds of work, plus what the items already running at the first sample had done
// before it, each at most the longest running one then. More work than that means the window
// is shorter than the time between the samples (a wrong --interval for pages that do not say
// when they were taken).
func WorkBeyondWindow(q QueueStats) string {
	w, secs := q.MaxWorkers, q.Window.Seconds()
	if !(w > 0) || !(secs > 0) || math.IsNaN(q.WorkSeconds) || math.IsNaN(q.LongestBefore) || q.SinceRestart {
		return ""
	}
	most := w*(secs+q.LongestBefore)*(1+windowSlackShare) + w*windowSlackSeconds
	if q.WorkSeconds <= most {
		return ""
	}
	workers := number(w) + " workers"
	if w == 1 {
		workers = "1 worker"
	}
	return fmt.Sprintf("%s's items took %s of work to finish in it, more than its %s can do (%s at most, %.0f%% of them busy)",
		q.Queue, WindowText(seconds(q.WorkSeconds)), workers, WindowText(seconds(most)), 100*q.WorkSeconds/(w*secs))
}

// WindowText is a duration as the outputs write a window: rounded to 100 ms.
func WindowText(d time.Duration) string {
	return d.Round(100 * time.Millisecond).String()
}

func seconds(s float64) time.Duration {
	if s > float64(math.MaxInt64)/1e9 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(s * 1e9)
}
