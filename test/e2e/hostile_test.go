//go:build e2e

package e2e

import (
	"encoding/json"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/test/e2e/hostile"
)

// hostileCase is one misbehaving endpoint and what the plugin must say about it.
type hostileCase struct {
	name string
	// url is the hostile endpoint; reason is a part of the error the plugin must give for it,
	// empty when the page must be read (e.g. NaN values are valid).
	url, reason string
}

// hostileWarnings holds, by case name, a part of the stderr warning the plugin must give for a
// page it reads but cannot fully use.
var hostileWarnings = map[string]string{
	"wrong-type": "workqueue_depth is declared TYPE histogram but is read as gauge, counter or untyped",
}

// Hang checks: a command ends within hangSlack of its --timeout (hostileTimeout, 3s, unless it
// says otherwise), and its peak RSS stays under rssBound whatever the endpoint sends (10 GB
// bodies, gzip bombs, millions of series).
const (
	hostileTimeout = 3 * time.Second
	hangSlack      = 10 * time.Second
	rssBoundKiB    = 256 << 10
)

// hangBound is the longest a command with args may take before it counts as hanging: its last
// --timeout (hostileTimeout when it gives none) plus hangSlack.
func hangBound(args []string) time.Duration {
	timeout := hostileTimeout
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--timeout=")
		if !ok && a == "--timeout" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if d, err := time.ParseDuration(v); ok && err == nil && d > 0 {
			timeout = d
		}
	}
	return timeout + hangSlack
}

// loopbackHostile starts the hostile endpoints on loopback: an HTTP server, an HTTPS server
// whose certificate names another host, a listener that never answers, and a closed port.
func loopbackHostile(t *testing.T) (plain, secure, silent, closed string) {
	t.Helper()
	srv := httptest.NewServer(hostile.Handler())
	t.Cleanup(srv.Close)
	tlsSrv := httptest.NewUnstartedServer(hostile.Handler())
	cfg, err := hostile.WrongNameTLS()
	if err != nil {
		t.Fatal(err)
	}
	tlsSrv.TLS = cfg
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go hostile.Silent(ln)
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed = dead.Addr().String()
	dead.Close()
	return srv.Listener.Addr().String(), tlsSrv.Listener.Addr().String(), ln.Addr().String(), closed
}

// hostileCases lists every mode against the servers at these addresses (host:port).
func hostileCases(plain, secure, silent, closed string) []hostileCase {
	p := "http://" + plain
	return []hostileCase{
		{"hang", p + "/hang", "no complete answer within the timeout"},
		{"drip", p + "/drip", "no complete answer within the timeout"},
		{"endless", p + "/endless", "larger than"},
		{"10g", p + "/10g", "larger than"},
		{"gzip-bomb", p + "/gzip-bomb", "larger than"},
		{"many-series", p + "/many-series", "series"},
		{"bad-escape", p + "/bad-escape", "invalid escape sequence"},
		{"duplicate-family", p + "/duplicate-family", "second TYPE line"},
		{"wrong-type", p + "/wrong-type", ""},
		{"nan", p + "/nan", ""},
		{"non-utf8", p + "/non-utf8", "invalid label value"},
		{"huge-label", p + "/huge-label", ""},
		{"login", p + "/login", "text/html"},
		{"html-as-text", p + "/html-as-text", `line 1 starts "<!DOCTYPE html>`},
		{"json", p + "/json", `not Prometheus text metrics (Content-Type "application/json")`},
		{"binary", p + "/binary", `not Prometheus text metrics (Content-Type "application/octet-stream")`},
		{"protobuf", p + "/protobuf", "the endpoint sent the protobuf exposition format"},
		{"redirect-loop", p + "/redirect-loop", "redirect"},
		{"redirect-away", p + "/redirect-away", "redirect"},
		{"401", p + "/status/401", "needs a bearer token"},
		{"403", p + "/status/403", "may not read metrics"},
		{"404", p + "/status/404", "nothing serves metrics at this path"},
		{"500", p + "/status/500", "500 Internal Server Error"},
		{"503", p + "/status/503", "503 Service Unavailable"},
		{"wrong-cert-name", "https://" + secure + "/metrics", "certificate"},
		{"http-on-https-port", "http://" + secure + "/metrics", "https://"},
		{"https-on-http-port", "https://" + plain + "/metrics", "http://"},
		{"silent", "http://" + silent + "/metrics", "no complete answer within the timeout"},
		{"silent-tls", "https://" + silent + "/metrics", "no complete answer within the timeout"},
		{"nothing-listens", "http://" + closed + "/metrics", "nothing listens there"},
	}
}

// measured is a command's result with its duration and peak resident memory.
type measured struct {
	Result
	Elapsed time.Duration
	MaxRSS  int64 // KiB
}

