package cmd

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/golden"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

const queuesPages = "../../testdata/pages/"

// runQueues executes `queues args...` with test streams and returns stdout, stderr and the
// error.
func runQueues(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	streams, in, out, errOut := genericiooptions.NewTestIOStreams()
	in.WriteString(stdin)
	g := testGlobals()
	cmd := NewQueuesCmd(g, streams)
	if args == nil {
		args = []string{} // nil would make cobra read os.Args
	}
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

// goldenDir is testdata/queues/ of this package as an absolute path (TestQueuesGolden changes directory).
var goldenDir, _ = filepath.Abs("testdata/queues")

// TestQueuesGolden renders real captured pages in every output format. It runs in the pages'
// directory so that target names are the bare file names.
func TestQueuesGolden(t *testing.T) {
	t.Chdir(queuesPages)
	const pages = ""
	crPair := pages + "controller-runtime-1.prom," + pages + "controller-runtime-2.prom"
	kcmPair := pages + "kube-controller-manager-1.prom.gz," + pages + "kube-controller-manager-2.prom.gz"
	// A page that is there but no metrics page: read, and failed (one that is not there at
	// all is a usage error before anything is read).
	malformed := "../../pkg/cmd/testdata/queues/does-not-parse.prom"
	tests := []struct {
		golden string
		args   []string
	}{
		{"controller-runtime-pair.txt", []string{"--from-file", crPair}},
		{"controller-runtime-pair-wide.txt", []string{"--from-file", crPair, "-o", "wide"}},
		{"controller-runtime-pair.json", []string{"--from-file", crPair, "-o", "json"}},
		{"controller-runtime-pair.yaml", []string{"--from-file", crPair, "-o", "yaml"}},
		{"controller-runtime-lifetime.txt", []string{"--from-file", pages + "controller-runtime-2.prom"}},
		{"kube-controller-manager-pair.txt", []string{"--from-file", kcmPair, "--interval", "10s"}},
		{"kube-apiserver-lifetime-wide.txt", []string{"--from-file", pages + "kube-apiserver-2.prom.gz", "-o", "wide"}},
		{"partial-failure.txt", []string{"--from-file", pages + "controller-runtime-2.prom", "--from-file", malformed}},
		{"partial-failure.json", []string{"--from-file", pages + "controller-runtime-2.prom", "--from-file", malformed, "-o", "json"}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			out, _, err := runQueues(t, "", tt.args...)
			// A partial failure prints what was read and exits 1, as kubectl get does.
			want := cli.ExitOK
			if strings.HasPrefix(tt.golden, "partial-failure") {
				want = cli.ExitError
			}
			if code, msg := cli.CodeFor(err); code != want || (want != cli.ExitOK && msg != "1 target could not be read completely (named above); the rest is printed") {
				t.Fatalf("exit %d, %q; want %d", code, msg, want)
			}
			golden.Check(t, filepath.Join(goldenDir, tt.golden), []byte(out), *update, "go test ./pkg/cmd -run TestQueuesGolden -update")
		})
	}
}

