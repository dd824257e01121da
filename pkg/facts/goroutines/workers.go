package goroutines

import (
	"sort"
	"strings"
	"time"
)

// workerMarks are frames that only a goroutine running a workqueue item has:
// controller-runtime's handler, client-go's worker loops by their usual names, and
// cert-manager's worker loop.
var workerMarks = []string{
	"sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller", // with one of workerCalls
	".processNextWorkItem",
	".processNextItem",
	certManagerWorker,
}

// workerCalls are controller-runtime controller methods that run an item (its Start and
// the goroutine that waits for the manager to stop do not).
var workerCalls = []string{").reconcileHandler", ").Reconcile", ").processNextWorkItem"}

// isWorker reports whether g runs a workqueue item now: a worker frame, and not merely
// waiting for the next item (a worker parked in the queue's Get, client-go's workqueue or
// controller-runtime's priority queue, is idle).
func isWorker(g Goroutine) bool {
	worker := false
	for _, f := range g.Frames {
		if (strings.Contains(f.Func, "k8s.io/client-go/util/workqueue.") || strings.Contains(f.Func, "/priorityqueue.")) &&
			strings.Contains(f.Func, ".Get") {
			return false
		}
		for _, m := range workerMarks {
			if !strings.Contains(f.Func, m) {
				continue
			}
			if m != workerMarks[0] {
				worker = true
				continue
			}
			for _, c := range workerCalls {
				if strings.Contains(f.Func, c) {
					worker = true
				}
			}
		}
	}
	return worker
}

// Group is the workers blocked in one place: goroutines with the same stack.
type Group struct {
	// Count is how many goroutines share the stack; IDs some of them (at most 5).
	Count int    `json:"count"`
	IDs   []int  `json:"ids,omitempty"`
	State string `json:"state"`
	// Longest is the longest any of them has been blocked (whole minutes; 0 under one).
	Longest time.Duration `json:"longestNanoseconds"`
	// Frames is the shared stack, innermost first.
	Frames []Frame `json:"frames,omitempty"`
	// Wait is what they wait on: the library call the controller's own code made
	// ("net/http.(*Client).Do", "sync.(*Mutex).Lock"), or the innermost frame outside the
	// runtime when no frame is the controller's.
	Wait Frame `json:"wait"`
	// Own is the innermost frame of the controller's own code (not the Go standard library,
	// k8s.io, sigs.k8s.io or the runtime): who made the call ("" Func when none).
	Own Frame `json:"own"`
	// Controller is the controller whose item they run, when the stack names it
	// (cert-manager's "issuers", "orders", ...; "" when it does not).
	Controller string `json:"controller,omitempty"`
	// LongWaits counts those blocked a minute or more: the dump gives waits in whole minutes,
	// so these have been running their item for at least that long.
	LongWaits int `json:"longWaits,omitempty"`
}

// Workers groups the goroutines that run a workqueue item by identical stacks, the largest
// group first, then the longest blocked.
func Workers(d *Dump) []Group {
	byStack := map[string]*Group{}
	var order []string
	for _, g := range d.Goroutines {
		if !isWorker(g) {
			continue
		}
		key := g.State + "\n" + stackKey(g.Frames)
		grp := byStack[key]
		if grp == nil {
			own := ownIndex(g.Frames)
			grp = &Group{State: g.State, Frames: g.Frames, Wait: waitFrame(g.Frames, own), Controller: controllerOf(g.Frames)}
			if own >= 0 {
				grp.Own = g.Frames[own]
			}
			byStack[key] = grp
			order = append(order, key)
		}
		grp.Count++
		if len(grp.IDs) < 5 {
			grp.IDs = append(grp.IDs, g.ID)
		}
		if g.Waiting > grp.Longest {
			grp.Longest = g.Waiting
		}
		if g.Waiting >= time.Minute {
			grp.LongWaits++
		}
	}
	out := make([]Group, 0, len(order))
	for _, k := range order {
		out = append(out, *byStack[k])
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Longest > out[j].Longest
	})
	return out
}

func stackKey(fs []Frame) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Func)
		b.WriteByte('\n')
	}
	return b.String()
}

// waitFrame is the frame the controller's own code at index own called, or without one the
// innermost frame outside the runtime and the internal packages.
func waitFrame(fs []Frame, own int) Frame {
	if own > 0 {
		return fs[own-1]
	}
	for _, f := range fs {
		if !strings.HasPrefix(f.Func, "runtime.") && !strings.HasPrefix(f.Func, "internal/") && !strings.HasPrefix(f.Func, "sync/atomic.") {
			return f
		}
	}
	return Frame{}
}

// ownIndex is the index of the innermost frame of code that is neither Go's standard library
// nor the Kubernetes and controller-runtime libraries (the controller's own), or -1.
func ownIndex(fs []Frame) int {
	for i, f := range fs {
		if !library(f.Func) {
			return i
		}
	}
	return -1
}

// library says whether fn belongs to Go's standard library (no dot before the first slash
// of its path) or the common Kubernetes libraries; kube-controller-manager's controllers are
// not library code.
func library(fn string) bool {
	if strings.HasPrefix(fn, "k8s.io/kubernetes/pkg/controller/") {
		return false // kube-controller-manager's controllers are its own code
	}
	for _, p := range []string{"k8s.io/", "sigs.k8s.io/", "github.com/prometheus/", "go.opentelemetry.io/", "golang.org/x/", "google.golang.org/"} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	path := fn
	if i := strings.LastIndex(path, "/"); i >= 0 {
		path = path[:i]
	} else {
		path, _, _ = strings.Cut(path, ".")
		return path != "main" // a one-element path: the standard library (fmt, net, sync), or main
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
