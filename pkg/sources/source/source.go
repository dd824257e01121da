package source

import (
	"context"
	"time"

	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Source yields timestamped samples per target.
type Source interface {
	// Open finds the targets and checks how each can be reached; nothing is read yet.
	Open(ctx context.Context) (*Inventory, error)
	// Read reads the targets Open found and returns one Result per target, the unreadable
	// ones included with their error. It is called once, after Open.
	Read(ctx context.Context, o Options) []Result
}

// Prefetcher is a Source that can begin reading before Open has found its targets (a server
// whose reading queries narrow themselves to the targets): Prefetch is given the options of the
// Read to come, before Open, and that Read takes what it began. A Read with other options, or
// none, costs only what was sent.
type Prefetcher interface {
	Prefetch(ctx context.Context, o Options)
}

// Rediscoverer is a Source that can find its targets again between Reads, for a live view
// that outlives its pods (a rollout replaces them).
type Rediscoverer interface {
	// Rediscovers reports whether Rediscover can find anything new (the targets were found
	// by discovery, not named).
	Rediscovers() bool
	// Rediscover finds the targets again; the next Reads read those. Targets gone are no
	// longer read and what was kept open for them is closed; the connections of those still
	// there are kept. On an error the targets stay as they were.
	Rediscover(ctx context.Context) (*Inventory, error)
}

// Inventory is what Open found.
type Inventory struct {
	// Targets are the targets that will be read, with the way each will be tried first.
	Targets []target.Target
	// Unreadable are targets found but that cannot be read at all (a missing permission), each
	// with its error; Read returns them as failed Results.
	Unreadable []Result
	// Skipped are pods that were looked at but not taken, with why (not ready).
	Skipped []discover.Skipped
	// Pods are the pods behind targets and skipped pods, by "namespace/name".
	Pods map[string]*corev1.Pod
	// WatchEnv is, by pod ("namespace/name") and container, what the WATCH_NAMESPACE(S) of the
	// target pods' containers that take them from elsewhere resolved to (the pod's namespace,
	// a ConfigMap's key; never a Secret); nil when the source resolved none.
	WatchEnv map[string]map[string]*knobs.WatchEnv
	// Warnings are what the user should know about the finding of targets.
	Warnings []string
	// Cluster is the live cluster the targets are in; nil when the source reads none.
	Cluster Cluster
	// ClusterRead, with targets read elsewhere (a Prometheus server), says which cluster
	// Cluster and Pods were read from and when; ClusterAbsent says why they were not, when a
	// source could have read them (one line each; "" otherwise).
	ClusterRead   string
	ClusterAbsent string
	// Partial, when set, says that the server read answered without some of its stores: set
	// by Open, completed by Read (a later answer may be partial too).
	Partial *Partial
	// Resolution, when the source reads a Prometheus server, says at which resolution the
	// window was judged: "raw", or the coarsest downsampled data the server was allowed to
	// answer from (Thanos Query's max_source_resolution).
	Resolution string
	// ResolutionNote, when the server may have answered from downsampled data, is what the
	// text outputs say of it as the source resolution ("" when the answer was raw).
	ResolutionNote string
}

// Options say how to read.
type Options struct {
	// Interval between the two samples of a target; 0 takes one sample. For saved pages
	// without sample-time comments it is the assumed time between them.
	Interval time.Duration
	// Timeout bounds each fetch-and-parse of one page.
	Timeout time.Duration
	// Concurrency bounds how many targets are read at once (default 8).
	Concurrency int
	// Keep selects the metric families to parse (nil: all).
	Keep parse.Keep
	// Reduce names the histogram families of those Keep selects that are read only in part,
	// with what is read of them (parse.Reduce); nil reads every family whole.
	Reduce map[string]parse.Reduce
	// Done, when set, is called as each target finishes (for a progress line).
	Done func()
	// First, when set, is called with each target whose first sample was read live and whose
	// second will follow after Interval (not for saved pages), before the wait: what should be
	// watched over the window can start then. It may be called from several goroutines.
	First func(Result)
	// KeepRaw keeps each page's bytes as read (after decompression, within the body cap) in
	// Sample.Raw, for a snapshot; off, reading keeps nothing but the parsed families.
	KeepRaw bool
}

// Sample is one parsed page of a target.
type Sample struct {
	Families map[string]*dto.MetricFamily
	Time     time.Time
	// Raw is the page as read, when Options.KeepRaw asked for it; nil otherwise.
	Raw []byte
}

// Result is what reading one target gave: up to two samples, and the error that stopped it.
// With one sample and an error, the error hit the second sample.
type Result struct {
	// Target is the target as it was reached in the end (Via says how).
	Target target.Target
	// Pod is the pod behind the target; nil when it is not a pod.
	Pod *corev1.Pod
	// WatchEnv is what the WATCH_NAMESPACE(S) of Pod's containers resolved to, by container
	// (see Inventory.WatchEnv).
	WatchEnv map[string]*knobs.WatchEnv
	Samples  []Sample
	// Window is the time between the two samples (0 with one).
	Window time.Duration
	// ResetsCounted says that the source itself made the counters of the first sample exact
	// about resets within the window (a Prometheus server holds every scrape between the two):
	// a restart between the samples then needs no correction.
	ResetsCounted bool
	Err           error
	// Notes are what the user should know about how the target was read (a fallback).
	Notes []string
}

// ID is the target's ID, the name it has in every output.
func (r Result) ID() string { return r.Target.ID() }
