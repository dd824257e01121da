package render

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// junitDoc reads back what ReportJUnit writes.
type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Time     string `xml:"time,attr"`
		Cases    []struct {
			Classname string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			SystemOut *string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, r view.Report) (junitDoc, string) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, "junit", r); err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	return doc, b.String()
}

// The JUnit report counts right: a failure per warning or critical finding, an error per
// target that could not be read, info as passing cases with system-out, and the totals add up.
func TestReportJUnit(t *testing.T) {
	r := withInfo(fixtureReport(t))
	doc, text := readJUnit(t, r)
	failing, info, unread := 0, 0, 0
	for _, f := range r.Findings {
		switch {
		case f.Check == "scrape-failed":
			unread++
		case f.Severity == findings.Warning || f.Severity == findings.Critical:
			failing++
		default:
			info++
		}
	}
	if unread == 0 || failing == 0 || info == 0 {
		t.Fatalf("the fixture should hold every kind of finding: %d %d %d", unread, failing, info)
	}
	if doc.Failures != failing || doc.Errors != unread || doc.Failures+doc.Errors != r.Summary.Warning+r.Summary.Critical {
		t.Errorf("failures %d errors %d, want %d and %d (summary %+v)", doc.Failures, doc.Errors, failing, unread, r.Summary)
	}
	tests, failures, errs, sysout, names := 0, 0, 0, 0, []string{}
	for _, s := range doc.Suites {
		names = append(names, s.Name)
		wantTime := "10.000" // the window
		if s.Errors > 0 {
			wantTime = "0.000" // nothing read: nothing timed
		}
		if s.Tests != len(s.Cases) || s.Time != wantTime {
			t.Errorf("suite %s: tests %d of %d cases, time %s", s.Name, s.Tests, len(s.Cases), s.Time)
		}
		sf, se := 0, 0
		for _, c := range s.Cases {
			if !strings.HasSuffix(c.Name, c.Classname) && !strings.Contains(c.Name, " "+c.Classname+": ") {
				t.Errorf("case %q of class %q", c.Name, c.Classname)
			}
			if c.Failure != nil {
				sf++
				if c.Failure.Message == "" || !strings.Contains(c.Failure.Text, "fix: ") {
					t.Errorf("failure without title or recommendation: %+v", c.Failure)
				}
			}
			if c.Error != nil {
				se++
			}
			if c.SystemOut != nil && c.Failure == nil {
				sysout++
			}
		}
		if s.Failures != sf || s.Errors != se {
			t.Errorf("suite %s: failures %d errors %d, counted %d %d", s.Name, s.Failures, s.Errors, sf, se)
		}
		tests, failures, errs = tests+s.Tests, failures+sf, errs+se
	}
	if doc.Tests != tests || doc.Failures != failures || doc.Errors != errs || sysout != info {
		t.Errorf("totals %d/%d/%d, counted %d/%d/%d; system-out %d of %d info", doc.Tests, doc.Failures, doc.Errors, tests, failures, errs, sysout, info)
	}
	if !strings.Contains(strings.Join(names, " "), "broken-system/broken-operator-0:8443") {
		t.Errorf("the unreadable target has no suite: %v", names)
	}
	if _, text2 := readJUnit(t, withInfo(fixtureReport(t))); text != text2 {
		t.Error("the JUnit report is not deterministic")
	}
}

// withInfo adds an info finding (the fixture has none) to a target read.
func withInfo(r view.Report) view.Report {
	d, _ := findings.Lookup("warm-standby")
	r.Findings = append(r.Findings, findings.Finding{Code: d.Code, Check: d.Check, Severity: findings.Info, Title: d.Title,
		Target: "widgets-system/widgets-controller-7d9f8-abcde:8080", Queue: "widget", Summary: "a warm replica"})
	r.Recount()
	return r
}

// A target read with queues is judged by the queue checks; one without a pod not by restarts;
// every catalog check belongs to one group of judgedGroups.
func TestJudgedChecks(t *testing.T) {
	in := map[string]int{}
	for _, checks := range judgedGroups {
		for _, c := range checks {
			in[c]++
		}
	}
	for _, d := range findings.Catalog() {
		if in[d.Check] != 1 {
			t.Errorf("check %s is in %d groups of judgedGroups", d.Check, in[d.Check])
		}
	}
	r := fixtureReport(t)
	op := judgedChecks(r, "widgets-system/widgets-controller-7d9f8-abcde:8080")
	if !op["workers-saturated"] || !op["restarts"] || !op["memory-pressure"] || op["leader-election"] {
		t.Errorf("operator pod: %v", op)
	}
	api := judgedChecks(r, "apiserver")
	if api["restarts"] || !api["scrape-failed"] {
		t.Errorf("apiserver: %v", api)
	}
	if broken := judgedChecks(r, "broken-system/broken-operator-0:8443"); broken["scrape-failed"] || broken["workers-saturated"] {
		t.Errorf("an unreadable target runs no rule but scrape-failed's own finding: %v", broken)
	}
}

