// Package live shows the frames of `kubectl ctrldiag top` as they come: one timestamped table
// per refresh when the output is not a terminal (as `kubectl get -w` does), and a full-screen
// view that refreshes in place on a terminal. Frames flow one way, from the run layer to here.
package live
