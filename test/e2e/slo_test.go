//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// slisDoc is the service-levels part of `report -o json` the test reads.
type slisDoc struct {
	SLIs []struct {
		Target, Queue string
		QueueWait     struct {
			Samples, Over *float64
			Verdict, Why  string
		} `json:"queueWait"`
	} `json:"slis"`
}

// The queue-wait objective is judged on the operator's own queue: saturated (1s reconciles, 10
// touches/s at 2 workers) breaks it with CD223, which names workers-saturated as its cause;
// healthy holds or is not judged for want of waits, and raises nothing.
func TestQueueWaitSLOVerdicts(t *testing.T) {
	crowd(t)
	for _, tc := range []struct {
		scenario string
		breaks   bool
	}{
		{"saturated", true},
		{"healthy", false},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			sub(t)
			ns := newNamespace(t)
			p := operatorBehindPod(t, ns, "operator-"+tc.scenario, tc.scenario)
			time.Sleep(15 * time.Second)
			operator := fmt.Sprintf("%s/%s:8080", ns, p.Name)
			d, r := reportJSON(t, "-n", ns, "--include-apiserver=false")
			if r.Code != 0 {
				t.Fatalf("report:\n%s", r)
			}
			var s slisDoc
			if err := json.Unmarshal([]byte(r.Stdout), &s); err != nil {
				t.Fatal(err)
			}
			verdict := ""
			for _, x := range s.SLIs {
				if x.Target == operator && x.Queue == "workload" {
					verdict = x.QueueWait.Verdict
					t.Logf("slis: %s %s: %s (%s), waits %v over %v", x.Target, x.Queue, verdict, x.QueueWait.Why, num(x.QueueWait.Samples), num(x.QueueWait.Over))
				}
			}
			var cd223 []string
			for _, f := range d.Findings {
				if f.Code == "CD223" {
					cd223 = append(cd223, f.Severity+" "+f.Target+" "+f.Queue+": "+f.Summary)
					if tc.breaks && f.Target == operator {
						cause := ""
						for _, e := range f.Evidence {
							if e.Name == "cause" {
								cause = e.Value
							}
						}
						// Saturated workers are the cause; under-provisioning (CD217) may be
						// named beside them, as both hold.
						if !slices.Contains(strings.Split(cause, ", "), "CD208 workers-saturated") {
							t.Errorf("CD223 cites cause %q, want CD208 workers-saturated among them", cause)
						}
					}
				}
			}
			switch {
			case tc.breaks && (verdict != "breaks" || len(cd223) != 1):
				t.Errorf("saturated: verdict %q, CD223 %v; want breaks and one CD223; all: %s", verdict, cd223, d.checks())
			case !tc.breaks && (verdict != "holds" && verdict != "not-judged" || len(cd223) != 0):
				t.Errorf("healthy: verdict %q, CD223 %v; want holds or not-judged and none; all: %s", verdict, cd223, d.checks())
			}
			if !tc.breaks && d.Summary.Warning+d.Summary.Critical != 0 {
				t.Errorf("healthy: %d warnings, %d critical: %s", d.Summary.Warning, d.Summary.Critical, d.checks())
			}
		})
	}
}
