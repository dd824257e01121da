package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The reference operator is a controller, not a diagnosis: its binary links no judging (the
// checks, the alert rules, the capacity model) and no report layout, only the printer of data.
func TestOperatorDoesNotLinkTheDiagnosis(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	const pkg = "github.com/ctrldiag/kubectl-ctrldiag/pkg/"
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"findings", "alerts", "capacity", "render", "view", "run"} {
			if dep == pkg+banned {
				t.Errorf("kubectl-ctrldiag-operator links %s", dep)
			}
		}
	}
}
