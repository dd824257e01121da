package collect

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// cluster answers what the metrics pages do not hold from the API server: generation lag,
// the metrics API's usage and Lease holders.
type cluster struct {
	kube *Kube
	dyn  dynamic.Interface

	mu sync.Mutex
	// resources and discoveryErr are API discovery's answer, asked once.
	resources    []*metav1.APIResourceList
	discoveryErr error
	discovered   bool
	// groupVersions are the full discovery lists (subresources included) of the controllers'
	// kinds' group versions, asked once each; nil when the answer failed.
	groupVersions map[schema.GroupVersion]*metav1.APIResourceList
	// watches count the changes of the kinds WatchChanges was asked for, until Objects.
	watches map[objects.Kind]*objects.ChangeWatch
	// mayListAll are the access reviews' answers: may the user list a kind in all namespaces.
	mayListAll map[objects.Kind]bool
	// rbac reads the ClusterRoleBindings once, for the controllers left to their
	// ServiceAccount's RBAC.
	rbac *apiserver.GrantReader
	// nsList is the namespaces listed once for the kinds read namespace by namespace.
	nsList *namespaceList
	// each are mayListEach's answers by kind: the namespaces the user may list it in.
	each map[objects.Kind]namespaceList
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

// discovery returns API discovery's answer, asked once.
func (c *cluster) discovery() ([]*metav1.APIResourceList, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.discovered {
		c.resources, c.discoveryErr = c.kube.Client.Discovery().ServerPreferredResources()
		c.discovered = true
	}
	return c.resources, c.discoveryErr
}

// bindings resolves the controllers' kinds; notes say what discovery could not do.
func (c *cluster) bindings(controllers []objects.Controller, overrides map[string]schema.GroupKind) ([]objects.Binding, []string) {
	resources, err := c.discovery()
	var notes []string
	if err != nil {
		if len(resources) == 0 {
			return nil, []string{"API discovery failed, so the controllers' kinds are unknown: " + err.Error()}
		}
		notes = append(notes, "API discovery was partial: "+err.Error())
	}
	bindings, more := objects.Resolve(controllers, resources, overrides)
	objects.MarkStatusSubresources(bindings, c.groupVersionLists(objects.GroupVersions(bindings)))
	return bindings, append(notes, more...)
}

// groupVersionLists are the full discovery lists of gvs, each asked once (the preferred
// resources leave the subresources out); one that fails is nil, and its kinds stay unmarked.
func (c *cluster) groupVersionLists(gvs []schema.GroupVersion) []*metav1.APIResourceList {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.groupVersions == nil {
		c.groupVersions = map[schema.GroupVersion]*metav1.APIResourceList{}
	}
	out := make([]*metav1.APIResourceList, 0, len(gvs))
	for _, gv := range gvs {
		l, asked := c.groupVersions[gv]
		if !asked {
			var err error
			if l, err = c.kube.Client.Discovery().ServerResourcesForGroupVersion(gv.String()); err != nil {
				l = nil
			}
			c.groupVersions[gv] = l
		}
		out = append(out, l)
	}
	return out
}

// WatchChanges starts counting the changes of the kinds the controllers reconcile, each kind
// once; Objects stops the counts and gives them with the kinds' summaries.
func (c *cluster) WatchChanges(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind, objective time.Duration) {
	dyn, err := c.dynamic()
	if err != nil {
		return // Objects says why
	}
	bindings, _ := c.bindings(controllers, overrides)
	places, _ := objects.Place(ctx, bindings, ns, c.mayList, c.byRBAC, c.mayListEach)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watches == nil {
		c.watches = map[objects.Kind]*objects.ChangeWatch{}
	}
	for _, b := range bindings {
		if c.watches[b.Kind] == nil {
			c.watches[b.Kind] = objects.WatchChangesIn(ctx, dyn, b.Kind, places.In(b.Kind), objective)
		}
	}
}

// Objects resolves the controllers' kinds through API discovery and summarizes their objects,
// with the changes counted, the spec latency and the time to Ready measured since WatchChanges. Discovery that fails for some API groups still
// resolves the kinds of the others.
func (c *cluster) Objects(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind) objects.View {
	var v objects.View
	dyn, err := c.dynamic()
	if err != nil {
		v.Notes = append(v.Notes, err.Error())
		return v
	}
	bindings, notes := c.bindings(controllers, overrides)
	v.Notes = append(v.Notes, notes...)
	c.mu.Lock()
	watches := c.watches
	c.watches = nil
	c.mu.Unlock()
	changes := map[objects.Kind]objects.Changes{}
	specs := map[objects.Kind]*objects.SpecLatency{}
	ready := map[objects.Kind]*objects.TimeToReady{}
	for k, w := range watches {
		changes[k], specs[k], ready[k] = w.Stop()
	}
	places, more := objects.Place(ctx, bindings, ns, c.mayList, c.byRBAC, c.mayListEach)
	kinds, capped := objects.Read(ctx, dyn, bindings, places, time.Now())
	v.Kinds, v.Notes = kinds, append(append(v.Notes, more...), capped...)
	for i := range v.Kinds {
		if ch, ok := changes[v.Kinds[i].Kind]; ok {
			v.Kinds[i].Changes = &ch
			v.Kinds[i].SpecLatency = specs[v.Kinds[i].Kind]
			v.Kinds[i].TimeToReady = ready[v.Kinds[i].Kind]
		}
	}
	return v
}

// mayList asks, once per kind, whether the user may list its objects in all namespaces.
func (c *cluster) mayList(ctx context.Context, k objects.Kind) (bool, error) {
	c.mu.Lock()
	ok, asked := c.mayListAll[k]
	c.mu.Unlock()
	if asked {
		return ok, nil
	}
	missing, err := access.Missing(ctx, c.kube.Client, []access.Permission{{Verb: "list", Group: k.Group, Resource: k.Resource,
		For: "to read the objects a cluster-wide controller reconciles"}})
	if err != nil {
		return false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mayListAll == nil {
		c.mayListAll = map[objects.Kind]bool{}
	}
	c.mayListAll[k] = len(missing) == 0
	return len(missing) == 0, nil
}

// byRBAC asks the ClusterRoleBindings, read once, whether they let the ServiceAccount list or
// watch the kind in every namespace, and says which does.
func (c *cluster) byRBAC(ctx context.Context, account string, k objects.Kind) (string, error) {
	c.mu.Lock()
	if c.rbac == nil {
		c.rbac = apiserver.NewGrantReader(c.kube.Client)
	}
	r := c.rbac
	c.mu.Unlock()
	g, ok, err := r.Grant(ctx, account, k.Group, k.Resource)
	if err != nil || !ok {
		return "", err
	}
	return g.Why(), nil
}

// workloadResources are the workload kinds whose objects' annotations are read, by the
// lowercase kind a target's Workload names.
var workloadResources = map[string]schema.GroupVersionResource{
	"deployment":  {Group: "apps", Version: "v1", Resource: "deployments"},
	"statefulset": {Group: "apps", Version: "v1", Resource: "statefulsets"},
	"daemonset":   {Group: "apps", Version: "v1", Resource: "daemonsets"},
	"replicaset":  {Group: "apps", Version: "v1", Resource: "replicasets"},
}

// WorkloadAnnotation gets each workload object once. A workload that is gone is skipped; one
// that may not be read is a warning (once per resource and namespace).
func (c *cluster) WorkloadAnnotation(ctx context.Context, key string, workloads []string) (map[string]string, []string) {
	dyn, err := c.dynamic()
	if err != nil {
		return nil, []string{err.Error()}
	}
	values := map[string]string{}
	var warnings []string
	warned := map[string]bool{}
	for _, w := range workloads {
		parts := strings.SplitN(w, "/", 3)
		if len(parts) != 3 {
			continue
		}
		gvr, ok := workloadResources[parts[1]]
		if !ok {
			continue
		}
		u, err := dyn.Resource(gvr).Namespace(parts[0]).Get(ctx, parts[2], metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			where := gvr.Resource + "." + gvr.Group + " in namespace " + parts[0]
			if !warned[where] {
				warned[where] = true
				msg := err.Error()
				if apierrors.IsForbidden(err) {
					msg = "needs RBAC verb get on " + gvr.Resource + "." + gvr.Group
				}
				warnings = append(warnings, fmt.Sprintf("the %s annotations of %s were not read: %s", key, where, msg))
			}
			continue
		}
		if v, ok := u.GetAnnotations()[key]; ok {
			values[w] = v
		}
	}
	return values, warnings
}

// FlowSchemas reads the API Priority and Fairness FlowSchemas, where they may be listed.
func (c *cluster) FlowSchemas(ctx context.Context) apiserver.FlowControl {
	return apiserver.ReadFlowSchemas(ctx, c.kube.Client)
}

// Admission reads the admission webhook configurations, where they may be listed.
func (c *cluster) Admission(ctx context.Context) apiserver.Admission {
	return apiserver.ReadWebhooks(ctx, c.kube.Client)
}

// OwnedKinds resolves the kinds the webhooks intercept through API discovery and lists one
// page of each one's metadata where the owners' objects were read, each list access-reviewed
// first.
func (c *cluster) OwnedKinds(ctx context.Context, hooks []apiserver.Webhook, owners []apiserver.Owner) apiserver.Ownership {
	if len(hooks) == 0 || len(owners) == 0 {
		return apiserver.Ownership{}
	}
	resources, err := c.discovery()
	var notes []string
	if err != nil {
		if len(resources) == 0 {
			return apiserver.Ownership{Notes: []string{"API discovery failed, so the kinds slow webhooks intercept were not probed for owners: " + err.Error()}}
		}
		notes = append(notes, "API discovery was partial: "+err.Error())
	}
	kinds, more := apiserver.ProbeKinds(hooks, resources, apiserver.MaxProbeKinds)
	notes = append(notes, more...)
	meta, err := metadata.NewForConfig(c.kube.Config)
	if err != nil {
		return apiserver.Ownership{Notes: append(notes, fmt.Sprintf("kubeconfig: %v", err))}
	}
	o := apiserver.Probe(ctx, meta, kinds, owners, c.mayListIn)
	o.Notes = append(notes, o.Notes...)
	return o
}

// mayListIn asks whether the user may list a kind's objects in namespace ns ("" for all).
func (c *cluster) mayListIn(ctx context.Context, k apiserver.ProbeKind, ns string) (bool, error) {
	missing, err := access.Missing(ctx, c.kube.Client, []access.Permission{{Verb: "list", Group: k.Group, Resource: k.Resource, Namespace: ns,
		For: "to find the kinds controllers own, that a slow webhook intercepts"}})
	if err != nil {
		return false, err
	}
	return len(missing) == 0, nil
}

// LeaseHolders lists the holders of the namespaces' Leases, where they may be listed.
func (c *cluster) LeaseHolders(ctx context.Context, namespaces []string) []model.Holder {
	return model.LeaseHolders(ctx, c.kube.Client, namespaces)
}

// Usage reads metrics.k8s.io once per namespace.
func (c *cluster) Usage(ctx context.Context, namespaces []string) (map[string]source.PodUsage, string) {
	used := map[string]source.PodUsage{}
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
			var u source.PodUsage
			for _, c := range it.Containers {
				if q, err := resource.ParseQuantity(c.Usage["cpu"]); err == nil {
					u.CPUCores += q.AsApproximateFloat64()
				}
				if q, err := resource.ParseQuantity(c.Usage["memory"]); err == nil {
					u.MemoryBytes += q.AsApproximateFloat64()
				}
			}
			used[it.Metadata.Namespace+"/"+it.Metadata.Name] = u
		}
	}
	return used, ""
}
