package findings

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// webhookLatency judges the admission webhooks a controller-runtime process serves: p90
// latency over the window at or above th.WebhookLatency (public alerting practice: p90 >
// 200 ms), over at least th.MinEvents requests. controller-runtime's buckets are a factor of
// 10 apart, so a p90 interpolated inside a bucket can overstate: it counts when the bucket
// that holds it starts at the threshold or above (more than 10 % of the requests were surely
// slower), or when the exact mean latency reaches the threshold too. Targets that serve no
// webhook have none of these families and are never judged.
func webhookLatency(t Target, th Thresholds) []Finding {
	paths := make([]string, 0, len(t.Cur.Webhooks))
	for p := range t.Cur.Webhooks {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []Finding
	for _, path := range paths {
		w := t.Cur.Webhooks[path]
		var before *health.Webhook
		if t.Prev != nil {
			before = t.Prev.Webhooks[path]
		}
		var prevLatency *health.Histogram
		if before != nil {
			prevLatency = before.Latency
		}
		h := w.Latency.Since(prevLatency)
		sl, ok := slowWebhook(h, th)
		if !ok {
			continue
		}
		est, mean, lower, upper := sl.p90, sl.mean, sl.lower, sl.upper
		errs, total, failing := webhookErrors(w, before, t.Prev != nil)
		answers := format(errs, "")
		if total > 0 {
			answers += fmt.Sprintf(" of %.0f", total)
		}
		ev := []Evidence{
			{Name: "latency p90", Value: fmt.Sprintf("%s (in the %s-%s bucket)", estimated(est), format(lower, "s"), format(upper, "s")),
				Threshold: ">= " + th.WebhookLatency.String()},
			{Name: "latency p99", Value: estimated(h.Estimate(0.99))},
			{Name: "mean latency", Value: format(mean, "s")},
			{Name: "requests", Value: format(h.Count, ""), Threshold: fmt.Sprintf(">= %g", th.MinEvents)},
			{Name: "5xx answers", Value: answers + failing},
			{Name: "in flight now", Value: format(w.InFlight, "")},
		}
		out = append(out, lifetimeOnly(t, newFinding("webhook-latency", t.Kind, t.ID, path,
			fmt.Sprintf("webhook %s answers admission requests in %s (p90) %s", path, estimated(est), over(t)), ev...)))
	}
	return append(out, calledWebhookLatency(t, th)...)
}

// calledWebhookLatency is the same rule on the API server's side: the webhooks it calls, by
// webhook and operation (apiserver_admission_webhook_admission_duration_seconds), whoever
// serves them. Its buckets (5ms .. 25s) are closer, so the bucket rule rarely needs the mean.
func calledWebhookLatency(t Target, th Thresholds) []Finding {
	var out []Finding
	for _, k := range admissionKeys(t.Cur) {
		h, rejections := admissionWindow(t, k)
		sl, ok := slowWebhook(h, th)
		if !ok {
			continue
		}
		est, mean, lower, upper := sl.p90, sl.mean, sl.lower, sl.upper
		var rejected []string
		for _, typ := range sortedKeys(rejections) {
			rejected = append(rejected, fmt.Sprintf("%s: %.0f", typ, rejections[typ]))
		}
		policy := "unknown (the webhook configurations were not read)"
		if hook := t.Admission.Find(k.Name, k.Type); hook != nil {
			policy = hook.Configuration + ", " + hook.Policy()
		}
		ev := []Evidence{
			{Name: "latency p90", Value: fmt.Sprintf("%s (in the %s-%s bucket)", estimated(est), format(lower, "s"), format(upper, "s")),
				Threshold: ">= " + th.WebhookLatency.String()},
			{Name: "latency p99", Value: estimated(h.Estimate(0.99))},
			{Name: "mean latency", Value: format(mean, "s")},
			{Name: "calls", Value: format(h.Count, ""), Threshold: fmt.Sprintf(">= %g", th.MinEvents)},
			{Name: "rejected or failed", Value: orNone(strings.Join(rejected, ", "))},
			{Name: "configuration", Value: policy},
		}
		typ := "validating"
		if k.Type == "admit" {
			typ = "mutating"
		}
		out = append(out, lifetimeOnly(t, newFinding("webhook-latency", t.Kind, t.ID, k.Name+" "+k.Operation,
			fmt.Sprintf("the API server waits %s (p90) on %s webhook %s for %s requests %s", estimated(est), typ, k.Name, k.Operation, over(t)), ev...)))
	}
	return out
}

func sortedKeys(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// webhookLatencyFigures are a webhook's latency figures over the window, as webhook-latency
// judges them.
type webhookLatencyFigures struct {
	p90          health.Estimate
	lower, upper float64 // of the bucket that holds the p90
	mean, calls  float64
}

// slowWebhook applies webhook-latency's rule to the calls h of one webhook over the window: at
// least th.MinEvents calls, a p90 at or above th.WebhookLatency, and sure of it (the bucket
// holding the p90 starts at the threshold or above) or confirmed by the mean.
func slowWebhook(h *health.Histogram, th Thresholds) (webhookLatencyFigures, bool) {
	if h == nil || !(h.Count >= th.MinEvents) {
		return webhookLatencyFigures{}, false
	}
	f := webhookLatencyFigures{p90: h.Estimate(0.9), mean: h.Mean(), calls: h.Count}
	f.lower, f.upper = bucketBounds(h, 0.9)
	limit := th.WebhookLatency.Seconds()
	return f, f.p90.Value >= limit && (f.lower >= limit || f.mean >= limit)
}

// webhookErrors counts the 5xx answers and all answers of a webhook over the window (since
// the process started without a first sample), and names the failing codes.
func webhookErrors(w, before *health.Webhook, windowed bool) (errs, total float64, codes string) {
	var failing []string
	keys := make([]string, 0, len(w.ByCode))
	for c := range w.ByCode {
		keys = append(keys, c)
	}
	sort.Strings(keys)
	for _, code := range keys {
		prev := math.NaN()
		if windowed {
			prev = 0
			if before != nil {
				prev = before.ByCode[code]
			}
		}
		n := health.Increase(prev, w.ByCode[code])
		total += n
		if strings.HasPrefix(code, "5") && n > 0 {
			errs += n
			failing = append(failing, fmt.Sprintf("%s: %.0f", code, n))
		}
	}
	if len(failing) > 0 {
		codes = " (" + strings.Join(failing, ", ") + ")"
	}
	return errs, total, codes
}

// bucketBounds are the bounds of the bucket that holds the q-quantile of h (lower 0 for the
// first bucket): the quantile is surely above lower and at most upper.
func bucketBounds(h *health.Histogram, q float64) (lower, upper float64) {
	rank := q * h.Count
	for _, b := range h.Buckets {
		if b.Count >= rank {
			return lower, b.UpperBound
		}
		lower = b.UpperBound
	}
	return lower, math.Inf(1)
}
