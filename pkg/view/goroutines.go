package view

import "github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"

// Goroutines is one target's goroutine dump as the report shows it: the groups of workers by
// where they wait, or why there is no dump.
type Goroutines struct {
	Target string `json:"target"`
	// Endpoint is where the dump was read, and Reason why there.
	Endpoint string `json:"endpoint,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Goroutines counts the dump's goroutines; Workers those running an item.
	Goroutines int              `json:"goroutines"`
	Workers    int              `json:"workers"`
	Groups     []GoroutineGroup `json:"groups,omitempty"`
	// Note says why there is no dump, or what cut it short.
	Note string `json:"note,omitempty"`
}

// GoroutineGroup is workers with one stack: how many, how long blocked, on what, called from
// which frame of the controller's own code, and what to do about it.
type GoroutineGroup struct {
	Summary        string             `json:"summary"`
	Count          int                `json:"count"`
	State          string             `json:"state"`
	LongestSeconds float64            `json:"longestSeconds"`
	Wait           goroutines.Frame   `json:"wait"`
	Own            *goroutines.Frame  `json:"own,omitempty"`
	Cause          goroutines.Cause   `json:"cause,omitempty"`
	Advice         string             `json:"advice,omitempty"`
	Frames         []goroutines.Frame `json:"frames,omitempty"`
	// Controller is the controller whose items they run, when their stack names it
	// (cert-manager's); LongWaits counts those blocked a minute or more.
	Controller string `json:"controller,omitempty"`
	LongWaits  int    `json:"longWaits,omitempty"`
}
