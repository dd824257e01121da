package apiserver

import "testing"

func TestIntercepts(t *testing.T) {
	pods := Rule{Operations: []string{"CREATE"}, APIGroups: []string{""}, Resources: []string{"pods"}, Scope: "Namespaced"}
	podsAll := Rule{Operations: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"pods/*"}, Scope: "*"}
	everything := Rule{Operations: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*/*"}, Scope: "*"}
	clusterOnly := Rule{Operations: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}, Scope: "Cluster"}
	status := Rule{Operations: []string{"UPDATE"}, APIGroups: []string{"example.com"}, Resources: []string{"workloads/status"}}
	createPod := Write{Operation: "CREATE", Resource: "pods", Namespaced: true}
	deletePod := Write{Operation: "DELETE", Resource: "pods", Namespaced: true}
	evict := Write{Operation: "CREATE", Resource: "pods/eviction", Namespaced: true}
	createRS := Write{Operation: "CREATE", Group: "apps", Resource: "replicasets", Namespaced: true}
	wlStatus := Write{Operation: "UPDATE", Group: "example.com", Resource: "workloads/status", Namespaced: true}
	wl := Write{Operation: "UPDATE", Group: "example.com", Resource: "workloads", Namespaced: true}
	cases := []struct {
		rule Rule
		w    Write
		want bool
	}{
		{pods, createPod, true},
		{pods, deletePod, false},   // operation
		{pods, evict, false},       // "pods" is the main resource only
		{pods, createRS, false},    // group and resource
		{podsAll, createPod, true}, // "pods/*" covers pods itself
		{podsAll, evict, true},
		{everything, wlStatus, true},
		{clusterOnly, createPod, false}, // scope
		{status, wlStatus, true},
		{status, wl, false},
	}
	for _, c := range cases {
		if got := (Webhook{Rules: []Rule{c.rule}}).Intercepts(c.w); got != c.want {
			t.Errorf("rule %+v, write %s: intercepts %v, want %v", c.rule, c.w, got, c.want)
		}
	}
}

func TestWritesOf(t *testing.T) {
	ws := WritesOf("kube-controller-manager", "replicaset", &Reconciled{Group: "apps", Resource: "replicasets", Namespaced: true}, nil)
	var names []string
	for _, w := range ws {
		names = append(names, w.String())
	}
	want := []string{"UPDATE replicasets.apps", "UPDATE replicasets.apps/status", "CREATE pods", "DELETE pods"}
	if len(names) != len(want) {
		t.Fatalf("writes %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("write %d: %s, want %s", i, names[i], want[i])
		}
	}
	if got := WritesOf("controller-runtime", "replicaset", nil, nil); len(got) != 0 {
		t.Errorf("a controller-runtime queue named replicaset writes %v; only kube-controller-manager's writes pods", got)
	}
}
