//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A target that never answers cannot hold queues past --deadline: it becomes an error that
// says the overall deadline was reached, and the target that answers keeps its rows.
func TestQueuesDeadline(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	page := filepath.Join(env.root, "test/e2e/testdata/kube-controller-manager.prom")
	for _, p := range []struct {
		name  string
		extra []string
	}{{"answers", nil}, {"hangs", []string{"--hang"}}} {
		startBehindPod(t, podSpec{Namespace: ns, Name: p.name, Labels: map[string]string{"app": p.name},
			Ports: []podPort{{Name: "metrics", Port: 8080}},
			Command: func(l map[int32]string) []string {
				return append([]string{env.servepage, "--listen", l[8080], "--file", page}, p.extra...)
			}})
	}
	const deadline = 3 * time.Second
	start := time.Now()
	l, r := queuesJSON(t, "-n", ns, "--interval", "0", "--timeout", "1m", "--deadline", deadline.String())
	took := time.Since(start)
	t.Logf("queues with --deadline %s took %s", deadline, took.Round(time.Millisecond))
	if took > deadline+10*time.Second {
		t.Errorf("queues took %s with --deadline %s", took, deadline)
	}
	// The hung target failed: exit 1, the other printed.
	if r.Code != 1 || len(l.targetsOf()[ns+"/answers:8080"]) == 0 || len(l.Errors) != 1 || l.Errors[0].Target != ns+"/hangs:8080" ||
		!strings.Contains(l.Errors[0].Error, "overall deadline reached: --deadline 3s passed before this target answered") {
		t.Errorf("the hung target must be an error naming the deadline, the other read:\n%s", r)
	}
	if r := ctrldiag(t, "queues", "-n", ns, "--deadline", "1s", "--interval", "5s"); r.Code != 2 || !strings.Contains(r.Stderr, "must be longer than --interval") {
		t.Errorf("a deadline shorter than the interval is a usage error:\n%s", r)
	}
}
