package findings

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// saturated is a target whose queue name has all workers busy and a growing backlog; cr makes
// it a controller-runtime controller (worker gauges), else a client-go queue without them.
// pod nil is a target read with --url or --from-file.
func saturated(name string, cr bool, pod *Pod, families ...string) Target {
	q := queue(func(q *health.QueueStats) {
		q.Queue, q.Controller = name, name
		q.Depth, q.DepthBefore, q.QueueP99, q.WorkP99, q.WorkP50 = 150, 120, 30, 1, 0.5
		q.MaxWorkers, q.ActiveWorkers = 4, 4
		if !cr {
			q.Controller, q.MaxWorkers, q.ActiveWorkers = "", math.NaN(), math.NaN()
		}
	})
	mk := func() *health.Snapshot {
		s := &health.Snapshot{Queues: map[string]*health.Queue{name: {Name: name}}, Controllers: map[string]*health.Controller{},
			Leader: map[string]float64{"lease": 1}, Families: map[string]bool{"workqueue_depth": true}}
		if cr {
			s.Queues[name].Controller = name
			s.Controllers[name] = &health.Controller{Name: name, ReconcileTotal: map[string]float64{"success": 10}}
		}
		for _, f := range families {
			s.Families[f] = true
		}
		return s
	}
	return Target{ID: "ns/ctrl:8080", Kind: KindOf(mk(), nil), Prev: mk(), Cur: mk(), Window: 10 * time.Second,
		Queues: []health.QueueStats{q}, Pod: pod}
}

// withIdleQueues adds queues to t's page that are empty and judged by no rule.
func withIdleQueues(t Target, names ...string) Target {
	for _, n := range names {
		t.Cur.Queues[n] = &health.Queue{Name: n}
	}
	return t
}

func find(fs []Finding, check string) *Finding {
	for i := range fs {
		if fs[i].Check == check {
			return &fs[i]
		}
	}
	return nil
}

