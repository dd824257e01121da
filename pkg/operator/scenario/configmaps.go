package scenario

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller"
)

// ConfigMaps are plain ConfigMaps (a kind with no status) that the operator's settings
// controller reconciles: it fails, every time, on those that Error gives an error for. Every
// Every, the driver touches each of them (a changed-at annotation), which reconciles it at once
// whatever its back-off.
type ConfigMaps struct {
	Count int
	// Error is the error of the i-th ConfigMap's reconciles; "" for none.
	Error func(i int) string
	Every time.Duration
	// Block is the ConfigMap whose reconciles block for good BlockAfter after the scenario
	// starts (none when BlockAfter is 0).
	Block      int
	BlockAfter time.Duration
}

// ConfigMapName is the name of the scenario's i-th ConfigMap.
func ConfigMapName(i int) string { return fmt.Sprintf("settings-%03d", i) }

// ConfigMapObjects returns the ConfigMaps of s in namespace ns, labelled for the settings
// controller and, like Workloads, with the scenario's labels; start is when the scenario
// started.
func ConfigMapObjects(s Scenario, ns string, start time.Time) []*corev1.ConfigMap {
	cms := s.ConfigMaps
	if cms == nil {
		return nil
	}
	out := make([]*corev1.ConfigMap, 0, cms.Count)
	for i := 0; i < cms.Count; i++ {
		data := map[string]string{"replicas": "3"}
		if msg := cms.Error(i); msg != "" {
			data[controller.SettingsErrorKey] = msg
		}
		if cms.BlockAfter > 0 && i == cms.Block {
			data[controller.SettingsBlockAtKey] = start.Add(cms.BlockAfter).UTC().Format(time.RFC3339Nano)
		}
		out = append(out, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: ConfigMapName(i), Namespace: ns, Labels: map[string]string{
				controller.LabelManaged: "true", controller.LabelScenario: s.Name, controller.LabelSettings: "true"}},
			Data: data,
		})
	}
	return out
}

// runConfigMaps creates (or resets) the scenario's ConfigMaps, then touches them until ctx is
// done. Errors are logged: the Workloads' load goes on.
func (d *Driver) runConfigMaps(ctx context.Context, cms ConfigMaps) {
	logger := log.FromContext(ctx).WithValues("scenario", d.Scenario.Name, "namespace", d.Namespace)
	objs := ConfigMapObjects(d.Scenario, d.Namespace, d.now())
	for _, cm := range objs {
		err := d.Client.Create(ctx, cm.DeepCopy())
		if apierrors.IsAlreadyExists(err) {
			err = d.Client.Update(ctx, cm.DeepCopy())
		}
		if err != nil && ctx.Err() == nil {
			logger.Error(err, "create ConfigMap failed", "configmap", cm.Namespace+"/"+cm.Name)
		}
	}
	if cms.Every <= 0 {
		return
	}
	logger.Info("touching scenario ConfigMaps", "configmaps", len(objs), "every", cms.Every.String())
	tick := time.NewTicker(cms.Every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, cm := range objs {
			patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, controller.AnnotationChangedAt, d.now().Format(time.RFC3339Nano))
			target := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
			if err := d.Client.Patch(ctx, target, client.RawPatch("application/merge-patch+json", []byte(patch))); err != nil && ctx.Err() == nil {
				logger.Error(err, "touch ConfigMap failed; will go on with the next one", "configmap", cm.Namespace+"/"+cm.Name)
			}
		}
	}
}
