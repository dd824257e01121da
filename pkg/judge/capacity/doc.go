// Package capacity turns a queue's measured arrivals, service times and workers into the queue
// wait a queueing model predicts (M/M/c, Erlang C, with the Allen-Cunneen correction for the
// measured spread of service times) and the number of workers that keeps the p99 wait under a
// target. It tells open loops (items arrive from events) from closed loops (most reconciles end
// in requeue_after: the objects come back by themselves) and saturated queues (the workers
// hold the measured adds down), and says when more workers cannot help. Pure arithmetic: the
// caller reads the metrics.
package capacity
