package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// fixtureNow is the fixed time of the golden report, just after the pages were captured.
var fixtureNow = time.Date(2026, 11, 22, 3, 7, 30, 0, time.UTC)

// fixtureReport builds the golden report with report.Build from the captured pages (the
// reference operator, kube-controller-manager and kube-apiserver, sampled 10 s apart) and a
// synthetic operator whose worker is stuck, whose backlog grows and that was OOMKilled, so
// that every kind of row and finding card renders.
func fixtureReport(t *testing.T) view.Report {
	t.Helper()
	// pair is the result of reading target t, behind pod p, twice 10 s apart.
	pair := func(t0 target.Target, p *corev1.Pod, first, second string) source.Result {
		a, b := loadPage(t, first), loadPage(t, second)
		return source.Result{Target: t0, Pod: p, Window: 10 * time.Second,
			Samples: []source.Sample{{Families: a.Families, Time: fixtureNow.Add(-10 * time.Second)}, {Families: b.Families, Time: fixtureNow}}}
	}
	kcmPod := pod("kube-system", "kube-controller-manager-node-1", 0, "", "", "")
	opPod := pod("widgets-system", "widgets-controller-7d9f8-abcde", 0, "", "128Mi", "256Mi")
	stuckPod := pod("stuck-system", "stuck-operator-5c6d7-xyz12", 3, "OOMKilled", "64Mi", "128Mi")
	stuckA, stuckB := stuckPage(t, 120, 40, 41, 0), stuckPage(t, 138, 50, 55, 10)
	in := report.Input{
		Scope: "all namespaces",
		Targets: source.Model([]source.Result{
			pair(target.Target{Kind: target.KindPod, Namespace: "widgets-system", Name: opPod.Name, Port: 8080, Container: "manager"}, opPod, "controller-runtime-1.prom", "controller-runtime-2.prom"),
			pair(target.Target{Kind: target.KindPod, Namespace: "kube-system", Name: kcmPod.Name, Port: 10257, Container: "kube-controller-manager"}, kcmPod, "kube-controller-manager-1.prom.gz", "kube-controller-manager-2.prom.gz"),
			pair(target.Target{Kind: target.KindAPIServer, Name: "apiserver"}, nil, "kube-apiserver-1.prom.gz", "kube-apiserver-2.prom.gz"),
			{Target: target.Target{Kind: target.KindPod, Namespace: "stuck-system", Name: stuckPod.Name, Port: 8080, Container: "manager"},
				Window: 10 * time.Second, Samples: []source.Sample{
					{Families: stuckA.Families, Time: fixtureNow.Add(-10 * time.Second)}, {Families: stuckB.Families, Time: fixtureNow}},
				Pod: stuckPod},
			{Target: target.Target{Kind: target.KindPod, Namespace: "broken-system", Name: "broken-operator-0", Port: 8443, Scheme: "https"}, Err: fmt.Errorf("HTTP 403 Forbidden through the API server proxy: the endpoint wants a bearer token <use --token-from-sa>")},
		}),
		Pods: []report.PodInput{{Pod: kcmPod, Scraped: true}, {Pod: opPod, Scraped: true}, {Pod: stuckPod, Scraped: true},
			{Pod: pod("broken-system", "broken-operator-0", 0, "", "", ""), Note: "scrape failed"}},
		Objects: &objects.View{Kinds: []objects.Summary{
			{Kind: objects.Kind{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespaced: true},
				Controllers: []string{"kube-system/kube-controller-manager-node-1:10257 deployment"},
				Error:       "may not list deployments.apps in all namespaces: needs RBAC verb list on deployments.apps"},
			{Kind: objects.Kind{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true},
				Controllers: []string{"widgets-system/widgets-controller-7d9f8-abcde:8080 widget"}, Total: 40, Failed: 3,
				Reasons: []objects.Reason{
					{Condition: "Ready=False", Reason: "BackendUnavailable", Count: 2, Objects: []string{"shop/cart", "shop/checkout"},
						Message: "dial tcp 10.0.3.4:5432: connect: connection refused", OldestSeconds: 1260},
					{Condition: "Stalled=True", Reason: "InvalidSpec", Count: 1, Objects: []string{"shop/legacy"}, Message: "spec.size: must be at most 10"}},
				BehindSpec: 2, BehindSpecExamples: []string{"shop/cart", "shop/checkout"},
				Deleting: 1, Deletions: []objects.Deletion{{Object: "shop/old", Finalizers: []string{"example.com/backend"}, AgeSeconds: 5400}},
				Changes: &objects.Changes{Count: 300, Seconds: 30},
				SpecLatency: &objects.SpecLatency{Seconds: 30, Changes: 148, Observed: 146, P50Seconds: f(0.4), P99Seconds: f(2.1), MaxSeconds: f(3.2),
					Buckets: []objects.Bucket{{LE: 0.5, Count: 90}, {LE: 1, Count: 130}, {LE: 2, Count: 144}, {LE: 5, Count: 146}, {LE: 30, Count: 146}},
					Pending: 4, PendingBuckets: []objects.Bucket{{LE: 0.5, Count: 2}, {LE: 30, Count: 2}, {LE: 1800, Count: 4}},
					PendingObjects: []objects.PendingObject{{Object: "shop/cart", Generation: 7, ObservedGeneration: 6, BehindSeconds: 1260, BehindAtLeast: true},
						{Object: "shop/checkout", Generation: 3, ObservedGeneration: 2, BehindSeconds: 1250, BehindAtLeast: true}}},
				TimeToReady: &objects.TimeToReady{Seconds: 30, Changes: 148, Ready: 140, P50Seconds: f(0.6), P99Seconds: f(3.1), MaxSeconds: f(4),
					Buckets: []objects.Bucket{{LE: 0.5, Count: 60}, {LE: 1, Count: 120}, {LE: 5, Count: 140}}, Pending: 6, DeletedBeforeReady: 2}},
		}, Notes: []string{"controller reconciler may reconcile any of Event, events.k8s.io/Event: name its kind with --controller-kind reconciler=GROUP/KIND"}},
		Thresholds: findings.DefaultThresholds(),
		Now:        fixtureNow,
	}
	return report.Build(in)
}

