package knobs

import (
	"slices"
	"testing"
)

// kube-controller-manager's /flagz says what the process runs with, its defaults included:
// it wins over the pod's arguments (which may not show a flag at all) and over the documented
// default, and the advice names its value.
func TestFlagzGivesTheValueTheProcessRunsWith(t *testing.T) {
	args := []string{"kube-controller-manager", "--controllers=*"}
	for _, tc := range []struct {
		args  []string
		flagz map[string]string
		n     float64
		from  string
	}{
		{args, nil, 5, "the default of --concurrent-replicaset-syncs"},
		{append(args, "--concurrent-replicaset-syncs=7"), nil, 7, "--concurrent-replicaset-syncs in the container's arguments"},
		{args, map[string]string{"concurrent-replicaset-syncs": "3"}, 3, "--concurrent-replicaset-syncs in the process's /flagz"},
		{append(args, "--concurrent-replicaset-syncs=7"), map[string]string{"concurrent-replicaset-syncs": "3"}, 3, "--concurrent-replicaset-syncs in the process's /flagz"},
		{nil, map[string]string{"concurrent-replicaset-syncs": "3"}, 3, "--concurrent-replicaset-syncs in the process's /flagz"},
		{args, map[string]string{"kube-api-qps": "20"}, 5, "the default of --concurrent-replicaset-syncs"},
	} {
		m, ok := Recognise(Seen{Args: tc.args, Queues: []string{"replicaset", "replicationmanager"}, Flagz: tc.flagz})
		if !ok {
			t.Fatalf("%v: not recognised", tc.args)
		}
		n, from, ok := m.Workers("replicaset")
		if !ok || n != tc.n || from != tc.from {
			t.Errorf("args %v, flagz %v: %v %q %v, want %v %q", tc.args, tc.flagz, n, from, ok, tc.n, tc.from)
		}
	}

	m, _ := Recognise(Seen{Args: args, Queues: []string{"replicaset"}, Flagz: map[string]string{"kube-api-qps": "40", "kube-api-burst": "60"}})
	a, ok := m.Advise("client-throttling", "")
	if !ok || a.String() != "--kube-api-qps (now 40, default 20) and --kube-api-burst (now 60, default 30) of kube-controller-manager" {
		t.Errorf("advice: %q %v", a.String(), ok)
	}
	names := m.FlagNames()
	for _, want := range []string{"concurrent-replicaset-syncs", "kube-api-qps", "kube-api-burst"} {
		if !slices.Contains(names, want) {
			t.Errorf("FlagNames %v lacks %s", names, want)
		}
	}
	if (Match{}).FlagNames() != nil {
		t.Error("an unrecognised controller has flags to keep")
	}
}
