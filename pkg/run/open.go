// This file builds what a command reads from a Spec: the targets themselves (the cluster,
// URLs, saved pages), a snapshot replayed, or a Prometheus server with the kubeconfig's
// cluster attached. It holds the one constructor of the cluster's client.

package run

import (
	"io"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// Inputs are what Open uses besides the Spec.
type Inputs struct {
	// Kubeconfig gives the cluster's REST configuration; nil when there is none.
	Kubeconfig Kubeconfig
	// Stdin is read for the saved page "-".
	Stdin io.Reader
	// Log, when set, is told what the queries of a Prometheus server cost.
	Log func(string)
}

// Opened is a Spec built, in the run layer's terms.
type Opened struct {
	// Source reads the targets; it connects to the cluster only when the cluster is read.
	Source source.Source
	// Scope says where targets are looked for; Read how they are read.
	Scope source.Scope
	Read  source.Options
	// Now is the time of the run: a snapshot's, or the end of a Prometheus window; nil for
	// now.
	Now func() time.Time
	// History is where the targets' recent history is asked (Prometheus.History); nil
	// without.
	History *promsource.History
}

// Open builds the source the Spec says. clock is the run's (--deadline): what Open reads
// itself (a snapshot) it reads within it.
func Open(s Spec, in Inputs, clock source.Clock) (Opened, error) {
	switch {
	case s.FromSnapshot != "":
		return openSnapshot(s, clock)
	case s.Prometheus.URL != "" && !s.Prometheus.History:
		return openPrometheus(s, in)
	case s.Prometheus.URL != "":
		return openWithHistory(s, in)
	}
	return openLive(s, in), nil
}

// specError is an error in what was asked, not in reaching it.
type specError struct{ error }

func (specError) Usage() bool { return true }

func (e specError) Unwrap() error { return e.error }

// failure is an error in reaching what was asked, whatever it wraps.
type failure struct{ error }

func (failure) Usage() bool { return false }

func (e failure) Unwrap() error { return e.error }
