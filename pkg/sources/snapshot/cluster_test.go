package snapshot_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

const (
	envSecret   = "env-secret-value-8c2e"
	argSecret   = "arg-secret-value-41aa"
	lastApplied = "last-applied-secret-77d0"
)

// controllerPod is a controller pod carrying secrets where pods do carry them.
func controllerPod(start time.Time) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "widget-7d9f-abcde", Labels: map[string]string{"app": "widget"},
			Annotations: map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"env":"` + lastApplied + `"}`,
				"prometheus.io/port": "8080"},
			OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "widget-7d9f", APIVersion: "apps/v1"}}},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "manager", Image: "example.com/widget:v1",
			Args:      []string{"--leader-elect", "--api-token=" + argSecret, "--password", argSecret},
			Env:       []corev1.EnvVar{{Name: "API_KEY", Value: envSecret}},
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &metav1.Time{Time: start},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "manager", Ready: true, RestartCount: 2,
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled",
					FinishedAt: metav1.Time{Time: start.Add(time.Minute)}}}}}},
	}
}

// podSource is a live cluster source made of saved pages read as one pod's target.
type podSource struct {
	pod *corev1.Pod
	tgt target.Target
}

func (p *podSource) Open(context.Context) (*source.Inventory, error) {
	return &source.Inventory{Targets: []target.Target{p.tgt}, Pods: map[string]*corev1.Pod{"ops/" + p.pod.Name: p.pod},
		Skipped:  []discover.Skipped{{Namespace: "ops", Pod: "widget-7d9f-zzzzz", Reason: "not ready"}},
		Warnings: []string{"a warning of discovery"}, Cluster: &snapshot.FakeCluster{}}, nil
}

func (p *podSource) Read(ctx context.Context, o source.Options) []source.Result {
	rs := collect.Collect(ctx, []scrape.Source{&scrape.FileSource{Paths: []string{
		"../../../testdata/pages/controller-runtime-1.prom", "../../../testdata/pages/controller-runtime-2.prom"}}}, o)
	rs[0].Target, rs[0].Pod = p.tgt, p.pod
	return rs
}

// In a cluster the snapshot also gives back the pods, the objects view, generation lag,
// usage and Leases: the report from it equals the live one. No secret of the pod is stored.
func TestClusterReportFromSnapshotEqualsTheLiveReport(t *testing.T) {
	ctx := context.Background()
	pod := controllerPod(time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC))
	tgt := target.Target{Kind: target.KindPod, Namespace: "ops", Name: pod.Name, Workload: "deployment/widget", Port: 8080,
		Ready: true, Via: target.ViaProxy, ViaReason: "the default"}
	cfg := run.ReportConfig{Thresholds: findings.DefaultThresholds(), Scope: source.Scope{Cluster: true, Namespace: "ops"},
		Read: source.Options{Interval: time.Second, Timeout: 5 * time.Second}}
	now := time.Date(2026, 11, 22, 3, 10, 0, 0, time.UTC)
	rec := snapshot.Record(&podSource{pod: pod, tgt: tgt})
	liveJSON := reportJSON(t, ctx, cfg, run.Env{Source: rec, Now: func() time.Time { return now }})
	snap := rec.Snapshot(ctx, snapshot.Manifest{Taken: now, Scope: snapshot.Scope{Cluster: true, Namespace: "ops"}})
	var file bytes.Buffer
	if err := snap.Write(&file); err != nil {
		t.Fatal(err)
	}
	members, err := snapshot.ReadArchive(bytes.NewReader(file.Bytes()), snapshot.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		for _, secret := range []string{envSecret, argSecret, lastApplied} {
			if bytes.Contains(m.Data, []byte(secret)) {
				t.Errorf("member %s holds %q", m.Name, secret)
			}
		}
	}
	back, err := snapshot.Read(bytes.NewReader(file.Bytes()), snapshot.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if back.Cluster == nil || len(back.Cluster.Generations) != 2 || len(back.Cluster.Leases) != 1 || back.Cluster.Objects == nil || back.Cluster.WarningEvents == nil {
		t.Fatalf("cluster answers %+v", back.Cluster)
	}
	if got := back.Inventory.Pods["ops/"+pod.Name].Spec.Containers[0].Args; strings.Join(got, " ") != "--leader-elect --api-token=[REDACTED] --password [REDACTED]" {
		t.Errorf("args stored as %q", got)
	}
	replayJSON := reportJSON(t, ctx, cfg, run.Env{Source: snapshot.NewReplay(back), Now: func() time.Time { return back.Manifest.Taken }})
	if !bytes.Equal(liveJSON, replayJSON) {
		t.Errorf("the report from the snapshot differs from the live one:\n%s", firstDifference(liveJSON, replayJSON))
	}
	for _, want := range []string{`"OOMKilled"`, `"Broken"`, `"usageCPUCores": 0.25`, `"checked": 5`, `"annotation ctrldiag.io/ignore on deployment/widget in ops"`, `"QuotaExceeded"`, `"timeToReady"`} {
		if !strings.Contains(string(liveJSON), want) {
			t.Errorf("the live report lacks %s, so the comparison proves less than it should", want)
		}
	}
}
