// Package report assembles the diagnosis of `kubectl ctrldiag report` from what was scraped: the
// six sections of the usual hand-written diagnosis (controller pods, workqueue backlog, cache sync
// lag, event processing, memory and CPU, findings), computed rather than grepped, into the one
// versioned document that every output format renders (view.Report, whose schema pkg/view
// holds).
package report