// On each well-known controller, the saturated queue's findings name its own flag, with the
// value the container's arguments set when they do.
func TestRecommendationsNameTheKnobOfWellKnownControllers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target Target
		// saturated is the start of workers-saturated's recommendation; also names the
		// flags' current values and the sign that told the controller.
		saturated, current, by string
		note                   string // said after the advice; "" for none
	}{
		{"FluxCD source-controller, --concurrent set", saturated("gitrepository", true, &Pod{Image: "ghcr.io/fluxcd/source-controller:v1.4.1",
			Args: []string{"--concurrent=4", "--storage-path=/data"}}),
			"Raise --concurrent of FluxCD (now 4, default 2): ", "4", "image ghcr.io/fluxcd/source-controller:v1.4.1", "source-controller's --concurrent"},
		{"FluxCD kustomize-controller read with --url", saturated("kustomization", true, nil),
			"Raise --concurrent of FluxCD (default 4): ", "", "queue kustomization", "--concurrent sets the workers of each controller"},
		{"kube-controller-manager static pod, deployment", saturated("deployment", false, &Pod{Image: "registry.k8s.io/kube-controller-manager:v1.36.3",
			Args: []string{"kube-controller-manager", "--concurrent-deployment-syncs=10", "--kube-api-qps=50"}}),
			"Raise --concurrent-deployment-syncs of kube-controller-manager (now 10, default 5): ", "10", "image registry.k8s.io/kube-controller-manager:v1.36.3", ""},
		{"kube-controller-manager from a saved page, endpoint slices", withIdleQueues(saturated("endpoint_slice", false, nil), "replicationmanager", "deployment"),
			"Raise --concurrent-service-endpoint-syncs of kube-controller-manager (default 5): ", "", "queue replicationmanager", ""},
		{"kube-controller-manager, garbage collector", saturated("garbage_collector_attempt_to_delete", false, nil),
			"Raise --concurrent-gc-syncs of kube-controller-manager (default 20): ", "", "queue garbage_collector_attempt_to_delete", ""},
		{"kube-controller-manager, namespaces", saturated("namespace", false, &Pod{Image: "registry.k8s.io/kube-controller-manager:v1.36.3"}),
			"Raise --concurrent-namespace-syncs of kube-controller-manager (default 10): ", "", "", ""},
		{"Cluster API core read with --url, machines", withIdleQueues(saturated("machine", true, nil, "capi_cluster_cache_healthcheck"), "machineset"),
			"Raise --machine-concurrency of Cluster API (default 10): ", "", "queue machineset", ""},
		{"Cluster API control plane provider", saturated("kubeadmcontrolplane", true, &Pod{
			Image: "registry.k8s.io/cluster-api/kubeadm-control-plane-controller:v1.10.0", Args: []string{"--leader-elect", "--kubeadmcontrolplane-concurrency=20"}}),
			"Raise --kubeadmcontrolplane-concurrency of Cluster API (now 20, default 10): ", "20", "", ""},
		{"Argo CD, status processors", saturated("app_reconciliation_queue", false, &Pod{Image: "quay.io/argoproj/argocd:v3.1.0",
			Args: []string{"/usr/local/bin/argocd-application-controller"}}),
			"Raise --status-processors of the Argo CD application controller (default 20): ", "", "program /usr/local/bin/argocd-application-controller",
			"controller.status.processors in the argocd-cmd-params-cm ConfigMap"},
		{"Argo CD, operation processors set", saturated("app_operation_processing_queue", false, &Pod{Image: "quay.io/argoproj/argocd:v3.1.0",
			Args: []string{"argocd-application-controller", "--operation-processors", "25"}}),
			"Raise --operation-processors of the Argo CD application controller (now 25, default 10): ", "25", "", "controller.operation.processors"},
		{"cert-manager, challenges", saturated("challenges", false, &Pod{Image: "quay.io/jetstack/cert-manager-controller:v1.16.1",
			Args: []string{"--v=2", "--concurrent-workers=10", "--max-concurrent-challenges=60"}}),
			"Raise --concurrent-workers of cert-manager (now 10, default 5): ", "10", "", "--max-concurrent-challenges (default 60)"},
		{"cert-manager by its clock metric, orders", saturated("orders", false, nil, "certmanager_clock_time_seconds_gauge"),
			"Raise --concurrent-workers of cert-manager (default 5): ", "", "metric certmanager_clock_time_seconds_gauge", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Evaluate([]Target{tc.target}, nil, nil, DefaultThresholds())
			if checks(fs) != "warning:workers-saturated warning:backlog-growing" {
				t.Fatalf("findings %s, want workers-saturated and backlog-growing", checks(fs))
			}
			ws, bl := find(fs, "workers-saturated"), find(fs, "backlog-growing")
			if !strings.HasPrefix(ws.Recommendation, tc.saturated) {
				t.Errorf("workers-saturated recommends %q, want it to start %q", ws.Recommendation, tc.saturated)
			}
			if tc.note != "" && !strings.Contains(ws.Recommendation, tc.note) {
				t.Errorf("workers-saturated recommends %q, want the note %q", ws.Recommendation, tc.note)
			}
			flag := strings.TrimSuffix(strings.TrimPrefix(tc.saturated, "Raise "), ": ")
			if !strings.Contains(bl.Recommendation, "raise "+flag) {
				t.Errorf("backlog-growing recommends %q, want it to name %q", bl.Recommendation, flag)
			}
			if ws.Knob == nil || ws.Knob.Flags[0].Current != tc.current || tc.by != "" && ws.Knob.RecognisedBy != tc.by {
				t.Errorf("knob %+v, want current %q, recognised by %q", ws.Knob, tc.current, tc.by)
			}
		})
	}
}

// client-throttling names the QPS and burst flags of a recognised controller.
func TestClientThrottlingNamesTheQPSFlags(t *testing.T) {
	hist := func(count, sum float64) *health.Histogram {
		return &health.Histogram{Count: count, Sum: sum, Buckets: []health.Bucket{{UpperBound: 1, Count: count}, {UpperBound: math.Inf(1), Count: count}}}
	}
	for _, tc := range []struct {
		pod  *Pod
		want string
	}{
		{&Pod{Image: "registry.k8s.io/kube-controller-manager:v1.36.3", Args: []string{"kube-controller-manager", "--kube-api-qps=50"}},
			"Raise --kube-api-qps (now 50, default 20) and --kube-api-burst (default 30) of kube-controller-manager, or make fewer calls"},
		{&Pod{Image: "ghcr.io/fluxcd/helm-controller:v1.3.0"},
			"Raise --kube-api-qps (default 50) and --kube-api-burst (default 100) of FluxCD, or make fewer calls"},
		{&Pod{Image: "quay.io/jetstack/cert-manager-controller:v1.16.1", Args: []string{"--kube-api-burst=100"}},
			"Raise --kube-api-qps (default 20) and --kube-api-burst (now 100, default 50) of cert-manager, or make fewer calls"},
	} {
		target := saturated("idle", false, tc.pod)
		target.Queues = nil
		target.Prev.Client = health.Client{RateLimiterDuration: hist(10, 1)}
		target.Cur.Client = health.Client{RateLimiterDuration: hist(30, 21)}
		fs := Evaluate([]Target{target}, nil, nil, DefaultThresholds())
		if f := find(fs, "client-throttling"); f == nil || !strings.HasPrefix(f.Recommendation, tc.want) || f.Knob == nil || len(f.Knob.Flags) != 2 {
			t.Errorf("%s: %s: %+v, want %q", tc.pod.Image, checks(fs), f, tc.want)
		}
	}
}

