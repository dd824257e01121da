//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// thirdpartyBin is the folder of the pinned third-party controllers named (hack/thirdparty/
// build.sh; hack/e2e.sh builds them first, so this only finds them in the cache).
func thirdpartyBin(t *testing.T, names string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(env.root, "hack/thirdparty/build.sh"))
	cmd.Env = append(os.Environ(), "THIRDPARTY="+names)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("hack/thirdparty/build.sh (the controllers these tests run): %v\n%s", err, stderr)
	}
	return strings.TrimSpace(string(out))
}

// crdsApplied holds, by module, the CRDs applyCRDs applied once for the whole suite.
var crdsApplied sync.Map

// applyCRDs applies, once per suite, the CRDs in folder crds of module, the module pinned by
// hack/thirdparty/<controller> (from the module cache, where its build put it).
func applyCRDs(t *testing.T, controller, module, crds string) {
	t.Helper()
	once, _ := crdsApplied.LoadOrStore(module, &sync.Once{})
	once.(*sync.Once).Do(func() {
		list := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module)
		list.Dir = filepath.Join(env.root, "hack/thirdparty", controller)
		dir, err := list.Output()
		if err != nil {
			t.Fatalf("the %s module: %v", controller, err)
		}
		mustKubectl(t, "apply", "--server-side", "-f", filepath.Join(strings.TrimSpace(string(dir)), crds))
	})
}

// thirdPartyFinding is what the third-party tests read of a finding.
type thirdPartyFinding struct {
	Check, Severity, Target, Queue, Summary string
	Evidence                                []struct{ Name, Value string }
	Knob                                    *struct {
		Controller string
		Flags      []struct{ Flag, Default, Current string }
	} `json:"knob"`
}

// thirdPartyReport runs report -o json on ns over interval and returns its findings.
func thirdPartyReport(t *testing.T, ns, interval string) ([]thirdPartyFinding, Result) {
	t.Helper()
	r := ctrldiag(t, "report", "-n", ns, "--interval", interval, "-o", "json")
	var d struct{ Findings []thirdPartyFinding }
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("report -o json: %v\n%s", err, r)
	}
	return d.Findings, r
}

// findingLines says a report's findings one to a line, with their evidence indented, and what
// the report said on stderr: short enough to survive a CI log's cut, unlike the whole JSON.
func findingLines(fs []thirdPartyFinding, r Result) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s %s: %s\n", f.Severity, f.Check, f.Target, f.Queue, f.Summary)
		for _, e := range f.Evidence {
			fmt.Fprintf(&b, "    %s: %s\n", e.Name, e.Value)
		}
	}
	fmt.Fprintf(&b, "exit %d; stderr:\n%s", r.Code, r.Stderr)
	return b.String()
}
