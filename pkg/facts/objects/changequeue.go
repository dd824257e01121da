package objects

// changeQueue is what a tracker knows of one object's changes: its latest generation, and the
// changes to it not ended yet, oldest first, each a P. The spec tracker and the Ready tracker
// both follow changes through it, so that they count the same changes of the same watch.
type changeQueue[P any] struct {
	gen     int64
	pending []P
}

// change follows the object to generation gen, seen in an Added event of an object not
// followed yet (created) or in any later event: a creation, or a generation newer than the
// one known, is a change, and p is queued for it (beyond maxPending per object, the change is
// counted but not timed). It says whether there was a change.
func (q *changeQueue[P]) change(gen int64, created bool, p P) bool {
	if !created && gen <= q.gen {
		return false
	}
	if len(q.pending) < maxPending {
		q.pending = append(q.pending, p)
	}
	q.gen = gen
	return true
}
