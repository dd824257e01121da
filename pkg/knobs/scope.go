package knobs

// AllNamespaces says whether the matched controller reconciles its kinds in every namespace:
// the table says it does, and none of the flags that would restrict it is set so in the
// container's arguments. A controller recognised without its arguments (no pod) is taken at
// its default.
func (m Match) AllNamespaces() bool {
	if m.Controller == nil || m.Controller.AllNamespaces == nil {
		return false
	}
	for _, r := range m.Controller.AllNamespaces.Unless {
		v := flagValue(m.args, r.Flag)
		if v != "" && (r.Value == "" || v == r.Value) {
			return false
		}
	}
	return true
}
