//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
)

// kube-controller-manager 1.36 says on /flagz the flags it runs with, its defaults included,
// which its pod's arguments do not show. With a token that may get /flagz (system:monitoring,
// through a port-forward) the report reads the flags of its knobs: the workers of a queue at
// work come from /flagz, and every value equals the knobs table's documented default (the
// local kube-controller-manager sets none of them), which keeps the table true. Through the
// API server's proxy, which forwards no credentials, the pod row says why they were not read
// and how to read them.
func TestReportReadsKubeControllerManagerFlagz(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	mustKubectl(t, "-n", ns, "create", "serviceaccount", "monitoring")
	binding := "e2e-flagz-" + ns
	mustKubectl(t, "create", "clusterrolebinding", binding, "--clusterrole=system:monitoring", "--serviceaccount="+ns+":monitoring")
	t.Cleanup(func() { kubectl(t, "delete", "clusterrolebinding", binding, "--ignore-not-found") })

	// Work for the deployment and replicaset queues during the window.
	mustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=registry.k8s.io/pause:3.10", "--replicas=1")
	stop := make(chan struct{})
	scaled := make(chan struct{})
	go func() {
		defer close(scaled)
		for i := 2; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(700 * time.Millisecond):
				kubectl(t, "-n", ns, "scale", "deployment", "web", "--replicas="+strconv.Itoa(i%6+1))
			}
		}
	}()
	type doc struct {
		Pods []struct {
			Namespace, Name string
			Flagz           *knobs.Flagz `json:"flagz"`
		} `json:"pods"`
		Signals []struct {
			Target, Signal, Absent string
			Present                bool
		} `json:"signals"`
		Capacity []struct {
			Target, Queue string
			Workers       *float64
			WorkersFrom   string `json:"workersFrom"`
		} `json:"capacity"`
	}
	read := func(args ...string) (doc, Result) {
		t.Helper()
		r := ctrldiag(t, append([]string{"report", "-n", "kube-system", "-o", "json"}, args...)...)
		var d doc
		if r.Code != 0 && r.Code != 3 {
			t.Fatalf("report:\n%s", r)
		}
		if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r)
		}
		return d, r
	}
	kcmFlagz := func(d doc, r Result) *knobs.Flagz {
		t.Helper()
		for _, p := range d.Pods {
			if strings.HasPrefix(p.Name, "kube-controller-manager-") {
				if p.Flagz == nil {
					t.Fatalf("the pod row of %s has no flagz:\n%s", p.Name, r.Stdout)
				}
				return p.Flagz
			}
		}
		t.Fatalf("no kube-controller-manager pod row:\n%s", r.Stdout)
		return nil
	}

	d, r := read("--interval", "8s", "--token-from-sa", ns+"/monitoring", "--insecure-skip-tls-verify-metrics")
	close(stop)
	<-scaled
	f := kcmFlagz(d, r)
	if f.Note != "" || !strings.HasSuffix(f.Endpoint, ":10257/flagz") {
		t.Fatalf("flagz not read: %+v", f)
	}
	checked := 0
	for _, c := range knobs.Load().Controllers {
		if c.Title != "kube-controller-manager" {
			continue
		}
		for _, k := range c.Knobs {
			for _, fl := range k.Flags {
				name := strings.ReplaceAll(strings.TrimLeft(fl.Flag, "-"), "_", "-")
				if got, ok := f.Values[name]; !ok || got != fl.Default {
					t.Errorf("%s: /flagz %q (read %v), the table's default %q", fl.Flag, got, ok, fl.Default)
				}
				checked++
			}
		}
	}
	if checked < 10 || len(f.Values) != checked {
		t.Errorf("checked %d flags of %d kept: %v", checked, len(f.Values), f.Values)
	}
	fromFlagz := false
	for _, c := range d.Capacity {
		if strings.Contains(c.Target, "kube-controller-manager") && (c.Queue == "deployment" || c.Queue == "replicaset") {
			fromFlagz = true
			if c.Workers == nil || *c.Workers != 5 || c.WorkersFrom != "--concurrent-"+c.Queue+"-syncs in the process's /flagz" {
				t.Errorf("%s: workers %v from %q", c.Queue, c.Workers, c.WorkersFrom)
			}
		}
	}
	if !fromFlagz {
		t.Errorf("no capacity row of the deployment or replicaset queue: %s", r.Stdout)
	}

	// The report says which signals of newer versions kube-controller-manager gave, and why
	// the others are absent.
	said := func(d doc, want string) {
		t.Helper()
		got := map[string]string{}
		for _, s := range d.Signals {
			if strings.Contains(s.Target, "kube-controller-manager") {
				got[s.Signal] = fmt.Sprintf("%v %s", s.Present, s.Absent)
			}
		}
		if fmt.Sprint(got["/flagz"]) != want || got["stale-sync skips"] == "" || got["stale-sync skips"] == "false " {
			t.Errorf("signals %v, want /flagz %q and stale-sync skips said", got, want)
		}
	}
	said(d, "true ")

	d, r = read("--interval", "1s")
	f = kcmFlagz(d, r)
	if f.Values != nil || !strings.Contains(f.Note, "403") || !strings.Contains(f.Note, "--token-from-sa") {
		t.Errorf("through the proxy: %+v", f)
	}
	said(d, "false "+f.Note)
}
