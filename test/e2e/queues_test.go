//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// queueList is the part of `queues -o json` the tests read.
type queueList struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Window     string `json:"window"`
	Items      []struct {
		Target        string   `json:"target"`
		Queue         string   `json:"queue"`
		Depth         *float64 `json:"depth"`
		AddsPerSecond *float64 `json:"addsPerSecond"`
		Status        string   `json:"status"`
		Reason        string   `json:"reason"`
	} `json:"items"`
	Errors []struct{ Target, Error string } `json:"errors"`
}

func queuesJSON(t *testing.T, args ...string) (queueList, Result) {
	t.Helper()
	r := ctrldiag(t, append([]string{"queues", "-o", "json"}, args...)...)
	var l queueList
	// A partial failure (exit 1) prints the list too.
	if r.Code == 0 || r.Code == 1 && strings.TrimSpace(r.Stdout) != "" {
		if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil {
			t.Fatalf("queues -o json is not JSON: %v\n%s", err, r)
		}
	}
	return l, r
}

// targetsOf maps each target of a queue list to its queue names.
func (l queueList) targetsOf() map[string][]string {
	m := map[string][]string{}
	for _, it := range l.Items {
		m[it.Target] = append(m[it.Target], it.Queue)
	}
	return m
}

const kcmTarget = "kube-system/kube-controller-manager-ctrldiag-node:10257"

// With only -n, queues finds kube-controller-manager by its kubeadm labels and reads its real
// queues through the API server's proxy, with rates over a two-sample window.
func TestQueuesFindsKubeControllerManager(t *testing.T) {
	crowd(t)
	l, r := queuesJSON(t, "-n", "kube-system", "--interval", "2s")
	if r.Code != 0 {
		t.Fatalf("queues -n kube-system:\n%s", r)
	}
	if l.APIVersion != "ctrldiag.dev/v1alpha1" || l.Kind != "QueueList" || l.Window != "2s" {
		t.Errorf("header: %s %s window %q", l.APIVersion, l.Kind, l.Window)
	}
	queues := l.targetsOf()[kcmTarget]
	if len(queues) < 40 || !contains(queues, "deployment") || !contains(queues, "replicaset") {
		t.Fatalf("want kube-controller-manager's ~50 queues under %s, got %v", kcmTarget, l.targetsOf())
	}
	for _, it := range l.Items {
		if it.AddsPerSecond == nil || it.Depth == nil {
			t.Errorf("%s/%s: rates and depth must be known with two samples: %+v", it.Target, it.Queue, it)
		}
	}

	// The table: one header, kubectl-style columns, kube-controller-manager's rows, in 80
	// columns: the one target's name and the detail are left out of it, and -o wide has them.
	r = ctrldiag(t, "queues", "-n", "kube-system", "--interval", "0")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "QUEUE ") || !strings.Contains(r.Stdout, "\ndeployment ") || !strings.Contains(r.Stdout, " STATUS") {
		t.Errorf("queues table:\n%s", r)
	}
	for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("queues table line wider than 80 columns (%d): %q", n, line)
		}
	}
	r = ctrldiag(t, "queues", "-n", "kube-system", "--interval", "0", "-o", "wide")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "TARGET ") || !strings.Contains(r.Stdout, kcmTarget+"   deployment ") || !strings.Contains(r.Stdout, " UNFINISHED ") {
		t.Errorf("queues -o wide:\n%s", r)
	}
}

// The API server's own queues, and a --url straight at kube-controller-manager's HTTPS port.
func TestQueuesAPIServerAndURL(t *testing.T) {
	crowd(t)
	l, r := queuesJSON(t, "-n", "kube-system", "--include-apiserver", "--interval", "0")
	if r.Code != 0 {
		t.Fatalf("%s", r)
	}
	if q := l.targetsOf()["apiserver"]; len(q) < 10 || !contains(q, "APIServiceRegistrationController") {
		t.Errorf("the API server's queues: %v", q)
	}

	url := "https://198.18.0.1:10257/metrics"
	l, r = queuesJSON(t, "--url", url, "--insecure-skip-tls-verify-metrics", "--interval", "1s")
	if r.Code != 0 || len(l.targetsOf()[url]) < 40 {
		t.Fatalf("queues --url %s:\n%s", url, r)
	}
	// Without the opt-in the self-signed certificate is refused, with the fix in the message.
	r = ctrldiag(t, "queues", "--url", url, "--interval", "0")
	if r.Code != 1 || !strings.Contains(r.Stderr, "--insecure-skip-tls-verify-metrics") {
		t.Errorf("an unverifiable certificate must fail with advice:\n%s", r)
	}
}

