//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

// stepsObjects is how many Workloads the steps scenario keeps.
const stepsObjects = 300

// stepsWorkloads is the Workloads of the steps scenario in ns, through a client fast enough to
// patch at tens a second, once all of them are observed (their first reconciles, 300 at 8/s).
func stepsWorkloads(t *testing.T, ns string) dynamic.ResourceInterface {
	t.Helper()
	return workloadsObserved(t, ns, stepsObjects, 3*time.Minute)
}

// workloadsObserved waits up to within until ns holds n Workloads, each reconciled at its
// generation (status.observedGeneration), and returns them through a client fast enough to
// patch at tens a second. An operator's start-up (its objects created, each reconciled and its
// status written once) is over then.
func workloadsObserved(t *testing.T, ns string, n int, within time.Duration) dynamic.ResourceInterface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS, cfg.Burst = 200, 400
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	workloads := dyn.Resource(schema.GroupVersionResource{Group: "demo.ctrldiag.dev", Version: "v1alpha1", Resource: "workloads"}).Namespace(ns)
	eventually(t, within, fmt.Sprintf("all %d Workloads observed", n), func() error {
		l, err := workloads.List(context.Background(), metav1.ListOptions{})
		if err != nil {
			return err
		}
		behind := 0
		for _, u := range l.Items {
			if o, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration"); o < u.GetGeneration() {
				behind++
			}
		}
		if len(l.Items) < n || behind > 0 {
			return fmt.Errorf("%d objects, %d behind", len(l.Items), behind)
		}
		return nil
	})
	return workloads
}

// specLoad changes spec.seed of the steps scenario's Workloads, round robin, at Poisson
// arrivals of a rate the test sets: each arrival is due at its own time (the last one's plus
// an exponential gap) and sent then, whatever the earlier patches' latency, so a slow API
// server does not lower the load (at most 32 patches in flight).
type specLoad struct {
	rate    atomic.Uint64 // math.Float64bits of changes per second
	answers func(name string, gen int64, t0, t0done time.Time)
}

// setRate sets the changes per second from the next arrival on.
func (l *specLoad) setRate(perSecond float64) { l.rate.Store(math.Float64bits(perSecond)) }

// start runs the load until the test ends.
func (l *specLoad) start(t *testing.T, workloads dynamic.ResourceInterface) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	inFlight := make(chan struct{}, 32)
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewSource(1))
		due := time.Now()
		for n := 0; ; n++ {
			due = due.Add(time.Duration(rng.ExpFloat64() / math.Float64frombits(l.rate.Load()) * float64(time.Second)))
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Until(due)):
			}
			select {
			case <-ctx.Done():
				return
			case inFlight <- struct{}{}:
			}
			name := fmt.Sprintf("steps-%03d", n%stepsObjects)
			body := fmt.Sprintf(`{"metadata":{"annotations":{"e2e.ctrldiag.dev/changed-at":"%d"}},"spec":{"seed":%d}}`, time.Now().UnixNano(), 1000+n)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-inFlight }()
				t0 := time.Now()
				u, err := workloads.Patch(ctx, name, types.MergePatchType, []byte(body), metav1.PatchOptions{})
				if err == nil && l.answers != nil {
					l.answers(name, u.GetGeneration(), t0, time.Now())
				}
			}()
		}
	}()
}
