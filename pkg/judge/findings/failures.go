package findings

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// failureFindings judges the failing reconciles of a controller-runtime queue. A retry storm
// is failures at a rate that loads the API server: over ErrorRatio of at least MinEvents
// reconciles in the window, at RetryStormRate or more a second. Persistent failures are some
// objects failing again and again while their retries back off: named from the objects'
// status when the objects were read, else judged from the window's counts. Counts since the
// process started are context, unless one sample is all there is and they say most reconciles
// failed (lifetimeFailures).
func failureFindings(t Target, q health.QueueStats, c *health.Controller, th Thresholds) []Finding {
	errs, judged, lifetime := q.Failures(th.MinEvents)
	ratio := errs / judged
	objs := t.Objects.Of(t.ID, c.Name)
	failing := objs != nil && objs.Failed > 0
	terminal := delta(t, c.Name, func(c *health.Controller) float64 { return c.TerminalErrors })

	// One sample: objects whose status says they fail are a state (persistent-failures below);
	// else counts since the process started that say most reconciles failed are a warning of
	// their own, and weaker ones context.
	if !failing {
		if f, ok := lifetimeFailures(t, q, c, th); ok {
			return []Finding{f}
		}
	}
	stormRate := errs / t.Window.Seconds()
	if !lifetime && judged >= th.MinEvents && ratio > th.ErrorRatio && (t.Window > 0 && stormRate >= th.RetryStormRate || t.Window == 0 && !failing) {
		evs := []Evidence{evidence("reconcile errors", errs, ""), evidence("reconciles", judged, ""),
			{Name: "error ratio", Value: format(ratio, "%"), Threshold: fmt.Sprintf("> %.0f%%", 100*th.ErrorRatio)}}
		if t.Window > 0 {
			evs = append(evs, Evidence{Name: "failing reconciles/s", Value: format(stormRate, "/s"), Threshold: fmt.Sprintf(">= %g/s", th.RetryStormRate)})
		}
		evs = append(evs, evidence("retries/s", q.RetriesPerSecond, "/s"))
		if terminal > 0 {
			// Terminal errors are not retried: they fail for good, and say the cause is the object.
			evs = append(evs, evidence("terminal errors (not retried)", terminal, ""))
		}
		if failing {
			evs = append(evs, objectEvidence(objs)...)
		} else {
			evs = append(evs, eventEvidence(t, eventsOf(t, c.Name))...)
			evs = append(evs, logEvidence(t, logFailuresOf(t, c.Name))...)
		}
		return []Finding{lifetimeOnly(t, newFinding("retry-storm", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("%.0f%% of %s's %.0f reconciles failed %s", 100*ratio, q.Queue, judged, over(t)), evs...).as(health.StatusFailing))}
	}

	winErrs, winRecs := q.ReconcileErrors, q.Reconciles
	counts := fmt.Sprintf("%.0f of %.0f reconciles failed %s, %.0f since the process started", nanZero(winErrs), nanZero(winRecs), over(t), nanZero(c.ReconcileErrors))
	if t.Window == 0 {
		counts = fmt.Sprintf("%.0f of %.0f reconciles failed since the process started", nanZero(winErrs), nanZero(winRecs))
	}
	rateEvidence := func() []Evidence {
		evs := []Evidence{evidence("reconcile errors "+over(t), nanZero(winErrs), ""),
			evidence("reconciles "+over(t), nanZero(winRecs), "")}
		if t.Window > 0 {
			evs = append(evs, Evidence{Name: "failing reconciles/s", Value: format(nanZero(winErrs)/t.Window.Seconds(), "/s"),
				Threshold: fmt.Sprintf("< %g/s: backing off, no storm", th.RetryStormRate)},
				evidence("reconcile errors since the process started", nanZero(c.ReconcileErrors), ""))
		}
		if terminal > 0 {
			evs = append(evs, evidence("terminal errors (not retried)", terminal, ""))
		}
		return evs
	}

	switch {
	case failing:
		// The objects' own status says they fail: a state, not a count.
		f := newFinding("persistent-failures", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("%s; %s", failedObjects(objs), counts),
			append(objectEvidence(objs), rateEvidence()...)...).as(health.StatusFailing)
		if !(c.ReconcileErrors > 0) {
			f.Summary = failedObjects(objs) + "; the controller reports no failed reconcile (it may requeue them without an error)"
			f = f.withSeverity(Info)
		}
		return []Finding{f}
	case t.Window > 0 && winErrs >= th.PersistentFailures && (winErrs == winRecs || winErrs/winRecs > th.ErrorRatio):
		// The status names no failed object: the Warning events of the controller may.
		// The status names no failed object: the Warning events of the controller may, and its
		// log's "Reconciler error" lines do.
		evs, logged := eventsOf(t, c.Name), logFailuresOf(t, c.Name)
		why := unnamed(objs, len(evs)+len(logged) > 0)
		if len(logged) > 0 {
			why = logNamed(logged) + "; " + why
		}
		if len(evs) > 0 {
			why = eventsNamed(evs) + "; " + why
		}
		return []Finding{newFinding("persistent-failures", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("%s: some objects keep failing and back off (%s)", counts, why),
			append(append(append(rateEvidence(), readEvidence(objs)...), eventEvidence(t, evs)...), logEvidence(t, logged)...)...).as(health.StatusFailing)}
	case lifetime && ratio > th.ErrorRatio:
		// Too few reconciles in the window to judge, but some failed: say so, and how to see more.
		return []Finding{newFinding("persistent-failures", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("%.0f%% of %s's %.0f reconciles failed since the process started; %.0f of %.0f %s, too few to judge: read over a longer --interval",
				100*ratio, q.Queue, judged, winErrs, winRecs, over(t)),
			append(rateEvidence(), Evidence{Name: "error ratio since the process started", Value: format(ratio, "%"), Threshold: fmt.Sprintf("> %.0f%%", 100*th.ErrorRatio)})...).withSeverity(Info)}
	}
	return nil
}

