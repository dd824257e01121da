package snapshot

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
)

// replayIndex finds what the snapshot kept of a target by its ID, in one map look-up: a
// report asks for the log and the dump of every target, and a snapshot may hold thousands.
type replayIndex struct {
	logs       map[string]*logs.Log
	goroutines map[string]*goroutines.Profile
	flagz      map[string]*knobs.Flagz
}

// index is built on the first look-up, once: the first stored result of a target that kept a
// log (a dump) answers for it, as the stored order says.
func (p *Replay) index() *replayIndex {
	p.once.Do(func() {
		ix := &replayIndex{logs: map[string]*logs.Log{}, goroutines: map[string]*goroutines.Profile{}, flagz: map[string]*knobs.Flagz{}}
		for _, r := range p.s.Results {
			if r.Log == nil && r.Goroutines == nil && r.Flagz == nil {
				continue
			}
			id := r.Target.ID()
			if _, ok := ix.logs[id]; !ok && r.Log != nil {
				ix.logs[id] = r.Log
			}
			if _, ok := ix.goroutines[id]; !ok && r.Goroutines != nil {
				ix.goroutines[id] = r.Goroutines
			}
			if _, ok := ix.flagz[id]; !ok && r.Flagz != nil {
				ix.flagz[id] = r.Flagz
			}
		}
		p.ix = ix
	})
	return p.ix
}
