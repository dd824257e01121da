//go:build e2e

package e2e

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/hostiletext"
	"github.com/ctrldiag/kubectl-ctrldiag/test/e2e/hostile"
)

// The attacks below are those of a hostile metrics endpoint, a hostile Prometheus-API server
// and crafted files, each run through `kubectl ctrldiag` as a user would.

// controlFree fails the test when out holds what a terminal or a CI runner would act on.
func controlFree(t *testing.T, what, out string) {
	t.Helper()
	if p := hostiletext.Problem(out); p != "" {
		t.Errorf("%s holds %s:\n%q", what, p, out)
	}
}

// Label values that attack terminals and CI logs are printed escaped in every format, and on
// stderr; junit stays valid XML.
func TestAttackTerminalInjection(t *testing.T) {
	crowd(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		w.Write([]byte(hostile.Injection))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	u := srv.URL + "/metrics"
	runs := [][]string{
		{"queues", "--url", u, "--interval", "0"},
		{"queues", "--url", u, "--interval", "0", "-o", "wide"},
		{"queues", "--url", u, "--interval", "0", "-o", "yaml"},
		{"queues", "--url", u, "--interval", "0", "-o", "json"},
		{"report", "--url", u, "--interval", "0"},
		{"report", "--url", u, "--interval", "0", "-o", "markdown"},
		{"report", "--url", u, "--interval", "0", "-o", "junit"},
		{"report", "--url", u, "--interval", "0", "-o", "yaml"},
		{"report", "--url", u, "--interval", "0", "-o", "html"},
		// stderr: an error that quotes the page.
		{"queues", "--url", srv.URL + "/nothing\x1b]0;pwned\x07", "--interval", "0"},
	}
	for _, args := range runs {
		r := runBounded(t, env.kubeconfig, args...)
		name := strings.Join(args[:1], " ") + " " + strings.Join(args[len(args)-2:], " ")
		if strings.Contains(args[2], "/nothing") {
			name = "queues --url with control characters"
		} else if r.Code == 2 {
			t.Errorf("%s: a usage error\n%s", name, r.Result)
		}
		if strings.Contains(r.Stderr, "goroutine ") {
			t.Errorf("%s: a crash\n%s", name, r.Result)
		}
		controlFree(t, name+" stdout", r.Stdout)
		controlFree(t, name+" stderr", r.Stderr)
		if args[len(args)-1] == "junit" {
			d := xml.NewDecoder(strings.NewReader(r.Stdout))
			for {
				if _, err := d.Token(); err != nil {
					if err.Error() != "EOF" {
						t.Errorf("junit output is not valid XML: %v\n%s", err, r.Stdout)
					}
					break
				}
			}
		}
	}
	// The escaped name is still recognisable.
	r := ctrldiag(t, "queues", "--url", u, "--interval", "0")
	if !strings.Contains(r.Stdout, `title\x1b]0;pwned\x07`) {
		t.Errorf("the queue name must be printed escaped, not dropped:\n%s", r)
	}
}

// A page that claims 1e11 workers ends within the deadline, and says the count is not believed.
func TestAttackImplausibleWorkers(t *testing.T) {
	crowd(t)
	srv := httptest.NewServer(http.HandlerFunc(hostile.Workers))
	t.Cleanup(srv.Close)
	for _, args := range [][]string{
		{"report", "--url", srv.URL, "--interval", "2s", "--deadline", "8s"},
		{"report", "--url", srv.URL, "--interval", "2s", "--deadline", "8s", "--workers", "big=5"},
	} {
		m := runBounded(t, env.kubeconfig, args...)
		t.Logf("%s: exit %d in %s", strings.Join(args, " "), m.Code, m.Elapsed.Round(time.Millisecond))
		if m.Code == 2 || strings.Contains(m.Stderr, "goroutine ") || m.Elapsed > 8*time.Second+5*time.Second {
			t.Errorf("the report must end within its deadline, without a crash\n%s", m.Result)
		}
		if !strings.Contains(m.Stderr, "controller big claims 1e+11 workers") || strings.Contains(m.Stdout, "100000000000") {
			t.Errorf("the claimed count must be said not to be believed, and judged on nowhere\n%s", m.Result)
		}
	}
	if r := ctrldiag(t, "report", "--url", srv.URL, "--interval", "0", "--workers", "big=99999999999"); r.Code != 2 || !strings.Contains(r.Stderr, "--workers") {
		t.Errorf("an impossible --workers count is a usage error that names the flag\n%s", r)
	}
}

// A Prometheus server that echoes the request's headers in its 401 gets none of the
// credentials printed back, in any form; a query value named like a credential is not
// printed in a usage error.
func TestAttackPrometheusEchoesCredentials(t *testing.T) {
	crowd(t)
	srv := httptest.NewServer(hostile.PrometheusAPI())
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	basicFile := filepath.Join(dir, "basic")
	const (
		token  = "tok3n-Very-Secret-0001"
		header = "h3ader-Very-Secret-0002"
		pass   = "pa55-Very-Secret-0003"
		upass  = "urlpa55-Very-Secret-0004"
		query  = "qu3ry-Very-Secret-0005"
	)
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)
	os.WriteFile(basicFile, []byte("alice:"+pass+"\n"), 0o600)
	secrets := []string{token, header, pass, upass, query,
		base64.StdEncoding.EncodeToString([]byte("alice:" + pass)),
		base64.StdEncoding.EncodeToString([]byte("bob:" + upass))}
	withUser := strings.Replace(srv.URL, "http://", "http://bob:"+upass+"@", 1)
	runs := [][]string{
		{"queues", "--prometheus", srv.URL + "/echo", "--prometheus-token-file", tokenFile, "--prometheus-header", "X-Api-Key: " + header},
		{"report", "--prometheus", srv.URL + "/echo", "--prometheus-basic-auth-file", basicFile},
		{"report", "--prometheus", withUser + "/echo", "-v", "6"},
		{"queues", "--prometheus", srv.URL + "/echo?access_token=" + query},
		{"queues", "--prometheus", "ftp://prom.example/?token=" + query},
		{"queues", "--url", withUser + "/status", "--interval", "0", "-o", "json"},
	}
	for _, args := range runs {
		r := runBounded(t, env.kubeconfig, args...)
		if r.Code == 0 {
			t.Errorf("%s: a refused query must fail\n%s", args[2], r.Result)
		}
		for _, s := range secrets {
			if strings.Contains(r.Stdout+r.Stderr, s) {
				t.Errorf("%s %s printed the credential %q\n%s", args[0], args[2], s, r.Result)
			}
		}
	}
	// An answer whose series hold no points is an error, not a crash.
	for _, verb := range []string{"queues", "report"} {
		r := runBounded(t, env.kubeconfig, verb, "--prometheus", srv.URL+"/empty")
		if r.Code == 2 || strings.Contains(r.Stderr, "goroutine ") || strings.Contains(r.Stderr, "panic") {
			t.Errorf("%s over series without points must not crash\n%s", verb, r.Result)
		}
	}
	snap := filepath.Join(dir, "empty.tar.gz")
	if r := runBounded(t, env.kubeconfig, "snapshot", "--prometheus", srv.URL+"/empty", "-f", snap); r.Code == 2 || strings.Contains(r.Stderr, "goroutine ") {
		t.Errorf("snapshot over series without points must not crash\n%s", r.Result)
	}
}

