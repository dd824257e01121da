package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller"
)

// FieldOwner is the server-side apply field manager of scenario writes.
const FieldOwner = "ctrldiag-scenario"

// Driver creates a scenario's Workloads and keeps touching them. Give it a client of its
// own (not rate limited like the operator's), so that the load is the same in every run.
type Driver struct {
	Client    client.Client
	Namespace string
	Scenario  Scenario
	// Now returns the time written to the changed-at annotation; tests replace it.
	Now func() time.Time
}

// Prepare removes Workloads of other scenarios and creates the scenario's Initial Workloads
// that do not exist yet. Call it before the operator's manager starts, so that they come in
// its initial list; existing ones are left as they are (a write would make them an event).
func (d *Driver) Prepare(ctx context.Context) error {
	if err := d.removeOthers(ctx); err != nil {
		return err
	}
	for _, w := range Objects(d.Scenario, d.Namespace)[:d.Scenario.Initial] {
		w.Annotations = map[string]string{controller.AnnotationChangedAt: d.now().Format(time.RFC3339Nano)}
		if err := d.Client.Create(ctx, w); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("create Workload %s/%s: %w", w.Namespace, w.Name, err)
		}
	}
	return nil
}

// Run removes Workloads of other scenarios, applies this scenario's Workloads but the Initial
// ones (see Prepare) and its ConfigMaps (see ConfigMaps), then touches them, the Initial ones never (and heals them once, when the
// scenario says so), until ctx is done. It returns nil when ctx ends.
func (d *Driver) Run(ctx context.Context) error {
	logger := log.FromContext(ctx).WithValues("scenario", d.Scenario.Name, "namespace", d.Namespace)
	if err := d.removeOthers(ctx); err != nil {
		return err
	}
	if cms := d.Scenario.ConfigMaps; cms != nil {
		go d.runConfigMaps(ctx, *cms)
	}
	objs := Objects(d.Scenario, d.Namespace)
	logger.Info("applying scenario objects", "workloads", len(objs)-d.Scenario.Initial, "initial", d.Scenario.Initial)
	for _, w := range objs[d.Scenario.Initial:] {
		if err := d.apply(ctx, w); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
	t := d.Scenario.Touch
	t.Skip = max(t.Skip, d.Scenario.Initial)
	touching := t.Every > 0 && t.PerTick > 0 && len(objs) > t.Skip
	var ticks, heal <-chan time.Time
	if touching {
		logger.Info("touching scenario objects", "every", t.Every.String(), "perTick", t.PerTick)
		tick := time.NewTicker(t.Every)
		defer tick.Stop()
		ticks = tick.C
	}
	if d.Scenario.Heal > 0 {
		timer := time.NewTimer(d.Scenario.Heal)
		defer timer.Stop()
		heal = timer.C
	}
	next, touches := t.Skip, make([]int, len(objs))
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-heal:
			heal = nil
			logger.Info("healing scenario objects: failureRate 0", "after", d.Scenario.Heal.String())
			d.heal(ctx, objs)
			continue
		case <-ticks:
		}
		for k := 0; k < t.PerTick; k++ {
			i := next
			next++
			if next >= len(objs) {
				next = t.Skip
			}
			touches[i]++
			if err := d.touch(ctx, objs[i], touches[i]); err != nil && ctx.Err() == nil {
				logger.Error(err, "touch failed; will go on with the next object")
			}
		}
	}
}

// heal patches every object to failureRate 0, retrying each a few times: an object left
// failing would make the past incident a present one.
func (d *Driver) heal(ctx context.Context, objs []*v1alpha1.Workload) {
	body, _ := json.Marshal(HealPatch())
	for _, w := range objs {
		target := &v1alpha1.Workload{}
		target.Namespace, target.Name = w.Namespace, w.Name
		var err error
		for attempt := 0; attempt < 10 && ctx.Err() == nil; attempt++ {
			if err = d.Client.Patch(ctx, target, client.RawPatch("application/merge-patch+json", body)); err == nil {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		if err != nil && ctx.Err() == nil {
			log.FromContext(ctx).Error(err, "heal failed: the object keeps failing", "workload", w.Namespace+"/"+w.Name)
		}
	}
}

// removeOthers deletes Workloads left by a different scenario in the namespace.
func (d *Driver) removeOthers(ctx context.Context) error {
	managed, _ := labels.NewRequirement(controller.LabelManaged, selection.Equals, []string{"true"})
	other, _ := labels.NewRequirement(controller.LabelScenario, selection.NotEquals, []string{d.Scenario.Name})
	sel := labels.NewSelector().Add(*managed, *other)
	err := d.Client.DeleteAllOf(ctx, &v1alpha1.Workload{}, client.InNamespace(d.Namespace),
		client.MatchingLabelsSelector{Selector: sel})
	if err != nil {
		return fmt.Errorf("remove Workloads of other scenarios in namespace %s: %w", d.Namespace, err)
	}
	return nil
}

// apply server-side applies w with a fresh changed-at annotation.
func (d *Driver) apply(ctx context.Context, w *v1alpha1.Workload) error {
	w = w.DeepCopy()
	w.Annotations = map[string]string{controller.AnnotationChangedAt: d.now().Format(time.RFC3339Nano)}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(w)
	if err != nil {
		return fmt.Errorf("convert Workload %s: %w", w.Name, err)
	}
	u := &unstructured.Unstructured{Object: m}
	unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
	unstructured.RemoveNestedField(u.Object, "status")
	if err := d.Client.Apply(ctx, client.ApplyConfigurationFromUnstructured(u),
		client.FieldOwner(FieldOwner), client.ForceOwnership); err != nil {
		return fmt.Errorf("apply Workload %s/%s: %w", w.Namespace, w.Name, err)
	}
	return nil
}

// touch patches the changed-at annotation of w (and flips spec.children when asked); n is
// how many times w has been touched.
func (d *Driver) touch(ctx context.Context, w *v1alpha1.Workload, n int) error {
	patch := TouchPatch(d.Scenario.Touch, w, n, d.now())
	body, err := json.Marshal(patch)
	if err != nil {
		return err
	}
	target := &v1alpha1.Workload{}
	target.Namespace, target.Name = w.Namespace, w.Name
	if err := d.Client.Patch(ctx, target, client.RawPatch("application/merge-patch+json", body)); err != nil {
		return fmt.Errorf("touch Workload %s/%s: %w", w.Namespace, w.Name, err)
	}
	return nil
}

// TouchPatch is the JSON merge patch of the n-th touch of w.
func TouchPatch(t Touch, w *v1alpha1.Workload, n int, now time.Time) map[string]any {
	patch := map[string]any{"metadata": map[string]any{"annotations": map[string]any{
		controller.AnnotationChangedAt: now.Format(time.RFC3339Nano)}}}
	if t.FlipChildren {
		children := w.Spec.Children + int32(n%2)
		patch["spec"] = map[string]any{"children": children}
	}
	return patch
}

// HealPatch is the JSON merge patch that ends an object's failures.
func HealPatch() map[string]any {
	return map[string]any{"spec": map[string]any{"failureRate": nil}}
}

func (d *Driver) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}
