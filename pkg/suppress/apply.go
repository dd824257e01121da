package suppress

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// AnnotationKey is the annotation on a controller's pod (or its pod template, which the pod
// carries) that lists the checks accepted for that workload: codes or slugs, comma-separated.
const AnnotationKey = "ctrldiag.io/ignore"

// Target is what suppression knows of a finding's target: its namespace and the checks its
// workload's annotation accepts.
type Target struct {
	Namespace string
	// Ignore are the slugs the annotation names; Source says which object carries it.
	Ignore map[string]bool
	Source string
}

// Targets maps the IDs findings name (a target, or NAMESPACE/WORKLOAD for findings about a
// workload's replicas) to their namespace and annotation. Only the pod's own annotations are
// read; an owner's template annotations reach it, an owner's metadata annotations do not.
// Warnings name annotation values that are not checks of the catalog.
func Targets(results []source.Result) (map[string]Target, []string) {
	out := map[string]Target{}
	var warnings []string
	for _, r := range results {
		id := r.Target.ID()
		t := Target{Namespace: r.Target.Namespace}
		if r.Pod != nil {
			if v, ok := r.Pod.Annotations[AnnotationKey]; ok {
				t.Source = fmt.Sprintf("annotation %s on pod %s/%s", AnnotationKey, r.Pod.Namespace, r.Pod.Name)
				t.Ignore = map[string]bool{}
				for _, c := range strings.Split(v, ",") {
					if strings.TrimSpace(c) == "" {
						continue
					}
					check, ok := CheckOf(c)
					if !ok {
						warnings = append(warnings, fmt.Sprintf("%s: unknown check %q, ignored", t.Source, strings.TrimSpace(c)))
						continue
					}
					t.Ignore[check] = true
				}
			}
		}
		out[id] = t
		if r.Target.Workload != "" && r.Pod != nil {
			w := r.Target.Namespace + "/" + r.Target.Workload
			if _, seen := out[w]; !seen || t.Ignore != nil {
				out[w] = t
			}
		}
	}
	return out, warnings
}

// Apply moves the findings that an entry of rules (not expired at now) or their target's
// annotation accepts out of r.Findings into r.Suppressions, notes expired entries there, and
// recounts the summary. rules may be nil.
func Apply(r *report.Report, rules *Rules, targets map[string]Target, now time.Time) {
	var s report.Suppressions
	var live []Entry
	if rules != nil {
		for _, e := range rules.Entries {
			if e.Expired(now) {
				s.Expired = append(s.Expired, fmt.Sprintf("%s: the entry for %s expired on %s and no longer applies (%s)",
					e.Source, e.Check, e.Expires.Format(time.DateOnly), e.Reason))
				continue
			}
			live = append(live, e)
		}
	}
	kept := r.Findings[:0:0]
	for _, f := range r.Findings {
		t := targets[f.Target]
		if e, ok := match(live, f.Check, f.Queue, t.Namespace); ok {
			s.Findings = append(s.Findings, report.Suppressed{Finding: f, Reason: e.Reason, Source: e.Source})
			continue
		}
		if t.Ignore[f.Check] {
			s.Findings = append(s.Findings, report.Suppressed{Finding: f, Reason: "accepted for this workload by its annotation", Source: t.Source})
			continue
		}
		kept = append(kept, f)
	}
	if len(s.Findings) == 0 && len(s.Expired) == 0 {
		return
	}
	sort.Strings(s.Expired)
	if s.Findings == nil {
		s.Findings = []report.Suppressed{}
	}
	r.Findings = kept
	r.Suppressions = &s
	r.Recount()
}

// match returns the first entry for check that the finding's controller (queue) and
// namespace satisfy.
func match(entries []Entry, check, controller, namespace string) (Entry, bool) {
	for _, e := range entries {
		if e.Check != check {
			continue
		}
		if e.Namespace != "" && e.Namespace != namespace {
			continue
		}
		if e.Controller != "" && e.Controller != controller {
			continue
		}
		return e, true
	}
	return Entry{}, false
}
