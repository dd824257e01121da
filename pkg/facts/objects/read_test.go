package objects

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"
)

var (
	now      = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	workload = Kind{Group: "demo.ctrldiag.dev", Version: "v1alpha1", Kind: "Workload", Resource: "workloads", Namespaced: true}
)

// obj is a Workload with the given conditions ("Type=Status/Reason/Message/age"), generation
// and observedGeneration, and finalizers when deleted ago > 0.
func obj(name string, gen, observed int64, deletedAgo time.Duration, conds ...string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion("demo.ctrldiag.dev/v1alpha1")
	u.SetKind("Workload")
	u.SetNamespace("ns")
	u.SetName(name)
	u.SetGeneration(gen)
	var cs []any
	for _, c := range conds {
		p := strings.SplitN(c, "/", 4)
		typ, status, _ := strings.Cut(p[0], "=")
		age, _ := time.ParseDuration(p[3])
		cs = append(cs, map[string]any{"type": typ, "status": status, "reason": p[1], "message": p[2],
			"lastTransitionTime": now.Add(-age).Format(time.RFC3339)})
	}
	status := map[string]any{"observedGeneration": observed}
	if cs != nil {
		status["conditions"] = cs
	}
	u.Object["status"] = status
	if deletedAgo > 0 {
		ts := metav1.NewTime(now.Add(-deletedAgo))
		u.SetDeletionTimestamp(&ts)
		u.SetFinalizers([]string{"demo.ctrldiag.dev/cleanup"})
	}
	return u
}

func TestSummaryCountsByStatus(t *testing.T) {
	s := Summary{Kind: workload}
	for _, u := range []*unstructured.Unstructured{
		obj("ok", 1, 1, 0, "Ready=True/Reconciled//1m"),
		obj("a", 1, 1, 0, "Ready=False/DependencyUnavailable/connect: connection refused/10m"),
		obj("b", 1, 1, 0, "Ready=False/DependencyUnavailable/connect: connection refused/2m"),
		obj("c", 1, 1, 0, "Ready=False/RepositoryNotFound/repository not found/30s"),
		obj("busy", 2, 1, 0, "Ready=False/Progressing/working/5s", "Reconciling=True/Progressing/working/5s"), // at work, behind spec
		obj("stalled", 1, 1, 0, "Stalled=True/InvalidSpec/bad field/1h", "Ready=False/InvalidSpec/bad field/1h"),
		obj("unknown", 1, 1, 0, "Ready=Unknown/Progressing//1s"),
		obj("gone", 1, 1, 20*time.Minute, "Ready=True/Reconciled//1h"),
		obj("plain", 3, 2, 0),
	} {
		s.Add(u, now)
	}
	s.Sort()
	if s.Total != 9 || s.Failed != 4 || s.BehindSpec != 2 || s.Deleting != 1 {
		t.Fatalf("total %d failed %d behind %d deleting %d", s.Total, s.Failed, s.BehindSpec, s.Deleting)
	}
	got := []string{}
	for _, r := range s.Reasons {
		got = append(got, fmt.Sprintf("%s %s %d %v %.0f", r.Condition, r.Reason, r.Count, r.Objects, r.OldestSeconds))
	}
	want := []string{"Ready=False DependencyUnavailable 2 [ns/a ns/b] 600", "Stalled=True InvalidSpec 1 [ns/stalled] 3600", "Ready=False RepositoryNotFound 1 [ns/c] 30"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("reasons\n%q\nwant\n%q", got, want)
	}
	if s.Reasons[0].Message != "connect: connection refused" || s.Reasons[0].Messages["connect: connection refused"] != 2 {
		t.Errorf("message: %+v", s.Reasons[0])
	}
	if d := s.Deletions[0]; d.Object != "ns/gone" || d.AgeSeconds != 1200 || d.Finalizers[0] != "demo.ctrldiag.dev/cleanup" {
		t.Errorf("deletion: %+v", d)
	}
	if strings.Join(s.BehindSpecExamples, " ") != "ns/busy ns/plain" {
		t.Errorf("behind spec: %v", s.BehindSpecExamples)
	}
}

