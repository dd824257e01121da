package suppress

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
)

// AnnotationKey is the annotation on a controller's pod (or its pod template, which the pod
// carries), or on its workload object (Deployment, StatefulSet, DaemonSet, ReplicaSet), that
// lists the checks accepted for that workload: codes or slugs, comma-separated.
const AnnotationKey = "ctrldiag.io/ignore"

// Target is what suppression knows of a finding's target: its namespace and the checks its
// workload's annotations accept.
type Target struct {
	Namespace string
	// Ignore are the slugs the annotations name, each with the object whose annotation names
	// it ("annotation ctrldiag.io/ignore on pod NS/NAME").
	Ignore map[string]string
}

// Targets maps the IDs findings name (a target, or NAMESPACE/WORKLOAD for findings about a
// workload's replicas) to their namespace and the checks their annotations accept: the pod's
// own (an owner's template annotations reach it) and its workload object's, workloads by
// "namespace/kind/name" (WorkloadKeys). Warnings name annotation values that are not checks of
// the catalog.
func Targets(results []model.Target, workloads map[string]string) (map[string]Target, []string) {
	out := map[string]Target{}
	var warnings []string
	warned := map[string]bool{}
	for _, r := range results {
		id := r.Target.ID()
		t := Target{Namespace: r.Target.Namespace}
		if r.Pod != nil {
			if v, ok := r.Pod.Annotations[AnnotationKey]; ok {
				t.add(fmt.Sprintf("annotation %s on pod %s/%s", AnnotationKey, r.Pod.Namespace, r.Pod.Name), v, &warnings, warned)
			}
			if v, ok := workloads[workloadKey(r)]; ok {
				t.add(fmt.Sprintf("annotation %s on %s in %s", AnnotationKey, r.Target.Workload, r.Target.Namespace), v, &warnings, warned)
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

// WorkloadKeys are the workload objects of the targets' pods, "namespace/kind/name", each once.
func WorkloadKeys(results []model.Target) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range results {
		if k := workloadKey(r); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func workloadKey(r model.Target) string {
	if r.Pod == nil || !strings.Contains(r.Target.Workload, "/") {
		return ""
	}
	return r.Target.Namespace + "/" + r.Target.Workload
}

// add takes the checks annotation value v names, from source; a name that is no check is a
// warning, once per source.
func (t *Target) add(source, v string, warnings *[]string, warned map[string]bool) {
	if t.Ignore == nil {
		t.Ignore = map[string]string{}
	}
	for _, c := range strings.Split(v, ",") {
		if strings.TrimSpace(c) == "" {
			continue
		}
		check, ok := CheckOf(c)
		if !ok {
			if w := fmt.Sprintf("%s: unknown check %q, ignored", source, strings.TrimSpace(c)); !warned[w] {
				warned[w] = true
				*warnings = append(*warnings, w)
			}
			continue
		}
		if _, named := t.Ignore[check]; !named {
			t.Ignore[check] = source
		}
	}
}

// Accepted is what a suppression took out of the findings: the findings accepted, each with
// why and where, and the ignore file's entries that expired (the report shows both as
// view.Suppressions).
type Accepted struct {
	Findings []Suppressed
	// Expired are ignore file entries past their expiry date: they no longer suppress.
	Expired []string
}

// Suppressed is one finding accepted, left out of the findings and of --fail-on.
type Suppressed struct {
	findings.Finding
	Reason string
	// Source is where the suppression comes from: "FILE:LINE" or "annotation ctrldiag.io/ignore
	// on pod NAMESPACE/NAME".
	Source string
}

// By is the suppression of the entries of rules not expired at now (rules may be nil) and of
// the targets' annotations, as report.Input.Suppress takes it: the report is built with the
// findings they leave, and never rewritten after.
func By(rules *Rules, targets map[string]Target, now time.Time) func([]findings.Finding) ([]findings.Finding, *Accepted) {
	return func(fs []findings.Finding) ([]findings.Finding, *Accepted) {
		return Split(fs, rules, targets, now)
	}
}

// Split parts fs into the findings kept and those that an entry of rules (not expired at now)
// or their target's annotation accepts, with the expired entries noted; the suppressions are
// nil when nothing was accepted and nothing expired. rules may be nil; fs is not changed.
func Split(fs []findings.Finding, rules *Rules, targets map[string]Target, now time.Time) ([]findings.Finding, *Accepted) {
	var s Accepted
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
	kept := fs[:0:0]
	for _, f := range fs {
		if x, ok := suppressed(f, live, targets[f.Target]); ok {
			s.Findings = append(s.Findings, x)
			continue
		}
		kept = append(kept, f)
	}
	if len(s.Findings) == 0 && len(s.Expired) == 0 {
		return fs, nil
	}
	sort.Strings(s.Expired)
	if s.Findings == nil {
		s.Findings = []Suppressed{}
	}
	return kept, &s
}

// suppressed says whether an entry or the target's annotation accepts f, by its own check or
// the check it was split from (an ignore of backlog-growing, written when it also named deep
// queues, covers backlog-high), entries first.
func suppressed(f findings.Finding, live []Entry, t Target) (Suppressed, bool) {
	checks := findings.SelectedBy(f.Check)
	for _, c := range checks {
		if e, ok := match(live, c, f.Queue, t.Namespace); ok {
			return Suppressed{Finding: f, Reason: e.Reason, Source: e.Source}, true
		}
	}
	for _, c := range checks {
		if src, ok := t.Ignore[c]; ok {
			return Suppressed{Finding: f, Reason: "accepted for this workload by its annotation", Source: src}, true
		}
	}
	return Suppressed{}, false
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
