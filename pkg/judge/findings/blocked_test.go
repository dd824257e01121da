package findings

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

const certManagerImage = "quay.io/jetstack/cert-manager-controller:v1.21.2"

// certManager is a cert-manager target with its arguments and the groups of its dump.
func certManager(args []string, groups ...goroutines.Group) Target {
	return Target{ID: "cm/cert-manager:9402", Kind: ClientGo, Cur: &health.Snapshot{},
		Pod:        &Pod{Image: certManagerImage, Args: append([]string{"/app/cmd/controller/controller"}, args...)},
		Goroutines: &goroutines.Profile{Groups: groups}}
}

// acme is count workers of issuers blocked in the ACME client, long of them a minute or more.
func acme(count, long int) goroutines.Group {
	return goroutines.Group{Count: count, LongWaits: long, Longest: time.Duration(min(long, 1)) * time.Minute, State: "select",
		Controller: "issuers", Wait: goroutines.Frame{Func: "net/http.(*Client).Do"},
		Own: goroutines.Frame{Func: "github.com/cert-manager/cert-manager/pkg/acme/client.(*Client).Discover"}}
}

// Every worker of a controller blocked a minute or more is workers-blocked, named by the
// controller, with the knob and the value the arguments set; fewer, or waits under a minute,
// or a controller the knobs do not know, raise nothing.
func TestWorkersBlocked(t *testing.T) {
	fs := withKnobs(certManager([]string{"--concurrent-workers=3"}, acme(3, 3)), workersBlocked(certManager([]string{"--concurrent-workers=3"}, acme(3, 3))))
	if len(fs) != 1 {
		t.Fatalf("3 of 3 blocked: %+v", fs)
	}
	f := fs[0]
	if f.Check != "workers-blocked" || f.Queue != "issuers" || f.Severity != Warning ||
		!strings.HasPrefix(f.Summary, "all 3 workers of issuers have run their item for a minute or more: 3 workers blocked 1m in net/http.(*Client).Do") {
		t.Errorf("finding: %+v", f)
	}
	if f.Knob == nil || f.Knob.Flags[0].Flag != "--concurrent-workers" || f.Knob.Flags[0].Current != "3" ||
		!strings.Contains(f.Recommendation, "--concurrent-workers") {
		t.Errorf("knob: %+v / %s", f.Knob, f.Recommendation)
	}
	for name, tg := range map[string]Target{
		"2 of 3 a minute":            certManager([]string{"--concurrent-workers=3"}, acme(3, 2)),
		"4 of the default 5":         certManager(nil, acme(4, 4)),
		"under a minute":             certManager([]string{"--concurrent-workers=3"}, acme(3, 0)),
		"no controller in the stack": certManager([]string{"--concurrent-workers=1"}, goroutines.Group{Count: 1, LongWaits: 1}),
		"not cert-manager":           {ID: "x", Cur: &health.Snapshot{}, Pod: &Pod{Image: "example.com/op:1"}, Goroutines: &goroutines.Profile{Groups: []goroutines.Group{acme(9, 9)}}},
		"no dump":                    {ID: "y", Cur: &health.Snapshot{}, Pod: &Pod{Image: certManagerImage}},
	} {
		if fs := workersBlocked(tg); len(fs) != 0 {
			t.Errorf("%s: %+v", name, fs)
		}
	}
	if fs := workersBlocked(certManager(nil, acme(3, 3), acme(2, 2))); len(fs) != 1 || !strings.Contains(fs[0].Summary, "all 5 workers") {
		t.Errorf("5 of the default 5 in two groups: %+v", fs)
	}
}

// Only a recognised controller without queue figures, with a workers knob for the check, has
// its dump read for it.
func TestWorkersInDump(t *testing.T) {
	pod := func(image string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}}}
	}
	at := func(p *corev1.Pod, queues map[string]*health.Queue, syncsOnly string) model.Target {
		return model.Target{Facts: model.Facts{Target: target.Target{Kind: target.KindPod, Name: "p", Container: "c"}, Pod: p},
			Snapshots: []*health.Snapshot{{Queues: queues, SyncsOnly: syncsOnly}}}
	}
	if !WorkersInDump(at(pod(certManagerImage), nil, "")) {
		t.Error("cert-manager without queues: its dump counts the workers")
	}
	if !WorkersInDump(at(pod(certManagerImage), map[string]*health.Queue{"issuers": {}}, health.CertManager)) {
		t.Error("cert-manager's queues of sync counts only: its dump counts the workers")
	}
	if WorkersInDump(at(pod(certManagerImage), map[string]*health.Queue{"q": {}}, "")) {
		t.Error("a controller with queue figures: they say it")
	}
	if WorkersInDump(at(pod("example.com/op:1"), nil, "")) {
		t.Error("a controller the knobs do not know")
	}
}
