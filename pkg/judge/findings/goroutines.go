package findings

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
)

// blockedIn names, in a stuck or slow finding, where the workers wait when the target's
// goroutine dump was read: the group blocked longest for a stuck worker, the largest for slow
// reconciles. The advice that follows from the frame (a call without a deadline, a lock, a
// channel, the client's rate limiter) comes before the catalog's.
func blockedIn(f Finding, p *goroutines.Profile, stuck bool) Finding {
	if p == nil {
		return f
	}
	g, ok := p.Largest()
	if stuck {
		g, ok = p.Longest()
	}
	if !ok {
		switch {
		case p.Note != "":
			f.Evidence = append(f.Evidence, Evidence{Name: "goroutine dump", Value: p.Note})
		case p.Goroutines > 0:
			f.Evidence = append(f.Evidence, Evidence{Name: "goroutine dump", Value: fmt.Sprintf("%d goroutines, none running an item", p.Goroutines)})
		}
		return f
	}
	where := g.Describe()
	f.Summary += ": " + where
	f.Evidence = append(f.Evidence, Evidence{Name: "goroutines", Value: where})
	if a := g.CauseOf().Advice(); a != "" {
		f.Recommendation = a + " " + f.Recommendation
	}
	return f
}
