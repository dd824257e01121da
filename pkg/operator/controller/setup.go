package controller

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
)

// DefaultName is the controller's name: the `controller` label of controller_runtime_* and
// the `name`/`controller` labels of workqueue_*. Like controller-runtime's own default for a
// controller built For(&Workload{}), it is the lowercase kind.
const DefaultName = "workload"

// Options configure the controller.
type Options struct {
	Name    string // controller and workqueue name; DefaultName when empty
	Workers int    // MaxConcurrentReconciles
	// SkipNameValidation allows several managers in one process (tests).
	SkipNameValidation bool
	// Warmup starts the watches before the replica leads (controller-runtime's EnableWarmup),
	// so that a standby's queue is filled when it takes over.
	Warmup bool
}

// Setup registers the Workload controller with mgr. It watches Workloads (spec and
// annotation changes) and the ConfigMaps they own.
func Setup(mgr ctrl.Manager, r *Reconciler, o Options) error {
	name := o.Name
	if name == "" {
		name = DefaultName
	}
	skip, warm := o.SkipNameValidation, o.Warmup
	workloadChanged := predicate.Or(predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{})
	err := ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WithOptions(controller.Options{MaxConcurrentReconciles: o.Workers, SkipNameValidation: &skip, EnableWarmup: &warm}).
		Watches(&v1alpha1.Workload{},
			observeLag(name, v1alpha1.Resource, &handler.EnqueueRequestForObject{}),
			builder.WithPredicates(workloadChanged)).
		Watches(&corev1.ConfigMap{},
			observeLag(name, "configmaps", handler.EnqueueRequestForOwner(mgr.GetScheme(), mgr.GetRESTMapper(),
				&v1alpha1.Workload{}, handler.OnlyControllerOwner()))).
		Complete(r)
	if err != nil {
		return fmt.Errorf("set up controller %s: %w", name, err)
	}
	return nil
}
