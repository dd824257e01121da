package events

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// A report of one namespace whose controller reconciles every namespace, read by a user who
// may list events in some namespaces only: those are read one by one, and the note names them.
func TestReadNamespaceByNamespace(t *testing.T) {
	evs := []struct{ ns, object string }{{"kube-system", "a"}, {"shop", "web"}, {"secret", "hidden"}}
	c := client(func(ns string) bool { return ns == "kube-system" || ns == "shop" })
	for i, e := range evs {
		ev := event(e.ns, string(rune('a'+i)), "Warning", "FailedCreate", "replicaset-controller", "apps/v1", "ReplicaSet", e.object, 1, now, "exceeded quota")
		if err := c.Tracker().Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	req := Request{Namespace: "kube-system", ClusterWide: []string{"kcm replicaset"}, Since: now.Add(-time.Minute), Controllers: []Controller{replicaset},
		Candidates: func(context.Context) ([]string, int, error) { return []string{"kube-system", "secret", "shop"}, 2, nil }}
	v := Read(context.Background(), c, req)
	if !slices.Equal(v.Namespaces, []string{"kube-system", "shop"}) {
		t.Errorf("namespaces %q, want kube-system and shop", v.Namespaces)
	}
	var objects []string
	for _, g := range v.Groups {
		objects = append(objects, g.Object)
	}
	slices.Sort(objects)
	if !slices.Equal(objects, []string{"kube-system/a", "shop/web"}) {
		t.Errorf("groups of %q, want kube-system/a and shop/web (secret/hidden may not be listed)", objects)
	}
	if len(v.Notes) != 1 || !strings.Contains(v.Notes[0], "needs RBAC verb list on events cluster-wide): Warning events read namespace by namespace in the 2 namespaces you may list them in (kube-system, shop); the other namespaces were not allowed, and 2 namespaces beyond those were not checked") {
		t.Errorf("notes %q", v.Notes)
	}

	for _, c2 := range []struct {
		name       string
		candidates func(context.Context) ([]string, int, error)
		note       string
	}{
		{"no list", nil, "cluster-wide): Warning events read in namespace kube-system only"},
		{"namespaces not listed", func(context.Context) ([]string, int, error) {
			return nil, 0, errors.New("needs RBAC verb list on namespaces")
		},
			"the namespaces you may list them in could not be found (needs RBAC verb list on namespaces): Warning events read in namespace kube-system only"},
		{"only the report's", func(context.Context) ([]string, int, error) { return []string{"kube-system", "secret"}, 0, nil },
			"cluster-wide): Warning events read in namespace kube-system only"},
	} {
		req.Candidates = c2.candidates
		v := Read(context.Background(), c, req)
		if !slices.Equal(v.Namespaces, []string{"kube-system"}) || len(v.Notes) != 1 || !strings.Contains(v.Notes[0], c2.note) {
			t.Errorf("%s: namespaces %q, notes %q, want kube-system and %q", c2.name, v.Namespaces, v.Notes, c2.note)
		}
	}
}
