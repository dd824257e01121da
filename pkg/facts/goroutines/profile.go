package goroutines

import (
	"fmt"
	"strings"
	"time"
)

// Profile is what one fetch of a target's goroutine dump gave: the groups of its workers, or
// why there is none. It is a fact of the target, kept in snapshots.
type Profile struct {
	// Endpoint is where the dump was asked for ("ns/pod:port/debug/pprof/goroutine") and
	// Reason why there ("container port named pprof", "--pprof-bind-address in the args").
	Endpoint string `json:"endpoint,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Time is when it was read.
	Time time.Time `json:"time,omitempty"`
	// Goroutines counts the goroutines of the dump; Workers those that run an item.
	Goroutines int `json:"goroutines"`
	Workers    int `json:"workers"`
	// Groups are the workers grouped by stack, the largest first (at most MaxGroups).
	Groups []Group `json:"groups,omitempty"`
	// Note says why there is no dump (no endpoint, 403, a timeout) or what cut it short.
	Note string `json:"note,omitempty"`
}

// MaxGroups bounds the groups a Profile keeps; MaxFrames the frames kept of each.
const (
	MaxGroups = 10
	MaxFrames = 24
)

// NewProfile makes the profile of a parsed dump: its workers grouped, bounded.
func NewProfile(d *Dump) *Profile {
	p := &Profile{Goroutines: d.Total}
	groups := Workers(d)
	for _, g := range groups {
		p.Workers += g.Count
	}
	if len(groups) > MaxGroups {
		groups = groups[:MaxGroups]
	}
	for i := range groups {
		if len(groups[i].Frames) > MaxFrames {
			groups[i].Frames = groups[i].Frames[:MaxFrames]
		}
	}
	p.Groups = groups
	if d.Dropped > 0 {
		p.Note = fmt.Sprintf("the dump held more goroutines than kept: %d left out", d.Dropped)
	}
	return p
}

// Longest is the group blocked longest (the largest on a tie); ok is false without groups.
func (p *Profile) Longest() (Group, bool) {
	if p == nil || len(p.Groups) == 0 {
		return Group{}, false
	}
	best := p.Groups[0]
	for _, g := range p.Groups[1:] {
		if g.Longest > best.Longest {
			best = g
		}
	}
	return best, true
}

// Largest is the group with the most workers; ok is false without groups.
func (p *Profile) Largest() (Group, bool) {
	if p == nil || len(p.Groups) == 0 {
		return Group{}, false
	}
	return p.Groups[0], true
}

// Describe says where the group's workers wait, in the report's words: "2 workers blocked 3m
// in net/http.(*Client).Do, called from main.(*annotator).callBackend".
func (g Group) Describe() string {
	var b strings.Builder
	if g.Count == 1 {
		b.WriteString("1 worker")
	} else {
		fmt.Fprintf(&b, "%d workers", g.Count)
	}
	switch {
	case g.Longest >= time.Minute:
		fmt.Fprintf(&b, " blocked %s", minutes(g.Longest))
	case g.State == "running" || g.State == "runnable":
		b.WriteString(" running")
	default:
		b.WriteString(" blocked under 1m")
	}
	if g.Wait.Func == "" || g.Wait.Func == g.Own.Func {
		// Blocked in the controller's own code itself (a channel, a select): the runtime's
		// frames are not in the dump.
		if g.State != "" && g.State != "running" && g.State != "runnable" {
			b.WriteString(" on " + g.State)
		}
		if g.Own.Func != "" {
			b.WriteString(" in " + g.Own.Func)
		}
		return b.String()
	}
	b.WriteString(" in " + g.Wait.Func)
	if g.Own.Func != "" {
		b.WriteString(", called from " + g.Own.Func)
	}
	if g.State != "" {
		b.WriteString(" [" + g.State + "]")
	}
	return b.String()
}

// minutes writes a whole number of minutes as "3m" or "2h5m".
func minutes(d time.Duration) string {
	m := int(d / time.Minute)
	if m >= 60 {
		if m%60 == 0 {
			return fmt.Sprintf("%dh", m/60)
		}
		return fmt.Sprintf("%dh%dm", m/60, m%60)
	}
	return fmt.Sprintf("%dm", m)
}
