package cmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

func promFlags(url string) SourceFlags {
	f := SourceDefaults()
	f.Prom = PromFlags{URL: url, ClusterLabel: "cluster", MaxSeries: 100}
	return f
}

// --prometheus svc/NS/NAME:PORT must name a service, and takes none of the server's own
// credentials or TLS.
func TestPrometheusServiceRefs(t *testing.T) {
	g := testGlobals()
	for _, ref := range []string{"svc/monitoring/prometheus-k8s:9090", "svc/monitoring/https:prometheus-k8s:web"} {
		f := promFlags(ref)
		if _, err := f.Spec(g, nil); err != nil {
			t.Errorf("%s: %v", ref, err)
		}
	}
	for _, bad := range []struct {
		ref  string
		with func(*SourceFlags)
	}{
		{"svc/monitoring/prometheus-k8s", nil},
		{"svc/prometheus-k8s:9090", nil},
		{"svc/Monitoring/prometheus-k8s:9090", nil},
		{"svc/monitoring/prometheus-k8s:9090", func(f *SourceFlags) { f.Prom.BearerToken = "t" }},
		{"svc/monitoring/prometheus-k8s:9090", func(f *SourceFlags) { f.Prom.Insecure = true }},
	} {
		f := promFlags(bad.ref)
		if bad.with != nil {
			bad.with(&f)
		}
		if _, err := f.Spec(g, nil); err == nil {
			t.Errorf("%s accepted", bad.ref)
		}
	}
	f := promFlags("svc/monitoring/prometheus-k8s:9090")
	if _, err := f.Spec(&cli.GlobalFlags{}, nil); err == nil || !strings.Contains(err.Error(), "needs a kubeconfig") {
		t.Errorf("no kubeconfig: %v", err)
	}
}

// Basic auth comes from a file (USER:PASSWORD) or from --prometheus-user and the environment;
// the password never shows in an error.
func TestPrometheusBasicAuth(t *testing.T) {
	url := "http://prometheus:9090"
	file := filepath.Join(t.TempDir(), "auth")
	if err := os.WriteFile(file, []byte("alice:pa55-from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(PasswordEnv, "pa55-from-env")
	for _, c := range []struct {
		name, want string
		with       func(*SourceFlags)
	}{
		{"file", "alice:pa55-from-file", func(f *SourceFlags) { f.Prom.BasicAuth = file }},
		{"env", "bob:pa55-from-env", func(f *SourceFlags) { f.Prom.User = "bob" }},
	} {
		f := promFlags(url)
		c.with(&f)
		s, err := f.Spec(&cli.GlobalFlags{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Prometheus.User + ":" + s.Prometheus.Password; got != c.want {
			t.Errorf("%s: basic auth %q, want %q", c.name, got, c.want)
		}
	}

	empty := filepath.Join(t.TempDir(), "empty")
	_ = os.WriteFile(empty, []byte("alice\n"), 0o600)
	for name, with := range map[string]func(*SourceFlags){
		"no colon":         func(f *SourceFlags) { f.Prom.BasicAuth = empty },
		"both":             func(f *SourceFlags) { f.Prom.BasicAuth, f.Prom.User = file, "bob" },
		"with a token too": func(f *SourceFlags) { f.Prom.User, f.Prom.BearerToken = "bob", "t" },
	} {
		f := promFlags(url)
		with(&f)
		if _, err := f.Spec(&cli.GlobalFlags{}, nil); err == nil || strings.Contains(err.Error(), "pa55") {
			t.Errorf("%s: %v", name, err)
		}
	}
	t.Setenv(PasswordEnv, "")
	f := promFlags(url)
	f.Prom.User = "bob"
	var ue interface{ ExitCode() int }
	if _, err := f.Spec(&cli.GlobalFlags{}, nil); err == nil || !strings.Contains(err.Error(), PasswordEnv) || errors.As(err, &ue) && ue.ExitCode() == 0 {
		t.Errorf("no password in the environment: %v", err)
	}
}

// The usage error of a --prometheus URL with a query shows no credential-looking value.
func TestPrometheusURLUsageErrorHidesQueryCredentials(t *testing.T) {
	for _, raw := range []string{
		"http://prom:9090/?token=query-tok-77&access_token=query-tok-78&step=1",
		"http://erin:url-pass-78@prom:9090/?apikey=query-tok-79",
		"prom:9090?password=query-tok-80",
	} {
		f := promFlags(raw)
		_, err := f.Spec(&cli.GlobalFlags{}, nil)
		if err == nil {
			t.Fatalf("%s: no error", raw)
		}
		for _, leak := range []string{"query-tok-", "url-pass-78"} {
			if strings.Contains(err.Error(), leak) {
				t.Errorf("the usage error shows %q: %s", leak, err)
			}
		}
	}
}