// Suppressed findings are skipped cases, not failures.
func TestReportJUnitSuppressed(t *testing.T) {
	r := fixtureReport(t)
	var keep []findings.Finding
	var s view.Suppressions
	for _, f := range r.Findings {
		if f.Severity == findings.Warning && f.Check != "scrape-failed" && len(s.Findings) == 0 {
			s.Findings = append(s.Findings, view.Suppressed{Finding: f, Reason: "known", Source: "i.yaml:3"})
			continue
		}
		keep = append(keep, f)
	}
	before, _ := readJUnit(t, r)
	r.Findings, r.Suppressions = keep, &s
	r.Recount()
	doc, _ := readJUnit(t, r)
	skipped := 0
	for _, s := range doc.Suites {
		skipped += s.Skipped
	}
	if doc.Failures != before.Failures-1 || skipped != 1 || doc.Tests != before.Tests {
		t.Errorf("failures %d→%d, skipped %d, tests %d→%d", before.Failures, doc.Failures, skipped, before.Tests, doc.Tests)
	}
	var text bytes.Buffer
	if err := Write(&text, "text", r); err != nil || !strings.Contains(text.String(), "Suppressed: 1 (1 by i.yaml:3: known)") {
		t.Errorf("text: %v\n%s", err, text.String())
	}
	var md bytes.Buffer
	if err := Write(&md, "markdown", r); err != nil || !strings.Contains(md.String(), "## Suppressed") {
		t.Errorf("markdown: %v", err)
	}
	var html bytes.Buffer
	if err := Write(&html, "html", r); err != nil || !strings.Contains(html.String(), "<h2>Suppressed</h2>\n  <p>Suppressed: 1 (1 by i.yaml:3: known)</p>") {
		t.Errorf("html: %v", err)
	}
	var gh bytes.Buffer
	if err := Write(&gh, "github", r); err != nil || !strings.Contains(gh.String(), "\nSuppressed: 1 (1 by i.yaml:3: known)\n") {
		t.Errorf("github: %v\n%s", err, gh.String())
	}
}

// One workflow command per warning or critical finding, escaped as the runner reads them.
func TestReportGitHub(t *testing.T) {
	r := fixtureReport(t)
	var b bytes.Buffer
	if err := Write(&b, "github", r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	errs, warns := 0, 0
	for _, l := range lines[:len(lines)-1] {
		switch {
		case strings.HasPrefix(l, "::error title=CD"):
			errs++
		case strings.HasPrefix(l, "::warning title=CD"):
			warns++
		default:
			t.Errorf("unexpected line %q", l)
		}
	}
	if errs != r.Summary.Critical || warns != r.Summary.Warning || errs == 0 {
		t.Errorf("%d errors, %d warnings; summary %+v", errs, warns, r.Summary)
	}
	if !strings.HasPrefix(lines[len(lines)-1], "kubectl ctrldiag report: ") {
		t.Errorf("last line %q", lines[len(lines)-1])
	}
	if got := githubData("50% done\r\nnext: a, b"); got != "50%25 done%0D%0Anext: a, b" {
		t.Errorf("data: %q", got)
	}
	if got := githubProperty("CD208 a: b, c%\n"); got != "CD208 a%3A b%2C c%25%0A" {
		t.Errorf("property: %q", got)
	}
}

// JUnit, GitHub and the report list the findings in one order: the report's, ranked by impact.
func TestCIFormatsKeepTheReportsOrder(t *testing.T) {
	r := fixtureReport(t)
	var want []string
	for _, f := range r.Findings {
		if f.Severity == findings.Warning || f.Severity == findings.Critical {
			want = append(want, f.Code+"|"+f.Target+"|"+f.Queue)
		}
	}
	doc, _ := readJUnit(t, r)
	var got []string
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil || c.Error != nil {
				code, _, _ := strings.Cut(c.Name, " ")
				got = append(got, code+"|"+s.Name)
			}
		}
	}
	// The suites group a target's findings: each target's in the report's order, and the
	// targets in the order of their first finding.
	var grouped []string
	for _, id := range junitTargets(r) {
		for _, f := range r.Findings {
			if f.Target == id && (f.Severity == findings.Warning || f.Severity == findings.Critical) {
				grouped = append(grouped, f.Code+"|"+f.Target)
			}
		}
	}
	if strings.Join(got, " ") != strings.Join(grouped, " ") || junitTargets(r)[0] != r.Findings[0].Target {
		t.Errorf("junit order\n %v\nwant\n %v", got, grouped)
	}
	var b strings.Builder
	if err := ReportGitHub(&b, r); err != nil {
		t.Fatal(err)
	}
	var gh []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "::error ") || strings.HasPrefix(l, "::warning ") {
			gh = append(gh, l)
		}
	}
	if len(gh) != len(want) {
		t.Fatalf("github: %d commands, want %d", len(gh), len(want))
	}
	for i, w := range want {
		code, _, _ := strings.Cut(w, "|")
		if !strings.Contains(gh[i], "title="+code+" ") {
			t.Errorf("github command %d is not %s: %s", i, w, gh[i])
		}
	}
}
