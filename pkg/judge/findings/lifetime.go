package findings

import (
	"fmt"
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// lifetimeMajority is the share of reconciles that must have failed since the process started
// for one sample to say so as a warning: more than half, or the errorRatio threshold when that
// is set higher. Start-up failures of a healthy controller (a webhook or CRD not ready yet,
// conflicts) are a few among many reconciles; most of them failing is not a start-up blip.
const lifetimeMajority = 0.5

// lifetimeFailures judges, with one sample, a controller whose counts since the process started
// say that most of its reconciles failed: at least MinEvents failures, over half of at least
// MinEvents reconciles (and over ErrorRatio). One sample cannot tell whether it still fails, so
// the finding says so and how to read a window; it is a warning because counts that strong are
// no healthy controller's, whatever the window will show. Weaker lifetime counts are context
// (an info retry-storm).
func lifetimeFailures(t Target, q health.QueueStats, c *health.Controller, th Thresholds) (Finding, bool) {
	if t.Window > 0 {
		return Finding{}, false
	}
	errs, recs := q.LifetimeReconcileErrors, q.LifetimeReconciles
	if math.IsNaN(errs) || math.IsNaN(recs) || recs < th.MinEvents || errs < th.MinEvents {
		return Finding{}, false
	}
	ratio := errs / recs
	if !(ratio > math.Max(lifetimeMajority, th.ErrorRatio)) {
		return Finding{}, false
	}
	others := recs - errs
	none := ""
	switch success, ok := c.ReconcileTotal["success"]; {
	case others <= 0:
		none = " and none succeeded"
	case ok && success == 0:
		// controller-runtime counts a reconcile that asked to be requeued apart from success:
		// the rest may be periodic requeues of objects that are fine.
		none = fmt.Sprintf(" and none returned success (%.0f asked to be requeued)", others)
	}
	evs := []Evidence{
		evidence("reconcile errors since the process started", errs, ""),
		evidence("reconciles since the process started", recs, ""),
		{Name: "error ratio since the process started", Value: format(ratio, "%"),
			Threshold: fmt.Sprintf("> %.0f%% of at least %g reconciles, and at least %g errors", 100*math.Max(lifetimeMajority, th.ErrorRatio), th.MinEvents, th.MinEvents)},
	}
	for _, res := range []string{"success", "requeue", "requeue_after"} {
		if v, ok := c.ReconcileTotal[res]; ok {
			evs = append(evs, evidence(`result="`+res+`" since the process started`, v, ""))
		}
	}
	if terminal := c.TerminalErrors; terminal > 0 {
		evs = append(evs, evidence("terminal errors (not retried)", terminal, ""))
	}
	evs = append(evs, Evidence{Name: "samples", Value: "1", Threshold: "2 to judge the window"})
	return newFinding("lifetime-failures", t.Kind, t.ID, q.Queue,
		fmt.Sprintf("one sample: lifetime counts show %.0f of %.0f reconciles of %s failed%s since the process started; "+
			"one sample cannot tell whether it still fails: run with --interval 30s (two samples), or --from-file BEFORE,AFTER, to judge the window",
			errs, recs, q.Queue, none), evs...).as(health.StatusFailing), true
}
