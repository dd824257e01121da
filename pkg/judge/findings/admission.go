package findings

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// slowCall is one webhook operation the API server waited long on over the window.
type slowCall struct {
	apiserver Target
	key       health.AdmissionKey
	hook      apiserver.Webhook
	webhookLatencyFigures
	rejected float64 // calls rejected or failed over the window
}

// webhookSymptoms are the checks whose time may go into a webhook: on a queue tied to a slow
// webhook their recommendation leads with it.
var webhookSymptoms = map[string]bool{
	"workers-saturated": true, "slow-reconcile": true, "reconcile-timeouts": true,
	"backlog-growing": true, "backlog-high": true, "stuck-worker": true, "priority-starvation": true,
	"queue-wait-slo": true,
}

// withWebhookCauses ties the queues of every controller to the slow admission webhooks that
// intercept their writes (webhook-slows-writes), from the API server's page read in the same
// run and the webhook configurations read from the cluster. A tie needs all of: the
// webhook's p90 over the window at or above th.WebhookLatency over at least th.MinEvents
// calls (the webhook-latency rule); a configuration whose rules intercept a write the queue's
// controller makes, for the operation the API server measured; and a queue that was busy for
// at least as long as one such call (work p99 or the longest running item), so a fast queue
// is never blamed on a webhook that slows other writers. On a tied queue the symptoms lead
// with the webhook and under-provisioned is dropped: more workers only send more requests
// into the same webhook.
func withWebhookCauses(fs []Finding, targets []Target, th Thresholds) []Finding {
	slow := slowWebhookCalls(targets, th)
	if len(slow) == 0 {
		return fs
	}
	type tie struct{ target, queue string }
	causes := map[tie]string{}
	for _, t := range targets {
		if t.Kind == KubeAPIServer || t.Cur == nil {
			continue
		}
		for _, q := range t.Queues {
			ties, first := webhookTies(t, q, slow, th)
			if len(ties) == 0 {
				continue
			}
			fs = append(fs, ties...)
			causes[tie{t.ID, q.Queue}] = fmt.Sprintf("Fix admission webhook %s (%s) first: its latency, the rules and selectors that send it these requests, its timeoutSeconds and failurePolicy (%s); more workers only send more requests into it.",
				first.hook.Name, first.hook.Configuration, ties[0].Code)
		}
	}
	out := fs[:0]
	for _, f := range fs {
		cause := causes[tie{f.Target, f.Queue}]
		switch {
		case cause == "":
		case f.Check == "under-provisioned":
			continue
		case webhookSymptoms[f.Check]:
			f.Recommendation = cause + " " + f.Recommendation
		}
		out = append(out, f)
	}
	return out
}

// slowWebhookCalls are the webhook operations of every API server target that were slow over
// the window and whose configuration was read, by API server, then webhook and operation.
func slowWebhookCalls(targets []Target, th Thresholds) []slowCall {
	var out []slowCall
	for _, a := range targets {
		if a.Kind != KubeAPIServer || a.Cur == nil || a.Prev == nil || a.Admission == nil {
			continue
		}
		for _, k := range admissionKeys(a.Cur) {
			h, rejections := admissionWindow(a, k)
			sl, ok := slowWebhook(h, th)
			if !ok {
				continue
			}
			hook := a.Admission.Find(k.Name, k.Type)
			if hook == nil {
				continue
			}
			var rejected float64
			for _, n := range rejections {
				rejected += n
			}
			out = append(out, slowCall{apiserver: a, key: k, hook: *hook, webhookLatencyFigures: sl, rejected: rejected})
		}
	}
	return out
}

// admissionKeys are the webhook operations of s, by webhook, type and operation.
func admissionKeys(s *health.Snapshot) []health.AdmissionKey {
	keys := make([]health.AdmissionKey, 0, len(s.Admission))
	for k := range s.Admission {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Name != keys[j].Name {
			return keys[i].Name < keys[j].Name
		}
		if keys[i].Type != keys[j].Type {
			return keys[i].Type < keys[j].Type
		}
		return keys[i].Operation < keys[j].Operation
	})
	return keys
}

