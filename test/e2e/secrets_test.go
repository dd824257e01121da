//go:build e2e

package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/test/e2e/hostile"
)

// secretToken returns a token no output could contain by chance.
func secretToken(t *testing.T, what string) string {
	t.Helper()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "leak-canary-" + what + "-" + hex.EncodeToString(b)
}

// tokenKubeconfig writes a kubeconfig for the test cluster whose user authenticates with token.
func tokenKubeconfig(t *testing.T, token string) string {
	t.Helper()
	return userKubeconfig(t, "token-user", "--token", token)
}

// userKubeconfig writes a copy of the admin kubeconfig whose current context uses user, with
// the credentials kubectl config set-credentials takes from credentials.
func userKubeconfig(t *testing.T, user string, credentials ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), user+".kubeconfig")
	cfg := mustKubectl(t, "config", "view", "--raw", "--minify", "--flatten")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		append([]string{"config", "--kubeconfig", path, "set-credentials", user}, credentials...),
		{"config", "--kubeconfig", path, "set-context", "--current", "--user", user},
	} {
		if r := kubectl(t, args...); r.Code != 0 {
			t.Fatalf("kubectl %s: %s", strings.Join(args, " "), r)
		}
	}
	return path
}

// Tokens (--token, --token-file, a kubeconfig's bearer token, sent with --use-kubeconfig-token)
// never appear in any output format, error or log, at -v 0 and -v 10, even when an endpoint
// echoes the Authorization header it received into its error page.
func TestSecretsNeverShown(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	srv := httptest.NewServer(hostile.Handler())
	t.Cleanup(srv.Close)
	startBehindPod(t, podSpec{Namespace: ns, Name: "healthy",
		Annotations: map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "8080"},
		Ports:       []podPort{{Port: 8080}},
		Command:     func(l map[int32]string) []string { return []string{env.hostile, "--listen", l[8080]} }}).
		alsoBehind(t, "echo", nil, map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "8080",
			"prometheus.io/path": "/status/500"})

	flagToken, fileToken := secretToken(t, "flag"), secretToken(t, "file")
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(fileToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A ServiceAccount token in a kubeconfig: the API server accepts it, and
	// --use-kubeconfig-token sends it to the metrics endpoints too.
	mustKubectl(t, "-n", ns, "create", "serviceaccount", "leak-check")
	mustKubectl(t, "create", "clusterrolebinding", ns+"-leak-check", "--clusterrole=cluster-admin", "--serviceaccount="+ns+":leak-check")
	t.Cleanup(func() { kubectl(t, "delete", "clusterrolebinding", ns+"-leak-check") })
	saToken := strings.TrimSpace(mustKubectl(t, "-n", ns, "create", "token", "leak-check"))
	saKubeconfig := tokenKubeconfig(t, saToken)

	echo := srv.URL + "/status/500"
	runs := []struct {
		kubeconfig string
		args       []string
	}{
		{env.kubeconfig, []string{"queues", "--url", srv.URL + "/metrics", "--url", echo, "--token", flagToken}},
		{env.kubeconfig, []string{"queues", "--url", echo, "--token-file", tokenFile}},
		{env.kubeconfig, []string{"queues", "-n", ns, "--via", "port-forward", "--token", flagToken}},
		{env.kubeconfig, []string{"queues", "-n", ns, "--via", "port-forward", "--token-file", tokenFile}},
		{saKubeconfig, []string{"queues", "-n", ns, "--via", "port-forward", "--use-kubeconfig-token"}},
		{saKubeconfig, []string{"queues", "-n", ns, "--include-apiserver"}},
		{saKubeconfig, []string{"targets", "-n", ns, "--use-kubeconfig-token"}},
		{env.kubeconfig, []string{"targets", "-n", ns, "--token", flagToken}},
	}
	secrets := map[string]string{"--token": flagToken, "--token-file": fileToken, "the kubeconfig's token": saToken}
	var captured strings.Builder
	for _, run := range runs {
		for _, v := range []string{"0", "10"} {
			for _, o := range []string{"", "wide", "json", "yaml"} {
				args := append(append([]string{"ctrldiag"}, run.args...), "-v", v)
				if run.args[0] == "queues" {
					args = append(args, "--interval", "0", "--timeout", "5s")
				}
				if o != "" {
					args = append(args, "-o", o)
				}
				r := runAs(t, run.kubeconfig, "kubectl", args...)
				captured.WriteString(r.Stdout + r.Stderr)
				for what, s := range secrets {
					if strings.Contains(r.Stdout+r.Stderr, s) {
						t.Errorf("kubectl %s shows %s:\n%s", strings.Join(args, " "), what, linesWith(r.Stdout+r.Stderr, s))
					}
				}
			}
		}
	}
	// The checks above must have seen what they guard: the echoing endpoint answered, and at
	// -v 10 client-go logged the requests (with their Authorization header masked).
	all := captured.String()
	for _, want := range []string{"500 Internal Server Error", "Authorization: Bearer <masked>", "[REDACTED]"} {
		if !strings.Contains(all, want) {
			t.Errorf("the captured output never shows %q: the test does not see what it should", want)
		}
	}
}

// linesWith returns the lines of s that contain sub.
func linesWith(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
