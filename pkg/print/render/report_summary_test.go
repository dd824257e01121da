package render

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// summaryBlock is the text report's summary: the lines from its heading to the blank line
// after it.
func summaryBlock(t *testing.T, text string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(text, "\nIN TROUBLE, WORST FIRST")
	if !ok {
		t.Fatalf("no summary in\n%s", text)
	}
	block, _, _ := strings.Cut("IN TROUBLE, WORST FIRST"+rest, "\n\n")
	return strings.Split(strings.TrimSuffix(block, "\n"), "\n")
}

// Every line of the golden text report's summary fits in 80 columns, and the first ten lines
// of the report name the worst controller, what is wrong and the change to make.
func TestGoldenSummaryFitsIn80Columns(t *testing.T) {
	b, err := os.ReadFile("testdata/report.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := summaryBlock(t, string(b))
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > summaryWidth {
			t.Errorf("%d columns: %q", n, l)
		}
	}
	first := strings.Join(strings.SplitN(string(b), "\n", 11)[:10], "\n")
	for _, want := range []string{"stuck-system/stuck-operator-5c6d7-xyz12:8080 reconciler", "a worker stuck for 50s", "change: "} {
		if !strings.Contains(first, want) {
			t.Errorf("the first ten lines lack %q:\n%s", want, first)
		}
	}
}

// Long names, long causes and long changes: an entry takes at most four lines (three when
// its names leave room for what is wrong), and only a line of names alone may pass 80
// columns. Past five controllers the rest are counted.
func TestSummaryLinesStayIn80Columns(t *testing.T) {
	long := strings.Repeat("very-long-name-", 4)
	var s view.Summary
	for i, tc := range []view.Trouble{
		{Target: "ns/op:8080", Queue: "q", What: "workers saturated, queue p99 9.2s, 138 waiting", Cause: "admission webhook slow-pods.example.com, p90 2.1s", Change: "MaxConcurrentReconciles 1 -> 13"},
		{Target: long + "/" + long + ":8080", Queue: long, What: strings.Repeat("what is wrong ", 10), Cause: strings.Repeat("the cause ", 12), Change: strings.Repeat("a change, ", 12)},
		{Target: "ns/operator-with-a-long-name-7d9f8-abcde:8080", Queue: "workload", What: "20.1% of reconciles fail", Cause: "3 widgets.example.com fail: BackendUnavailable (2)", Change: "Read the errors in the log and fix the cause"},
		{Target: "ns/op:8080", What: "memory near the limit (OOMKilled)", Change: strings.Repeat("x", 200)},
		{Target: "ns/op-5:8080", What: "w"}, {Target: "ns/op-6:8080", What: "w"}, {Target: "ns/op-7:8080", What: "w"},
	} {
		tc.Severity, tc.Codes = findings.Warning, []string{fmt.Sprintf("CD2%02d", i)}
		s.InTrouble = append(s.InTrouble, tc)
	}
	var b bytes.Buffer
	ew := &errWriter{w: &b}
	writeTextSummary(ew, s)
	lines := summaryBlock(t, "\n"+b.String())
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > summaryWidth && strings.HasPrefix(l, " ") && len(strings.Fields(l)) > 1 { // a name alone may pass
			t.Errorf("%d columns: %q", n, l)
		}
	}
	for _, tc := range s.InTrouble[:maxTroubles] {
		n := len(troubleLines(tc))
		limit := 3
		if utf8.RuneCountInString(troubleHead(tc)+": "+tc.What) > summaryWidth && tc.Cause != "" {
			limit = 4
		}
		if utf8.RuneCountInString(strings.ToUpper(string(tc.Severity))+" "+tc.Target) > summaryWidth {
			limit++ // the target alone on a line under its severity
		}
		if n > limit {
			t.Errorf("%d lines for %+v", n, tc)
		}
	}
	if got := troubleLines(s.InTrouble[0]); strings.Join(got, "\n") != "WARNING ns/op:8080 q: workers saturated, queue p99 9.2s, 138 waiting\n"+
		"  cause: admission webhook slow-pods.example.com, p90 2.1s\n  change: MaxConcurrentReconciles 1 -> 13 (CD200)" {
		t.Errorf("entry:\n%s", strings.Join(got, "\n"))
	}
	if last := lines[len(lines)-1]; last != "and 2 more controllers in trouble: see the findings" || strings.Contains(b.String(), "ns/op-6:8080") {
		t.Errorf("not bounded:\n%s", b.String())
	}
}

// A healthy run's summary is one line.
func TestHealthySummaryIsOneLine(t *testing.T) {
	var b bytes.Buffer
	writeTextSummary(&errWriter{w: &b}, view.Summary{Healthy: "3 targets, 12 queues read over 30s; no warnings", InTrouble: []view.Trouble{}})
	if b.String() != "Healthy: 3 targets, 12 queues read over 30s; no warnings.\n" {
		t.Errorf("%q", b.String())
	}
}

// A target too long to share a line with its severity has a line of its own; the severity
// and the queue start the next, with what is wrong.
func TestSummaryOfALongTarget(t *testing.T) {
	target := "e2e-testreportdiagnoseseachscenario-failing-1250254/operator-failing:8080"
	got := troubleLines(view.Trouble{Severity: findings.Warning, Target: target, Queue: "workload", What: "objects keep failing",
		Change: "fix the objects' dependencies", Codes: []string{"CD213"}})
	want := []string{target, "  WARNING workload: objects keep failing", "  change: fix the objects' dependencies (CD213)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
