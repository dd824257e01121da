package render

import (
	"bytes"
	"flag"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/golden"

	"golang.org/x/net/html"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// reportFormats are every output format of `kubectl ctrldiag report`, rendered as the
// command renders them.
var reportFormats = map[string]func(io.Writer, view.Report) error{
	"txt":  ReportText,
	"md":   ReportMarkdown,
	"html": ReportHTML,
	"json": func(w io.Writer, r view.Report) error { return Write(w, "json", r) },
	"yaml": func(w io.Writer, r view.Report) error { return Write(w, "yaml", r) },
	// -o wide: every column, whole names, each finding's why.
	"wide.txt": func(w io.Writer, r view.Report) error { return Write(w, "wide", r) },
}

// The text report keeps to 80 columns: a line may pass them only when it is one name alone.
// -o wide is not held to them.
func TestReportTextFits80Columns(t *testing.T) {
	for name, r := range map[string]view.Report{"fixture": fixtureReport(t)} {
		var buf bytes.Buffer
		if err := ReportText(&buf, r); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(buf.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > 80 && len(strings.Fields(line)) > 1 {
				t.Errorf("%s: a line of %d columns: %q", name, n, line)
			}
		}
	}
}

func TestReportGolden(t *testing.T) {
	r := fixtureReport(t)
	if r.Summary.Critical == 0 || r.Summary.Warning == 0 || len(r.Errors) == 0 {
		t.Fatalf("the fixture should raise critical and warning findings and hold an unread target: %+v", r.Summary)
	}
	for ext, render := range reportFormats {
		t.Run(ext, func(t *testing.T) {
			var buf bytes.Buffer
			if err := render(&buf, r); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "report."+ext), buf.Bytes(), *update, "go test ./pkg/print/render -update")
		})
	}
}

// remote matches anything that would make the page load a resource from the network.
var remote = regexp.MustCompile(`(?i)(src|href|xlink:href|action|poster)\s*=\s*["']?\s*(https?:)?//|@import|url\(\s*["']?\s*(https?:)?//|<script|<link|<iframe|<img`)

// The html page is one self-contained, well-formed document: no script, nothing fetched,
// balanced elements, and the sections, charts and finding cards are there.
func TestReportHTMLIsSelfContained(t *testing.T) {
	r := fixtureReport(t)
	var buf bytes.Buffer
	if err := ReportHTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{`<a href="https://example.com">`, `src='//cdn.example/x.js'`, `@import "x.css"`,
		`background: url( "http://x/y.png")`, `<link rel="stylesheet" href="s.css">`} {
		if !remote.MatchString(bad) {
			t.Fatalf("the check misses %s", bad)
		}
	}
	if m := remote.FindString(page); m != "" {
		t.Errorf("the page references something outside itself: %q", m)
	}
	checkBalanced(t, page)
	for _, want := range []string{"1. Controller pods", "2. Workqueue depth and backlog trend", "3. Cache sync lag",
		"4. Event processing", "5. Memory and CPU", "6. Objects the controllers reconcile", "7. Findings", html.EscapeString(r.Summary.Verdict),
		`<svg class="depth"`, `<svg class="hist"`, `class="mark p99"`, `class="card critical"`, `class="card warning"`,
		"stuck-worker", "Targets that could not be read"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// Text from the cluster is escaped, never markup.
	if strings.Contains(page, "<use --token-from-sa>") {
		t.Error("an error message was written unescaped")
	}
}

// checkBalanced tokenizes the page and checks that every element is closed in order.
func checkBalanced(t *testing.T, page string) {
	t.Helper()
	void := map[string]bool{"meta": true, "br": true, "hr": true, "img": true, "input": true, "link": true, "wbr": true}
	var stack []string
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatalf("tokenizer: %v", z.Err())
			}
			if len(stack) > 0 {
				t.Errorf("unclosed elements at the end: %v", stack)
			}
			return
		case html.StartTagToken:
			name, _ := z.TagName()
			if !void[string(name)] {
				stack = append(stack, string(name))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				t.Fatalf("</%s> closes %v", name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
}
