package render

// capacityText is the capacity model in plain words; docs/capacity.md has the formulas, the
// checks against measurements and where the model is wrong.
const capacityText = `How many workers does a queue need? kubectl ctrldiag report answers it in its capacity
section, for every queue with at least minEvents items completed in the window, and raises
under-provisioned (CD217) when the workers are the bottleneck.

It reads, over the window, how much work arrives (adds a second), how long one item takes
a worker (the mean, and how much that time varies), how many workers there are, and how long
items wait. From these it computes the load (arrivals times work time: the number of
workers that would be busy all the time) and each worker's share of it, and predicts the p99
wait with a standard queueing formula. The report shows the prediction beside the measured
wait, so you can see whether the model fits.

Some controllers refresh every object on a timer (most reconciles end in requeue_after): their
load is the number of objects over the refresh period, not the adds. When the workers are
saturated the adds understate the load, so the report counts the objects' changes at the API
server, or the completions plus the growth of the backlog; a number marked "at least" is then
a floor.

The workers needed is the fewest whose predicted p99 wait stays under --target-queue-wait
(targetQueueWait, 1s by default). The workers are read, in this order, from --workers
QUEUE=N, from controller-runtime's max_concurrent_reconciles metric, from the flag of a
well-known controller in its pod's command line (--concurrent-replicaset-syncs, Flux's
--concurrent, ...), or from that flag's documented default; the WORKERS cell says which.
Where none applies they stay unknown, and --workers gives them. More workers cannot help,
and the finding is not raised, when something else holds the queue: throttling, API errors,
failing reconciles, a stuck worker, the CPU at its limit, or one object that changes faster
than a worker reconciles it.

The HEADROOM column says how much more load the present workers take before the predicted
p99 wait passes the same target: the most arrivals a second that still meet it, over the load
now ("+101%"; "already over"; "idle (takes 6.03/s)" with no load). Where the load is a floor
the headroom is at most the figure; in a refresh loop more load means more objects at the same
period; where the queue's measured waits already break the objective (queue-wait-slo, CD223)
it is "already over" whatever the model says.

Read a window with enough items: --interval 30s rather than the default 5s for slow
reconciles. How the model was checked and where it is wrong:
https://github.com/ctrldiag/kubectl-ctrldiag/blob/main/docs/capacity.md
`
