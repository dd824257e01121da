package cmd

import (
	"regexp"
	"strconv"
	"sync"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// labelName is a Prometheus label name.
var labelName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`) })

// replicaLabels checks --replica-label: label names, none of them one that names a target
// (the cluster label, namespace, pod, job, instance); none (--replica-label=) reads every replica.
func (p PromFlags) replicaLabels() ([]string, error) {
	var out []string
	for _, l := range p.ReplicaLabels {
		if l == "" && len(p.ReplicaLabels) == 1 {
			return nil, nil
		}
		if !labelName().MatchString(l) {
			return nil, cli.UsageError("--replica-label %s: give label names (letters, digits and _, not first a digit), or --replica-label= to read every replica", strconv.Quote(l))
		}
		switch l {
		case p.ClusterLabel, "namespace", "pod", "job", "instance":
			return nil, cli.UsageError("--replica-label %s names the scrape targets: give the label that tells the replicas of an HA pair apart (e.g. replica)", l)
		}
		out = append(out, l)
	}
	return out, nil
}
