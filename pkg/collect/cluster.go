package collect

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/replicas"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// cluster answers what the metrics pages do not hold from the API server: generation lag,
// the metrics API's usage and Lease holders.
type cluster struct {
	kube *Kube
	dyn  dynamic.Interface
}

var _ source.Cluster = (*cluster)(nil)

// dynamic returns the dynamic client, made once.
func (c *cluster) dynamic() (dynamic.Interface, error) {
	if c.dyn == nil {
		dyn, err := dynamic.NewForConfig(c.kube.Config)
		if err != nil {
			return nil, fmt.Errorf("kubeconfig: %w", err)
		}
		c.dyn = dyn
	}
	return c.dyn, nil
}

// Generations checks the objects of resources whose status trails their spec. A dynamic client
// that cannot be made gives one report row saying so.
func (c *cluster) Generations(ctx context.Context, ns string, resources []schema.GroupVersionResource) []cachesync.GenerationReport {
	dyn, err := c.dynamic()
	if err != nil {
		return []cachesync.GenerationReport{{Resource: "all", Error: err.Error()}}
	}
	return cachesync.Generations(ctx, dyn, ns, resources)
}

// Objects resolves the controllers' kinds through API discovery and summarizes their objects.
// Discovery that fails for some API groups still resolves the kinds of the others.
func (c *cluster) Objects(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind) objects.View {
	var v objects.View
	dyn, err := c.dynamic()
	if err != nil {
		v.Notes = append(v.Notes, err.Error())
		return v
	}
	resources, err := c.kube.Client.Discovery().ServerPreferredResources()
	if err != nil {
		if len(resources) == 0 {
			v.Notes = append(v.Notes, "API discovery failed, so the controllers' kinds are unknown: "+err.Error())
			return v
		}
		v.Notes = append(v.Notes, "API discovery was partial: "+err.Error())
	}
	bindings, notes := objects.Resolve(controllers, resources, overrides)
	v.Notes = append(v.Notes, notes...)
	v.Kinds = objects.Read(ctx, dyn, bindings, ns, time.Now())
	return v
}

// LeaseHolders lists the holders of the namespaces' Leases, where they may be listed.
func (c *cluster) LeaseHolders(ctx context.Context, namespaces []string) []replicas.Holder {
	return replicas.LeaseHolders(ctx, c.kube.Client, namespaces)
}

// Usage reads metrics.k8s.io once per namespace.
func (c *cluster) Usage(ctx context.Context, namespaces []string) (map[string]source.Usage, string) {
	usage := map[string]source.Usage{}
	for _, ns := range namespaces {
		raw, err := c.kube.Client.CoreV1().RESTClient().Get().AbsPath("/apis/metrics.k8s.io/v1beta1/namespaces", ns, "pods").DoRaw(ctx)
		if apierrors.IsNotFound(err) {
			return nil, "metrics.k8s.io is not served in this cluster (no metrics-server)"
		}
		if err != nil {
			return nil, "metrics.k8s.io: " + err.Error()
		}
		var list struct {
			Items []struct {
				Metadata   struct{ Name, Namespace string }
				Containers []struct {
					Usage map[string]string
				}
			}
		}
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, "metrics.k8s.io: " + err.Error()
		}
		for _, it := range list.Items {
			var u source.Usage
			for _, c := range it.Containers {
				if q, err := resource.ParseQuantity(c.Usage["cpu"]); err == nil {
					u.CPUCores += q.AsApproximateFloat64()
				}
				if q, err := resource.ParseQuantity(c.Usage["memory"]); err == nil {
					u.MemoryBytes += q.AsApproximateFloat64()
				}
			}
			usage[it.Metadata.Namespace+"/"+it.Metadata.Name] = u
		}
	}
	return usage, ""
}
