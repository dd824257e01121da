package collect

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// panicking is a source whose reading panics, as a bug brought out by an unforeseen page
// would.
type panicking struct{ scrape.Source }

func (panicking) Fetch(context.Context) (*scrape.Page, error) {
	panic("index out of range [3] with length 3")
}

// A panic while one target is read is that target's error, saying it is a bug; the process
// goes on, the other targets are read, and the concurrency slot is given back (a second
// panicking target with one slot would otherwise hold the good one forever).
func TestPanicIsTheTargetsError(t *testing.T) {
	pod := func(name string) target.Target {
		return target.Target{Kind: target.KindPod, Namespace: "ops", Name: name, Port: 8080, Via: target.ViaProxy}
	}
	good := &scrape.ClusterSource{Endpoint: pod("good"), Transport: fallbackAnswer{200, "text/plain; version=0.0.4", "workqueue_depth{name=\"q\"} 1\n"}}
	sources := []scrape.Source{
		panicking{&scrape.ClusterSource{Endpoint: pod("bad")}},
		panicking{&scrape.ClusterSource{Endpoint: pod("worse")}},
		good,
	}
	rs := Collect(context.Background(), sources, source.Options{Timeout: time.Second, Concurrency: 1, Keep: health.WantedQueues})
	for i := range 2 {
		if r := rs[i]; r.Err == nil || !strings.Contains(r.Err.Error(), "internal error while reading this target: index out of range") ||
			!strings.Contains(r.Err.Error(), "this is a bug") || r.Target.Name != sources[i].Target().Name {
			t.Errorf("target %d: target %q, error %v; want its own name and an error saying it is a bug", i, r.Target.Name, r.Err)
		}
	}
	if r := rs[2]; r.Err != nil || len(r.Samples) != 1 {
		t.Errorf("the good target: %d samples, %v; want it read", len(r.Samples), r.Err)
	}
}
