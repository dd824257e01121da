// Package engine runs each command's pipeline, without cobra: a source's targets are opened
// and read, the samples become the model (queue figures, the report) and the findings, and the
// engine returns what the command prints. A command's Run is flags -> config -> engine ->
// print; the engine never prints, and knows nothing of the source but its interface. The
// queue and target lists it fills are the view models that render writes.
package engine
