package objects

import (
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kind is a kind of object and the resource that lists it.
type Kind struct {
	Group      string `json:"group"`
	Version    string `json:"version"`
	Kind       string `json:"kind"`
	Resource   string `json:"resource"`
	Namespaced bool   `json:"namespaced"`
	// NoStatusSubresource says API discovery of its group version lists no RESOURCE/status
	// (MarkStatusSubresources): the status is written in the main resource, and for a custom
	// resource every such write bumps metadata.generation, so status.observedGeneration always
	// trails it and the spec latency is not measurable.
	NoStatusSubresource bool `json:"noStatusSubresource,omitempty"`
}

// GVR is the resource to list.
func (k Kind) GVR() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}
}

// GroupResource is the resource as RBAC and kubectl name it: "workloads.demo.ctrldiag.dev",
// "deployments.apps", "namespaces".
func (k Kind) GroupResource() string {
	return schema.GroupResource{Group: k.Group, Resource: k.Resource}.String()
}

// Controller is one controller read from a target's metrics.
type Controller struct {
	// Target is the ID of the target that runs it; Name its controller or queue name.
	Target, Name string
	// Runtime is the kind of controller the target runs ("controller-runtime",
	// "kube-controller-manager", "kube-apiserver", "client-go", "cert-manager"): it decides how
	// a name maps to a kind.
	Runtime string
	// Unsure, with ServiceAccount, says why the controller is kept in its namespace although it
	// may not be: a WATCH_NAMESPACE whose value could not be had (a Secret, a ConfigMap that
	// may not be read). Its kinds are not widened; a note says so when its RBAC would.
	Unsure string
	// ClusterWide says the controller reconciles its kind in every namespace, not only its
	// own (kube-controller-manager; an operator recognised by pkg/facts/knobs whose flags do not
	// restrict it to namespaces).
	ClusterWide bool
	// ServiceAccount, "namespace/name", is the ServiceAccount of the controller's pod when
	// neither its kind of controller nor its flags decide whether it is cluster-wide: its
	// ClusterRoleBindings do, kind by kind ("" when something else decided).
	ServiceAccount string
}

// Binding is a controller and the kind it reconciles.
type Binding struct {
	Controller Controller
	Kind       Kind
}

// kubeControllerManager maps kube-controller-manager's queue names to the kinds their
// controllers reconcile. Its other queues (garbage collector, quotas, endpoints, volumes, ...)
// do not reconcile one kind with a status.
var kubeControllerManager = map[string]schema.GroupKind{
	"deployment":         {Group: "apps", Kind: "Deployment"},
	"replicaset":         {Group: "apps", Kind: "ReplicaSet"},
	"daemonset":          {Group: "apps", Kind: "DaemonSet"},
	"statefulset":        {Group: "apps", Kind: "StatefulSet"},
	"replicationmanager": {Kind: "ReplicationController"},
	"job":                {Group: "batch", Kind: "Job"},
	"cronjob":            {Group: "batch", Kind: "CronJob"},
	"namespace":          {Kind: "Namespace"},
}

// certManager maps cert-manager's controller names to the kinds whose status they set. Several
// of its controllers work each Certificate; certificates-readiness sets its Ready condition.
var certManager = map[string]schema.GroupKind{
	"issuers":                {Group: "cert-manager.io", Kind: "Issuer"},
	"clusterissuers":         {Group: "cert-manager.io", Kind: "ClusterIssuer"},
	"certificates-readiness": {Group: "cert-manager.io", Kind: "Certificate"},
	"orders":                 {Group: "acme.cert-manager.io", Kind: "Order"},
	"challenges":             {Group: "acme.cert-manager.io", Kind: "Challenge"},
}

// tables are the controllers whose names map to kinds by a table, by Controller.Runtime.
var tables = map[string]map[string]schema.GroupKind{
	"kube-controller-manager": kubeControllerManager,
	"cert-manager":            certManager,
}

