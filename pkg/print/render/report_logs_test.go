package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

func TestLogSectionShowsTheFactsEscapedOrItsNote(t *testing.T) {
	at := time.Date(2026, 11, 26, 11, 0, 4, 0, time.UTC)
	r := view.Report{Summary: view.Summary{Verdict: "warning"}, Logs: []view.Log{
		{Target: "shop/op-0:8080", Log: logs.Log{Pod: "shop/op-0", Container: "manager", Lines: 40,
			Failures:   []logs.Failure{{Controller: "configmap", Object: "shop/app-config", Error: "backend refused\x1b[2J: 503", Count: 3, Last: at}},
			Throttling: &logs.Throttling{Count: 5, LongestSeconds: 2.5, Last: at},
			Panics:     []logs.Panic{{Controller: "widget", Message: "nil map", Frames: []string{"main.(*r).owner", "main.(*r).Reconcile"}, Count: 1, Last: at}}}},
		{Target: "ops/other:8080", Log: logs.Log{Note: "not read: needs RBAC verb get on pods/log in namespace ops"}},
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
		wants := []string{"Log: what the controllers' logs say", "shop/app-config", `backend refused\x1b[2J: 503`, "11:00:04",
			"client-side throttling", "longest wait 2.5s", "nil map at main.(*r).owner < main.(*r).Reconcile", "needs RBAC verb get on pods/log in namespace ops"}
		if format == "text" { // 80 columns: the time and the controller left out, a long detail cut
			wants = []string{"Log: what the controllers' logs say", "shop/app-config", `backend refused\x1b[2J: 503`,
				"client-side throttling", "longest wait 2.5s", "nil map at...", "needs RBAC verb get on pods/log in namespace ops"}
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
	var js bytes.Buffer
	if err := Write(&js, "json", r); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Logs []map[string]any `json:"logs"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Logs) != 2 || back.Logs[0]["target"] != "shop/op-0:8080" || back.Logs[0]["failures"] == nil {
		t.Errorf("json logs: %v %+v", err, back.Logs)
	}
	var none bytes.Buffer
	if err := Write(&none, "text", view.Report{}); err != nil || strings.Contains(none.String(), "Log: ") {
		t.Errorf("a report without logs shows the section: %v", err)
	}
}
