package render

import (
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Status is one STATUS value of the queue table and what sets it.
type Status struct {
	Status health.Status
	// Means says when a queue has it; {name} stands for a threshold's default.
	Means string
}

// Statuses are the STATUS values, worst first, as queues and top sort them.
func Statuses() []Status {
	return []Status{
		{health.StatusError, "the target could not be read or parsed (the reason is on stderr and in \"errors\" of -o json|yaml)"},
		{health.StatusStuck, "stuck-worker: an item has been in a worker for stuckAfter ({stuckAfter}) or more"},
		{health.StatusFailing, "retry-storm: more than errorRatio ({errorRatio}) of reconciles failed (at least minEvents, {minEvents}, in the window, or, when some failed in a thinner window, since the process started); persistent-failures: objects keep failing and back off; with one sample, lifetime-failures: most reconciles since the process started failed"},
		{health.StatusBacklog, "backlog-growing: the depth rose by risingDepth ({risingDepth}) or more; or backlog-high: backlogDepth ({backlogDepth}) items wait, not rising that much (draining, steady, or one sample)"},
		{health.StatusSaturated, "the workers cannot keep up: workers-saturated (every worker busy and items wait, or items wait longer than the work takes), priority-starvation (on a priority queue, a lower priority does not drain while every worker serves the higher ones) or under-provisioned (more workers needed for the target wait)"},
		{health.StatusSlow, "slow-reconcile: work p99 of slowWork ({slowWork}) or more although workers are free"},
		{health.StatusRetrying, "retry-storm on a queue without reconcile metrics (retriesPerSecond and retryRatio of adds, with Warning events or the log naming failures), or hot-loop (reconciles that ask to be requeued at once)"},
		{health.StatusGone, "the queue was in the first sample but not the second (a restart, lost leadership)"},
		{health.StatusOK, "none of the above"},
		{health.StatusStandby, "not a queue: the standby replicas of a workload, folded into the leader's rows"},
	}
}

// withDefaults puts each threshold's default in place of {name}.
func withDefaults(s string) string {
	for _, d := range findings.ThresholdDocs() {
		s = strings.ReplaceAll(s, "{"+d.Name+"}", d.Default)
	}
	return s
}

func statusText() string {
	var b strings.Builder
	b.WriteString(wrapFlush("STATUS, the column of kubectl ctrldiag queues and top, says whether a queue keeps up. "+
		"It comes from the findings kubectl ctrldiag report raises on that queue, judged with the "+
		"same thresholds (--threshold, --thresholds; see kubectl ctrldiag explain thresholds), so "+
		"the table and the report always agree; -o wide's REASON names the finding's code. "+
		"Rows sort worst first:", "", 80) + "\n")
	for _, s := range Statuses() {
		// The value, then its meaning beneath it: the longest value (SATURATED) and 80
		// columns leave too little beside it.
		b.WriteString("  " + string(s.Status) + "\n")
		b.WriteString(wrapFlush(withDefaults(s.Means), "      ", 80))
	}
	b.WriteString("\n" + wrapFlush("A check's page (kubectl ctrldiag explain CHECK) says what it means and what to change.", "", 80))
	return b.String()
}
