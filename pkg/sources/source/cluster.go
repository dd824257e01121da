package source

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
)

// Cluster is what a source that reads a live cluster offers beyond the metrics pages: the
// objects whose status trails their spec, the objects the controllers reconcile, the metrics
// API's usage, who holds the Leases, the admission webhooks, the FlowSchemas and the Warning
// events.
type Cluster interface {
	// Generations checks the objects of resources in namespace ns ("" for all) whose
	// status.observedGeneration trails metadata.generation.
	Generations(ctx context.Context, ns string, resources []schema.GroupVersionResource) []cachesync.GenerationReport
	// Objects resolves the kinds the controllers reconcile (overrides by controller name
	// first) and summarizes their objects in namespace ns ("" for all).
	Objects(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind) objects.View
	// WatchChanges starts counting the changes of the objects the controllers reconcile in
	// namespace ns, and timing their spec changes, each kind once however often it is asked;
	// the next Objects stops the counts and gives them with the kinds (Summary.Changes,
	// Summary.SpecLatency). The spec latency is counted with objective, the spec-latency
	// objective, among its buckets' bounds, so that its verdict is exact.
	WatchChanges(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind, objective time.Duration)
	// Usage reads metrics.k8s.io for the pods of the namespaces, by "namespace/name"; note
	// says why it is missing when it is.
	Usage(ctx context.Context, namespaces []string) (pods map[string]PodUsage, note string)
	// WorkloadAnnotation reads annotation key of the workload objects ("namespace/kind/name",
	// kind one of deployment, statefulset, daemonset, replicaset; others are skipped) and
	// returns the values of those that carry it; warnings say which could not be read.
	WorkloadAnnotation(ctx context.Context, key string, workloads []string) (values map[string]string, warnings []string)
	// LeaseHolders lists the holders of the Leases of the namespaces, where they may be listed.
	LeaseHolders(ctx context.Context, namespaces []string) []model.Holder
	// Admission reads the admission webhook configurations, where they may be listed.
	Admission(ctx context.Context) apiserver.Admission
	// OwnedKinds probes the kinds the webhooks intercept for objects whose controller
	// ownerReference is of a kind an owner reconciles: one page of each kind's metadata
	// where the owners' objects were read, bounded, where it may be listed.
	OwnedKinds(ctx context.Context, hooks []apiserver.Webhook, owners []apiserver.Owner) apiserver.Ownership
	// FlowSchemas reads the API Priority and Fairness FlowSchemas, where they may be listed.
	FlowSchemas(ctx context.Context) apiserver.FlowControl
	// Events reads the Warning events that speak of the controllers (reported by them, or on
	// objects of the kinds they reconcile, overrides by controller name first) and last
	// happened since since, in namespace ns ("" for all; all too for a cluster-wide
	// controller, where they may be listed).
	Events(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind, since time.Time) events.View
}
