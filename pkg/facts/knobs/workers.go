package knobs

import (
	"slices"
	"strconv"
)

// Workers is the number of workers a queue of the matched controller runs with, read from the
// flag of its workers knob: the value the process's /flagz gives, else the one the container's
// arguments set, else the flag's documented default. From says which
// ("--concurrent-replicaset-syncs in the process's /flagz", "... in the container's
// arguments", "the default of --concurrent-replicaset-syncs"). A flag whose default an
// environment variable sets (Flag.Env) takes the variable's value when the container sets it;
// one set from elsewhere (a ConfigMap) leaves the workers unknown. ok is false when the table
// has no workers knob for the queue, when neither the container's arguments nor the process's
// /flagz were read (a target without its pod: the flag may be set where it cannot be seen),
// or when the value is not a positive number.
func (m Match) Workers(queue string) (n float64, from string, ok bool) {
	if m.Controller == nil || len(m.args) == 0 && m.flagz == nil {
		return 0, "", false
	}
	for _, k := range m.Controller.Knobs {
		if k.Sizes != "workers" || len(k.Flags) != 1 || len(k.Queues) > 0 && !slices.Contains(k.Queues, queue) {
			continue
		}
		f := k.Flags[0]
		v, from := m.current(f.Flag)
		e, set := m.env[f.Env]
		if !set {
			e, set = m.env[Others]
		}
		if v == "" && f.Env != "" && set {
			if e == Unknown {
				return 0, "", false
			}
			v, from = e, f.Env+" in the container's environment"
		}
		if v == "" {
			v, from = f.Default, "the default of "+f.Flag
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || !(n > 0) {
			return 0, "", false
		}
		return n, from, true
	}
	return 0, "", false
}
