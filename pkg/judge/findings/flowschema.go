package findings

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// kubeControllerManagerAccounts are the ServiceAccounts (in kube-system) that
// kube-controller-manager's controllers send their requests as with
// --use-service-account-credentials, by queue name.
var kubeControllerManagerAccounts = map[string]string{
	"replicaset": "replicaset-controller", "replicationmanager": "replication-controller",
	"deployment": "deployment-controller", "daemonset": "daemon-set-controller",
	"statefulset": "statefulset-controller", "job": "job-controller", "cronjob": "cronjob-controller",
	"endpoint": "endpoint-controller", "endpoint_slice": "endpointslice-controller",
	"namespace": "namespace-controller", "serviceaccount": "service-account-controller",
	"disruption": "disruption-controller", "horizontalpodautoscaler": "horizontal-pod-autoscaler",
}

// identity is whom the API server sees one or more queues of a target send requests as.
type identity struct {
	id     apiserver.Identity
	queues []string // the queues that send as it; nil for the whole process
	reqs   []apiserver.Request
}

// identities are whom t's requests come from: for kube-controller-manager with
// --use-service-account-credentials each controller's ServiceAccount (the queues the table
// knows), else its pod's ServiceAccount; none when the pod is unknown.
func identities(t Target) []identity {
	if t.Pod == nil {
		return nil
	}
	if t.Kind == KubeControllerManager {
		if !slices.ContainsFunc(t.Pod.Args, func(a string) bool {
			return a == "--use-service-account-credentials" || a == "--use-service-account-credentials=true"
		}) {
			return []identity{{id: apiserver.Identity{User: "system:kube-controller-manager", Groups: []string{"system:authenticated"}}}}
		}
		var out []identity
		for _, q := range t.Queues {
			if sa := kubeControllerManagerAccounts[q.Queue]; sa != "" {
				out = append(out, identity{id: apiserver.ServiceAccount("kube-system", sa), queues: []string{q.Queue}, reqs: requestsOf(t, q)})
			}
		}
		return out
	}
	if t.Pod.ServiceAccount == "" {
		return nil
	}
	var reqs []apiserver.Request
	for _, q := range t.Queues {
		reqs = append(reqs, requestsOf(t, q)...)
	}
	return []identity{{id: apiserver.ServiceAccount(t.Pod.Namespace, t.Pod.ServiceAccount), reqs: reqs}}
}

// requestsOf are the requests queue q's controller makes, as far as they are known: reads and
// writes of the kind it reconciles and its status, and the writes of apiserver.WritesOf.
func requestsOf(t Target, q health.QueueStats) []apiserver.Request {
	name := q.Controller
	if name == "" {
		name = q.Queue
	}
	var reconciled *apiserver.Reconciled
	var out []apiserver.Request
	if sum := t.Objects.Of(t.ID, name); sum != nil && sum.Kind.Resource != "" {
		reconciled = &apiserver.Reconciled{Group: sum.Kind.Group, Resource: sum.Kind.Resource, Namespaced: sum.Kind.Namespaced}
		for _, v := range []string{"list", "watch", "get", "patch"} {
			out = append(out, apiserver.Request{Verb: v, Group: sum.Kind.Group, Resource: sum.Kind.Resource})
		}
	}
	for _, w := range apiserver.WritesOf(string(t.Kind), q.Queue, reconciled, reconciledOf(t.Admission.Owned(t.ID+" "+name))) {
		out = append(out, apiserver.Request{Verb: strings.ToLower(w.Operation), Group: w.Group, Resource: w.Resource})
	}
	return out
}

// flowWaits is what one FlowSchema's requests met in API Priority and Fairness on one API
// server over the window.
type flowWaits struct {
	waited         float64 // requests that waited in a queue
	p99            float64 // s
	p99AtLeast     bool
	inQueue        float64 // waiting now
	rejected       float64
	priorityLevels []string
}