// A Deployment whose rollout passed its deadline failed; one still rolling out did not.
func TestDeploymentProgressDeadline(t *testing.T) {
	s := Summary{}
	s.Add(obj("stuck", 1, 1, 0, "Progressing=False/ProgressDeadlineExceeded/ReplicaSet has timed out progressing/10m", "Available=False/MinimumReplicasUnavailable//10m"), now)
	s.Add(obj("rolling", 1, 1, 0, "Progressing=True/ReplicaSetUpdated//10s", "Available=False/MinimumReplicasUnavailable//10s"), now)
	if s.Failed != 1 || s.Reasons[0].Reason != "ProgressDeadlineExceeded" {
		t.Errorf("failed %d %+v", s.Failed, s.Reasons)
	}
}

func fakeClient(objs ...runtime.Object) *dynamicfake.FakeDynamicClient {
	gvr := workload.GVR()
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{gvr: "WorkloadList"}, objs...)
}

// Read lists in pages (following continue) and names a kind it may not list with the verb and
// resource RBAC needs.
func TestReadPagesAndForbidden(t *testing.T) {
	c := fakeClient()
	calls := 0
	c.PrependReactor("list", "workloads", func(a k8stesting.Action) (bool, runtime.Object, error) {
		calls++
		opts := a.(k8stesting.ListActionImpl).ListOptions
		if opts.Limit != pageSize {
			t.Errorf("limit %d", opts.Limit)
		}
		l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "demo.ctrldiag.dev/v1alpha1", "kind": "WorkloadList"}}
		switch opts.Continue {
		case "":
			l.Items = []unstructured.Unstructured{*obj("a", 1, 1, 0, "Ready=False/X/m/1m"), *obj("b", 1, 1, 0)}
			l.SetContinue("page2")
		case "page2":
			l.Items = []unstructured.Unstructured{*obj("c", 1, 1, 0, "Ready=False/X/m/1m")}
		default:
			t.Errorf("continue %q", opts.Continue)
		}
		return true, l, nil
	})
	bs := []Binding{{Controller: Controller{Target: "ns/op:8080", Name: "workload"}, Kind: workload},
		{Controller: Controller{Target: "ns/op2:8080", Name: "workload"}, Kind: workload}}
	got, notes := Read(context.Background(), c, bs, Places{Namespace: "ns"}, now)
	if len(got) != 1 || calls != 2 || len(notes) != 0 || got[0].Capped || got[0].Total != 3 || got[0].Failed != 2 || got[0].Namespace != "ns" ||
		strings.Join(got[0].Controllers, ",") != "ns/op2:8080 workload,ns/op:8080 workload" {
		t.Fatalf("calls %d, got %+v", calls, got)
	}
	v := View{Kinds: got}
	if v.Of("ns/op:8080", "workload") == nil || v.Of("ns/op:8080", "other") != nil || (*View)(nil).Of("a", "b") != nil {
		t.Error("Of does not find the kind by target and controller")
	}

	c = fakeClient()
	c.PrependReactor("list", "workloads", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(workload.GVR().GroupResource(), "", fmt.Errorf("no"))
	})
	got, _ = Read(context.Background(), c, bs[:1], Places{}, now)
	if want := "may not list workloads.demo.ctrldiag.dev in all namespaces: needs RBAC verb list on workloads.demo.ctrldiag.dev"; got[0].Error != want {
		t.Errorf("error %q, want %q", got[0].Error, want)
	}
}

