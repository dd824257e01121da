package collect

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
)

// Events reads the Warning events of the controllers: those their components report and
// those on objects of the kinds they reconcile (resolved as Objects resolves them). A
// controller left to its ServiceAccount's RBAC is cluster-wide, for its events too, when its
// ClusterRoleBindings let it list or watch one of its kinds in every namespace (as Objects
// decides; a decision that cannot be made leaves it in the namespace, Objects says why).
func (c *cluster) Events(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind, since time.Time) events.View {
	req := events.Request{Namespace: ns, Since: since, Candidates: func(ctx context.Context) ([]string, int, error) {
		l := c.namespaces(ctx, ns)
		return l.names, l.more, l.err
	}}
	kinds := map[string][]events.Kind{}
	wide := map[string]bool{}
	if bindings, _ := c.bindings(controllers, overrides); len(bindings) > 0 {
		for _, b := range bindings {
			id := b.Controller.Target + " " + b.Controller.Name
			kinds[id] = append(kinds[id], events.Kind{Group: b.Kind.Group, Kind: b.Kind.Kind})
			if ns != "" && b.Kind.Namespaced && !b.Controller.ClusterWide && b.Controller.ServiceAccount != "" && b.Controller.Unsure == "" {
				if why, _ := c.byRBAC(ctx, b.Controller.ServiceAccount, b.Kind); why != "" {
					wide[id] = true
				}
			}
		}
	}
	for _, ctl := range controllers {
		if ctl.Runtime == "kube-apiserver" {
			continue
		}
		id := ctl.Target + " " + ctl.Name
		req.Controllers = append(req.Controllers, events.Controller{ID: id, Components: events.Components(ctl.Runtime, ctl.Name), Kinds: kinds[id]})
		if ctl.ClusterWide || wide[id] {
			req.ClusterWide = append(req.ClusterWide, ctl.Target)
		}
	}
	return events.Read(ctx, c.kube.Client, req)
}
