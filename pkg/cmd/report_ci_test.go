package cmd

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// ignoreFile writes an ignore file into a temporary folder and returns its path.
func ignoreFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ignore.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// jsonSummary runs -o json and returns its summary and suppressions.
type jsonDoc struct {
	Summary      struct{ Warning, Critical int }
	Findings     []struct{ Check string }
	Suppressions *struct {
		Findings []struct{ Check, Reason, Source string }
		Expired  []string
	}
}

func runJSON(t *testing.T, args ...string) (jsonDoc, int, string) {
	t.Helper()
	out, errOut, code := runReportCmd(t, append([]string{"--from-file", pair, "-o", "json"}, args...)...)
	var doc jsonDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: -o json is not JSON (%v):\n%s\n%s", args, err, out, errOut)
	}
	return doc, code, errOut
}

// As CI runs it: -o junit is well-formed XML whose failures are the warning and critical
// findings of -o json.
func TestJUnitCountsJSON(t *testing.T) {
	out, errOut, code := runReportCmd(t, "--from-file", pair, "-o", "junit", "--ignore-file", "none")
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
	}
	if code != cli.ExitOK || xml.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d, not XML:\n%s\n%s", code, out, errOut)
	}
	j, _, _ := runJSON(t, "--ignore-file", "none")
	if doc.Failures+doc.Errors != j.Summary.Warning+j.Summary.Critical || doc.Failures == 0 || doc.Tests <= doc.Failures {
		t.Errorf("junit %+v, json summary %+v", doc, j.Summary)
	}
	gh, _, _ := runReportCmd(t, "--from-file", pair, "-o", "github", "--ignore-file", "none")
	if n := strings.Count(gh, "::warning title=") + strings.Count(gh, "::error title="); n != j.Summary.Warning+j.Summary.Critical {
		t.Errorf("github: %d commands, want %d:\n%s", n, j.Summary.Warning+j.Summary.Critical, gh)
	}
}

// An ignore file naming every finding makes --fail-on warning pass, and every output lists
// what it suppressed with the reason; an expired entry no longer suppresses and says so.
func TestIgnoreFile(t *testing.T) {
	base, _, _ := runJSON(t, "--ignore-file", "none")
	var b strings.Builder
	b.WriteString("ignore:\n")
	for _, f := range base.Findings {
		b.WriteString("- check: " + f.Check + "\n  reason: accepted while the load test runs\n")
	}
	file := ignoreFile(t, b.String())

	doc, code, errOut := runJSON(t, "--ignore-file", file, "--fail-on", "warning")
	if code != cli.ExitOK || doc.Summary.Warning+doc.Summary.Critical != 0 || doc.Suppressions == nil ||
		len(doc.Suppressions.Findings) != len(base.Findings) {
		t.Fatalf("exit %d, summary %+v, suppressions %+v\n%s", code, doc.Summary, doc.Suppressions, errOut)
	}
	for _, s := range doc.Suppressions.Findings {
		if s.Reason != "accepted while the load test runs" || !strings.HasPrefix(s.Source, file+":") {
			t.Errorf("suppressed %+v", s)
		}
	}
	text, _, code := runReportCmd(t, "--from-file", pair, "--ignore-file", file, "--fail-on", "warning")
	if code != cli.ExitOK || !strings.Contains(text, "SUPPRESSED\nSuppressed: ") || !strings.Contains(text, "accepted while the load test runs") ||
		!strings.Contains(text, "No findings") {
		t.Errorf("text: exit %d\n%s", code, text)
	}
	junit, _, _ := runReportCmd(t, "--from-file", pair, "--ignore-file", file, "-o", "junit")
	if strings.Contains(junit, "<failure") || !strings.Contains(junit, `<skipped message="suppressed: accepted while the load test runs (`) {
		t.Errorf("junit:\n%s", junit)
	}

	// Expired yesterday: the findings count again, and a notice says why.
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	expired := ignoreFile(t, "ignore:\n- check: "+base.Findings[0].Check+"\n  reason: was fine\n  expires: "+yesterday+"\n")
	doc, code, errOut = runJSON(t, "--ignore-file", expired, "--fail-on", "warning")
	if code != cli.ExitFindings || doc.Suppressions == nil || len(doc.Suppressions.Findings) != 0 ||
		len(doc.Suppressions.Expired) != 1 || !strings.Contains(errOut, "notice: "+expired+":2: the entry for "+base.Findings[0].Check+" expired on "+yesterday) {
		t.Errorf("expired: exit %d, %+v\n%s", code, doc.Suppressions, errOut)
	}
}

// Malformed files are usage errors naming the line, and no report is printed.
func TestIgnoreFileErrors(t *testing.T) {
	for text, want := range map[string]string{
		"ignore:\n- check: CD208\n":              "line 2: the entry for workers-saturated has no reason",
		"ignore:\n- check: CD999\n  reason: x\n": `line 2: unknown check "CD999"`,
		"ignore:\n  - check: [\n":                "line 2",
	} {
		out, errOut, code := runReportCmd(t, "--from-file", pair, "--ignore-file", ignoreFile(t, text))
		if code != cli.ExitUsage || !strings.Contains(errOut, want) || strings.Contains(out, "FINDINGS") {
			t.Errorf("%q: exit %d, stdout %d bytes\n%s", text, code, len(out), errOut)
		}
	}
	if _, errOut, code := runReportCmd(t, "--from-file", pair, "--ignore-file", "/nonexistent.yaml"); code != cli.ExitUsage || !strings.Contains(errOut, "read ignore file") {
		t.Errorf("missing file: exit %d\n%s", code, errOut)
	}
}

// .ctrldiag-ignore.yaml in the current folder is read unless --ignore-file none.
func TestDefaultIgnoreFile(t *testing.T) {
	base, _, _ := runJSON(t, "--ignore-file", "none")
	abs, err := filepath.Abs("../../testdata/pages")
	if err != nil {
		t.Fatal(err)
	}
	pages := strings.ReplaceAll(pair, "../../testdata/pages", abs)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".ctrldiag-ignore.yaml"), []byte("ignore:\n- check: "+base.Findings[0].Check+"\n  reason: default file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, errOut, _ := runReportCmd(t, "--from-file", pages, "-o", "json")
	if !strings.Contains(out, `"source": ".ctrldiag-ignore.yaml:2"`) {
		t.Errorf("the default file was not read:\n%.2000s\n%s", out, errOut)
	}
	out, _, _ = runReportCmd(t, "--from-file", pages, "-o", "json", "--ignore-file", "none")
	if strings.Contains(out, "suppressions") {
		t.Errorf("--ignore-file none read the default file")
	}
}