// The conditions beyond Ready and Stalled that mean failure count, with their reason; a
// condition of an older generation does not; a rollout still in time does not.
func TestFailureConditions(t *testing.T) {
	withGen := func(u *unstructured.Unstructured, gens ...int64) *unstructured.Unstructured {
		cs, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
		for i, g := range gens {
			cs[i].(map[string]any)["observedGeneration"] = g
		}
		_ = unstructured.SetNestedSlice(u.Object, cs, "status", "conditions")
		return u
	}
	for _, tc := range []struct {
		u    *unstructured.Unstructured
		want string // "" for not failed
	}{
		{obj("quota", 1, 1, 0, `ReplicaFailure=True/FailedCreate/pods "x" is forbidden: exceeded quota/1m`), "ReplicaFailure=True FailedCreate"},
		{obj("degraded", 1, 1, 0, "Degraded=True/BackendDown/no backend/1m", "Available=True/Up//1m"), "Degraded=True BackendDown"},
		{obj("unavailable", 1, 1, 0, "Available=False/MinimumReplicasUnavailable/none ready/1m"), "Available=False MinimumReplicasUnavailable"},
		{obj("rolling", 1, 1, 0, "Available=False/MinimumReplicasUnavailable//10s", "Progressing=True/ReplicaSetUpdated//10s"), ""},
		{obj("healthy", 1, 1, 0, "ReplicaFailure=False/Fine//1m", "Degraded=False/Fine//1m", "Available=True/Up//1m"), ""},
		// Flux: retrying (Reconciling=True) with status.observedGeneration behind, but Ready=False
		// speaks of the current generation: failed, not behind spec.
		{withGen(obj("flux", 2, 1, 0, "Ready=False/GitOperationFailed/connection refused/30s", "Reconciling=True/ProgressingWithRetry//30s"), 2, 2), "Ready=False GitOperationFailed"},
		// The same without the condition's generation: still at work.
		{obj("working", 2, 1, 0, "Ready=False/GitOperationFailed/connection refused/30s", "Reconciling=True/ProgressingWithRetry//30s"), ""},
		// Flux in the middle of a retry: Ready Unknown for the length of the reconcile, the
		// failure still said by FetchFailed, which is read before Ready whenever it is there.
		{withGen(obj("fluxmid", 2, 1, 0, "Ready=Unknown/Progressing/reconciliation in progress/1s", "Reconciling=True/Progressing//1s",
			"FetchFailed=True/GitOperationFailed/connection refused/30s"), 2, 2, 2), "FetchFailed=True GitOperationFailed"},
		{withGen(obj("fluxretry", 2, 1, 0, "Ready=False/GitOperationFailed/connection refused/30s", "Reconciling=True/ProgressingWithRetry//30s",
			"FetchFailed=True/GitOperationFailed/connection refused/30s"), 2, 2, 2), "FetchFailed=True GitOperationFailed"},
		{obj("job", 1, 1, 0, "Failed=True/BackoffLimitExceeded/Job has reached the specified backoff limit/1m"), "Failed=True BackoffLimitExceeded"},
		{obj("fetched", 1, 1, 0, "FetchFailed=False/Succeeded//1m", "Ready=True/Succeeded//1m"), ""},
		{withGen(obj("oldfetch", 3, 2, 0, "FetchFailed=True/GitOperationFailed/refused/1m"), 2), ""},
		// Ready=False of an older generation: the new spec is not judged yet.
		{withGen(obj("old", 3, 2, 0, "Ready=False/InvalidSpec/bad/1m"), 2), ""},
		{withGen(obj("oldstalled", 3, 2, 0, "Stalled=True/InvalidSpec/bad/1m"), 2), ""},
	} {
		s := Summary{}
		s.Add(tc.u, now)
		got := ""
		if s.Failed == 1 {
			got = s.Reasons[0].Condition + " " + s.Reasons[0].Reason
		}
		if got != tc.want {
			t.Errorf("%s: failed as %q, want %q", tc.u.GetName(), got, tc.want)
		}
		if tc.u.GetName() == "flux" && s.BehindSpec != 0 {
			t.Errorf("flux: a Ready condition of the current generation is not behind spec")
		}
		if (tc.u.GetName() == "working" || tc.u.GetName() == "old") && s.BehindSpec != 1 {
			t.Errorf("%s: behind spec %d, want 1", tc.u.GetName(), s.BehindSpec)
		}
	}
}

