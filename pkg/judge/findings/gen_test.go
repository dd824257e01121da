package findings_test

import (
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/gen/gentables"
)

// The Go file a run reads the table from is what the YAML beside it compiles into.
func TestGeneratedTableIsTheYAML(t *testing.T) {
	if err := gentables.Tables["findings"].Check(".", "findings"); err != nil {
		t.Fatal(err)
	}
}
