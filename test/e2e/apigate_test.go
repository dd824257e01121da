//go:build e2e

package e2e

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// apiGate is an HTTPS proxy in front of the API server that sees each request, so a test can
// count a command's requests, or make the API server go away at a precise step of one
// command (not on a timer, which a busy machine makes wrong), without touching the cluster
// everyone shares.
type apiGate struct {
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []string // the requests seen since the last reset, in order: "METHOD /path?query"
	goneAt string   // the request at which the gate went away
}

// startAPIGate forwards every request to the API server as admin until goneWhen (nil: never)
// says the request it is handed is the first one of a world without API server: then the
// listener and every connection close, that request included, as when the API server stops.
func startAPIGate(t *testing.T, goneWhen func(r *http.Request) bool) *apiGate {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	upstream, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	host, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatal(err)
	}
	g := &apiGate{}
	forward := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(host) },
		Transport:     upstream,
		FlushInterval: -1, // watches stream
	}
	var once sync.Once
	g.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		g.reqs = append(g.reqs, r.Method+" "+r.URL.RequestURI())
		gone := g.goneAt != "" || goneWhen != nil && goneWhen(r)
		if gone && g.goneAt == "" {
			g.goneAt = r.URL.Path
		}
		g.mu.Unlock()
		if gone {
			once.Do(func() {
				g.srv.Listener.Close()
				g.srv.CloseClientConnections()
			})
			panic(http.ErrAbortHandler)
		}
		forward.ServeHTTP(w, r)
	}))
	g.srv.StartTLS()
	t.Cleanup(func() {
		g.srv.Listener.Close()
		g.srv.CloseClientConnections()
		if t.Failed() {
			g.mu.Lock()
			t.Logf("requests through the API gate (gone at %q):\n%s", g.goneAt, strings.Join(g.reqs, "\n"))
			g.mu.Unlock()
		}
	})
	return g
}

// kubeconfig is the admin kubeconfig pointed at the gate, trusting the gate's certificate.
func (g *apiGate) kubeconfig(t *testing.T) string {
	t.Helper()
	c, err := clientcmd.LoadFromFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: g.srv.Certificate().Raw})
	for _, cl := range c.Clusters {
		cl.Server = g.srv.URL
		cl.CertificateAuthority = ""
		cl.CertificateAuthorityData = ca
		cl.TLSServerName = ""
	}
	path := filepath.Join(t.TempDir(), "gated.kubeconfig") // written 0600
	if err := clientcmd.WriteToFile(*c, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// reset returns the requests seen so far and forgets them.
func (g *apiGate) reset() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.reqs
	g.reqs = nil
	return r
}
