package knobs

import "time"

// Period is the period a controller that syncs on one runs with, read from the flag of its
// period knob (external-dns --interval) as Workers reads a workers knob: the process's /flagz,
// else the container's arguments, else the flag's default. From says which ("--interval in the
// container's arguments", "the default of --interval"). ok is false when the table has no
// period knob for it, when its arguments were not read (a target without its pod: the flag may
// be set where it cannot be seen), or when the value is not a positive duration.
func (m Match) Period() (d time.Duration, from string, ok bool) {
	if m.Controller == nil || len(m.args) == 0 && m.flagz == nil {
		return 0, "", false
	}
	for _, k := range m.Controller.Knobs {
		if k.Sizes != "period" || len(k.Flags) != 1 {
			continue
		}
		f := k.Flags[0]
		v, from := m.current(f.Flag)
		if v == "" {
			v, from = f.Default, "the default of "+f.Flag
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return 0, "", false
		}
		return d, from, true
	}
	return 0, "", false
}
