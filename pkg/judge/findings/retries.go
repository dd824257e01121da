package findings

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// queueRetries is retry-storm on a queue without reconcile metrics (a client-go queue, as in
// kube-controller-manager): many retries for its adds. workqueue_retries_total counts every
// delayed add, periodic requeues (AddAfter, RequeueAfter) as much as failures backing off, so
// retries alone are info; the Warning events or the log naming failures of the queue make it
// a warning, and cite them.
func queueRetries(t Target, q health.QueueStats, th Thresholds) []Finding {
	if !(t.Window > 0 && q.RetriesPerSecond >= th.RetriesPerSecond && q.RetryRatio >= th.RetryRatio &&
		q.AddsPerSecond*t.Window.Seconds() >= th.MinEvents) { // NaN: not read

		return nil
	}
	failed := append(eventEvidence(t, eventsOf(t, q.Queue)), logContext(t, q)...)
	f := newFinding("retry-storm", t.Kind, t.ID, q.Queue,
		fmt.Sprintf("%s retries %.1f items a second, %.0f per 100 adds", q.Queue, q.RetriesPerSecond, 100*q.RetryRatio),
		append([]Evidence{{Name: "retries/s", Value: format(q.RetriesPerSecond, "/s"), Threshold: fmt.Sprintf(">= %g/s", th.RetriesPerSecond)},
			{Name: "retries per add", Value: format(q.RetryRatio, "%"), Threshold: fmt.Sprintf(">= %.0f%%", 100*th.RetryRatio)}}, failed...)...)
	if len(failed) == 0 {
		f.Summary += "; no Warning event or log line names a failure, and retries count periodic requeues too (AddAfter)"
		return []Finding{f.withSeverity(Info)}
	}
	return []Finding{f.as(health.StatusRetrying)}
}