// ParseOverride reads NAME=GROUP/KIND (NAME=KIND, or NAME=/KIND, for the core group): the
// controller called NAME reconciles that kind.
func ParseOverride(s string) (name string, gk schema.GroupKind, err error) {
	name, kind, ok := strings.Cut(s, "=")
	name, kind = strings.TrimSpace(name), strings.TrimSpace(kind)
	if !ok || name == "" || kind == "" {
		return "", gk, fmt.Errorf("--controller-kind %q: want NAME=GROUP/KIND, e.g. gitrepository=source.toolkit.fluxcd.io/GitRepository (NAME=KIND for the core group)", s)
	}
	if group, k, ok := strings.Cut(kind, "/"); ok {
		gk = schema.GroupKind{Group: group, Kind: k}
	} else {
		gk = schema.GroupKind{Kind: kind}
	}
	if gk.Kind == "" || strings.Contains(gk.Kind, "/") {
		return "", gk, fmt.Errorf("--controller-kind %q: want NAME=GROUP/KIND, e.g. gitrepository=source.toolkit.fluxcd.io/GitRepository", s)
	}
	return name, gk, nil
}

// Resolve binds each controller to the kind it reconciles: an override by its name first;
// then, for kube-controller-manager and cert-manager, the built-in table of their controllers; then, for other
// controllers but the API server's, the kind whose lowercase name is the controller's name
// (controller-runtime names a controller after the lowercase kind of For()), ignoring "-", "_"
// and ".". resources is API discovery's preferred resources. A name that matches kinds of
// several groups is left unbound, and a note says how to choose; so is an override of a kind
// the API server does not serve.
func Resolve(controllers []Controller, resources []*metav1.APIResourceList, overrides map[string]schema.GroupKind) ([]Binding, []string) {
	byGK := map[schema.GroupKind]Kind{}
	byName := map[string][]Kind{}
	for _, list := range resources {
		gv, err := schema.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") || !hasVerb(r.Verbs, "list") {
				continue
			}
			k := Kind{Group: gv.Group, Version: gv.Version, Kind: r.Kind, Resource: r.Name, Namespaced: r.Namespaced}
			gk := schema.GroupKind{Group: gv.Group, Kind: r.Kind}
			if _, seen := byGK[gk]; seen {
				continue
			}
			byGK[gk] = k
			byName[normalize(r.Kind)] = append(byName[normalize(r.Kind)], k)
		}
	}
	var out []Binding
	var notes []string
	noted := map[string]bool{}
	note := func(s string) {
		if !noted[s] {
			noted[s] = true
			notes = append(notes, s)
		}
	}
	for _, c := range controllers {
		if gk, ok := overrides[c.Name]; ok {
			if k, ok := byGK[gk]; ok {
				out = append(out, Binding{Controller: c, Kind: k})
			} else {
				note(fmt.Sprintf("--controller-kind %s=%s: the API server serves no such kind", c.Name, gkString(gk)))
			}
			continue
		}
		switch c.Runtime {
		case "kube-apiserver":
			continue
		case "kube-controller-manager", "cert-manager":
			if gk, ok := tables[c.Runtime][c.Name]; ok {
				if k, ok := byGK[gk]; ok {
					out = append(out, Binding{Controller: c, Kind: k})
				}
			}
			continue
		}
		switch ks := byName[normalize(c.Name)]; len(ks) {
		case 0:
		case 1:
			out = append(out, Binding{Controller: c, Kind: ks[0]})
		default:
			var names []string
			for _, k := range ks {
				names = append(names, gkString(schema.GroupKind{Group: k.Group, Kind: k.Kind}))
			}
			sort.Strings(names)
			note(fmt.Sprintf("controller %s may reconcile any of %s: name its kind with --controller-kind %s=GROUP/KIND",
				c.Name, strings.Join(names, ", "), c.Name))
		}
	}
	return out, notes
}

func hasVerb(verbs []string, v string) bool {
	for _, x := range verbs {
		if x == v {
			return true
		}
	}
	return false
}

// normalize lowercases a name and drops "-", "_" and ".".
func normalize(s string) string {
	return strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(s))
}

// gkString is GROUP/KIND, or KIND in the core group.
func gkString(gk schema.GroupKind) string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Group + "/" + gk.Kind
}
