package controller

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
)

// statusRefresh is how old status.lastReconcileTime may grow before an otherwise unchanged
// reconcile writes it again. Writing it on every reconcile would turn each requeue into an
// API call, and the hot-loop scenario is meant to do no real work.
const statusRefresh = time.Minute

// Reconciler reconciles Workloads: it waits spec.reconcileDelay, fails at spec.failureRate,
// blocks in an HTTP call that never returns when spec.stuck, keeps spec.children ConfigMaps,
// writes status, takes spec.reconcileFor in all and requeues after spec.requeueAfter.
type Reconciler struct {
	Client client.Client
	// Now returns the current time; tests replace it.
	Now func() time.Time

	attempts attempts
	backend  backend
}

// Reconcile implements reconcile.Reconciler.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	start := time.Now()
	key := req.String()
	var w v1alpha1.Workload
	if err := r.Client.Get(ctx, req.NamespacedName, &w); err != nil {
		if apierrors.IsNotFound(err) {
			r.attempts.reset(key)
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, fmt.Errorf("read workload %s: %w", key, err)
	}
	if !w.DeletionTimestamp.IsZero() {
		return reconcile.Result{}, nil // children go with their owner (garbage collection)
	}
	if d := w.Spec.ReconcileFor.Duration; d > 0 {
		defer pace(ctx, start, d)
	}

	if w.Spec.Stuck {
		// A call to a backend that never answers, made without a deadline: it returns only
		// when the operator shuts down.
		err := r.backend.call(ctx, key)
		return reconcile.Result{}, fmt.Errorf("workload %s: stuck reconcile interrupted: %w", key, err)
	}
	if d := w.Spec.ReconcileDelay.Duration; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return reconcile.Result{}, fmt.Errorf("workload %s: reconcile delay interrupted: %w", key, ctx.Err())
		case <-t.C:
		}
	}
	if attempt := r.attempts.next(key); shouldFail(w.Spec.FailureRate, w.Spec.Seed, key, w.Generation, attempt) {
		reason, message := failure(&w)
		if err := r.writeFailure(ctx, &w, reason, message); err != nil {
			return reconcile.Result{}, err
		}
		return reconcile.Result{}, fmt.Errorf("workload %s: %s (attempt %d)", key, message, attempt+1)
	}

	children, err := ensureChildren(ctx, r.Client, &w)
	if err != nil {
		return reconcile.Result{}, err
	}
	if err := r.writeStatus(ctx, &w, children); err != nil {
		return reconcile.Result{}, err
	}
	r.attempts.reset(key)
	if d := w.Spec.RequeueAfter.Duration; d > 0 {
		return reconcile.Result{RequeueAfter: d}, nil
	}
	return reconcile.Result{}, nil
}

// writeStatus patches the status when something changed or lastReconcileTime is old.
func (r *Reconciler) writeStatus(ctx context.Context, w *v1alpha1.Workload, children int32) error {
	now := r.now()
	ready := meta.FindStatusCondition(w.Status.Conditions, v1alpha1.ConditionReady)
	unchanged := w.Status.ObservedGeneration == w.Generation && w.Status.Children == children &&
		ready != nil && ready.Status == metav1.ConditionTrue &&
		w.Status.LastReconcileTime != nil && now.Sub(w.Status.LastReconcileTime.Time) < statusRefresh
	if unchanged {
		return nil
	}
	base := w.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	w.Status.Children = children
	w.Status.LastReconcileTime = &metav1.Time{Time: now}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type:               v1alpha1.ConditionReady,
		Status:             metav1.ConditionTrue,
		ObservedGeneration: w.Generation,
		Reason:             "Reconciled",
		Message:            fmt.Sprintf("%d child ConfigMaps in place", children),
	})
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil {
		return fmt.Errorf("write status of workload %s/%s: %w", w.Namespace, w.Name, err)
	}
	return nil
}

// failure is the reason and message a failing reconcile of w reports.
func failure(w *v1alpha1.Workload) (reason, message string) {
	reason, message = w.Spec.FailureReason, w.Spec.FailureMessage
	if reason == "" {
		reason = "InjectedFailure"
	}
	if message == "" {
		message = fmt.Sprintf("injected failure (spec.failureRate=%g)", w.Spec.FailureRate)
	}
	return reason, message
}

// writeFailure sets Ready=False with the failure's reason and message, as operators report a
// reconcile that cannot succeed. It writes only when the condition changes, so that a failing
// object backing off does not also cause a status write (and a watch event) per attempt.
func (r *Reconciler) writeFailure(ctx context.Context, w *v1alpha1.Workload, reason, message string) error {
	ready := meta.FindStatusCondition(w.Status.Conditions, v1alpha1.ConditionReady)
	if ready != nil && ready.Status == metav1.ConditionFalse && ready.Reason == reason &&
		ready.Message == message && ready.ObservedGeneration == w.Generation {
		return nil
	}
	base := w.DeepCopy()
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type:               v1alpha1.ConditionReady,
		Status:             metav1.ConditionFalse,
		ObservedGeneration: w.Generation,
		Reason:             reason,
		Message:            message,
	})
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil {
		return fmt.Errorf("write status of workload %s/%s: %w", w.Namespace, w.Name, err)
	}
	return nil
}

// pace sleeps until d has passed since start, or ctx ends.
func pace(ctx context.Context, start time.Time, d time.Duration) {
	t := time.NewTimer(time.Until(start.Add(d)))
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

func (r *Reconciler) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}
