package events

import (
	"fmt"
	"testing"
)

// An indexed view answers Of as the scan does: each group once, in the groups' order, a
// group that names a controller twice included.
func TestIndexAnswersAsTheScan(t *testing.T) {
	v := &View{}
	for i := range 40 {
		c := fmt.Sprintf("t%d q", i%6)
		v.Groups = append(v.Groups, Group{Reason: fmt.Sprint("R", i), Controllers: []string{c, c, "all q"}})
	}
	want := map[string]string{}
	for i := range 8 {
		want[fmt.Sprint("t", i)] = fmt.Sprint(v.Of(fmt.Sprint("t", i), "q"))
	}
	all := fmt.Sprint(v.Of("all", "q"))
	v.Index()
	for id, w := range want {
		if got := fmt.Sprint(v.Of(id, "q")); got != w {
			t.Errorf("Of(%s) = %s, the scan found %s", id, got, w)
		}
	}
	if got := fmt.Sprint(v.Of("all", "q")); got != all || len(v.Of("all", "q")) != 40 {
		t.Errorf("Of(all) = %s, the scan found %s", got, all)
	}
}