// A redirect from https to http, or to another port, is not followed with the token.
func TestAttackRedirectDowngrade(t *testing.T) {
	crowd(t)
	var mu sync.Mutex
	var got []string
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		w.Write([]byte(hostile.Healthy))
	}))
	t.Cleanup(plain.Close)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		to := plain.URL + "/metrics"
		if r.URL.Path == "/to-https-port" {
			to = strings.Replace(plain.URL, "http://", "https://", 1) + "/metrics"
		}
		http.Redirect(w, r, to, http.StatusFound)
	}))
	t.Cleanup(secure.Close)
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte("redirect-Secret-0006\n"), 0o600)
	for _, path := range []string{"/downgrade", "/to-https-port"} {
		r := runBounded(t, env.kubeconfig, "queues", "--url", secure.URL+path, "--token-file", tokenFile,
			"--insecure-skip-tls-verify-metrics", "--interval", "0")
		if r.Code == 0 || !strings.Contains(r.Stderr, "redirect") {
			t.Errorf("%s: the redirect must be refused with a reason\n%s", path, r.Result)
		}
		if strings.Contains(r.Stdout+r.Stderr, "redirect-Secret-0006") {
			t.Errorf("%s: the token was printed\n%s", path, r.Result)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range got {
		if a != "" {
			t.Errorf("the token reached the plain-HTTP server: %q", a)
		}
	}
}

// snapshot -f writes a new file or over a regular one, never through a symlink or over a
// device; -f - writes the archive to stdout.
func TestAttackSnapshotTargets(t *testing.T) {
	crowd(t)
	srv := httptest.NewServer(hostile.Handler())
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep me"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Fatalf("mknod (the e2e suite runs as root): %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{link, dev, dir, fifo} {
		r := runBounded(t, env.kubeconfig, "snapshot", "--url", srv.URL+"/metrics", "--interval", "0", "-f", path)
		if r.Code == 0 || !strings.Contains(r.Stderr, path) {
			t.Errorf("snapshot -f %s must be refused, naming the path\n%s", path, r.Result)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the symlink's target was overwritten: %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Lstat(dev); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("the device was replaced: %v %v", fi.Mode(), err)
	}
	// A regular file is replaced, and - is stdout.
	regular := filepath.Join(dir, "old.tar.gz")
	os.WriteFile(regular, []byte("old"), 0o644)
	if r := runBounded(t, env.kubeconfig, "snapshot", "--url", srv.URL+"/metrics", "--interval", "0", "-f", regular); r.Code != 0 {
		t.Errorf("snapshot over a regular file\n%s", r.Result)
	}
	r := runBounded(t, env.kubeconfig, "snapshot", "--url", srv.URL+"/metrics", "--interval", "0", "-f", "-")
	if r.Code != 0 {
		t.Fatalf("snapshot -f -\n%s", r.Result)
	}
	if _, err := gzip.NewReader(strings.NewReader(r.Stdout)); err != nil {
		t.Errorf("snapshot -f - must write the gzipped archive to stdout: %v", err)
	}
	stdout := filepath.Join(dir, "stdout.tar.gz")
	os.WriteFile(stdout, []byte(r.Stdout), 0o644)
	if r := runBounded(t, env.kubeconfig, "report", "--from-snapshot", stdout); r.Code == 2 || !strings.Contains(r.Stdout, "healthy") {
		t.Errorf("the archive written to stdout must replay\n%s", r.Result)
	}
}

// sparseArchive is a small gzipped tar whose members declare a sparse file of 64 MiB each
// (PAX GNU.sparse records): nothing on the wire, a lot when read.
func sparseArchive(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for i := 0; i < 40; i++ {
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: "pages/" + strings.Repeat("p", i+1) + ".prom", Size: 0, Mode: 0o644,
			Format: tar.FormatPAX, PAXRecords: map[string]string{
				"GNU.sparse.major": "0", "GNU.sparse.minor": "1", "GNU.sparse.name": "pages/sparse.prom",
				"GNU.sparse.realsize": "67108864", "GNU.sparse.map": "67108863,1",
			}}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// A sparse-tar bomb and FIFOs are refused or bounded by the deadline: memory and time stay
// small.
func TestAttackCraftedFiles(t *testing.T) {
	crowd(t)
	dir := t.TempDir()
	bomb := filepath.Join(dir, "bomb.tar.gz")
	if err := os.WriteFile(bomb, sparseArchive(t), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"report", "--from-snapshot", bomb}, {"diff", bomb, bomb}} {
		m := runBounded(t, env.kubeconfig, args...)
		t.Logf("%s: exit %d, peak RSS %d MiB", args[0], m.Code, m.MaxRSS>>10)
		if m.Code == 0 || strings.Contains(m.Stderr, "goroutine ") {
			t.Errorf("%s of a sparse archive must be refused\n%s", args[0], m.Result)
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"queues", "--from-file", fifo, "--interval", "0", "--deadline", "3s"},
		{"report", "--from-snapshot", fifo, "--interval", "0", "--deadline", "3s"},
		{"diff", fifo, fifo, "--deadline", "3s"},
	} {
		m := runBounded(t, env.kubeconfig, args...)
		t.Logf("%s on a FIFO without a writer: exit %d in %s", args[0], m.Code, m.Elapsed.Round(time.Millisecond))
		if m.Code == 0 || m.Elapsed > 3*time.Second+5*time.Second {
			t.Errorf("%s on a FIFO without a writer must end at the deadline with an error\n%s", args[0], m.Result)
		}
	}
	// stdin that stays open with nothing on it.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", "ctrldiag", "queues", "--from-file", "-", "--interval", "0", "--deadline", "3s")
	cmd.Env = commandEnv(env.kubeconfig)
	cmd.Stdin = pr
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err = cmd.Run()
	pr.Close()
	if took := time.Since(start); err == nil || took > 3*time.Second+5*time.Second {
		t.Errorf("queues --from-file - on a silent pipe: %v after %s\n%s", err, took, stderr.String())
	}
}
