// Package run is the run layer: each verb's one entry point, from a Spec and the verb's
// config to the result to print. A Plan is a Spec (what to read and how, in plain values),
// what opening it needs besides, and where the progress line goes; each verb adds a plain
// config of its own and calls one function: Queues, Targets, Report, Snapshot (report's run,
// recorded), Top (the frames) or Diff (both sides read and compared), which starts the run's
// one clock and opens the plan (Open: the cluster, URLs, saved pages, a snapshot replayed, or
// a Prometheus server with the kubeconfig's cluster attached). The same stages run over the
// source for every verb: open (the source's targets) -> read (the samples) -> model (each
// sample once) -> findings (the rules, and each queue's STATUS) -> suppressions (the accepted
// findings) -> view (the queue table, the report, a frame of top). QueuesWith, ReportWith and
// Frames.Next run the stages over a source already opened (Env). Nothing here knows cobra or
// prints, nothing writes back into the flags, the source or a result, and the stages see the
// source only through its interface: a verb hands the view to render and asks the result for
// its exit code.
package run
