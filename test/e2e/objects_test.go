//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// offline runs `kubectl ctrldiag args...` with a kubeconfig whose cluster cannot be reached.
func offline(t *testing.T, args ...string) Result {
	t.Helper()
	nowhere := filepath.Join(t.TempDir(), "nowhere.kubeconfig")
	if err := os.WriteFile(nowhere, []byte("apiVersion: v1\nkind: Config\nclusters: [{name: x, cluster: {server: 'https://127.0.0.1:1'}}]\ncontexts: [{name: x, context: {cluster: x, user: x}}]\ncurrent-context: x\nusers: [{name: x, user: {}}]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return runAs(t, nowhere, "kubectl", append([]string{"ctrldiag"}, args...)...)
}

// objectsDoc is the part of report's objects view (section 6) the tests read.
type objectsDoc struct {
	Kinds []struct {
		Kind struct {
			Group, Resource string
		} `json:"kind"`
		Namespace          string `json:"namespace"`
		Failed, BehindSpec int
		BehindSpecExamples []string `json:"behindSpecExamples"`
		Reasons            []struct {
			Condition, Reason, Message string
			Objects                    []string
		} `json:"reasons"`
	} `json:"kinds"`
	Notes []string `json:"notes"`
}

func objectsOf(t *testing.T, d reportDoc) objectsDoc {
	t.Helper()
	var o objectsDoc
	if err := json.Unmarshal(d.Objects, &o); err != nil {
		t.Fatalf("objects view: %v\n%s", err, d.Objects)
	}
	return o
}

// failedAs says under which "condition reason" the objects view names object, "" when it
// does not.
func (o objectsDoc) failedAs(resource, object string) string {
	for _, k := range o.Kinds {
		if k.Kind.Resource != resource {
			continue
		}
		for _, r := range k.Reasons {
			for _, name := range r.Objects {
				if name == object {
					return r.Condition + " " + r.Reason
				}
			}
		}
	}
	return ""
}

// A ResourceQuota in a namespace of its own blocks a ReplicaSet's pods: kube-controller-manager
// fails its syncs (FailedCreate, exceeded quota) and the ReplicaSet gets ReplicaFailure=True.
// kube-controller-manager reconciles ReplicaSets in every namespace, so report -n kube-system
// reads them there and names the ReplicaSet as NAMESPACE/NAME with its reason.
//
// Runs alone: it judges every ReplicaSet of the cluster (the FailedCreate group lists 3 objects and
// the first one's message), which other tests' failing ReplicaSets would join.
func TestReportObjectsQuotaBlockedReplicaSet(t *testing.T) {
	ns := newQuotaBlockedNamespace(t)
	apply(t, fmt.Sprintf(`apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: blocked, namespace: %s}
spec:
  replicas: 1
  selector: {matchLabels: {app: blocked}}
  template:
    metadata: {labels: {app: blocked}}
    spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10}]}
`, ns))
	eventually(t, 60*time.Second, "the ReplicaSet's ReplicaFailure condition", func() error {
		out := mustKubectl(t, "-n", ns, "get", "replicaset", "blocked", "-o", `jsonpath={.status.conditions[?(@.type=="ReplicaFailure")].reason}`)
		if out != "FailedCreate" {
			return fmt.Errorf("ReplicaFailure reason %q", out)
		}
		return nil
	})
	object := ns + "/blocked"
	d, r := reportJSON(t, "-n", "kube-system", "--interval", "1s")
	if r.Code != 0 {
		t.Fatalf("report -n kube-system:\n%s", r)
	}
	o := objectsOf(t, d)
	if got := o.failedAs("replicasets", object); got != "ReplicaFailure=True FailedCreate" {
		t.Errorf("the objects view names %s as %q, want ReplicaFailure=True FailedCreate:\n%s", object, got, d.Objects)
	}
	// The failing object is a finding on the replicaset queue of kube-controller-manager, as
	// an operator's would be: the verdict counts that controller in trouble.
	var failing []string
	for _, f := range d.Findings {
		if f.Check == "persistent-failures" && f.Queue == "replicaset" && f.Severity == "warning" {
			failing = append(failing, f.Summary)
		}
	}
	if len(failing) != 1 || !strings.Contains(failing[0], "ReplicaSet objects failed: FailedCreate") || !strings.Contains(d.Summary.Verdict, "in trouble") {
		t.Errorf("persistent-failures on the replicaset queue: %q, verdict %q; all: %s", failing, d.Summary.Verdict, d.checks())
	}
	for _, k := range o.Kinds {
		if k.Kind.Resource == "replicasets" && k.Namespace != "" {
			t.Errorf("replicasets read in namespace %q, want all", k.Namespace)
		}
		for _, re := range k.Reasons {
			if k.Kind.Resource == "replicasets" && re.Reason == "FailedCreate" && !strings.Contains(re.Message, "exceeded quota") {
				t.Errorf("the reason's message does not say why: %q", re.Message)
			}
		}
	}
	// kube-controller-manager's own log (served by its pod like a kubelet's) names the
	// ReplicaSet, its queue and why its syncs fail.
	l := logsOf(t, r).logOfPod(t, "kube-system/kube-controller-manager-ctrldiag-node")
	named := false
	for _, f := range l.Failures {
		named = named || f.Controller == "replicaset" && f.Object == object && strings.Contains(f.Error, "exceeded quota") && f.Count > 0
	}
	if l.Note != "" || l.Lines == 0 || !named {
		t.Errorf("kube-controller-manager's log does not name %s on the replicaset queue: %+v", object, l)
	}
	txt := ctrldiag(t, "report", "-n", "kube-system", "--interval", "1s", "-o", "wide")
	if txt.Code != 0 || !strings.Contains(txt.Stdout, object) || !strings.Contains(txt.Stdout, "ReplicaFailure=True") {
		t.Errorf("the text report does not name %s with ReplicaFailure=True:\n%s", object, txt)
	}
	// In 80 columns, the first screen names kube-controller-manager and what to change.
	checkFirstScreen(t, true, kcmTarget, "report", "-n", "kube-system", "--interval", "1s")
	// A snapshot keeps what was read in every namespace, and its report names it offline.
	file := filepath.Join(t.TempDir(), "kcm.tar.gz")
	if r := ctrldiag(t, "snapshot", "-n", "kube-system", "--interval", "1s", "-f", file); r.Code != 0 {
		t.Fatalf("snapshot:\n%s", r)
	}
	r = offline(t, "report", "--from-snapshot", file, "-o", "json")
	var replayed reportDoc
	if err := json.Unmarshal([]byte(r.Stdout), &replayed); err != nil || r.Code != 0 {
		t.Fatalf("report --from-snapshot: %v\n%s", err, r)
	}
	if got := objectsOf(t, replayed).failedAs("replicasets", object); got != "ReplicaFailure=True FailedCreate" {
		t.Errorf("replayed offline, the objects view names %s as %q:\n%s", object, got, replayed.Objects)
	}
}

// The objects of a kind an operator restricted to its namespace reconciles are read only
// there, and a Ready=False whose own observedGeneration is the object's generation is a
// failure of the current spec even while status.observedGeneration lags and the object says
// Reconciling=True (as Flux does): named with its reason within 20 s, in the objects view and
// in the failure finding (persistent-failures, or retry-storm while its first retries come
// fast), and not counted as behind spec.
func TestReportObjectsFailureOfCurrentGeneration(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	operatorBehindPod(t, ns, "operator-failing", "failing")
	var name string
	eventually(t, 60*time.Second, "a Workload reconciled once (status.observedGeneration 1, Ready=True)", func() error {
		out := mustKubectl(t, "-n", ns, "get", "workloads.demo.ctrldiag.dev", "-o",
			`jsonpath={range .items[?(@.status.observedGeneration==1)]}{.metadata.name} {.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}`)
		for _, line := range strings.Split(out, "\n") {
			if n, status, _ := strings.Cut(line, " "); status == "True" {
				name = n
				return nil
			}
		}
		return fmt.Errorf("none yet: %q", out)
	})
	mustKubectl(t, "-n", ns, "patch", "workloads.demo.ctrldiag.dev", name, "--type=merge", "-p",
		`{"spec":{"requeueAfter":null,"failureRate":1,"failureReason":"GitOperationFailed","failureMessage":"failed to checkout and determine revision: unable to clone: connection refused"}}`)
	var ready map[string]any
	eventually(t, 30*time.Second, "the operator's Ready=False of generation 2", func() error {
		var w struct {
			Metadata struct{ Generation int64 }
			Status   struct {
				ObservedGeneration int64            `json:"observedGeneration"`
				Conditions         []map[string]any `json:"conditions"`
			}
		}
		if err := json.Unmarshal([]byte(mustKubectl(t, "-n", ns, "get", "workloads.demo.ctrldiag.dev", name, "-o", "json")), &w); err != nil {
			return err
		}
		for _, c := range w.Status.Conditions {
			if c["type"] == "Ready" && c["status"] == "False" && c["reason"] == "GitOperationFailed" && c["observedGeneration"] == float64(w.Metadata.Generation) {
				if w.Status.ObservedGeneration >= w.Metadata.Generation {
					return fmt.Errorf("status.observedGeneration %d does not lag generation %d", w.Status.ObservedGeneration, w.Metadata.Generation)
				}
				ready = c
				return nil
			}
		}
		return fmt.Errorf("conditions %v", w.Status.Conditions)
	})
	// Flux says it retries: Reconciling=True of the same generation beside Ready=False.
	reconciling := map[string]any{"type": "Reconciling", "status": "True", "reason": "ProgressingWithRetry",
		"message": "retrying after failure", "lastTransitionTime": ready["lastTransitionTime"], "observedGeneration": ready["observedGeneration"]}
	patch, _ := json.Marshal(map[string]any{"status": map[string]any{"conditions": []any{ready, reconciling}}})
	mustKubectl(t, "-n", ns, "patch", "workloads.demo.ctrldiag.dev", name, "--subresource=status", "--type=merge", "-p", string(patch))
	start := time.Now()

	object := ns + "/" + name
	d, r := reportJSON(t, "-n", ns, "--include-apiserver=false")
	if r.Code != 0 {
		t.Fatalf("report -n %s:\n%s", ns, r)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the report took %s", took)
	}
	o := objectsOf(t, d)
	if got := o.failedAs("workloads", object); got != "Ready=False GitOperationFailed" {
		t.Errorf("the objects view names %s as %q, want Ready=False GitOperationFailed:\n%s", object, got, d.Objects)
	}
	for _, k := range o.Kinds {
		if k.Kind.Resource != "workloads" {
			continue
		}
		if k.Namespace != ns {
			t.Errorf("workloads of an operator restricted to %s read in namespace %q", ns, k.Namespace)
		}
		for _, b := range k.BehindSpecExamples {
			if b == object {
				t.Errorf("%s failed on its current spec, not behind it", object)
			}
		}
	}
	// The object just started failing: its first retries come fast, so the window may hold a
	// retry storm rather than failures backing off; either finding names the failed objects.
	found := false
	for _, f := range d.Findings {
		if f.Check != "persistent-failures" && f.Check != "retry-storm" {
			continue
		}
		found = true
		if strings.Contains(f.Summary, "not read") || f.Check == "persistent-failures" && !strings.Contains(f.Summary, "GitOperationFailed (1)") {
			t.Errorf("%s does not name the failure: %s", f.Check, f.Summary)
		}
		named := false
		for _, e := range f.Evidence {
			named = named || e.Name == "Ready=False GitOperationFailed" && strings.Contains(e.Value, object)
		}
		if !named {
			t.Errorf("%s does not name %s: %+v", f.Check, object, f.Evidence)
		}
	}
	if !found {
		t.Errorf("no persistent-failures nor retry-storm: %s", d.checks())
	}
}

// kube-controller-manager's workers are read from its command line, or the flags' defaults:
// the capacity of its replicaset queue counts 5 workers, the default of
// --concurrent-replicaset-syncs (hack/cluster starts it without the flag), and says so.
func TestReportWorkersFromTheCommandLine(t *testing.T) {
	crowd(t)
	if out := mustKubectl(t, "-n", "kube-system", "get", "pods", "-l", "component=kube-controller-manager", "-o", "jsonpath={.items[0].spec.containers[0].command}"); strings.Contains(out, "concurrent-replicaset-syncs") {
		t.Fatalf("the test expects kube-controller-manager without --concurrent-replicaset-syncs: %s", out)
	}
	ns := newNamespace(t)
	for i := range 5 {
		apply(t, fmt.Sprintf(`apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: idle-%d, namespace: %s}
spec:
  replicas: 0
  selector: {matchLabels: {app: idle-%d}}
  template:
    metadata: {labels: {app: idle-%d}}
    spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10}]}
`, i, ns, i, i))
	}
	// Each change of a ReplicaSet is a sync of the replicaset queue while the report reads.
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
			kubectl(t, "-n", ns, "annotate", "replicasets", "--all", "--overwrite", fmt.Sprintf("e2e.ctrldiag.dev/touch=%d", i))
		}
	}()
	// The snapshot's report is the live one; replayed offline, the workers are the same.
	file := filepath.Join(t.TempDir(), "kcm.tar.gz")
	var r Result
	func() {
		defer func() { close(stop); <-done }()
		r = ctrldiag(t, "snapshot", "-n", "kube-system", "--include-apiserver=false", "--interval", "6s", "--threshold", "minEvents=1", "-f", file, "-o", "json")
	}()
	if r.Code != 0 && r.Code != 3 {
		t.Fatalf("snapshot:\n%s", r)
	}
	for _, run := range []Result{r, offline(t, "report", "--from-snapshot", file, "--threshold", "minEvents=1", "-o", "json")} {
		var capacity struct {
			Capacity []struct {
				Target, Queue string
				Workers       *float64
				WorkersFrom   string `json:"workersFrom"`
			} `json:"capacity"`
		}
		if err := json.Unmarshal([]byte(run.Stdout), &capacity); err != nil {
			t.Fatalf("%v\n%s", err, run)
		}
		seen := false
		for _, c := range capacity.Capacity {
			if c.Queue != "replicaset" {
				continue
			}
			seen = true
			if c.Workers == nil || *c.Workers != 5 || c.WorkersFrom != "the default of --concurrent-replicaset-syncs" {
				t.Errorf("replicaset workers %v from %q, want 5 from the default of --concurrent-replicaset-syncs", c.Workers, c.WorkersFrom)
			}
		}
		if !seen {
			t.Errorf("no capacity row for the replicaset queue: %+v\n%s", capacity.Capacity, run.Stderr)
		}
	}
}

// newQuotaBlockedNamespace is a new namespace whose ResourceQuota, in force, allows no pods.
func newQuotaBlockedNamespace(t *testing.T) string {
	t.Helper()
	ns := newNamespace(t)
	// Before the namespace goes (its deletion does not wait), its blocked ReplicaSets go,
	// waited for: kube-controller-manager judges every namespace's, and the tests after this
	// one must not find them failing still.
	t.Cleanup(func() { kubectl(t, "-n", ns, "delete", "replicasets", "--all", "--wait", "--timeout", "60s") })
	apply(t, fmt.Sprintf(`apiVersion: v1
kind: ResourceQuota
metadata: {name: no-pods, namespace: %s}
spec: {hard: {pods: "0"}}
`, ns))
	eventually(t, 30*time.Second, "the quota's status", func() error {
		if out := mustKubectl(t, "-n", ns, "get", "resourcequota", "no-pods", "-o", "jsonpath={.status.hard.pods}"); out != "0" {
			return fmt.Errorf("status.hard.pods %q", out)
		}
		return nil
	})
	return ns
}
