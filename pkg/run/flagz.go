package run

import (
	"context"
	"fmt"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// readFlagz reads, once per target, the flags of its knobs from the /flagz of each
// kube-controller-manager read, and makes them a fact of the target: the workers and client
// limits it really runs with, defaults included, where its pod's arguments do not say. It
// stops when ctx ends (the overall deadline).
func readFlagz(ctx context.Context, env Env, timeout time.Duration, in report.Input) {
	fr, ok := env.Source.(source.FlagzReader)
	if !ok {
		return
	}
	var picked []int
	keep := map[int][]string{}
	for i, t := range in.Targets {
		if !t.Read() || findings.KindOf(t.Last(), t.PodLabels()) != findings.KubeControllerManager {
			continue
		}
		if names := knobFlags(t); len(names) > 0 {
			picked, keep[i] = append(picked, i), names
		}
	}
	if len(picked) == 0 {
		return
	}
	line := env.progress(fmt.Sprintf("Reading the flags of %s", printable.Plural(len(picked), "controller manager")), len(picked))
	defer line.Stop()
	for _, i := range picked {
		if ctx.Err() != nil {
			return
		}
		in.Targets[i].Flagz = fr.Flagz(ctx, in.Targets[i], keep[i], timeout)
		line.Step()
	}
}

// knobFlags are the flags of the knobs of the controller t is, without dashes.
func knobFlags(t model.Target) []string {
	last := t.Last()
	s := knobs.Seen{Families: last.Families}
	for name := range last.Queues {
		s.Queues = append(s.Queues, name)
	}
	m, ok := knobs.Recognise(s)
	if !ok {
		return nil
	}
	return m.FlagNames()
}
