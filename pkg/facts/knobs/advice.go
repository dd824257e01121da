package knobs

import "strings"

// Advice is the knob a finding names: the controller, how it was recognised, and its flags with
// their defaults and the values the container's arguments set.
type Advice struct {
	Controller string `json:"controller"`
	// RecognisedBy is the sign that told the controller, e.g. "queue deployment".
	RecognisedBy string    `json:"recognisedBy"`
	Flags        []Setting `json:"flags"`
	// Note is said after the advice; "" when there is nothing to add.
	Note string `json:"note,omitempty"`
}

// Setting is one flag of the advice.
type Setting struct {
	Flag    string `json:"flag"`
	Default string `json:"default"`
	// Current is the value the process runs the flag with: from its /flagz when that was read,
	// else from the container's arguments; "" when neither says (the arguments do not set it,
	// or the target has no pod to read them from).
	Current string `json:"current,omitempty"`
}

// String names the flags for a sentence: "--concurrent of FluxCD (now 4, default 2)",
// "--kube-api-qps (default 20) and --kube-api-burst (default 30) of kube-controller-manager".
func (a Advice) String() string {
	switch len(a.Flags) {
	case 0:
		return a.Controller
	case 1:
		return a.Flags[0].Flag + " of " + a.Controller + " (" + a.Flags[0].state() + ")"
	}
	parts := make([]string, len(a.Flags))
	for i, f := range a.Flags {
		parts[i] = f.Flag + " (" + f.state() + ")"
	}
	n := len(parts)
	return strings.Join(parts[:n-1], ", ") + " and " + parts[n-1] + " of " + a.Controller
}

func (s Setting) state() string {
	if s.Current != "" {
		return "now " + s.Current + ", default " + s.Default
	}
	return "default " + s.Default
}
