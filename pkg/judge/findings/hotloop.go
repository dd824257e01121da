package findings

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// hotLoop judges whether a controller-runtime queue reconciles the same objects over and over
// with almost no work. With the objects counted, the rate is per object (3,000 objects each
// polled every 10 minutes make 5 reconciles a second, once per object per 600 s: no loop),
// and at a higher rate every result counts, since a reconcile that re-triggers itself (writing
// its own object) succeeds. Without a count, it takes a high total rate, mostly requeue results. Failing
// reconciles are judged by failureFindings instead.
func hotLoop(t Target, q health.QueueStats, c *health.Controller, reconciles, requeues float64, th Thresholds) []Finding {
	if t.Window <= 0 || q.ReconcileErrors/q.Reconciles > th.ErrorRatio || q.WorkP50 > th.HotLoopWork.Seconds() || q.WorkP50AtLeast || !(reconciles >= th.MinEvents) {
		return nil
	}
	rate := reconciles / t.Window.Seconds()
	work := Evidence{Name: "work p50", Value: quantile(q.WorkP50, q.WorkP50AtLeast), Threshold: "<= " + th.HotLoopWork.String()}
	results := Evidence{Name: "requeue results", Value: format(requeues/reconciles, "%")}
	if objs := t.Objects.Of(t.ID, c.Name); objs != nil && objs.Error == "" && objs.Total > 0 {
		per := rate / float64(objs.Total)
		// Asked-for requeues at HotLoopObjectRate per object, or any result at
		// HotLoopObjectRateAnyResult: objects changed from outside once a second each are a
		// busy controller, not a loop, while a reconcile that re-triggers itself (it writes
		// its own object) succeeds many times a second.
		requeued := requeues/reconciles >= th.HotLoopRequeueRatio && per >= th.HotLoopObjectRate
		if !requeued && per < th.HotLoopObjectRateAnyResult {
			return nil
		}
		return []Finding{newFinding("hot-loop", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("%s reconciles each of its %d %s objects %.1f times a second (%.0f reconciles/s), with almost no work each",
				q.Queue, objs.Total, objs.Kind.Kind, per, rate),
			Evidence{Name: "reconciles per object/s", Value: format(per, "/s"),
				Threshold: fmt.Sprintf(">= %g/s mostly requeued, or >= %g/s", th.HotLoopObjectRate, th.HotLoopObjectRateAnyResult)},
			Evidence{Name: "reconciles/s", Value: format(rate, "/s")},
			Evidence{Name: "objects of " + objs.Kind.GroupResource(), Value: fmt.Sprint(objs.Total)},
			results, work).as(health.StatusRetrying)}
	}
	if rate < th.HotLoopRate || requeues/reconciles < th.HotLoopRequeueRatio {
		return nil
	}
	results.Threshold = fmt.Sprintf(">= %.0f%%", 100*th.HotLoopRequeueRatio)
	return []Finding{newFinding("hot-loop", t.Kind, t.ID, q.Queue,
		fmt.Sprintf("%s reconciles %.0f times a second, %.0f%% of them asking to be requeued, with almost no work each", q.Queue, rate, 100*requeues/reconciles),
		Evidence{Name: "reconciles/s", Value: format(rate, "/s"), Threshold: fmt.Sprintf(">= %g/s (objects not counted)", th.HotLoopRate)},
		results, work).as(health.StatusRetrying)}
}
