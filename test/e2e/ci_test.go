//go:build e2e

package e2e

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ciDoc is the part of `report -o json` the CI test reads: findings and what was suppressed.
type ciDoc struct {
	Summary      struct{ Warning, Critical int }
	Findings     []struct{ Check, Severity, Target string }
	Suppressions *struct {
		Findings []struct{ Check, Target, Reason, Source string }
		Expired  []string
	}
}

// The report as CI runs it, on two saturated operators in two namespaces, the first of which
// accepts workers-saturated with the ctrldiag.io/ignore annotation. Read from one snapshot, so
// that every run judges the same samples: -o junit is well-formed and its failures (and
// errors) are the warning and critical findings of -o json; -o github has a command for each;
// the annotation suppresses workers-saturated of the first operator only; an ignore file that
// names the other warnings makes --fail-on warning pass and lists them with its reason; an
// expired entry no longer suppresses and says so; a malformed file is an error naming the line.
func TestReportForCI(t *testing.T) {
	crowd(t)
	nsA, nsB := newNamespace(t), newNamespace(t)
	sel := "ctrldiag.dev/e2e=" + nsA // a label of this test only: -A reads these two pods
	plugin := filepath.Join(env.binDir, "kubectl-ctrldiag")
	ids := map[string]string{}
	for ns, annotations := range map[string]map[string]string{nsA: {"ctrldiag.io/ignore": "CD208"}, nsB: nil} {
		p := startBehindPod(t, podSpec{Namespace: ns, Name: "operator", Annotations: annotations,
			Labels: map[string]string{"app": "ctrldiag-demo", "ctrldiag.dev/e2e": nsA}, MemoryLimit: "150Mi",
			Ports: []podPort{{Name: "http-metrics", Port: 8080}},
			Command: func(l map[int32]string) []string {
				return []string{plugin, "operator", "run", "-n", ns, "--scenario", "saturated",
					"--metrics-bind-address", l[8080], "--health-probe-bind-address", "0"}
			}})
		ids[ns] = fmt.Sprintf("%s/%s:8080", ns, p.Name)
	}
	time.Sleep(15 * time.Second)
	dir := t.TempDir()
	snap := filepath.Join(dir, "ci.tar.gz")
	if r := ctrldiag(t, "snapshot", "-A", "-l", sel, "--include-apiserver=false", "--ignore-file", "none", "-f", snap); r.Code != 0 && r.Code != 3 {
		t.Fatalf("snapshot:\n%s", r)
	}
	report := func(args ...string) Result {
		return ctrldiag(t, append([]string{"report", "--from-snapshot", snap}, args...)...)
	}
	asJSON := func(args ...string) (ciDoc, Result) {
		t.Helper()
		r := report(append([]string{"-o", "json"}, args...)...)
		var d ciDoc
		if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
			t.Fatalf("report -o json %v: %v\n%s", args, err, r)
		}
		return d, r
	}

	// The annotation: workers-saturated of the first operator is suppressed, the second's not.
	d, r := asJSON("--ignore-file", "none")
	if r.Code != 0 {
		t.Fatalf("report:\n%s", r)
	}
	if d.Suppressions == nil || len(d.Suppressions.Findings) == 0 {
		t.Fatalf("want workers-saturated of %s suppressed by its annotation: %+v\n%s", ids[nsA], d.Suppressions, r)
	}
	for _, s := range d.Suppressions.Findings {
		if s.Check != "workers-saturated" || s.Target != ids[nsA] || s.Source != "annotation ctrldiag.io/ignore on pod "+nsA+"/operator" {
			t.Errorf("suppressed %+v, want only workers-saturated of %s by its annotation", s, ids[nsA])
		}
	}
	var serious []string
	saturatedB := false
	for _, f := range d.Findings {
		if f.Check == "workers-saturated" && f.Target == ids[nsA] {
			t.Errorf("workers-saturated of %s is still among the findings", ids[nsA])
		}
		saturatedB = saturatedB || f.Check == "workers-saturated" && f.Target == ids[nsB]
		if f.Severity != "info" {
			serious = append(serious, f.Check+"@"+f.Target)
		}
	}
	if !saturatedB {
		t.Errorf("workers-saturated of %s (no annotation) is missing: %v", ids[nsB], serious)
	}

	// -o junit and -o github count the findings of -o json.
	j := report("-o", "junit", "--ignore-file", "none")
	var junit struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name    string `xml:"name,attr"`
			Skipped int    `xml:"skipped,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(j.Stdout), &junit); err != nil || j.Code != 0 {
		t.Fatalf("report -o junit: exit %d, %v\n%s", j.Code, err, j)
	}
	skipped := 0
	for _, s := range junit.Suites {
		skipped += s.Skipped
	}
	if junit.Failures+junit.Errors != d.Summary.Warning+d.Summary.Critical || skipped != len(d.Suppressions.Findings) || len(junit.Suites) != 2 {
		t.Errorf("junit: %d failures, %d errors, %d skipped, %d suites; json: %d warnings, %d critical",
			junit.Failures, junit.Errors, skipped, len(junit.Suites), d.Summary.Warning, d.Summary.Critical)
	}
	gh := report("-o", "github", "--ignore-file", "none")
	if n := strings.Count(gh.Stdout, "::warning title=CD") + strings.Count(gh.Stdout, "::error title=CD"); n != len(serious) {
		t.Errorf("github: %d commands for %d findings:\n%s", n, len(serious), gh.Stdout)
	}

	// An ignore file naming the remaining warnings, each in its namespace: --fail-on warning
	// passes.
	var b strings.Builder
	b.WriteString("ignore:\n")
	for _, s := range serious {
		check, tgt, _ := strings.Cut(s, "@")
		ns, _, _ := strings.Cut(tgt, "/")
		fmt.Fprintf(&b, "- check: %s\n  namespace: %s\n  reason: saturated on purpose in this test\n", check, ns)
	}
	file := filepath.Join(dir, "ignore.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := report("--fail-on", "warning", "--ignore-file", "none"); r.Code != 3 {
		t.Errorf("without the file --fail-on warning must exit 3:\n%s", r)
	}
	d, r = asJSON("--fail-on", "warning", "--ignore-file", file)
	if r.Code != 0 || d.Summary.Warning+d.Summary.Critical != 0 || d.Suppressions == nil || len(d.Suppressions.Findings) < len(serious)+1 {
		t.Errorf("with the file: exit %d, summary %+v, suppressed %+v\n%s", r.Code, d.Summary, d.Suppressions, r.Stderr)
	} else {
		for _, s := range d.Suppressions.Findings {
			if !strings.HasPrefix(s.Source, "annotation ") && (s.Reason != "saturated on purpose in this test" || !strings.HasPrefix(s.Source, file+":")) {
				t.Errorf("suppressed %+v", s)
			}
		}
	}
	if text := report("--ignore-file", file); !strings.Contains(text.Stdout, "Suppressed: ") || !strings.Contains(text.Stdout, "saturated on purpose in this test") {
		t.Errorf("the text report does not list the suppressed findings:\n%s", text.Stdout)
	} else if verdict := verdictOf(text.Stdout); !strings.Contains(verdict, "findings suppressed by ") || !strings.Contains(verdict, file) {
		// The file changed the answer: the verdict, first screen, says so.
		t.Errorf("the verdict does not name the ignore file that changed it: %q", verdict)
	}

	// Expired yesterday: it suppresses nothing and a notice says so.
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	expired := filepath.Join(dir, "expired.yaml")
	if err := os.WriteFile(expired, []byte("ignore:\n- check: CD208\n  reason: was accepted\n  expires: "+yesterday+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := report("--fail-on", "warning", "--ignore-file", expired); r.Code != 3 || !strings.Contains(r.Stderr, "notice: "+expired+":2: the entry for workers-saturated expired on "+yesterday) {
		t.Errorf("expired entry: exit %d\n%s", r.Code, r.Stderr)
	}

	// A malformed file: exit 2, the line named, no report.
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("ignore:\n- check: CD208\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := report("--ignore-file", bad); r.Code != 2 || !strings.Contains(r.Stderr, bad+" line 2: the entry for workers-saturated has no reason") ||
		strings.Contains(r.Stdout, "FINDINGS") {
		t.Errorf("malformed file: exit %d\n%s", r.Code, r)
	}
}

// verdictOf is the verdict of a text report, its wrapped lines joined: from "Verdict:" to the
// end of its paragraph.
func verdictOf(text string) string {
	return strings.Join(strings.Fields(linesFrom(text, "Verdict:")), " ")
}
