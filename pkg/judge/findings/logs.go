package findings

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// logFailuresOf are the objects the controller's log says fail in name's reconciles, newest
// first: evidence of which objects fail and why when their status says nothing.
func logFailuresOf(t Target, name string) []logs.Failure {
	return t.Log.FailuresOf(name)
}

// logContext cites the objects the log says fail in q's reconciles, for a stuck or saturated
// queue: failures that stopped when its worker blocked, or that back-off spaced past the
// window, are still in the log read (the window and 2 minutes before it), and may be why.
func logContext(t Target, q health.QueueStats) []Evidence {
	name := q.Controller
	if name == "" {
		name = q.Queue
	}
	return logEvidence(t, logFailuresOf(t, name))
}

// logNamed says which objects the log names: "the log names shop/app-config (x3), shop/flags (x1)".
func logNamed(fs []logs.Failure) string {
	return namedIn("the log names ", logCited(fs))
}

// logEvidence cites the newest failing objects of the log, one line each: object, count, when
// last logged and the error.
func logEvidence(t Target, fs []logs.Failure) []Evidence {
	return citedEvidence(t, logCited(fs), "more failing objects in the log",
		func(n int) string { return fmt.Sprintf("%d (the Log section lists them)", n) })
}

func logCited(fs []logs.Failure) []cited {
	cs := make([]cited, len(fs))
	for i, f := range fs {
		cs[i] = cited{Short: fmt.Sprintf("%s (x%d)", f.Object, f.Count), Value: fmt.Sprintf("%s x%d", f.Object, f.Count),
			Label: "log: Reconciler error", Detail: f.Error, Last: f.Last}
	}
	return cs
}

// logThrottling is client-throttling judged from the log when the process exports no
// rate-limiter metric: client-go's "Waited for ... due to client-side throttling" lines of
// the window, at least ThrottleMinRequests of them, the longest at least ThrottleWait.
func logThrottling(t Target, th Thresholds) (Finding, bool) {
	if t.Log == nil || t.Log.Throttling == nil || t.Cur.Client.RateLimiterDuration != nil {
		return Finding{}, false
	}
	w := t.Log.Throttling
	if float64(w.Count) < th.ThrottleMinRequests || w.LongestSeconds < th.ThrottleWait.Seconds() {
		return Finding{}, false
	}
	return newFinding("client-throttling", t.Kind, t.ID, "",
		fmt.Sprintf("the log shows %d waits in the client's own rate limiter %s, the longest %s (the process exports no rate-limiter metric)",
			w.Count, over(t), format(w.LongestSeconds, "s")),
		Evidence{Name: "throttling waits logged", Value: fmt.Sprint(w.Count), Threshold: fmt.Sprintf(">= %g", th.ThrottleMinRequests)},
		Evidence{Name: "longest wait logged", Value: format(w.LongestSeconds, "s"), Threshold: ">= " + th.ThrottleWait.String()}), true
}

// panicEvidence cites the controller's panics in the log: message and first frames.
func panicEvidence(t Target, name string) []Evidence {
	var evs []Evidence
	for _, p := range t.Log.PanicsOf(name) {
		v := fmt.Sprintf(`"%s" x%d`, p.Message, p.Count)
		if len(p.Frames) > 0 {
			v += " at " + strings.Join(p.Frames[:min(3, len(p.Frames))], " < ")
		}
		evs = append(evs, Evidence{Name: "log: panic", Value: v})
	}
	return evs
}
