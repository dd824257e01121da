package goroutines

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestProfileNamesWhereTheWorkersWaitAndWhy(t *testing.T) {
	p := NewProfile(readDump(t, "operator.txt", DefaultLimits()))
	if p.Goroutines != 6 || p.Workers != 3 || len(p.Groups) != 2 || p.Note != "" {
		t.Fatalf("profile: %d goroutines, %d workers, %d groups, note %q", p.Goroutines, p.Workers, len(p.Groups), p.Note)
	}
	g, _ := p.Longest()
	want := "2 workers blocked 3m in net/http.(*Client).Do, called from example.com/annotator/internal/controller.(*annotator).callBackend [select]"
	if got := g.Describe(); got != want {
		t.Errorf("Describe:\n got %s\nwant %s", got, want)
	}
	if c := g.CauseOf(); c != CauseHTTP || !strings.Contains(c.Advice(), "Timeout") {
		t.Errorf("HTTP group: cause %q, advice %q", c, c.Advice())
	}
	if c := p.Groups[1].CauseOf(); c != CauseLock || !strings.Contains(c.Advice(), "lock") {
		t.Errorf("mutex group: cause %q", c)
	}
	if got := p.Groups[1].Describe(); !strings.HasPrefix(got, "1 worker blocked 1m in sync.(*Mutex).Lock, called from ") {
		t.Errorf("mutex group: %s", got)
	}
}

func TestCauseOfTheClientsRateLimiterAndChannels(t *testing.T) {
	limiter := Group{State: "select", Frames: []Frame{{Func: "runtime.selectgo"}, {Func: "golang.org/x/time/rate.(*Limiter).WaitN"},
		{Func: "k8s.io/client-go/util/flowcontrol.(*tokenBucketPassiveRateLimiter).Wait"}, {Func: "k8s.io/client-go/rest.(*Request).tryThrottle"},
		{Func: "main.(*r).Reconcile"}}, Wait: Frame{Func: "sigs.k8s.io/controller-runtime/pkg/client.(*client).Get"}}
	if c := limiter.CauseOf(); c != CauseRateLimiter || !strings.Contains(c.Advice(), "QPS") {
		t.Errorf("rate limiter: %q", c)
	}
	ch := Group{State: "chan receive", Wait: Frame{Func: "runtime.chanrecv1"}, Longest: 125 * time.Minute, Count: 4}
	if c := ch.CauseOf(); c != CauseChannel {
		t.Errorf("channel: %q", c)
	}
	if got := ch.Describe(); got != "4 workers blocked 2h5m in runtime.chanrecv1 [chan receive]" {
		t.Errorf("channel: %s", got)
	}
	if c := (Group{State: "running", Wait: Frame{Func: "main.hash"}}).CauseOf(); c != CauseUnknown || c.Advice() != "" {
		t.Errorf("busy: %q", c)
	}
}

func TestProfileIsBounded(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3*MaxGroups; i++ {
		b.WriteString("goroutine " + itoa(i+1) + " [select, 2 minutes]:\n")
		b.WriteString("main.wait" + itoa(i) + "()\n\t/src/main.go:1 +0x1\n")
		for j := 0; j < 2*MaxFrames; j++ {
			b.WriteString("main.deep" + itoa(j) + "()\n\t/src/main.go:2 +0x1\n")
		}
		b.WriteString("main.(*r).processNextWorkItem()\n\t/src/main.go:3 +0x1\n\n")
	}
	d, err := Parse(strings.NewReader(b.String()), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	p := NewProfile(d)
	if p.Workers != 3*MaxGroups || len(p.Groups) != MaxGroups || len(p.Groups[0].Frames) != MaxFrames {
		t.Errorf("%d workers, %d groups, %d frames", p.Workers, len(p.Groups), len(p.Groups[0].Frames))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// controller-runtime 0.25 as a debug=2 dump shows it: the runtime's frames are left out, so
// a reconcile blocked on a channel has its own frame innermost; the controller's Start and
// workers idle in the priority queue's Get run no item.
func TestWorkersOfAControllerRuntimeDump(t *testing.T) {
	dump := `goroutine 80 [chan receive]:
sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).Start(0x1)
	/mod/controller-runtime/pkg/internal/controller/controller.go:327 +0x1
sigs.k8s.io/controller-runtime/pkg/manager.(*runnableGroup).reconcile.func1(0x1)
	/mod/controller-runtime/pkg/manager/runnable_group.go:276 +0x1

goroutine 81 [select]:
sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue.(*priorityqueue[...]).GetWithPriority(0x1)
	/mod/controller-runtime/pkg/controller/priorityqueue/priorityqueue.go:400 +0x1
sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).processNextWorkItem(0x1)
	/mod/controller-runtime/pkg/internal/controller/controller.go:440 +0x1

goroutine 82 [chan receive, 2 minutes]:
github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller.(*Reconciler).Reconcile(0x1)
	/src/pkg/operator/controller/reconciler.go:49 +0x1
sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).Reconcile(0x1)
	/mod/controller-runtime/pkg/internal/controller/controller.go:216 +0x1
sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).reconcileHandler(0x1)
	/mod/controller-runtime/pkg/internal/controller/controller.go:461 +0x1
`
	d, err := Parse(strings.NewReader(dump), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	p := NewProfile(d)
	if p.Workers != 1 || len(p.Groups) != 1 {
		t.Fatalf("%d workers in %d groups, want the blocked reconcile alone: %+v", p.Workers, len(p.Groups), p.Groups)
	}
	g := p.Groups[0]
	want := "1 worker blocked 2m on chan receive in github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller.(*Reconciler).Reconcile"
	if got := g.Describe(); got != want || g.CauseOf() != CauseChannel || g.Own.Line != 49 {
		t.Errorf("Describe:\n got %s\nwant %s (cause %q)", got, want, g.CauseOf())
	}
}
