package findings

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/findings.md")

const findingsDoc = "../../../docs/findings.md"

// TestFindingsDoc keeps docs/findings.md equal to the catalog as it is compiled in.
func TestFindingsDoc(t *testing.T) {
	md := Markdown()
	if *update {
		if err := os.WriteFile(findingsDoc, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(findingsDoc)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != md {
		t.Errorf("docs/findings.md differs from the catalog: go test ./pkg/judge/findings -run TestFindingsDoc -update")
	}
}
