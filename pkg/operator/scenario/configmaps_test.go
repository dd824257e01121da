package scenario

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller"
)

func TestFailingConfigMaps(t *testing.T) {
	s, err := Get("failing-configmaps")
	if err != nil {
		t.Fatal(err)
	}
	var failing []string
	for _, cm := range ConfigMapObjects(s, "ns", time.Now()) {
		if cm.Namespace != "ns" || cm.Labels[controller.LabelSettings] != "true" || cm.Labels[controller.LabelScenario] != s.Name {
			t.Errorf("%s/%s labels %v", cm.Namespace, cm.Name, cm.Labels)
		}
		if cm.Data[controller.SettingsErrorKey] != "" {
			failing = append(failing, cm.Name)
		}
	}
	if got := len(failing); got != 3 || failing[0] != "settings-001" || failing[1] != "settings-004" || failing[2] != "settings-006" {
		t.Errorf("failing ConfigMaps %v, want settings-001, -004, -006", failing)
	}
	if healthy, _ := Get("healthy"); ConfigMapObjects(healthy, "ns", time.Now()) != nil {
		t.Error("healthy has ConfigMaps")
	}
}

// The driver creates the ConfigMaps and touches each of them. It runs until every one is
// touched (or a minute, on a machine too loaded to tick), so that a slow machine cannot fail it.
func TestDriverCreatesAndTouchesConfigMaps(t *testing.T) {
	s, _ := Get("failing-configmaps")
	s.ConfigMaps.Every = 10 * time.Millisecond
	c := fake.NewClientBuilder().Build()
	d := &Driver{Client: c, Namespace: "ns", Scenario: s}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.runConfigMaps(ctx, *s.ConfigMaps)
	}()
	var list corev1.ConfigMapList
	untouched := func() []string {
		if err := c.List(context.Background(), &list, client.InNamespace("ns")); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, cm := range list.Items {
			if cm.Annotations[controller.AnnotationChangedAt] == "" {
				out = append(out, cm.Name)
			}
		}
		return out
	}
	for ctx.Err() == nil {
		if left := untouched(); len(list.Items) == 8 && len(left) == 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if len(list.Items) != 8 {
		t.Fatalf("%d ConfigMaps, want 8", len(list.Items))
	}
	for _, name := range untouched() {
		t.Errorf("%s never touched", name)
	}
}
