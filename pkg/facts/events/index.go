package events

// Index makes Of a look-up in a map instead of a scan of every group: a report asks it once
// per queue. Call it once the view is complete and before it is shared; a view changed
// afterwards must be indexed again.
func (v *View) Index() {
	if v == nil {
		return
	}
	m := map[string][]int{}
	for i, g := range v.Groups {
		for _, c := range g.Controllers {
			if is := m[c]; len(is) == 0 || is[len(is)-1] != i {
				m[c] = append(is, i) // a group once per controller, in the groups' order
			}
		}
	}
	v.byController = m
}
