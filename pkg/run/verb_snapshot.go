package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/version"
)

// snapshotEventsSince is how far back the pods' Warning events are kept.
const snapshotEventsSince = time.Hour

// Recorded is a report made while its reading was recorded, and the snapshot of that reading.
type Recorded struct {
	*ReportResult
	// Snapshot holds what was read, the report made from it and, when a cluster was read,
	// its facts (the API server's version, the pods' recent Warning events).
	Snapshot *snapshot.Snapshot
	// Notes are the cluster facts that could not be read, as warnings.
	Notes []string
}

// Snapshot makes report's run (Report) through a recorder, so that the snapshot replays what
// the report read (open: --from-snapshot); Recorded.Save writes it.
func Snapshot(ctx context.Context, p Plan, o ReportOptions) (*Recorded, error) {
	cfg, err := newReportConfig(o)
	if err != nil {
		return nil, err
	}
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	cfg = withSource(cfg, r)
	// The cluster's facts after the report are read on the run's clock too.
	ctx, cancel := r.env.Clock.Bound(ctx)
	defer cancel()
	env := r.env
	rec := snapshot.Record(env.Source)
	env.Source = rec
	clock := env.Now
	if clock == nil {
		clock = time.Now
	}
	var taken time.Time
	env.Now = func() time.Time { taken = clock(); return taken }
	res, err := ReportWith(ctx, cfg, env)
	if err != nil {
		return nil, err
	}
	doc, err := json.MarshalIndent(res.Report, "", "  ")
	if err != nil {
		return nil, err
	}
	sc := cfg.Scope
	s := rec.Snapshot(ctx, snapshot.Manifest{Taken: taken, Plugin: version.Get(), Interval: cfg.Read.Interval.String(),
		Scope: snapshot.Scope{Cluster: sc.Cluster, Namespace: sc.Namespace, Selector: sc.Selector}})
	s.Report = append(doc, '\n')
	out := &Recorded{ReportResult: res, Snapshot: s}
	if sc.Cluster && p.Spec.FromSnapshot == "" {
		out.Notes = snapshotFacts(ctx, p, s, taken)
	}
	return out, nil
}

// snapshotFacts adds the API server's version and the pods' recent Warning events; it returns
// what could not be read, as warnings.
func snapshotFacts(ctx context.Context, p Plan, s *snapshot.Snapshot, now time.Time) []string {
	kube, err := Connect(p.Inputs.Kubeconfig, p.Spec.Timeout)
	if err != nil {
		return []string{err.Error()}
	}
	client := kube.Client
	s.Manifest.APIServer = snapshot.ServerVersion(client)
	var notes []string
	s.Events, notes = snapshot.RecentEvents(ctx, client, s.Inventory.Pods, now, snapshotEventsSince)
	return notes
}

// Save writes the snapshot to file, or to stdout for "-", and returns what to say of it.
func (r *Recorded) Save(file string, stdout io.Writer) (string, error) {
	s := r.Snapshot
	pages := len(s.Pages)
	if file == "-" {
		if err := s.Write(stdout); err != nil {
			return "", fmt.Errorf("cannot write the snapshot to standard output: %w", err)
		}
		return fmt.Sprintf("Snapshot of %s (%s) written to standard output.", printable.Plural(len(s.Results), "target"), printable.Plural(pages, "page")), nil
	}
	if err := s.Save(file); err != nil {
		if nr := (*localfile.NotRegularError)(nil); errors.As(err, &nr) {
			return "", fmt.Errorf("cannot write the snapshot: %w, or -f - for standard output", err)
		}
		return "", fmt.Errorf("cannot write the snapshot: %w", err)
	}
	return fmt.Sprintf("Snapshot of %s (%s) written to %s: attach it to the ticket; `kubectl ctrldiag report --from-snapshot %s` reads it anywhere.",
		printable.Plural(len(s.Results), "target"), printable.Plural(pages, "page"), file, file), nil
}