// failedObjects says how many objects of the kind failed and why: "6 of 11 Workload objects
// failed: DependencyUnavailable (4), RepositoryNotFound (2)".
func failedObjects(s *objects.Summary) string {
	var reasons []string
	for _, r := range s.Reasons {
		reasons = append(reasons, fmt.Sprintf("%s (%d)", r.Reason, r.Count))
	}
	return fmt.Sprintf("%d of %d %s objects failed: %s", s.Failed, s.Total, s.Kind.Kind, strings.Join(reasons, ", "))
}

// objectEvidence names, per reason, the objects and an example message.
func objectEvidence(s *objects.Summary) []Evidence {
	evs := []Evidence{{Name: "failed " + s.Kind.GroupResource(), Value: fmt.Sprintf("%d of %d%s", s.Failed, s.Total, where(s)), Threshold: failedConditions}}
	for _, r := range s.Reasons {
		v := fmt.Sprintf("%d: %s", r.Count, strings.Join(r.Objects, ", "))
		if r.Count > len(r.Objects) {
			v += ", ..."
		}
		if r.Message != "" {
			v += fmt.Sprintf(`; e.g. "%s"`, r.Message)
		}
		if r.OldestSeconds > 0 {
			v += "; the oldest for " + format(r.OldestSeconds, "s")
		}
		evs = append(evs, Evidence{Name: r.Condition + " " + r.Reason, Value: v})
	}
	return evs
}

// failedConditions are the conditions that say an object failed (pkg/facts/objects).
const failedConditions = "status: a condition that means failure (Ready=False, Stalled, Degraded, ReplicaFailure, Progressing, Available=False)"

// where says where the objects were read: " in all namespaces", " in namespace ops", "".
func where(s *objects.Summary) string {
	switch {
	case !s.Kind.Namespaced:
		return ""
	case s.Namespace == "":
		return " in all namespaces"
	}
	return " in namespace " + s.Namespace
}

// unnamed says why the objects' status names no failing object: the kind's objects were not
// read (which ones is unknown, unless named says the events or the log named some), could not
// be, or were read and none says it fails (with those still behind their spec).
func unnamed(s *objects.Summary, named bool) string {
	switch {
	case s == nil && named:
		return "the objects of its kind were not read"
	case s == nil:
		return "the objects of its kind were not read: which ones is unknown"
	case s.Error != "":
		return "its objects could not be read: " + s.Error
	}
	msg := fmt.Sprintf("the status of its %d %s objects read%s names none failed", s.Total, s.Kind.Kind, where(s))
	if s.BehindSpec > 0 {
		msg += fmt.Sprintf("; %d behind their spec: %s", s.BehindSpec, strings.Join(s.BehindSpecExamples, ", "))
		if s.BehindSpec > len(s.BehindSpecExamples) {
			msg += ", ..."
		}
	}
	return msg
}

// readEvidence is what the objects view read of a kind none of whose objects failed.
func readEvidence(s *objects.Summary) []Evidence {
	if s == nil || s.Error != "" {
		return nil
	}
	return []Evidence{{Name: "failed " + s.Kind.GroupResource(), Value: fmt.Sprintf("0 of %d%s", s.Total, where(s)), Threshold: failedConditions},
		{Name: "behind spec", Value: fmt.Sprint(s.BehindSpec)}}
}

func evidence(name string, v float64, unit string) Evidence {
	return Evidence{Name: name, Value: format(v, unit)}
}
