package knobs

import "slices"

// Flagz is what a process says of the flags it runs with, from its /flagz page
// (kube-controller-manager, kube-scheduler and kube-apiserver serve one from Kubernetes 1.32,
// on by default from 1.36): every flag as the process parsed it, its defaults included, which
// the pod's arguments do not show. Only the flags of the controller's knobs are kept; the
// others may hold paths and addresses and are never shown.
type Flagz struct {
	// Values are the knobs' flags, by name without the dashes ("concurrent-replicaset-syncs").
	Values map[string]string `json:"values,omitempty"`
	// Endpoint is where they were read (TARGET/flagz).
	Endpoint string `json:"endpoint,omitempty"`
	// Note says why none were read ("403 Forbidden: ..."); "" when they were.
	Note string `json:"note,omitempty"`
}

// fromFlagz is how Workers and Advise name a value read from the process's /flagz.
const fromFlagz = " in the process's /flagz"

// FlagNames are the flags of the matched controller's knobs, without the dashes: the ones to
// keep of its /flagz.
func (m Match) FlagNames() []string {
	if m.Controller == nil {
		return nil
	}
	var out []string
	for _, k := range m.Controller.Knobs {
		for _, f := range k.Flags {
			if n := flagName(f.Flag); !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// current is the value the process runs flag with, and where it was read: its /flagz when
// read (the truth of the running process), else the container's arguments; "" when neither
// says.
func (m Match) current(flag string) (v, from string) {
	if v, ok := m.flagz[flagName(flag)]; ok && v != "" {
		return v, flag + fromFlagz
	}
	if v := FlagValue(m.args, flag); v != "" {
		return v, flag + " in the container's arguments"
	}
	return "", ""
}
