//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// kubectl's printing forms through `kubectl ctrldiag`, on kube-controller-manager's real queues:
// -o name, custom-columns (inline and from a file), jsonpath and go-template print the data
// of -o json, and a form a verb cannot print is refused with the list of those it can.
func TestKubectlPrintingForms(t *testing.T) {
	crowd(t)
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
	if r.Code != 2 || !strings.Contains(r.Stderr, `unknown output format "name": use one of text, wide, json, yaml`) ||
		!strings.Contains(r.Stderr, "jsonpath=") {
		t.Errorf("report -o name: want exit 2 naming the formats report prints:\n%s", r)
	}
	r = ctrldiag(t, append(base, "-o", "jsonpath={.items[")...)
	if r.Code != 2 || !strings.Contains(r.Stderr, "-o jsonpath:") {
		t.Errorf("queues -o jsonpath={.items[: want exit 2 and the parse error:\n%s", r)
	}
}

// The printing forms of rules (over the rule file) and of top's refreshes, which it prints
// when not on a terminal: one QueueList document per refresh with -o json, each refresh's
// rows ordered by --sort-by, tables without their time and header lines with --no-headers.
func TestPrintingFormsOfRulesAndTop(t *testing.T) {
	crowd(t)
	r := ctrldiag(t, "rules", "-o", `jsonpath={range .groups[*].rules[*]}{.alert}{"\n"}{end}`)
	alerts := strings.Fields(r.Stdout)
	if r.Code != 0 || !slices.Contains(alerts, "CtrlDiagWorkersSaturated") || slices.ContainsFunc(alerts, func(a string) bool { return !strings.HasPrefix(a, "CtrlDiag") }) {
		t.Errorf("rules -o jsonpath over the alerts: want their names alone:\n%s", r)
	}
	def := ctrldiag(t, "rules")
	if y := ctrldiag(t, "rules", "-o", "yaml"); y.Code != 0 || y.Stdout != def.Stdout || !strings.HasPrefix(def.Stdout, "# Generated by kubectl ctrldiag rules") {
		t.Errorf("rules -o yaml: want the default rule file:\n%s", y)
	}
	r = ctrldiag(t, "rules", "-o", "name")
	if r.Code != 2 || !strings.Contains(r.Stderr, `unknown output format "name": use one of yaml, prometheusrule, json, table, jsonpath=`) {
		t.Errorf("rules -o name: want exit 2 naming the outputs rules prints:\n%s", r)
	}

	top := []string{"top", "-n", "kube-system", "--refresh", "1s", "--count", "2"}
	r = ctrldiag(t, append(top, "-o", "json", "--sort-by", ".queue")...)
	if r.Code != 0 {
		t.Fatalf("top -o json: %s", r)
	}
	dec := json.NewDecoder(strings.NewReader(r.Stdout))
	var lists []view.QueueList
	for dec.More() {
		var l view.QueueList
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("top -o json: not a stream of QueueList documents: %v\n%s", err, r.Stdout)
		}
		lists = append(lists, l)
	}
	if len(lists) != 2 {
		t.Fatalf("top -o json --count 2: %d documents, want one per refresh", len(lists))
	}
	for i, l := range lists {
		var queues []string
		for _, it := range l.Items {
			if it.Target == kcmTarget {
				queues = append(queues, it.Queue)
			}
		}
		if l.Kind != "QueueList" || l.Time.IsZero() || len(queues) < 40 || !slices.IsSorted(queues) {
			t.Errorf("top refresh %d: kind %q at %v, %d queues of kube-controller-manager, sorted: %v", i, l.Kind, l.Time, len(queues), slices.IsSorted(queues))
		}
	}
	if lists[0].Window != "lifetime" || lists[1].Window == "lifetime" || !lists[1].Time.After(lists[0].Time) {
		t.Errorf("top -o json: windows %q then %q, times %v then %v: want the second over the time since the first",
			lists[0].Window, lists[1].Window, lists[0].Time, lists[1].Time)
	}

	r = ctrldiag(t, append(top, "--no-headers", "--sort-by", ".queue", "-o", "custom-columns=QUEUE:.queue,DEPTH:.depth")...)
	frames := strings.Split(strings.TrimSpace(r.Stdout), "\n\n")
	if r.Code != 0 || len(frames) != 2 {
		t.Fatalf("top --no-headers -o custom-columns: want two tables, a blank line between:\n%s", r)
	}
	for _, f := range frames {
		var names []string
		for _, line := range strings.Split(f, "\n") {
			names = append(names, strings.Fields(line)[0])
		}
		if len(names) < 40 || !slices.IsSorted(names) || slices.Contains(names, "QUEUE") || slices.Contains(names, "#") {
			t.Errorf("top --no-headers --sort-by .queue: want the queue names alone, sorted, without time or header lines:\n%s", f)
		}
	}
}
