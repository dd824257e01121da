package run

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// probeOwnedKinds runs the owner-reference probe when an API server's page shows a slow or
// rejecting webhook: the kinds it intercepts are listed (one page each, where the
// controllers' objects were read) for objects a controller owns, and what it finds goes into
// adm, so that the webhook is tied to the controllers whose children it intercepts.
// kube-controller-manager's writes are known without it.
func probeOwnedKinds(ctx context.Context, cluster source.Cluster, targets []model.Target, view *objects.View, adm *apiserver.Admission, th findings.Thresholds) {
	hooks := slowWebhooks(targets, adm, th)
	if len(hooks) == 0 {
		return
	}
	owners := ownersOf(report.Controllers(targets), view)
	if len(owners) == 0 {
		return
	}
	o := cluster.OwnedKinds(ctx, hooks, owners)
	adm.Ownership = &o
}

// slowWebhooks are the webhooks that were slow or rejected calls over the window of the API
// servers read, each once.
func slowWebhooks(targets []model.Target, adm *apiserver.Admission, th findings.Thresholds) []apiserver.Webhook {
	var out []apiserver.Webhook
	seen := map[string]bool{}
	for _, t := range targets {
		cur := t.Last()
		if cur == nil || len(t.Snapshots) < 2 || t.Target.Kind != target.KindAPIServer && findings.KindOf(cur, t.PodLabels()) != findings.KubeAPIServer {
			continue
		}
		for _, h := range findings.WebhooksToProbe(findings.Target{Kind: findings.KubeAPIServer, Prev: t.First(), Cur: cur, Admission: adm}, th) {
			if k := h.Configuration + "\x00" + h.Name; !seen[k] {
				seen[k] = true
				out = append(out, h)
			}
		}
	}
	return out
}

// ownersOf are the controllers whose reconciled kind is known, with where its objects were
// read, but kube-controller-manager's and the API server's.
func ownersOf(controllers []objects.Controller, view *objects.View) []apiserver.Owner {
	var out []apiserver.Owner
	for _, c := range controllers {
		if c.Runtime == string(findings.KubeControllerManager) || c.Runtime == string(findings.KubeAPIServer) {
			continue
		}
		sum := view.Of(c.Target, c.Name)
		if sum == nil || sum.Kind.Kind == "" {
			continue
		}
		out = append(out, apiserver.Owner{Controller: c.Target + " " + c.Name, Group: sum.Kind.Group, Kind: sum.Kind.Kind, Namespace: sum.Namespace})
	}
	return out
}
