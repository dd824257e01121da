//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// The reference operator's metrics are read every way a user can: by discovery through the
// proxy and through a port-forward, with --url, and, served over HTTPS with TokenReview and
// SubjectAccessReview as kubebuilder scaffolds, with a token minted for a service account
// (--token-from-sa) through a port-forward. Without the token the error says how to succeed.
func TestOperatorMetricsEveryWay(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	plugin := filepath.Join(env.binDir, "kubectl-ctrldiag")
	plain := startBehindPod(t, podSpec{Namespace: ns, Name: "plain", Labels: map[string]string{"app": "plain"},
		Ports: []podPort{{Name: "http-metrics", Port: 8080}},
		Command: func(l map[int32]string) []string {
			return []string{plugin, "operator", "run", "-n", ns, "--scenario", "healthy", "--leader-election-id", "plain",
				"--metrics-bind-address", l[8080], "--health-probe-bind-address", "0"}
		}})
	startBehindPod(t, podSpec{Namespace: ns, Name: "secure", Labels: map[string]string{"app": "secure"},
		Ports: []podPort{{Name: "https", Port: 8443}},
		Command: func(l map[int32]string) []string {
			return []string{plugin, "operator", "run", "-n", ns, "--leader-election-id", "secure",
				"--metrics-secure", "--metrics-bind-address", l[8443], "--health-probe-bind-address", "0"}
		}})
	plainID, secureID := fmt.Sprintf("%s/plain:8080", ns), fmt.Sprintf("%s/secure:8443", ns)
	hasQueue := func(l queueList, id string) bool { return contains(l.targetsOf()[id], "workload") }

	eventually(t, 60e9, "the operator's workqueue", func() error {
		if l, r := queuesJSON(t, "-n", ns, "pod/plain", "--interval", "0"); !hasQueue(l, plainID) {
			return fmt.Errorf("%s", r)
		}
		return nil
	})
	for _, way := range [][]string{{"-n", ns, "pod/plain", "--via", "port-forward"}, {"--url", "http://" + plain.Listen[8080] + "/metrics"}} {
		if l, r := queuesJSON(t, append(way, "--interval", "1s")...); r.Code != 0 || len(l.Items) == 0 || l.Items[0].Queue != "workload" {
			t.Errorf("queues %v:\n%s", way, r)
		}
	}

	// Through the proxy the secure endpoint answers 401: the advice names --token-from-sa.
	// One target failed: exit 1, as kubectl get on a partial failure, the other printed.
	l, r := queuesJSON(t, "-n", ns, "--interval", "0")
	if r.Code != 1 || !hasQueue(l, plainID) || len(l.Errors) != 1 || l.Errors[0].Target != secureID ||
		!strings.Contains(l.Errors[0].Error, "401") || !strings.Contains(l.Errors[0].Error, "--token-from-sa") {
		t.Errorf("the secured operator without a token must fail with advice:\n%s", r)
	}

	// A service account allowed to get /metrics: the plugin mints its token and port-forwards.
	mustKubectl(t, "-n", ns, "create", "serviceaccount", "scraper")
	mustKubectl(t, "create", "clusterrole", "e2e-metrics-reader-"+ns, "--verb=get", "--non-resource-url=/metrics")
	mustKubectl(t, "create", "clusterrolebinding", "e2e-metrics-reader-"+ns, "--clusterrole=e2e-metrics-reader-"+ns,
		"--serviceaccount="+ns+":scraper")
	t.Cleanup(func() {
		kubectl(t, "delete", "clusterrolebinding,clusterrole", "e2e-metrics-reader-"+ns, "--ignore-not-found")
	})
	l, r = queuesJSON(t, "-n", ns, "--interval", "0", "--token-from-sa", ns+"/scraper", "--insecure-skip-tls-verify-metrics")
	if r.Code != 0 || !hasQueue(l, secureID) || !hasQueue(l, plainID) || len(l.Errors) != 0 {
		t.Errorf("--token-from-sa must read both operators:\n%s", r)
	}
	r = ctrldiag(t, "targets", "-n", ns, "--token-from-sa", ns+"/scraper", "-o", "wide")
	if r.Code != 0 || strings.Count(r.Stdout, "port-forward") != 2 {
		t.Errorf("with a token both targets go through port-forward:\n%s", r)
	}
	// A service account without the binding is refused by the endpoint's SubjectAccessReview.
	mustKubectl(t, "-n", ns, "create", "serviceaccount", "nobody")
	l, r = queuesJSON(t, "-n", ns, "secure", "--interval", "0", "--token-from-sa", ns+"/nobody", "--insecure-skip-tls-verify-metrics")
	if r.Code != 1 || !strings.Contains(r.Stderr, "403") {
		t.Errorf("a token that may not get /metrics must be refused with 403:\n%s", r)
	}
}
