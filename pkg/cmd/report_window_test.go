package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// Pages 30 s apart read as 10 s apart: the report says the window is wrong, in its text and
// its json, and models no capacity on it (one worker would be 300 % busy).
func TestWorkBeyondTheWindowIsNotJudged(t *testing.T) {
	const untimed = "../../testdata/pages/untimed/busy-1.prom,../../testdata/pages/untimed/busy-2.prom"
	out, errOut, code := runReportCmd(t, "--from-file", untimed, "--interval", "10s", "-o", "json")
	var doc struct {
		WindowNotes []string
		Capacity    []any
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if len(doc.WindowNotes) != 1 || !strings.Contains(doc.WindowNotes[0], "the window cannot be 10s") || len(doc.Capacity) != 0 {
		t.Errorf("window notes %q, capacity %v: want the wrong window said and no capacity modelled", doc.WindowNotes, doc.Capacity)
	}
	text, _, _ := runReportCmd(t, "--from-file", untimed, "--interval", "10s")
	if !strings.Contains(text, "Window: ") || !strings.Contains(text, "the window cannot be 10s") {
		t.Errorf("the text report does not say the window is wrong:\n%s", text)
	}
	// Read 30 s apart, as they were taken: one worker busy all the time, said by the model.
	out, _, _ = runReportCmd(t, "--from-file", untimed, "--interval", "30s", "-o", "json")
	doc.WindowNotes, doc.Capacity = nil, nil
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.WindowNotes) != 0 || len(doc.Capacity) != 1 {
		t.Errorf("the right window: notes %q, capacity %v (%v)", doc.WindowNotes, doc.Capacity, err)
	}
}
