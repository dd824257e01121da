package view

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// TargetList is the versioned schema of `targets -o json|yaml`.
type TargetList struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Items      []target.Target    `json:"items"`
	Skipped    []discover.Skipped `json:"skipped,omitempty"`
	Failed     []TargetError      `json:"failed,omitempty"`
}

// NewTargetList builds the list.
func NewTargetList(items []target.Target, skipped []discover.Skipped, failed []TargetError) TargetList {
	if items == nil {
		items = []target.Target{}
	}
	return TargetList{APIVersion: APIVersion, Kind: "TargetList", Items: items, Skipped: skipped, Failed: failed}
}

// TargetError is a target that could not be read, or not completely: its second sample
// failed, the overall deadline passed before it, or two saved pages came in the wrong order
// and only one was used. Such a target is still judged, over the window its samples allow,
// and Window names that window ("lifetime" with one sample). Window is empty for a target
// that gave no figures at all.
type TargetError struct {
	// Cluster is the target's cluster, in a fleet (Report.Fleet, QueueList.Clusters).
	Cluster string `json:"cluster,omitempty"`
	Target  string `json:"target"`
	Error   string `json:"error"`
	Window  string `json:"window,omitempty"`
}
