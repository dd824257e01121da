package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The plugin must not link the reference operator's dependencies: they more than doubled the
// binary and tripled its start-up (BENCHMARKS.md). They belong to kubectl-ctrldiag-operator.
func TestPluginDoesNotLinkTheOperator(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"sigs.k8s.io/controller-runtime", "k8s.io/apiserver/",
			"k8s.io/apiextensions-apiserver", "github.com/google/cel-go", "google.golang.org/grpc",
			"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("kubectl-ctrldiag links %s (through the operator?)", dep)
			}
		}
	}
}
