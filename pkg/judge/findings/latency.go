package findings

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// httpMethod is the HTTP method of an API server verb: what client-go's
// rest_client_request_duration_seconds calls the verb.
var httpMethod = map[string]string{
	"GET": "GET", "LIST": "GET", "POST": "POST", "PUT": "PUT", "PATCH": "PATCH", "APPLY": "PATCH",
	"DELETE": "DELETE", "DELETECOLLECTION": "DELETE",
}

// slowRequest is one verb on one resource whose latency an API server measured over its
// window.
type slowRequest struct {
	key        health.APIRequestKey
	count, p99 float64
	p99AtLeast bool
}

func (s slowRequest) String() string {
	res := s.key.Resource
	if s.key.Group != "" {
		res += "." + s.key.Group
	}
	if s.key.Subresource != "" {
		res += "/" + s.key.Subresource
	}
	return fmt.Sprintf("%s %s (p99 %s over %.0f)", s.key.Verb, res, quantile(s.p99, s.p99AtLeast), s.count)
}

// requestLatency tells, for each controller, a slow API server from a slow client
// (request-latency). The API server's apiserver_request_duration_seconds over its window, for
// the resources the controller is known to use (its kinds and what it writes; long-running
// verbs left out): a verb on one of them whose p99 is at or above th.APIServerLatency over at
// least th.MinEvents requests is the API server being slow for it. Else, a verb of the
// controller's own rest_client_request_duration_seconds with its p99 there, while the API
// server served that method on those resources below it, is the controller's client waiting
// (its rate limiter, the network, a proxy).
func requestLatency(targets []Target, th Thresholds) []Finding {
	var apiservers []Target
	for _, t := range targets {
		if t.Kind == KubeAPIServer && t.Cur != nil && t.Prev != nil && t.Window > 0 && len(t.Cur.APIRequests) > 0 {
			apiservers = append(apiservers, t)
		}
	}
	if len(apiservers) == 0 {
		return nil
	}
	var out []Finding
	for _, t := range targets {
		if t.Kind == KubeAPIServer || t.Cur == nil || t.Prev == nil || t.Window <= 0 {
			continue
		}
		used := usedResources(t)
		if len(used) == 0 {
			continue
		}
		for _, a := range apiservers {
			if f, ok := requestLatencyOn(t, a, used, th); ok {
				out = append(out, f)
			}
		}
	}
	return out
}

// usedResources are the resources ("group/resource") t's controllers read or write.
func usedResources(t Target) map[string]bool {
	used := map[string]bool{}
	for _, q := range t.Queues {
		for _, r := range requestsOf(t, q) {
			res, _, _ := strings.Cut(r.Resource, "/")
			used[r.Group+"/"+res] = true
		}
	}
	return used
}

func requestLatencyOn(t, a Target, used map[string]bool, th Thresholds) (Finding, bool) {
	var slow, all []slowRequest
	worst := map[string]float64{} // the API server's worst p99 by HTTP method, on the resources used
	for k, h := range a.Cur.APIRequests {
		if !used[k.Group+"/"+k.Resource] {
			continue
		}
		d := h.Since(a.Prev.APIRequests[k])
		if d == nil || !(d.Count >= th.MinEvents) {
			continue
		}
		e := d.Estimate(0.99)
		s := slowRequest{key: k, count: d.Count, p99: e.Value, p99AtLeast: e.AtLeast}
		all = append(all, s)
		if m := httpMethod[k.Verb]; m != "" {
			if prev, ok := worst[m]; !ok || e.Value > prev {
				worst[m] = e.Value
			}
		}
		if e.Value >= th.APIServerLatency.Seconds() {
			slow = append(slow, s)
		}
	}
	sort.Slice(slow, func(i, j int) bool {
		if slow[i].p99 != slow[j].p99 {
			return slow[i].p99 > slow[j].p99
		}
		return slow[i].String() < slow[j].String()
	})
	if len(slow) > 0 {
		names := make([]string, 0, len(slow))
		for _, s := range slow {
			names = append(names, s.String())
		}
		if len(names) > 5 {
			names = append(names[:5], fmt.Sprintf("and %d more", len(slow)-5))
		}
		ev := []Evidence{
			{Name: "slowest on " + a.ID, Value: strings.Join(names, ", "), Threshold: fmt.Sprintf(">= %s over >= %g requests", th.APIServerLatency, th.MinEvents)},
			{Name: "what the latency holds", Value: "the API server's whole handling: API Priority and Fairness queues, admission webhooks, etcd"},
		}
		ev = append(ev, clientEvidence(t)...)
		return newFinding("request-latency", t.Kind, t.ID, "",
			fmt.Sprintf("the API server is slow for %s, which the controller uses, %s", slow[0].String(), over(a)), ev...), true
	}
	// The server is fast for what the controller uses: is the client slow all the same?
	var waits []string
	methods := make([]string, 0, len(t.Cur.Client.LatencyByVerb))
	for m := range t.Cur.Client.LatencyByVerb {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	for _, m := range methods {
		d := t.Cur.Client.LatencyByVerb[m].Since(t.Prev.Client.LatencyByVerb[m])
		server, served := worst[m]
		if d == nil || !(d.Count >= th.MinEvents) || !served {
			continue
		}
		e := d.Estimate(0.99)
		if e.Value >= th.APIServerLatency.Seconds() && server < th.APIServerLatency.Seconds() {
			waits = append(waits, fmt.Sprintf("%s p99 %s over %.0f (the API server's p99 at most %s)", m, quantile(e.Value, e.AtLeast), d.Count, format(server, "s")))
		}
	}
	if len(waits) == 0 {
		return Finding{}, false
	}
	return newFinding("request-latency", t.Kind, t.ID, "",
		fmt.Sprintf("the controller's client waits: its %s %s, while the API server serves the same requests fast; the time goes to the client's rate limiter or the network", strings.Join(waits, ", "), over(t)),
		Evidence{Name: "client request p99 (rest_client_request_duration_seconds)", Value: strings.Join(waits, ", "),
			Threshold: fmt.Sprintf(">= %s over >= %g requests, the API server's below it", th.APIServerLatency, th.MinEvents)},
		Evidence{Name: "API server requests judged on " + a.ID, Value: fmt.Sprintf("%d verbs on the resources the controller uses", len(all))}), true
}

// clientEvidence is the controller's own view of its requests' latency, when it exports it.
func clientEvidence(t Target) []Evidence {
	methods := make([]string, 0, len(t.Cur.Client.LatencyByVerb))
	for m := range t.Cur.Client.LatencyByVerb {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	var parts []string
	for _, m := range methods {
		d := t.Cur.Client.LatencyByVerb[m].Since(t.Prev.Client.LatencyByVerb[m])
		if d == nil || !(d.Count > 0) {
			continue
		}
		e := d.Estimate(0.99)
		parts = append(parts, fmt.Sprintf("%s p99 %s", m, quantile(e.Value, e.AtLeast)))
	}
	if len(parts) == 0 {
		return nil
	}
	return []Evidence{{Name: "the controller's client", Value: strings.Join(parts, ", ")}}
}
