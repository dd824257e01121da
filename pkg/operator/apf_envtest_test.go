//go:build envtest

package operator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/scenario"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

// The apf-throttled scenario on a real API server with API Priority and Fairness: run as a
// ServiceAccount (envtest's admin is in system:masters, which APF exempts), the operator's
// status writes are answered 429, the API server counts them as rejected at the scenario's
// priority level, and server-throttling fires on two samples of each page, while the healthy
// scenario's pages raise none. The FlowSchema and the priority level are gone after the run.
func TestAPFThrottledScenario(t *testing.T) {
	ctx := context.Background()
	ns, sa := "sc-apf", "apf-operator"
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "envtest-apf-operator"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: sa, Namespace: ns}},
	}
	if _, err := kube.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = kube.RbacV1().ClusterRoleBindings().Delete(ctx, binding.Name, metav1.DeleteOptions{}) })

	// As the admin, the scenario refuses to start: its requests would never be limited.
	in := start(t, "apf-admin", "apf-throttled", nil)
	select {
	case err := <-in.done:
		in.cancel()
		in.cancel = nil
		if err == nil || !strings.Contains(err.Error(), "system:masters") || !strings.Contains(err.Error(), "--as system:serviceaccount:sc-apf-admin:NAME") {
			t.Errorf("as system:masters: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the operator started as system:masters")
	}

	as := rest.CopyConfig(restCfg)
	as.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:" + ns + ":" + sa}
	in = startAs(t, "apf", "apf-throttled", as, nil)
	if in.ns != ns {
		t.Fatalf("namespace %s, want %s", in.ns, ns)
	}
	in.waitForController(t, "")
	name := scenario.FlowControlName(ns)
	fs, err := kube.FlowcontrolV1().FlowSchemas().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the scenario's FlowSchema: %v", err)
	}
	if subj := fs.Spec.Rules[0].Subjects[0]; subj.User == nil || subj.User.Name != as.Impersonate.UserName {
		t.Errorf("FlowSchema subject %+v, want user %s", subj, as.Impersonate.UserName)
	}

	time.Sleep(5 * time.Second)
	opA, apiA := in.sample(t), apiserverPage(t)
	const window = 8 * time.Second
	time.Sleep(window)
	opB, apiB := in.sample(t), apiserverPage(t)
	w := window.Seconds()
	throttled := map[string]string{"code": "429"}
	n429 := opB.sum("rest_client_requests_total", throttled) - opA.sum("rest_client_requests_total", throttled)
	pl := map[string]string{"priority_level": name, "flow_schema": name}
	rejected := apiB.sum("apiserver_flowcontrol_rejected_requests_total", pl) - apiA.sum("apiserver_flowcontrol_rejected_requests_total", pl)
	t.Logf("apf-throttled: %.0f 429s in %.0fs (%.1f/s), %.0f rejected at %s; reconcile errors %.0f, longest %.1fs, work p99 %.1fs",
		n429, w, n429/w, rejected, name, opB.sum("controller_runtime_reconcile_errors_total", nil),
		opB.sum("workqueue_longest_running_processor_seconds", nil),
		opB.histogram("workqueue_work_duration_seconds", nil).minus(opA.histogram("workqueue_work_duration_seconds", nil)).quantile(0.99))
	if n429 < 3 {
		t.Errorf("%.0f 429 answers in the window, want >= 3", n429)
	}
	if rejected < n429 {
		t.Errorf("the API server rejected %.0f at %s, fewer than the operator's %.0f 429s", rejected, name, n429)
	}

	op := target("sc-apf/operator:8080", opA, opB, window)
	api := target("apiserver", apiA, apiB, window)
	if api.Kind != findings.KubeAPIServer {
		t.Fatalf("the API server's page reads as %s", api.Kind)
	}
	got := findings.Evaluate([]findings.Target{op, api}, nil, nil, findings.DefaultThresholds())
	var onOp, onAPI *findings.Finding
	for i, f := range got {
		if f.Severity == findings.Info {
			continue
		}
		switch {
		case f.Check == "server-throttling" && f.Target == op.ID:
			onOp = &got[i]
		case f.Check == "server-throttling" && f.Target == api.ID && f.Queue == name:
			onAPI = &got[i]
		}
	}
	t.Logf("findings:\n  %s", summaries(got))
	if onOp == nil || onAPI == nil {
		t.Fatalf("server-throttling on the operator and on the API server's level %s: %s", name, summaries(got))
	}
	if top := firstSerious(got, op.ID); top != "server-throttling" {
		t.Errorf("the operator's top finding is %s: %s", top, summaries(got))
	}
	if ev := evidenceOf(*onOp, "priority levels rejecting on apiserver"); !strings.Contains(ev, name+" ") || !strings.Contains(ev, "FlowSchema "+name+", reason concurrency-limit") {
		t.Errorf("the operator's finding does not name the priority level: %s", ev)
	}
	if api := findings.Evaluate([]findings.Target{api}, nil, nil, findings.DefaultThresholds()); firstSerious(api, "apiserver") != "server-throttling" {
		t.Errorf("the API server alone: %s", summaries(api))
	}
	in.stop(t)
	for _, get := range []func() error{
		func() error {
			_, err := kube.FlowcontrolV1().FlowSchemas().Get(ctx, name, metav1.GetOptions{})
			return err
		},
		func() error {
			_, err := kube.FlowcontrolV1().PriorityLevelConfigurations().Get(ctx, name, metav1.GetOptions{})
			return err
		},
	} {
		if err := get(); !apierrors.IsNotFound(err) {
			t.Errorf("after the run the scenario's flow control objects must be gone: %v", err)
		}
	}

	// The healthy scenario, its two pages and the API server's: no server-throttling.
	h := start(t, "apf-healthy", "healthy", nil)
	h.waitForController(t, "")
	time.Sleep(3 * time.Second)
	hA, hApiA := h.sample(t), apiserverPage(t)
	time.Sleep(5 * time.Second)
	hB, hApiB := h.sample(t), apiserverPage(t)
	healthy := findings.Evaluate([]findings.Target{target("sc-apf-healthy/operator:8080", hA, hB, 5*time.Second),
		target("apiserver", hApiA, hApiB, 5*time.Second)}, nil, nil, findings.DefaultThresholds())
	for _, f := range healthy {
		if f.Check == "server-throttling" || f.Check == "api-errors" {
			t.Errorf("healthy: %s on %s: %s", f.Check, f.Target, f.Summary)
		}
	}
	h.stop(t)
}