// admissionWindow is what the API server measured of webhook operation k over the window (since
// the process started with one sample; a webhook first called in the window counts from
// zero): the calls' latency and the calls rejected or failed, by error type (those with any).
func admissionWindow(a Target, k health.AdmissionKey) (*health.Histogram, map[string]float64) {
	w := a.Cur.Admission[k]
	var before *health.AdmissionWebhook
	if a.Prev != nil {
		before = a.Prev.Admission[k]
	}
	var prevLatency *health.Histogram
	if before != nil {
		prevLatency = before.Latency
	}
	rejected := map[string]float64{}
	for typ, v := range w.Rejections {
		prev := math.NaN()
		if a.Prev != nil {
			prev = 0
			if before != nil {
				prev = before.Rejections[typ]
			}
		}
		if n := health.Increase(prev, v); n > 0 {
			rejected[typ] = n
		}
	}
	return w.Latency.Since(prevLatency), rejected
}

// maxWebhookTies bounds the webhook-slows-writes findings of one queue: a queue is tied to
// each slow webhook that intercepts its writes, and a cluster with hundreds of those would
// otherwise make a finding of every queue and webhook pair. The first ones are kept, in the
// order of slowWebhookCalls; the last kept says how many more there are.
const maxWebhookTies = 3

// webhookTies are the webhook-slows-writes findings of queue q, one per slow webhook in slow
// that intercepts its writes, up to maxWebhookTies; first is the webhook of the first.
func webhookTies(t Target, q health.QueueStats, slow []slowCall, th Thresholds) (ties []Finding, first *slowCall) {
	var reconciled *apiserver.Reconciled
	name := q.Controller
	if name == "" {
		name = q.Queue
	}
	if sum := t.Objects.Of(t.ID, name); sum != nil {
		reconciled = &apiserver.Reconciled{Group: sum.Kind.Group, Resource: sum.Kind.Resource, Namespaced: sum.Kind.Namespaced}
	}
	owned := t.Admission.Owned(t.ID + " " + name)
	ws := apiserver.WritesOf(string(t.Kind), q.Queue, reconciled, reconciledOf(owned))
	if len(ws) == 0 {
		return nil, nil
	}
	more := 0
	for i := range slow {
		f, ok := webhookTie(t, q, slow[i], th, ws, owned, len(ties) < maxWebhookTies)
		switch {
		case !ok:
		case len(ties) == maxWebhookTies:
			more++
		default:
			ties = append(ties, f)
			if first == nil {
				first = &slow[i]
			}
		}
	}
	if more > 0 {
		last := &ties[len(ties)-1]
		last.Evidence = append(last.Evidence, Evidence{Name: "other slow webhooks on these writes",
			Value: fmt.Sprintf("and %d more, not shown", more)})
	}
	return ties, first
}

