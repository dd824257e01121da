// Package source is where the samples of a run come from. A Source finds its targets (Open)
// and then reads them (Read): every Result carries its target, as it was reached in the end,
// the pod behind it when there is one, its timestamped samples, the window between them and
// the error that stopped it. The stages of the run layer know only this package's types, so a
// new source (a Prometheus server answering at two instants, saved pages) drops in without a
// change to the model, the findings or the output.
//
// PodUsage is what pods use of CPU and memory, as the metrics API reports it: a fact about the
// cluster that sources read beside the pages.
package source
