// Package view holds what the commands print in -o json|yaml, and the one queue row they are
// drawn from. A Queue is every figure of one queue over the window, computed once from the
// model (pkg/model/health): `queues` and every frame of `top` list the rows, the report's sections 2
// (backlog) and 4 (event processing) are projections of them, and `diff` reads two reports'
// sections back into rows to compare. Every document is here (QueueList, TargetList, the
// report's document, Report, with every section it holds, and the diff's result) and keeps
// its JSON field names; the facts a report embeds as they were read (findings, objects,
// events, logs, goroutine dumps, webhooks, flow schemas, cache lag, a knob's advice) keep
// theirs in the packages that read them, because a snapshot stores the same facts under the
// same names. pkg/view/report fills the report. The view knows nothing of the run layer,
// of cobra or of how anything is printed.
package view
