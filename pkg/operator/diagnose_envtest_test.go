//go:build envtest

package operator_test

import (
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// diagnose runs report's rules, with the default thresholds, over the window of one
// controller: every operator of the test process shares one metrics registry, so the queues,
// controllers and leases of the others (stopped, their gauges frozen) are left out.
func diagnose(a, b families, seconds float64, ctrl, lease string) []findings.Finding {
	own := func(f families) *health.Snapshot {
		s := health.FromFamilies(f, time.Time{})
		for name := range s.Queues {
			if name != ctrl {
				delete(s.Queues, name)
			}
		}
		for name := range s.Controllers {
			if name != ctrl {
				delete(s.Controllers, name)
			}
		}
		for name := range s.Leader {
			if name != lease {
				delete(s.Leader, name)
			}
		}
		return s
	}
	prev, cur := own(a), own(b)
	window := time.Duration(seconds * float64(time.Second))
	id := "envtest/" + ctrl
	t := findings.Target{ID: id, Kind: findings.ControllerRuntime, Prev: prev, Cur: cur, Window: window,
		Queues: health.Queues(id, prev, cur, window)}
	th := findings.DefaultThresholds()
	findings.Judge(&t, th)
	return findings.Evaluate([]findings.Target{t}, nil, nil, th)
}

func (w window) diagnose() []findings.Finding {
	return diagnose(w.a, w.b, w.seconds, w.ctrl, w.inst.leaseID)
}

// checks lists findings as severity:check, worst first.
func checks(fs []findings.Finding) string {
	s := make([]string, 0, len(fs))
	for _, f := range fs {
		s = append(s, string(f.Severity)+":"+f.Check)
	}
	return strings.Join(s, ",")
}

// serious lists the warning and critical findings.
func serious(fs []findings.Finding) string {
	var s []string
	for _, f := range fs {
		if f.Severity != findings.Info {
			s = append(s, string(f.Severity)+":"+f.Check+" ("+f.Summary+")")
		}
	}
	return strings.Join(s, "; ")
}