// runBounded runs `kubectl ctrldiag args...` (kubectl execs the plugin, so the process's peak
// memory is the plugin's) and fails the test when it runs longer than hangBound or peaks above
// rssBoundKiB.
func runBounded(t *testing.T, kubeconfig string, args ...string) measured {
	t.Helper()
	r, u := runMeasured(t, kubeconfig, "kubectl", append([]string{"ctrldiag"}, args...)...)
	m := measured{Result: r, Elapsed: u.Wall, MaxRSS: u.MaxRSS >> 10}
	if bound := hangBound(args); m.Elapsed > bound {
		t.Errorf("kubectl ctrldiag %s took %s, more than %s: it hangs\n%s", strings.Join(args, " "), m.Elapsed, bound, m.Result)
	}
	if m.MaxRSS > rssBoundKiB {
		t.Errorf("kubectl ctrldiag %s peaked at %d MiB of memory, more than %d MiB", strings.Join(args, " "), m.MaxRSS>>10, rssBoundKiB>>10)
	}
	return m
}

// checkHostile runs queues on the hostile endpoint beside a healthy one and checks the
// outcome: the healthy target is read, the hostile one is reported with the reason, exit 1 as
// kubectl get exits on a partial failure (0 when the hostile page is read after all).
func checkHostile(t *testing.T, kubeconfig string, c hostileCase, healthyID string, args ...string) {
	t.Helper()
	args = append([]string{"queues", "-o", "json", "--interval", "0", "--timeout", hostileTimeout.String()}, args...)
	m := runBounded(t, kubeconfig, args...)
	t.Logf("%s: exit %d in %s, peak RSS %d MiB", c.name, m.Code, m.Elapsed.Round(time.Millisecond), m.MaxRSS>>10)
	if want := map[bool]int{true: 0, false: 1}[c.reason == ""]; m.Code != want {
		t.Fatalf("exit code %d, want %d (reason %q)\n%s", m.Code, want, c.reason, m.Result)
	}
	var l queueList
	if err := json.Unmarshal([]byte(m.Stdout), &l); err != nil {
		t.Fatalf("queues -o json is not JSON: %v\n%s", err, m.Result)
	}
	if !contains(l.targetsOf()[healthyID], "healthy") {
		t.Errorf("the healthy target %s must be read beside the hostile one: %v\n%s", healthyID, keys(l.targetsOf()), m.Result)
	}
	var reasons []string
	for _, e := range l.Errors {
		reasons = append(reasons, e.Target+": "+e.Error)
	}
	switch {
	case c.reason == "" && len(l.Errors) > 0:
		t.Errorf("the page must be read, got errors: %s", strings.Join(reasons, "\n"))
	case c.reason != "" && (len(l.Errors) != 1 || !strings.Contains(l.Errors[0].Error, c.reason)):
		t.Errorf("want one error saying %q, got:\n%s", c.reason, strings.Join(reasons, "\n"))
	}
	if c.reason != "" && !strings.Contains(m.Stderr, c.reason) {
		t.Errorf("stderr must carry the reason %q:\n%s", c.reason, m.Stderr)
	}
	if w := hostileWarnings[c.name]; w != "" && !strings.Contains(m.Stderr, w) {
		t.Errorf("stderr must warn %q:\n%s", w, m.Stderr)
	}
}

// Every hostile endpoint, read directly with --url beside a healthy one.
func TestHostileURL(t *testing.T) {
	crowd(t)
	plain, secure, silent, closed := loopbackHostile(t)
	healthy := "http://" + plain + "/metrics"
	for _, c := range hostileCases(plain, secure, silent, closed) {
		t.Run(c.name, func(t *testing.T) {
			sub(t)
			args := []string{"--url", healthy, "--url", c.url}
			if c.reason == "larger than" {
				// The cap (64 MiB) must be reached before the timeout: not a race with 3s on
				// a busy machine (seen: endless timed out first beside the crowd).
				args = append(args, "--timeout", "10s")
			}
			checkHostile(t, env.kubeconfig, c, healthy, args...)
		})
	}
	t.Run("alone", func(t *testing.T) {
		sub(t)
		// The hostile endpoint alone: nothing read, exit 1, the reason on stderr.
		m := runBounded(t, env.kubeconfig, "queues", "--interval", "0", "--timeout", hostileTimeout.String(), "--url", "http://"+plain+"/hang")
		if m.Code != 1 || !strings.Contains(m.Stderr, "no target could be read") || !strings.Contains(m.Stderr, "no complete answer within the timeout") {
			t.Errorf("a lone hanging target: want exit 1 and the reason\n%s", m.Result)
		}
	})
	t.Run("usage", func(t *testing.T) {
		sub(t)
		m := runBounded(t, env.kubeconfig, "queues", "--timeout", "0s", "--url", healthy)
		if m.Code != 2 {
			t.Errorf("an invalid --timeout is a usage error (exit 2)\n%s", m.Result)
		}
	})
}
