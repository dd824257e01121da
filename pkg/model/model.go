// Package model is the stage between reading and judging: what a source read of each target
// (who it is, the pod behind it, how its samples were taken) and the health snapshot of each
// of its pages, built once per run right after the reading. Every consumer of a run (the
// findings, the report, the queue table, the warnings beside them) reads the model; none of
// them sees a parsed page or knows which source it came from.
package model

import (
	"time"

	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Facts are what a source says of one target besides its pages.
type Facts struct {
	// Target is the target as it was reached in the end (Via says how).
	Target target.Target
	// Pod is the pod behind the target; nil when it is not a pod.
	Pod *corev1.Pod
	// WatchEnv is, by container name, what the WATCH_NAMESPACE(S) of the pod's containers that
	// take them from elsewhere (a ConfigMap, a field, a Secret) resolved to when it was read;
	// nil when none was resolved.
	WatchEnv map[string]*knobs.WatchEnv
	// Window is the time between the two samples (0 with one).
	Window time.Duration
	// ResetsCounted says that the source made the counters of the first sample exact about
	// resets within the window (a Prometheus server holds every scrape between the two): a
	// restart between the samples then needs no correction.
	ResetsCounted bool
	// Err is what stopped the reading; with one sample and an error, the error hit the second.
	Err error
	// Notes are what the user should know about how the target was read (a fallback).
	Notes []string
	// Goroutines are where the process's workers wait, from its goroutine dump, when one was
	// asked for (stuck, slow or saturated workers); nil otherwise.
	Goroutines *goroutines.Profile
	// Log is what the recent log of the controller's container says (failing objects,
	// throttling waits, panics), when it was read: the leader's pod only; nil otherwise.
	Log *logs.Log
	// Flagz are the flags the process says it runs with, those of its knobs, when its /flagz
	// was asked for (kube-controller-manager); nil otherwise.
	Flagz *knobs.Flagz
}

// Page is one parsed page of a target and the time it was read.
type Page struct {
	Families map[string]*dto.MetricFamily
	Time     time.Time
}

// Target is one target of the run: its facts and the snapshot of each of its samples.
type Target struct {
	Facts
	// Snapshots are the snapshots of the target's samples, in the order they were taken.
	Snapshots []*health.Snapshot
}

// Of builds the target from its facts and the snapshot of each of its pages, in order.
func Of(f Facts, pages []Page) Target {
	t := Target{Facts: f, Snapshots: make([]*health.Snapshot, len(pages))}
	for i, p := range pages {
		t.Snapshots[i] = health.FromFamilies(p.Families, p.Time)
	}
	return t
}

// Served is the container of the target's pod that serves the metrics (the target's, else
// the pod's first); ok is false when the target has no pod.
func (t Target) Served() (c corev1.Container, ok bool) {
	if t.Pod == nil {
		return corev1.Container{}, false
	}
	for _, c := range t.Pod.Spec.Containers {
		if c.Name == t.Target.Container {
			return c, true
		}
	}
	if len(t.Pod.Spec.Containers) > 0 {
		return t.Pod.Spec.Containers[0], true
	}
	return corev1.Container{}, true
}

// ID is the target's ID, the name it has in every output.
func (t Target) ID() string { return t.Target.ID() }

// Read says whether the target gave a sample.
func (t Target) Read() bool { return len(t.Snapshots) > 0 }

// First is the snapshot of the first sample; nil when there is none.
func (t Target) First() *health.Snapshot {
	if len(t.Snapshots) == 0 {
		return nil
	}
	return t.Snapshots[0]
}

// Last is the snapshot of the last sample; nil when there is none.
func (t Target) Last() *health.Snapshot {
	if len(t.Snapshots) == 0 {
		return nil
	}
	return t.Snapshots[len(t.Snapshots)-1]
}

// PodLabels are the labels of the pod behind the target; nil when there is none.
func (t Target) PodLabels() map[string]string {
	if t.Pod == nil {
		return nil
	}
	return t.Pod.Labels
}

// ErrText is why the target gave no sample, or what stopped its reading: its error, or "no
// sample" when it has none.
func (t Target) ErrText() string {
	if t.Err != nil {
		return t.Err.Error()
	}
	return "no sample"
}
