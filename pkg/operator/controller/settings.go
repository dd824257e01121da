package controller

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The settings controller: a second controller of the operator that reconciles plain
// ConfigMaps, a kind with no status, so that its failures show only in its metrics' counts
// and in the log's "Reconciler error" lines, which name the objects.
const (
	// SettingsName is its name (controller and workqueue).
	SettingsName = "settings"
	// LabelSettings marks the ConfigMaps it reconciles ("true").
	LabelSettings = "demo.ctrldiag.dev/settings"
	// SettingsErrorKey is the data key whose value, when set, is the error every reconcile of
	// the ConfigMap returns.
	SettingsErrorKey = "error"
	// SettingsBlockAtKey is the data key whose value, an RFC 3339 time, is when the
	// ConfigMap's reconciles start to block until the operator stops (a call without a
	// timeout to a backend that never answers).
	SettingsBlockAtKey = "block-at"
)

// SettingsReconciler reconciles the ConfigMaps labelled LabelSettings=true: it fails with the
// ConfigMap's SettingsErrorKey when set, blocks from its SettingsBlockAtKey on, and does
// nothing else.
type SettingsReconciler struct {
	Client client.Client
}

// Reconcile implements reconcile.Reconciler.
func (r *SettingsReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if at, err := time.Parse(time.RFC3339Nano, cm.Data[SettingsBlockAtKey]); err == nil && !time.Now().Before(at) {
		<-ctx.Done()
		return reconcile.Result{}, ctx.Err()
	}
	if msg := cm.Data[SettingsErrorKey]; msg != "" {
		return reconcile.Result{}, errors.New(msg)
	}
	return reconcile.Result{}, nil
}

// SetupSettings registers the settings controller with mgr.
func SetupSettings(mgr ctrl.Manager, r *SettingsReconciler, skipNameValidation bool) error {
	labelled := predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()[LabelSettings] == "true" })
	err := ctrl.NewControllerManagedBy(mgr).
		Named(SettingsName).
		WithOptions(controller.Options{SkipNameValidation: &skipNameValidation}).
		For(&corev1.ConfigMap{}, builder.WithPredicates(labelled)).
		Complete(r)
	if err != nil {
		return fmt.Errorf("set up controller %s: %w", SettingsName, err)
	}
	return nil
}
