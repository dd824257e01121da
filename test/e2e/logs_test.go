//go:build e2e

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// logsDoc is the report's logs, as -o json has them.
type logsDoc struct {
	Logs []struct {
		Target    string `json:"target"`
		Pod       string `json:"pod"`
		Container string `json:"container"`
		Lines     int    `json:"lines"`
		Failures  []struct {
			Controller, Object, Error string
			Count                     int
		} `json:"failures"`
		Note string `json:"note"`
	} `json:"logs"`
}

// logsOf decodes the report's logs.
func logsOf(t *testing.T, r Result) logsDoc {
	t.Helper()
	var d logsDoc
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("report -o json is not JSON: %v\n%s", err, r)
	}
	return d
}

// A user who may read everything report needs but pods/log gets the report, exit 0, and the
// Log section's note names the permission; nothing of the log is read. --no-logs reads none.
func TestReportLogForbidden(t *testing.T) {
	kubeconfig := restrictedReader(t, "ctrldiag-nologs", "pods/log")
	r := reportAs(t, kubeconfig)
	d := logsOf(t, r)
	if len(d.Logs) != 1 {
		t.Fatalf("want the log of kube-controller-manager's pod, got %+v\n%s", d.Logs, r.Stdout)
	}
	l := d.Logs[0]
	if !strings.HasPrefix(l.Pod, "kube-system/kube-controller-manager") || l.Note != "not read: needs RBAC verb get on pods/log in namespace kube-system" ||
		l.Lines != 0 || len(l.Failures) != 0 {
		t.Errorf("log read without the permission: %+v", l)
	}
	txt := runAs(t, kubeconfig, "kubectl", "ctrldiag", "report", "-n", "kube-system", "--interval", "1s")
	flat := strings.Join(strings.Fields(txt.Stdout), " ") // the section's note is wrapped
	if txt.Code != 0 || !strings.Contains(flat, "LOG: WHAT THE CONTROLLERS' LOGS SAY") ||
		!strings.Contains(flat, "not read: needs RBAC verb get on pods/log in namespace kube-system") {
		t.Errorf("the text report does not name the permission:\n%s", txt)
	}
	none := runAs(t, kubeconfig, "kubectl", "ctrldiag", "report", "-n", "kube-system", "--interval", "1s", "--no-logs", "-o", "json")
	if none.Code != 0 || len(logsOf(t, none).Logs) != 0 {
		t.Errorf("--no-logs read a log:\n%s", none)
	}
}
