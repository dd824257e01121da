package apiserver

import (
	"fmt"
	"testing"
)

// An indexed view answers Find and Owned as the scans do.
func TestIndexAnswersAsTheScans(t *testing.T) {
	v := &Admission{Ownership: &Ownership{}}
	for i := range 30 {
		v.Webhooks = append(v.Webhooks, Webhook{Name: fmt.Sprint("w", i%10), Type: "validating"})
		v.Ownership.Owned = append(v.Ownership.Owned, Owned{Controller: fmt.Sprint("t q", i%7), Resource: fmt.Sprint("r", i)})
	}
	find, owned := map[string]*Webhook{}, map[string][]Owned{}
	for i := range 12 {
		find[fmt.Sprint("w", i)] = v.Find(fmt.Sprint("w", i), "validating")
		owned[fmt.Sprint("t q", i)] = v.Owned(fmt.Sprint("t q", i))
	}
	v.Index()
	for name, w := range find {
		if got := v.Find(name, "validating"); got != w {
			t.Errorf("Find(%s) = %v, the scan found %v", name, got, w)
		}
	}
	for c, w := range owned {
		if got := v.Owned(c); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("Owned(%s) = %v, the scan found %v", c, got, w)
		}
	}
	if v.Find("w1", "mutating") != nil {
		t.Error("a webhook of another type is found")
	}
}