// webhookTie is the webhook-slows-writes finding of queue q when s intercepts some of its
// writes ws (owned are the kinds its controller owns); only whether there is one when build
// is false.
func webhookTie(t Target, q health.QueueStats, s slowCall, th Thresholds, ws []apiserver.Write, owned []apiserver.Owned, build bool) (Finding, bool) {
	var hit []apiserver.Write
	for _, w := range ws {
		if w.Operation == s.key.Operation && s.hook.Intercepts(w) {
			hit = append(hit, w)
		}
	}
	if len(hit) == 0 {
		return Finding{}, false
	}
	busy := nanZero(q.WorkP99)
	if l := nanZero(q.Longest); l > busy {
		busy = l
	}
	if !(q.AddsPerSecond > 0 || q.Unfinished > 0) || busy < s.mean {
		return Finding{}, false
	}
	if !build {
		return Finding{}, true
	}
	writes := make([]string, 0, len(hit))
	ownedBy := map[string]bool{} // the owned kinds whose writes the webhook intercepts
	for _, w := range hit {
		writes = append(writes, w.String())
		ownedBy[w.Group+"/"+w.Resource] = true
	}
	selectors := "none (every namespace and object)"
	var sel []string
	if s.hook.NamespaceSelector != "" {
		sel = append(sel, "namespaceSelector "+s.hook.NamespaceSelector)
	}
	if s.hook.ObjectSelector != "" {
		sel = append(sel, "objectSelector "+s.hook.ObjectSelector)
	}
	if s.hook.MatchConditions > 0 {
		sel = append(sel, fmt.Sprintf("%d matchConditions", s.hook.MatchConditions))
	}
	if len(sel) > 0 {
		selectors = strings.Join(sel, ", ") + " (not evaluated: the writes may fall outside them)"
	}
	ev := []Evidence{
		{Name: "webhook", Value: fmt.Sprintf("%s in %s", s.hook.Name, s.hook.Configuration)},
		{Name: "intercepted writes", Value: strings.Join(writes, ", ")},
	}
	for _, o := range owned {
		if ownedBy[o.Group+"/"+o.Resource] {
			ev = append(ev, Evidence{Name: "owned kind", Value: o.Evidence()})
		}
	}
	ev = append(ev, []Evidence{
		{Name: "webhook latency p90 on " + s.apiserver.ID, Value: fmt.Sprintf("%s (in the %s-%s bucket)", estimated(s.p90), format(s.lower, "s"), format(s.upper, "s")),
			Threshold: ">= " + th.WebhookLatency.String()},
		{Name: "webhook mean latency", Value: format(s.mean, "s")},
		{Name: "webhook calls (" + s.key.Operation + ")", Value: format(s.calls, ""), Threshold: fmt.Sprintf(">= %g", th.MinEvents)},
		{Name: "calls rejected or failed", Value: format(s.rejected, "")},
		{Name: "queue work p99 / longest running", Value: quantile(q.WorkP99, q.WorkP99AtLeast) + " / " + format(q.Longest, "s"),
			Threshold: ">= the webhook's mean latency"},
		{Name: "timeout and failure policy", Value: s.hook.Policy()},
		{Name: "selectors", Value: selectors},
	}...)
	summary := fmt.Sprintf("%s's %s wait in admission webhook %s (%s): p90 %s, mean %s over %.0f calls %s",
		q.Queue, strings.Join(writes, ", "), s.hook.Name, s.hook.Configuration, estimated(s.p90), format(s.mean, "s"), s.calls, over(s.apiserver))
	return newFinding("webhook-slows-writes", t.Kind, t.ID, q.Queue, summary, ev...), true
}

// reconciledOf are the owned kinds as kinds a controller writes.
func reconciledOf(owned []apiserver.Owned) []apiserver.Reconciled {
	out := make([]apiserver.Reconciled, 0, len(owned))
	for _, o := range owned {
		out = append(out, o.Reconciled())
	}
	return out
}

// WebhooksToProbe are the webhooks of API server a (with its configurations read) whose kinds
// the owner-reference probe looks at: those slow over the window as webhook-slows-writes
// judges them, and those that rejected or failed calls in it. A fast webhook is never probed
// for, so a controller is never tied to it.
func WebhooksToProbe(a Target, th Thresholds) []apiserver.Webhook {
	if a.Cur == nil || a.Prev == nil || a.Admission == nil {
		return nil
	}
	var out []apiserver.Webhook
	seen := map[string]bool{}
	for _, k := range admissionKeys(a.Cur) {
		h, rejections := admissionWindow(a, k)
		if _, slow := slowWebhook(h, th); !slow && len(rejections) == 0 {
			continue
		}
		hook := a.Admission.Find(k.Name, k.Type)
		if hook == nil || seen[hook.Configuration+"\x00"+hook.Name] {
			continue
		}
		seen[hook.Configuration+"\x00"+hook.Name] = true
		out = append(out, *hook)
	}
	return out
}