func loadPage(t *testing.T, file string) *parse.Page {
	t.Helper()
	return testpages.Parse(t, file, health.Wanted)
}

// stuckPage is a controller-runtime page with one queue, "reconciler", whose single worker
// holds an item for longest seconds; done counts the items finished so far.
func stuckPage(t *testing.T, depth, longest, unfinished, done float64) *parse.Page {
	t.Helper()
	p, err := parse.Parse("stuck", strings.NewReader(stuckText(depth, longest, unfinished, done)), health.Wanted)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// stuckText is the text of stuckPage.
func stuckText(depth, longest, unfinished, done float64) string {
	var b strings.Builder
	l := `{controller="reconciler",name="reconciler"}`
	fmt.Fprintf(&b, "workqueue_depth{controller=\"reconciler\",name=\"reconciler\",priority=\"\"} %g\n", depth)
	fmt.Fprintf(&b, "workqueue_adds_total%s %g\nworkqueue_retries_total%s 0\n", l, depth+done, l)
	fmt.Fprintf(&b, "workqueue_longest_running_processor_seconds%s %g\nworkqueue_unfinished_work_seconds%s %g\n", l, longest, l, unfinished)
	for _, h := range []struct {
		name  string
		share []float64 // fraction of done at or below each bound
	}{
		{"workqueue_queue_duration_seconds", []float64{0, 0, 0, 0, 0, 0, 0.1, 0.3, 0.6, 0.9, 1, 1}},
		{"workqueue_work_duration_seconds", []float64{0, 0, 0, 0, 0, 0.2, 0.7, 0.9, 1, 1, 1, 1}},
	} {
		fmt.Fprintf(&b, "# TYPE %s histogram\n", h.name)
		for i, le := range []string{"1e-08", "1e-07", "1e-06", "1e-05", "0.0001", "0.001", "0.01", "0.1", "1", "10", "100", "1000"} {
			fmt.Fprintf(&b, "%s_bucket{controller=\"reconciler\",name=\"reconciler\",le=%q} %g\n", h.name, le, h.share[i]*done)
		}
		fmt.Fprintf(&b, "%s_bucket{controller=\"reconciler\",name=\"reconciler\",le=\"+Inf\"} %g\n%s_sum%s %g\n%s_count%s %g\n",
			h.name, done, h.name, l, done*0.2, h.name, l, done)
	}
	b.WriteString("controller_runtime_active_workers{controller=\"reconciler\"} 1\n")
	b.WriteString("controller_runtime_max_concurrent_reconciles{controller=\"reconciler\"} 1\n")
	fmt.Fprintf(&b, "controller_runtime_reconcile_total{controller=\"reconciler\",result=\"success\"} %g\n", done)
	b.WriteString("leader_election_master_status{name=\"stuck-operator\"} 1\n")
	fmt.Fprintf(&b, "process_resident_memory_bytes %g\nprocess_cpu_seconds_total %g\n", float64(120<<20), 3+done/10)
	return b.String()
}

// pod is a running, ready pod started an hour before fixtureNow, with one container.
func pod(ns, name string, restarts int32, lastReason, memRequest, memLimit string) *corev1.Pod {
	start := metav1.NewTime(fixtureNow.Add(-time.Hour))
	c := corev1.Container{Name: "manager"}
	if memLimit != "" {
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memRequest), corev1.ResourceCPU: resource.MustParse("100m")}
		c.Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memLimit)}
	}
	cs := corev1.ContainerStatus{Name: "manager", Ready: true, RestartCount: restarts}
	if lastReason != "" {
		cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{Reason: lastReason, ExitCode: 137,
			FinishedAt: metav1.NewTime(fixtureNow.Add(-10 * time.Minute))}
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: start},
		Spec:       corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{c}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &start, ContainerStatuses: []corev1.ContainerStatus{cs},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
}
