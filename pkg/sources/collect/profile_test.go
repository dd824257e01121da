package collect

import (
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// The metrics token goes to the metrics endpoint only: a pprof port found in the pod is read
// through a port-forward that sends none.
func TestTheMetricsTokenGoesToTheMetricsEndpointOnly(t *testing.T) {
	c := &clusterConn{cfg: Config{HTTP: scrape.HTTPConfig{Token: "s3cret"}},
		proxy: &scrape.Proxy{}, forward: &scrape.PortForward{Token: "s3cret"}, bare: &scrape.PortForward{}, direct: &scrape.APIServer{}}
	metrics := target.Target{Kind: target.KindPod, Namespace: "ns", Name: "p", Port: 8443, Scheme: "https", Path: "/metrics", Via: target.ViaPortForward}

	pprof := metrics
	pprof.Port, pprof.Scheme, pprof.Path = 6060, "http", goroutines.GoroutinePath
	tr, _, token := c.profileWays(metrics, pprof)
	if tr != c.bare || token != "" {
		t.Errorf("a pprof port of its own: %T %v, token %q; want the port-forward without credentials", tr, tr == c.forward, token)
	}
	pprof.Via = target.ViaProxy
	if tr, fallback, _ := c.profileWays(metrics, pprof); tr != c.proxy || fallback != c.bare {
		t.Errorf("through the proxy, the fallback sends credentials: %v", fallback == c.forward)
	}

	beside := metrics
	beside.Path = goroutines.GoroutinePath
	if tr, _, token := c.profileWays(metrics, beside); tr != c.forward || token != "s3cret" {
		t.Errorf("beside the metrics: %v, token %q; want the metrics' own way and token", tr == c.forward, token)
	}
}
