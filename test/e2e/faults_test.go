//go:build e2e

package e2e

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// apiProxy is a TCP proxy in front of the API server, so a test can make the API server
// vanish for one command without touching the cluster everyone shares.
type apiProxy struct {
	ln      net.Listener
	forward bool // false: accept and never answer (an API server that hangs)
	mu      sync.Mutex
	conns   []net.Conn
}

// startAPIProxy listens on loopback and forwards to the API server (or black-holes).
func startAPIProxy(t *testing.T, forward bool) *apiProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &apiProxy{ln: ln, forward: forward}
	t.Cleanup(p.Kill)
	go p.serve()
	return p
}

func (p *apiProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.track(c)
		if !p.forward {
			continue
		}
		go func() {
			up, err := net.DialTimeout("tcp", "198.18.0.1:6443", 5*time.Second)
			if err != nil {
				c.Close()
				return
			}
			p.track(up)
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			_, _ = io.Copy(c, up)
			c.Close()
		}()
	}
}

func (p *apiProxy) track(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns = append(p.conns, c)
}

// Kill stops the proxy: the listener and every connection close, as when the API server stops.
func (p *apiProxy) Kill() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// kubeconfig is the admin kubeconfig pointed at the proxy (the API server's certificate names
// 127.0.0.1).
func (p *apiProxy) kubeconfig(t *testing.T) string {
	t.Helper()
	cfg := mustKubectl(t, "config", "view", "--raw", "--minify", "--flatten")
	cfg = strings.Replace(cfg, "https://198.18.0.1:6443", "https://"+p.ln.Addr().String(), 1)
	path := filepath.Join(t.TempDir(), "proxied.kubeconfig")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The API server stops in the middle of a run, or hangs from the start: the command ends
// within its bounds with a clear error.
func TestFaultAPIServerGone(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	page := filepath.Join(env.root, "test/e2e/testdata/kube-controller-manager.prom")
	startBehindPod(t, podSpec{Namespace: ns, Name: "plain", Ports: []podPort{{Name: "metrics", Port: 8080}},
		Command: func(l map[int32]string) []string {
			return []string{env.servepage, "--listen", l[8080], "--file", page}
		}})

	t.Run("stops between samples", func(t *testing.T) {
		sub(t)
		// The API server goes away when the second sample asks for the page: the gate counts
		// the scrapes that pass through it, this command's only.
		scrapes := 0
		g := startAPIGate(t, func(r *http.Request) bool {
			if strings.Contains(r.URL.Path, "/proxy/") {
				scrapes++
			}
			return scrapes == 2
		})
		m := runBounded(t, g.kubeconfig(t), "queues", "-n", ns, "--via", "proxy", "--interval", "5s", "--timeout", "3s")
		// The first sample was read: lifetime figures, the second sample's failure, exit 1.
		if m.Code != 1 || !strings.Contains(m.Stdout, "workqueue") && !strings.Contains(m.Stdout, "deployment") ||
			!strings.Contains(m.Stderr, "second sample") || !strings.Contains(m.Stderr, "127.0.0.1") {
			t.Errorf("want the first sample shown and the second sample's failure named\n%s", m.Result)
		}
	})
	t.Run("gone before discovery", func(t *testing.T) {
		sub(t)
		p := startAPIProxy(t, true)
		kubeconfig := p.kubeconfig(t)
		p.Kill()
		m := runBounded(t, kubeconfig, "queues", "-n", ns, "--interval", "0", "--timeout", "3s")
		if m.Code != 1 || !strings.Contains(m.Stderr, "cannot reach the API server") {
			t.Errorf("want exit 1 saying the API server cannot be reached\n%s", m.Result)
		}
	})
	t.Run("hangs", func(t *testing.T) {
		sub(t)
		p := startAPIProxy(t, false)
		for _, args := range [][]string{
			{"queues", "-n", ns, "--interval", "0", "--timeout", "3s"},
			{"targets", "-A", "--timeout", "3s"},
		} {
			m := runBounded(t, p.kubeconfig(t), args...)
			// --timeout bounds every API call too (client-go alone would wait 10s for the TLS
			// handshake, and forever for an answer on an established connection).
			if m.Elapsed > 3*time.Second+4*time.Second {
				t.Errorf("%s took %s with --timeout 3s", args[0], m.Elapsed)
			}
			if m.Code != 1 || !strings.Contains(m.Stderr, "cannot reach the API server") {
				t.Errorf("%s: want exit 1 saying the API server cannot be reached\n%s", args[0], m.Result)
			}
		}
	})
}

// A namespace that does not exist, and one without any metrics endpoint.
func TestFaultNamespaces(t *testing.T) {
	crowd(t)
	r := ctrldiag(t, "queues", "-n", "no-such-namespace-e2e", "--interval", "0")
	if r.Code != 1 || !strings.Contains(r.Stderr, `namespace "no-such-namespace-e2e" does not exist`) {
		t.Errorf("a missing namespace:\n%s", r)
	}
	ns := newNamespace(t)
	r = ctrldiag(t, "queues", "-n", ns, "--interval", "0")
	if r.Code != 1 || !strings.Contains(r.Stderr, "no controller metrics endpoint found in namespace "+ns) {
		t.Errorf("an empty namespace:\n%s", r)
	}
	r = ctrldiag(t, "queues", "-A", "-l", "ctrldiag.dev/matches=nothing", "--interval", "0")
	if r.Code != 1 || !strings.Contains(r.Stderr, "no controller metrics endpoint found in any namespace with selector") {
		t.Errorf("nothing in the whole cluster:\n%s", r)
	}
	r = ctrldiag(t, "targets", "-n", ns)
	if r.Code != 0 || !strings.Contains(r.Stdout+r.Stderr, "No metrics endpoints found") {
		t.Errorf("targets in an empty namespace:\n%s", r)
	}
}
