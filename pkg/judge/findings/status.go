package findings

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Judge sets the STATUS and REASON of each queue of t from the findings the same thresholds
// raise on it: a queue with a queue finding is never OK, and a queue is STUCK, FAILING,
// BACKLOG, SATURATED, SLOW or RETRYING only when the finding behind it is raised. A queue that went away
// between the samples stays GONE. An OK queue whose p99 the buckets cannot place against its
// threshold says so in its reason.
func Judge(t *Target, th Thresholds) {
	for i := range t.Queues {
		q := &t.Queues[i]
		if q.Status == health.StatusGone {
			continue
		}
		q.Status, q.Reason = statusOf(queueFindings(*t, *q, th))
		if q.Status == health.StatusOK {
			q.Reason = undecided(*t, *q, th) // OK as far as the buckets tell
		}
	}
}

// statusOf is the worst status the warning and critical findings give their queue, with the
// finding's summary and code as the reason; info findings leave a queue OK.
func statusOf(fs []Finding) (health.Status, string) {
	st, reason := health.StatusOK, ""
	for _, f := range fs {
		if f.Severity != Info && f.status != "" && f.status.Rank() < st.Rank() {
			st, reason = f.status, f.Summary+" ("+f.Code+")"
		}
	}
	return st, reason
}
