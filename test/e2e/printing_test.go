//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// kubectl's printing forms through `kubectl ctrldiag`, on kube-controller-manager's real queues:
// -o name, custom-columns (inline and from a file), jsonpath and go-template print the data
// of -o json, and a form a verb cannot print is refused with the list of those it can.
func TestKubectlPrintingForms(t *testing.T) {
	base := []string{"queues", "-n", "kube-system", "--interval", "0"}
	r := ctrldiag(t, append(base, "-o", "name")...)
	if r.Code != 0 || !strings.Contains(r.Stdout, "queue.ctrldiag.dev/"+kcmTarget+"/deployment\n") {
		t.Errorf("queues -o name: want a line queue.ctrldiag.dev/%s/deployment:\n%s", kcmTarget, r)
	}
	for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		if !strings.HasPrefix(line, "queue.ctrldiag.dev/") {
			t.Errorf("queues -o name printed %q, not a name", line)
		}
	}

	r = ctrldiag(t, append(base, "-o", "custom-columns=QUEUE:.queue,STATUS:.status,RATE:.addsPerSecond")...)
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if r.Code != 0 || len(lines) < 40 || strings.Join(strings.Fields(lines[0]), " ") != "QUEUE STATUS RATE" {
		t.Fatalf("queues -o custom-columns: want a header and kube-controller-manager's ~50 queues:\n%s", r)
	}
	found := false
	for _, l := range lines[1:] {
		// One sample: no rates, so the RATE column is <none>, as kubectl prints a missing value.
		if f := strings.Fields(l); len(f) == 3 && f[0] == "deployment" && f[2] == "<none>" {
			found = true
		}
	}
	if !found {
		t.Errorf("queues -o custom-columns: no row 'deployment STATUS <none>':\n%s", r.Stdout)
	}
	columns := filepath.Join(t.TempDir(), "columns.txt")
	if err := os.WriteFile(columns, []byte("TARGET           QUEUE\n.target          .queue\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = ctrldiag(t, append(base, "-o", "custom-columns-file="+columns)...)
	if r.Code != 0 || !strings.Contains(r.Stdout, kcmTarget+"   replicaset\n") {
		t.Errorf("queues -o custom-columns-file: want %s   replicaset:\n%s", kcmTarget, r)
	}

	// --sort-by orders the rows, --no-headers drops the header line, as in kubectl get.
	r = ctrldiag(t, append(base, "--sort-by", ".queue", "--no-headers", "-o", "custom-columns=QUEUE:.queue")...)
	names := strings.Fields(r.Stdout)
	if r.Code != 0 || len(names) < 40 || names[0] == "QUEUE" || !slices.IsSorted(names) {
		t.Errorf("queues --sort-by .queue --no-headers: want the queue names alone, sorted:\n%s", r)
	}
	r = ctrldiag(t, "targets", "-n", "kube-system", "--no-headers")
	if r.Code != 0 || strings.HasPrefix(r.Stdout, "NAMESPACE") || !strings.Contains(r.Stdout, "kube-controller-manager-ctrldiag-node") {
		t.Errorf("targets --no-headers: want rows without the header:\n%s", r)
	}

	r = ctrldiag(t, append(base, "-o", `jsonpath={range .items[?(@.queue=="replicaset")]}{.target}{"\n"}{end}`)...)
	if r.Code != 0 || r.Stdout != kcmTarget+"\n" {
		t.Errorf("queues -o jsonpath with a filter: want %q:\n%s", kcmTarget+"\n", r)
	}
	r = ctrldiag(t, "targets", "-n", "kube-system", "-o", `go-template={{range .items}}{{.namespace}}/{{.name}} {{.ready}}{{"\n"}}{{end}}`)
	if r.Code != 0 || !strings.Contains(r.Stdout, "kube-system/kube-controller-manager-ctrldiag-node true\n") {
		t.Errorf("targets -o go-template: want kube-controller-manager's pod, ready:\n%s", r)
	}
	r = ctrldiag(t, "report", "-n", "kube-system", "--interval", "0", "-o", "jsonpath={.summary.read}")
	if r.Code != 0 || r.Stdout == "" || r.Stdout == "0" {
		t.Errorf("report -o jsonpath={.summary.read}: want the number of targets read:\n%s", r)
	}

	r = ctrldiag(t, "report", "-n", "kube-system", "-o", "name")
	if r.Code != 2 || !strings.Contains(r.Stderr, `unknown output format "name": use one of text, json, yaml`) ||
		!strings.Contains(r.Stderr, "jsonpath=") {
		t.Errorf("report -o name: want exit 2 naming the formats report prints:\n%s", r)
	}
	r = ctrldiag(t, append(base, "-o", "jsonpath={.items[")...)
	if r.Code != 2 || !strings.Contains(r.Stderr, "-o jsonpath:") {
		t.Errorf("queues -o jsonpath={.items[: want exit 2 and the parse error:\n%s", r)
	}
}
