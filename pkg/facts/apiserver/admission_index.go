package apiserver

// Index makes Find and Owned look-ups in maps instead of scans of every webhook and every
// owned kind: a report asks them once per queue and webhook. Call it once the view is complete
// and before it is shared; a view changed afterwards must be indexed again.
func (v *Admission) Index() {
	if v == nil {
		return
	}
	m := make(map[[2]string]int, len(v.Webhooks))
	for i, w := range v.Webhooks {
		if _, ok := m[[2]string{w.Name, w.Type}]; !ok {
			m[[2]string{w.Name, w.Type}] = i // the first, as the scan finds it
		}
	}
	v.byName = m
	if o := v.Ownership; o != nil {
		byController := map[string][]Owned{}
		for _, x := range o.Owned {
			byController[x.Controller] = append(byController[x.Controller], x)
		}
		o.byController = byController
	}
}