// Pods that announce metrics are found by discovery alone and read by proxy and by
// port-forward; an HTTPS endpoint that demands a token is read with --token through a
// port-forward, and without one the error says how to succeed.
func TestQueuesDiscoversPodsBothWays(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	page := filepath.Join(env.root, "test/e2e/testdata/kube-controller-manager.prom")
	plain := startBehindPod(t, podSpec{Namespace: ns, Name: "plain", Labels: map[string]string{"app": "plain"},
		Ports: []podPort{{Name: "metrics", Port: 8080}},
		Command: func(l map[int32]string) []string {
			return []string{env.servepage, "--listen", l[8080], "--file", page}
		}})
	const secret = "s3cr3t-metrics-token-e2e"
	secure := startBehindPod(t, podSpec{Namespace: ns, Name: "secure", Labels: map[string]string{"app": "secure"},
		Ports: []podPort{{Name: "https", Port: 8443}},
		Command: func(l map[int32]string) []string {
			return []string{env.servepage, "--listen", l[8443], "--file", page, "--tls", "--token", secret}
		}})
	plainID := fmt.Sprintf("%s/%s:8080", ns, plain.Name)
	secureID := fmt.Sprintf("%s/%s:8443", ns, secure.Name)

	for _, via := range []string{"proxy", "port-forward"} {
		t.Run(via, func(t *testing.T) {
			l, r := queuesJSON(t, "-n", ns, "pod/"+plain.Name, "--via", via, "--interval", "0")
			if r.Code != 0 || len(l.targetsOf()[plainID]) < 40 {
				t.Fatalf("queues pod/%s --via %s:\n%s", plain.Name, via, r)
			}
		})
	}

	t.Run("discovery without a token", func(t *testing.T) {
		// The secured pod fails: exit 1, the plain one printed.
		l, r := queuesJSON(t, "-n", ns, "--interval", "0")
		if r.Code != 1 || len(l.targetsOf()[plainID]) < 40 {
			t.Fatalf("the plain pod must be read, the secured one fail:\n%s", r)
		}
		if len(l.Errors) != 1 || l.Errors[0].Target != secureID || !strings.Contains(l.Errors[0].Error, "--token-from-sa") {
			t.Errorf("the secured pod must fail with the way to succeed: %+v\n%s", l.Errors, r.Stderr)
		}
	})
	t.Run("token through port-forward", func(t *testing.T) {
		l, r := queuesJSON(t, "-n", ns, "--interval", "0", "--token", secret, "--insecure-skip-tls-verify-metrics")
		if r.Code != 0 || len(l.targetsOf()[secureID]) < 40 || len(l.targetsOf()[plainID]) < 40 {
			t.Fatalf("both pods must be read with the token:\n%s", r)
		}
		if strings.Contains(r.Stdout+r.Stderr, secret) {
			t.Errorf("the token appears in the output")
		}
	})
	t.Run("targets", func(t *testing.T) {
		r := ctrldiag(t, "targets", "-n", ns, "-o", "wide", "--token", secret)
		if r.Code != 0 || !strings.Contains(r.Stdout, "port-forward") || !strings.Contains(r.Stdout, `container port named "https"`) ||
			!strings.Contains(r.Stdout, "drops credentials") {
			t.Errorf("targets -o wide:\n%s", r)
		}
	})
}

// -A finds the control plane and the pods of every namespace.
func TestQueuesAllNamespaces(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	page := filepath.Join(env.root, "test/e2e/testdata/kube-controller-manager.prom")
	p := startBehindPod(t, podSpec{Namespace: ns, Name: "annotated",
		Annotations: map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "9000"},
		Ports:       []podPort{{Port: 9000}},
		Command: func(l map[int32]string) []string {
			return []string{env.servepage, "--listen", l[9000], "--file", page}
		}})
	l, r := queuesJSON(t, "-A", "--interval", "0")
	// Exit 1 says that some target failed: other tests' pods come and go meanwhile, or want
	// a token. None of the ones this test looks for may be among them.
	if r.Code != 0 && r.Code != 1 {
		t.Fatalf("%s", r)
	}
	for _, e := range l.Errors {
		if e.Target == kcmTarget || e.Target == "apiserver" || strings.HasPrefix(e.Target, ns+"/") {
			t.Errorf("-A could not read %s: %s", e.Target, e.Error)
		}
	}
	got := l.targetsOf()
	if len(got[kcmTarget]) == 0 || len(got[fmt.Sprintf("%s/%s:9000", ns, p.Name)]) == 0 || len(got["apiserver"]) == 0 {
		t.Errorf("-A must find kube-controller-manager, the API server and the annotated pod: %v", keys(got))
	}
}

// A user without permissions is told exactly which verb, resource and namespace is missing.
func TestQueuesRestrictedUser(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	r := runAs(t, env.restricted, "kubectl", "ctrldiag", "queues", "-n", ns)
	if r.Code != 1 || !strings.Contains(r.Stderr, "may not list pods in namespace "+ns) {
		t.Errorf("without list: %s", r)
	}
	mustKubectl(t, "-n", "kube-system", "create", "rolebinding", "e2e-reader-"+ns, "--clusterrole=ctrldiag-restricted-reader", "--user=ctrldiag-restricted")
	t.Cleanup(func() { kubectl(t, "-n", "kube-system", "delete", "rolebinding", "e2e-reader-"+ns) })
	eventually(t, 10e9, "the RoleBinding to take effect", func() error {
		r = runAs(t, env.restricted, "kubectl", "ctrldiag", "queues", "-n", "kube-system", "--interval", "0")
		if !strings.Contains(r.Stderr, "may not get pods/proxy in namespace kube-system") {
			return fmt.Errorf("%s", r)
		}
		return nil
	})
	if r.Code != 1 {
		t.Errorf("every target forbidden must exit 1: %s", r)
	}
	// Port-forward is named too, and -A needs list at the cluster scope.
	r = runAs(t, env.restricted, "kubectl", "ctrldiag", "queues", "-n", "kube-system", "--via", "port-forward", "--interval", "0")
	if r.Code != 1 || !strings.Contains(r.Stderr, "may not create pods/portforward in namespace kube-system") {
		t.Errorf("port-forward without the permission: %s", r)
	}
	r = runAs(t, env.restricted, "kubectl", "ctrldiag", "queues", "-A", "--interval", "0")
	if r.Code != 1 || !strings.Contains(r.Stderr, "may not list pods in all namespaces") {
		t.Errorf("-A without list at the cluster scope: %s", r)
	}
	r = runAs(t, env.restricted, "kubectl", "ctrldiag", "targets", "-A")
	if r.Code != 1 || !strings.Contains(r.Stderr, "may not list pods in all namespaces") {
		t.Errorf("targets -A without list at the cluster scope: %s", r)
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
