package run

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// ProfileConfig says whether and how report reads the goroutine dumps of targets whose
// workers are stuck, slow or saturated.
type ProfileConfig struct {
	// Off is --no-profile: no dump is read.
	Off bool
	// Port is --pprof-port: the pods' port that serves pprof (0: found from the pod).
	Port int32
	// Bounds bound each fetch (zero: goroutines.DefaultBounds).
	Bounds goroutines.Bounds
}

// profiledChecks are the findings whose targets' dumps are read: the workers are blocked,
// slow or all busy, and the dump says where.
var profiledChecks = map[string]bool{"stuck-worker": true, "slow-reconcile": true, "workers-saturated": true}

// profileWorkers reads, once per target, the goroutine dump of the targets read whose queues
// show stuck, slow or saturated workers (in fs, d's findings judged without the
// suppressions), and makes it a fact of the target in d. The targets are those the run read
// (the ones the user selected), never others. A controller that exports no queue figures and
// whose workers only its dump counts (findings.WorkersInDump) has its dump read too, when its
// pod names the endpoint. It reports whether it read any: d's findings are then to be judged
// again, with the dumps.
func profileWorkers(ctx context.Context, env Env, cfg ProfileConfig, timeout time.Duration, d *report.Draft, fs []findings.Finding) bool {
	prof, ok := env.Source.(source.Profiler)
	targets := d.Targets()
	if !ok || cfg.Off || !slices.ContainsFunc(targets, profilable) {
		return false
	}
	want := map[string]bool{}
	for _, f := range fs {
		if profiledChecks[f.Check] {
			want[f.Target] = true
		}
	}
	var picked []int
	for i, t := range targets {
		if t.Read() && (want[t.ID()] || findings.WorkersInDump(t) && named(t, cfg)) {
			picked = append(picked, i)
		}
	}
	if len(picked) == 0 {
		return false
	}
	// Bounded like a page: the time of one read (--timeout), and a size cap of its own.
	b := cfg.Bounds
	if b.Timeout <= 0 || b.MaxBytes <= 0 {
		b = goroutines.DefaultBounds()
		if timeout > 0 {
			b.Timeout = timeout
		}
	}
	line := env.progress(fmt.Sprintf("Reading the goroutine dump of %s", printable.Plural(len(picked), "target")), len(picked))
	defer line.Stop()
	for _, i := range picked {
		if ctx.Err() != nil {
			break
		}
		t := targets[i]
		d.SetGoroutines(i, prof.Goroutines(ctx, t, wantOf(&t, cfg), b))
		line.Step()
	}
	return true
}

// named says whether t's pod names a pprof endpoint (a port or an address in its arguments),
// or the user did (--pprof-port): a controller whose dump is read without a finding asking for
// it is asked only there, and one that serves none says nothing.
func named(t model.Target, cfg ProfileConfig) bool {
	_, _, ok := goroutines.Endpoint(t.Target, t.Pod, goroutines.Want{Port: cfg.Port})
	return ok && t.Target.Kind == target.KindPod
}

// profilable says whether t may have a goroutine dump: a pod or the API server that was read
// (saved pages and URLs have no pod to find an endpoint on).
func profilable(t model.Target) bool {
	return t.Read() && (t.Target.Kind == target.KindPod || t.Target.Kind == target.KindAPIServer)
}

// wantOf is how to find t's pprof endpoint: the user's port, or the secure port of the
// processes that serve /debug/pprof beside their metrics.
func wantOf(t *model.Target, cfg ProfileConfig) goroutines.Want {
	k := findings.KindOf(t.Last(), t.PodLabels())
	return goroutines.Want{Port: cfg.Port, BesideMetrics: k == findings.KubeControllerManager || k == findings.KubeAPIServer}
}
