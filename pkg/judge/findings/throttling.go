package findings

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// serverThrottling is server-side throttling by API Priority and Fairness (APF), seen from both
// ends: a controller whose requests the API server answered 429 Too Many Requests, and, on the
// API server, each priority level that rejected requests or kept them waiting long in its
// queues. 429s are this check's and not api-errors': the server's flow control at work, whose
// fix is a FlowSchema or PriorityLevelConfiguration, not the server's health.
func serverThrottling(t Target, th Thresholds) []Finding {
	var out []Finding
	if f, ok := throttled429s(t, th); ok {
		out = append(out, f)
	}
	for _, l := range priorityLevels(t) {
		waitedLong := l.waits >= th.MinEvents && l.waitP99 >= th.APFQueueWait.Seconds()
		if l.rejected < th.ServerThrottleRejections && !waitedLong {
			continue
		}
		var summary string
		if l.rejected >= th.ServerThrottleRejections {
			summary = fmt.Sprintf("priority level %s rejected %.0f requests with 429 %s (%s)", l.name, l.rejected, over(t), strings.Join(l.flows, "; "))
		} else {
			summary = fmt.Sprintf("requests waited up to %s (p99) in the queues of priority level %s %s", quantile(l.waitP99, l.waitP99AtLeast), l.name, over(t))
		}
		out = append(out, lifetimeOnly(t, newFinding("server-throttling", t.Kind, t.ID, l.name, summary, l.evidence(th)...)))
	}
	return out
}

// throttled429s is the controller's side: 429 answers to its REST client.
func throttled429s(t Target, th Thresholds) (Finding, bool) {
	codes := requestIncreases(t)
	n, ok := codes["429"]
	if !ok || !(n >= th.ServerThrottleRejections) {
		return Finding{}, false
	}
	var total float64
	for _, v := range codes {
		total += v
	}
	return lifetimeOnly(t, newFinding("server-throttling", t.Kind, t.ID, "",
		fmt.Sprintf("the API server answered 429 Too Many Requests to %.0f of %.0f requests %s: API Priority and Fairness throttles the controller", n, total, over(t)),
		Evidence{Name: "429 answers", Value: format(n, ""), Threshold: fmt.Sprintf(">= %g", th.ServerThrottleRejections)},
		Evidence{Name: "requests", Value: format(total, "")},
		Evidence{Name: "throttled ratio", Value: format(n/total, "%")})), true
}

// requestIncreases is rest_client_requests_total by code over the window (a code first seen in
// the second sample counts from zero), or since the process started with one sample.
func requestIncreases(t Target) map[string]float64 {
	out := make(map[string]float64, len(t.Cur.Client.RequestsByCode))
	for code, v := range t.Cur.Client.RequestsByCode {
		prev := math.NaN()
		if t.Prev != nil {
			prev = t.Prev.Client.RequestsByCode[code] // 0 when first seen now
		}
		out[code] = health.Increase(prev, v)
	}
	return out
}

// levelStats is what one APF priority level did over the window (or the process's lifetime).
type levelStats struct {
	name     string
	rejected float64
	flows    []string // "FlowSchema fs, reason r: n", most rejections first
	inQueue  float64  // requests waiting now
	waits    float64  // requests that waited in its queues
	waitP99  float64  // s; NaN when none waited
	// waitP99AtLeast: the p99 is only known to be at least waitP99 (above the top bucket).
	waitP99AtLeast bool
}

func (l levelStats) evidence(th Thresholds) []Evidence {
	ev := []Evidence{{Name: "rejected (429)", Value: format(l.rejected, ""), Threshold: fmt.Sprintf(">= %g", th.ServerThrottleRejections)}}
	for _, f := range l.flows {
		ev = append(ev, Evidence{Name: "rejected by", Value: f})
	}
	return append(ev,
		Evidence{Name: "waiting in its queues now", Value: format(l.inQueue, "")},
		Evidence{Name: "queue wait p99", Value: quantile(l.waitP99, l.waitP99AtLeast), Threshold: fmt.Sprintf(">= %s over >= %g requests", th.APFQueueWait, th.MinEvents)},
		Evidence{Name: "requests that waited", Value: format(l.waits, "")})
}

