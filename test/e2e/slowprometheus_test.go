//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowProxy is a reverse proxy, on loopback, in front of the server at target that answers
// one query at a time, each delay late: an overloaded server. A query whose client went away
// is not passed on.
func slowProxy(t *testing.T, target string, delay time.Duration) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	var one sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		one.Lock()
		defer one.Unlock()
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// --deadline is one clock for the whole run: against a Prometheus that answers every query
// 2.5 s late, `queues --deadline 3s` cannot have both the targets and their series, and ends
// within the deadline and a second, exit 1, saying the overall deadline was reached.
func TestDeadlineHoldsOnASlowPrometheus(t *testing.T) {
	crowd(t)
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	ns := newNamespace(t)
	p := operatorBehindPod(t, ns, "operator-slow", "healthy")
	prom := startPromBackend(t, "prometheus", bin, fmt.Sprintf(`
  - job_name: operator
    static_configs:
      - targets: [%q]
        labels: {cluster: e2e, namespace: %q, pod: %q}
`, p.Listen[8080], ns, p.Name))
	// A few scrapes, and the server itself read in time: the deadline is the proxy's doing.
	time.Sleep(10 * time.Second)
	if r := ctrldiag(t, "queues", "--prometheus", prom, "-n", ns, "--window", "8s"); r.Code != 0 {
		t.Fatalf("queues --prometheus without the proxy:\n%s", r)
	}

	// The second is the run's; starting kubectl and the plugin is not, and on a busy machine
	// it takes part of a second or more (seen: 4.23s in all beside the crowd). Their start-up,
	// measured just before and just after (the larger), is added to the bound.
	startupOf := func() time.Duration {
		s0 := time.Now()
		if r := ctrldiag(t, "version"); r.Code != 0 {
			t.Fatalf("version:\n%s", r)
		}
		return time.Since(s0)
	}
	startup := startupOf()

	const deadline = 3 * time.Second
	slow := slowProxy(t, prom, 2500*time.Millisecond)
	start := time.Now()
	r := ctrldiag(t, "queues", "--prometheus", slow, "-n", ns, "--window", "8s", "--deadline", deadline.String())
	took := time.Since(start)
	startup = max(startup, startupOf())
	t.Logf("queues --prometheus (2.5 s per answer) --deadline %s took %s; kubectl ctrldiag version took %s",
		deadline, took.Round(time.Millisecond), startup.Round(time.Millisecond))
	if took > deadline+time.Second+startup {
		t.Errorf("queues took %s with --deadline %s, want at most a second more than that and the start-up (%s)", took, deadline, startup)
	}
	if r.Code != 1 || !strings.Contains(r.Stderr, "overall deadline reached: --deadline 3s passed") {
		t.Errorf("want exit 1 and the overall deadline named on stderr:\n%s", r)
	}
}