// An operator of its own keeps the advice for its kind: controller-runtime's
// MaxConcurrentReconciles, and no knob in its JSON. So does a recognised controller's queue
// that no flag sizes.
func TestUnrecognisedControllersKeepTheirKindsAdvice(t *testing.T) {
	ws, _ := Lookup("workers-saturated")
	for _, tc := range []struct {
		name   string
		target Target
		want   string
	}{
		{"controller-runtime operator", saturated("widget", true, &Pod{Image: "example.com/acme/widget-operator:v1", Args: []string{"--concurrent=4"}}),
			ws.Recommendation["controller-runtime"]},
		{"controller-runtime operator read with --url", saturated("widget", true, nil), ws.Recommendation["controller-runtime"]},
		{"kube-controller-manager's graph changes: one goroutine, no flag", saturated("garbage_collector_graph_changes", false,
			&Pod{Image: "registry.k8s.io/kube-controller-manager:v1.36.3"}), ws.Recommendation["default"]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Evaluate([]Target{tc.target}, nil, nil, DefaultThresholds())
			f := find(fs, "workers-saturated")
			if f == nil || f.Recommendation != tc.want || f.Knob != nil {
				t.Fatalf("%s: %+v, want %q and no knob", checks(fs), f, tc.want)
			}
			b, _ := json.Marshal(f)
			if strings.Contains(string(b), `"knob"`) {
				t.Errorf("JSON without a knob has the field: %s", b)
			}
		})
	}
	if !strings.Contains(ws.Recommendation["controller-runtime"], "MaxConcurrentReconciles") {
		t.Errorf("controller-runtime's advice lost MaxConcurrentReconciles: %q", ws.Recommendation["controller-runtime"])
	}
}

// The knob is in the JSON of a finding as an object: controller, the sign, flags.
func TestKnobInJSON(t *testing.T) {
	fs := Evaluate([]Target{saturated("gitrepository", true, &Pod{Image: "ghcr.io/fluxcd/source-controller:v1.4.1", Args: []string{"--concurrent=4"}})},
		nil, nil, DefaultThresholds())
	b, err := json.Marshal(find(fs, "workers-saturated").Knob)
	want := `{"controller":"FluxCD","recognisedBy":"image ghcr.io/fluxcd/source-controller:v1.4.1","flags":[{"flag":"--concurrent","default":"2","current":"4"}],` +
		`"note":"source-controller's --concurrent sets the workers of each of its controllers."}`
	if err != nil || string(b) != want {
		t.Errorf("knob JSON %s (%v), want %s", b, err, want)
	}
}

// Every check the knob table answers has a "knob" recommendation in the catalog that places
// the knob, and every such recommendation is for a check the table answers.
func TestKnobTableAndCatalogAgree(t *testing.T) {
	answered := map[string]bool{}
	for _, s := range knobs.Load().Sizes {
		for _, check := range s.Checks {
			d, ok := Lookup(check)
			if !ok {
				t.Errorf("knobs.yaml size %s answers %q, which the catalog does not have", s.Name, check)
				continue
			}
			if tpl := d.Recommendation["knob"]; strings.Count(tpl, knobPlaceholder) != 1 {
				t.Errorf("catalog %s: its knob recommendation %q must hold %s once", check, tpl, knobPlaceholder)
			}
			answered[check] = true
		}
	}
	for _, d := range Catalog() {
		if d.Recommendation["knob"] != "" && !answered[d.Check] {
			t.Errorf("catalog %s has a knob recommendation but no knob of knobs.yaml answers it", d.Check)
		}
	}
}

// The real kube-controller-manager's page alone (--from-file) tells it by its queues; a
// controller-runtime page does not look like any well-known controller.
func TestSavedPagesAreRecognisedByTheirQueues(t *testing.T) {
	kcm := load(t, "kube-controller-manager-2.prom.gz")
	if m, ok := knobs.Recognise(seen(Target{Cur: kcm})); !ok || m.Controller.Title != "kube-controller-manager" || !strings.HasPrefix(m.By, "queue ") {
		t.Errorf("kube-controller-manager page: %+v %v", m, ok)
	}
	if m, ok := knobs.Recognise(seen(Target{Cur: load(t, "controller-runtime-2.prom")})); ok {
		t.Errorf("a controller-runtime operator's page recognised as %s by %s", m.Controller.Title, m.By)
	}
}
