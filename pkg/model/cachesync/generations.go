package cachesync

import (
	"context"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// DefaultGenerationResources are checked for generation lag: the built-in workloads and the
// reference operator's Workloads (skipped quietly where the API does not exist).
var DefaultGenerationResources = []schema.GroupVersionResource{
	{Group: "apps", Version: "v1", Resource: "deployments"},
	{Group: "apps", Version: "v1", Resource: "statefulsets"},
	{Group: "apps", Version: "v1", Resource: "daemonsets"},
	{Group: "demo.ctrldiag.dev", Version: "v1alpha1", Resource: "workloads"},
}

// Generation is one object whose controller has not yet observed its latest spec.
type Generation struct {
	Namespace          string `json:"namespace"`
	Name               string `json:"name"`
	Generation         int64  `json:"generation"`
	ObservedGeneration int64  `json:"observedGeneration"`
}

// GenerationReport is the generation lag of one resource type.
type GenerationReport struct {
	Resource string       `json:"resource"`
	Checked  int          `json:"checked"`
	Lagging  []Generation `json:"lagging,omitempty"`
	// StillLagging are objects that lagged in both samples (at least the window).
	StillLagging int    `json:"stillLagging"`
	Error        string `json:"error,omitempty"`
}

// Generations lists each resource in ns ("" = all) in pages and reports the objects whose
// observedGeneration trails their generation. A resource the API server does not serve is
// left out; one that may not be listed is reported with the error.
func Generations(ctx context.Context, dyn dynamic.Interface, ns string, resources []schema.GroupVersionResource) []GenerationReport {
	var out []GenerationReport
	for _, gvr := range resources {
		r := GenerationReport{Resource: gvr.GroupResource().String()}
		opts := metav1.ListOptions{Limit: 500}
		for {
			list, err := dyn.Resource(gvr).Namespace(ns).List(ctx, opts)
			if apierrors.IsNotFound(err) {
				r.Error = "not served"
				break
			}
			if err != nil {
				r.Error = fmt.Sprintf("list %s: %v", r.Resource, err)
				break
			}
			for i := range list.Items {
				r.Checked++
				if g, ok := lagging(&list.Items[i]); ok {
					r.Lagging = append(r.Lagging, g)
				}
			}
			if list.GetContinue() == "" {
				break
			}
			opts.Continue = list.GetContinue()
		}
		if r.Error == "not served" {
			continue
		}
		sort.Slice(r.Lagging, func(a, b int) bool {
			return r.Lagging[a].Namespace+"/"+r.Lagging[a].Name < r.Lagging[b].Namespace+"/"+r.Lagging[b].Name
		})
		out = append(out, r)
	}
	return out
}

// Still is cur with each report's StillLagging counting the objects that lagged in prev as
// well (same object, same generation); cur itself is left as it was.
func Still(prev, cur []GenerationReport) []GenerationReport {
	before := map[string]bool{}
	for _, r := range prev {
		for _, g := range r.Lagging {
			before[fmt.Sprintf("%s|%s/%s|%d", r.Resource, g.Namespace, g.Name, g.Generation)] = true
		}
	}
	out := make([]GenerationReport, len(cur))
	for i, r := range cur {
		r.StillLagging = 0
		for _, g := range r.Lagging {
			if before[fmt.Sprintf("%s|%s/%s|%d", r.Resource, g.Namespace, g.Name, g.Generation)] {
				r.StillLagging++
			}
		}
		out[i] = r
	}
	return out
}

func lagging(u *unstructured.Unstructured) (Generation, bool) {
	observed, found, err := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	if err != nil || !found {
		return Generation{}, false
	}
	if gen := u.GetGeneration(); observed < gen {
		return Generation{Namespace: u.GetNamespace(), Name: u.GetName(), Generation: gen, ObservedGeneration: observed}, true
	}
	return Generation{}, false
}