// A kind a cluster-wide controller reconciles is read in all namespaces when the user may list
// it there, and in the namespace with a note when not; the read stops at maxObjects and says so.
func TestPlaceAndCap(t *testing.T) {
	wide := Binding{Controller: Controller{Target: "kube-system/kcm", Name: "workload", ClusterWide: true}, Kind: workload}
	narrow := Binding{Controller: Controller{Target: "ns/op", Name: "workload"}, Kind: workload}
	asked := 0
	yes := func(context.Context, Kind) (bool, error) { asked++; return true, nil }
	no := func(context.Context, Kind) (bool, error) { return false, nil }
	if p, notes := Place(context.Background(), []Binding{narrow}, "ns", yes, nil, nil); p.Of(workload) != "ns" || len(notes) != 0 || asked != 0 {
		t.Errorf("a namespaced controller widened: %+v %v (asked %d)", p, notes, asked)
	}
	if p, notes := Place(context.Background(), []Binding{narrow, wide}, "ns", yes, nil, nil); p.Of(workload) != "" || len(notes) != 0 || asked != 1 {
		t.Errorf("a cluster-wide controller not widened: %+v %v", p, notes)
	}
	p, notes := Place(context.Background(), []Binding{wide}, "ns", no, nil, nil)
	if want := "controller workload reconciles workloads.demo.ctrldiag.dev in every namespace, but you may not list them in all namespaces (needs RBAC verb list on workloads.demo.ctrldiag.dev cluster-wide): read in namespace ns only"; p.Of(workload) != "ns" || len(notes) != 1 || notes[0] != want {
		t.Errorf("refused: %+v %q", p, notes)
	}

	defer func(n int) { maxObjects = n }(maxObjects)
	maxObjects = 2
	c := fakeClient()
	var limits []int64
	c.PrependReactor("list", "workloads", func(a k8stesting.Action) (bool, runtime.Object, error) {
		opts := a.(k8stesting.ListActionImpl).ListOptions
		limits = append(limits, opts.Limit)
		if a.GetNamespace() != "ns" {
			t.Errorf("listed in namespace %q, want ns", a.GetNamespace())
		}
		l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "demo.ctrldiag.dev/v1alpha1", "kind": "WorkloadList"}}
		l.Items = []unstructured.Unstructured{*obj("a", 1, 1, 0), *obj("b", 1, 1, 0)}
		l.SetContinue("more")
		return true, l, nil
	})
	got, notes := Read(context.Background(), c, []Binding{wide}, Places{Namespace: "ns"}, now)
	if len(got) != 1 || got[0].Total != 2 || !got[0].Capped || got[0].Namespace != "ns" || len(limits) != 1 || limits[0] != 2 ||
		len(notes) != 1 || notes[0] != "workloads.demo.ctrldiag.dev: only the first 2 objects in namespace ns were read; the figures count those" {
		t.Errorf("capped read: %+v limits %v notes %q", got, limits, notes)
	}
}

