// Package engine runs the stages of the one pipeline every command goes through, without
// cobra: open (the source's targets) -> read (the samples) -> model (each sample once) ->
// findings (the rules, and each queue's STATUS) -> suppressions (the accepted findings) ->
// view (the queue table, the report, a frame of top). Queues, Report and Top.Next take an
// opened source (Env) and a plain per-command config; pkg/pipeline opens a plan's open.Spec
// and hands it here, and NewReport checks report's options into its config. The engine never
// prints, knows nothing of the source but its interface, and returns the view a command
// hands to render with what decides its exit code.
package engine
