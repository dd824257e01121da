package health

// QueueHistory is the recent history of one queue of one target: one point per step, oldest
// first, NaN where the server has none.
type QueueHistory struct {
	// Target is the live target's ID, Queue the queue's name.
	Target, Queue string
	Depth, Adds   []float64
}
