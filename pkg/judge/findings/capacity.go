package findings

import (
	"fmt"
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/capacity"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// closedLoopShare: when at least this share of a controller's reconciles end in
// requeue_after, its objects come back by themselves and the loop is closed.
const closedLoopShare = 0.5

// cpuAtLimit: a process using this share of its container's CPU limit or more is held by the
// CPU, not by its workers.
const cpuAtLimit = 0.9

// QueueCapacity is the capacity model's reading of one queue, with the figures it read.
type QueueCapacity struct {
	Target, Queue string
	In            capacity.Input
	Estimate      capacity.Estimate
}

// Capacity models every queue of t with enough completions in the window (minEvents); none
// with one sample, since rates need a window. A target made by WithCapacity gives the model
// it holds.
func Capacity(t Target, th Thresholds) []QueueCapacity {
	if t.capacity != nil {
		return *t.capacity
	}
	return capacityOf(t, th)
}

// WithCapacity is t holding its capacity model and its queue-wait indicators (SLIs) under th, the thresholds it is judged with:
// for a caller that shows the model and has t judged, so that the rules read the model
// rather than compute it again. What the model reads of t must not change after (its
// goroutine dump may: the model does not read it).
func WithCapacity(t Target, th Thresholds) Target {
	c := capacityOf(t, th)
	t.capacity = &c
	s := slisOf(t, th)
	t.slis = &s
	return t
}

// capacityOf is Capacity, computed.
func capacityOf(t Target, th Thresholds) []QueueCapacity {
	if t.Cur == nil || t.Prev == nil || !(t.Window > 0) {
		return nil
	}
	limits := limitsOf(t, th)
	known := recognise(t) // once: a target may have a hundred queues
	var out []QueueCapacity
	for _, q := range t.Queues {
		in, ok := capacityInput(t, known, q, th, limits)
		if !ok {
			continue
		}
		e, ok := capacity.Model(in, capacity.Options{TargetWait: th.TargetQueueWait.Seconds(), MinEvents: th.MinEvents, ClosedShare: closedLoopShare})
		if ok {
			out = append(out, QueueCapacity{Target: t.ID, Queue: q.Queue, In: in, Estimate: e})
		}
	}
	return out
}

// capacityInput reads the model's figures of one queue over the window.
func capacityInput(t Target, known *knobs.Match, q health.QueueStats, th Thresholds, limits []string) (capacity.Input, bool) {
	cur := t.Cur.Queues[q.Queue]
	if cur == nil || cur.WorkDuration == nil {
		return capacity.Input{}, false
	}
	var prevWork, prevWait *health.Histogram
	if p := t.Prev.Queues[q.Queue]; p != nil {
		prevWork, prevWait = p.WorkDuration, p.QueueDuration
	}
	work, wait := cur.WorkDuration.Since(prevWork), cur.QueueDuration.Since(prevWait)
	n := math.NaN()
	in := capacity.Input{Window: t.Window.Seconds(), Adds: q.AddsPerSecond, Completions: q.CompletionsPerSecond,
		Completed: work.Count, Depth: q.Depth, DepthBefore: q.DepthBefore, Busy: q.ActiveWorkers,
		ServiceMean: mean(work), ServiceP99: q.WorkP99, ServiceSpread: capacity.SpreadOf(bucketsOf(work)),
		WaitMean: mean(wait), WaitP99: q.QueueP99, RequeueAfterShare: n, Objects: n, Changes: n, Limits: limits}
	in.Workers, in.WorkersFrom = workersOf(t, known, q.Queue, q.MaxWorkers)
	c := controllerOf(t, q)
	if c != nil {
		reconciles := delta(t, c.Name, (*health.Controller).Reconciles)
		after := delta(t, c.Name, func(c *health.Controller) float64 { return c.ReconcileTotal["requeue_after"] })
		if reconciles > 0 {
			in.RequeueAfterShare = after / reconciles
		}
		if errs := delta(t, c.Name, func(c *health.Controller) float64 { return c.ReconcileErrors }); reconciles >= th.MinEvents && errs/reconciles > th.ErrorRatio {
			in.Limits = append(in.Limits, fmt.Sprintf("%.0f%% of reconciles fail: more workers fail faster", 100*errs/reconciles))
		}
	}
	if s := t.Objects.Of(t.ID, q.Controller); s != nil && s.Error == "" {
		in.Objects = float64(s.Total)
		if ch := s.Changes; ch != nil && ch.Seconds > 0 && (ch.Error == "" || ch.Seconds >= t.Window.Seconds()/2) {
			in.Changes = servedChanges(*ch, &in, th)
		}
	}
	if q.Longest >= th.StuckAfter.Seconds() {
		in.Limits = append(in.Limits, fmt.Sprintf("a worker has held one item for %s: it is stuck, not short of company", format(q.Longest, "s")))
	}
	return in, true
}

// workersOf is the workers of a queue and where the number comes from: --workers given by
// the user wins; then the metric (controller_runtime_max_concurrent_reconciles); then, for a
// controller pkg/facts/knobs knows, the flag of the queue's workers knob in the container's
// arguments, else its documented default (known is what recognise says t is, nil when
// nothing). NaN and "" when none says.
func workersOf(t Target, known *knobs.Match, queue string, metric float64) (float64, string) {
	if w, ok := t.Workers[queue]; ok && w > 0 {
		return w, "--workers"
	}
	if metric > 0 {
		return metric, "controller_runtime_max_concurrent_reconciles"
	}
	if known != nil {
		if w, from, ok := known.Workers(queue); ok {
			return w, from
		}
	}
	return math.NaN(), ""
}

// servedChanges are the objects' changes a second that can become work items: one object is
// worked on at most once per mean service time (the queue merges its changes meanwhile and
// never hands it to two workers), so its changes count up to that. An object that changed
// more often than that is a hot key, which holds one worker whatever their number: a limit
// when the rest of the load needs none of the other workers beyond those there are (more
// workers would only idle), a note otherwise.
func servedChanges(ch objects.Changes, in *capacity.Input, th Thresholds) float64 {
	if !(in.ServiceMean > 0) {
		return ch.PerSecond()
	}
	most := ch.Seconds / in.ServiceMean
	served := ch.Served(most)
	if len(ch.Top) == 0 || float64(ch.Top[0].Count) <= most {
		return served
	}
	top := ch.Top[0]
	hot := fmt.Sprintf("one hot key: %s changed %d times in %s, more often than one worker reconciles it (every %s on average), so its changes merge in the queue and it holds one worker",
		top.Object, top.Count, format(ch.Seconds, "s"), format(in.ServiceMean, "s"))
	rest := served - 1/in.ServiceMean
	if rest <= 0 || in.Workers > 0 && capacity.WorkersFor(rest, in.ServiceMean, in.ServiceSpread, th.TargetQueueWait.Seconds()) <= int(in.Workers)-1 {
		in.Limits = append(in.Limits, hot+"; the rest of the load is served by the other workers, so more workers cannot help")
	} else {
		in.Notes = append(in.Notes, hot+" whatever their number")
	}
	return served
}

// limitsOf says what, in the process, more workers would only wait on: throttling on either
// side, failing API requests, the CPU at its limit.
func limitsOf(t Target, th Thresholds) []string {
	var out []string
	for _, f := range append(clientFindings(t, th), serverThrottling(t, th)...) {
		if f.Severity != Info {
			out = append(out, fmt.Sprintf("%s (%s): %s", f.Check, f.Code, f.Summary))
		}
	}
	if t.Pod != nil && t.Pod.CPULimitCores > 0 && t.Prev != nil {
		cores := health.Increase(t.Prev.Process.CPUSeconds, t.Cur.Process.CPUSeconds) / t.Window.Seconds()
		if cores >= cpuAtLimit*t.Pod.CPULimitCores {
			out = append(out, fmt.Sprintf("the process uses %.2f of its %.2f CPU limit: more workers share the same CPU", cores, t.Pod.CPULimitCores))
		}
	}
	return out
}

// underProvisioned is the finding of a queue whose workers the model finds too few, backed by
// a measured p99 wait at or above the target.
func underProvisioned(t Target, qc QueueCapacity, th Thresholds) (Finding, bool) {
	in, e := qc.In, qc.Estimate
	if !e.Helps || !(in.Workers > 0) || float64(e.WorkersNeeded) <= in.Workers {
		return Finding{}, false
	}
	// The evidence: items waited past the target, or the load exceeds the workers and items
	// wait at both samples. The second holds when the longest waits are not measured yet: on
	// the priority queue the lower priority's items wait unseen while the higher's pass.
	waited := in.WaitP99 >= th.TargetQueueWait.Seconds()
	backlog := e.Utilisation >= 1 && in.Depth > 0 && in.DepthBefore > 0
	if !waited && !backlog {
		return Finding{}, false
	}
	need := fmt.Sprintf("%d", e.WorkersNeeded)
	if e.LowerBound {
		need = "at least " + need
	}
	ev := []Evidence{
		{Name: "queue wait p99 (measured)", Value: format(in.WaitP99, "s"), Threshold: ">= " + th.TargetQueueWait.String() + " (targetQueueWait), or a backlog beyond the workers"},
		{Name: "depth", Value: fmt.Sprintf("%.0f, %.0f at the first sample", in.Depth, in.DepthBefore)},
		{Name: "workers", Value: fmt.Sprintf("%.0f (%s)", in.Workers, in.WorkersFrom)},
		{Name: "workers needed", Value: need, Threshold: "> workers"},
		{Name: "offered load", Value: format(e.Offered, "/s") + " (" + string(e.Loop) + " loop)"},
		{Name: "mean reconcile", Value: format(in.ServiceMean, "s")},
		{Name: "utilisation", Value: format(e.Utilisation, "%"), Threshold: "with the present workers"},
		{Name: "queue wait p99 (model)", Value: modelWait(e.Predicted.P99)},
	}
	for _, n := range e.Notes {
		ev = append(ev, Evidence{Name: "load", Value: n})
	}
	return newFinding("under-provisioned", t.Kind, t.ID, qc.Queue,
		fmt.Sprintf("%s needs %s workers for a p99 wait under %s; it has %.0f", qc.Queue, need, th.TargetQueueWait, in.Workers),
		ev...).as(health.StatusSaturated), true
}

// modelWait is a predicted wait in words: with ρ >= 1 the model has no bound.
func modelWait(v float64) string {
	if math.IsInf(v, 1) {
		return "no bound: the workers cannot keep up"
	}
	return format(v, "s")
}

func mean(h *health.Histogram) float64 {
	if h == nil || !(h.Count > 0) {
		return math.NaN()
	}
	return h.Sum / h.Count
}

func bucketsOf(h *health.Histogram) []capacity.Bucket {
	if h == nil {
		return nil
	}
	out := make([]capacity.Bucket, len(h.Buckets))
	for i, b := range h.Buckets {
		out[i] = capacity.Bucket{UpperBound: b.UpperBound, Count: b.Count}
	}
	return out
}