// A controller left to its ServiceAccount's RBAC is read in every namespace for the kinds its
// ClusterRoleBindings let it list or watch there, saying why; for others, and when the
// bindings could not be read (a note naming the RBAC that would decide), in the namespace.
func TestPlaceByRBAC(t *testing.T) {
	op := Binding{Controller: Controller{Target: "ops/op", Name: "workload", ServiceAccount: "ops/op"}, Kind: workload}
	restricted := Binding{Controller: Controller{Target: "ops/op", Name: "workload"}, Kind: workload}
	yes := func(context.Context, Kind) (bool, error) { return true, nil }
	no := func(context.Context, Kind) (bool, error) { return false, nil }
	asked := 0
	granted := func(_ context.Context, account string, k Kind) (string, error) {
		asked++
		if account != "ops/op" || k != workload {
			t.Errorf("asked about %s on %s", account, k.GroupResource())
		}
		return "ClusterRole op bound to its ServiceAccount ops/op by ClusterRoleBinding op", nil
	}
	none := func(context.Context, string, Kind) (string, error) { return "", nil }
	unread := func(context.Context, string, Kind) (string, error) {
		return "", errors.New("needs RBAC verb list on clusterrolebindings.rbac.authorization.k8s.io and get on clusterroles.rbac.authorization.k8s.io")
	}

	why := "controller workload reconciles workloads.demo.ctrldiag.dev in every namespace (ClusterRole op bound to its ServiceAccount ops/op by ClusterRoleBinding op)"
	p, notes := Place(context.Background(), []Binding{op}, "ops", yes, granted, nil)
	if p.Of(workload) != "" || p.Why[workload] != why || len(notes) != 1 || notes[0] != why {
		t.Errorf("granted: %+v %q", p, notes)
	}
	if p, notes := Place(context.Background(), []Binding{restricted}, "ops", yes, granted, nil); p.Of(workload) != "ops" || len(notes) != 0 || asked != 1 {
		t.Errorf("a controller whose flags decided was widened by RBAC: %+v %q (asked %d)", p, notes, asked)
	}
	if p, notes := Place(context.Background(), []Binding{op}, "ops", yes, none, nil); p.Of(workload) != "ops" || len(notes) != 0 {
		t.Errorf("no grant: %+v %q", p, notes)
	}
	p, notes = Place(context.Background(), []Binding{op}, "ops", yes, unread, nil)
	if want := "whether controller workload reconciles every namespace could not be decided from its ServiceAccount's ClusterRoleBindings (needs RBAC verb list on clusterrolebindings.rbac.authorization.k8s.io and get on clusterroles.rbac.authorization.k8s.io): its kinds are read in namespace ops only"; p.Of(workload) != "ops" || len(notes) != 1 || notes[0] != want {
		t.Errorf("undecided: %+v %q", p, notes)
	}
	if p, notes := Place(context.Background(), []Binding{op}, "ops", no, granted, nil); p.Of(workload) != "ops" || len(notes) != 1 || !strings.Contains(notes[0], "you may not list them in all namespaces") {
		t.Errorf("granted but the user may not list: %+v %q", p, notes)
	}

	// A WATCH_NAMESPACE that could not be had keeps it in its namespace: a note when its RBAC
	// would have widened it, none when it would not.
	unsure := op
	unsure.Controller.Unsure = "WATCH_NAMESPACE may come from Secret creds (envFrom), which is never read"
	p, notes = Place(context.Background(), []Binding{unsure}, "ops", yes, granted, nil)
	if want := "controller workload would reconcile workloads.demo.ctrldiag.dev in every namespace (ClusterRole op bound to its ServiceAccount ops/op by ClusterRoleBinding op), but WATCH_NAMESPACE may come from Secret creds (envFrom), which is never read: it is taken to watch its own namespace only, and workloads.demo.ctrldiag.dev are read in namespace ops only"; p.Of(workload) != "ops" || len(notes) != 1 || notes[0] != want {
		t.Errorf("unsure: %+v %q", p, notes)
	}
	if p, notes := Place(context.Background(), []Binding{unsure}, "ops", yes, none, nil); p.Of(workload) != "ops" || len(notes) != 0 {
		t.Errorf("unsure without a grant: %+v %q", p, notes)
	}

	// The summary says why it was read everywhere.
	c := fakeClient()
	p, _ = Place(context.Background(), []Binding{op}, "ops", yes, granted, nil)
	got, _ := Read(context.Background(), c, []Binding{op}, p, now)
	if len(got) != 1 || got[0].Namespace != "" || got[0].Scope != why {
		t.Errorf("read: %+v", got)
	}
}
