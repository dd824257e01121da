package cmd

import (
	"slices"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// --replica-label: by default the usual replica labels are read once, and the server is not
// asked to deduplicate; given, the server is asked too; "" reads every replica; a label that
// is no label name, or names the targets, is a usage error naming the flag.
func TestReplicaLabelFlag(t *testing.T) {
	parse := func(args ...string) SourceFlags {
		return parsed(t, append([]string{"--prometheus", "http://thanos:9090"}, args...)...)
	}
	for _, c := range []struct {
		args   []string
		labels []string
		ask    bool
	}{
		{nil, DefaultReplicaLabels, false},
		{[]string{"--replica-label", "replica"}, []string{"replica"}, true},
		{[]string{"--replica-label", "rep,prometheus_replica"}, []string{"rep", "prometheus_replica"}, true},
		{[]string{"--replica-label="}, nil, false},
	} {
		f := parse(c.args...)
		s, err := f.Spec(&cli.GlobalFlags{}, nil)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if !slices.Equal(s.Prometheus.ReplicaLabels, c.labels) || s.Prometheus.AskDedup != c.ask {
			t.Errorf("%v: replica labels %v, ask the server %v; want %v, %v", c.args, s.Prometheus.ReplicaLabels, s.Prometheus.AskDedup, c.labels, c.ask)
		}
	}
	for _, bad := range []string{"1replica", "re-plica", "cluster", "pod", "instance"} {
		f := parse("--replica-label", bad)
		_, err := f.Spec(&cli.GlobalFlags{}, nil)
		if code, _ := cli.CodeFor(err); err == nil || !strings.Contains(err.Error(), "--replica-label") || !strings.Contains(err.Error(), bad) || code != 2 {
			t.Errorf("--replica-label %s: %v", bad, err)
		}
	}
}