// priorityLevels sums the API server's APF figures per priority level, rejecting levels first.
func priorityLevels(t Target) []levelStats {
	cur := t.Cur.FlowControl
	var prev health.FlowControl
	if t.Prev != nil {
		prev = t.Prev.FlowControl
	}
	levels := map[string]*levelStats{}
	level := func(name string) *levelStats {
		l := levels[name]
		if l == nil {
			l = &levelStats{name: name, waitP99: math.NaN()}
			levels[name] = l
		}
		return l
	}
	type flowCount struct {
		label string
		n     float64
	}
	byFlow := map[string][]flowCount{}
	for r, v := range cur.Rejected {
		p := math.NaN()
		if t.Prev != nil {
			p = prev.Rejected[r]
		}
		n := health.Increase(p, v)
		if !(n > 0) {
			continue
		}
		level(r.PriorityLevel).rejected += n
		byFlow[r.PriorityLevel] = append(byFlow[r.PriorityLevel], flowCount{fmt.Sprintf("FlowSchema %s, reason %s: %.0f", r.FlowSchema, r.Reason, n), n})
	}
	for f, v := range cur.InQueue {
		if v > 0 {
			level(f.PriorityLevel).inQueue += v
		}
	}
	waits := map[string]*health.Histogram{}
	for f, h := range cur.Wait {
		var p *health.Histogram
		if t.Prev != nil {
			p = prev.Wait[f]
		}
		d := h.Since(p)
		if d == nil || !(d.Count > 0) {
			continue
		}
		waits[f.PriorityLevel] = merge(waits[f.PriorityLevel], d)
	}
	for name, h := range waits {
		l := level(name)
		e := h.Estimate(0.99)
		l.waits, l.waitP99, l.waitP99AtLeast = h.Count, e.Value, e.AtLeast
	}
	out := make([]levelStats, 0, len(levels))
	for name, l := range levels {
		fc := byFlow[name]
		sort.Slice(fc, func(i, j int) bool { return fc[i].n > fc[j].n || fc[i].n == fc[j].n && fc[i].label < fc[j].label })
		for _, f := range fc {
			l.flows = append(l.flows, f.label)
		}
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].rejected != out[j].rejected {
			return out[i].rejected > out[j].rejected
		}
		return out[i].name < out[j].name
	})
	return out
}

// merge adds histogram b's counts to a (a new histogram when a is nil), bucket by bucket.
func merge(a, b *health.Histogram) *health.Histogram {
	if a == nil {
		c := *b
		c.Buckets = append([]health.Bucket(nil), b.Buckets...)
		return &c
	}
	a.Count += b.Count
	a.Sum += b.Sum
	for _, bb := range b.Buckets {
		found := false
		for i := range a.Buckets {
			if a.Buckets[i].UpperBound == bb.UpperBound {
				a.Buckets[i].Count += bb.Count
				found = true
				break
			}
		}
		if !found {
			a.Buckets = append(a.Buckets, bb)
		}
	}
	sort.Slice(a.Buckets, func(i, j int) bool { return a.Buckets[i].UpperBound < a.Buckets[j].UpperBound })
	return a
}

// withPriorityLevels adds to each controller's server-throttling finding what the API server
// read in the same report says about its priority levels: which rejected requests in the
// window, and through which FlowSchema. The controller's metrics do not say which level its
// requests went to, so every rejecting level is named.
func withPriorityLevels(fs []Finding, targets []Target) []Finding {
	var apiservers []Target
	for _, t := range targets {
		if t.Kind == KubeAPIServer && t.Cur != nil {
			apiservers = append(apiservers, t)
		}
	}
	if len(apiservers) == 0 {
		return fs
	}
	for i := range fs {
		f := &fs[i]
		if f.Check != "server-throttling" || f.Queue != "" {
			continue
		}
		for _, a := range apiservers {
			var rejecting []string
			for _, l := range priorityLevels(a) {
				if l.rejected > 0 {
					rejecting = append(rejecting, fmt.Sprintf("%s %.0f (%s; %.0f waiting now, wait p99 %s)",
						l.name, l.rejected, strings.Join(l.flows, "; "), l.inQueue, quantile(l.waitP99, l.waitP99AtLeast)))
				}
			}
			v := "none: the 429s came from another API server instance or a limit outside API Priority and Fairness"
			if len(rejecting) > 0 {
				v = strings.Join(rejecting, " | ")
			}
			f.Evidence = append(f.Evidence, Evidence{Name: "priority levels rejecting on " + a.ID + " " + over(a), Value: v})
		}
	}
	return fs
}