// waitsOf sums the API server's wait histograms (execute true and false) of FlowSchema fs over
// a's window; ok is false when no request of it waited.
func waitsOf(a Target, fs string) (flowWaits, bool) {
	var w flowWaits
	var h *health.Histogram
	levels := map[string]bool{}
	for f, cur := range a.Cur.FlowControl.Wait {
		if f.FlowSchema != fs {
			continue
		}
		d := cur.Since(a.Prev.FlowControl.Wait[f])
		if d == nil || !(d.Count > 0) {
			continue
		}
		h = merge(h, d)
		levels[f.PriorityLevel] = true
	}
	if h == nil {
		return w, false
	}
	for f, v := range a.Cur.FlowControl.InQueue {
		if f.FlowSchema == fs && v > 0 {
			w.inQueue += v
		}
	}
	for r, v := range a.Cur.FlowControl.Rejected {
		if r.FlowSchema == fs {
			w.rejected += nanZero(health.Increase(a.Prev.FlowControl.Rejected[r], v))
		}
	}
	e := h.Estimate(0.99)
	w.waited, w.p99, w.p99AtLeast = h.Count, e.Value, e.AtLeast
	for l := range levels {
		w.priorityLevels = append(w.priorityLevels, l)
	}
	sort.Strings(w.priorityLevels)
	return w, true
}

// flowSchemaWaits ties each controller to the FlowSchema that classifies its requests (from
// the FlowSchemas read from the cluster) and judges that FlowSchema's waits in API Priority
// and Fairness queues on every API server read over the window (flowschema-waits): p99 at or
// above th.APFQueueWait over at least th.MinEvents requests that waited. Exempt levels queue
// nothing, and an idle level's requests wait microseconds, so a healthy cluster raises none.
func flowSchemaWaits(targets []Target, th Thresholds) []Finding {
	var apiservers []Target
	for _, t := range targets {
		if t.Kind == KubeAPIServer && t.Cur != nil && t.Prev != nil && t.Window > 0 {
			apiservers = append(apiservers, t)
		}
	}
	if len(apiservers) == 0 {
		return nil
	}
	var out []Finding
	for _, t := range targets {
		if t.Kind == KubeAPIServer || t.Cur == nil || t.FlowSchemas == nil {
			continue
		}
		type classified struct {
			fs     *apiserver.FlowSchema
			who    []string
			queues []string
		}
		var order []string
		byFS := map[string]*classified{}
		for _, id := range identities(t) {
			fs := t.FlowSchemas.Classify(id.id, id.reqs)
			if fs == nil {
				continue
			}
			c := byFS[fs.Name]
			if c == nil {
				c = &classified{fs: fs}
				byFS[fs.Name] = c
				order = append(order, fs.Name)
			}
			c.who = append(c.who, id.id.User)
			c.queues = append(c.queues, id.queues...)
		}
		for _, name := range order {
			c := byFS[name]
			for _, a := range apiservers {
				w, ok := waitsOf(a, name)
				if !ok || !(w.waited >= th.MinEvents && w.p99 >= th.APFQueueWait.Seconds()) {
					continue
				}
				out = append(out, flowSchemaFinding(t, a, c.fs, c.who, c.queues, w, th))
			}
		}
	}
	return out
}

func flowSchemaFinding(t, a Target, fs *apiserver.FlowSchema, who, queues []string, w flowWaits, th Thresholds) Finding {
	queue, whose := "", "the controller's"
	if len(queues) == 1 {
		queue, whose = queues[0], queues[0]+"'s"
	}
	level := strings.Join(w.priorityLevels, ", ")
	if level == "" {
		level = fs.PriorityLevel
	}
	ev := []Evidence{
		{Name: "FlowSchema", Value: fmt.Sprintf("%s (matchingPrecedence %d)", fs.Name, fs.MatchingPrecedence)},
		{Name: "priority level", Value: level},
		{Name: "classified identity", Value: strings.Join(who, ", ")},
		{Name: "queue wait p99 on " + a.ID, Value: quantile(w.p99, w.p99AtLeast), Threshold: ">= " + th.APFQueueWait.String()},
		{Name: "requests that waited", Value: format(w.waited, ""), Threshold: fmt.Sprintf(">= %g", th.MinEvents)},
		{Name: "waiting in its queues now", Value: format(w.inQueue, "")},
		{Name: "rejected (429)", Value: format(w.rejected, "")},
	}
	if len(queues) > 1 {
		ev = append(ev, Evidence{Name: "queues", Value: strings.Join(queues, ", ")})
	}
	summary := fmt.Sprintf("%s requests wait in API Priority and Fairness queues: FlowSchema %s sends them to priority level %s, where requests waited up to %s (p99) %s",
		whose, fs.Name, level, quantile(w.p99, w.p99AtLeast), over(a))
	if math.IsNaN(w.p99) {
		summary = fmt.Sprintf("%s requests wait in the queues of priority level %s (FlowSchema %s) %s", whose, level, fs.Name, over(a))
	}
	return newFinding("flowschema-waits", t.Kind, t.ID, queue, summary, ev...)
}
