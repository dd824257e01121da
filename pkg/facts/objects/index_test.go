package objects

import (
	"fmt"
	"testing"
)

// An indexed view answers Of as the scan does: the first kind that names the controller.
func TestIndexAnswersAsTheScan(t *testing.T) {
	v := &View{}
	for i := range 50 {
		v.Kinds = append(v.Kinds, Summary{Kind: Kind{Kind: fmt.Sprint("K", i)}, Controllers: []string{fmt.Sprintf("t%d q", i%20), "shared q"}})
	}
	want := map[string]*Summary{}
	for i := range 25 {
		want[fmt.Sprint("t", i)] = v.Of(fmt.Sprint("t", i), "q")
	}
	shared := v.Of("shared", "q")
	v.Index()
	for id, w := range want {
		if got := v.Of(id, "q"); got != w {
			t.Errorf("Of(%s) = %v, the scan found %v", id, got, w)
		}
	}
	if got := v.Of("shared", "q"); got != shared || got != &v.Kinds[0] {
		t.Errorf("Of(shared) = %v, want the first kind", got)
	}
}
