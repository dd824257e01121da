package findings

import (
	"fmt"
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/knobs"
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
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Severity.Rank() != b.Severity.Rank() {
			return a.Severity.Rank() < b.Severity.Rank()
		}
		ra, rb := rankOf(a), rankOf(b)
		if ra != rb {
			return ra < rb
		}
		if a.Target != b.Target {
			return a.Target < b.Target
		}
		return a.Queue < b.Queue
	})
}

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
