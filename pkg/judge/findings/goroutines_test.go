package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
)

func TestStuckAndSlowFindingsNameWhereTheWorkersWait(t *testing.T) {
	http := goroutines.Group{Count: 2, State: "select", Longest: 3 * time.Minute,
		Wait: goroutines.Frame{Func: "net/http.(*Client).Do"}, Own: goroutines.Frame{Func: "main.(*annotator).callBackend"}}
	lock := goroutines.Group{Count: 5, State: "sync.Mutex.Lock", Longest: time.Minute,
		Wait: goroutines.Frame{Func: "sync.(*Mutex).Lock"}, Own: goroutines.Frame{Func: "main.(*r).Reconcile"}}
	p := &goroutines.Profile{Groups: []goroutines.Group{lock, http}}

	stuck := blockedIn(newFinding("stuck-worker", ControllerRuntime, "ns/p:8080", "annotator", "an item of annotator has been in a worker for 5m"), p, true)
	if want := "an item of annotator has been in a worker for 5m: 2 workers blocked 3m in net/http.(*Client).Do, called from main.(*annotator).callBackend [select]"; stuck.Summary != want {
		t.Errorf("stuck:\n got %s\nwant %s", stuck.Summary, want)
	}
	if !strings.HasPrefix(stuck.Recommendation, "The workers wait in an HTTP call that has no deadline") || !strings.Contains(stuck.Recommendation, "ReconciliationTimeout") {
		t.Errorf("stuck advice: %s", stuck.Recommendation)
	}
	slow := blockedIn(newFinding("slow-reconcile", ControllerRuntime, "ns/p:8080", "annotator", "slow"), p, false)
	if !strings.Contains(slow.Summary, "5 workers blocked 1m in sync.(*Mutex).Lock") || !strings.HasPrefix(slow.Recommendation, "The workers wait for a lock") {
		t.Errorf("slow: %s / %s", slow.Summary, slow.Recommendation)
	}
	none := blockedIn(newFinding("stuck-worker", ControllerRuntime, "t", "q", "s"), &goroutines.Profile{Note: "not read: 403 Forbidden"}, true)
	if none.Summary != "s" || len(none.Evidence) != 1 || none.Evidence[0].Value != "not read: 403 Forbidden" {
		t.Errorf("no dump: %+v", none)
	}
	if plain := blockedIn(newFinding("stuck-worker", ControllerRuntime, "t", "q", "s"), nil, true); plain.Summary != "s" || len(plain.Evidence) != 0 {
		t.Errorf("no profile asked: %+v", plain)
	}
}
