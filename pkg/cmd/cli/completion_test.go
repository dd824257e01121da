package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// apiServer serves handler as a fake API server until the test ends.
func apiServer(t *testing.T, handler http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv
}

func list(kind string, names ...string) string {
	items := make([]string, len(names))
	for i, n := range names {
		items[i] = fmt.Sprintf(`{"metadata":{"name":%q}}`, n)
	}
	return fmt.Sprintf(`{"kind":%q,"apiVersion":"v1","metadata":{},"items":[%s]}`, kind, strings.Join(items, ","))
}

func fakeCluster(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api/v1/namespaces":
		fmt.Fprint(w, list("NamespaceList", "kube-system", "demo", "default"))
	case "/api/v1/namespaces/demo/pods":
		fmt.Fprint(w, list("PodList", "web-1", "operator-7f9c", "web-0"))
	default:
		http.NotFound(w, r)
	}
}

// flagsFor are kubeconfig flags for a kubeconfig whose current context points at server, in
// namespace ns.
func flagsFor(t *testing.T, server, ns string) *GlobalFlags {
	t.Helper()
	kubeconfig := filepath.Join(t.TempDir(), "config")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: %q}
contexts:
- name: ctx-a
  context: {cluster: c, user: u, namespace: %s}
- name: ctx-b
  context: {cluster: c, user: u}
current-context: ctx-a
users:
- name: u
  user: {token: t}
`, server, ns)
	if err := os.WriteFile(kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cf := genericclioptions.NewConfigFlags(false)
	cf.KubeConfig = &kubeconfig
	return &GlobalFlags{ConfigFlags: cf}
}

func run(fn cobra.CompletionFunc, toComplete string) ([]string, cobra.ShellCompDirective) {
	return fn(&cobra.Command{}, nil, toComplete)
}

func TestNamespaces(t *testing.T) {
	g := flagsFor(t, apiServer(t, fakeCluster).URL, "demo")
	got, d := run(CompleteNamespaces(g), "")
	if strings.Join(got, " ") != "default demo kube-system" || d != cobra.ShellCompDirectiveNoFileComp {
		t.Errorf("Namespaces = %q %v", got, d)
	}
	if got, _ := run(CompleteNamespaces(g), "de"); strings.Join(got, " ") != "default demo" {
		t.Errorf("Namespaces(de) = %q", got)
	}
}

func TestPods(t *testing.T) {
	g := flagsFor(t, apiServer(t, fakeCluster).URL, "demo")
	for _, tc := range []struct{ typed, want string }{
		{"", "operator-7f9c web-0 web-1"},
		{"web", "web-0 web-1"},
		{"pod/", "pod/operator-7f9c pod/web-0 pod/web-1"},
		{"po/w", "po/web-0 po/web-1"},
		{"svc/", ""},
	} {
		got, d := run(CompletePods(g), tc.typed)
		if strings.Join(got, " ") != tc.want || d != cobra.ShellCompDirectiveNoFileComp {
			t.Errorf("Pods(%q) = %q %v, want %q", tc.typed, got, d, tc.want)
		}
	}
	g.AllNamespaces = true
	if got, _ := run(CompletePods(g), ""); len(got) != 0 {
		t.Errorf("Pods with -A = %q, want nothing: no one namespace", got)
	}
}

func TestContextsReadNoCluster(t *testing.T) {
	g := flagsFor(t, "https://127.0.0.1:1", "demo")
	if got, _ := run(CompleteContexts(g), ""); strings.Join(got, " ") != "ctx-a ctx-b" {
		t.Errorf("Contexts = %q", got)
	}
}

// A cluster that refuses, or does not answer, gives nothing, and not later than the timeout.
func TestClusterTroubleGivesNothing(t *testing.T) {
	saved := clusterTimeout
	clusterTimeout = 300 * time.Millisecond
	t.Cleanup(func() { clusterTimeout = saved })

	refusing := apiServer(t, func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403}`, http.StatusForbidden)
	})
	release := make(chan struct{})
	hanging := apiServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()

	for name, url := range map[string]string{"refusing": refusing.URL, "hanging": hanging.URL, "closed": closed.URL} {
		g := flagsFor(t, url, "demo")
		start := time.Now()
		ns, _ := run(CompleteNamespaces(g), "")
		pods, _ := run(CompletePods(g), "")
		if len(ns)+len(pods) != 0 {
			t.Errorf("%s cluster: offered %q %q", name, ns, pods)
		}
		if took := time.Since(start); took > 4*clusterTimeout {
			t.Errorf("%s cluster: completion took %s, the bound is %s per question", name, took, clusterTimeout)
		}
	}
}

func TestWordsAndKeys(t *testing.T) {
	if got, d := run(CompleteFormats("", "wide", "json", "yaml"), ""); strings.Join(got, " ") != "wide json yaml" || d != cobra.ShellCompDirectiveNoFileComp {
		t.Errorf("Formats = %q %v: the default \"\" is not a word to type", got, d)
	}
	if got, d := run(CompleteKeys("a", "ab", "b"), "a"); strings.Join(got, " ") != "a= ab=" ||
		d != cobra.ShellCompDirectiveNoFileComp|cobra.ShellCompDirectiveNoSpace {
		t.Errorf("Keys(a) = %q %v", got, d)
	}
}

func TestRegisterRefusesAMissingFlag(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Register of a flag the command does not have did not panic")
		}
	}()
	CompleteFlag(&cobra.Command{Use: "x"}, "no-such-flag", CompleteWords("a"))
}
