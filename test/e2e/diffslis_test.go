//go:build e2e

package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// diffSLIsDoc is the service-levels part of `diff -o json` the test reads.
type diffSLIsDoc struct {
	SLIs []struct {
		Controller, Queue string
		QueueWait         struct{ Before, After, Change string } `json:"queueWait"`
		Figures           []struct {
			Name          string
			Before, After *float64
		}
	} `json:"slis"`
	KindSLIs []struct {
		Kind    string
		Figures []struct {
			Name          string
			Before, After *float64
		}
	} `json:"kindSlis"`
}

// The steps scenario (300 Workloads, 500ms reconciles, 4 workers: about 8/s) snapshotted at
// Poisson spec changes of 4/s, where its queue waits hold the 1s objective, and again at 16/s,
// twice what it serves, where they break it: diff of the two snapshots names the operator's
// queue with its queue-wait verdict "holds -> breaks", in the text and in -o json, with the
// p99 wait up, and shows the kind's spec latency before and after.
//
// Runs calm (gate_test.go): its verdict at 4/s rests on the waits of a queue at half its
// capacity; beside the crowd, when the steps' service time still held a status write, the API
// server took that write more slowly and the waits broke the objective already.
func TestDiffNamesTheSLOVerdictChange(t *testing.T) {
	calm(t)
	ns := newNamespace(t)
	p := startOperatorWith(t, ns, "operator", "steps", 4)
	workloads := stepsWorkloads(t, ns)
	load := &specLoad{}
	load.setRate(4)
	load.start(t, workloads)
	time.Sleep(10 * time.Second)
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before.tar.gz"), filepath.Join(dir, "after.tar.gz")
	if r := ctrldiag(t, "snapshot", "-n", ns, "--include-apiserver=false", "--interval", "45s", "-f", before, "pod/"+p.Name); r.Code != 0 {
		t.Fatalf("snapshot at 4/s:\n%s", r)
	}
	load.setRate(16)
	time.Sleep(20 * time.Second) // the backlog builds: waits of seconds
	if r := ctrldiag(t, "snapshot", "-n", ns, "--include-apiserver=false", "--interval", "30s", "-f", after, "pod/"+p.Name); r.Code != 0 && r.Code != 3 {
		t.Fatalf("snapshot at 16/s:\n%s", r)
	}
	r := ctrldiag(t, "diff", before, after)
	t.Logf("diff before after:\n%s", r.Stdout)
	if r.Code != 0 {
		t.Fatalf("diff:\n%s", r)
	}
	row := ""
	_, levels, _ := strings.Cut(r.Stdout, "\nSERVICE LEVELS\n")
	for _, l := range strings.Split(levels, "\n") {
		if strings.Contains(l, p.Name+":8080") && strings.Contains(l, " workload ") {
			row = l
			break
		}
	}
	if !strings.Contains(row, "holds -> breaks") {
		t.Errorf("SERVICE LEVELS row of the operator's queue %q, want its queue wait holds -> breaks", row)
	}
	if !strings.Contains(r.Stdout, "SPEC TO OBSERVED BY KIND") || !strings.Contains(r.Stdout, "Workload.demo.ctrldiag.dev") {
		t.Errorf("the diff shows no spec latency of Workload")
	}
	j := ctrldiag(t, "diff", before, after, "-o", "json")
	var d diffSLIsDoc
	if j.Code != 0 || json.Unmarshal([]byte(j.Stdout), &d) != nil {
		t.Fatalf("diff -o json:\n%s", j)
	}
	found := false
	for _, s := range d.SLIs {
		if s.Queue != "workload" {
			continue
		}
		found = true
		if s.QueueWait.Before != "holds" || s.QueueWait.After != "breaks" || s.QueueWait.Change != "holds -> breaks" {
			t.Errorf("json queueWait %+v, want holds -> breaks", s.QueueWait)
		}
		for _, f := range s.Figures {
			if f.Name == "queue wait p99" && (f.Before == nil || f.After == nil || !(*f.After > 1 && *f.After > *f.Before)) {
				t.Errorf("queue wait p99 %v -> %v, want over 1s and up", num(f.Before), num(f.After))
			}
		}
	}
	if !found {
		t.Errorf("diff -o json has no service levels of queue workload: %+v", d.SLIs)
	}
	kind := false
	for _, k := range d.KindSLIs {
		kind = kind || k.Kind == "Workload.demo.ctrldiag.dev" && len(k.Figures) > 0
	}
	if !kind {
		t.Errorf("diff -o json has no spec latency of Workload: %+v", d.KindSLIs)
	}
}
