package events

import (
	"sort"
	"time"
)

// View is the Warning events read, grouped, and what could not be read.
type View struct {
	// Since is the oldest last occurrence kept; Namespaces are the namespaces read ("" for
	// all of them).
	Since      time.Time `json:"since"`
	Namespaces []string  `json:"namespaces,omitempty"`
	// Read counts the Warning events listed; Capped says the listing stopped at the bound
	// (maxEvents) or groups were left out (maxGroups).
	Read   int  `json:"read"`
	Capped bool `json:"capped,omitempty"`
	// Groups are the events of one reason on one object, newest first.
	Groups []Group `json:"groups"`
	// Notes say what could not be read, and the permission that would help.
	Notes []string `json:"notes,omitempty"`
	// byController indexes Groups by controller once the view is complete (Index).
	byController map[string][]int
}

// Group is the Warning events of one reason on one object.
type Group struct {
	Reason string `json:"reason"`
	// Kind is the object's kind ("ReplicaSet"), Object its "namespace/name" ("name" without a
	// namespace).
	Kind   string `json:"kind"`
	Object string `json:"object"`
	// Count is how often it happened (the events' series.count or count, summed).
	Count int64 `json:"count"`
	// LastSeen is its last occurrence; Message the message of that one.
	LastSeen time.Time `json:"lastSeen"`
	Message  string    `json:"message"`
	// Reporter is the component that reported the last one (reportingController or
	// source.component).
	Reporter string `json:"reporter,omitempty"`
	// Controllers are the controllers it speaks of, as "target queue": reported by their
	// component, or on an object of a kind they reconcile.
	Controllers []string `json:"controllers"`
}

// Of returns the groups that speak of the controller name of target, newest first.
func (v *View) Of(target, name string) []Group {
	if v == nil {
		return nil
	}
	id := target + " " + name
	var out []Group
	if v.byController != nil {
		for _, i := range v.byController[id] {
			out = append(out, v.Groups[i])
		}
		return out
	}
	for _, g := range v.Groups {
		for _, c := range g.Controllers {
			if c == id {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// sortGroups orders groups newest first, then by object and reason.
func sortGroups(gs []Group) {
	sort.SliceStable(gs, func(i, j int) bool {
		a, b := gs[i], gs[j]
		if !a.LastSeen.Equal(b.LastSeen) {
			return a.LastSeen.After(b.LastSeen)
		}
		if a.Object != b.Object {
			return a.Object < b.Object
		}
		return a.Reason < b.Reason
	})
}
