package findings

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// histogramLines writes family's series with labels: n observations, slow of them at 2s, the
// rest at 5ms.
func histogramLines(b *strings.Builder, family, labels string, n, slow float64) {
	for _, bk := range []struct {
		le string
		c  float64
	}{{"0.005", n - slow}, {"1", n - slow}, {"2", n}, {"+Inf", n}} {
		fmt.Fprintf(b, "%s_bucket{%s,le=%q} %g\n", family, labels, bk.le, bk.c)
	}
	fmt.Fprintf(b, "%s_sum{%s} %g\n%s_count{%s} %g\n", family, labels, 2*slow, family, labels, n)
}

// requestsPage is an API server page with POST pods and GET secrets (n each, slow of them
// slow, and WATCH pods that last 60s), or a kube-controller-manager page whose client POSTs n
// requests, slow of them slow.
func requestsPage(t *testing.T, apiserver bool, n, slowPods, slowSecrets float64) *health.Snapshot {
	var b strings.Builder
	if apiserver {
		b.WriteString("# TYPE apiserver_request_duration_seconds histogram\n")
		histogramLines(&b, "apiserver_request_duration_seconds", `verb="POST",group="",resource="pods",subresource="",scope="resource",component="apiserver"`, n, slowPods)
		histogramLines(&b, "apiserver_request_duration_seconds", `verb="GET",group="",resource="secrets",subresource="",scope="resource",component="apiserver"`, n, slowSecrets)
		histogramLines(&b, "apiserver_request_duration_seconds", `verb="WATCH",group="",resource="pods",subresource="",scope="cluster",component="apiserver"`, n, n)
	} else {
		b.WriteString("workqueue_depth{name=\"replicaset\"} 0\n# TYPE rest_client_request_duration_seconds histogram\n")
		histogramLines(&b, "rest_client_request_duration_seconds", `verb="POST",host="10.0.0.1:6443"`, n, slowPods)
	}
	return health.FromFamilies(testpages.ParseText(t, b.String()), time.Time{})
}

func TestRequestLatency(t *testing.T) {
	apiserver := func(slowPods, slowSecrets float64) Target {
		return Target{ID: "apiserver", Kind: KubeAPIServer, Prev: requestsPage(t, true, 0, 0, 0), Cur: requestsPage(t, true, 40, slowPods, slowSecrets), Window: 15 * time.Second}
	}
	kcm := func(slowClient float64) Target {
		return Target{ID: "kube-system/kcm:10257", Kind: KubeControllerManager, Prev: requestsPage(t, false, 0, 0, 0), Cur: requestsPage(t, false, 40, slowClient, 0),
			Window: 15 * time.Second, Queues: []health.QueueStats{{Queue: "replicaset"}}}
	}
	cases := []struct {
		name    string
		targets []Target
		want    string // the summary's start, "" for none
	}{
		{"the API server is slow for what the controller writes", []Target{kcm(20), apiserver(20, 0)}, "the API server is slow for POST pods (p99 "},
		{"the client waits while the server is fast", []Target{kcm(20), apiserver(0, 0)}, "the controller's client waits: its POST p99 "},
		{"both fast", []Target{kcm(0), apiserver(0, 0)}, ""},
		{"slow for a resource the controller does not use", []Target{kcm(0), apiserver(0, 40)}, ""},
		{"no API server", []Target{kcm(20)}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := requestLatency(c.targets, DefaultThresholds())
			switch {
			case c.want == "" && len(fs) != 0:
				t.Errorf("findings %s", fs[0].Summary)
			case c.want != "" && (len(fs) != 1 || !strings.HasPrefix(fs[0].Summary, c.want) || fs[0].Code != "CD222" || fs[0].Target != "kube-system/kcm:10257"):
				t.Errorf("findings %+v, want one starting %q", fs, c.want)
			}
		})
	}
	if a := apiserver(0, 0); len(a.Cur.APIRequests) != 2 {
		t.Errorf("the API server's requests %v: WATCH is a stream, not a latency", a.Cur.APIRequests)
	}
}
