package sourceflags

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
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
func kubeconfigFor(t *testing.T, server string) *globals.Flags {
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
	return &globals.Flags{ConfigFlags: cf}
}

func promFlags(url string) Flags {
	f := Defaults()
	f.Prom = PromFlags{URL: url, ClusterLabel: "cluster", MaxSeries: 100}
	return f
}

// --prometheus svc/NS/NAME:PORT asks the API server's service proxy, with the kubeconfig's
// credentials, and passes the extra headers on.
func TestPrometheusThroughServiceProxy(t *testing.T) {
	srv, s := apiServer(t)
	g := kubeconfigFor(t, srv.URL)
	for _, ref := range []string{"svc/monitoring/prometheus-k8s:9090", "svc/monitoring/https:prometheus-k8s:web"} {
		f := promFlags(ref)
		f.Prom.Headers = []string{"X-Scope-OrgID=team-a"}
		r, err := f.Resolve(g, nil, nil)
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
		req := s.last()
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

	f := promFlags("svc/monitoring/nope:9090")
	r, err := f.Resolve(g, nil, nil)
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

	for _, bad := range []struct {
		ref  string
		with func(*Flags)
	}{
		{"svc/monitoring/prometheus-k8s", nil},
		{"svc/prometheus-k8s:9090", nil},
		{"svc/Monitoring/prometheus-k8s:9090", nil},
		{"svc/monitoring/prometheus-k8s:9090", func(f *Flags) { f.Prom.BearerToken = "t" }},
		{"svc/monitoring/prometheus-k8s:9090", func(f *Flags) { f.Prom.Insecure = true }},
	} {
		f := promFlags(bad.ref)
		if bad.with != nil {
			bad.with(&f)
		}
		if _, err := f.Resolve(g, nil, nil); err == nil {
			t.Errorf("%s accepted", bad.ref)
		}
	}
}

// Basic auth comes from a file (USER:PASSWORD) or from --prometheus-user and the environment;
// the password never shows in an error.
func TestPrometheusBasicAuth(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		got = append(got, fmt.Sprintf("%s:%s %v", u, p, ok))
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = fmt.Fprint(w, `{"status":"error","errorType":"unauthorized","error":"bad credentials"}`)
	}))
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "auth")
	if err := os.WriteFile(file, []byte("alice:pa55-from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(PasswordEnv, "pa55-from-env")
	for _, c := range []struct {
		name, want string
		with       func(*Flags)
	}{
		{"file", "alice:pa55-from-file true", func(f *Flags) { f.Prom.BasicAuth = file }},
		{"env", "bob:pa55-from-env true", func(f *Flags) { f.Prom.User = "bob" }},
	} {
		f := promFlags(srv.URL)
		c.with(&f)
		r, err := f.Resolve(&globals.Flags{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Source.Open(context.Background())
		if err == nil || !strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), "pa55") {
			t.Errorf("%s: error %v", c.name, err)
		}
		if len(got) == 0 || got[len(got)-1] != c.want {
			t.Errorf("%s: server saw %v, want %q", c.name, got, c.want)
		}
	}
	if s := redact.String("x pa55-from-file pa55-from-env"); strings.Contains(s, "pa55") {
		t.Errorf("passwords not redacted: %s", s)
	}

	empty := filepath.Join(t.TempDir(), "empty")
	_ = os.WriteFile(empty, []byte("alice\n"), 0o600)
	for name, with := range map[string]func(*Flags){
		"no colon":         func(f *Flags) { f.Prom.BasicAuth = empty },
		"both":             func(f *Flags) { f.Prom.BasicAuth, f.Prom.User = file, "bob" },
		"with a token too": func(f *Flags) { f.Prom.User, f.Prom.BearerToken = "bob", "t" },
	} {
		f := promFlags(srv.URL)
		with(&f)
		if _, err := f.Resolve(&globals.Flags{}, nil, nil); err == nil || strings.Contains(err.Error(), "pa55") {
			t.Errorf("%s: %v", name, err)
		}
	}
	t.Setenv(PasswordEnv, "")
	f := promFlags(srv.URL)
	f.Prom.User = "bob"
	var ue interface{ ExitCode() int }
	if _, err := f.Resolve(&globals.Flags{}, nil, nil); err == nil || !strings.Contains(err.Error(), PasswordEnv) || errors.As(err, &ue) && ue.ExitCode() == 0 {
		t.Errorf("no password in the environment: %v", err)
	}
}
