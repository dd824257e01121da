// Package pipeline runs a verb's plan: the one way from what the user asked to what is
// printed. A Plan is an open.Spec (what to read and how, in plain values), what opening it
// needs besides, and where the progress line goes; each verb adds a plain config of its own.
// The plan is opened (pkg/open builds the source), and the engine runs the same stages over
// it for every verb: read -> model -> findings -> suppressions -> view. A verb hands the view
// to render and asks the result for its exit code; nothing here knows cobra, and nothing
// writes back into the flags, the source or a result.
package pipeline
