package view

import "github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"

// Log is the report's Log section for one target: what the recent log of its controller's
// container says (failing objects with their errors, client-side throttling waits, panics
// with their first frames, leader-election losses, cache sync timeouts), or why it was not
// read. Only what was extracted is here, never a line of the log.
type Log struct {
	Target string `json:"target"`
	logs.Log
}
