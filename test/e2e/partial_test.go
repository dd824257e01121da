//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A target of which only one sample could be used (here two saved pages, the second
// malformed) is judged over its lifetime and its error is kept: `report` lists it in "errors" with
// window "lifetime" and the words `queues` prints for it, says so in the text, and raises no
// scrape-failed finding; the target read twice keeps the report's window.
func TestReportKeepsPartialReadErrors(t *testing.T) {
	crowd(t)
	pages := filepath.Join(env.root, "testdata/pages")
	bad := filepath.Join(t.TempDir(), "bad.prom")
	if err := os.WriteFile(bad, []byte("workqueue_depth{name=\"a\" 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	halfBad := filepath.Join(pages, "controller-runtime-1.prom") + "," + bad
	pair := filepath.Join(pages, "kube-controller-manager-1.prom.gz") + "," + filepath.Join(pages, "kube-controller-manager-2.prom.gz")
	args := []string{"--from-file", halfBad, "--from-file", pair, "--interval", "10s"}

	l, q := queuesJSON(t, args...)
	if q.Code != 1 || len(l.Errors) != 1 || !strings.Contains(l.Errors[0].Error, "second sample") {
		t.Fatalf("queues should list the pair with a malformed second page as an error:\n%s", q)
	}

	r := ctrldiag(t, append([]string{"report", "-o", "json"}, args...)...)
	var d struct {
		reportDoc
		Errors []struct{ Target, Error, Window string } `json:"errors"`
	}
	if r.Code != 0 {
		t.Fatalf("report:\n%s", r)
	}
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("report -o json is not JSON: %v\n%s", err, r)
	}
	if d.Window != "10s" || d.Summary.Read != 2 || len(d.Errors) != 1 || d.Errors[0].Target != l.Errors[0].Target ||
		d.Errors[0].Error != l.Errors[0].Error || d.Errors[0].Window != "lifetime" {
		t.Errorf("window %q, read %d, errors %+v: want 10s, 2 and the error queues gives, judged over the lifetime (%+v)",
			d.Window, d.Summary.Read, d.Errors, l.Errors)
	}
	if strings.Contains(d.checks(), "scrape-failed") {
		t.Errorf("a target with lifetime figures is not a failed scrape: %s", d.checks())
	}

	text := ctrldiag(t, append([]string{"report"}, args...)...)
	flat := strings.Join(strings.Fields(text.Stdout), " ") // the error lines wrap in 80 columns
	for _, want := range []string{"window 10s (lifetime for 1 target: see below)", "(judged over its lifetime): second sample"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the text report lacks %q:\n%s", want, text)
		}
	}
}

// Two saved pages given late first make no window: every verb refuses them as a usage error
// (exit 2) and prints nothing on stdout.
func TestPagesOutOfOrderRefused(t *testing.T) {
	crowd(t)
	pages := filepath.Join(env.root, "testdata/pages")
	outOfOrder := filepath.Join(pages, "controller-runtime-2.prom") + "," + filepath.Join(pages, "controller-runtime-1.prom")
	for _, verb := range []string{"queues", "report", "snapshot"} {
		args := []string{verb, "--from-file", outOfOrder, "--interval", "10s"}
		if verb == "snapshot" {
			args = append(args, "-f", filepath.Join(t.TempDir(), "s.tar.gz"))
		}
		r := ctrldiag(t, args...)
		if r.Code != 2 || r.Stdout != "" || !strings.Contains(r.Stderr, "give the earlier one first") {
			t.Errorf("%s over pages out of order: want exit 2, nothing on stdout and the reason\n%s", verb, r)
		}
	}
}
