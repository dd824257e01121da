package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

func TestGoroutineSectionShowsTheGroupsEscapedOrItsNote(t *testing.T) {
	r := view.Report{Summary: view.Summary{Verdict: "critical"}, Goroutines: []view.Goroutines{
		{Target: "ns/op:8080", Goroutines: 40, Workers: 2, Groups: []view.GoroutineGroup{{Count: 2, State: "select", LongestSeconds: 180,
			Wait:  goroutines.Frame{Func: "net/http.(*Client).Do"},
			Own:   &goroutines.Frame{Func: "main.(*x).call\x1b[2JBackend", File: "/src/backend.go", Line: 42},
			Cause: goroutines.CauseHTTP}}},
		{Target: "kube-system/kcm:10257", Note: "not read: 403 Forbidden: may not get /debug/pprof/* (nonResourceURL)"},
	}}
	for _, format := range []string{"text", "wide", "markdown"} {
		var out bytes.Buffer
		if err := Write(&out, format, r); err != nil {
			t.Fatal(err)
		}
		s := out.String()
		if strings.Contains(s, "\x1b") {
			t.Errorf("%s: a control character reached the output", format)
		}
		wants := []string{"Goroutines: where the workers wait", "net/http.(*Client).Do", `\x1b[2JBackend (backend.go:42)`, "3m", "http", "403 Forbidden"}
		if format == "text" { // 80 columns: the frame of the process's own code, and why
			wants = []string{"Goroutines: where the workers wait", `\x1b[2JBackend (backend.go:42)`, "http", "403 Forbidden"}
		}
		for _, want := range wants {
			if format == "markdown" {
				want = md(want)
			}
			if !strings.Contains(strings.ToLower(s), strings.ToLower(want)) {
				t.Errorf("%s: no %q in\n%s", format, want, s)
			}
		}
	}
	var none bytes.Buffer
	if err := Write(&none, "text", view.Report{}); err != nil || strings.Contains(none.String(), "Goroutines") {
		t.Errorf("a report without dumps shows the section: %v", err)
	}
}
