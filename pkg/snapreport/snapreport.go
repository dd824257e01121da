// Package snapreport makes the report of a snapshot from what it holds: its targets, pages and
// cluster answers, at the time it was taken. It is the one way `report --from-snapshot` and
// `diff` read a snapshot, so that the two always say the same of one file; the report the
// snapshot stores (report.json) is only checked against it (Agrees), never trusted instead.
package snapreport

import (
	"context"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapshot"
)

// Env is where a report of s reads from, the snapshot's pages and answers, dated when it was
// taken; and Scope the scope it was taken in.
func Env(s *snapshot.Snapshot) (engine.Env, engine.Scope) {
	taken := s.Manifest.Taken
	sc := s.Manifest.Scope
	env := engine.Env{Source: snapshot.NewReplay(s), Now: func() time.Time { return taken }}
	return env, engine.Scope{Cluster: sc.Cluster, Namespace: sc.Namespace, Selector: sc.Selector}
}

// Report makes the report of s from its pages with cfg, in the snapshot's scope.
func Report(ctx context.Context, s *snapshot.Snapshot, cfg engine.ReportConfig) (*engine.ReportResult, error) {
	env, scope := Env(s)
	cfg.Scope = scope
	return engine.Report(ctx, cfg, env)
}
