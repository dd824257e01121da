//go:build e2e

package e2e

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// snapshotMembers reads every member of a snapshot file into memory.
func snapshotMembers(t *testing.T, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s is not gzip: %v", path, err)
	}
	tr := tar.NewReader(zr)
	out := map[string][]byte{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[hdr.Name] = b
	}
}

// A snapshot of the saturated operator, taken through port-forward with a bearer token,
// reproduces the live report offline: `snapshot -o json` prints the report it saw, and
// `report --from-snapshot` without the cluster (a kubeconfig that points nowhere) prints the
// same JSON, to the byte (a snapshot's report is dated when it was taken). queues reads it
// too. The token is in no member of the file; the pod, its target and both pages are.
func TestSnapshotReproducesTheLiveReport(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	p := operatorBehindPod(t, ns, "operator", "saturated")
	time.Sleep(15 * time.Second)
	token := secretToken(t, "snapshot")
	file := filepath.Join(t.TempDir(), "incident.tar.gz")
	live := ctrldiag(t, "snapshot", "-n", ns, "--include-apiserver=false", "--token", token, "-f", file, "-o", "json")
	if live.Code != 0 && live.Code != 3 {
		t.Fatalf("snapshot:\n%s", live)
	}
	if !strings.Contains(live.Stderr, "written to "+file) {
		t.Errorf("snapshot does not say where it wrote:\n%s", live.Stderr)
	}
	var d reportDoc
	if err := json.Unmarshal([]byte(live.Stdout), &d); err != nil || d.Summary.Read != 1 {
		t.Fatalf("snapshot -o json: %v, read %d\n%s", err, d.Summary.Read, live)
	}
	top := ""
	for _, f := range d.Findings {
		if f.Severity != "info" {
			top = f.Check
			break
		}
	}
	if top != "workers-saturated" {
		t.Errorf("the snapshot's report says %q first, want workers-saturated: %s", top, d.checks())
	}

	nowhere := filepath.Join(t.TempDir(), "nowhere.kubeconfig")
	if err := os.WriteFile(nowhere, []byte("apiVersion: v1\nkind: Config\nclusters: [{name: x, cluster: {server: 'https://127.0.0.1:1'}}]\ncontexts: [{name: x, context: {cluster: x, user: x}}]\ncurrent-context: x\nusers: [{name: x, user: {}}]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	offline := runAs(t, nowhere, "kubectl", "ctrldiag", "report", "--from-snapshot", file, "-o", "json")
	if offline.Code != live.Code {
		t.Errorf("report --from-snapshot exits %d, the live run %d:\n%s", offline.Code, live.Code, offline)
	}
	if offline.Stdout != live.Stdout {
		t.Errorf("report --from-snapshot differs from the live report:\nlive:\n%.3000s\noffline:\n%.3000s", live.Stdout, offline.Stdout)
	}
	q := runAs(t, nowhere, "kubectl", "ctrldiag", "queues", "--from-snapshot", file, "-o", "wide") // wide: TARGET of one target too
	if q.Code != 0 || !strings.Contains(q.Stdout, p.Name) {
		t.Errorf("queues --from-snapshot:\n%s", q)
	}

	members := snapshotMembers(t, file)
	for name, b := range members {
		if strings.Contains(string(b), token) {
			t.Errorf("member %s holds the metrics token:\n%s", name, linesWith(string(b), token))
		}
	}
	for _, want := range []string{"manifest.json", "inventory.json", "results.json", "cluster.json", "events.json", "report.json",
		"pages/000-0.prom", "pages/000-1.prom"} {
		if _, ok := members[want]; !ok {
			t.Errorf("the snapshot has no %s", want)
		}
	}
	var results []struct {
		Target struct{ Name, Via string }
	}
	if err := json.Unmarshal(members["results.json"], &results); err != nil || len(results) != 1 ||
		results[0].Target.Name != p.Name || results[0].Target.Via != "port-forward" {
		t.Errorf("results.json: %v %+v, want the pod reached by port-forward (the token goes to the endpoint only)", err, results)
	}
	if !strings.Contains(string(members["inventory.json"]), `"name": "`+p.Name+`"`) {
		t.Errorf("inventory.json lacks the pod")
	}
	if !strings.Contains(string(members["manifest.json"]), `"apiServer": "v1.`) {
		t.Errorf("manifest.json lacks the API server's version:\n%s", members["manifest.json"])
	}
}

// The same operator pod, healthy and then saturated (the process behind it restarted with the
// other scenario): diff of the two snapshots shows the saturation finding appeared, exits 3
// with --fail-on new-warning, and the other way round shows it resolved and exits 0.
func TestDiffShowsAScenarioSwitch(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before.tar.gz"), filepath.Join(dir, "after.tar.gz")
	p := operatorBehindPod(t, ns, "operator", "healthy")
	time.Sleep(10 * time.Second)
	if r := ctrldiag(t, "snapshot", "-n", ns, "--include-apiserver=false", "-f", before); r.Code != 0 {
		t.Fatalf("snapshot of the healthy operator:\n%s", r)
	}
	if err := p.Stop(t); err != nil {
		t.Logf("stopping the healthy operator: %v", err)
	}
	mustKubectl(t, "-n", ns, "delete", "pod", p.Name, "--grace-period=0", "--force", "--wait=true")
	operatorBehindPod(t, ns, p.Name, "saturated")
	// Past the Lease the healthy operator may have left (15s), and then the saturated load.
	time.Sleep(30 * time.Second)
	if r := ctrldiag(t, "snapshot", "-n", ns, "--include-apiserver=false", "-f", after); r.Code != 0 && r.Code != 3 {
		t.Fatalf("snapshot of the saturated operator:\n%s", r)
	}
	r := ctrldiag(t, "diff", before, after, "--fail-on", "new-warning")
	t.Logf("diff before after:\n%s", r.Stdout)
	if r.Code != 3 || !strings.Contains(r.Stdout, "FINDINGS APPEARED") || !strings.Contains(r.Stdout, "All workers busy") {
		t.Errorf("diff healthy -> saturated must show the saturation appeared and exit 3:\n%s", r)
	}
	j := ctrldiag(t, "diff", after, before, "-o", "json", "--fail-on", "new-warning")
	var d struct {
		Resolved []struct{ Check string }
		Appeared []struct{ Severity string }
		Queues   []struct{ Controller, Queue, Change string }
	}
	if j.Code != 0 || json.Unmarshal([]byte(j.Stdout), &d) != nil {
		t.Fatalf("diff saturated -> healthy:\n%s", j)
	}
	resolved := false
	for _, f := range d.Resolved {
		resolved = resolved || f.Check == "workers-saturated"
	}
	if !resolved {
		t.Errorf("saturated -> healthy: workers-saturated not resolved: %+v", d.Resolved)
	}
	for _, q := range d.Queues {
		if q.Change != "changed" {
			t.Errorf("the same pod's queue %s %s is %s, want changed", q.Controller, q.Queue, q.Change)
		}
	}
}

// Files that are no snapshot are refused with one clear error, and nothing is written.
func TestFromSnapshotRefusesWhatIsNoSnapshot(t *testing.T) {
	crowd(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "page.prom")
	if err := os.WriteFile(page, []byte("workqueue_depth 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"report", "queues"} {
		r := ctrldiag(t, verb, "--from-snapshot", page)
		if r.Code != 1 || !strings.Contains(r.Stderr, "not a snapshot") || strings.Count(strings.TrimSpace(r.Stderr), "\n") > 0 {
			t.Errorf("%s --from-snapshot of a page:\n%s", verb, r)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("reading wrote %d entries", len(entries)-1)
	}
}
