package alerts

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/alerts.md")

const alertsDoc = "../../../docs/alerts.md"

// TestDocsListEveryAlert keeps docs/alerts.md equal to the rules as they are made.
func TestDocsListEveryAlert(t *testing.T) {
	md := Markdown(mustBuild(t, DefaultOptions()))
	if *update {
		if err := os.WriteFile(alertsDoc, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(alertsDoc)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != md {
		t.Errorf("docs/alerts.md differs from the rules: go test ./pkg/judge/alerts -run TestDocsListEveryAlert -update")
	}
}
