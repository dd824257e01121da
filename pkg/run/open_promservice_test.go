package run

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// seen is what an API server stand-in was asked.
type seen struct {
	mu   sync.Mutex
	reqs []*http.Request
}

func (s *seen) last() *http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		return nil
	}
	return s.reqs[len(s.reqs)-1]
}

// apiServer stands for the API server's service proxy: it answers a vector with one
// controller series on the proxy path of monitoring/prometheus-k8s:9090 (or web), and a
// Kubernetes Status 404 elsewhere.
func apiServer(t *testing.T) (*httptest.Server, *seen) {
	s := &seen{}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		s.mu.Lock()
		s.reqs = append(s.reqs, r)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy/api/v1/query",
			"/api/v1/namespaces/monitoring/services/https:prometheus-k8s:web/proxy/api/v1/query":
			_, _ = fmt.Fprint(w, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"cluster":"c","namespace":"ns","pod":"op-0","job":"op","instance":"10.0.0.1:8080"},"value":[1700000000,"3"]}]}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"services \"nope\" not found","reason":"NotFound","code":404}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, s
}

// kubeconfigFor writes a kubeconfig pointing at server with a bearer token (client-go sends
// a kubeconfig's token only over https).
func kubeconfigFor(t *testing.T, server string) Kubeconfig {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: %q, insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: kube-token-123}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`, server)
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cf := genericclioptions.NewConfigFlags(false)
	cf.KubeConfig = &path
	return cf
}

// promSpec is a Spec of the server at url with the flags' defaults.
func promSpec(url string) Spec {
	return Spec{Timeout: 10 * time.Second, MaxBodyBytes: 16 << 20, Concurrency: 8, Deadline: 2 * time.Minute,
		Prometheus: Prometheus{URL: url, ClusterLabel: "cluster", MaxSeries: 100, Timeout: promsource.DefaultTimeout}}
}

// --prometheus svc/NS/NAME:PORT asks the API server's service proxy, with the kubeconfig's
// credentials, and passes the extra headers on.
func TestPrometheusThroughServiceProxy(t *testing.T) {
	srv, asked := apiServer(t)
	g := kubeconfigFor(t, srv.URL)
	for _, ref := range []string{"svc/monitoring/prometheus-k8s:9090", "svc/monitoring/https:prometheus-k8s:web"} {
		spec := promSpec(ref)
		spec.Prometheus.Headers = map[string]string{"X-Scope-OrgID": "team-a"}
		r, err := Open(spec, Inputs{Kubeconfig: g}, source.Clock{})
		if err != nil {
			t.Fatal(err)
		}
		inv, err := r.Source.Open(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if len(inv.Targets) != 1 || inv.Targets[0].ID() != "c/ns/op-0:8080" {
			t.Errorf("%s: targets %+v", ref, inv.Targets)
		}
		req := asked.last()
		if req.Header.Get("Authorization") != "Bearer kube-token-123" || req.Header.Get("X-Scope-OrgID") != "team-a" {
			t.Errorf("%s: headers %v", ref, req.Header)
		}
		// GET: the verb get on services/proxy is enough (a POST needs create).
		if req.Method != http.MethodGet || !strings.HasPrefix(req.URL.Query().Get("query"), "count by") {
			t.Errorf("%s: %s %s, want a GET with the query in the URL", ref, req.Method, req.URL)
		}
		if !strings.Contains(r.Scope.Label, ref+" (through the API server's service proxy)") {
			t.Errorf("%s: scope %q", ref, r.Scope.Label)
		}
	}

	r, err := Open(promSpec("svc/monitoring/nope:9090"), Inputs{Kubeconfig: g}, source.Clock{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Source.Open(context.Background())
	if err == nil || !strings.Contains(err.Error(), `svc/monitoring/nope:9090 (through the API server's service proxy): the API server answered 404 Not Found: services "nope" not found`) {
		t.Errorf("missing service: %v", err)
	}
	if strings.Contains(redact.String("kube-token-123"), "kube-token-123") {
		t.Error("the kubeconfig's token is not redacted")
	}
}

// Basic auth is sent to the server; the password never shows in an error.
func TestPrometheusBasicAuth(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		got = append(got, fmt.Sprintf("%s:%s %v", u, p, ok))
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = fmt.Fprint(w, `{"status":"error","errorType":"unauthorized","error":"bad credentials"}`)
	}))
	defer srv.Close()
	for _, c := range []struct{ user, password, want string }{
		{"alice", "pa55-from-file", "alice:pa55-from-file true"},
		{"bob", "pa55-from-env", "bob:pa55-from-env true"},
	} {
		s := promSpec(srv.URL)
		s.Prometheus.User, s.Prometheus.Password = c.user, c.password
		r, err := Open(s, Inputs{}, source.Clock{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Source.Open(context.Background())
		if err == nil || !strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), "pa55") {
			t.Errorf("%s: error %v", c.user, err)
		}
		if len(got) == 0 || got[len(got)-1] != c.want {
			t.Errorf("%s: server saw %v, want %q", c.user, got, c.want)
		}
	}
	if s := redact.String("x pa55-from-file pa55-from-env"); strings.Contains(s, "pa55") {
		t.Errorf("passwords not redacted: %s", s)
	}
}
