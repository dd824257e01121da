package findings

import (
	"cmp"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// Evaluate runs every rule over the targets, the workloads their pods belong to (grouped by
// model.Elections, by namespace and workload) and the informer lags and returns the
// findings, worst first.
func Evaluate(targets []Target, workloads []model.Election, lags []CacheLag, th Thresholds) []Finding {
	var out []Finding
	leaders := leadersByTarget(workloads)
	for _, t := range targets {
		out = append(out, withKnobs(t, targetFindings(t, th, leaders))...)
	}
	out = append(out, leaderFindings(targets, workloads)...)
	out = withPriorityLevels(out, targets)
	out = append(out, flowSchemaWaits(targets, th)...)
	out = append(out, requestLatency(targets, th)...)
	out = withWebhookCauses(out, targets, th)
	for _, l := range lags {
		out = append(out, cacheLagFinding(l, th)...)
	}
	Sort(out)
	return out
}

func targetFindings(t Target, th Thresholds, leaders map[string]*model.Election) []Finding {
	if t.ScrapeError != "" {
		return []Finding{newFinding("scrape-failed", t.Kind, t.ID, "", t.ScrapeError,
			Evidence{Name: "error", Value: t.ScrapeError})}
	}
	if t.Cur == nil {
		return nil
	}
	var out []Finding
	out = append(out, podFindings(t, th)...)
	if len(t.Cur.Queues) == 0 && t.Cur.Periodic == nil {
		// A controller that syncs on a period has no queue by design.
		out = append(out, noQueues(t, leaders))
	}
	out = append(out, notSyncing(t, th)...)
	out = append(out, workersBlocked(t)...)
	out = append(out, clientFindings(t, th)...)
	out = append(out, serverThrottling(t, th)...)
	out = append(out, webhookLatency(t, th)...)
	if f, ok := mistyped(t); ok {
		out = append(out, f)
	}
	for _, c := range t.Cur.Controllers {
		if n := delta(t, c.Name, func(c *health.Controller) float64 { return c.Panics }); n > 0 {
			out = append(out, lifetimeOnly(t, newFinding("reconcile-panics", t.Kind, t.ID, c.Name,
				fmt.Sprintf("%s panicked %.0f times %s", c.Name, n, over(t)),
				append([]Evidence{{Name: "reconcile panics", Value: fmt.Sprintf("%.0f", n), Threshold: "> 0"}}, panicEvidence(t, c.Name)...)...)))
		}
		if n := delta(t, c.Name, func(c *health.Controller) float64 { return c.Timeouts }); n > 0 {
			out = append(out, lifetimeOnly(t, newFinding("reconcile-timeouts", t.Kind, t.ID, c.Name,
				fmt.Sprintf("%.0f reconciles of %s ran past ReconciliationTimeout and were cut off %s", n, c.Name, over(t)),
				Evidence{Name: "reconcile timeouts", Value: fmt.Sprintf("%.0f", n), Threshold: "> 0"},
				Evidence{Name: "reconciles", Value: format(delta(t, c.Name, (*health.Controller).Reconciles), "")})))
		}
	}
	for _, q := range t.Queues {
		out = append(out, queueFindings(t, q, th)...)
	}
	for _, qc := range Capacity(t, th) {
		if f, ok := underProvisioned(t, qc, th); ok {
			out = append(out, f)
		}
	}
	for _, s := range SLIs(t, th) {
		if f, ok := queueWaitSLO(t, s, out, th); ok {
			out = append(out, f)
		}
	}
	for _, s := range SpecSLIs(t, th) {
		if f, ok := specLatencySLO(t, s, th); ok {
			out = append(out, f)
		}
	}
	return out
}

// queueFindings judges one queue. Rules that explain a symptom better suppress the symptom's
// weaker readings on the same queue (a stuck or saturated queue is not also "slow").
func queueFindings(t Target, q health.QueueStats, th Thresholds) []Finding {
	var out []Finding
	ev := func(name string, v float64, unit string, thr string) Evidence {
		return Evidence{Name: name, Value: format(v, unit), Threshold: thr}
	}
	if c := controllerOf(t, q); warmStandby(t, q, c) {
		// A warm replica: its queue filled while it waits for the lead. Nothing else to say.
		evs := []Evidence{ev("depth", q.Depth, "", "> 0"), ev("active workers", nanZero(q.ActiveWorkers), "", "0")}
		if c != nil {
			evs = append(evs, ev("reconciles since the process started", nanZero(c.Reconciles()), "", "0"))
		} else {
			evs = append(evs, Evidence{Name: "controller_runtime_* series of " + q.Controller, Value: "none: the controller has not started"},
				ev("items worked on since the process started", 0, "", "0"))
		}
		return []Finding{newFinding("warm-standby", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("%.0f items wait in %s, which has never reconciled and runs no worker: a standby that does not lead yet", q.Depth, q.Queue),
			evs...)}
	}
	// Stuck: with two samples, the same item was past the threshold at the first and is still
	// in work at the second (its age grew with the window), so one long but legitimate
	// reconcile that ends within the window is not stuck. One sample has only the gauge.
	stuck := q.Longest >= th.StuckAfter.Seconds()
	if t.Window > 0 {
		stuck = stuck && q.LongestBefore >= th.StuckAfter.Seconds() && q.Longest-q.LongestBefore >= t.Window.Seconds()/2
	}
	if stuck {
		evs := []Evidence{ev("longest running item", q.Longest, "s", ">= "+th.StuckAfter.String())}
		if t.Window > 0 {
			evs = append(evs, ev("at the first sample", q.LongestBefore, "s", ">= "+th.StuckAfter.String()+", and still running"))
		}
		evs = append(evs, ev("unfinished work", q.Unfinished, "s", ""), workersEvidence(q))
		evs = append(evs, logContext(t, q)...)
		out = append(out, blockedIn(newFinding("stuck-worker", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("an item of %s has been in a worker for %s", q.Queue, format(q.Longest, "s")), evs...), t.Goroutines, true).as(health.StatusStuck))
	}

	c := controllerOf(t, q)
	reconciles, requeues := math.NaN(), math.NaN()
	if c != nil {
		reconciles = delta(t, c.Name, (*health.Controller).Reconciles)
		requeues = delta(t, c.Name, func(c *health.Controller) float64 {
			return c.ReconcileTotal["requeue"] + c.ReconcileTotal["requeue_after"]
		})
		out = append(out, failureFindings(t, q, c, th)...)
		out = append(out, hotLoop(t, q, c, reconciles, requeues, th)...)
	} else if f, ok := objectFailures(t, q); ok {
		out = append(out, f)
	}
	if c == nil {
		out = append(out, queueRetries(t, q, th)...)
	}

	starved := priorityStarvation(t, q, th) // the workers saturated by higher priorities
	out = append(out, starved...)
	saturated := len(starved) > 0
	noneServed := unserved(t, q, th)
	switch {
	case saturated:
	case q.MaxWorkers > 0 && q.ActiveWorkers >= q.MaxWorkers && q.Depth > 0 &&
		(q.QueueP99 >= th.SaturatedQueueWait.Seconds() || q.Depth-q.DepthBefore >= th.RisingDepth || noneServed):
		// Busy workers alone are no saturation (one worker is busy whenever there is work):
		// items must wait long, or pile up.
		saturated = true
		wait := waitFigure(t, q)
		waited := wait.evidence("queue p99", ">= "+th.SaturatedQueueWait.String())
		summary := workersBusy(q)
		if noneServed {
			waited = Evidence{Name: "queue wait", Value: "at least " + format(t.Window.Seconds(), "s") + ": no item left the queue in the window",
				Threshold: ">= " + th.SaturatedQueueWait.String(), Basis: BasisWindow}
			summary += "; none left the queue in the last " + format(t.Window.Seconds(), "s")
		}
		f := newFinding("workers-saturated", t.Kind, t.ID, q.Queue, summary,
			append([]Evidence{workersEvidence(q), ev("depth", q.Depth, "", "> 0"), waited}, logContext(t, q)...)...).as(health.StatusSaturated)
		rising := q.Depth-q.DepthBefore >= th.RisingDepth
		// A backlog of RisingDepth or more at both samples held through the window: a slow
		// queue serves few items, so its waits are few, yet every item in it waited. So did
		// the items of a queue that served none.
		standing := t.Window > 0 && q.DepthBefore >= th.RisingDepth && q.Depth >= th.RisingDepth
		if !rising && !standing && !noneServed {
			// The wait alone says it: only as much as the waits it rests on.
			f = atMostInfo(f, wait.weak(th.MinEvents))
		}
		out = append(out, f)
	case math.IsNaN(q.MaxWorkers) && q.Depth > 0 && q.QueueP99 >= th.SaturatedQueueWait.Seconds() && q.QueueP99 > q.WorkP99 && !q.WorkP99AtLeast:
		// A work p99 known only to be at least its top bucket may be longer than the wait.
		saturated = true
		wait := waitFigure(t, q)
		out = append(out, atMostInfo(newFinding("workers-saturated", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("items of %s wait %s for a worker, longer than the work itself", q.Queue, wait),
			wait.evidence("queue p99", ">= "+th.SaturatedQueueWait.String()),
			ev("work p99", q.WorkP99, "s", "< queue p99"), ev("depth", q.Depth, "", "> 0")).as(health.StatusSaturated), wait.weak(th.MinEvents)))
	}
	// A p99 known only to be at least its top bucket fires when that bound reaches the
	// threshold; below it, Judge says in the queue's reason that the buckets cannot tell.
	// A p99 over the process's life (one sample, or no item finished in the window) is no
	// warning alone: a slow start-up (a busy node, a cold cache) or an incident long past. A
	// few items in the window are enough: a slow controller finishes few, and each was slow.
	if w := workQuantiles(t, q); !stuck && !saturated && w.p99 >= th.SlowWork.Seconds() {
		out = append(out, atMostInfo(lifetimeOnly(t, blockedIn(newFinding("slow-reconcile", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("%s spends %s on an item (p99 %s) although workers are free", q.Queue, quantile(w.p99, w.p99AtLeast), w.when),
			w.figure().evidence("work p99", ">= "+th.SlowWork.String()),
			Evidence{Name: "work p50", Value: quantile(w.p50, w.p50AtLeast)}, workersEvidence(q)), t.Goroutines, false).as(health.StatusSlow)),
			cmp.Or(w.figure().weakSinceStart(), loneSlowItem(t, q, th.SlowWork))))
	}
	out = append(out, staleSkips(t, q)...)
	if f, ok := backlog(t, q, th); ok {
		out = append(out, f)
	}
	return out
}

// unserved reports whether no item left q in a window of at least saturatedQueueWait while
// items waited at both of its ends: every worker was busy all along (a free worker takes an
// item at once), and the items there at the start waited at least the window.
func unserved(t Target, q health.QueueStats, th Thresholds) bool {
	return t.Window >= time.Duration(th.SaturatedQueueWait) && q.DepthBefore > 0 && q.Depth > 0 && q.Waits == 0
}

// warmStandby reports whether q is the queue of a warm replica that does not lead: it holds
// items, and its controller never reconciled and runs no worker. controller-runtime warm
// replicas (EnableWarmup) start the watches, and so the queue, before the lead, but the
// controller itself, with its controller_runtime_* series, only with it: a queue that carries
// a controller label, has no controller series and never had an item worked on is one too.
func warmStandby(t Target, q health.QueueStats, c *health.Controller) bool {
	if !(q.Depth > 0) || q.ActiveWorkers > 0 || t.Cur.Leadership().Role == health.RoleLeader {
		return false
	}
	if c != nil {
		return !(c.Reconciles() > 0)
	}
	raw := t.Cur.Queues[q.Queue]
	return raw != nil && raw.Controller != "" && (raw.WorkDuration == nil || raw.WorkDuration.Count == 0)
}

// clientFindings judges the REST client of the process: throttling and API errors.
func clientFindings(t Target, th Thresholds) []Finding {
	var out []Finding
	var prevRL *health.Histogram
	var prevCodes map[string]float64
	if t.Prev != nil {
		prevRL, prevCodes = t.Prev.Client.RateLimiterDuration, t.Prev.Client.RequestsByCode
	}
	if rl := t.Cur.Client.RateLimiterDuration.Since(prevRL); rl != nil && rl.Count >= th.ThrottleMinRequests {
		if mean := rl.Sum / rl.Count; mean >= th.ThrottleWait.Seconds() {
			out = append(out, lifetimeOnly(t, newFinding("client-throttling", t.Kind, t.ID, "",
				fmt.Sprintf("requests wait %s on average in the client's own rate limiter %s", format(mean, "s"), over(t)),
				Evidence{Name: "mean rate-limiter wait", Value: format(mean, "s"), Threshold: ">= " + th.ThrottleWait.String()},
				Evidence{Name: "rate-limiter p99", Value: estimated(rl.Estimate(0.99))},
				Evidence{Name: "requests", Value: format(rl.Count, "")})))
		}
	}
	if f, ok := logThrottling(t, th); ok {
		out = append(out, f)
	}
	var total, failed float64
	var failedCodes []string
	for code, v := range t.Cur.Client.RequestsByCode {
		n := health.Increase(prevCodes[code], v)
		if _, ok := prevCodes[code]; !ok && t.Prev != nil {
			n = v // a code first seen in the second sample counted from zero
		}
		total += n
		// 429 is not an error of the API server but its flow control: server-throttling.
		if strings.HasPrefix(code, "5") || code == "<error>" {
			failed += n
			if n > 0 {
				failedCodes = append(failedCodes, fmt.Sprintf("%s: %.0f", code, n))
			}
		}
	}
	// Only over a window: since process start the ratio mixes in start-up errors (an API
	// server's own loopback client fails while it is still starting).
	if t.Prev != nil && total >= th.MinEvents && failed/total > th.APIErrorRatio {
		out = append(out, newFinding("api-errors", t.Kind, t.ID, "",
			fmt.Sprintf("%.1f%% of %.0f requests to the API server failed %s (%s)", 100*failed/total, total, over(t), strings.Join(failedCodes, ", ")),
			Evidence{Name: "failed requests (5xx, transport)", Value: format(failed, "")},
			Evidence{Name: "requests", Value: format(total, "")},
			Evidence{Name: "failure ratio", Value: format(failed/total, "%"), Threshold: fmt.Sprintf("> %.0f%%", 100*th.APIErrorRatio)}))
	}
	return out
}

// podFindings judges memory against the limit and restarts. The container that serves the
// metrics is the one judged; an OOMKill or restart longer ago than th.Since, or of another
// container (a sidecar), is said as info.
func podFindings(t Target, th Thresholds) []Finding {
	if t.Pod == nil {
		return nil
	}
	var out []Finding
	rss := t.Cur.Process.ResidentMemoryBytes
	memEvidence := []Evidence{{Name: "resident memory", Value: format(rss, "B")}, {Name: "memory limit", Value: format(t.Pod.MemoryLimitBytes, "B")}}
	oom := false
	for _, term := range t.Pod.Terminations {
		if term.Reason != "OOMKilled" {
			continue
		}
		ours, recent := t.Pod.Container == "" || term.Container == t.Pod.Container, term.Ago <= time.Duration(th.Since)
		f := newFinding("memory-pressure", t.Kind, t.ID, "",
			fmt.Sprintf("container %s was OOMKilled %s", term.Container, ago(term.Ago)),
			append([]Evidence{{Name: "last termination reason", Value: "OOMKilled"}, {Name: "ended", Value: ago(term.Ago), Threshold: "within " + th.Since.String()}},
				memEvidence...)...)
		if ours && recent {
			oom = true
			out = append(out, f.withSeverity(OOMKilledSeverity))
			continue
		}
		if !ours {
			f.Summary += " (not the container that serves the metrics)"
		}
		out = append(out, f.withSeverity(Info))
	}
	if !oom && t.Pod.MemoryLimitBytes > 0 && rss/t.Pod.MemoryLimitBytes >= th.MemoryRatio {
		out = append(out, newFinding("memory-pressure", t.Kind, t.ID, "",
			fmt.Sprintf("resident memory is %.0f%% of the memory limit", 100*rss/t.Pod.MemoryLimitBytes),
			append(memEvidence, Evidence{Name: "ratio", Value: format(rss/t.Pod.MemoryLimitBytes, "%"), Threshold: fmt.Sprintf(">= %.0f%%", 100*th.MemoryRatio)},
				Evidence{Name: "Go heap in use", Value: format(t.Cur.Process.HeapBytes, "B")})...))
	}
	for _, term := range t.Pod.Terminations {
		reason := term.Reason
		if reason == "" {
			reason = "unknown"
		}
		f := newFinding("restarts", t.Kind, t.ID, "",
			fmt.Sprintf("container %s restarted %d times (last: %s, %s)", term.Container, term.Restarts, reason, ago(term.Ago)),
			Evidence{Name: "restarts", Value: fmt.Sprint(term.Restarts), Threshold: "> 0"},
			Evidence{Name: "last termination reason", Value: reason},
			Evidence{Name: "ended", Value: ago(term.Ago), Threshold: "within " + th.Since.String()})
		if term.Ago > time.Duration(th.Since) {
			f = f.withSeverity(Info)
		}
		out = append(out, f)
	}
	return out
}

// ago says how long ago something ended: "10m ago", or "at an unknown time".
func ago(d time.Duration) string {
	switch {
	case d <= 0:
		return "at an unknown time"
	case d >= 48*time.Hour:
		return fmt.Sprintf("%.0f days ago", d.Hours()/24)
	case d >= time.Minute:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s") + " ago"
	}
	return d.Round(time.Second).String() + " ago"
}

// mistyped reports the families whose declared TYPE kept their values from the model.
func mistyped(t Target) (Finding, bool) {
	m := t.Cur.Mistyped
	if len(m) == 0 {
		return Finding{}, false
	}
	ev := make([]Evidence, 0, len(m))
	names := make([]string, 0, len(m))
	for _, f := range m {
		ev = append(ev, Evidence{Name: f.Family, Value: "TYPE " + f.Declared + ", read as " + f.Read})
		names = append(names, fmt.Sprintf("%s (%s)", f.Family, f.Declared))
	}
	return newFinding("metric-type", t.Kind, t.ID, "",
		fmt.Sprintf("declared with a type that cannot be read, so their figures are unknown: %s", strings.Join(names, ", ")),
		ev...), true
}

func noQueues(t Target, leaders map[string]*model.Election) Finding {
	if e := leaders[t.ID]; e != nil && e.Leader != t.ID {
		return newFinding("no-workqueue-metrics", t.Kind, t.ID, "",
			fmt.Sprintf("no workqueue metrics: this replica is a standby of %s, whose leader is %s, so it runs no controllers", e.Workload, e.Leader),
			Evidence{Name: "leader", Value: e.Leader}).withSeverity(Info)
	}
	if t.Cur.Leadership().Role == health.RoleStandby {
		return newFinding("no-workqueue-metrics", t.Kind, t.ID, "",
			"no workqueue metrics: this replica is not the leader, so it runs no controllers",
			Evidence{Name: "leader_election_master_status", Value: "0"}).withSeverity(Info)
	}
	return newFinding("no-workqueue-metrics", t.Kind, t.ID, "", "the target serves metrics but no workqueue_* series",
		Evidence{Name: "workqueue series", Value: "0"})
}

// leadersByTarget maps the target of each replica whose workload has a known leader to that
// workload. A controller-runtime standby exports no leader series at all, so this is how it
// is told apart from a target with unnamed queues (as the folding of `queues` does).
func leadersByTarget(workloads []model.Election) map[string]*model.Election {
	out := map[string]*model.Election{}
	for i := range workloads {
		e := &workloads[i]
		if e.Leader == "" {
			continue
		}
		for _, r := range e.Replicas {
			out[r.Target] = e
		}
	}
	return out
}

// leaderFindings checks, per workload (in one namespace) with several replicas that report
// leader_election_master_status, that exactly one claims the lead. Only the metrics count:
// a Lease names the leader for the folding of standbys, but a Lease whose holder's metrics
// say it does not lead may be a stale one of an earlier process of the same pod.
func leaderFindings(targets []Target, workloads []model.Election) []Finding {
	kinds := make(map[string]Kind, len(targets))
	for _, t := range targets {
		kinds[t.ID] = t.Kind
	}
	var out []Finding
	for _, e := range workloads {
		if e.Reporting < 2 || e.Claims == 1 {
			continue
		}
		var ids []string
		for _, r := range e.Replicas {
			if !math.IsNaN(r.LeaderStatus) {
				ids = append(ids, r.Target)
			}
		}
		subject, where := e.Namespace+"/"+e.Workload, "namespace "+e.Namespace
		if e.Cluster != "" {
			subject, where = e.Cluster+"/"+subject, where+" of cluster "+e.Cluster
		}
		f := newFinding("leader-election", kinds[ids[0]], subject, "",
			fmt.Sprintf("%d of %d replicas of %s in %s claim to lead", e.Claims, e.Reporting, e.Workload, where),
			Evidence{Name: "leaders", Value: fmt.Sprint(e.Claims), Threshold: "exactly 1"},
			Evidence{Name: "replicas scraped", Value: strings.Join(ids, ", ")})
		if e.Claims > 1 {
			f = f.withSeverity(SeveralLeadersSeverity)
		}
		out = append(out, f)
	}
	return out
}

func cacheLagFinding(l CacheLag, th Thresholds) []Finding {
	if !(l.QueuedItems >= th.InformerQueuedItems) && !(l.LatencyP99 >= th.InformerLatency.Seconds()) {
		return nil
	}
	behind := "unknown"
	if !math.IsNaN(l.VersionsBehind) {
		behind = format(l.VersionsBehind, "")
	}
	return []Finding{newFinding("cache-sync-lag", l.Kind, l.Target, l.Informer,
		fmt.Sprintf("informer %s has %.0f events waiting for its handlers (p99 %s)", l.Informer, l.QueuedItems, quantile(l.LatencyP99, l.LatencyP99AtLeast)),
		Evidence{Name: "informer_queued_items", Value: format(l.QueuedItems, ""), Threshold: fmt.Sprintf(">= %g", th.InformerQueuedItems)},
		Evidence{Name: "handler processing p99", Value: quantile(l.LatencyP99, l.LatencyP99AtLeast), Threshold: ">= " + th.InformerLatency.String()},
		Evidence{Name: "resource versions behind the API server", Value: behind},
		Evidence{Name: "store behind the API server's first sample at the second", Value: fmt.Sprint(l.BehindAPIServer)})}
}

// workQuantiles are the queue's work p99 and p50 over the window, or since start when no item
// finished within the window (a slow controller may finish none in a few seconds).
func workQuantiles(t Target, q health.QueueStats) workP99 {
	if !math.IsNaN(q.WorkP99) {
		return workP99{p99: q.WorkP99, p50: q.WorkP50, p99AtLeast: q.WorkP99AtLeast, p50AtLeast: q.WorkP50AtLeast, when: over(t),
			n: q.Worked, sinceStart: t.Window <= 0}
	}
	// Only a queue busy in the window is judged by its past: an idle one's old slowness is
	// history, not a finding.
	if cq := t.Cur.Queues[q.Queue]; cq != nil && (q.AddsPerSecond > 0 || q.Unfinished > 0) {
		p99, p50 := cq.WorkDuration.Estimate(0.99), cq.WorkDuration.Estimate(0.5)
		n := math.NaN()
		if cq.WorkDuration != nil {
			n = cq.WorkDuration.Count
		}
		return workP99{p99: p99.Value, p50: p50.Value, p99AtLeast: p99.AtLeast, p50AtLeast: p50.AtLeast, when: "since the process started",
			n: n, sinceStart: true}
	}
	return workP99{p99: math.NaN(), p50: math.NaN()}
}

// waitFigure is the queue's wait p99 with the waits it rests on.
func waitFigure(t Target, q health.QueueStats) figure {
	return figure{value: q.QueueP99, atLeast: q.QueueP99AtLeast, n: q.Waits, noun: "wait", sinceStart: t.Window <= 0}
}

// controllerOf finds the controller-runtime controller of a queue.
func controllerOf(t Target, q health.QueueStats) *health.Controller {
	if c := t.Cur.Controllers[q.Controller]; c != nil {
		return c
	}
	return t.Cur.Controllers[q.Queue]
}

// delta is the growth of a controller counter over the window, or its lifetime value with
// one sample; NaN when the controller does not report it.
func delta(t Target, name string, get func(*health.Controller) float64) float64 {
	c := t.Cur.Controllers[name]
	if c == nil {
		return math.NaN()
	}
	cur := get(c)
	if t.Prev == nil {
		return cur
	}
	p := t.Prev.Controllers[name]
	if p == nil {
		return cur
	}
	return health.Increase(get(p), cur)
}

func workersEvidence(q health.QueueStats) Evidence {
	if math.IsNaN(q.MaxWorkers) {
		return Evidence{Name: "workers busy", Value: "not reported"}
	}
	return Evidence{Name: "workers busy", Value: fmt.Sprintf("%.0f of %.0f", q.ActiveWorkers, q.MaxWorkers)}
}

// lifetimeOnly makes f, judged from counters, info when there is one sample: counts since
// the process started (a start-up burst, an incident long past) never raise a warning alone.
func lifetimeOnly(t Target, f Finding) Finding {
	if t.Window > 0 || f.Severity == Info {
		return f
	}
	f.Summary += " (one sample: counts since the process started; read twice, --interval, to judge)"
	return f.withSeverity(Info)
}

func over(t Target) string {
	if t.Window > 0 {
		return "in the last " + t.Window.Round(100*time.Millisecond).String()
	}
	return "since the process started"
}

// nanZero is v, or 0 when v is NaN (a counter the page does not have yet).
func nanZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// workersBusy says that every worker of a queue is busy while items wait: "all 4 workers of q
// are busy and 7 items wait", "the 1 worker of q is busy and 1 item waits".
func workersBusy(q health.QueueStats) string {
	workers, items := int(q.MaxWorkers), int(q.Depth)
	all := "all " + printable.Plural(workers, "worker")
	if workers == 1 {
		all = "the 1 worker"
	}
	return fmt.Sprintf("%s of %s %s busy and %s %s", all, q.Queue, printable.PluralVerb(workers, "are"), printable.Plural(items, "item"), printable.PluralVerb(items, "wait"))
}
