package informers

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// Named creates shared index informers that carry one informer name, so each resource's
// informer reports metrics labelled {name, group, version, resource}.
type Named struct {
	name   *toolscache.InformerName
	scheme *runtime.Scheme
	mapper meta.RESTMapper
}

// NewNamed reserves name for this process's informers. Names are unique per process: call
// Release when the informers are gone. mapper may be nil; resources are then guessed from
// kinds (Workload -> workloads), which is right for the operator's own types.
func NewNamed(name string, scheme *runtime.Scheme, mapper meta.RESTMapper) (*Named, error) {
	n, err := toolscache.NewInformerName(name)
	if err != nil {
		return nil, fmt.Errorf("name the informers %q: %w (is another operator running in this process?)", name, err)
	}
	register()
	return &Named{name: n, scheme: scheme, mapper: mapper}, nil
}

// Release frees the name and stops the informers' metrics from updating.
func (n *Named) Release() { n.name.Release() }

// NewInformer has the signature of controller-runtime's cache.Options.NewInformer.
func (n *Named) NewInformer(lw toolscache.ListerWatcher, obj runtime.Object, resync time.Duration, indexers toolscache.Indexers) toolscache.SharedIndexInformer {
	opts := toolscache.SharedIndexInformerOptions{
		ResyncPeriod:            resync,
		Indexers:                indexers,
		InformerMetricsProvider: provider{},
	}
	if gvr, ok := n.resourceOf(obj); ok {
		opts.Identifier = n.name.WithResource(gvr)
		opts.ObjectDescription = gvr.String()
	}
	return toolscache.NewSharedIndexInformerWithOptions(lw, obj, opts)
}

func (n *Named) resourceOf(obj runtime.Object) (schema.GroupVersionResource, bool) {
	gvk, err := apiutil.GVKForObject(obj, n.scheme)
	if err != nil {
		klog.Background().Info("informer left unnamed: unknown kind", "type", fmt.Sprintf("%T", obj), "err", err)
		return schema.GroupVersionResource{}, false
	}
	if n.mapper != nil {
		if m, err := n.mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err == nil {
			return m.Resource, true
		}
	}
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return plural, true
}