func TestJSONSchema(t *testing.T) {
	out, _, err := runQueues(t, "", "--from-file", queuesPages+"controller-runtime-1.prom,"+queuesPages+"controller-runtime-2.prom", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var list map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if list["apiVersion"] != "ctrldiag.dev/v1alpha1" || list["kind"] != "QueueList" || list["window"] != "3s" {
		t.Errorf("header = %v %v %v", list["apiVersion"], list["kind"], list["window"])
	}
	item := list["items"].([]any)[0].(map[string]any)
	for _, k := range []string{"target", "controller", "queue", "depth", "addsPerSecond", "retriesPerSecond", "queueP50Seconds",
		"queueP99Seconds", "workP50Seconds", "workP99Seconds", "unfinishedWorkSeconds", "longestRunningSeconds", "status"} {
		if _, ok := item[k]; !ok {
			t.Errorf("item lacks %q", k)
		}
	}
}

func TestStdinAndErrors(t *testing.T) {
	page, err := os.ReadFile(queuesPages + "controller-runtime-1.prom")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runQueues(t, string(page), "--from-file", "-", "-o", "yaml")
	if err != nil || !strings.Contains(out, "window: lifetime") || !strings.Contains(out, "target: stdin") {
		t.Fatalf("stdin: %v\n%s", err, out)
	}

	// Every source failed: exit code 1 (a plain error), stderr names each target.
	dir := t.TempDir()
	for _, n := range []string{"nope-1.prom", "nope-2.prom"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("not a metrics page\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err = runQueues(t, "", "--from-file", filepath.Join(dir, "nope-1.prom"), "--from-file", filepath.Join(dir, "nope-2.prom"), "--interval", "0")
	code, msg := cli.CodeFor(err)
	if code != cli.ExitError || !strings.Contains(msg, "nope-1.prom") || !strings.Contains(msg, "nope-2.prom") {
		t.Fatalf("all failed: code %d, %q", code, msg)
	}
	// A page that is not there: a usage error (exit 2) before anything is read.
	_, _, err = runQueues(t, "", "--from-file", queuesPages+"controller-runtime-1.prom", "--from-file", queuesPages+"nope-1.prom")
	if code, msg := cli.CodeFor(err); code != cli.ExitUsage || !strings.Contains(msg, "nope-1.prom: no such file") {
		t.Fatalf("a missing page: code %d, %q; want a usage error saying there is no such file", code, msg)
	}

	// Malformed page: an error naming the file and line.
	bad := filepath.Join(t.TempDir(), "bad.prom")
	os.WriteFile(bad, []byte("workqueue_depth{name=\"a\" 1\n"), 0o600)
	_, _, err = runQueues(t, "", "--from-file", bad)
	if err == nil || !strings.Contains(err.Error(), "bad.prom: line 1") {
		t.Fatalf("malformed page error = %v", err)
	}
}

func TestQueuesUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--via", "carrier-pigeon"}, "--via must be auto, proxy or port-forward"},
		{[]string{"pod/a/b"}, "use pod/NAME"},
		{[]string{"--token", "x", "--token-from-sa", "a/b"}, "exclusive"},
		{[]string{"--from-file", "a,b,c"}, "BEFORE,AFTER"},
		{[]string{"--from-file", "-", "--from-file", "-"}, "only once"},
		{[]string{"--url", "localhost:8080"}, `--url "localhost:8080": not a URL with a scheme; did you mean http://localhost:8080?`},
		{[]string{"--url", "http://x", "-o", "csv"}, "unknown output format"},
		{[]string{"--url", "http://x", "--interval", "-1s"}, "--interval"},
		{[]string{"--url", "http://x", "--token", "a", "--token-file", "b"}, "exclusive"},
	}
	for _, tt := range tests {
		_, _, err := runQueues(t, "", tt.args...)
		code, msg := cli.CodeFor(err)
		if code != cli.ExitUsage || !strings.Contains(msg, tt.want) {
			t.Errorf("%v: code %d, %q; want usage error with %q", tt.args, code, msg, tt.want)
		}
	}
}

// TestURL reads a live endpoint twice and one that fails: partial results, exit 1.
func TestURL(t *testing.T) {
	page, err := os.ReadFile(queuesPages + "controller-runtime-2.prom")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		w.Write(page)
	}))
	defer srv.Close()
	out, errOut, err := runQueues(t, "", "--url", srv.URL+"/metrics", "--url", srv.URL+"/wrong", "--interval", "200ms", "--token", "tok-123")
	if code, _ := cli.CodeFor(err); code != cli.ExitError {
		t.Errorf("exit %d (%v), want 1: one target failed", code, err)
	}
	if !strings.Contains(out, "gadget") || !strings.Contains(out, "ERROR") || !strings.Contains(errOut, "404 Not Found") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errOut)
	}
	if strings.Contains(out+errOut, "tok-123") {
		t.Error("token printed")
	}
	if !strings.Contains(errOut, "plain http") {
		t.Errorf("no warning about a token over plain http: %s", errOut)
	}
}

// A queue figure whose family has a TYPE the model cannot read shows as "-", and stderr says
// why; a well-typed page gives no such warning.
func TestMistypedFamilyIsExplained(t *testing.T) {
	page := filepath.Join(t.TempDir(), "typed.prom")
	os.WriteFile(page, []byte(`# TYPE workqueue_depth histogram
workqueue_depth{name="a"} 3
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="a"} 7
`), 0o600)
	out, errOut, err := runQueues(t, "", "--from-file", page, "--interval", "0")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	want := "warning: typed.prom: workqueue_depth is declared TYPE histogram but is read as gauge, counter or untyped"
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "CD103") {
		t.Errorf("stderr:\n%s\nwant %q", errOut, want)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || !strings.Contains(lines[1], " - ") {
		t.Errorf("stdout:\n%s", out)
	}
	_, errOut, err = runQueues(t, "", "--from-file", queuesPages+"controller-runtime-1.prom", "--interval", "0")
	if err != nil || strings.Contains(errOut, "TYPE") {
		t.Errorf("a well-typed page: %v\n%s", err, errOut)
	}
}

