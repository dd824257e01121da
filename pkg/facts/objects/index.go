package objects

// Index makes Of a look-up in a map instead of a scan of every kind: a report asks it once per
// queue, and a crafted snapshot may hold as many kinds as queues. Call it once the view is
// complete and before it is shared; a view changed afterwards must be indexed again.
func (v *View) Index() {
	if v == nil {
		return
	}
	m := make(map[string]int, len(v.Kinds))
	for i := range v.Kinds {
		for _, c := range v.Kinds[i].Controllers {
			if _, ok := m[c]; !ok {
				m[c] = i // the first kind that names the controller, as the scan finds it
			}
		}
	}
	v.byController = m
}
