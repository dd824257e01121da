package findings

import (
	"cmp"
	"fmt"
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Kind is the kind of controller a target runs; recommendations name its knobs.
type Kind string

const (
	ControllerRuntime     Kind = "controller-runtime"
	KubeControllerManager Kind = "kube-controller-manager"
	KubeAPIServer         Kind = "kube-apiserver"
	ClientGo              Kind = "client-go"
)

// Evidence is one number a finding rests on, with the threshold it was held against.
type Evidence struct {
	Name      string `json:"name"`
	Value     string `json:"value"`
	Threshold string `json:"threshold,omitempty"`
	// Observations and Basis say what a measured quantile rests on: how many observations
	// (waits, items) and over what ("window", or "since start": since the process started).
	Observations float64 `json:"observations,omitempty"`
	Basis        string  `json:"basis,omitempty"`
}

// Finding is one diagnosis.
type Finding struct {
	Code     string   `json:"code"`
	Check    string   `json:"check"`
	Severity Severity `json:"severity"`
	Title    string   `json:"title"`
	// Target is the scraped endpoint; Queue or Controller narrows it when the finding is about one.
	Target         string     `json:"target"`
	Queue          string     `json:"queue,omitempty"`
	Summary        string     `json:"summary"`
	Evidence       []Evidence `json:"evidence"`
	Explanation    string     `json:"explanation"`
	Recommendation string     `json:"recommendation"`
	// Knob is the flag of a recognised well-known controller the recommendation names; nil
	// when the controller is not recognised or has no knob for the check.
	Knob *knobs.Advice `json:"knob,omitempty"`
	// status is what a queue finding makes the queue's STATUS (see Judge); "" otherwise.
	status health.Status
}

// newFinding fills a finding from the catalog entry of check.
func newFinding(check string, kind Kind, target, queue, summary string, ev ...Evidence) Finding {
	d, ok := catalog()[check]
	if !ok {
		panic(fmt.Sprintf("findings: no catalog entry for check %q", check))
	}
	return Finding{Code: d.Code, Check: d.Check, Severity: d.Severity, Title: d.Title, Target: target, Queue: queue,
		Summary: summary, Evidence: ev, Explanation: d.Explanation, Recommendation: d.RecommendationFor(kind)}
}

// as sets the STATUS the finding gives its queue.
func (f Finding) as(s health.Status) Finding {
	f.status = s
	return f
}

// withSeverity overrides the catalog severity (e.g. an OOMKill is critical).
func (f Finding) withSeverity(s Severity) Finding {
	f.Severity = s
	return f
}

// Sort orders findings worst first: severity, then cause before symptom (the catalog rank),
// then target and queue.
func Sort(fs []Finding) { SortBy(fs, nil) }

// SortBy orders findings by impact: severity, then cause before symptom (the catalog rank),
// then the harm harm measures (negative when a is worse than b, as cmp functions do; nil
// measures none), then target and queue.
func SortBy(fs []Finding, harm func(a, b Finding) int) {
	sort.SliceStable(fs, func(i, j int) bool { return Compare(fs[i], fs[j], harm) < 0 })
}

// Compare is the order of SortBy: negative when a comes before b.
func Compare(a, b Finding, harm func(a, b Finding) int) int {
	if ra, rb := a.Severity.Rank(), b.Severity.Rank(); ra != rb {
		return cmp.Compare(ra, rb)
	}
	if ra, rb := rankOf(a), rankOf(b); ra != rb {
		return cmp.Compare(ra, rb)
	}
	if harm != nil {
		if c := harm(a, b); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(a.Target, b.Target); c != 0 {
		return c
	}
	return cmp.Compare(a.Queue, b.Queue)
}

// IsCause says whether the catalog ranks check among the causes: the findings that say why a
// queue waits or fails (a slow webhook, API Priority and Fairness, the client's rate limiter,
// failing objects), ranked before the symptoms they explain.
func IsCause(check string) bool { return causes[check] }

// causes are the checks IsCause names.
var causes = map[string]bool{"webhook-slows-writes": true, "flowschema-waits": true, "server-throttling": true,
	"persistent-failures": true, "client-throttling": true, "request-latency": true, "webhook-latency": true,
	"api-errors": true}

func rankOf(f Finding) int {
	if d, ok := catalog()[f.Check]; ok {
		return d.Rank
	}
	return 1000
}

// Worst returns the highest severity among fs, or "" when there is none.
func Worst(fs []Finding) Severity {
	var w Severity
	for _, f := range fs {
		if w == "" || f.Severity.Rank() < w.Rank() {
			w = f.Severity
		}
	}
	return w
}
