package collect

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

var _ source.LogReader = (*Pages)(nil)

// Log reads the recent log of the container that serves a pod target's metrics. Saved pages,
// URLs and the API server have none: nil.
func (p *Pages) Log(ctx context.Context, t model.Target, req logs.PodLogRequest) *logs.Log {
	if p.k == nil || t.Target.Kind != target.KindPod || t.Pod == nil {
		return nil
	}
	req.Namespace, req.Pod, req.Container = t.Pod.Namespace, t.Pod.Name, t.Target.Container
	return logs.ReadPodLog(ctx, p.k.Client, req)
}