// apiserverPage is the API server's own /metrics, read as envtest's admin.
func apiserverPage(t *testing.T) families {
	t.Helper()
	body, err := kube.RESTClient().Get().AbsPath("/metrics").DoRaw(context.Background())
	if err != nil {
		t.Fatalf("GET /metrics of the API server: %v", err)
	}
	p, err := parse.Parse("apiserver", strings.NewReader(string(body)), health.Wanted)
	if err != nil {
		t.Fatal(err)
	}
	return families(p.Families)
}

// target is what the report's rules see of two pages of one target.
func target(id string, a, b families, window time.Duration) findings.Target {
	prev := health.FromFamilies(a, time.Time{})
	cur := health.FromFamilies(b, time.Time{}.Add(window))
	return findings.Target{ID: id, Kind: findings.KindOf(cur, nil), Prev: prev, Cur: cur, Window: window,
		Queues: health.Queues(id, prev, cur, window)}
}

func firstSerious(fs []findings.Finding, target string) string {
	for _, f := range fs {
		if f.Severity != findings.Info && f.Target == target {
			return f.Check
		}
	}
	return ""
}

func evidenceOf(f findings.Finding, prefix string) string {
	for _, e := range f.Evidence {
		if strings.HasPrefix(e.Name, prefix) {
			return e.Value
		}
	}
	return ""
}

func summaries(fs []findings.Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, string(f.Severity)+":"+f.Check+"@"+f.Target+"/"+f.Queue+": "+f.Summary)
	}
	return strings.Join(s, "\n  ")
}