// The STATUS column follows --threshold, as report's findings do: with the error ratio out of
// reach widget is no longer FAILING; a bad name is a usage error.
func TestThresholdsJudgeStatus(t *testing.T) {
	status := func(args ...string) string {
		out, errOut, err := runQueues(t, "", append([]string{"--from-file", queuesPages + "controller-runtime-1.prom," + queuesPages + "controller-runtime-2.prom", "-o", "json"}, args...)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut)
		}
		var l struct {
			Items []struct{ Queue, Status string }
		}
		if err := json.Unmarshal([]byte(out), &l); err != nil {
			t.Fatal(err)
		}
		for _, it := range l.Items {
			if it.Queue == "widget" {
				return it.Status
			}
		}
		t.Fatalf("no widget row:\n%s", out)
		return ""
	}
	if got := status(); got != "FAILING" {
		t.Errorf("default thresholds: widget %s, want FAILING", got)
	}
	if got := status("--threshold", "errorRatio=1"); got != "OK" {
		t.Errorf("errorRatio=1: widget %s, want OK", got)
	}
	_, _, err := runQueues(t, "", "--from-file", queuesPages+"controller-runtime-1.prom", "--threshold", "nope=1")
	if code, msg := cli.CodeFor(err); code != cli.ExitUsage || !strings.Contains(msg, `unknown threshold "nope"`) {
		t.Errorf("bad threshold: code %d, %q", code, msg)
	}
}

// An endpoint that answers 200 with a megabyte of binary bytes is no metrics page: queues fails
// with what came back and what to check, instead of printing an empty table. A valid page
// without workqueue families is still read without an error.
func TestURLNotText(t *testing.T) {
	binary := make([]byte, 1<<20)
	for i := range binary {
		binary[i] = byte(i*7 + i>>8)
	}
	copy(binary, "\x89PNG\r\n\x1a\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/binary":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(binary)
		case "/no-queues":
			w.Write([]byte("# TYPE go_goroutines gauge\ngo_goroutines 42\n"))
		}
	}))
	defer srv.Close()
	_, _, err := runQueues(t, "", "--url", srv.URL+"/binary", "--interval", "0")
	code, msg := cli.CodeFor(err)
	for _, want := range []string{"no target could be read", srv.URL + "/binary: ",
		`: page: not Prometheus text metrics (Content-Type "application/octet-stream"): line 1 starts "\x89PNG\r\n";`,
		"is this the metrics port? is the path /metrics?"} {
		if code != cli.ExitError || !strings.Contains(msg, want) {
			t.Errorf("binary answer: exit code %d, error %q; want code %d and %q", code, msg, cli.ExitError, want)
		}
	}
	out, errOut, err := runQueues(t, "", "--url", srv.URL+"/no-queues", "--interval", "0")
	if err != nil || strings.Contains(errOut, "error") {
		t.Errorf("a valid page without queues: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
}

// Two saved pages that make no window (given late first, or taken at the same time) are an
// error in the command line: exit 2 and nothing on stdout, whatever other targets were read.
func TestPagesOutOfOrderAreAUsageError(t *testing.T) {
	dir := t.TempDir()
	page, err := os.ReadFile(queuesPages + "controller-runtime-2.prom")
	if err != nil {
		t.Fatal(err)
	}
	same1, same2 := filepath.Join(dir, "a.prom"), filepath.Join(dir, "b.prom")
	os.WriteFile(same1, page, 0o600)
	os.WriteFile(same2, page, 0o600)
	for name, tt := range map[string]struct{ pair, why string }{
		"late first": {queuesPages + "controller-runtime-2.prom," + queuesPages + "controller-runtime-1.prom", "give the earlier one first"},
		"same time":  {same1 + "," + same2, "taken at the same time"},
	} {
		t.Run(name, func(t *testing.T) {
			out, _, err := runQueues(t, "", "--from-file", tt.pair, "--from-file", queuesPages+"kube-controller-manager-2.prom.gz", "--interval", "10s")
			code, msg := cli.CodeFor(err)
			if code != cli.ExitUsage || out != "" || !strings.Contains(msg, tt.why) {
				t.Errorf("code %d, message %q, stdout:\n%s", code, msg, out)
			}
		})
	}
}
