//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"
)

// headroomDoc is what the headroom test reads of `report -o json`: the operator queue's
// capacity row and its queue-wait verdict.
type headroomDoc struct {
	Capacity []struct {
		Target, Queue                         string
		OfferedPerSecond, MaxOfferedPerSecond *float64
		Headroom                              *float64
	} `json:"capacity"`
	SLIs []struct {
		Target, Queue string
		QueueWait     struct {
			Samples, Over *float64
			P99Seconds    *float64
			Verdict, Why  string
		} `json:"queueWait"`
		Spec *struct {
			Changes      int
			Samples      *float64
			Undecided    float64
			P99Seconds   *float64
			Verdict, Why string
		} `json:"spec"`
	} `json:"slis"`
}

// headroomStep is one report of the steps scenario under a load: what it offered, what the
// model says the workers take, and the queue-wait verdict of the window.
type headroomStep struct {
	offered, maxOffered, p99 float64
	waits                    float64
	verdict                  string
	cd223                    bool
	// The spec-latency objective of the step (a bound of the watch's buckets, so that their
	// counts decide it exactly) over the same window: its changes, p99 and verdict.
	specChanges          int
	specJudged, specOpen float64
	specP99              float64
	specVerdict          string
	cd224                bool
}

// The headroom the capacity section predicts is where the queue-wait objective really breaks.
// The steps scenario (4 workers, reconciles of 500ms in all: 8/s at most) under spec changes at 3/s: the
// report predicts the highest load the workers take with a p99 wait of at most 1s (about 5.8/s;
// the queue's true 1% point is about 6.1/s). Driven at 0.75 of it the objective does not break
// and nothing is raised; at 1.3 of it, under what the workers complete, the window's waits break
// it and CD223 says so. A 1% tail near the break point is slow to show: the windows are long
// enough that a simulated M/D/4 queue under the same loads fails either check in under 1 run
// of 200 (0.75x over 60s breaks in 0.1%, 1.3x over 150s holds or is unknown in 0.4%).
//
// Runs calm (gate_test.go): the model's most rests on the measured service time, and the crowd's
// CPU load delays the operator's own timers and the load's patches. The service time no longer
// holds an API write's latency (the steps take 500ms in all, their status write first): when
// it did, beside the crowd or the calm tests the model's most fell to 3.14/s, 3.00/s and 2.55/s
// as the write slowed, and the 0.75x step broke the objective.
func TestHeadroomPredictsBreakPoint(t *testing.T) {
	calm(t)
	ns := newNamespace(t)
	p := startOperatorWith(t, ns, "operator", "steps", 4)
	operator := fmt.Sprintf("%s/%s:8080", ns, p.Name)
	load := &specLoad{}
	load.setRate(3)
	load.start(t, stepsWorkloads(t, ns))

	step := func(name, window, specObjective string) headroomStep {
		t.Helper()
		r, _ := runWithin(t, 5*time.Minute, env.kubeconfig, "kubectl", "ctrldiag", "report", "-o", "json", "-n", ns, "--include-apiserver=false",
			"--interval", window, "--deadline", "4m", "--slo", "spec-p99="+specObjective, "pod/"+p.Name)
		if r.Code != 0 {
			t.Fatalf("report at %s:\n%s", name, r)
		}
		var h headroomDoc
		var d reportDoc
		if err := json.Unmarshal([]byte(r.Stdout), &h); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
			t.Fatal(err)
		}
		s := headroomStep{offered: math.NaN(), maxOffered: math.NaN(), p99: math.NaN(), waits: math.NaN(), specP99: math.NaN()}
		for _, c := range h.Capacity {
			if c.Target == operator && c.Queue == "workload" && c.OfferedPerSecond != nil && c.MaxOfferedPerSecond != nil {
				s.offered, s.maxOffered = *c.OfferedPerSecond, *c.MaxOfferedPerSecond
			}
		}
		for _, x := range h.SLIs {
			if x.Target == operator && x.Queue == "workload" {
				s.verdict = x.QueueWait.Verdict
				if x.QueueWait.Samples != nil {
					s.waits = *x.QueueWait.Samples
				}
				if x.QueueWait.P99Seconds != nil {
					s.p99 = *x.QueueWait.P99Seconds
				}
				if x.Spec != nil {
					s.specChanges, s.specVerdict, s.specOpen = x.Spec.Changes, x.Spec.Verdict, x.Spec.Undecided
					if x.Spec.Samples != nil {
						s.specJudged = *x.Spec.Samples
					}
					if x.Spec.P99Seconds != nil {
						s.specP99 = *x.Spec.P99Seconds
					}
				}
			}
		}
		for _, f := range d.Findings {
			if f.Code == "CD223" && f.Target == operator {
				s.cd223 = true
			}
			if f.Code == "CD224" && f.Target == operator {
				s.cd224 = true
			}
		}
		t.Logf("%s: offered %.2f/s, the model's most %.2f/s, %.0f waits, p99 %.3fs, verdict %s, CD223 %v; %d spec changes (%.0f judged, %.0f undecided), p99 %.3fs, verdict %s, CD224 %v; findings %s",
			name, s.offered, s.maxOffered, s.waits, s.p99, s.verdict, s.cd223, s.specChanges, s.specJudged, s.specOpen, s.specP99, s.specVerdict, s.cd224, d.checks())
		return s
	}

	time.Sleep(10 * time.Second)
	base := step("3/s", "45s", "5s")
	// The steps' service time is fixed, so the model's most lies between the 3/s offered and
	// the 8/s the workers complete at most.
	if !(base.maxOffered > 3.5 && base.maxOffered < 8) || !(base.offered > 2 && base.offered < 4) {
		t.Fatalf("at 3/s: offered %.2f/s, the model's most %.2f/s; want about 3/s and between 3.5 and 8/s", base.offered, base.maxOffered)
	}
	if base.verdict == "breaks" || base.cd223 {
		t.Fatalf("at 3/s the objective must hold: %+v", base)
	}
	// A change of spec is one add (the operator's predicates ignore its status writes).
	breakAt := base.maxOffered

	load.setRate(0.75 * breakAt)
	time.Sleep(10 * time.Second)
	below := step(fmt.Sprintf("0.75x (%.2f/s)", 0.75*breakAt), "60s", "5s")
	if below.verdict == "breaks" || below.cd223 || below.waits < 100 {
		t.Errorf("at 0.75 of the predicted break point the objective must not break, over 100 waits or more: %+v", below)
	}
	// A change is acted on after its wait and one 500ms reconcile: under a 1s wait, well under 5s.
	if below.specVerdict != "holds" || below.cd224 {
		t.Errorf("at 0.75 of the predicted break point the spec-latency objective (5s) must hold: %+v", below)
	}

	load.setRate(1.3 * breakAt)
	time.Sleep(20 * time.Second)
	above := step(fmt.Sprintf("1.3x (%.2f/s)", 1.3*breakAt), "150s", "2s")
	if above.verdict != "breaks" || !above.cd223 {
		t.Errorf("at 1.3 of the predicted break point the objective must break with CD223: %+v", above)
	}
	// Waits of several seconds put the changes' time to be acted on past 2s too: both service
	// levels break, each with its own finding. (A change that finds its object already queued
	// waits less than the item: the spec latency's p99 runs below the queue wait's, 4.5s to
	// 8.7s in runs where the wait's was 9.9s, so 5s is not surely broken.)
	if above.specVerdict != "breaks" || !above.cd224 {
		t.Errorf("at 1.3 of the predicted break point the spec-latency objective (2s) must break with CD224: %+v", above)
	}
	if !(above.offered < 8.5) {
		t.Errorf("at 1.3x the load offered %.2f/s, well past the 8/s the workers complete: the check would say nothing of the model", above.offered)
	}
}
